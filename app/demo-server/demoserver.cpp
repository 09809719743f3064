#include "demoserver.h"

#include "demoexchange.h"
#include "jsontext.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>
#include <QUuid>

namespace demo {

namespace {

constexpr int parseError = -32700;
constexpr int invalidRequest = -32600;
constexpr int methodNotFound = -32601;
constexpr int invalidParams = -32602;
constexpr int headerMismatch = -32020;
constexpr int missingCapability = -32021;
constexpr int unsupportedVersion = -32022;
constexpr int legacyResourceNotFound = -32002;

const QString versionKey = QStringLiteral("io.modelcontextprotocol/protocolVersion");
const QString capabilitiesKey = QStringLiteral("io.modelcontextprotocol/clientCapabilities");
const QString serverInfoKey = QStringLiteral("io.modelcontextprotocol/serverInfo");
const QString subscriptionIdKey = QStringLiteral("io.modelcontextprotocol/subscriptionId");

const QString instructions = QStringLiteral(
    "Folio's demo server: a team chat (tools, prompts, chat:// resources) whose lists page well or "
    "badly on purpose, as its scenario says. Nothing you call changes anything.");

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// Header values that are not plain ASCII travel as =?base64?...?= (2026-07-28 transports).
QString decodeHeader(const QByteArray &value)
{
    if (value.startsWith("=?base64?") && value.endsWith("?=")) {
        const QByteArray inner = value.mid(9, value.size() - 11);
        return QString::fromUtf8(QByteArray::fromBase64(inner));
    }
    return QString::fromUtf8(value);
}

QString listOfMethod(const QString &method)
{
    if (method == QStringLiteral("tools/list"))
        return QStringLiteral("tools");
    if (method == QStringLiteral("prompts/list"))
        return QStringLiteral("prompts");
    if (method == QStringLiteral("resources/list"))
        return QStringLiteral("resources");
    if (method == QStringLiteral("resources/templates/list"))
        return QStringLiteral("templates");
    return {};
}

QJsonObject textResult(const QString &text)
{
    return QJsonObject{
        {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                           {QStringLiteral("text"), text}}}}};
}

} // namespace

DemoServer::DemoServer(Era era, const Scenario &scenario, quint32 seed, QObject *parent)
    : QObject(parent)
    , m_era(era)
    , m_scenario(scenario)
    , m_catalog(seed)
    , m_pager(m_catalog, scenario)
    , m_listTools(m_catalog, scenario)
{
    if (scenario.conformanceFixtures())
        m_catalog.addConformanceFixtures();
    for (const QString &list : {QStringLiteral("tools"), QStringLiteral("prompts"),
                                QStringLiteral("resources"), QStringLiteral("templates")}) {
        const ListBehaviour b = scenario.behaviour(list);
        if (!b.is("list-changed"))
            continue;
        auto timer = new QTimer(this);
        timer->setInterval(int(b.intervalMs));
        connect(timer, &QTimer::timeout, this, [this, list] {
            m_pager.bumpRevision(list);
            notifyListChanged(list);
        });
        timer->start();
    }
}

QString DemoServer::modernVersion()
{
    return QStringLiteral("2026-07-28");
}

QStringList DemoServer::legacyVersions()
{
    return {QStringLiteral("2024-11-05"), QStringLiteral("2025-03-26"), QStringLiteral("2025-06-18"),
            QStringLiteral("2025-11-25")};
}

QJsonObject DemoServer::serverInfo() const
{
    return QJsonObject{{QStringLiteral("name"), QStringLiteral("folio-demo-server")},
                       {QStringLiteral("title"), QStringLiteral("Folio demo server")},
                       {QStringLiteral("version"), QStringLiteral("0.1.0")}};
}

QJsonObject DemoServer::capabilities() const
{
    const QJsonObject listChanged{{QStringLiteral("listChanged"), true}};
    return QJsonObject{{QStringLiteral("tools"), listChanged},
                       {QStringLiteral("prompts"), listChanged},
                       {QStringLiteral("resources"), listChanged}};
}

