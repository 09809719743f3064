#include "interophelpers.h"
#include "legacyssetransport.h"
#include "stdiotransport.h"
#include "streamablehttptransport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>
#include <QUrlQuery>

#include <memory>

using namespace folio;
using interop::ServerProcess;

namespace {

// Adds a roots capability to the initialize request, as a client with roots support sends it.
// server-everything asks a client for its roots only when it declared them, and Folio's McpClient
// declares no client capabilities; this is how the test gets a real server->client request.
template<typename Base> class RootsDeclaring : public Base
{
public:
    using Base::Base;

    void send(const QJsonObject &message, const QByteArray &encoded) override
    {
        if (message.value(QStringLiteral("method")).toString() != QLatin1String("initialize")) {
            Base::send(message, encoded);
            return;
        }
        QJsonObject params = message.value(QStringLiteral("params")).toObject();
        QJsonObject capabilities = params.value(QStringLiteral("capabilities")).toObject();
        capabilities[QStringLiteral("roots")] = QJsonObject();
        params[QStringLiteral("capabilities")] = capabilities;
        QJsonObject changed = message;
        changed[QStringLiteral("params")] = params;
        Base::send(changed, QJsonDocument(changed).toJson(QJsonDocument::Compact));
    }
};

constexpr int connectTimeoutMs = 20000;

QString everythingScript()
{
    return interop::peerFile(
        QStringLiteral("node_modules/@modelcontextprotocol/server-everything/dist/index.js"));
}

QString itemName(const QJsonValue &item)
{
    return item.toObject().value(QStringLiteral("name")).toString();
}

QString firstText(const RpcCall *call)
{
    return call->result()
        .value(QStringLiteral("content"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("text"))
        .toString();
}

} // namespace

// Folio's client against the real @modelcontextprotocol/server-everything (2025-11-25 era, SDK v1)
// over stdio, Streamable HTTP and the legacy HTTP+SSE transport: era detection falls back from
// server/discover to initialize, the four lists come back whole (never paged, no cache hints),
// tools/call works, a server->client request is answered without breaking the connection, and
// every transport shuts down cleanly. Its HTTP modes listen on every interface, so those rows run
// only inside tests/in-netns's loopback-only network namespace.
class tst_Everything : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void connectsListsAndCalls_data();
    void connectsListsAndCalls();
    void answersRootsList_data();
    void answersRootsList();
    void shutsDownCleanly_data();
    void shutsDownCleanly();
    void subscribesToAResource_data();
    void subscribesToAResource();

private:
    static void addTransportRows(bool withAutoFallback);
    // Starts the HTTP server when the transport needs one, then builds the config; empty on failure.
    std::optional<ServerConfig> prepare(const QString &transport, QString *why);
    // prepare(), then m_client connected to it.
    bool connectTo(const QString &transport, QString *why);
    void useRootsDeclaringTransport(const ServerConfig &config);

    ServerProcess m_server;
    std::unique_ptr<McpClient> m_client;
};

void tst_Everything::initTestCase()
{
    FOLIO_REQUIRE_PEERS(QStringLiteral("node_modules/@modelcontextprotocol/server-everything/dist/index.js"));
}

void tst_Everything::cleanup()
{
    m_client.reset(); // its stdio transport kills a server that is still running
    m_server.stop();
}

void tst_Everything::addTransportRows(bool withAutoFallback)
{
    QTest::addColumn<QString>("transport");
    QTest::newRow("stdio") << QStringLiteral("stdio");
    QTest::newRow("streamable_http") << QStringLiteral("streamable_http");
    QTest::newRow("legacy_sse") << QStringLiteral("legacy_sse");
    if (withAutoFallback)
        QTest::newRow("legacy_sse_by_fallback") << QStringLiteral("legacy_sse_by_fallback");
}

