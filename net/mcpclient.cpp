#include "mcpclient.h"
#include "counted.h"

#include "authorizer.h"

#include "handshake.h"
#include "httpendpoint.h"
#include "httpsupport.h"
#include "invocation.h"
#include "jsonrpcconnection.h"
#include "legacyssetransport.h"
#include "netlogging.h"
#include "replaytransport.h"
#include "rpccall.h"
#include "secretmask.h"
#include "sessionrecording.h"
#include "stdiotransport.h"
#include "streamablehttptransport.h"
#include "trafficlog.h"

#include <QJsonArray>
#include <QSet>

namespace folio {

McpClient::McpClient(QObject *parent)
    : QObject(parent)
    , m_log(new TrafficLog(this))
{
    qRegisterMetaType<McpError>();
}

McpClient::~McpClient()
{
    // The connection, a child, goes after this object: it fails the handshake's requests as it does,
    // and nobody is left to hear the handshake fall back.
    if (m_handshake)
        m_handshake->abandon();
}

void McpClient::setConfig(const ServerConfig &config)
{
    m_config = config;
    if (config.replayFile != m_replayFile) {
        m_replayFile = config.replayFile;
        m_replayError.clear();
        m_replayRecording.reset();
        m_replayClock.reset();
        m_replayScript.reset();
        if (config.isReplay()) {
            if (auto rec = SessionRecording::load(config.replayFile, &m_replayError)) {
                m_replayRecording = std::make_shared<const SessionRecording>(std::move(*rec));
                m_replayClock = std::make_shared<ReplayClock>(m_replayRecording->recordedAtMs,
                                                              m_replayRecording->durationMs);
            } else {
                m_replayError =
                    QStringLiteral("%1 cannot be replayed: %2").arg(config.replayFile, m_replayError);
            }
        }
    }
    // The config's secrets, wherever they come back (a server echoing its token): this client's
    // log, recordings and reports, and the process's own output (SecretMask::known()).
    const QStringList secrets = config.secrets();
    for (const QString &secret : secrets)
        m_log->addSecret(secret);
    SecretMask::remember(secrets);
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
    return Handshake::clientInfo();
}

QJsonObject McpClient::modernMeta() const
{
    // The same on every request: built once (a walk sends thousands).
    if (m_modernMeta.isEmpty())
        m_modernMeta = Handshake::modernMeta(clientCapabilities());
    return m_modernMeta;
}

QJsonObject McpClient::clientCapabilities() const
{
    QJsonObject caps;
    if (!m_responder)
        return caps;
    if (m_responder->answers(InputRequest::Kind::Elicitation))
        caps.insert(QStringLiteral("elicitation"), QJsonObject{{QStringLiteral("form"), QJsonObject()}});
    if (m_responder->answers(InputRequest::Kind::Sampling))
        caps.insert(QStringLiteral("sampling"), QJsonObject());
    if (m_responder->answers(InputRequest::Kind::Roots))
        caps.insert(QStringLiteral("roots"),
                    isModern() ? QJsonObject() : QJsonObject{{QStringLiteral("listChanged"), true}});
    return caps;
}

void McpClient::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    if (state != State::Connecting && m_handshake)
        m_handshake->abandon();
    // A server forgets its subscriptions with the connection; so does the client.
    QStringList dropped;
    if (state != State::Connected) {
        m_listenLists = false;
        m_listenTasks = false;
        m_listenFilter = {};
        dropped = m_subscriptions.keys();
        m_subscriptions.clear();
    }
    Q_EMIT stateChanged(state);
    for (const QString &uri : std::as_const(dropped))
        Q_EMIT resourceSubscriptionChanged(uri);
}

Transport *McpClient::createTransport(ServerConfig::HttpMode mode)
{
    if (m_transportFactory)
        return m_transportFactory(nullptr);
    if (m_replayScript)
        return new ReplayTransport(m_replayScript, m_replayClock);
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
    endpoint.authorizer = m_authorizer;
    if (mode == ServerConfig::HttpMode::LegacySse)
        return new LegacySseTransport(endpoint);
    return new StreamableHttpTransport(endpoint);
}

