#include "rowfilter.h"
#include "rowstore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

namespace {

// A page of items as the walker stores them: compact JSON back to back.
ItemTexts items(const QList<QByteArray> &texts)
{
    ItemTexts page;
    for (const QByteArray &t : texts)
        page.append(t);
    return page;
}

QByteArray post(int i, const QString &channel)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("name"), QStringLiteral("p%1").arg(i)},
                                     {QStringLiteral("title"), QStringLiteral("Post in ~%1").arg(channel)}})
        .toJson(QJsonDocument::Compact);
}

// pages pages of perPage posts; every seventh is in ~release, the rest in ~general.
RowStore *fill(RowStore *rows, int pages, int perPage, int firstLedgerRow = 0)
{
    for (int p = 0; p < pages; ++p) {
        QList<QByteArray> texts;
        for (int i = 0; i < perPage; ++i) {
            const int n = rows->rowCount() + i;
            texts << post(n, n % 7 == 0 ? QStringLiteral("Release") : QStringLiteral("general"));
        }
        rows->openPage(firstLedgerRow + p);
        rows->fillPage(firstLedgerRow + p, items(texts));
    }
    return rows;
}

// A store filled with pages of posts, a filter over it with its debounce set, and a spy on the
// filter's resets: where each test starts.
struct FilteredPosts
{
    FilteredPosts(int pages, int perPage, int debounceMs = 0)
        : filter(fill(&rows, pages, perPage))
        , reset(&filter, &RowFilter::matchesReset)
    {
        filter.setDebounceMs(debounceMs);
    }
    RowStore rows;
    RowFilter filter;
    QSignalSpy reset;
};

QList<int> everySeventh(int from, int to)
{
    QList<int> rows;
    for (int r = from; r < to; ++r) {
        if (r % 7 == 0)
            rows << r;
    }
    return rows;
}

} // namespace