std::optional<ServerConfig> tst_Everything::prepare(const QString &transport, QString *why)
{
    const auto named = [](ServerConfig config) {
        config.name = QStringLiteral("everything");
        config.requestTimeoutMs = 15000;
        return config;
    };
    if (transport == QLatin1String("stdio")) {
        ServerConfig config =
            named(ServerConfig::process(interop::node22(), {everythingScript(), QStringLiteral("stdio")}));
        config.workingDirectory = interop::peersDir();
        return config;
    }

    const quint16 port = interop::freeLoopbackPort();
    const bool streamable = transport == QLatin1String("streamable_http");
    m_server.start(
        interop::node22(),
        {everythingScript(), streamable ? QStringLiteral("streamableHttp") : QStringLiteral("sse")},
        {{QStringLiteral("PORT"), QString::number(port)}}, interop::peersDir());
    const QString ready = streamable ? QStringLiteral("listening on port %1").arg(port)
                                     : QStringLiteral("Server is running on port %1").arg(port);
    if (!m_server.waitForOutput(QRegularExpression(QRegularExpression::escape(ready)), connectTimeoutMs)
             .hasMatch()) {
        *why = QStringLiteral("server-everything did not start: ") + m_server.output();
        return std::nullopt;
    }
    // Its HTTP+SSE stream is GET /sse (dist/transports/sse.js); POSTs go where `endpoint` says.
    ServerConfig config = named(
        ServerConfig::remote(QUrl(QStringLiteral("http://127.0.0.1:%1/%2")
                                      .arg(port)
                                      .arg(streamable ? QStringLiteral("mcp") : QStringLiteral("sse")))));
    if (streamable) {
        config.httpMode = ServerConfig::HttpMode::Auto;
    } else {
        config.httpMode = transport == QLatin1String("legacy_sse") ? ServerConfig::HttpMode::LegacySse
                                                                   : ServerConfig::HttpMode::Auto;
    }
    return config;
}

void tst_Everything::useRootsDeclaringTransport(const ServerConfig &config)
{
    m_client->setTransportFactory([config](QObject *parent) -> Transport * {
        if (config.startsProcess()) {
            auto *t = new RootsDeclaring<StdioTransport>(parent);
            t->setProgram(config.command, config.arguments);
            t->setWorkingDirectory(config.workingDirectory);
            return t;
        }
        HttpEndpoint endpoint;
        endpoint.url = config.url;
        if (config.httpMode == ServerConfig::HttpMode::LegacySse)
            return new RootsDeclaring<LegacySseTransport>(endpoint, parent);
        return new RootsDeclaring<StreamableHttpTransport>(endpoint, parent);
    });
}

bool tst_Everything::connectTo(const QString &transport, QString *why)
{
    const std::optional<ServerConfig> config = prepare(transport, why);
    if (!config)
        return false;
    m_client = std::make_unique<McpClient>();
    m_client->setConfig(*config);
    return interop::connectClient(*m_client, connectTimeoutMs, why);
}

void tst_Everything::connectsListsAndCalls_data()
{
    addTransportRows(true);
}

