#include "faketransport.h"
#include "handshake.h"
#include "jsonrpcconnection.h"
#include "protocol.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

Q_DECLARE_METATYPE(folio::ServerConfig::HttpMode)
Q_DECLARE_METATYPE(folio::McpError::Kind)

namespace {

const QString Modern = QString::fromLatin1(Revision::Modern);

// An error answer whose message is "no" (data null unless given).
QJsonObject error(const QJsonValue &id, int code, const QJsonValue &data = {})
{
    return rpc::error(id, code, QStringLiteral("no"), data);
}

QJsonObject discoverResult()
{
    return {{QStringLiteral("supportedVersions"), QJsonArray{Modern}},
            {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("tools"), QJsonObject()}}},
            {QStringLiteral("instructions"), QStringLiteral("be kind")},
            {QStringLiteral("_meta"),
             QJsonObject{{QStringLiteral("io.modelcontextprotocol/serverInfo"),
                          QJsonObject{{QStringLiteral("name"), QStringLiteral("modern")}}}}}};
}

QJsonObject initializeResult(const QString &revision)
{
    return {{QStringLiteral("protocolVersion"), revision},
            {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("prompts"), QJsonObject()}}},
            {QStringLiteral("serverInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("legacy")}}}};
}

} // namespace

// The handshake over a fake transport: what it sends, how it negotiates down, when it gives up.
class tst_Handshake : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void discoverAgreesOnModern();
    void wrongVersionRetriesDiscoverOnce();
    void discoverErrorFallsBackToInitialize();
    void discoverWithoutModernFallsBackToInitialize();
    void failedSignInDoesNotFallBack_data();
    void failedSignInDoesNotFallBack();
    void noSharedRevisionFails();
    void pinnedLegacySkipsDiscover();
    void unknownInitializeRevisionFails();
    void httpRefusalAsksForHttpSse_data();
    void httpRefusalAsksForHttpSse();
    void abandonedIgnoresAnswers();
    void envelopeKeepsTheCallersMeta();

private:
    void start(const ServerConfig &config = {}, ServerConfig::HttpMode mode = ServerConfig::HttpMode::Auto);
    QString lastMethod() const
    {
        return m_transport->sent.constLast().value(QStringLiteral("method")).toString();
    }
    QJsonValue lastId() const { return m_transport->sent.constLast().value(QStringLiteral("id")); }
    QJsonObject lastParams() const
    {
        return m_transport->sent.constLast().value(QStringLiteral("params")).toObject();
    }

    FakeTransport *m_transport = nullptr;
    JsonRpcConnection *m_conn = nullptr;
    Handshake *m_handshake = nullptr;
    std::unique_ptr<QSignalSpy> m_succeeded;
    std::unique_ptr<QSignalSpy> m_failed;
    std::unique_ptr<QSignalSpy> m_refused;
};

void tst_Handshake::init()
{
    m_transport = new FakeTransport;
    m_conn = new JsonRpcConnection(m_transport, nullptr);
}

void tst_Handshake::cleanup()
{
    m_succeeded.reset();
    m_failed.reset();
    m_refused.reset();
    delete m_conn; // the handshake with it
    m_handshake = nullptr;
}

void tst_Handshake::start(const ServerConfig &config, ServerConfig::HttpMode mode)
{
    m_handshake = new Handshake(m_conn, config);
    m_succeeded = std::make_unique<QSignalSpy>(m_handshake, &Handshake::succeeded);
    m_failed = std::make_unique<QSignalSpy>(m_handshake, &Handshake::failed);
    m_refused = std::make_unique<QSignalSpy>(m_handshake, &Handshake::streamableHttpRefused);
    m_transport->open();
    m_handshake->start(mode);
}

void tst_Handshake::discoverAgreesOnModern()
{
    start();
    QCOMPARE(lastMethod(), QStringLiteral("server/discover"));
    QCOMPARE(lastParams().value(QStringLiteral("_meta")).toObject(), Handshake::modernMeta());
    QCOMPARE(m_transport->protocolVersion(), Modern);
    m_transport->receive(rpc::result(lastId(), discoverResult()));
    QCOMPARE(m_succeeded->count(), 1);
    QCOMPARE(m_handshake->protocolVersion(), Modern);
    QCOMPARE(m_handshake->serverInfo().value(QStringLiteral("name")).toString(), QStringLiteral("modern"));
    QVERIFY(m_handshake->capabilities().contains(QStringLiteral("tools")));
    QCOMPARE(m_handshake->instructions(), QStringLiteral("be kind"));
    QCOMPARE(m_handshake->result(), discoverResult());
    QCOMPARE(m_transport->sent.size(), 1); // no initialized notification in the 2026 era
}

