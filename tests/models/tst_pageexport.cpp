#include "cursordecoder.h"
#include "pagedfixture.h"
#include "pageexport.h"

#include <QTest>

using namespace folio;

namespace {

QString cursorAt(int offset)
{
    return PagedFixture::jsonCursor(QJsonObject{{QStringLiteral("o"), offset}});
}

const QString Opaque = QStringLiteral("opaque.v2|Zm9v~");

// Page 1 -> a base64url JSON cursor -> page 2 -> an undecodable cursor -> page 3 (refused).
PagedFixture::Script script()
{
    return {{PagedFixture::NoCursor, PagedFixture::page(PagedFixture::tools(0, 3), cursorAt(3))},
            {cursorAt(3), PagedFixture::page(PagedFixture::tools(3, 3), Opaque)},
            {Opaque, PagedFixture::rpcError(-32602, QStringLiteral("Invalid cursor"))}};
}

} // namespace

// "Copy as JSON" without a widget: a page's record, its decoded cursors and its items, masked or not.
class tst_PageExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void settledPageHasItemsAndDecodedCursors();
    void maskedPageHidesCursorsAndDecodings();
    void failedPageHasNoItems();
    void discardedPageHasNoItems();
};

void tst_PageExport::settledPageHasItemsAndDecodedCursors()
{
    PagedFixture f;
    QVERIFY(f.connect(script()));
    QVERIFY(f.walkAll());
    const QJsonObject o = PageExport::pageJson(*f.model->walker(), 1, false);
    QCOMPARE(o.value(QStringLiteral("page")).toInt(), 2); // the second page, numbered from 1
    QVERIFY(!o.contains(QStringLiteral("index")));
    QCOMPARE(o.value(QStringLiteral("cursor")).toString(), cursorAt(3));
    QCOMPARE(o.value(QStringLiteral("nextCursor")).toString(), Opaque);
    const QJsonArray items = o.value(QStringLiteral("items")).toArray();
    QCOMPARE(items, PagedFixture::tools(3, 3)); // as received, in order
    QCOMPARE(o.value(QStringLiteral("cursorDecoded")).toObject(),
             cursorDecodingToJson(decodeCursor(cursorAt(3))));
    QVERIFY(!o.contains(QStringLiteral("nextCursorDecoded"))); // opaque: nothing to add

    // The first page sent no cursor: nothing to decode.
    const QJsonObject first = PageExport::pageJson(*f.model->walker(), 0, false);
    QVERIFY(!first.contains(QStringLiteral("cursorDecoded")));
    QVERIFY(first.contains(QStringLiteral("nextCursorDecoded")));
}

void tst_PageExport::maskedPageHidesCursorsAndDecodings()
{
    PagedFixture f;
    QVERIFY(f.connect(script()));
    QVERIFY(f.walkAll());
    const QJsonObject o = PageExport::pageJson(*f.model->walker(), 1, true);
    QCOMPARE(o, [&] {
        QJsonObject expected = f.model->ledger()->page(1).toMaskedJson();
        expected.insert(QStringLiteral("items"), PagedFixture::tools(3, 3));
        return expected;
    }());
    QCOMPARE(o.value(QStringLiteral("cursor")).toString(), maskCursor(cursorAt(3)));
    QVERIFY(!o.contains(QStringLiteral("cursorDecoded")));
    QVERIFY(!QJsonDocument(o).toJson().contains(cursorAt(3).toLatin1()));
}

void tst_PageExport::failedPageHasNoItems()
{
    PagedFixture f;
    QVERIFY(f.connect(script()));
    QVERIFY(f.walkAll());
    const QJsonObject o = PageExport::pageJson(*f.model->walker(), 2, false);
    QCOMPARE(o.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32602);
    QVERIFY(!o.contains(QStringLiteral("items")));
}

void tst_PageExport::discardedPageHasNoItems()
{
    PagedFixture f;
    QVERIFY(f.connect(script()));
    QVERIFY(f.walkAll());
    f.hang.insert(PagedFixture::NoCursor); // the new walk's first page never answers
    f.model->walker()->restart(QStringLiteral("by the test"));
    const QJsonObject o = PageExport::pageJson(*f.model->walker(), 1, false);
    QCOMPARE(o.value(QStringLiteral("state")).toString(), QStringLiteral("discarded"));
    QVERIFY(!o.contains(QStringLiteral("items"))); // not a page of the current walk
    QVERIFY(o.contains(QStringLiteral("cursorDecoded")));
}

QTEST_GUILESS_MAIN(tst_PageExport)
#include "tst_pageexport.moc"
