#include "rowstore.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

namespace {

// Items named name_<from> .. name_<from + count - 1>, as the walker stores them: compact JSON.
ItemTexts items(int from, int count, const QString &extra = QString())
{
    ItemTexts it;
    for (int i = from; i < from + count; ++i)
        it.append(QStringLiteral(R"({"name":"n%1"%2})").arg(i).arg(extra).toUtf8());
    return it;
}

} // namespace

// The rows of a walk, page by page: where each page's rows sit (pages open before they fill, and
// ledger rows have gaps), and each change announced before and after with its range, in the order
// a table needs to call begin/end around it.
class tst_RowStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void openedPageHasNoRows();
    void fillAppendsAfterEarlierPages();
    void pageStillLoadingAfterAFilledOne();
    void laterPageOpenedBeforeTheEarlierFills();
    void emptyPageAnnouncesNothing();
    void replacePage_data();
    void replacePage();
    void dropLastPage();
    void clear();
    void lookups();
    void parse_data();
    void parse();

private:
    // Every signal as one line, with the row count the store reports at that moment: an
    // "about to" line must still see the old count, the line after it the new one.
    void record();
    // A page asked for at ledgerRow and answered with page at once.
    void addPage(int ledgerRow, const ItemTexts &page)
    {
        m_store->openPage(ledgerRow);
        m_store->fillPage(ledgerRow, page);
    }

    RowStore *m_store = nullptr;
    QStringList m_events;
};

void tst_RowStore::init()
{
    m_store = new RowStore(this);
    m_events.clear();
    record();
}

void tst_RowStore::cleanup()
{
    delete m_store;
    m_store = nullptr;
}

void tst_RowStore::record()
{
    auto line = [this](const QString &what) {
        m_events << QStringLiteral("%1 @%2").arg(what).arg(m_store->rowCount());
    };
    connect(m_store, &RowStore::rowsAboutToBeInserted, this,
            [line](int first, int last, const ItemTexts &it) {
                line(QStringLiteral("aboutToInsert %1-%2 (%3)").arg(first).arg(last).arg(it.count()));
            });
    connect(m_store, &RowStore::rowsInserted, this, [line] { line(QStringLiteral("inserted")); });
    connect(m_store, &RowStore::rowsAboutToBeRemoved, this, [line](int first, int last) {
        line(QStringLiteral("aboutToRemove %1-%2").arg(first).arg(last));
    });
    connect(m_store, &RowStore::rowsRemoved, this, [line] { line(QStringLiteral("removed")); });
    connect(m_store, &RowStore::rowsReplaced, this,
            [line](int first, int last) { line(QStringLiteral("replaced %1-%2").arg(first).arg(last)); });
    connect(m_store, &RowStore::aboutToBeReset, this, [line] { line(QStringLiteral("aboutToReset")); });
    connect(m_store, &RowStore::wasReset, this, [line] { line(QStringLiteral("reset")); });
}

void tst_RowStore::openedPageHasNoRows()
{
    m_store->openPage(0);
    QVERIFY(m_events.isEmpty()); // a request has no rows to announce
    QCOMPARE(m_store->rowCount(), 0);
    QCOMPARE(m_store->pageCount(), 1);
    QCOMPARE(m_store->pageLedgerRows(), QList<int>{0});
    QVERIFY(m_store->containsPage(0));
    int first = -1, count = -1;
    QVERIFY(m_store->rowsOfPage(0, &first, &count));
    QCOMPARE(first, 0);
    QCOMPARE(count, 0);
    QVERIFY(m_store->pageItems(0));
    QCOMPARE(m_store->pageItems(0)->count(), 0);
}

void tst_RowStore::fillAppendsAfterEarlierPages()
{
    addPage(0, items(0, 3));
    m_store->openPage(2); // ledger row 1 was a request that is not part of the walk
    m_store->fillPage(2, items(3, 2));
    QCOMPARE(m_events,
             (QStringList{QStringLiteral("aboutToInsert 0-2 (3) @0"), QStringLiteral("inserted @3"),
                          QStringLiteral("aboutToInsert 3-4 (2) @3"), QStringLiteral("inserted @5")}));
    QCOMPARE(m_store->rowCount(), 5);
    QCOMPARE(m_store->pageLedgerRows(), (QList<int>{0, 2}));
    QCOMPARE(m_store->itemText(3), QByteArrayView(R"({"name":"n3"})"));
    m_store->fillPage(1, items(9, 1)); // not a page of the walk: ignored
    QCOMPARE(m_events.size(), 4);
    QCOMPARE(m_store->rowCount(), 5);
}