Authorizer *McpClient::authorizer() const
{
    return m_authorizer;
}

void McpClient::setAuthorizer(Authorizer *authorizer)
{
    if (m_authorizer)
        m_authorizer->disconnect(this);
    m_authorizer = authorizer;
    if (!authorizer)
        return;
    auto hideTokens = [this, authorizer] {
        const OAuthTokens &tokens = authorizer->record().tokens;
        for (const QString &secret : {tokens.accessToken, tokens.refreshToken}) {
            if (!secret.isEmpty()) {
                m_log->addSecret(secret);
                SecretMask::remember(secret);
            }
        }
    };
    hideTokens();
    connect(authorizer, &Authorizer::recordChanged, this, hideTokens);
}

void McpClient::connectToServer()
{
    if (m_state == State::Connecting || m_state == State::Connected)
        return;
    m_lastError = {};
    m_protocolVersion.clear();
    m_serverInfo = {};
    m_capabilities = {};
    m_handshakeResult = {};
    m_instructions.clear();
    qCInfo(lcMcp).noquote() << "connecting to" << m_config.name << "at" << m_config.displayTarget();
    setState(State::Connecting);
    if (m_recorder)
        m_recorder->restart();
    if (m_config.isReplay()) {
        if (!m_replayRecording) {
            fail(McpError::make(McpError::Kind::ConnectionFailed, m_replayError));
            return;
        }
        // Every connect replays from the start.
        m_replayClock->reset();
        m_replayScript = std::make_shared<ReplayScript>(m_replayRecording);
    }
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
    if (m_recorder) // before the connection, so that it hears each message first
        m_recorder->attach(transport);
    qCDebug(lcMcp).noquote() << "opening the" << transport->kindName() << "transport";
    m_connection = new JsonRpcConnection(transport, m_log, this);
    connect(m_connection, &JsonRpcConnection::notificationReceived, this,
            [this](const QString &method, const QJsonObject &params) { handleNotification(method, params); });
    connect(m_connection, &JsonRpcConnection::connectionClosed, this, &McpClient::handleConnectionClosed);
    connect(m_connection, &JsonRpcConnection::protocolWarning, this,
            [this](const McpError &e) { Q_EMIT diagnostic(e.describe()); });
    connect(transport, &Transport::diagnostic, this, &McpClient::diagnostic);
    m_modernMeta = {}; // the capabilities follow the responder set now
    installServerRequestHandlers();
    m_handshake = new Handshake(m_connection, m_config);
    connect(m_handshake, &Handshake::succeeded, this, &McpClient::handleHandshakeSucceeded);
    connect(m_handshake, &Handshake::failed, this, &McpClient::fail);
    connect(m_handshake, &Handshake::streamableHttpRefused, this, [this](const McpError &e) {
        report(QStringLiteral("initialize over Streamable HTTP got %1 — trying HTTP+SSE").arg(e.describe()));
        startConnection(ServerConfig::HttpMode::LegacySse);
    });
    connect(m_handshake, &Handshake::diagnostic, this, &McpClient::diagnostic);
    connect(m_handshake, &Handshake::strayOutput, this, &McpClient::strayOutput);
    // The capabilities are read as the handshake begins: the window sets its responder after a
    // start-up connect was asked for, before the event loop runs.
    connect(transport, &Transport::opened, m_handshake, [this, handshake = m_handshake.data(), mode] {
        handshake->setClientCapabilities(clientCapabilities());
        handshake->start(mode);
    });
    transport->open();
}

