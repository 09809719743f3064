#include "httpfixture.h"
#include "jsonrpcconnection.h"
#include "mcpclient.h"
#include "rpccall.h"
#include "serverprocess.h"
#include "stdiotransport.h"
#include "trafficlog.h"
#include "transport.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

// The MCP client against a real misbehaving server process (tests/fixtures/fixtureserver.cpp),
// over stdio and over HTTP on loopback: every failure must become a typed, readable error.
class tst_McpClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cleanup();

    void handshake_data();
    void handshake();
    void connectFailure_data();
    void connectFailure();
    void listFailure_data();
    void listFailure();
    void badLinesKeepTheConnection_data();
    void badLinesKeepTheConnection();
    void serverRequestsAreAnswered();
    void largeRequestsAreWrittenWhole();
    void shutdownEscalates_data();
    void shutdownEscalates();
    void bearerTokenIsSentAndRedacted();
    void legacySseFallback();
    void closingAbortsTheGetStreamQuietly();
    void emptyCursorIsSent();

private:
    ServerConfig stdioConfig(const QString &mode) const;
    ServerConfig httpConfig(const QString &mode, const QString &path = QStringLiteral("/mcp"));
    bool connectClient(McpClient &client, const ServerConfig &config);
    RpcCall *listAndWait(McpClient &client);

    QList<QProcess *> m_servers;
};

ServerConfig tst_McpClient::stdioConfig(const QString &mode) const
{
    ServerConfig c =
        ServerConfig::process(QStringLiteral(FOLIO_FIXTURE_SERVER), {QStringLiteral("--mode"), mode});
    c.name = QStringLiteral("fixture");
    c.requestTimeoutMs = 3000;
    return c;
}

ServerConfig tst_McpClient::httpConfig(const QString &mode, const QString &path)
{
    ServerConfig c = httpFixtureConfig(this, m_servers, mode, 3000);
    if (!c.url.isEmpty())
        c.url.setPath(path);
    return c;
}

void tst_McpClient::cleanup()
{
    testsupport::stopAll(m_servers);
}

bool tst_McpClient::connectClient(McpClient &client, const ServerConfig &config)
{
    client.setConfig(config);
    QSignalSpy connected(&client, &McpClient::connected);
    QSignalSpy disconnected(&client, &McpClient::disconnected);
    client.connectToServer();
    QDeadlineTimer deadline(15000);
    while (connected.isEmpty() && disconnected.isEmpty() && !deadline.hasExpired())
        connected.wait(50);
    return !connected.isEmpty();
}

RpcCall *tst_McpClient::listAndWait(McpClient &client)
{
    RpcCall *call = client.listPage(ListKind::Tools, std::nullopt, this);
    QSignalSpy finished(call, &RpcCall::finished);
    if (!call->isFinished())
        finished.wait(10000);
    return call;
}

void tst_McpClient::handshake_data()
{
    QTest::addColumn<bool>("http");
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("revision");
    QTest::addRow("stdio_legacy_initialize") << false << "legacy"
                                             << "2025-11-25";
    QTest::addRow("stdio_modern_discover") << false << "modern"
                                           << "2026-07-28";
    QTest::addRow("stdio_negotiates_down_to_2024") << false << "old-revision"
                                                   << "2024-11-05";
    QTest::addRow("http_legacy_initialize") << true << "legacy"
                                            << "2025-11-25";
    QTest::addRow("http_modern_discover_with_headers") << true << "modern"
                                                       << "2026-07-28";
    QTest::addRow("http_negotiates_down_to_2024") << true << "old-revision"
                                                  << "2024-11-05";
}

void tst_McpClient::handshake()
{
    QFETCH(bool, http);
    QFETCH(QString, mode);
    QFETCH(QString, revision);
    McpClient client;
    QVERIFY(connectClient(client, http ? httpConfig(mode) : stdioConfig(mode)));
    QCOMPARE(client.protocolVersion(), revision);
    QCOMPARE(client.serverInfo().value(QStringLiteral("name")).toString(), QStringLiteral("fixture"));
    RpcCall *call = listAndWait(client);
    QVERIFY2(!call->isError(), qPrintable(call->error().describe()));
    QCOMPARE(call->result().value(QStringLiteral("tools")).toArray().size(), 3);
    if (revision == QLatin1String("2026-07-28")) {
        // The 2026 envelope rides on every request.
        const QJsonObject meta = call->params().value(QStringLiteral("_meta")).toObject();
        QCOMPARE(meta.value(QStringLiteral("io.modelcontextprotocol/protocolVersion")).toString(), revision);
        QVERIFY(meta.contains(QStringLiteral("io.modelcontextprotocol/clientCapabilities")));
    } else {
        QVERIFY(!call->params().contains(QStringLiteral("_meta")));
    }
    client.disconnectFromServer();
}

