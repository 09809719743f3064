#include "legacyera.h"

#include "demoserver.h"

#include <QUuid>

namespace demo {

LegacyEra::LegacyEra(DemoServer &server)
    : m_server(server)
{}

QStringList LegacyEra::versions()
{
    return {QStringLiteral("2024-11-05"), QStringLiteral("2025-03-26"), QStringLiteral("2025-06-18"),
            QStringLiteral("2025-11-25")};
}

void LegacyEra::handle(const QJsonValue &id, const QString &method, const QJsonObject &params,
                       DemoExchange *exchange, const HeaderMap &headers)
{
    if (method == QStringLiteral("server/discover")) {
        // A legacy server does not know the modern probe; on HTTP say so with a 400 (see
        // mcp-protocol.md §1) so that a dual-era client falls back to initialize.
        m_server.sendError(exchange, id, DemoServer::MethodNotFound,
                           QStringLiteral("Method not found: server/discover"), 400);
        return;
    }
    if (method == QStringLiteral("initialize")) {
        initialize(id, params, exchange);
        return;
    }
    if (exchange->isHttp() && !checkSession(id, exchange, headers))
        return;
    if (method == QStringLiteral("ping") || method == QStringLiteral("logging/setLevel")) {
        m_server.sendResult(exchange, id, {}, false);
        return;
    }
    if (method == QStringLiteral("resources/subscribe") ||
        method == QStringLiteral("resources/unsubscribe")) {
        subscribe(id, method, params, exchange, headers);
        return;
    }
    m_server.dispatch(id, method, params, false, exchange, {});
}

void LegacyEra::initialize(const QJsonValue &id, const QJsonObject &params, DemoExchange *exchange)
{
    const QJsonValue requested = params.value(QStringLiteral("protocolVersion"));
    if (!requested.isString()) {
        m_server.sendError(exchange, id, DemoServer::InvalidParams,
                           QStringLiteral("Invalid params: protocolVersion must be a string"), 400);
        return;
    }
    // An unknown version gets the newest one we speak; the client decides whether it can.
    const QString version =
        versions().contains(requested.toString()) ? requested.toString() : versions().constLast();
    if (exchange->isHttp()) {
        const QString sessionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
        m_sessions.insert(sessionId, Session{version, {}, {}});
        exchange->setHeader("Mcp-Session-Id", sessionId.toLatin1());
    } else {
        m_stdioInitialized = true;
    }
    QJsonObject capabilities = DemoServer::capabilities();
    if (version == QStringLiteral("2025-11-25")) {
        // The core tasks of 2025-11-25: task-augmented tools/call, tasks/get, result, list, cancel.
        capabilities.insert(
            QStringLiteral("tasks"),
            QJsonObject{{QStringLiteral("list"), QJsonObject{}},
                        {QStringLiteral("cancel"), QJsonObject{}},
                        {QStringLiteral("requests"),
                         QJsonObject{{QStringLiteral("tools"),
                                      QJsonObject{{QStringLiteral("call"), QJsonObject{}}}}}}});
    }
    m_server.sendResult(exchange, id,
                        QJsonObject{{QStringLiteral("protocolVersion"), version},
                                    {QStringLiteral("capabilities"), capabilities},
                                    {QStringLiteral("serverInfo"), DemoServer::serverInfo()},
                                    {QStringLiteral("instructions"), m_server.instructions()}},
                        false);
}

bool LegacyEra::checkSession(const QJsonValue &id, DemoExchange *exchange, const HeaderMap &headers)
{
    const QByteArray headerVersion = headers.value("mcp-protocol-version");
    if (!headerVersion.isEmpty() && !versions().contains(QString::fromLatin1(headerVersion))) {
        m_server.sendError(exchange, id, -32000,
                           QStringLiteral("Bad Request: unsupported MCP-Protocol-Version"), 400);
        return false;
    }
    const QString sessionId = QString::fromLatin1(headers.value("mcp-session-id"));
    if (sessionId.isEmpty()) {
        m_server.sendError(
            exchange, id, -32000,
            QStringLiteral("Bad Request: send initialize first, then the Mcp-Session-Id it returned"), 400);
        return false;
    }
    if (!m_sessions.contains(sessionId)) {
        m_server.sendError(exchange, id, -32001, QStringLiteral("Session not found"), 404);
        return false;
    }
    return true;
}

void LegacyEra::subscribe(const QJsonValue &id, const QString &method, const QJsonObject &params,
                          DemoExchange *exchange, const HeaderMap &headers)
{
    const QJsonValue uriValue = params.value(QStringLiteral("uri"));
    if (!uriValue.isString()) {
        m_server.sendError(exchange, id, DemoServer::InvalidParams,
                           QStringLiteral("Invalid params: %1 needs a string uri").arg(method), 200);
        return;
    }
    const QString uri = uriValue.toString();
    // checkSession() let an HTTP request through, so its session exists.
    QSet<QString> &subscriptions =
        exchange->isHttp() ? m_sessions[QString::fromLatin1(headers.value("mcp-session-id"))].subscriptions
                           : m_stdioSubscriptions;
    if (method == QStringLiteral("resources/unsubscribe")) {
        subscriptions.remove(uri); // idempotent: a URI never subscribed is fine too
    } else {
        if (!m_server.readResource(uri, false)) {
            m_server.sendResourceNotFound(exchange, id, uri, false);
            return;
        }
        subscriptions.insert(uri);
    }
    m_server.sendResult(exchange, id, {}, false);
}

void LegacyEra::openStream(DemoExchange *exchange, const HeaderMap &headers)
{
    const QString sessionId = QString::fromLatin1(headers.value("mcp-session-id"));
    if (sessionId.isEmpty()) {
        exchange->refuse(400, "Send initialize first, then GET with its Mcp-Session-Id.\n");
    } else if (!m_sessions.contains(sessionId)) {
        exchange->refuse(404, "Session not found.\n");
    } else {
        m_sessions[sessionId].stream = exchange;
        exchange->startStream();
    }
}

void LegacyEra::endSession(DemoExchange *exchange, const HeaderMap &headers)
{
    const QString sessionId = QString::fromLatin1(headers.value("mcp-session-id"));
    if (sessionId.isEmpty()) {
        exchange->refuse(405, "No session to end.\n");
    } else if (!m_sessions.contains(sessionId)) {
        exchange->refuse(404, "Session not found.\n");
    } else {
        const QPointer<DemoExchange> stream = m_sessions.take(sessionId).stream;
        if (stream)
            stream->reply({}, 200);
        exchange->refuse(200, "");
    }
}

void LegacyEra::notifyListChanged(const QString &method)
{
    const QJsonObject notification{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                   {QStringLiteral("method"), method}};
    if (m_stdioInitialized && m_stdioStream)
        m_stdioStream->push(notification);
    for (const Session &session : std::as_const(m_sessions)) {
        if (session.stream)
            session.stream->push(notification);
    }
}

void LegacyEra::notifyTaskStatus(const QJsonObject &task)
{
    const QJsonObject notification{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                   {QStringLiteral("method"), QStringLiteral("notifications/tasks/status")},
                                   {QStringLiteral("params"), task}};
    if (m_stdioInitialized && m_stdioStream)
        m_stdioStream->push(notification);
    for (const Session &session : std::as_const(m_sessions)) {
        if (session.stream)
            session.stream->push(notification);
    }
}

void LegacyEra::notifyResourceUpdated(const QString &uri)
{
    const QJsonObject notification{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("method"), QStringLiteral("notifications/resources/updated")},
        {QStringLiteral("params"), QJsonObject{{QStringLiteral("uri"), uri}}}};
    if (m_stdioStream && m_stdioSubscriptions.contains(uri))
        m_stdioStream->push(notification);
    for (const Session &session : std::as_const(m_sessions)) {
        if (session.stream && session.subscriptions.contains(uri))
            session.stream->push(notification);
    }
}

} // namespace demo
