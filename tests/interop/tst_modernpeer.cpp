#include "interophelpers.h"
#include "stdiotransport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>

#include <memory>

using namespace folio;
using interop::ServerProcess;

// Folio's client against a real 2026-07-28 peer built on the official v2 server SDK
// (tests/peers/modern-peer.mjs), over stdio (serveStdio) and Streamable HTTP (createMcpHandler on
// node:http, bound to 127.0.0.1): era detection lands on 2026-07-28, lists are walked by cursor to
// the end with every page's cache hints kept exactly as sent, a bad cursor is -32602, tools/call
// works, and every request carries the 2026 envelope and headers the SDK insists on.
class tst_ModernPeer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void negotiatesModernRevision_data();
    void negotiatesModernRevision();
    void walksListToTheEnd_data();
    void walksListToTheEnd();
    void badCursorIsInvalidParams_data();
    void badCursorIsInvalidParams();
    void callsTools_data();
    void callsTools();
    void trafficLogSawTheRequests_data();
    void trafficLogSawTheRequests();
    void stdioPeerExitsWhenStdinCloses();

private:
    static void addTransportRows();
    bool startAndConnect(const QString &transport, QString *why);

    ServerProcess m_httpPeer;
    std::unique_ptr<McpClient> m_client;
};

namespace {
constexpr int connectTimeoutMs = 20000;

QString peerScript()
{
    return interop::peerFile(QStringLiteral("modern-peer.mjs"));
}

// What modern-peer.mjs serves (its PAGES table).
struct ExpectedList
{
    int count;
    QList<int> ttlMs; // one per page
    QString cacheScope;
    bool emptyCursorOnPage2;
};

ExpectedList expectedList(ListKind kind)
{
    switch (kind) {
    case ListKind::Tools:
        return {25, {60000, 30000, 5000}, QStringLiteral("public"), false};
    case ListKind::Prompts:
        return {7, {1000, 2000}, QStringLiteral("private"), true};
    case ListKind::Resources:
        return {5, {0, 0, 0}, QStringLiteral("private"), false};
    case ListKind::ResourceTemplates:
        return {2, {120000}, QStringLiteral("public"), false};
    }
    return {};
}

QString itemName(const QJsonValue &item)
{
    return item.toObject().value(QStringLiteral("name")).toString();
}
} // namespace

void tst_ModernPeer::initTestCase()
{
    FOLIO_REQUIRE_PEERS(QStringLiteral("node_modules/@modelcontextprotocol/server/package.json"));
    QVERIFY2(QFileInfo::exists(peerScript()), qPrintable(peerScript()));
}

void tst_ModernPeer::cleanup()
{
    // Deleting the client deletes its stdio transport, which kills a child still running.
    m_client.reset();
    m_httpPeer.stop();
}

void tst_ModernPeer::addTransportRows()
{
    QTest::addColumn<QString>("transport");
    QTest::newRow("stdio") << QStringLiteral("stdio");
    QTest::newRow("streamable_http") << QStringLiteral("streamable_http");
}

bool tst_ModernPeer::startAndConnect(const QString &transport, QString *why)
{
    ServerConfig config;
    if (transport == QLatin1String("stdio")) {
        config = ServerConfig::process(interop::node22(), {peerScript(), QStringLiteral("stdio")});
        config.workingDirectory = interop::peersDir();
    } else {
        m_httpPeer.start(interop::node22(), {peerScript(), QStringLiteral("http"), QStringLiteral("0")});
        const QRegularExpressionMatch m = m_httpPeer.waitForOutput(
            QRegularExpression(QStringLiteral("listening on (http://127\\.0\\.0\\.1:\\d+/mcp)")),
            connectTimeoutMs);
        if (!m.hasMatch()) {
            *why = QStringLiteral("the HTTP peer did not start: ") + m_httpPeer.output();
            return false;
        }
        config = ServerConfig::remote(QUrl(m.captured(1)));
        config.httpMode = ServerConfig::HttpMode::Auto;
    }
    config.name = QStringLiteral("modern-peer");
    config.requestTimeoutMs = 15000;
    m_client = std::make_unique<McpClient>();
    m_client->setConfig(config);
    return interop::connectClient(*m_client, connectTimeoutMs, why);
}

void tst_ModernPeer::negotiatesModernRevision_data()
{
    addTransportRows();
}