void DemoServer::handleMessage(const QByteArray &body, DemoExchange *exchange, const HeaderMap &headers)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        sendError(exchange, QJsonValue::Null, parseError,
                  QStringLiteral("Parse error: %1").arg(error.errorString()), 400);
        return;
    }
    if (document.isArray()) {
        sendError(exchange, QJsonValue::Null, invalidRequest,
                  QStringLiteral("Invalid Request: batches are not supported"), 400);
        return;
    }
    const QJsonObject message = document.object();
    const QJsonValue id = message.value(QStringLiteral("id"));
    const QJsonValue method = message.value(QStringLiteral("method"));
    if (method.isUndefined() &&
        (message.contains(QStringLiteral("result")) || message.contains(QStringLiteral("error")))) {
        exchange->accept(); // a response to a request we never send; nothing to do
        return;
    }
    const QJsonValue replyId = id.isString() || id.isDouble() ? id : QJsonValue(QJsonValue::Null);
    if (message.value(QStringLiteral("jsonrpc")).toString() != QStringLiteral("2.0") || !method.isString() ||
        (!id.isUndefined() && !id.isString() && !id.isDouble())) {
        sendError(exchange, replyId, invalidRequest,
                  QStringLiteral("Invalid Request: need jsonrpc \"2.0\", a string method and a string or "
                                 "number id"),
                  400);
        return;
    }
    const QJsonValue paramsValue = message.value(QStringLiteral("params"));
    if (!paramsValue.isUndefined() && !paramsValue.isObject()) {
        if (id.isUndefined())
            exchange->accept();
        else
            sendError(exchange, id, invalidParams, QStringLiteral("Invalid params: params must be an object"),
                      400);
        return;
    }
    const QJsonObject params = paramsValue.toObject();
    if (id.isUndefined()) {
        handleNotification(method.toString(), params);
        exchange->accept();
        return;
    }

    const QString name = method.toString();
    bool modern = m_era == Era::Modern;
    if (m_era == Era::Both) {
        const QByteArray headerVersion = headers.value("mcp-protocol-version");
        if (params.value(QStringLiteral("_meta")).toObject().contains(versionKey))
            modern = true;
        else if (exchange->isHttp() && !headerVersion.isEmpty() &&
                 !legacyVersions().contains(QString::fromLatin1(headerVersion)))
            modern = true;
        else if (name == QStringLiteral("initialize"))
            modern = false;
        else if (name == QStringLiteral("server/discover") || name == QStringLiteral("subscriptions/listen"))
            modern = true;
        else if (exchange->isHttp())
            modern = !headers.contains("mcp-session-id");
        else
            modern = !m_stdioLegacy;
    }
    if (modern)
        handleModern(id, name, params, exchange, headers);
    else
        handleLegacy(id, name, params, exchange, headers);
}

void DemoServer::handleNotification(const QString &method, const QJsonObject &params)
{
    if (method == QStringLiteral("notifications/cancelled")) {
        const QJsonValue requestId = params.value(QStringLiteral("requestId"));
        for (qsizetype i = m_subscriptions.size() - 1; i >= 0; --i) {
            if (m_subscriptions.at(i).id == requestId && !m_subscriptions.at(i).exchange.isNull() &&
                !m_subscriptions.at(i).exchange->isHttp())
                m_subscriptions.removeAt(i);
        }
    }
    // notifications/initialized and anything else need no action.
}