void tst_Handshake::wrongVersionRetriesDiscoverOnce()
{
    start();
    const QJsonObject data{
        {QStringLiteral("supported"), QJsonArray{Modern, Revision::legacy().constFirst()}}};
    m_transport->receive(error(lastId(), -32022, data));
    QCOMPARE(lastMethod(), QStringLiteral("server/discover"));
    m_transport->receive(error(lastId(), -32022, data));
    // Asked once more already: the shared legacy revision next.
    QCOMPARE(lastMethod(), QStringLiteral("initialize"));
    QCOMPARE(lastParams().value(QStringLiteral("protocolVersion")).toString(),
             Revision::legacy().constFirst());
    QCOMPARE(m_transport->sent.size(), 3);
}

void tst_Handshake::discoverErrorFallsBackToInitialize()
{
    start();
    QSignalSpy diagnostic(m_handshake, &Handshake::diagnostic);
    m_transport->receive(error(lastId(), -32601));
    QCOMPARE(diagnostic.count(), 1);
    QCOMPARE(lastMethod(), QStringLiteral("initialize"));
    QCOMPARE(m_transport->protocolVersion(), QString()); // no MCP-Protocol-Version on initialize
    const QString revision = Revision::legacy().constFirst();
    m_transport->receive(rpc::result(lastId(), initializeResult(revision)));
    QCOMPARE(m_succeeded->count(), 1);
    QCOMPARE(m_handshake->protocolVersion(), revision);
    QCOMPARE(m_handshake->serverInfo().value(QStringLiteral("name")).toString(), QStringLiteral("legacy"));
    QCOMPARE(lastMethod(), QStringLiteral("notifications/initialized"));
    QCOMPARE(m_transport->protocolVersion(), revision >= QLatin1String("2025-06-18") ? revision : QString());
}

void tst_Handshake::failedSignInDoesNotFallBack_data()
{
    QTest::addColumn<McpError::Kind>("kind");
    QTest::addColumn<int>("status");
    QTest::addRow("cancelled") << McpError::Kind::Cancelled << 401;
    QTest::addRow("browser timed out") << McpError::Kind::Timeout << 401;
    QTest::addRow("step-up refused") << McpError::Kind::Timeout << 403;
}

void tst_Handshake::failedSignInDoesNotFallBack()
{
    QFETCH(McpError::Kind, kind);
    QFETCH(int, status);
    start();
    QCOMPARE(lastMethod(), QStringLiteral("server/discover"));
    const int sent = int(m_transport->sent.size());
    McpError e = McpError::make(kind, QStringLiteral("Sign-in failed at \"Authorization\": cancelled"));
    e.httpStatus = status; // what the HTTP transport sets when the sign-in after a refusal fails
    Q_EMIT m_transport->requestFailed(lastId(), e);
    QCOMPARE(m_failed->count(), 1);
    QCOMPARE(int(m_transport->sent.size()), sent); // no initialize
}

void tst_Handshake::discoverWithoutModernFallsBackToInitialize()
{
    start();
    m_transport->receive(rpc::result(
        lastId(), {{QStringLiteral("supportedVersions"), QJsonArray{QStringLiteral("2099-01-01")}}}));
    QCOMPARE(lastMethod(), QStringLiteral("initialize"));
    QCOMPARE(m_succeeded->count(), 0);
}

void tst_Handshake::noSharedRevisionFails()
{
    start();
    m_transport->receive(
        error(lastId(), -32022,
              QJsonObject{{QStringLiteral("supported"), QJsonArray{QStringLiteral("2099-01-01")}}}));
    QCOMPARE(m_failed->count(), 1);
    QCOMPARE(m_failed->first().at(0).value<McpError>().kind, McpError::Kind::Protocol);
    QCOMPARE(m_transport->sent.size(), 1);
}

