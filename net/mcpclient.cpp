#include "mcpclient.h"

#include "httpendpoint.h"
#include "legacyssetransport.h"
#include "jsonrpcconnection.h"
#include "netlogging.h"
#include "rpccall.h"
#include "stdiotransport.h"
#include "streamablehttptransport.h"
#include "trafficlog.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

namespace folio {

namespace {
constexpr int discoverProbeTimeoutMs = 5000;
const QString metaVersion = QStringLiteral("io.modelcontextprotocol/protocolVersion");
const QString metaCapabilities = QStringLiteral("io.modelcontextprotocol/clientCapabilities");
const QString metaClientInfo = QStringLiteral("io.modelcontextprotocol/clientInfo");
const QString metaServerInfo = QStringLiteral("io.modelcontextprotocol/serverInfo");
} // namespace

McpClient::McpClient(QObject *parent)
    : QObject(parent)
    , m_log(new TrafficLog(this))
{
    qRegisterMetaType<McpError>();
}

McpClient::~McpClient() = default;

void McpClient::setConfig(const ServerConfig &config)
{
    m_config = config;
    if (!config.bearerToken.isEmpty())
        m_log->addSecret(config.bearerToken);
    for (const auto &[name, value] : config.headers) {
        const QByteArray lower = name.toLower();
        if (lower.contains("auth") || lower.contains("key") || lower.contains("token") ||
            lower.contains("secret"))
            m_log->addSecret(QString::fromUtf8(value));
    }
}

void McpClient::setTransportFactory(std::function<Transport *(QObject *)> factory)
{
    m_transportFactory = std::move(factory);
}

JsonRpcConnection *McpClient::connection() const
{
    return m_connection;
}

QString McpClient::transportName() const
{
    return m_connection ? m_connection->transport()->kindName() : QString();
}

QJsonObject McpClient::clientInfo()
{
    const QString version = QCoreApplication::applicationVersion();
    return {{QStringLiteral("name"), QStringLiteral("folio")},
            {QStringLiteral("title"), QStringLiteral("Folio")},
            {QStringLiteral("version"), version.isEmpty() ? QStringLiteral("0.1.0") : version}};
}

QJsonObject McpClient::modernMeta() const
{
    // The same on every request: built once (a walk sends thousands).
    if (m_modernMeta.isEmpty())
        m_modernMeta = {{metaVersion, QString::fromLatin1(Revision::Modern)},
                        {metaCapabilities, QJsonObject()},
                        {metaClientInfo, clientInfo()}};
    return m_modernMeta;
}

void McpClient::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

Transport *McpClient::createTransport(ServerConfig::HttpMode mode)
{
    if (m_transportFactory)
        return m_transportFactory(nullptr);
    if (m_config.kind == ServerConfig::Kind::Stdio) {
        auto *t = new StdioTransport;
        t->setProgram(m_config.command, m_config.arguments);
        t->setEnvironment(m_config.environment);
        t->setWorkingDirectory(m_config.workingDirectory);
        return t;
    }
    HttpEndpoint endpoint;
    endpoint.url = m_config.url;
    endpoint.headers = m_config.headers;
    endpoint.bearerToken = m_config.bearerToken;
    if (mode == ServerConfig::HttpMode::LegacySse)
        return new LegacySseTransport(endpoint);
    return new StreamableHttpTransport(endpoint);
}

void McpClient::connectToServer()
{
    if (m_state == State::Connecting || m_state == State::Connected)
        return;
    m_triedSseFallback = false;
    m_retriedDiscover = false;
    m_lastError = {};
    m_protocolVersion.clear();
    m_serverInfo = {};
    m_capabilities = {};
    m_handshakeResult = {};
    m_instructions.clear();
    qCInfo(lcMcp).noquote() << "connecting to" << m_config.name << "at" << m_config.displayTarget();
    setState(State::Connecting);
    startConnection(m_config.kind == ServerConfig::Kind::Http ? m_config.httpMode
                                                              : ServerConfig::HttpMode::Auto);
}

void McpClient::startConnection(ServerConfig::HttpMode mode)
{
    if (m_connection) {
        m_connection->disconnect(this);
        m_connection->deleteLater();
    }
    Transport *transport = createTransport(mode);
    transport->setMaxMessageBytes(m_config.maxMessageBytes);
    qCDebug(lcMcp).noquote() << "opening the" << transport->kindName() << "transport";
    m_connection = new JsonRpcConnection(transport, m_log, this);
    connect(m_connection, &JsonRpcConnection::notificationReceived, this,
            [this](const QString &method, const QJsonObject &params) { handleNotification(method, params); });
    connect(m_connection, &JsonRpcConnection::connectionClosed, this, &McpClient::handleConnectionClosed);
    connect(m_connection, &JsonRpcConnection::protocolWarning, this,
            [this](const McpError &e) { Q_EMIT diagnostic(e.describe()); });
    connect(transport, &Transport::diagnostic, this, &McpClient::diagnostic);
    connect(transport, &Transport::opened, this, [this, mode] {
        const QString pinned = m_config.pinnedRevision;
        if (mode == ServerConfig::HttpMode::LegacySse)
            sendInitialize(pinned.isEmpty() ? Revision::legacy().constFirst() : pinned);
        else if (pinned.isEmpty() || Revision::isModern(pinned))
            probeDiscover();
        else
            sendInitialize(pinned);
    });
    transport->open();
}

void McpClient::probeDiscover()
{
    m_connection->transport()->setProtocolVersion(QString::fromLatin1(Revision::Modern));
    const int timeout = qMin(m_config.requestTimeoutMs, discoverProbeTimeoutMs);
    qCDebug(lcMcp) << "handshake: server/discover for" << Revision::Modern << "within" << timeout << "ms";
    RpcCall *call = m_connection->request(QStringLiteral("server/discover"),
                                          {{QStringLiteral("_meta"), modernMeta()}}, timeout, this);
    connect(call, &RpcCall::finished, this, [this, call] {
        call->deleteLater();
        handleDiscover(call);
    });
}

void McpClient::handleDiscover(RpcCall *call)
{
    if (m_state != State::Connecting)
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
        m_handshakeResult = result;
        m_capabilities = result.value(QStringLiteral("capabilities")).toObject();
        m_serverInfo = result.value(QStringLiteral("_meta")).toObject().value(metaServerInfo).toObject();
        m_instructions = result.value(QStringLiteral("instructions")).toString();
        qCInfo(lcMcp).noquote() << "connected:" << m_protocolVersion << "by server/discover over"
                                << m_connection->transport()->kindName() << "to"
                                << m_serverInfo.value(QStringLiteral("name")).toString()
                                << m_serverInfo.value(QStringLiteral("version")).toString();
        setState(State::Connected);
        Q_EMIT connected();
        return;
    }
    const McpError e = call->error();
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

void McpClient::sendInitialize(const QString &revision)
{
    m_connection->transport()->setProtocolVersion(QString());
    qCDebug(lcMcp).noquote() << "handshake: initialize offering" << revision;
    const QJsonObject params{{QStringLiteral("protocolVersion"), revision},
                             {QStringLiteral("capabilities"), QJsonObject()},
                             {QStringLiteral("clientInfo"), clientInfo()}};
    RpcCall *call =
        m_connection->request(QStringLiteral("initialize"), params, m_config.requestTimeoutMs, this);
    connect(call, &RpcCall::finished, this, [this, call, revision] {
        call->deleteLater();
        handleInitialize(call, revision);
    });
}

void McpClient::handleInitialize(RpcCall *call, const QString &offered)
{
    if (m_state != State::Connecting)
        return;
    if (call->isError()) {
        const McpError e = call->error();
        const bool httpRefused = e.kind == McpError::Kind::HttpStatus &&
                                 (e.httpStatus == 400 || e.httpStatus == 404 || e.httpStatus == 405);
        if (httpRefused && m_config.kind == ServerConfig::Kind::Http &&
            m_config.httpMode == ServerConfig::HttpMode::Auto && !m_triedSseFallback) {
            // A pre-2025 server: the spec's fallback is the HTTP+SSE transport.
            m_triedSseFallback = true;
            report(
                QStringLiteral("initialize over Streamable HTTP got %1 — trying HTTP+SSE").arg(e.describe()));
            startConnection(ServerConfig::HttpMode::LegacySse);
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
    m_handshakeResult = result;
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
    setState(State::Connected);
    Q_EMIT connected();
}

void McpClient::fail(const McpError &error)
{
    qCInfo(lcMcp).noquote() << "failed:" << error.describe();
    m_lastError = error;
    if (m_connection) {
        // Let the transport finish its shutdown (an HTTP session's DELETE, SIGTERM/SIGKILL for a
        // process) before the connection goes, as disconnectFromServer() does.
        JsonRpcConnection *conn = m_connection;
        m_connection = nullptr;
        conn->disconnect(this);
        if (conn->transport()->isOpen()) {
            connect(conn->transport(), &Transport::closed, conn, &QObject::deleteLater);
            conn->transport()->close();
        } else {
            conn->deleteLater();
        }
    }
    setState(State::Failed);
    Q_EMIT disconnected(error);
}

void McpClient::disconnectFromServer()
{
    if (!m_connection) {
        setState(State::Disconnected);
        return;
    }
    qCDebug(lcMcp) << "disconnecting";
    if (m_listen)
        m_listen->cancel();
    JsonRpcConnection *conn = m_connection;
    m_connection = nullptr;
    conn->disconnect(this);
    // The transport finishes its shutdown (stdin close, SIGTERM, SIGKILL) before it goes.
    connect(conn->transport(), &Transport::closed, conn, &QObject::deleteLater);
    conn->transport()->close();
    setState(State::Disconnected);
    Q_EMIT disconnected({});
}

void McpClient::handleConnectionClosed(const McpError &error)
{
    qCInfo(lcMcp).noquote() << "the connection closed" << (error.isError() ? error.describe() : QString());
    if (m_state == State::Connecting) {
        fail(error.isError() ? error
                             : McpError::make(McpError::Kind::Closed,
                                              QStringLiteral("The connection closed during the handshake")));
        return;
    }
    m_lastError = error;
    if (m_connection) {
        m_connection->deleteLater();
        m_connection = nullptr;
    }
    setState(error.isError() ? State::Failed : State::Disconnected);
    Q_EMIT disconnected(error);
}

QJsonObject McpClient::withEnvelope(const QJsonObject &params) const
{
    if (!isModern())
        return params;
    QJsonObject p = params;
    if (!p.contains(QStringLiteral("_meta"))) {
        p.insert(QStringLiteral("_meta"), modernMeta());
        return p;
    }
    QJsonObject meta = p.value(QStringLiteral("_meta")).toObject();
    const QJsonObject envelope = modernMeta();
    for (auto it = envelope.begin(); it != envelope.end(); ++it) {
        if (!meta.contains(it.key()))
            meta.insert(it.key(), it.value());
    }
    p[QStringLiteral("_meta")] = meta;
    return p;
}

RpcCall *McpClient::request(const QString &method, const QJsonObject &params, QObject *owner, int timeoutMs)
{
    if (!m_connection || m_state != State::Connected) {
        auto *call = new RpcCall(QJsonValue(), method, params, owner ? owner : this);
        QMetaObject::invokeMethod(
            call,
            [call] {
                call->finishWithError(
                    McpError::make(McpError::Kind::Closed, QStringLiteral("Not connected to the server")));
            },
            Qt::QueuedConnection);
        return call;
    }
    return m_connection->request(method, withEnvelope(params),
                                 timeoutMs < 0 ? m_config.requestTimeoutMs : timeoutMs, owner);
}

RpcCall *McpClient::listPage(ListKind kind, const std::optional<QString> &cursor, QObject *owner)
{
    return listPage(listMethod(kind), cursor, owner);
}

RpcCall *McpClient::listPage(const QString &method, const std::optional<QString> &cursor, QObject *owner)
{
    QJsonObject params;
    if (cursor.has_value())
        params[QStringLiteral("cursor")] = *cursor; // "" is a cursor, sent as such
    return request(method, params, owner);
}

RpcCall *McpClient::callTool(const QString &name, const QJsonObject &arguments, QObject *owner)
{
    return request(QStringLiteral("tools/call"),
                   {{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}}, owner);
}

RpcCall *McpClient::readResource(const QString &uri, QObject *owner)
{
    return request(QStringLiteral("resources/read"), {{QStringLiteral("uri"), uri}}, owner);
}

void McpClient::listenForListChanges()
{
    if (m_state != State::Connected || !m_connection)
        return;
    if (!isModern()) {
        // 2025 era: notifications arrive on stdout, the SSE stream or the optional GET stream.
        m_connection->transport()->openServerStream();
        return;
    }
    if (m_listen)
        return;
    QJsonObject wanted;
    auto advertised = [this](const char *cap) {
        return m_capabilities.value(QLatin1String(cap))
            .toObject()
            .value(QStringLiteral("listChanged"))
            .toBool();
    };
    if (advertised("tools"))
        wanted[QStringLiteral("toolsListChanged")] = true;
    if (advertised("prompts"))
        wanted[QStringLiteral("promptsListChanged")] = true;
    if (advertised("resources"))
        wanted[QStringLiteral("resourcesListChanged")] = true;
    if (wanted.isEmpty())
        return;
    m_listen =
        request(QStringLiteral("subscriptions/listen"), {{QStringLiteral("notifications"), wanted}}, this, 0);
    connect(m_listen, &RpcCall::finished, this, [this, call = m_listen.data()] {
        call->deleteLater();
        if (call->isError() && call->error().kind != McpError::Kind::Cancelled)
            report(QStringLiteral("subscriptions/listen ended: ") + call->error().describe());
    });
}

void McpClient::handleNotification(const QString &method, const QJsonObject &params)
{
    if (method == QLatin1String("notifications/tools/list_changed")) {
        Q_EMIT listChanged(ListKind::Tools);
    } else if (method == QLatin1String("notifications/prompts/list_changed")) {
        Q_EMIT listChanged(ListKind::Prompts);
    } else if (method == QLatin1String("notifications/resources/list_changed")) {
        // It covers both resources/list and resources/templates/list.
        Q_EMIT listChanged(ListKind::Resources);
        Q_EMIT listChanged(ListKind::ResourceTemplates);
    } else if (method == QLatin1String("notifications/resources/updated")) {
        Q_EMIT resourceUpdated(params.value(QStringLiteral("uri")).toString());
    } else if (method == QLatin1String("notifications/message")) {
        const QString line =
            QStringLiteral("server log: ") + params.value(QStringLiteral("data")).toVariant().toString();
        qCDebug(lcMcp).noquote() << line; // the server's own words: debug, like its stderr
        Q_EMIT diagnostic(line);
    }
}

void McpClient::report(const QString &line)
{
    qCInfo(lcMcp).noquote() << line;
    Q_EMIT diagnostic(line);
}

} // namespace folio