void DemoServer::handleModern(const QJsonValue &id, const QString &method, const QJsonObject &params,
                              DemoExchange *exchange, const HeaderMap &headers)
{
    const QStringList removed{QStringLiteral("initialize"), QStringLiteral("ping"),
                              QStringLiteral("logging/setLevel"), QStringLiteral("resources/subscribe"),
                              QStringLiteral("resources/unsubscribe")};
    if (removed.contains(method)) {
        sendError(exchange, id, methodNotFound,
                  QStringLiteral("Method not found: %1 is not part of %2").arg(method, modernVersion()), 404);
        return;
    }

    const QJsonValue metaValue = params.value(QStringLiteral("_meta"));
    const QJsonObject meta = metaValue.toObject();
    QStringList missing;
    if (!meta.value(versionKey).isString())
        missing.append(versionKey);
    if (!meta.value(capabilitiesKey).isObject())
        missing.append(capabilitiesKey);
    if (!missing.isEmpty()) {
        sendError(exchange, id, invalidParams,
                  QStringLiteral("Invalid params: params._meta needs %1")
                      .arg(missing.join(QStringLiteral(" and "))),
                  400, QJsonObject{{QStringLiteral("missing"), QJsonArray::fromStringList(missing)}});
        return;
    }
    const QString version = meta.value(versionKey).toString();

    if (exchange->isHttp()) {
        const QByteArray headerVersion = headers.value("mcp-protocol-version");
        QString mismatch;
        if (headerVersion.isEmpty())
            mismatch = QStringLiteral("the MCP-Protocol-Version header is missing");
        else if (QString::fromLatin1(headerVersion) != version)
            mismatch = QStringLiteral("MCP-Protocol-Version %1 does not match _meta protocolVersion %2")
                           .arg(QString::fromLatin1(headerVersion), version);
        else if (!headers.contains("mcp-method"))
            mismatch = QStringLiteral("the Mcp-Method header is missing");
        else if (decodeHeader(headers.value("mcp-method")) != method)
            mismatch = QStringLiteral("Mcp-Method %1 does not match method %2")
                           .arg(decodeHeader(headers.value("mcp-method")), method);
        else if (method == QStringLiteral("tools/call") || method == QStringLiteral("prompts/get") ||
                 method == QStringLiteral("resources/read")) {
            const QString key =
                method == QStringLiteral("resources/read") ? QStringLiteral("uri") : QStringLiteral("name");
            if (!headers.contains("mcp-name"))
                mismatch = QStringLiteral("the Mcp-Name header is missing");
            else if (decodeHeader(headers.value("mcp-name")) != params.value(key).toString())
                mismatch = QStringLiteral("Mcp-Name does not match params.%1").arg(key);
        }
        if (!mismatch.isEmpty()) {
            sendError(exchange, id, headerMismatch, QStringLiteral("Header mismatch: ") + mismatch, 400);
            return;
        }
    }
    if (version != modernVersion()) {
        sendError(exchange, id, unsupportedVersion, QStringLiteral("Unsupported protocol version"), 400,
                  QJsonObject{{QStringLiteral("supported"), QJsonArray{modernVersion()}},
                              {QStringLiteral("requested"), version}});
        return;
    }

    const QJsonObject clientCapabilities = meta.value(capabilitiesKey).toObject();
    if (method == QStringLiteral("server/discover")) {
        sendResult(exchange, id,
                   QJsonObject{{QStringLiteral("supportedVersions"), QJsonArray{modernVersion()}},
                               {QStringLiteral("capabilities"), capabilities()},
                               {QStringLiteral("instructions"), instructions},
                               {QStringLiteral("ttlMs"), 3600000},
                               {QStringLiteral("cacheScope"), QStringLiteral("public")}},
                   true);
        return;
    }
    if (method == QStringLiteral("subscriptions/listen")) {
        listen(id, params, exchange);
        return;
    }
    dispatch(id, method, params, true, exchange, clientCapabilities);
}

void DemoServer::handleLegacy(const QJsonValue &id, const QString &method, const QJsonObject &params,
                              DemoExchange *exchange, const HeaderMap &headers)
{
    if (method == QStringLiteral("server/discover")) {
        // A legacy server does not know the modern probe; on HTTP say so with a 400 (see
        // mcp-protocol.md §1) so that a dual-era client falls back to initialize.
        sendError(exchange, id, methodNotFound, QStringLiteral("Method not found: server/discover"), 400);
        return;
    }
    if (method == QStringLiteral("initialize")) {
        const QJsonValue requested = params.value(QStringLiteral("protocolVersion"));
        if (!requested.isString()) {
            sendError(exchange, id, invalidParams,
                      QStringLiteral("Invalid params: protocolVersion must be a string"), 400);
            return;
        }
        const QString version = legacyVersions().contains(requested.toString())
                                    ? requested.toString()
                                    : legacyVersions().constLast();
        if (exchange->isHttp()) {
            const QString sessionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
            m_sessions.insert(sessionId, LegacySession{version, {}});
            exchange->setHeader("Mcp-Session-Id", sessionId.toLatin1());
        } else {
            m_stdioLegacy = true;
        }
        sendResult(exchange, id,
                   QJsonObject{{QStringLiteral("protocolVersion"), version},
                               {QStringLiteral("capabilities"), capabilities()},
                               {QStringLiteral("serverInfo"), serverInfo()},
                               {QStringLiteral("instructions"), instructions}},
                   false);
        return;
    }
    if (exchange->isHttp()) {
        const QByteArray headerVersion = headers.value("mcp-protocol-version");
        if (!headerVersion.isEmpty() && !legacyVersions().contains(QString::fromLatin1(headerVersion))) {
            sendError(exchange, id, -32000, QStringLiteral("Bad Request: unsupported MCP-Protocol-Version"),
                      400);
            return;
        }
        const QString sessionId = QString::fromLatin1(headers.value("mcp-session-id"));
        if (sessionId.isEmpty()) {
            sendError(
                exchange, id, -32000,
                QStringLiteral("Bad Request: send initialize first, then the Mcp-Session-Id it returned"),
                400);
            return;
        }
        if (!m_sessions.contains(sessionId)) {
            sendError(exchange, id, -32001, QStringLiteral("Session not found"), 404);
            return;
        }
    }
    if (method == QStringLiteral("ping") || method == QStringLiteral("logging/setLevel")) {
        sendResult(exchange, id, {}, false);
        return;
    }
    dispatch(id, method, params, false, exchange, {});
}