void tst_ModernPeer::negotiatesModernRevision()
{
    QFETCH(QString, transport);
    QString why;
    QVERIFY2(startAndConnect(transport, &why), qPrintable(why));

    QCOMPARE(m_client->state(), McpClient::State::Connected);
    QCOMPARE(m_client->protocolVersion(), QStringLiteral("2026-07-28"));
    QVERIFY(m_client->isModern());
    QCOMPARE(m_client->transportName(), transport == QLatin1String("stdio")
                                            ? QStringLiteral("stdio")
                                            : QStringLiteral("streamable-http"));
    QCOMPARE(m_client->serverInfo().value(QStringLiteral("name")).toString(),
             QStringLiteral("folio-modern-peer"));
    QCOMPARE(m_client->serverInfo().value(QStringLiteral("version")).toString(), QStringLiteral("1.0.0"));
    QVERIFY(m_client->capabilities()
                .value(QStringLiteral("tools"))
                .toObject()
                .value(QStringLiteral("listChanged"))
                .toBool());
    QVERIFY(m_client->handshakeResult()
                .value(QStringLiteral("supportedVersions"))
                .toArray()
                .contains(QStringLiteral("2026-07-28")));
    QCOMPARE(m_client->instructions(), QStringLiteral("A paging 2026-07-28 peer for Folio tests."));

    // The modern path straight away: server/discover answered, no initialize handshake at all.
    const TrafficLog *log = m_client->trafficLog();
    QCOMPARE(
        interop::logEntries(log, QStringLiteral("server/discover"), TrafficLog::Direction::Outgoing).size(),
        1);
    QVERIFY(
        interop::logEntries(log, QStringLiteral("initialize"), TrafficLog::Direction::Outgoing).isEmpty());
}

void tst_ModernPeer::walksListToTheEnd_data()
{
    QTest::addColumn<QString>("transport");
    QTest::addColumn<QString>("list");
    for (const QString &transport : {QStringLiteral("stdio"), QStringLiteral("streamable_http")}) {
        for (const QString &list : {QStringLiteral("tools"), QStringLiteral("prompts"),
                                    QStringLiteral("resources"), QStringLiteral("templates")}) {
            QTest::addRow("%s_%s", qPrintable(transport), qPrintable(list)) << transport << list;
        }
    }
}

void tst_ModernPeer::walksListToTheEnd()
{
    QFETCH(QString, transport);
    QFETCH(QString, list);
    const ListKind kind = *listKindFromName(list);
    const ExpectedList expected = expectedList(kind);
    QString why;
    QVERIFY2(startAndConnect(transport, &why), qPrintable(why));

    const interop::ListWalk walk = interop::walkList(*m_client, kind, this);
    QVERIFY2(walk.error.isEmpty(), qPrintable(walk.error));
    QCOMPARE(walk.items.size(), expected.count);
    QCOMPARE(walk.pages.size(), expected.ttlMs.size());
    QSet<QString> names;
    for (const QJsonValue &item : walk.items)
        names.insert(itemName(item));
    QCOMPARE(names.size(), expected.count);

    for (int i = 0; i < walk.pages.size(); ++i) {
        const RpcCall *call = walk.pages.at(i);
        const QJsonObject result = call->result();
        const QByteArray page = QByteArray::number(i + 1);
        // The hints exactly as the peer sent them for this page: present, same type, same value.
        QVERIFY2(result.value(QStringLiteral("ttlMs")).isDouble(), page.constData());
        QCOMPARE(result.value(QStringLiteral("ttlMs")).toInteger(-1), expected.ttlMs.at(i));
        QCOMPARE(result.value(QStringLiteral("cacheScope")).toString(), expected.cacheScope);
        QCOMPARE(result.value(QStringLiteral("resultType")).toString(), QStringLiteral("complete"));
        QCOMPARE(result.value(QStringLiteral("_meta"))
                     .toObject()
                     .value(QStringLiteral("io.modelcontextprotocol/serverInfo"))
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("folio-modern-peer"));
        // Nothing added or dropped between the wire and result().
        QCOMPARE(interop::parseObject(call->rawResponse()).value(QStringLiteral("result")).toObject(),
                 result);
        const bool last = i == walk.pages.size() - 1;
        QCOMPARE(result.contains(QStringLiteral("nextCursor")), !last);
    }

    QVERIFY(!walk.cursorsSent.constFirst().has_value());
    QVERIFY(!walk.pages.constFirst()->params().contains(QStringLiteral("cursor")));
    if (expected.emptyCursorOnPage2) {
        // "" is a cursor in 2026-07-28: it was followed, and sent as "cursor": "".
        QCOMPARE(walk.pages.at(0)->result().value(QStringLiteral("nextCursor")), QJsonValue(QString()));
        QVERIFY(walk.cursorsSent.at(1).has_value());
        QCOMPARE(*walk.cursorsSent.at(1), QString());
        QCOMPARE(walk.pages.at(1)->params().value(QStringLiteral("cursor")), QJsonValue(QString()));
    }
    for (int i = 1; i < walk.pages.size(); ++i) {
        QCOMPARE(walk.pages.at(i)->params().value(QStringLiteral("cursor")).toString(),
                 walk.pages.at(i - 1)->result().value(QStringLiteral("nextCursor")).toString());
    }
}