void tst_Everything::connectsListsAndCalls()
{
    QFETCH(QString, transport);
    if (transport != QLatin1String("stdio"))
        FOLIO_REQUIRE_LOOPBACK_ONLY_NETNS();
    QString why;
    QVERIFY2(connectTo(transport, &why), qPrintable(why));

    // Era detection: a 2025-era server. server/discover is refused (stdio -32601, HTTP 400), so
    // Folio falls back to initialize, which server-everything answers with 2025-11-25 over every
    // transport; by fallback, the POSTs to /sse fail and Folio moves to HTTP+SSE.
    QCOMPARE(m_client->protocolVersion(), QStringLiteral("2025-11-25"));
    QCOMPARE(m_client->handshakeResult().value(QStringLiteral("protocolVersion")).toString(),
             m_client->protocolVersion());
    const bool sse = transport.startsWith(QLatin1String("legacy_sse"));
    QCOMPARE(m_client->transportName(), transport == QLatin1String("stdio") ? QStringLiteral("stdio")
                                        : sse                               ? QStringLiteral("http+sse")
                                              : QStringLiteral("streamable-http"));
    QCOMPARE(m_client->serverInfo().value(QStringLiteral("name")).toString(),
             QStringLiteral("mcp-servers/everything"));
    for (const char *capability : {"tools", "prompts", "resources"})
        QVERIFY2(m_client->capabilities().value(QLatin1String(capability)).isObject(), capability);
    const TrafficLog *log = m_client->trafficLog();
    const qsizetype discovers =
        interop::logEntries(log, QStringLiteral("server/discover"), TrafficLog::Direction::Outgoing).size();
    QCOMPARE(discovers, transport == QLatin1String("legacy_sse") ? 0 : 1);
    QVERIFY(!interop::logEntries(log, QStringLiteral("notifications/initialized"),
                                 TrafficLog::Direction::Outgoing)
                 .isEmpty());
    // The only failures are the era probes; a notification's empty 202 is not an error.
    for (const auto &e : log->entries()) {
        if (e.direction == TrafficLog::Direction::Incoming && e.isError) {
            QVERIFY2(e.method == QLatin1String("server/discover") || e.method == QLatin1String("initialize"),
                     qPrintable(interop::describeLog(log)));
        }
    }

    // The four lists: whole in one page, and without cache hints (none sent, none made up).
    const QList<QPair<ListKind, int>> lists{{ListKind::Tools, 13},
                                            {ListKind::Prompts, 4},
                                            {ListKind::Resources, 7},
                                            {ListKind::ResourceTemplates, 2}};
    for (const auto &[kind, count] : lists) {
        const interop::ListWalk walk = interop::walkList(*m_client, kind, this);
        QVERIFY2(walk.error.isEmpty(), qPrintable(listName(kind) + QStringLiteral(": ") + walk.error));
        QVERIFY2(walk.items.size() == count, qPrintable(QStringLiteral("%1: %2 items, expected %3")
                                                            .arg(listName(kind))
                                                            .arg(walk.items.size())
                                                            .arg(count)));
        QCOMPARE(walk.pages.size(), 1);
        const QJsonObject result = walk.pages.constFirst()->result();
        QVERIFY2(!result.contains(QStringLiteral("ttlMs")), qPrintable(listName(kind)));
        QVERIFY2(!result.contains(QStringLiteral("cacheScope")), qPrintable(listName(kind)));
        QCOMPARE(interop::parseObject(walk.pages.constFirst()->rawResponse())
                     .value(QStringLiteral("result"))
                     .toObject(),
                 result);
    }

    RpcCall *echo = m_client->callTool(
        QStringLiteral("echo"), {{QStringLiteral("message"), QStringLiteral("hello from Folio")}}, this);
    QVERIFY(interop::waitFor(echo));
    QVERIFY2(!echo->isError(), qPrintable(echo->error().describe()));
    QCOMPARE(firstText(echo), QStringLiteral("Echo: hello from Folio"));

    RpcCall *sum = m_client->callTool(QStringLiteral("get-sum"),
                                      {{QStringLiteral("a"), 20}, {QStringLiteral("b"), 22}}, this);
    QVERIFY(interop::waitFor(sum));
    QVERIFY2(!sum->isError(), qPrintable(sum->error().describe()));
    QVERIFY2(firstText(sum).contains(QStringLiteral("42")), qPrintable(firstText(sum)));
    QCOMPARE(m_client->state(), McpClient::State::Connected);
}

void tst_Everything::answersRootsList_data()
{
    addTransportRows(false);
}