void DemoServer::dispatch(const QJsonValue &id, const QString &method, const QJsonObject &params, bool modern,
                          DemoExchange *exchange, const QJsonObject &clientCapabilities)
{
    const QString list = listOfMethod(method);
    if (!list.isEmpty()) {
        sendOutcome(exchange, id, m_pager.page(list, params.value(QStringLiteral("cursor")), modern, now()),
                    modern);
        return;
    }
    if (method == QStringLiteral("tools/call")) {
        const QJsonValue name = params.value(QStringLiteral("name"));
        const QJsonValue arguments = params.value(QStringLiteral("arguments"));
        if (!name.isString() || (!arguments.isUndefined() && !arguments.isObject())) {
            sendError(
                exchange, id, invalidParams,
                QStringLiteral("Invalid params: tools/call needs a string name and an object arguments"),
                200);
            return;
        }
        const QString toolName = name.toString();
        if (ListTools::isListTool(toolName)) {
            sendOutcome(exchange, id, m_listTools.call(toolName, arguments.toObject(), now()), modern);
            return;
        }
        if (!m_catalog.tool(toolName)) {
            sendError(exchange, id, invalidParams, QStringLiteral("Unknown tool: %1").arg(toolName), 200);
            return;
        }
        if (Catalog::isConformanceFixture(toolName) &&
            callFixture(id, toolName, clientCapabilities, exchange))
            return;
        sendResult(exchange, id,
                   textResult(QStringLiteral("Demo: %1 would run with %2. The demo server changes nothing.")
                                  .arg(toolName, QString::fromUtf8(QJsonDocument(arguments.toObject())
                                                                       .toJson(QJsonDocument::Compact)))),
                   modern);
        return;
    }
    if (method == QStringLiteral("resources/read")) {
        const QString uri = params.value(QStringLiteral("uri")).toString();
        const auto text = m_catalog.readResource(uri);
        if (!text) {
            sendError(exchange, id, modern ? invalidParams : legacyResourceNotFound,
                      QStringLiteral("Resource not found"), 200, QJsonObject{{QStringLiteral("uri"), uri}});
            return;
        }
        QJsonObject result{
            {QStringLiteral("contents"),
             QJsonArray{QJsonObject{{QStringLiteral("uri"), uri},
                                    {QStringLiteral("mimeType"), QStringLiteral("application/json")},
                                    {QStringLiteral("text"), *text}}}}};
        if (modern) {
            const ListBehaviour b = m_scenario.behaviour(QStringLiteral("resources"));
            result.insert(QStringLiteral("ttlMs"), b.ttlMs);
            result.insert(QStringLiteral("cacheScope"), b.cacheScope);
        }
        sendResult(exchange, id, result, modern);
        return;
    }
    if (method == QStringLiteral("prompts/get")) {
        const QString name = params.value(QStringLiteral("name")).toString();
        const auto prompt = m_catalog.prompt(name);
        if (!prompt) {
            sendError(exchange, id, invalidParams, QStringLiteral("Unknown prompt: %1").arg(name), 200);
            return;
        }
        const QJsonObject arguments = params.value(QStringLiteral("arguments")).toObject();
        const QJsonObject argument = prompt->value(QStringLiteral("arguments")).toArray().first().toObject();
        const QString argumentName = argument.value(QStringLiteral("name")).toString();
        if (!arguments.value(argumentName).isString()) {
            sendError(
                exchange, id, invalidParams,
                QStringLiteral("Invalid params: prompt %1 needs the argument %2").arg(name, argumentName),
                200);
            return;
        }
        const QString text = QStringLiteral("%1 (%2: %3)")
                                 .arg(prompt->value(QStringLiteral("description")).toString(), argumentName,
                                      arguments.value(argumentName).toString());
        sendResult(
            exchange, id,
            QJsonObject{{QStringLiteral("description"), prompt->value(QStringLiteral("description"))},
                        {QStringLiteral("messages"),
                         QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                {QStringLiteral("content"),
                                                 QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                             {QStringLiteral("text"), text}}}}}}},
            modern);
        return;
    }
    sendError(exchange, id, methodNotFound, QStringLiteral("Method not found: %1").arg(method),
              modern ? 404 : 200);
}

