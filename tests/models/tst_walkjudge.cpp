#include "finding.h"
#include "walkjudge.h"

#include <QJsonArray>
#include <QTest>

using namespace folio;

// WalkJudge's deceptive-name finding: names that may read as other names.
class tst_WalkJudge : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void deceptiveNames_data();
    void deceptiveNames();
};

void tst_WalkJudge::deceptiveNames_data()
{
    QTest::addColumn<QByteArrayList>("items"); // JSON texts
    QTest::addColumn<int>("count");            // deceptive names; 0: no finding
    QTest::addColumn<QString>("quoted");       // in the message

    QTest::addRow("ascii") << QByteArrayList{R"({"name":"read_file"})", R"({"name":"write"})"} << 0
                           << QString();
    QTest::addRow("accented latin") << QByteArrayList{R"({"name":"café_search"})"} << 0 << QString();
    QTest::addRow("own script") << QByteArrayList{R"({"name":"検索"})"} << 0 << QString();
    QTest::addRow("description only")
        << QByteArrayList{"{\"name\":\"ok\",\"description\":\"\xe2\x80\xae\"}"} << 0 << QString();
    QTest::addRow("bidi raw") << QByteArrayList{"{\"name\":\"read\xe2\x80\xae"
                                                "elif_\"}"}
                              << 1 << QStringLiteral("read<U+202E>elif_");
    QTest::addRow("bidi escaped") << QByteArrayList{R"({"name":"read\u202eelif_"})"} << 1
                                  << QStringLiteral("read<U+202E>elif_");
    QTest::addRow("zero width uri") << QByteArrayList{R"({"uri":"file:///etc/pass\u200bwd","name":"x"})"} << 1
                                    << QStringLiteral("file:///etc/pass<U+200B>wd");
    QTest::addRow("cyrillic") << QByteArrayList{"{\"name\":\"re\xd0\xb0"
                                                "d_file\"}",
                                                R"({"name":"plain"})"}
                              << 1 << QStringLiteral("look-alike letters U+0430");
    QTest::addRow("two") << QByteArrayList{R"({"name":"a\u0007b"})", R"({"name":"\u0441at"})"} << 2
                         << QStringLiteral("hidden characters U+0007");
}

void tst_WalkJudge::deceptiveNames()
{
    QFETCH(QByteArrayList, items);
    QFETCH(int, count);
    QFETCH(QString, quoted);
    ItemTexts page;
    for (const QByteArray &item : items)
        page.append(item);
    PageRecord record;
    record.index = 2;
    const QList<Finding> findings = WalkJudge::judgeNames(record, page);
    if (count == 0) {
        QVERIFY(findings.isEmpty());
        return;
    }
    QCOMPARE(findings.size(), 1);
    const Finding &f = findings.first();
    QCOMPARE(f.id, FindingId::DeceptiveName);
    QCOMPARE(f.severity, Finding::Severity::Warning);
    QCOMPARE(f.pages, QList<int>{2});
    QCOMPARE(f.evidence.value(QStringLiteral("count")).toInt(), count);
    QVERIFY2(f.message.contains(quoted), qPrintable(f.message));
    QVERIFY2(f.message.startsWith(QStringLiteral("%1 %2 on page 3")
                                      .arg(QString::number(count),
                                           count == 1 ? QStringLiteral("name") : QStringLiteral("names"))),
             qPrintable(f.message));
    // The message is safe to print as it is: the name in it is shown, not acted on.
    QVERIFY(!f.message.contains(QChar(0x202e)) && !f.message.contains(QChar(0x7)));
}

QTEST_GUILESS_MAIN(tst_WalkJudge)
#include "tst_walkjudge.moc"