void McpClient::handleHandshakeSucceeded()
{
    m_protocolVersion = m_handshake->protocolVersion();
    m_handshakeResult = m_handshake->result();
    m_capabilities = m_handshake->capabilities();
    m_serverInfo = m_handshake->serverInfo();
    m_instructions = m_handshake->instructions();
    // A 2025-era server may ask its questions (elicitation, sampling, roots) on the optional GET
    // stream rather than on a request's own: a client that answers them listens there.
    if (!isModern() && !clientCapabilities().isEmpty() && m_connection)
        m_connection->transport()->openServerStream();
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
        if (m_recorder)
            m_recorder->noteClientClosing();
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
    if (m_recorder)
        m_recorder->noteClientClosing();
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

RpcCall *McpClient::request(const QString &method, const QJsonObject &params, QObject *owner, int timeoutMs,
                            const QList<QPair<QByteArray, QByteArray>> &headers)
{
    if (!m_connection || m_state != State::Connected) {
        return RpcCall::failLater(
            method, params,
            McpError::make(McpError::Kind::Closed, QStringLiteral("Not connected to the server")),
            owner ? owner : this);
    }
    // The 2026 era carries the client's revision and identity on every request.
    const QJsonObject sent = isModern() ? Handshake::withEnvelope(params, modernMeta()) : params;
    return m_connection->request(method, sent, timeoutMs < 0 ? m_config.requestTimeoutMs : timeoutMs, owner,
                                 headers);
}

Invocation *McpClient::invoke(const QString &method, const QJsonObject &params, QObject *owner)
{
    auto *invocation = new Invocation(this, method, params, owner ? owner : this);
    QMetaObject::invokeMethod(invocation, &Invocation::start, Qt::QueuedConnection);
    return invocation;
}

Invocation *McpClient::invokeTool(const QJsonObject &tool, const QJsonObject &arguments, QObject *owner)
{
    const QString name = tool.value(QStringLiteral("name")).toString();
    auto *invocation = new Invocation(
        this, QStringLiteral("tools/call"),
        {{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}}, owner ? owner : this);
    const QString problem = toolHeaderProblem(tool);
    if (!problem.isEmpty()) {
        QMetaObject::invokeMethod(
            invocation,
            [invocation, name, problem] {
                invocation->failNow(
                    McpError::make(McpError::Kind::Protocol,
                                   QStringLiteral("Folio does not call %1: %2").arg(name, problem)));
            },
            Qt::QueuedConnection);
        return invocation;
    }
    if (isModern() && m_config.kind == ServerConfig::Kind::Http)
        invocation->setHeaders(toolParamHeaders(tool, arguments));
    QMetaObject::invokeMethod(invocation, &Invocation::start, Qt::QueuedConnection);
    return invocation;
}

Invocation *McpClient::getPrompt(const QString &name, const QJsonObject &arguments, QObject *owner)
{
    QJsonObject params{{QStringLiteral("name"), name}};
    if (!arguments.isEmpty())
        params.insert(QStringLiteral("arguments"), arguments);
    return invoke(QStringLiteral("prompts/get"), params, owner);
}

Invocation *McpClient::read(const QString &uri, QObject *owner)
{
    return invoke(QStringLiteral("resources/read"), {{QStringLiteral("uri"), uri}}, owner);
}

RpcCall *McpClient::complete(const QJsonObject &ref, const QString &argument, const QString &value,
                             const QJsonObject &contextArguments, QObject *owner)
{
    QJsonObject params{{QStringLiteral("ref"), ref},
                       {QStringLiteral("argument"),
                        QJsonObject{{QStringLiteral("name"), argument}, {QStringLiteral("value"), value}}}};
    if (!contextArguments.isEmpty())
        params.insert(QStringLiteral("context"),
                      QJsonObject{{QStringLiteral("arguments"), contextArguments}});
    return request(QStringLiteral("completion/complete"), params, owner);
}

namespace {

// RFC 9110 token characters: what a header name may hold.
bool isTokenChar(QChar c)
{
    const char16_t u = c.unicode();
    if (u <= 0x20 || u >= 0x7f)
        return false;
    return !QStringLiteral("\"(),/:;<=>?@[\\]{}").contains(c);
}

// The header-marked properties of a tool: property name → header suffix.
QList<QPair<QString, QJsonValue>> headerMarks(const QJsonObject &tool)
{
    QList<QPair<QString, QJsonValue>> marks;
    const QJsonObject properties =
        tool.value(QStringLiteral("inputSchema")).toObject().value(QStringLiteral("properties")).toObject();
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QJsonObject property = it.value().toObject();
        if (property.contains(QStringLiteral("x-mcp-header")))
            marks.append({it.key(), property.value(QStringLiteral("x-mcp-header"))});
    }
    return marks;
}

} // namespace