bool DemoServer::callFixture(const QJsonValue &id, const QString &name, const QJsonObject &clientCapabilities,
                             DemoExchange *exchange)
{
    if (name == QStringLiteral("test_simple_text")) {
        sendResult(exchange, id, textResult(QStringLiteral("This is a simple text response for testing.")),
                   true);
    } else if (name == QStringLiteral("test_missing_capability")) {
        if (!clientCapabilities.contains(QStringLiteral("sampling"))) {
            sendError(exchange, id, missingCapability,
                      QStringLiteral("Missing required client capability: sampling"), 400,
                      QJsonObject{{QStringLiteral("requiredCapabilities"),
                                   QJsonObject{{QStringLiteral("sampling"), QJsonObject{}}}}});
        } else {
            sendResult(exchange, id, textResult(QStringLiteral("The client declared sampling.")), true);
        }
    } else if (name == QStringLiteral("test_trigger_tool_change")) {
        notifyListChanged(QStringLiteral("tools"));
        sendResult(exchange, id, textResult(QStringLiteral("Announced a tools list change.")), true);
    } else if (name == QStringLiteral("test_trigger_prompt_change")) {
        notifyListChanged(QStringLiteral("prompts"));
        sendResult(exchange, id, textResult(QStringLiteral("Announced a prompts list change.")), true);
    } else if (name == QStringLiteral("test_streaming_elicitation") ||
               name == QStringLiteral("test_logging_tool")) {
        sendResult(exchange, id, textResult(QStringLiteral("Done; nothing was sent besides this result.")),
                   true);
    } else {
        return false;
    }
    return true;
}

void DemoServer::listen(const QJsonValue &id, const QJsonObject &params, DemoExchange *exchange)
{
    const QJsonValue filter = params.value(QStringLiteral("notifications"));
    if (!filter.isObject()) {
        sendError(exchange, id, invalidParams,
                  QStringLiteral("Invalid params: notifications must be an object"), 400);
        return;
    }
    Subscription subscription;
    subscription.id = id;
    subscription.exchange = exchange;
    subscription.tools = filter[QStringLiteral("toolsListChanged")].toBool();
    subscription.prompts = filter[QStringLiteral("promptsListChanged")].toBool();
    subscription.resources = filter[QStringLiteral("resourcesListChanged")].toBool();
    QJsonObject granted;
    if (subscription.tools)
        granted.insert(QStringLiteral("toolsListChanged"), true);
    if (subscription.prompts)
        granted.insert(QStringLiteral("promptsListChanged"), true);
    if (subscription.resources)
        granted.insert(QStringLiteral("resourcesListChanged"), true);
    m_subscriptions.append(subscription);
    exchange->push(
        QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                    {QStringLiteral("method"), QStringLiteral("notifications/subscriptions/acknowledged")},
                    {QStringLiteral("params"),
                     QJsonObject{{QStringLiteral("notifications"), granted},
                                 {QStringLiteral("_meta"), QJsonObject{{subscriptionIdKey, id}}}}}});
}

void DemoServer::openLegacyStream(DemoExchange *exchange, const HeaderMap &headers)
{
    const QString sessionId = QString::fromLatin1(headers.value("mcp-session-id"));
    if (m_era == Era::Modern) {
        exchange->refuse(405, "This server speaks 2026-07-28 only: there is no GET stream.\n");
    } else if (sessionId.isEmpty()) {
        exchange->refuse(400, "Send initialize first, then GET with its Mcp-Session-Id.\n");
    } else if (!m_sessions.contains(sessionId)) {
        exchange->refuse(404, "Session not found.\n");
    } else {
        m_sessions[sessionId].stream = exchange;
        exchange->startStream();
    }
}