void tst_McpClient::connectFailure_data()
{
    QTest::addColumn<bool>("http");
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("messagePart");
    QTest::addRow("spawn_failure") << false << "spawn" << int(McpError::Kind::SpawnFailed)
                                   << "Could not start";
    QTest::addRow("server_exits_at_start")
        << false << "exit-immediately" << int(McpError::Kind::ProcessExited) << "missing configuration";
    QTest::addRow("unknown_revision")
        << false << "unknown-revision" << int(McpError::Kind::Protocol) << "1999-01-01";
    QTest::addRow("http_401_auth_required")
        << true << "http-401" << int(McpError::Kind::AuthRequired) << "resource_metadata";
    QTest::addRow("http_403_insufficient_scope")
        << true << "http-403" << int(McpError::Kind::InsufficientScope) << "insufficient_scope";
    QTest::addRow("http_token_missing")
        << true << "require-token" << int(McpError::Kind::AuthRequired) << "Authentication required";
    QTest::addRow("http_connection_refused")
        << true << "refused" << int(McpError::Kind::ConnectionFailed) << "Could not reach";
}

void tst_McpClient::connectFailure()
{
    QFETCH(bool, http);
    QFETCH(QString, mode);
    QFETCH(int, kind);
    QFETCH(QString, messagePart);
    ServerConfig config;
    if (mode == QLatin1String("spawn")) {
        config = stdioConfig(mode);
        config.command = QStringLiteral("/nonexistent/folio-no-such-server");
    } else if (mode == QLatin1String("refused")) {
        config = httpConfig(QStringLiteral("legacy"));
        cleanup(); // the server is gone: its port now refuses
    } else {
        config = http ? httpConfig(mode) : stdioConfig(mode);
    }
    McpClient client;
    QSignalSpy disconnected(&client, &McpClient::disconnected);
    QVERIFY(!connectClient(client, config));
    QCOMPARE(client.state(), McpClient::State::Failed);
    const McpError e = disconnected.first().at(0).value<McpError>();
    QCOMPARE(int(e.kind), kind);
    QVERIFY2(e.describe().contains(messagePart), qPrintable(e.describe()));
}

void tst_McpClient::listFailure_data()
{
    QTest::addColumn<bool>("http");
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("messagePart");
    QTest::addRow("stdio_crash_mid_session")
        << false << "crash-on-list" << int(McpError::Kind::ProcessExited) << "crashing on purpose";
    QTest::addRow("stdio_timeout") << false << "silent-list" << int(McpError::Kind::Timeout) << "tools/list";
    QTest::addRow("stdio_over_size_cap")
        << false << "huge" << int(McpError::Kind::MessageTooLarge) << "message-size limit";
    QTest::addRow("http_500") << true << "http-500" << int(McpError::Kind::HttpStatus) << "database on fire";
    QTest::addRow("http_html_body") << true << "html-body" << int(McpError::Kind::MalformedMessage)
                                    << "not JSON";
    QTest::addRow("http_sse_cut_before_response")
        << true << "sse-cut" << int(McpError::Kind::Closed) << "ended before the response";
    QTest::addRow("http_timeout") << true << "silent-list" << int(McpError::Kind::Timeout) << "tools/list";
    QTest::addRow("http_over_size_cap")
        << true << "huge" << int(McpError::Kind::MessageTooLarge) << "message-size limit";
}