QString McpClient::toolHeaderProblem(const QJsonObject &tool)
{
    const QJsonObject properties =
        tool.value(QStringLiteral("inputSchema")).toObject().value(QStringLiteral("properties")).toObject();
    QHash<QString, QString> seen; // lower-cased header name → property
    for (const auto &[property, mark] : headerMarks(tool)) {
        if (!mark.isString())
            return QStringLiteral("the x-mcp-header of \"%1\" is not a string").arg(property);
        const QString header = mark.toString();
        if (header.isEmpty())
            return QStringLiteral("the x-mcp-header of \"%1\" is empty").arg(property);
        for (QChar c : header) {
            if (!isTokenChar(c))
                return QStringLiteral("the x-mcp-header \"%1\" of \"%2\" holds a character a header name "
                                      "cannot (only ASCII letters, digits and !#$%&'*+-.^_`|~)")
                    .arg(header, property);
        }
        const QJsonValue type = properties.value(property).toObject().value(QStringLiteral("type"));
        const QString typeName = type.toString();
        if (typeName != QLatin1String("string") && typeName != QLatin1String("integer") &&
            typeName != QLatin1String("boolean"))
            return QStringLiteral("\"%1\" has an x-mcp-header but its type is %2: only string, integer "
                                  "and boolean values can go in a header")
                .arg(property, type.isString() ? typeName : QStringLiteral("not a single primitive type"));
        const QString lower = header.toLower();
        if (seen.contains(lower))
            return QStringLiteral("\"%1\" and \"%2\" both go in the header Mcp-Param-%3 (header names "
                                  "ignore case)")
                .arg(seen.value(lower), property, header);
        seen.insert(lower, property);
    }
    return {};
}

QList<QPair<QByteArray, QByteArray>> McpClient::toolParamHeaders(const QJsonObject &tool,
                                                                 const QJsonObject &arguments)
{
    QList<QPair<QByteArray, QByteArray>> headers;
    if (!toolHeaderProblem(tool).isEmpty())
        return headers;
    for (const auto &[property, mark] : headerMarks(tool)) {
        const QJsonValue value = arguments.value(property);
        QString text;
        if (value.isString())
            text = value.toString();
        else if (value.isBool())
            text = value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        else if (value.isDouble())
            text = QString::number(value.toDouble(), 'g', 17);
        else
            continue; // absent or null: no header
        if (value.isDouble() && value.toDouble() == qint64(value.toDouble()))
            text = QString::number(qint64(value.toDouble()));
        headers.append({"Mcp-Param-" + mark.toString().toLatin1(), encodeHeaderValue(text)});
    }
    return headers;
}

void McpClient::handOver(InputReply *reply)
{
    const QPointer<InputReply> guard(reply);
    report(QStringLiteral("the server asks for ") + reply->request().summary());
    Q_EMIT inputRequested(reply);
    if (!guard || !reply->isOpen())
        return;
    if (m_responder && m_responder->answers(reply->request().kind)) {
        m_responder->respond(reply);
        return;
    }
    reply->refuse(
        McpError::rpc(-32601, QStringLiteral("Folio does not answer %1 here").arg(reply->request().method)));
}