void DemoServer::endLegacySession(DemoExchange *exchange, const HeaderMap &headers)
{
    const QString sessionId = QString::fromLatin1(headers.value("mcp-session-id"));
    if (m_era == Era::Modern || sessionId.isEmpty()) {
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

void DemoServer::notifyListChanged(const QString &list)
{
    const QString kind = list == QStringLiteral("templates") ? QStringLiteral("resources") : list;
    const QString method = QStringLiteral("notifications/%1/list_changed").arg(kind);
    for (qsizetype i = m_subscriptions.size() - 1; i >= 0; --i) {
        const Subscription &subscription = m_subscriptions.at(i);
        if (subscription.exchange.isNull()) {
            m_subscriptions.removeAt(i);
            continue;
        }
        const bool wanted = kind == QStringLiteral("tools")     ? subscription.tools
                            : kind == QStringLiteral("prompts") ? subscription.prompts
                                                                : subscription.resources;
        if (wanted) {
            subscription.exchange->push(QJsonObject{
                {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                {QStringLiteral("method"), method},
                {QStringLiteral("params"),
                 QJsonObject{{QStringLiteral("_meta"), QJsonObject{{subscriptionIdKey, subscription.id}}}}}});
        }
    }
    const QJsonObject legacy{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                             {QStringLiteral("method"), method}};
    if (m_stdioLegacy && m_stdioStream)
        m_stdioStream->push(legacy);
    for (const LegacySession &session : std::as_const(m_sessions)) {
        if (session.stream)
            session.stream->push(legacy);
    }
}

void DemoServer::sendResult(DemoExchange *exchange, const QJsonValue &id, QJsonObject result, bool modern,
                            const QString &itemsKey, const QByteArray &itemsJson)
{
    if (modern) {
        if (!result.contains(QStringLiteral("resultType")))
            result.insert(QStringLiteral("resultType"), QStringLiteral("complete"));
        QJsonObject meta = result.value(QStringLiteral("_meta")).toObject();
        meta.insert(serverInfoKey, serverInfo());
        result.insert(QStringLiteral("_meta"), meta);
    }
    if (!itemsKey.isEmpty()) {
        // Splice the serialized items into the serialized result, as its last member.
        QByteArray json = R"({"jsonrpc":"2.0","id":)" +
                          QJsonDocument(QJsonArray{id}).toJson(QJsonDocument::Compact).chopped(1).mid(1) +
                          R"(,"result":)" + QJsonDocument(result).toJson(QJsonDocument::Compact);
        json.chop(1); // the result's closing brace
        if (!result.isEmpty())
            json.append(',');
        JsonText::appendString(json, itemsKey);
        json.append(':').append(itemsJson).append("}}");
        exchange->replyJson(json, 200);
        return;
    }
    exchange->reply(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                {QStringLiteral("id"), id},
                                {QStringLiteral("result"), result}},
                    200);
}

void DemoServer::sendError(DemoExchange *exchange, const QJsonValue &id, int code, const QString &message,
                           int httpStatus, const QJsonValue &data)
{
    QJsonObject error{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isUndefined() && !data.isNull())
        error.insert(QStringLiteral("data"), data);
    exchange->reply(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                {QStringLiteral("id"), id},
                                {QStringLiteral("error"), error}},
                    httpStatus);
}

void DemoServer::sendOutcome(DemoExchange *exchange, const QJsonValue &id, const PageOutcome &outcome,
                             bool modern)
{
    if (outcome.kind == PageOutcome::Kind::NoAnswer)
        return; // page-never-answers: on purpose
    const QPointer<DemoExchange> target = exchange;
    auto send = [this, target, id, outcome, modern] {
        if (!target)
            return;
        if (outcome.kind == PageOutcome::Kind::Error)
            sendError(target, id, outcome.errorCode, outcome.errorMessage, 200, outcome.errorData);
        else
            sendResult(target, id, outcome.result, modern, outcome.itemsKey, outcome.itemsJson);
    };
    if (outcome.delayMs > 0)
        QTimer::singleShot(int(outcome.delayMs), this, send);
    else
        send();
}

} // namespace demo
