#include "serverimport.h"
#include "testsettings.h"

#include <QJsonDocument>
#include <QSettings>
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
    void bearerHeaderBecomesTheToken_data();
    void bearerHeaderBecomesTheToken();
    void secretEnvironmentIsHeldAndMasked();
    void notJson();
};

void tst_ServerImport::initTestCase()
{
    testsupport::useEmptyTestSettings("tst_serverimport");
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
    // A URL makes a remote server, whatever else a client calls its type.
    QTest::addRow("url_other_type")
        << QByteArray(
               R"({"mcpServers":{"hosted":{"type":"streamableHttp","url":"https://example.test/mcp"}}})")
        << 1 << "hosted" << true;
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
    QCOMPARE(r.entries.first().config.hasUrl(), firstIsHttp);
    QCOMPARE(r.entries.first().config.startsProcess(), !firstIsHttp);
    // Saved and read back, it is the same kind of server.
    QCOMPARE(ServerConfig::fromJson(r.entries.first().config.toJson()).hasUrl(), firstIsHttp);
    if (firstIsHttp)
        QCOMPARE(r.entries.first().config.httpMode == ServerConfig::HttpMode::LegacySse,
                 firstName == QLatin1String("old"));
}

void tst_ServerImport::describeQuotesWhatItWouldRun()
{
    const ServerImport r = ServerImport::parse(
        R"({"mcpServers":{"x":{"command":"npx","args":["-y","pkg","--name","two words","it's"],"env":{"TOKEN":"a b"}}}})");
    // TOKEN is a secret's name: what it would run shows it masked.
    QCOMPARE(ServerImport::describe(r.entries.first().config),
             QStringLiteral("TOKEN='•••• (3 chars)' npx -y pkg --name 'two words' 'it'\\''s'"));
}

void tst_ServerImport::unresolvedVariablesAreFlagged()
{
    const ServerImport r =
        ServerImport::parse(R"({"servers":{"x":{"command":"srv","env":{"KEY":"${input:key}"}}}})");
    QVERIFY(r.entries.first().warning.contains(QStringLiteral("KEY")));
}

void tst_ServerImport::bearerHeaderBecomesTheToken_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("token");
    QTest::addColumn<int>("headersLeft");
    QTest::addRow("bearer_header_to_token")
        << QByteArray(
               R"({"mcpServers":{"r":{"url":"https://x.test/mcp","headers":{"Authorization":"Bearer tst-b-0123456789","X-Team":"a"}}}})")
        << "tst-b-0123456789" << 1;
    QTest::addRow("any_case")
        << QByteArray(
               R"({"servers":{"r":{"type":"http","url":"https://x.test/mcp","headers":{"authorization":"bearer  tst-b-0123456789 "}}}})")
        << "tst-b-0123456789" << 0;
    QTest::addRow("reference_is_no_secret")
        << QByteArray(
               R"({"servers":{"r":{"type":"http","url":"https://x.test/mcp","headers":{"Authorization":"Bearer ${input:token}"}}}})")
        << QString() << 1;
    QTest::addRow("basic_is_not_bearer")
        << QByteArray(
               R"({"mcpServers":{"r":{"url":"https://x.test/mcp","headers":{"Authorization":"Basic dXNlcjpwdw=="}}}})")
        << QString() << 1;
}

void tst_ServerImport::bearerHeaderBecomesTheToken()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, token);
    QFETCH(int, headersLeft);
    const ServerImport r = ServerImport::parse(json);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const ServerConfig &c = r.entries.first().config;
    QCOMPARE(c.bearerToken, token);
    QVERIFY(!c.tokenInKeychain); // not saved yet: ServerListModel saves it
    QCOMPARE(c.headers.size(), headersLeft);
    // Shown masked, and never in a config file.
    const QString secrets = ServerImport::describeSecrets(c).join(QLatin1Char(' '));
    if (!token.isEmpty()) {
        QCOMPARE(secrets, QStringLiteral("bearer token tst-… (16 chars)"));
        QVERIFY(!QJsonDocument(c.toJson()).toJson().contains(token.toUtf8()));
    } else {
        QVERIFY(secrets.isEmpty());
    }
}

void tst_ServerImport::secretEnvironmentIsHeldAndMasked()
{
    const ServerImport r = ServerImport::parse(R"({"mcpServers":{"x":{"command":"srv","env":{
        "GITHUB_TOKEN":"tst-ghp-0123456789","api_key":"tst-key-0123456789","MY_PASSWORD":"tst-pw-0123456789",
        "AWS_SECRET":"short","MONKEY_REF":"${env:K}","DEBUG":"1"}}}})");
    const ServerConfig &c = r.entries.first().config;
    QStringList held = c.envHeld;
    held.sort();
    QCOMPARE(held, (QStringList{QStringLiteral("AWS_SECRET"), QStringLiteral("GITHUB_TOKEN"),
                                QStringLiteral("MY_PASSWORD"), QStringLiteral("api_key")}));
    const QString runs = ServerImport::describe(c);
    QVERIFY2(!runs.contains(QStringLiteral("0123456789")) && !runs.contains(QStringLiteral("short")),
             qPrintable(runs));
    QVERIFY2(runs.contains(QStringLiteral("GITHUB_TOKEN='tst-… (18 chars)'")), qPrintable(runs));
    QVERIFY2(runs.contains(QStringLiteral("AWS_SECRET='•••• (5 chars)'")), qPrintable(runs));
    QVERIFY2(runs.contains(QStringLiteral("DEBUG=1")), qPrintable(runs));
    QVERIFY2(runs.contains(QStringLiteral("MONKEY_REF='${env:K}'")), qPrintable(runs));
    QCOMPARE(ServerImport::describeSecrets(c).size(), 4);
    // Held values never reach a config file, not even their names.
    const QByteArray json = QJsonDocument(c.toJson()).toJson();
    QVERIFY2(!json.contains("tst-") && !json.contains("GITHUB_TOKEN"), json.constData());
    QVERIFY(json.contains("DEBUG"));
}

void tst_ServerImport::notJson()
{
    QVERIFY(!ServerImport::parse("{nope").error.isEmpty());
    QVERIFY(!ServerImport::parse(R"({"other":{}})").error.isEmpty());
}

QTEST_GUILESS_MAIN(tst_ServerImport)
#include "tst_serverimport.moc"
