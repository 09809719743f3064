#include "serverimport.h"

#include <QSettings>
#include <QStandardPaths>
#include <QTest>

using namespace folio;

// Importing other clients' server lists. Keeping them is tst_serverlistmodel's.
class tst_ServerImport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void formats_data();
    void formats();
    void describeQuotesWhatItWouldRun();
    void unresolvedVariablesAreFlagged();
    void notJson();
};

void tst_ServerImport::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_serverimport"));
    QSettings().clear();
}

void tst_ServerImport::formats_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("firstName");
    QTest::addColumn<bool>("firstIsHttp");
    QTest::addRow("claude_desktop")
        << QByteArray(
               R"({"mcpServers":{"everything":{"command":"npx","args":["-y","@modelcontextprotocol/server-everything"],"env":{"DEBUG":"1"}}}})")
        << 1 << "everything" << false;
    QTest::addRow("cursor_url")
        << QByteArray(
               R"({"mcpServers":{"remote":{"url":"https://example.test/mcp","headers":{"X-Team":"a"}},"local":{"command":"./srv"}}})")
        << 2 << "local" << false;
    QTest::addRow("mcp_json_sse")
        << QByteArray(R"({"mcpServers":{"old":{"type":"sse","url":"http://127.0.0.1:3001/sse"}}})") << 1
        << "old" << true;
    QTest::addRow("vscode_servers")
        << QByteArray(
               R"({"servers":{"gh":{"type":"http","url":"https://api.example.test/mcp"}},"inputs":[]})")
        << 1 << "gh" << true;
    QTest::addRow("vscode_settings_nested")
        << QByteArray(R"({"mcp":{"servers":{"fs":{"type":"stdio","command":"node","args":["fs.js"]}}}})") << 1
        << "fs" << false;
}

void tst_ServerImport::formats()
{
    QFETCH(QByteArray, json);
    QFETCH(int, count);
    QFETCH(QString, firstName);
    QFETCH(bool, firstIsHttp);
    const ServerImport r = ServerImport::parse(json);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.entries.size(), count);
    QCOMPARE(r.entries.first().config.name, firstName);
    QCOMPARE(r.entries.first().config.kind == ServerConfig::Kind::Http, firstIsHttp);
}

void tst_ServerImport::describeQuotesWhatItWouldRun()
{
    const ServerImport r = ServerImport::parse(
        R"({"mcpServers":{"x":{"command":"npx","args":["-y","pkg","--name","two words","it's"],"env":{"TOKEN":"a b"}}}})");
    QCOMPARE(ServerImport::describe(r.entries.first().config),
             QStringLiteral("TOKEN='a b' npx -y pkg --name 'two words' 'it'\\''s'"));
}

void tst_ServerImport::unresolvedVariablesAreFlagged()
{
    const ServerImport r =
        ServerImport::parse(R"({"servers":{"x":{"command":"srv","env":{"KEY":"${input:key}"}}}})");
    QVERIFY(r.entries.first().warning.contains(QStringLiteral("KEY")));
}

void tst_ServerImport::notJson()
{
    QVERIFY(!ServerImport::parse("{nope").error.isEmpty());
    QVERIFY(!ServerImport::parse(R"({"other":{}})").error.isEmpty());
}

QTEST_GUILESS_MAIN(tst_ServerImport)
#include "tst_serverimport.moc"