void tst_ModernPeer::badCursorIsInvalidParams_data()
{
    QTest::addColumn<QString>("transport");
    QTest::addColumn<bool>("foreignCursor");
    for (const QString &transport : {QStringLiteral("stdio"), QStringLiteral("streamable_http")}) {
        QTest::addRow("%s_garbage_cursor", qPrintable(transport)) << transport << false;
        QTest::addRow("%s_cursor_of_another_list", qPrintable(transport)) << transport << true;
    }
}

void tst_ModernPeer::badCursorIsInvalidParams()
{
    QFETCH(QString, transport);
    QFETCH(bool, foreignCursor);
    QString why;
    QVERIFY2(startAndConnect(transport, &why), qPrintable(why));

    QString cursor = QStringLiteral("not-a-cursor");
    ListKind kind = ListKind::Tools;
    if (foreignCursor) {
        // A real cursor, but one the peer handed out for tools/list, sent to resources/list.
        RpcCall *first = m_client->listPage(ListKind::Tools, std::nullopt, this);
        QVERIFY(interop::waitFor(first));
        QVERIFY2(!first->isError(), qPrintable(first->error().describe()));
        cursor = first->result().value(QStringLiteral("nextCursor")).toString();
        QVERIFY(!cursor.isEmpty());
        kind = ListKind::Resources;
    }
    RpcCall *bad = m_client->listPage(kind, cursor, this);
    QVERIFY(interop::waitFor(bad));
    QVERIFY(bad->isError());
    QCOMPARE(bad->error().kind, McpError::Kind::Rpc);
    QCOMPARE(bad->error().code, -32602);
    QCOMPARE(bad->error().message, QStringLiteral("Invalid cursor"));
    QCOMPARE(interop::parseObject(bad->rawResponse())
                 .value(QStringLiteral("error"))
                 .toObject()
                 .value(QStringLiteral("code"))
                 .toInt(),
             -32602);

    // The error belongs to that request only: the connection carries on.
    RpcCall *again = m_client->listPage(kind, std::nullopt, this);
    QVERIFY(interop::waitFor(again));
    QVERIFY2(!again->isError(), qPrintable(again->error().describe()));
    QCOMPARE(m_client->state(), McpClient::State::Connected);
}

void tst_ModernPeer::callsTools_data()
{
    addTransportRows();
}

