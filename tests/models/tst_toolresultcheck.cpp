#include "testjson.h"
#include "toolresultcheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using folio::ToolResultCheck;
using Verdict = ToolResultCheck::Verdict;
using testsupport::jsonObject;

// The one output-schema verdict of a tool's result (the window's Call pane and `folio call`).
class tst_ToolResultCheck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void verdict_data();
    void verdict();
};

void tst_ToolResultCheck::verdict_data()
{
    QTest::addColumn<QJsonObject>("tool");
    QTest::addColumn<QJsonObject>("result");
    QTest::addColumn<int>("verdict");
    QTest::addColumn<bool>("failed");
    QTest::addColumn<QStringList>("lines");

    const QJsonObject schema = jsonObject(R"({"name":"t","outputSchema":{"type":"object","required":["n"],
        "properties":{"n":{"type":"integer"}}}})");
    QTest::addRow("no schema") << jsonObject(R"({"name":"t"})") << jsonObject(R"({"content":[]})")
                               << int(Verdict::NoSchema) << false << QStringList();
    QTest::addRow("tool error") << schema << jsonObject(R"({"isError":true,"content":[]})")
                                << int(Verdict::ToolError) << false << QStringList();
    QTest::addRow("missing") << schema << jsonObject(R"({"content":[]})") << int(Verdict::Missing) << true
                             << QStringList();
    QTest::addRow("matches") << schema << jsonObject(R"({"structuredContent":{"n":3}})")
                             << int(Verdict::Matches) << false << QStringList();
    QTest::addRow("mismatch") << schema << jsonObject(R"({"structuredContent":{"n":"three"}})")
                              << int(Verdict::Mismatch) << true
                              << QStringList{QStringLiteral("n: expected an integer, got a string")};
}

void tst_ToolResultCheck::verdict()
{
    QFETCH(QJsonObject, tool);
    QFETCH(QJsonObject, result);
    QFETCH(int, verdict);
    QFETCH(bool, failed);
    QFETCH(QStringList, lines);
    const ToolResultCheck check = ToolResultCheck::of(tool, result);
    QCOMPARE(int(check.verdict), verdict);
    QCOMPARE(check.failed(), failed);
    QCOMPARE(check.violationLines(), lines);
    QVERIFY(!check.summary().isEmpty());
}

QTEST_GUILESS_MAIN(tst_ToolResultCheck)
#include "tst_toolresultcheck.moc"