void tst_RowStore::pageStillLoadingAfterAFilledOne()
{
    addPage(0, items(0, 3));
    m_store->openPage(1);
    int first = -1, count = -1;
    QVERIFY(m_store->rowsOfPage(1, &first, &count));
    QCOMPARE(first, 3); // after the earlier page's rows
    QCOMPARE(count, 0);
    QCOMPARE(m_store->rowCount(), 3);
    QCOMPARE(m_store->pageCount(), 2);
}

void tst_RowStore::laterPageOpenedBeforeTheEarlierFills()
{
    // Fetching all, the walker asks for the next page before it stores the page just read.
    m_store->openPage(0);
    m_store->openPage(1);
    m_store->fillPage(0, items(0, 3));
    int first = -1, count = -1;
    QVERIFY(m_store->rowsOfPage(1, &first, &count));
    QCOMPARE(first, 3);
    m_store->fillPage(1, items(3, 2));
    QCOMPARE(m_events,
             (QStringList{QStringLiteral("aboutToInsert 0-2 (3) @0"), QStringLiteral("inserted @3"),
                          QStringLiteral("aboutToInsert 3-4 (2) @3"), QStringLiteral("inserted @5")}));
    QCOMPARE(m_store->ledgerRowOf(2), 0);
    QCOMPARE(m_store->ledgerRowOf(3), 1);
}

void tst_RowStore::emptyPageAnnouncesNothing()
{
    addPage(0, items(0, 0));
    addPage(1, items(0, 2));
    QCOMPARE(m_events,
             (QStringList{QStringLiteral("aboutToInsert 0-1 (2) @0"), QStringLiteral("inserted @2")}));
    QCOMPARE(m_store->pageIndexOf(0), 1); // the empty page is still a page of the walk
    QVERIFY(m_store->isFirstRowOfPage(0));
}

void tst_RowStore::replacePage_data()
{
    QTest::addColumn<int>("before"); // the middle page's items before and after the refetch
    QTest::addColumn<int>("after");
    QTest::addColumn<QStringList>("events");
    QTest::addColumn<int>("lastPageFirst"); // where the page after it starts then

    QTest::addRow("same_count_replaced") << 2 << 2 << QStringList{QStringLiteral("replaced 3-4 @7")} << 3 + 2;
    QTest::addRow("page_grew") << 2 << 3
                               << QStringList{QStringLiteral("aboutToRemove 3-4 @7"),
                                              QStringLiteral("removed @5"),
                                              QStringLiteral("aboutToInsert 3-5 (3) @5"),
                                              QStringLiteral("inserted @8")}
                               << 3 + 3;
    QTest::addRow("page_shrank") << 2 << 1
                                 << QStringList{QStringLiteral("aboutToRemove 3-4 @7"),
                                                QStringLiteral("removed @5"),
                                                QStringLiteral("aboutToInsert 3-3 (1) @5"),
                                                QStringLiteral("inserted @6")}
                                 << 3 + 1;
    QTest::addRow("page_emptied") << 2 << 0
                                  << QStringList{QStringLiteral("aboutToRemove 3-4 @7"),
                                                 QStringLiteral("removed @5")}
                                  << 3;
    QTest::addRow("empty_page_filled")
        << 0 << 2 << QStringList{QStringLiteral("aboutToInsert 3-4 (2) @5"), QStringLiteral("inserted @7")}
        << 3 + 2;
    QTest::addRow("empty_stays_empty") << 0 << 0 << QStringList{} << 3;
}

void tst_RowStore::replacePage()
{
    QFETCH(int, before);
    QFETCH(int, after);
    QFETCH(QStringList, events);
    QFETCH(int, lastPageFirst);
    addPage(0, items(0, 3));
    addPage(1, items(100, before));
    addPage(2, items(200, 2));
    m_events.clear();

    m_store->replacePage(1, items(100, after, QStringLiteral(R"(,"v":2)")));
    QCOMPARE(m_events, events);
    QCOMPARE(m_store->rowCount(), 3 + after + 2);
    int first = -1, count = -1;
    QVERIFY(m_store->rowsOfPage(1, &first, &count));
    QCOMPARE(first, 3);
    QCOMPARE(count, after);
    for (int i = 0; i < after; ++i) {
        QCOMPARE(m_store->item(first + i).value(QStringLiteral("v")).toInt(), 2); // the new copy
        QCOMPARE(m_store->ledgerRowOf(first + i), 1);
    }
    QVERIFY(m_store->rowsOfPage(2, &first, &count));
    QCOMPARE(first, lastPageFirst);
    QCOMPARE(m_store->item(first).value(QStringLiteral("name")).toString(), QStringLiteral("n200"));
    QCOMPARE(m_store->pageIndexOf(first), 2);
    QVERIFY(m_store->isFirstRowOfPage(first));

    m_events.clear();
    m_store->replacePage(7, items(0, 1)); // not a page of the walk: nothing
    QVERIFY(m_events.isEmpty());
}