void tst_ModernPeer::callsTools()
{
    QFETCH(QString, transport);
    QString why;
    QVERIFY2(startAndConnect(transport, &why), qPrintable(why));

    RpcCall *add = m_client->callTool(QStringLiteral("add_numbers"),
                                      {{QStringLiteral("a"), 2}, {QStringLiteral("b"), 3}}, this);
    QVERIFY(interop::waitFor(add));
    QVERIFY2(!add->isError(), qPrintable(add->error().describe()));
    const QJsonObject sum = add->result();
    QCOMPARE(sum.value(QStringLiteral("resultType")).toString(), QStringLiteral("complete"));
    QCOMPARE(sum.value(QStringLiteral("structuredContent")).toObject().value(QStringLiteral("sum")).toInt(),
             5);
    QCOMPARE(sum.value(QStringLiteral("content"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString(),
             QStringLiteral("5"));

    const QString message = QStringLiteral("gr\u00fc\u00dfe \u2713");
    RpcCall *echo = m_client->callTool(QStringLiteral("echo"), {{QStringLiteral("message"), message}}, this);
    QVERIFY(interop::waitFor(echo));
    QVERIFY2(!echo->isError(), qPrintable(echo->error().describe()));
    QCOMPARE(echo->result()
                 .value(QStringLiteral("content"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString(),
             QStringLiteral("Echo: ") + message);

    RpcCall *unknown = m_client->callTool(QStringLiteral("no_such_tool"), {}, this);
    QVERIFY(interop::waitFor(unknown));
    QVERIFY(unknown->isError());
    QCOMPARE(unknown->error().kind, McpError::Kind::Rpc);
    QCOMPARE(unknown->error().code, -32602);
}

void tst_ModernPeer::trafficLogSawTheRequests_data()
{
    addTransportRows();
}

void tst_ModernPeer::trafficLogSawTheRequests()
{
    QFETCH(QString, transport);
    QString why;
    QVERIFY2(startAndConnect(transport, &why), qPrintable(why));

    RpcCall *list = m_client->listPage(ListKind::Tools, std::nullopt, this);
    QVERIFY(interop::waitFor(list));
    QVERIFY2(!list->isError(), qPrintable(list->error().describe()));
    RpcCall *call = m_client->callTool(QStringLiteral("add_numbers"),
                                       {{QStringLiteral("a"), 1}, {QStringLiteral("b"), 1}}, this);
    QVERIFY(interop::waitFor(call));
    QVERIFY2(!call->isError(), qPrintable(call->error().describe()));

    const TrafficLog *log = m_client->trafficLog();
    for (const QString &method :
         {QStringLiteral("server/discover"), QStringLiteral("tools/list"), QStringLiteral("tools/call")}) {
        const auto out = interop::logEntries(log, method, TrafficLog::Direction::Outgoing);
        const auto in = interop::logEntries(log, method, TrafficLog::Direction::Incoming);
        QVERIFY2(out.size() == 1, qPrintable(method));
        QVERIFY2(in.size() == 1, qPrintable(method));
        QCOMPARE(in.constFirst().id, out.constFirst().id);
        QVERIFY2(!in.constFirst().isError, qPrintable(method));
        QVERIFY(in.constFirst().latencyMs >= 0);
        QVERIFY(out.constFirst().bytes > 0 && in.constFirst().bytes > 0);
        QVERIFY(in.constFirst().timestampMs >= out.constFirst().timestampMs);
        // Every request carries the 2026 envelope.
        const QJsonObject meta = interop::parseObject(out.constFirst().text)
                                     .value(QStringLiteral("params"))
                                     .toObject()
                                     .value(QStringLiteral("_meta"))
                                     .toObject();
        QCOMPARE(meta.value(QStringLiteral("io.modelcontextprotocol/protocolVersion")).toString(),
                 QStringLiteral("2026-07-28"));
        QVERIFY(meta.value(QStringLiteral("io.modelcontextprotocol/clientCapabilities")).isObject());
        QCOMPARE(meta.value(QStringLiteral("io.modelcontextprotocol/clientInfo"))
                     .toObject()
                     .value(QStringLiteral("name"))
                     .toString(),
                 QStringLiteral("folio"));
    }

    if (transport == QLatin1String("streamable_http")) {
        // The peer logs the MCP headers of every POST it served; the SDK rejects a POST without
        // Mcp-Method (400 -32020), so each 200 here is also the SDK's verdict on our headers.
        const auto served = [this](const QString &line) { return m_httpPeer.output().contains(line); };
        QTRY_VERIFY2_WITH_TIMEOUT(
            served(QStringLiteral(
                "http POST mcp-method=server/discover mcp-name=- mcp-protocol-version=2026-07-28 -> 200")),
            qPrintable(m_httpPeer.output()), 5000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            served(QStringLiteral(
                "http POST mcp-method=tools/list mcp-name=- mcp-protocol-version=2026-07-28 -> 200")),
            qPrintable(m_httpPeer.output()), 5000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            served(QStringLiteral("http POST mcp-method=tools/call mcp-name=add_numbers "
                                  "mcp-protocol-version=2026-07-28 -> 200")),
            qPrintable(m_httpPeer.output()), 5000);
        QVERIFY2(!m_httpPeer.output().contains(QStringLiteral("-> 4")), qPrintable(m_httpPeer.output()));
    }
}

void tst_ModernPeer::stdioPeerExitsWhenStdinCloses()
{
    QString why;
    QVERIFY2(startAndConnect(QStringLiteral("stdio"), &why), qPrintable(why));
    auto *stdio = qobject_cast<StdioTransport *>(m_client->connection()->transport());
    QVERIFY(stdio);
    const qint64 pid = stdio->processId();
    QVERIFY(interop::processAlive(pid));

    QSignalSpy disconnected(m_client.get(), &McpClient::disconnected);
    QElapsedTimer timer;
    timer.start();
    m_client->disconnectFromServer();
    QCOMPARE(disconnected.size(), 1);
    QVERIFY(!disconnected.constFirst().constFirst().value<McpError>().isError());
    // serveStdio exits on end of input, within the grace period: no SIGTERM needed.
    QTRY_VERIFY_WITH_TIMEOUT(!interop::processAlive(pid), 10000);
    qInfo("modern peer exited %lld ms after stdin closed", timer.elapsed());
    for (const auto &e : m_client->trafficLog()->entries())
        QVERIFY2(!e.text.contains("SIGTERM"), e.text.constData());
}

QTEST_GUILESS_MAIN(tst_ModernPeer)
#include "tst_modernpeer.moc"