void McpClient::installServerRequestHandlers()
{
    // 2025 era: the server asks in requests of its own. They go through the same responder as the
    // 2026 inputRequests; the reply lives until answered or the connection goes.
    for (const QString &method : {QStringLiteral("elicitation/create"),
                                  QStringLiteral("sampling/createMessage"), QStringLiteral("roots/list")}) {
        m_connection->setAsyncRequestHandler(
            method, [this, method, conn = QPointer<JsonRpcConnection>(m_connection)](
                        const QJsonObject &params, JsonRpcConnection::Reply done) {
                InputRequest request;
                request.kind = *InputRequest::kindOf(method);
                request.method = method;
                request.params = params;
                auto *reply = new InputReply(request, conn ? static_cast<QObject *>(conn) : this);
                connect(reply, &InputReply::replied, reply,
                        [reply, done](const QJsonObject &result, const McpError &error) {
                            done(result, error);
                            reply->deleteLater();
                        });
                if (conn)
                    connect(conn, &QObject::destroyed, reply, &InputReply::withdraw);
                handOver(reply);
            });
    }
}

void McpClient::registerProgress(const QString &token, Invocation *invocation)
{
    m_progress.insert(token, invocation);
}

void McpClient::notifyRootsChanged()
{
    if (m_connection && m_state == State::Connected && !isModern() &&
        clientCapabilities().contains(QStringLiteral("roots")))
        m_connection->notify(QStringLiteral("notifications/roots/list_changed"));
}

RpcCall *McpClient::listPage(ListKind kind, const std::optional<QString> &cursor, QObject *owner)
{
    return listPage(listMethod(kind), cursor, owner);
}

RpcCall *McpClient::listPage(const QString &method, const std::optional<QString> &cursor, QObject *owner,
                             const QJsonObject &base)
{
    QJsonObject params = base;
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
    m_listenLists = true;
    updateListen();
}

void McpClient::updateListen()
{
    if (m_state != State::Connected || !m_connection || !isModern())
        return;
    QJsonObject wanted;
    if (m_listenLists) {
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
    }
    if (m_listenTasks)
        wanted[QStringLiteral("taskStatus")] = true;
    QStringList uris;
    for (auto it = m_subscriptions.cbegin(); it != m_subscriptions.cend(); ++it) {
        if (it->state == ResourceSubscription::State::Pending ||
            it->state == ResourceSubscription::State::Active)
            uris << it.key();
    }
    if (!uris.isEmpty()) {
        uris.sort();
        wanted[QStringLiteral("resourceSubscriptions")] = QJsonArray::fromStringList(uris);
    }
    if (m_listen && wanted == m_listenFilter)
        return;
    // One stream carries everything asked for: a new set is a new stream (updates sent between
    // the two are missed; the reads' TTLs still run).
    if (RpcCall *old = m_listen.data()) {
        m_listen = nullptr;
        old->cancel();
    }
    m_listenFilter = wanted;
    if (wanted.isEmpty())
        return;
    m_listen =
        request(QStringLiteral("subscriptions/listen"), {{QStringLiteral("notifications"), wanted}}, this, 0);
    connect(m_listen, &RpcCall::finished, this, [this, call = m_listen.data()] {
        call->deleteLater();
        if (m_listen != call || (call->isError() && call->error().kind == McpError::Kind::Cancelled))
            return; // replaced by another stream, or ended by this client
        // The server ended it: with an error, or gracefully (a {resultType: "complete"} answer).
        const QString how = call->isError() ? call->error().describe() : tr("the server closed it");
        report(QStringLiteral("subscriptions/listen ended: ") + how);
        m_listen = nullptr;
        m_listenFilter = {};
        const QString why = tr("the subscriptions/listen stream ended: %1").arg(how);
        for (const QString &uri : m_subscriptions.keys()) {
            const ResourceSubscription::State state = m_subscriptions.value(uri).state;
            if (state == ResourceSubscription::State::Pending || state == ResourceSubscription::State::Active)
                setSubscription(uri, ResourceSubscription::State::Refused, why);
        }
    });
}

