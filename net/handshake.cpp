#include "handshake.h"

#include "jsonrpcconnection.h"
#include "netlogging.h"
#include "protocol.h"
#include "rpccall.h"
#include "transport.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace folio {

namespace {
constexpr int discoverProbeTimeoutMs = 5000;
const QString metaVersion = QStringLiteral("io.modelcontextprotocol/protocolVersion");
const QString metaCapabilities = QStringLiteral("io.modelcontextprotocol/clientCapabilities");
const QString metaClientInfo = QStringLiteral("io.modelcontextprotocol/clientInfo");
const QString metaServerInfo = QStringLiteral("io.modelcontextprotocol/serverInfo");
} // namespace

Handshake::Handshake(JsonRpcConnection *connection, const ServerConfig &config)
    : QObject(connection)
    , m_connection(connection)
    , m_config(config)
{}

QJsonObject Handshake::clientInfo()
{
    const QString version = QCoreApplication::applicationVersion();
    return {{QStringLiteral("name"), QStringLiteral("folio")},
            {QStringLiteral("title"), QStringLiteral("Folio")},
            {QStringLiteral("version"), version.isEmpty() ? QStringLiteral("0.1.0") : version}};
}

QJsonObject Handshake::modernMeta(const QJsonObject &clientCapabilities)
{
    return {{metaVersion, QString::fromLatin1(Revision::Modern)},
            {metaCapabilities, clientCapabilities},
            {metaClientInfo, clientInfo()}};
}

QJsonObject Handshake::withEnvelope(const QJsonObject &params, const QJsonObject &envelope)
{
    QJsonObject p = params;
    if (!p.contains(QStringLiteral("_meta"))) {
        p.insert(QStringLiteral("_meta"), envelope);
        return p;
    }
    QJsonObject meta = p.value(QStringLiteral("_meta")).toObject();
    for (auto it = envelope.begin(); it != envelope.end(); ++it) {
        if (!meta.contains(it.key()))
            meta.insert(it.key(), it.value());
    }
    p[QStringLiteral("_meta")] = meta;
    return p;
}

int Handshake::remainingMs() const
{
    return int(qMax<qint64>(0, m_config.requestTimeoutMs - m_started.elapsed()));
}

void Handshake::start(ServerConfig::HttpMode mode)
{
    m_mode = mode;
    m_started.start();
    connect(
        m_connection, &JsonRpcConnection::protocolWarning, this,
        [this](const McpError &e, const QByteArray &raw) {
            if (m_done || !m_strayLine.isEmpty() || e.kind != McpError::Kind::MalformedMessage ||
                raw.isEmpty() || m_config.kind != ServerConfig::Kind::Stdio)
                return;
            QString line = QString::fromUtf8(raw.left(400)).trimmed();
            if (line.size() > 120 || raw.size() > 400)
                line = line.left(119) + QChar(0x2026);
            m_strayLine = line;
            Q_EMIT strayOutput(line);
            report(
                QStringLiteral("The server wrote a line on stdout that is not JSON-RPC: \"%1\"").arg(line));
        });
    const QString pinned = m_config.pinnedRevision;
    if (mode == ServerConfig::HttpMode::LegacySse)
        sendInitialize(pinned.isEmpty() ? Revision::legacy().constFirst() : pinned);
    else if (pinned.isEmpty() || Revision::isModern(pinned))
        probeDiscover();
    else
        sendInitialize(pinned);
}

void Handshake::probeDiscover()
{
    m_connection->transport()->setProtocolVersion(QString::fromLatin1(Revision::Modern));
    const bool pinnedModern = Revision::isModern(m_config.pinnedRevision);
    // Unpinned, half the budget at most: a legacy server that never answers it leaves initialize
    // the rest.
    const int timeout = qMax(
        1, pinnedModern ? remainingMs()
                        : qMin(remainingMs(), qMin(m_config.requestTimeoutMs / 2, discoverProbeTimeoutMs)));
    qCDebug(lcMcp) << "handshake: server/discover for" << Revision::Modern << "within" << timeout << "ms";
    m_sent << QStringLiteral("server/discover");
    RpcCall *call =
        m_connection->request(QStringLiteral("server/discover"),
                              {{QStringLiteral("_meta"), modernMeta(m_clientCapabilities)}}, timeout, this);
    connect(call, &RpcCall::finished, this, [this, call] {
        call->deleteLater();
        handleDiscover(call);
    });
}