// The filter of the window's table: which rows' stored JSON holds the needle, searched off the GUI
// thread; a newer needle drops an older one's result; rows that arrive are matched as they come.
class tst_RowFilter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matcher_data()
    {
        QTest::addColumn<QString>("needle");
        QTest::addColumn<QByteArray>("item");
        QTest::addColumn<bool>("matches");
        const QByteArray tool = "{\"name\":\"list_channels\",\"description\":\"Lists the channels\"}";
        QTest::newRow("plain") << QStringLiteral("channel") << tool << true;
        QTest::newRow("upper_case_needle") << QStringLiteral("CHANNEL") << tool << true;
        QTest::newRow("mixed_case_text") << QStringLiteral("lists the") << tool << true;
        QTest::newRow("absent") << QStringLiteral("prompt") << tool << false;
        QTest::newRow("key_text") << QStringLiteral("description") << tool << true;
        QTest::newRow("longer_than_item") << QStringLiteral("x").repeated(100) << tool << false;
        QTest::newRow("at_the_very_end") << QStringLiteral("ls\"}") << tool << true;
        QTest::newRow("escaped_e_acute")
            << QStringLiteral("café") << QByteArray("{\"d\":\"caf\\u00e9 au lait\"}") << true;
        QTest::newRow("escaped_e_acute_upper_needle")
            << QStringLiteral("CAFÉ") << QByteArray("{\"d\":\"caf\\u00e9\"}") << true;
        QTest::newRow("raw_utf8_case") << QStringLiteral("ÉTÉ") << QByteArray("{\"d\":\"un été\"}") << true;
        QTest::newRow("non_ascii_needle_ascii_text")
            << QStringLiteral("é") << QByteArray("{\"d\":\"plain\"}") << false;
        QTest::newRow("escaped_quote")
            << QStringLiteral("say \"hi\"") << QByteArray("{\"d\":\"they say \\\"hi\\\" twice\"}") << true;
        QTest::newRow("escaped_slash") << QStringLiteral("a/b") << QByteArray("{\"uri\":\"a\\/b\"}") << true;
        QTest::newRow("newline_escape_not_decoded")
            << QStringLiteral("line two") << QByteArray("{\"d\":\"line one\\nline two\"}") << true;
        QTest::newRow("escape_does_not_invent")
            << QStringLiteral("é") << QByteArray("{\"d\":\"caf\\u00e8\"}") << false;
        QTest::newRow("single_letter") << QStringLiteral("Z") << QByteArray("{\"d\":\"zz\"}") << true;
        QTest::newRow("punctuation_first")
            << QStringLiteral("~rel") << QByteArray("{\"t\":\"Post in ~Release\"}") << true;
        // The SSE2 path tries 16 places at a time: a match across a block's end, and one at the
        // last place a match can start.
        const QByteArray filler(40, 'x');
        for (int at : {14, 15, 16, 17, 31, 32})
            QTest::addRow("block_edge_%d", at)
                << QStringLiteral("Needle") << QByteArray("{\"d\":\"" + filler.left(at) + "nEEDLE\"}")
                << true;
        QTest::newRow("block_last_place")
            << QStringLiteral("ab\"}") << QByteArray("{\"d\":\"" + filler + "ab\"}") << true;
    }

    void matcher()
    {
        QFETCH(QString, needle);
        QFETCH(QByteArray, item);
        QFETCH(bool, matches);
        QCOMPARE(RowFilter::Matcher(needle).matches(item), matches);
    }

    // ASCII needles against random ASCII texts: the same answers as QString's case-insensitive
    // contains().
    void matcherAgreesWithQString()
    {
        QRandomGenerator random(13);
        const QByteArray alphabet = "abcABC xyz_-~";
        for (int round = 0; round < 3000; ++round) {
            QByteArray body;
            const int length = random.bounded(0, 90);
            for (int i = 0; i < length; ++i)
                body += alphabet.at(random.bounded(alphabet.size()));
            QByteArray needle;
            const int needleLength = random.bounded(1, 5);
            for (int i = 0; i < needleLength; ++i)
                needle += alphabet.at(random.bounded(alphabet.size()));
            const QByteArray item = "{\"d\":\"" + body + "\"}";
            const bool want =
                QString::fromLatin1(item).contains(QString::fromLatin1(needle), Qt::CaseInsensitive);
            QVERIFY2(RowFilter::Matcher(QString::fromLatin1(needle)).matches(item) == want,
                     qPrintable(QString::fromLatin1(needle + " in " + item)));
        }
    }

    void filtersTheStoredRows()
    {
        FilteredPosts posts(20, 50);
        auto &[rows, filter, reset] = posts;
        filter.setNeedle(QStringLiteral("~RELEASE"));
        QVERIFY(filter.isPending());
        QVERIFY(reset.wait());
        QVERIFY(!filter.isPending());
        QCOMPARE(filter.needle(), QStringLiteral("~RELEASE"));
        QCOMPARE(filter.matches(), everySeventh(0, 1000));

        filter.setNeedle(QString()); // at once, no search
        QCOMPARE(reset.count(), 2);
        QVERIFY(!filter.isActive());
        QVERIFY(filter.matches().isEmpty());
    }

    void debounceWaitsForTheLastKeystroke()
    {
        FilteredPosts posts(4, 50, 100);
        auto &[rows, filter, reset] = posts;
        const int generation = filter.generation();
        for (const char *typed : {"r", "re", "rel", "rele"})
            filter.setNeedle(QString::fromLatin1(typed));
        QCOMPARE(filter.generation(), generation); // nothing searched while typing
        QVERIFY(reset.wait());
        QCOMPARE(reset.count(), 1);
        QCOMPARE(filter.needle(), QStringLiteral("rele"));
        QCOMPARE(filter.generation(), generation + 1);
        QCOMPARE(filter.matches(), everySeventh(0, 200));
    }

    // A needle typed while an older one is being searched: only the newer result arrives.
    void newerNeedleDropsTheOlderResult()
    {
        FilteredPosts posts(400, 500); // 200,000 rows: the first search is still running
        auto &[rows, filter, reset] = posts;
        const int generation = filter.generation();
        filter.setNeedle(QStringLiteral("general"));
        QTRY_VERIFY(filter.generation() > generation); // that search has started
        filter.setNeedle(QStringLiteral("release"));
        QTRY_VERIFY_WITH_TIMEOUT(!filter.isPending(), 20000);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(filter.needle(), QStringLiteral("release"));
        QCOMPARE(filter.matches(), everySeventh(0, 200000));
    }

    void rowsArrivingAreMatched()
    {
        FilteredPosts posts(2, 50);
        auto &[rows, filter, reset] = posts;
        QSignalSpy matched(&filter, &RowFilter::rowsMatched);
        filter.setNeedle(QStringLiteral("release"));
        QVERIFY(reset.wait());
        fill(&rows, 1, 50, 2);
        QVERIFY(matched.wait());
        QCOMPARE(matched.constFirst().constFirst().value<QList<int>>(), everySeventh(100, 150));
        QCOMPARE(filter.matches(), everySeventh(0, 150));
        QCOMPARE(reset.count(), 1);
    }

    // A page whose refetch brought a different number of items moves every row after it: search
    // again rather than patch row numbers.
    void rowsMovingSearchAgain()
    {
        FilteredPosts posts(3, 10);
        auto &[rows, filter, reset] = posts;
        filter.setNeedle(QStringLiteral("release"));
        QVERIFY(reset.wait());
        QCOMPARE(filter.matches(), (QList<int>{0, 7, 14, 21, 28}));
        rows.replacePage(0, items({post(0, QStringLiteral("release")), post(1, QStringLiteral("general"))}));
        QVERIFY(reset.wait());
        // Rows 0-1 the new page; the old rows 10.. are now 2..: 14 → 6, 21 → 13, 28 → 20.
        QCOMPARE(filter.matches(), (QList<int>{0, 6, 13, 20}));

        rows.clear();
        QVERIFY(filter.matches().isEmpty());
        QSignalSpy matched(&filter, &RowFilter::rowsMatched);
        fill(&rows, 1, 10, 10);
        QVERIFY(matched.wait());
        QCOMPARE(filter.matches(), (QList<int>{0, 7}));
    }
};

QTEST_GUILESS_MAIN(tst_RowFilter)
#include "tst_rowfilter.moc"