void tst_McpClient::listFailure()
{
    QFETCH(bool, http);
    QFETCH(QString, mode);
    QFETCH(int, kind);
    QFETCH(QString, messagePart);
    ServerConfig config = http ? httpConfig(mode) : stdioConfig(mode);
    config.requestTimeoutMs = 1000;
    config.maxMessageBytes = 64 * 1024;
    McpClient client;
    QVERIFY(connectClient(client, config));
    RpcCall *call = listAndWait(client);
    QVERIFY(call->isFinished());
    QCOMPARE(int(call->error().kind), kind);
    QVERIFY2(call->error().describe().contains(messagePart, Qt::CaseInsensitive),
             qPrintable(call->error().describe()));
    client.disconnectFromServer();
}

void tst_McpClient::badLinesKeepTheConnection_data()
{
    QTest::addColumn<bool>("http");
    QTest::addColumn<QString>("mode");
    QTest::addRow("stdio_malformed_line") << false << "malformed-then-ok";
    QTest::addRow("stdio_not_jsonrpc") << false << "not-jsonrpc";
    QTest::addRow("stdio_notification_first") << false << "notify-first";
    QTest::addRow("http_sse_split_mid_event") << true << "sse-response";
}

void tst_McpClient::badLinesKeepTheConnection()
{
    QFETCH(bool, http);
    QFETCH(QString, mode);
    McpClient client;
    QVERIFY(connectClient(client, http ? httpConfig(mode) : stdioConfig(mode)));
    QSignalSpy changed(&client, &McpClient::listChanged);
    RpcCall *call = listAndWait(client);
    QVERIFY2(!call->isError(), qPrintable(call->error().describe()));
    QCOMPARE(call->result().value(QStringLiteral("tools")).toArray().size(), 3);
    if (mode == QLatin1String("notify-first"))
        QCOMPARE(changed.size(), 1);
    if (mode == QLatin1String("malformed-then-ok") || mode == QLatin1String("not-jsonrpc")) {
        bool logged = false;
        for (const auto &e : client.trafficLog()->entries())
            logged = logged || (e.isError && e.direction == TrafficLog::Direction::Incoming);
        QVERIFY(logged);
    }
    // And the connection still works.
    RpcCall *again = listAndWait(client);
    QVERIFY(!again->isError());
    client.disconnectFromServer();
}

void tst_McpClient::serverRequestsAreAnswered()
{
    McpClient client;
    QStringList diagnostics;
    connect(&client, &McpClient::diagnostic, this, [&](const QString &l) { diagnostics.append(l); });
    QVERIFY(connectClient(client, stdioConfig(QStringLiteral("server-requests"))));
    // The fixture echoes our answers to its stderr, which the transport turns into diagnostics.
    QTRY_VERIFY_WITH_TIMEOUT(client.trafficLog()->entries().size() >= 6, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(
        diagnostics.join(QLatin1Char('\n')).count(QStringLiteral("client answered")) == 2, 5000);
    const QString all = diagnostics.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("\"id\":\"srv-1\",\"jsonrpc\":\"2.0\",\"result\":{}")),
             qPrintable(all));
    QVERIFY2(all.contains(QStringLiteral("-32601")), qPrintable(all));
    client.disconnectFromServer();
}

void tst_McpClient::largeRequestsAreWrittenWhole()
{
    // Each request is 16 times a pipe's buffer: send() writes what the pipe takes at once and the
    // rest as the server reads, with the second request waiting behind the first. Both arrive
    // whole and are answered.
    McpClient client;
    QVERIFY(connectClient(client, stdioConfig(QStringLiteral("legacy"))));
    const QJsonObject params{{QStringLiteral("_meta"),
                              QJsonObject{{QStringLiteral("padding"), QString(1 << 20, QLatin1Char('x'))}}}};
    RpcCall *first = client.request(QStringLiteral("tools/list"), params, this);
    RpcCall *second = client.request(QStringLiteral("tools/list"), params, this);
    QTRY_VERIFY_WITH_TIMEOUT(first->isFinished() && second->isFinished(), 10000);
    for (RpcCall *call : {first, second}) {
        QVERIFY2(!call->isError(), qPrintable(call->error().describe()));
        QCOMPARE(call->result().value(QStringLiteral("tools")).toArray().size(), 3);
    }
    client.disconnectFromServer();
}

void tst_McpClient::shutdownEscalates_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addRow("exits_on_stdin_close") << "legacy";
    QTest::addRow("ignores_stdin_close") << "ignore-stdin-close";
    QTest::addRow("ignores_sigterm") << "ignore-sigterm";
}