void Handshake::handleDiscover(RpcCall *call)
{
    if (m_done)
        return;
    const bool pinnedModern = Revision::isModern(m_config.pinnedRevision);
    if (!call->isError()) {
        const QJsonObject result = call->result();
        const QJsonArray supported = result.value(QStringLiteral("supportedVersions")).toArray();
        if (!supported.contains(QString::fromLatin1(Revision::Modern))) {
            qCDebug(lcMcp).noquote() << "handshake: server/discover offers"
                                     << QJsonDocument(supported).toJson(QJsonDocument::Compact) << "without"
                                     << Revision::Modern;
            if (pinnedModern) {
                fail(McpError::make(McpError::Kind::Protocol,
                                    QStringLiteral("The server does not support 2026-07-28")));
                return;
            }
            sendInitialize(Revision::legacy().constFirst());
            return;
        }
        m_protocolVersion = QString::fromLatin1(Revision::Modern);
        m_result = result;
        m_capabilities = result.value(QStringLiteral("capabilities")).toObject();
        m_serverInfo = result.value(QStringLiteral("_meta")).toObject().value(metaServerInfo).toObject();
        m_instructions = result.value(QStringLiteral("instructions")).toString();
        qCInfo(lcMcp).noquote() << "connected:" << m_protocolVersion << "by server/discover over"
                                << m_connection->transport()->kindName() << "to"
                                << m_serverInfo.value(QStringLiteral("name")).toString()
                                << m_serverInfo.value(QStringLiteral("version")).toString();
        m_done = true;
        Q_EMIT succeeded();
        return;
    }
    const McpError e = call->error();
    // Refused by HTTP 401/403 and the sign-in that followed failed, timed out or was cancelled:
    // initialize would be refused the same way and start a second sign-in.
    if (e.httpStatus == 401 || e.httpStatus == 403) {
        fail(e);
        return;
    }
    switch (e.kind) {
    case McpError::Kind::AuthRequired:
    case McpError::Kind::InsufficientScope:
    case McpError::Kind::SpawnFailed:
    case McpError::Kind::ProcessExited:
    case McpError::Kind::ConnectionFailed:
    case McpError::Kind::TlsError:
        fail(e);
        return;
    default:
        break;
    }
    if (e.kind == McpError::Kind::Rpc && e.code == -32022) {
        // A modern server that wants another version: pick a shared one and retry once.
        const QJsonArray supported = e.data.toObject().value(QStringLiteral("supported")).toArray();
        if (supported.contains(QString::fromLatin1(Revision::Modern)) && !m_retriedDiscover) {
            qCDebug(lcMcp) << "handshake: the server wants another version but lists" << Revision::Modern
                           << "- asking once more";
            m_retriedDiscover = true;
            probeDiscover();
            return;
        }
        for (const QJsonValue &v : supported) {
            if (Revision::legacy().contains(v.toString()) && !pinnedModern) {
                sendInitialize(v.toString());
                return;
            }
        }
        fail(McpError::make(
            McpError::Kind::Protocol,
            QStringLiteral("No shared protocol revision: the server supports %1")
                .arg(QString::fromUtf8(QJsonDocument(supported).toJson(QJsonDocument::Compact)))));
        return;
    }
    if (pinnedModern) {
        fail(e);
        return;
    }
    // Any other error or a timeout means a legacy server: never key on one error code.
    report(QStringLiteral("server/discover: %1 — trying initialize").arg(e.describe()));
    sendInitialize(m_config.pinnedRevision.isEmpty() ? Revision::legacy().constFirst()
                                                     : m_config.pinnedRevision);
}