void McpClient::handleAcknowledged(const QJsonObject &params)
{
    const QJsonValue id = params.value(QStringLiteral("_meta"))
                              .toObject()
                              .value(QStringLiteral("io.modelcontextprotocol/subscriptionId"));
    if (!m_listen || id != m_listen->id())
        return; // an earlier stream's, or another client's on a shared stdio channel
    QSet<QString> granted;
    const QJsonArray list = params.value(QStringLiteral("notifications"))
                                .toObject()
                                .value(QStringLiteral("resourceSubscriptions"))
                                .toArray();
    for (const QJsonValue &v : list)
        granted.insert(v.toString());
    for (const QJsonValue &v : m_listenFilter.value(QStringLiteral("resourceSubscriptions")).toArray()) {
        const QString uri = v.toString();
        if (m_subscriptions.value(uri).state != ResourceSubscription::State::Pending)
            continue;
        if (granted.contains(uri))
            setSubscription(uri, ResourceSubscription::State::Active);
        else
            setSubscription(uri, ResourceSubscription::State::Refused,
                            tr("the server's acknowledgement of subscriptions/listen left it out"));
    }
}

bool McpClient::offersSubscriptions() const
{
    return m_capabilities.value(QStringLiteral("resources"))
        .toObject()
        .value(QStringLiteral("subscribe"))
        .toBool();
}

void McpClient::setSubscription(const QString &uri, ResourceSubscription::State state, const QString &detail)
{
    ResourceSubscription next{state, detail};
    if (state == ResourceSubscription::State::None) {
        if (!m_subscriptions.remove(uri))
            return;
    } else {
        if (m_subscriptions.contains(uri) && m_subscriptions.value(uri) == next)
            return;
        m_subscriptions.insert(uri, next);
    }
    Q_EMIT resourceSubscriptionChanged(uri);
}

void McpClient::subscribeResource(const QString &uri)
{
    if (m_state != State::Connected || !m_connection)
        return;
    const ResourceSubscription::State now = m_subscriptions.value(uri).state;
    if (now == ResourceSubscription::State::Pending || now == ResourceSubscription::State::Active)
        return;
    if (!offersSubscriptions()) {
        setSubscription(uri, ResourceSubscription::State::NotOffered,
                        tr("the server does not offer subscriptions (no resources.subscribe)"));
        return;
    }
    setSubscription(uri, ResourceSubscription::State::Pending);
    if (isModern()) {
        updateListen();
        return;
    }
    // 2025 era: the updates come where the other notifications do (the GET stream over HTTP).
    m_connection->transport()->openServerStream();
    RpcCall *call = request(QStringLiteral("resources/subscribe"), {{QStringLiteral("uri"), uri}}, this);
    connect(call, &RpcCall::finished, this, [this, call, uri] {
        call->deleteLater();
        if (m_subscriptions.value(uri).state != ResourceSubscription::State::Pending)
            return; // unsubscribed (or disconnected) meanwhile
        if (call->isError())
            setSubscription(uri, ResourceSubscription::State::Refused,
                            tr("resources/subscribe failed: %1").arg(call->error().describe()));
        else
            setSubscription(uri, ResourceSubscription::State::Active);
    });
}

void McpClient::unsubscribeResource(const QString &uri)
{
    const ResourceSubscription::State was = m_subscriptions.value(uri).state;
    setSubscription(uri, ResourceSubscription::State::None);
    if (m_state != State::Connected || !m_connection)
        return;
    if (isModern()) {
        updateListen();
        return;
    }
    if (was != ResourceSubscription::State::Pending && was != ResourceSubscription::State::Active)
        return;
    RpcCall *call = request(QStringLiteral("resources/unsubscribe"), {{QStringLiteral("uri"), uri}}, this);
    connect(call, &RpcCall::finished, this, [this, call, uri] {
        call->deleteLater();
        if (call->isError())
            report(QStringLiteral("resources/unsubscribe %1 failed: %2").arg(uri, call->error().describe()));
    });
}