void tst_McpClient::shutdownEscalates()
{
    QFETCH(QString, mode);
    McpClient client;
    QVERIFY(connectClient(client, stdioConfig(mode)));
    auto *transport = qobject_cast<StdioTransport *>(client.connection()->transport());
    QVERIFY(transport);
    const qint64 pid = transport->processId();
    QVERIFY(pid > 0);
    QSignalSpy closed(transport, &Transport::closed);
    client.disconnectFromServer();
    QVERIFY(closed.wait(10000));
    QTRY_VERIFY_WITH_TIMEOUT(
        !QFile::exists(QStringLiteral("/proc/%1/status").arg(pid)) ||
            QProcess::execute(
                QStringLiteral("sh"),
                {QStringLiteral("-c"), QStringLiteral("grep -q '^State:.*Z' /proc/%1/status").arg(pid)}) == 0,
        5000);
}

void tst_McpClient::bearerTokenIsSentAndRedacted()
{
    ServerConfig config = httpConfig(QStringLiteral("require-token"));
    config.bearerToken = QStringLiteral("fixture-token");
    McpClient client;
    QVERIFY(connectClient(client, config));
    RpcCall *call = listAndWait(client);
    QVERIFY(!call->isError());
    for (const auto &e : client.trafficLog()->entries())
        QVERIFY(!e.text.contains("fixture-token"));
    client.disconnectFromServer();
}

void tst_McpClient::legacySseFallback()
{
    McpClient client;
    QStringList diagnostics;
    connect(&client, &McpClient::diagnostic, this, [&](const QString &l) { diagnostics.append(l); });
    QVERIFY(connectClient(client, httpConfig(QStringLiteral("legacy-sse"), QStringLiteral("/sse"))));
    QCOMPARE(client.transportName(), QStringLiteral("http+sse"));
    QCOMPARE(client.protocolVersion(), QStringLiteral("2025-11-25"));
    RpcCall *call = listAndWait(client);
    QVERIFY2(!call->isError(), qPrintable(call->error().describe()));
    QCOMPARE(call->result().value(QStringLiteral("tools")).toArray().size(), 3);
    client.disconnectFromServer();
}

// A 2025-era HTTP connection closed while its GET stream is open: the stream is aborted without
// its reply being read after abort() closed it (Qt's "QIODevice::read (QNetworkReplyHttpImpl):
// device not open", which every HTTP audit of a 2025-era server used to print).
void tst_McpClient::closingAbortsTheGetStreamQuietly()
{
    // Any warning fails but one: Qt 6.4's QNetworkReplyHttpImpl says "Internal problem, this method
    // must only be called once" when the HTTP thread's own error for the stream crosses abort()
    // (a race inside Qt, seen in about half the runs; nothing is read from the reply after it).
    QTest::failOnWarning(QRegularExpression(
        QStringLiteral("^(?!QNetworkReplyImplPrivate::error: Internal problem, this method must only be "
                       "called once)")));
    McpClient client;
    QVERIFY(connectClient(client, httpConfig(QStringLiteral("legacy"))));
    QCOMPARE(client.protocolVersion(), QStringLiteral("2025-11-25"));
    client.listenForListChanges(); // opens the GET stream
    QSignalSpy closed(client.connection()->transport(), &Transport::closed);
    client.disconnectFromServer();
    QVERIFY(closed.wait(5000));
}

void tst_McpClient::emptyCursorIsSent()
{
    McpClient client;
    QVERIFY(connectClient(client, stdioConfig(QStringLiteral("legacy"))));
    RpcCall *withEmpty = client.listPage(ListKind::Tools, QString(), this);
    RpcCall *without = client.listPage(ListKind::Tools, std::nullopt, this);
    QVERIFY(withEmpty->params().contains(QStringLiteral("cursor")));
    QCOMPARE(withEmpty->params().value(QStringLiteral("cursor")).toString(), QString());
    QVERIFY(!without->params().contains(QStringLiteral("cursor")));
    client.disconnectFromServer();
}

QTEST_GUILESS_MAIN(tst_McpClient)
#include "tst_mcpclient.moc"