void Handshake::sendInitialize(const QString &revision)
{
    m_connection->transport()->setProtocolVersion(QString());
    qCDebug(lcMcp).noquote() << "handshake: initialize offering" << revision;
    const QJsonObject params{{QStringLiteral("protocolVersion"), revision},
                             {QStringLiteral("capabilities"), m_clientCapabilities},
                             {QStringLiteral("clientInfo"), clientInfo()}};
    m_sent << QStringLiteral("initialize");
    RpcCall *call = m_connection->request(QStringLiteral("initialize"), params, qMax(1, remainingMs()), this);
    connect(call, &RpcCall::finished, this, [this, call, revision] {
        call->deleteLater();
        handleInitialize(call, revision);
    });
}

void Handshake::handleInitialize(RpcCall *call, const QString &offered)
{
    if (m_done)
        return;
    if (call->isError()) {
        const McpError e = call->error();
        const bool httpRefused = e.kind == McpError::Kind::HttpStatus &&
                                 (e.httpStatus == 400 || e.httpStatus == 404 || e.httpStatus == 405);
        // Over HTTP+SSE already (by the config or by this very fallback), there is nowhere to go.
        if (httpRefused && m_config.kind == ServerConfig::Kind::Http &&
            m_config.httpMode == ServerConfig::HttpMode::Auto &&
            m_mode != ServerConfig::HttpMode::LegacySse) {
            m_done = true;
            Q_EMIT streamableHttpRefused(e);
            return;
        }
        fail(e);
        return;
    }
    const QJsonObject result = call->result();
    const QString version = result.value(QStringLiteral("protocolVersion")).toString();
    if (!Revision::legacy().contains(version)) {
        fail(McpError::make(
            McpError::Kind::Protocol,
            QStringLiteral("The server answered initialize with revision \"%1\"; Folio offered "
                           "%2 and speaks %3")
                .arg(version, offered, Revision::all().join(QStringLiteral(", ")))));
        return;
    }
    m_protocolVersion = version;
    m_result = result;
    m_capabilities = result.value(QStringLiteral("capabilities")).toObject();
    m_serverInfo = result.value(QStringLiteral("serverInfo")).toObject();
    m_instructions = result.value(QStringLiteral("instructions")).toString();
    // MCP-Protocol-Version is sent on HTTP from 2025-06-18; earlier servers never read it.
    m_connection->transport()->setProtocolVersion(version >= QLatin1String("2025-06-18") ? version
                                                                                         : QString());
    m_connection->notify(QStringLiteral("notifications/initialized"));
    qCInfo(lcMcp).noquote() << "connected:" << version << "by initialize (offered"
                            << offered + QStringLiteral(")") << "over"
                            << m_connection->transport()->kindName() << "to"
                            << m_serverInfo.value(QStringLiteral("name")).toString()
                            << m_serverInfo.value(QStringLiteral("version")).toString();
    m_done = true;
    Q_EMIT succeeded();
}

void Handshake::fail(const McpError &error)
{
    m_done = true;
    McpError e = error;
    if (e.kind == McpError::Kind::Timeout) {
        e.message =
            QStringLiteral("No answer to the handshake within %1 ms (%2)")
                .arg(QString::number(m_config.requestTimeoutMs), m_sent.join(QStringLiteral(", then ")));
        if (!m_strayLine.isEmpty())
            e.message += QStringLiteral("; the server wrote on stdout a line that is not JSON-RPC: \"%1\" "
                                        "(a stdio server writes only JSON-RPC messages there, its logs "
                                        "go to stderr)")
                             .arg(m_strayLine);
    }
    Q_EMIT failed(e);
}

void Handshake::report(const QString &line)
{
    qCInfo(lcMcp).noquote() << line;
    Q_EMIT diagnostic(line);
}

} // namespace folio