void tst_Handshake::pinnedLegacySkipsDiscover()
{
    ServerConfig config;
    config.pinnedRevision = Revision::legacy().constLast();
    start(config);
    QCOMPARE(lastMethod(), QStringLiteral("initialize"));
    QCOMPARE(lastParams().value(QStringLiteral("protocolVersion")).toString(), config.pinnedRevision);
    QCOMPARE(lastParams().value(QStringLiteral("clientInfo")).toObject(), Handshake::clientInfo());
}

void tst_Handshake::unknownInitializeRevisionFails()
{
    start({}, ServerConfig::HttpMode::LegacySse);
    QCOMPARE(lastMethod(), QStringLiteral("initialize"));
    m_transport->receive(rpc::result(lastId(), initializeResult(QStringLiteral("1999-01-01"))));
    QCOMPARE(m_failed->count(), 1);
    QCOMPARE(m_failed->first().at(0).value<McpError>().kind, McpError::Kind::Protocol);
    QCOMPARE(m_succeeded->count(), 0);
}

void tst_Handshake::httpRefusalAsksForHttpSse_data()
{
    QTest::addColumn<ServerConfig::HttpMode>("configured");
    QTest::addColumn<ServerConfig::HttpMode>("transport");
    QTest::addColumn<bool>("refused");
    QTest::addRow("auto_over_streamable_http_falls_back")
        << ServerConfig::HttpMode::Auto << ServerConfig::HttpMode::Auto << true;
    QTest::addRow("auto_already_over_http_sse_fails")
        << ServerConfig::HttpMode::Auto << ServerConfig::HttpMode::LegacySse << false;
    QTest::addRow("streamable_http_chosen_fails")
        << ServerConfig::HttpMode::Streamable << ServerConfig::HttpMode::Streamable << false;
}

void tst_Handshake::httpRefusalAsksForHttpSse()
{
    QFETCH(ServerConfig::HttpMode, configured);
    QFETCH(ServerConfig::HttpMode, transport);
    QFETCH(bool, refused);
    ServerConfig config = ServerConfig::remote(QUrl());
    config.httpMode = configured;
    config.pinnedRevision = Revision::legacy().constFirst();
    start(config, transport);
    QCOMPARE(lastMethod(), QStringLiteral("initialize"));
    McpError e = McpError::make(McpError::Kind::HttpStatus, QStringLiteral("Not Found"));
    e.httpStatus = 404;
    Q_EMIT m_transport->requestFailed(lastId(), e);
    QCOMPARE(m_refused->count(), refused ? 1 : 0);
    QCOMPARE(m_failed->count(), refused ? 0 : 1);
}

void tst_Handshake::abandonedIgnoresAnswers()
{
    start();
    m_handshake->abandon();
    m_transport->receive(error(lastId(), -32601));
    QCOMPARE(m_transport->sent.size(), 1); // no initialize after the client left
    QCOMPARE(m_succeeded->count() + m_failed->count(), 0);
}

void tst_Handshake::envelopeKeepsTheCallersMeta()
{
    const QJsonObject envelope = Handshake::modernMeta();
    const QJsonObject bare =
        Handshake::withEnvelope({{QStringLiteral("cursor"), QStringLiteral("c")}}, envelope);
    QCOMPARE(bare.value(QStringLiteral("_meta")).toObject(), envelope);
    QCOMPARE(bare.value(QStringLiteral("cursor")).toString(), QStringLiteral("c"));

    const QString versionKey = QStringLiteral("io.modelcontextprotocol/protocolVersion");
    const QJsonObject own{{QStringLiteral("_meta"), QJsonObject{{versionKey, QStringLiteral("mine")},
                                                                {QStringLiteral("progressToken"), 7}}}};
    const QJsonObject meta = Handshake::withEnvelope(own, envelope).value(QStringLiteral("_meta")).toObject();
    QCOMPARE(meta.value(versionKey).toString(), QStringLiteral("mine"));
    QCOMPARE(meta.value(QStringLiteral("progressToken")).toInt(), 7);
    QCOMPARE(meta.size(), envelope.size() + 1);
}

QTEST_GUILESS_MAIN(tst_Handshake)
#include "tst_handshake.moc"