const QString McpClient::TasksExtension = QStringLiteral("io.modelcontextprotocol/tasks");

bool McpClient::offersTasks() const
{
    if (isModern())
        return m_capabilities.value(QStringLiteral("extensions")).toObject().contains(TasksExtension);
    return m_capabilities.value(QStringLiteral("tasks"))
        .toObject()
        .value(QStringLiteral("requests"))
        .toObject()
        .value(QStringLiteral("tools"))
        .toObject()
        .contains(QStringLiteral("call"));
}

bool McpClient::offersTaskList() const
{
    return !isModern() &&
           m_capabilities.value(QStringLiteral("tasks")).toObject().contains(QStringLiteral("list"));
}

QString McpClient::toolTaskSupport(const QJsonObject &tool)
{
    const QString support =
        tool.value(QStringLiteral("execution")).toObject().value(QStringLiteral("taskSupport")).toString();
    return support == QLatin1String("optional") || support == QLatin1String("required")
               ? support
               : QStringLiteral("forbidden");
}

QJsonObject McpClient::withTasksDeclared(const QJsonObject &params) const
{
    if (!isModern())
        return params;
    QJsonObject caps = clientCapabilities();
    QJsonObject extensions = caps.value(QStringLiteral("extensions")).toObject();
    extensions.insert(TasksExtension, QJsonObject());
    caps.insert(QStringLiteral("extensions"), extensions);
    QJsonObject meta = params.value(QStringLiteral("_meta")).toObject();
    // withEnvelope() keeps what a request's own _meta already says.
    meta.insert(QStringLiteral("io.modelcontextprotocol/clientCapabilities"), caps);
    QJsonObject p = params;
    p.insert(QStringLiteral("_meta"), meta);
    return p;
}

Invocation *McpClient::invokeToolAsTask(const QJsonObject &tool, const QJsonObject &arguments, qint64 ttlMs,
                                        QObject *owner)
{
    Invocation *invocation = invokeTool(tool, arguments, owner);
    QJsonObject params = invocation->m_params;
    if (isModern()) {
        params = withTasksDeclared(params);
    } else {
        QJsonObject task;
        if (ttlMs >= 0)
            task.insert(QStringLiteral("ttl"), double(ttlMs));
        params.insert(QStringLiteral("task"), task);
    }
    invocation->m_params = params; // start() is queued: nothing was sent yet
    return invocation;
}

RpcCall *McpClient::taskRequest(const QString &method, const QString &taskId, QObject *owner, int timeoutMs)
{
    return request(method, withTasksDeclared({{QStringLiteral("taskId"), taskId}}), owner, timeoutMs);
}

RpcCall *McpClient::getTask(const QString &taskId, QObject *owner)
{
    return taskRequest(QStringLiteral("tasks/get"), taskId, owner);
}

RpcCall *McpClient::taskResult(const QString &taskId, QObject *owner)
{
    return taskRequest(QStringLiteral("tasks/result"), taskId, owner, 0);
}

RpcCall *McpClient::cancelTask(const QString &taskId, QObject *owner)
{
    return taskRequest(QStringLiteral("tasks/cancel"), taskId, owner);
}

RpcCall *McpClient::updateTask(const QString &taskId, const QJsonObject &inputResponses, QObject *owner)
{
    return request(QStringLiteral("tasks/update"),
                   withTasksDeclared({{QStringLiteral("taskId"), taskId},
                                      {QStringLiteral("inputResponses"), inputResponses}}),
                   owner);
}