void tst_RowStore::dropLastPage()
{
    m_store->dropLastPage(); // nothing to drop
    QVERIFY(m_events.isEmpty());
    addPage(0, items(0, 3));
    addPage(1, items(3, 2));
    m_store->openPage(2); // still loading
    m_events.clear();

    m_store->dropLastPage(); // the cancelled request: no rows to take away
    QVERIFY(m_events.isEmpty());
    QCOMPARE(m_store->pageLedgerRows(), (QList<int>{0, 1}));
    m_store->dropLastPage();
    QCOMPARE(m_events, (QStringList{QStringLiteral("aboutToRemove 3-4 @5"), QStringLiteral("removed @3")}));
    QCOMPARE(m_store->pageLedgerRows(), QList<int>{0});
    QVERIFY(!m_store->containsPage(1));
    QCOMPARE(m_store->rowCount(), 3);
    // A page opened after the drop starts where the dropped one did.
    addPage(3, items(3, 1));
    QCOMPARE(m_store->ledgerRowOf(3), 3);
}

void tst_RowStore::clear()
{
    addPage(0, items(0, 3));
    m_store->openPage(1);
    m_events.clear();
    m_store->clear();
    QCOMPARE(m_events, (QStringList{QStringLiteral("aboutToReset @3"), QStringLiteral("reset @0")}));
    QCOMPARE(m_store->pageCount(), 0);
    QVERIFY(!m_store->containsPage(0));
    QVERIFY(m_store->item(0).isEmpty());
    addPage(2, items(0, 1));
    QCOMPARE(m_store->rowCount(), 1);
    QCOMPARE(m_store->ledgerRowOf(0), 2);
}

void tst_RowStore::lookups()
{
    // Ledger rows with gaps (cancelled and discarded requests), pages of 2, 0 and 3 items.
    addPage(1, items(0, 2));
    addPage(4, items(2, 0));
    addPage(6, items(2, 3));
    QCOMPARE(m_store->rowCount(), 5);
    const QList<int> ledgerRows{1, 1, 6, 6, 6};
    const QList<int> pageIndexes{0, 0, 2, 2, 2};
    const QList<bool> firsts{true, false, true, false, false};
    for (int row = 0; row < 5; ++row) {
        QCOMPARE(m_store->ledgerRowOf(row), ledgerRows.at(row));
        QCOMPARE(m_store->pageIndexOf(row), pageIndexes.at(row));
        QCOMPARE(m_store->isFirstRowOfPage(row), firsts.at(row));
        QCOMPARE(m_store->item(row).value(QStringLiteral("name")).toString(), QStringLiteral("n%1").arg(row));
    }
    for (int absent : {0, 2, 3, 5, 7}) {
        int first = -1, count = -1;
        QVERIFY(!m_store->containsPage(absent));
        QVERIFY(!m_store->rowsOfPage(absent, &first, &count));
        QVERIFY(!m_store->pageItems(absent));
    }
    QCOMPARE(m_store->pageItems(6)->count(), 3);
    QCOMPARE(m_store->pageItems(6)->at(0), QByteArrayView(R"({"name":"n2"})"));
    QVERIFY(m_store->item(-1).isEmpty());
    QVERIFY(m_store->item(5).isEmpty());
    QVERIFY(m_store->storedBytes() > 0);
}

void tst_RowStore::parse_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QJsonValue>("value");
    QTest::addRow("object") << QByteArray(R"({"a":1})") << QJsonValue(QJsonObject{{QStringLiteral("a"), 1}});
    QTest::addRow("array") << QByteArray("[1,2]") << QJsonValue(QJsonArray{1, 2});
    QTest::addRow("string") << QByteArray(R"("s")") << QJsonValue(QStringLiteral("s"));
    QTest::addRow("number") << QByteArray("42") << QJsonValue(42);
    QTest::addRow("null") << QByteArray("null") << QJsonValue(QJsonValue::Null);
    QTest::addRow("boolean") << QByteArray("false") << QJsonValue(false);
}

void tst_RowStore::parse()
{
    QFETCH(QByteArray, json);
    QFETCH(QJsonValue, value);
    QCOMPARE(RowStore::parse(json), value);
    // item() is an object or nothing: a list of scalars has rows but no members.
    m_store->openPage(0);
    ItemTexts it;
    it.append(json);
    m_store->fillPage(0, it);
    QCOMPARE(m_store->item(0), value.toObject());
}

QTEST_GUILESS_MAIN(tst_RowStore)
#include "tst_rowstore.moc"