void tst_Everything::answersRootsList()
{
    QFETCH(QString, transport);
    if (transport != QLatin1String("stdio"))
        FOLIO_REQUIRE_LOOPBACK_ONLY_NETNS();
    QString why;
    std::optional<ServerConfig> config = prepare(transport, &why);
    QVERIFY2(config, qPrintable(why));
    if (transport == QLatin1String("streamable_http"))
        config->httpMode = ServerConfig::HttpMode::Streamable;
    m_client = std::make_unique<McpClient>();
    m_client->setConfig(*config);
    useRootsDeclaringTransport(*config);
    QVERIFY2(interop::connectClient(*m_client, connectTimeoutMs, &why), qPrintable(why));
    // Over Streamable HTTP the server's own requests travel on the optional GET stream; the server
    // sends roots/list 350 ms after notifications/initialized.
    m_client->listenForListChanges();

    const TrafficLog *log = m_client->trafficLog();
    QTRY_VERIFY2_WITH_TIMEOUT(
        !interop::logEntries(log, QStringLiteral("roots/list"), TrafficLog::Direction::Incoming).isEmpty(),
        qPrintable(interop::describeLog(log) + m_server.output()), 10000);
    const TrafficLog::Entry request =
        interop::logEntries(log, QStringLiteral("roots/list"), TrafficLog::Direction::Incoming).constFirst();
    QVERIFY(!request.id.isEmpty());

    // Folio answered it (a response carries no method) with -32601: it has no roots to offer.
    QJsonObject reply;
    for (const auto &e : log->entries()) {
        if (e.direction == TrafficLog::Direction::Outgoing && e.method.isEmpty() && e.id == request.id)
            reply = interop::parseObject(e.text);
    }
    QVERIFY2(!reply.isEmpty(), "no reply to roots/list in the traffic log");
    QCOMPARE(reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32601);

    // The server received the answer (it logs the failed roots request) ...
    const auto serverLog = [&] {
        QString text = m_server.output();
        for (const auto &e : log->entries()) {
            if (e.direction == TrafficLog::Direction::Diagnostic)
                text += QString::fromUtf8(e.text) + QLatin1Char('\n');
        }
        return text;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(serverLog().contains(QStringLiteral("Failed to request roots")),
                              qPrintable(serverLog()), 10000);
    QVERIFY2(serverLog().contains(QStringLiteral("-32601")), qPrintable(serverLog()));
    // A new GET stream starts fresh: resuming with an event id from a POST's stream would make the
    // server replay that stream there, and its own requests would never arrive.
    QVERIFY2(!serverLog().contains(QStringLiteral("Last-Event-ID")), qPrintable(serverLog()));

    // ... and the connection carries on: the declared capability shows in the tools, echo works.
    QCOMPARE(m_client->state(), McpClient::State::Connected);
    const interop::ListWalk tools = interop::walkList(*m_client, ListKind::Tools, this);
    QVERIFY2(tools.error.isEmpty(), qPrintable(tools.error));
    bool hasRootsTool = false;
    for (const QJsonValue &t : tools.items)
        hasRootsTool = hasRootsTool || itemName(t) == QLatin1String("get-roots-list");
    QVERIFY(hasRootsTool);
    RpcCall *echo = m_client->callTool(QStringLiteral("echo"),
                                       {{QStringLiteral("message"), QStringLiteral("still here")}}, this);
    QVERIFY(interop::waitFor(echo));
    QVERIFY2(!echo->isError(), qPrintable(echo->error().describe()));
    QCOMPARE(firstText(echo), QStringLiteral("Echo: still here"));
}

void tst_Everything::subscribesToAResource_data()
{
    addTransportRows(false);
}

// Issue 34 against a server Folio did not write: server-everything advertises resources.subscribe,
// answers resources/subscribe, and once its toggle-subscriber-updates tool is called sends
// notifications/resources/updated for every subscribed URI (at once, then every 5 s) where it
// sends its other notifications (stdout, the GET stream, the SSE stream).
void tst_Everything::subscribesToAResource()
{
    QFETCH(QString, transport);
    if (transport != QLatin1String("stdio"))
        FOLIO_REQUIRE_LOOPBACK_ONLY_NETNS();
    QString why;
    QVERIFY2(connectTo(transport, &why), qPrintable(why));
    QVERIFY(m_client->offersSubscriptions());
    const interop::ListWalk walk = interop::walkList(*m_client, ListKind::Resources, this);
    QVERIFY2(walk.error.isEmpty() && !walk.items.isEmpty(), qPrintable(walk.error));
    const QString uri = walk.items.first().toObject().value(QStringLiteral("uri")).toString();
    QVERIFY(!uri.isEmpty());

    QSignalSpy updated(m_client.get(), &McpClient::resourceUpdated);
    m_client->subscribeResource(uri);
    QCOMPARE(m_client->resourceSubscription(uri).state, ResourceSubscription::State::Pending);
    QTRY_COMPARE_WITH_TIMEOUT(m_client->resourceSubscription(uri).state, ResourceSubscription::State::Active,
                              15000);

    RpcCall *toggle = m_client->callTool(QStringLiteral("toggle-subscriber-updates"), {}, this);
    QVERIFY(interop::waitFor(toggle));
    QVERIFY2(!toggle->isError(), qPrintable(toggle->error().describe()));
    QTRY_VERIFY_WITH_TIMEOUT(!updated.isEmpty(), 15000);
    QCOMPARE(updated.constFirst().constFirst().toString(), uri);

    m_client->unsubscribeResource(uri);
    QCOMPARE(m_client->resourceSubscription(uri).state, ResourceSubscription::State::None);
    const TrafficLog *log = m_client->trafficLog();
    QTRY_VERIFY_WITH_TIMEOUT(
        !interop::logEntries(log, QStringLiteral("resources/unsubscribe"), TrafficLog::Direction::Incoming)
             .isEmpty(),
        15000);
    for (const auto &e :
         interop::logEntries(log, QStringLiteral("resources/unsubscribe"), TrafficLog::Direction::Incoming))
        QVERIFY2(!e.isError, qPrintable(interop::describeLog(log)));
}

void tst_Everything::shutsDownCleanly_data()
{
    addTransportRows(false);
}

void tst_Everything::shutsDownCleanly()
{
    QFETCH(QString, transport);
    if (transport != QLatin1String("stdio"))
        FOLIO_REQUIRE_LOOPBACK_ONLY_NETNS();
    QString why;
    QVERIFY2(connectTo(transport, &why), qPrintable(why));

    Transport *t = m_client->connection()->transport();
    qint64 pid = 0;
    QString session;
    if (auto *stdio = qobject_cast<StdioTransport *>(t)) {
        pid = stdio->processId();
        QVERIFY(interop::processAlive(pid));
    } else if (auto *streamable = qobject_cast<StreamableHttpTransport *>(t)) {
        session = QString::fromLatin1(streamable->sessionId());
    } else if (auto *sse = qobject_cast<LegacySseTransport *>(t)) {
        session = QUrlQuery(sse->postUrl()).queryItemValue(QStringLiteral("sessionId"));
    }

    QSignalSpy disconnected(m_client.get(), &McpClient::disconnected);
    QElapsedTimer timer;
    timer.start();
    m_client->disconnectFromServer();
    QCOMPARE(m_client->state(), McpClient::State::Disconnected);
    QCOMPARE(disconnected.size(), 1);
    QVERIFY(!disconnected.constFirst().constFirst().value<McpError>().isError());

    if (transport == QLatin1String("stdio")) {
        // It ignores the end of its input: stdin closed, then SIGTERM after the grace period.
        QTRY_VERIFY_WITH_TIMEOUT(!interop::processAlive(pid), 15000);
        bool escalated = false;
        for (const auto &e : m_client->trafficLog()->entries())
            escalated = escalated || e.text.contains("SIGTERM");
        qInfo("server-everything (stdio) gone %lld ms after disconnect%s", timer.elapsed(),
              escalated ? " (needed SIGTERM)" : "");
        return;
    }

    QVERIFY2(!session.isEmpty(), "no session id");
    if (transport == QLatin1String("streamable_http")) {
        // The session was ended with DELETE, and the server let it go.
        QTRY_VERIFY2_WITH_TIMEOUT(
            m_server.output().contains(QStringLiteral("Received session termination request for session ") +
                                       session),
            qPrintable(m_server.output()), 5000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            m_server.output().contains(QStringLiteral("Transport closed for session ") + session),
            qPrintable(m_server.output()), 5000);
    } else {
        // Closing the SSE stream ends the session.
        QTRY_VERIFY2_WITH_TIMEOUT(m_server.output().contains(QStringLiteral("Client Disconnected")) &&
                                      m_server.output().contains(session),
                                  qPrintable(m_server.output()), 5000);
    }
    QVERIFY(m_server.isRunning());
}

QTEST_GUILESS_MAIN(tst_Everything)
#include "tst_everything.moc"