void McpClient::followTaskStatus()
{
    if (m_state != State::Connected || !m_connection || !offersTasks())
        return;
    if (!isModern()) {
        m_connection->transport()->openServerStream();
        return;
    }
    m_listenTasks = true;
    updateListen();
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
    } else if (method == QLatin1String("notifications/subscriptions/acknowledged")) {
        handleAcknowledged(params);
    } else if (method == QLatin1String("notifications/tasks/status") ||
               method == QLatin1String("notifications/tasks")) {
        QJsonObject task = params;
        task.remove(QStringLiteral("_meta"));
        Q_EMIT taskStatusReceived(task);
    } else if (method == QLatin1String("notifications/resources/updated")) {
        Q_EMIT resourceUpdated(params.value(QStringLiteral("uri")).toString());
    } else if (method == QLatin1String("notifications/progress")) {
        const QJsonValue token = params.value(QStringLiteral("progressToken"));
        const QString key = token.isString() ? token.toString() : QString();
        if (const QPointer<Invocation> invocation = m_progress.value(key))
            invocation->handleProgress(params);
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

void McpClient::setRecording(bool on)
{
    if (on == isRecording())
        return;
    if (on) {
        m_recorder = new SessionRecorder(this);
    } else {
        delete m_recorder;
        m_recorder = nullptr;
    }
}

SessionRecording McpClient::recording() const
{
    SessionRecording rec;
    rec.name = m_config.name;
    rec.kind = m_config.kind == ServerConfig::Kind::Http ? QStringLiteral("http") : QStringLiteral("stdio");
    rec.target = m_config.displayTarget();
    rec.demoScenario = SessionRecording::demoScenarioOf(m_config);
    rec.revision = m_protocolVersion;
    rec.transport = transportName();
    // What the server said of itself is masked as its messages are: a server that echoes its
    // token in serverInfo or instructions must not keep it in the header.
    rec.serverInfo = SecretMask::maskMessage(QJsonValue(m_serverInfo), m_log->secrets()).toObject();
    rec.capabilities = SecretMask::maskMessage(QJsonValue(m_capabilities), m_log->secrets()).toObject();
    rec.instructions = SecretMask::maskMessage(QJsonValue(m_instructions), m_log->secrets()).toString();
    const bool maskedDescription = rec.serverInfo != m_serverInfo || rec.capabilities != m_capabilities ||
                                   rec.instructions != m_instructions;
    rec.folioVersion = clientInfo().value(QStringLiteral("version")).toString();
    if (!m_recorder)
        return rec;
    rec.recordedAtMs = m_recorder->startedAtMs();
    rec.durationMs = m_recorder->elapsedMs();
    rec.cut = m_recorder->isCut();
    int maskedMessages = 0;
    rec.events = m_recorder->events();
    for (SessionRecording::Event &e : rec.events) {
        if (e.text.isEmpty() || e.type == SessionRecording::Event::Type::Start)
            continue;
        const QByteArray clean = m_log->redact(e.text);
        if (clean != e.text) {
            e.text = clean;
            ++maskedMessages;
        }
    }
    if (m_config.kind == ServerConfig::Kind::Http)
        rec.stripped << QStringLiteral("HTTP headers: only the messages are recorded (no Authorization, "
                                       "cookies or session ids)");
    if (!m_config.bearerToken.isEmpty() || m_config.tokenInKeychain)
        rec.stripped << QStringLiteral("the bearer token");
    if (!m_config.environment.isEmpty())
        rec.stripped << QStringLiteral("the values of the environment variables set for the server (%1)")
                            .arg(m_config.environment.size());
    if (m_config.targetHasSecrets())
        rec.stripped << QStringLiteral("secret-looking parts of the command line or URL");
    if (maskedDescription)
        rec.stripped << QStringLiteral("secret-looking values in the server's description (serverInfo, "
                                       "capabilities, instructions)");
    if (maskedMessages > 0)
        rec.stripped << QStringLiteral("secret-looking values in %1")
                            .arg(counted(maskedMessages, "message", "messages"));
    return rec;
}

} // namespace folio
