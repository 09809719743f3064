#include "modernera.h"

#include "demoserver.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cstring>
#include <optional>

namespace demo {

namespace {

constexpr int headerMismatchCode = -32020;
constexpr int unsupportedVersion = -32022;

const QString capabilitiesKey = QStringLiteral("io.modelcontextprotocol/clientCapabilities");
const QString subscriptionIdKey = QStringLiteral("io.modelcontextprotocol/subscriptionId");

// Header values that are not plain ASCII travel as =?base64?...?= (2026-07-28 transports).
QString decodeHeader(const QByteArray &value)
{
    if (value.startsWith("=?base64?") && value.endsWith("?=")) {
        const QByteArray inner = value.mid(9, value.size() - 11);
        return QString::fromUtf8(QByteArray::fromBase64(inner));
    }
    return QString::fromUtf8(value);
}

// The strict form for Mcp-Param-* values: a =?base64?...?= value must be padded, canonical Base64
// (SEP-2243's test table rejects "SGVsbG8" and "SGVs!!!bG8="); anything else is taken literally.
std::optional<QString> decodeParamHeader(const QByteArray &value)
{
    if (!(value.startsWith("=?base64?") && value.endsWith("?=") && value.size() >= 11))
        return QString::fromUtf8(value);
    const QByteArray inner = value.mid(9, value.size() - 11);
    static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (inner.size() % 4 != 0)
        return std::nullopt;
    const qsizetype padding = inner.endsWith("==") ? 2 : inner.endsWith('=') ? 1 : 0;
    for (qsizetype i = 0; i < inner.size() - padding; ++i) {
        if (!std::strchr(alphabet, inner.at(i)) || inner.at(i) == '\0')
            return std::nullopt;
    }
    const auto decoded = QByteArray::fromBase64Encoding(inner, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    return QString::fromUtf8(*decoded);
}

// An argument as its header carries it: strings as they are, numbers and booleans as JSON.
QString headerForm(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble()) {
        const double number = value.toDouble();
        return number == double(qint64(number)) ? QString::number(qint64(number)) : QString::number(number);
    }
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
        .mid(1)
        .chopped(1);
}

// 2026-07-28 adds the extensions the server speaks (tasks, SEP-2663; skills, SEP-2640).
QJsonObject modernCapabilities()
{
    QJsonObject capabilities = DemoServer::capabilities();
    capabilities.insert(
        QStringLiteral("extensions"),
        QJsonObject{{Tasks::extensionId(), QJsonObject{}}, {Skills::extensionId(), Skills::settings()}});
    return capabilities;
}

} // namespace

ModernEra::ModernEra(DemoServer &server)
    : m_server(server)
{}

QString ModernEra::version()
{
    return QStringLiteral("2026-07-28");
}

QString ModernEra::versionKey()
{
    return QStringLiteral("io.modelcontextprotocol/protocolVersion");
}

void ModernEra::handle(const QJsonValue &id, const QString &method, const QJsonObject &params,
                       DemoExchange *exchange, const HeaderMap &headers)
{
    const QStringList removed{QStringLiteral("initialize"), QStringLiteral("ping"),
                              QStringLiteral("logging/setLevel"), QStringLiteral("resources/subscribe"),
                              QStringLiteral("resources/unsubscribe")};
    if (removed.contains(method)) {
        m_server.sendError(exchange, id, DemoServer::MethodNotFound,
                           QStringLiteral("Method not found: %1 is not part of %2").arg(method, version()),
                           404);
        return;
    }

    const QJsonObject meta = params.value(QStringLiteral("_meta")).toObject();
    QStringList missing;
    if (!meta.value(versionKey()).isString())
        missing.append(versionKey());
    if (!meta.value(capabilitiesKey).isObject())
        missing.append(capabilitiesKey);
    if (!missing.isEmpty()) {
        m_server.sendError(exchange, id, DemoServer::InvalidParams,
                           QStringLiteral("Invalid params: params._meta needs %1")
                               .arg(missing.join(QStringLiteral(" and "))),
                           400,
                           QJsonObject{{QStringLiteral("missing"), QJsonArray::fromStringList(missing)}});
        return;
    }
    const QString requested = meta.value(versionKey()).toString();

    if (exchange->isHttp()) {
        const QString mismatch = headerMismatch(method, requested, params, headers);
        if (!mismatch.isEmpty()) {
            m_server.sendError(exchange, id, headerMismatchCode,
                               QStringLiteral("Header mismatch: ") + mismatch, 400);
            return;
        }
    }
    if (requested != version()) {
        m_server.sendError(exchange, id, unsupportedVersion, QStringLiteral("Unsupported protocol version"),
                           400,
                           QJsonObject{{QStringLiteral("supported"), QJsonArray{version()}},
                                       {QStringLiteral("requested"), requested}});
        return;
    }

    if (method == QStringLiteral("server/discover")) {
        m_server.sendResult(exchange, id,
                            QJsonObject{{QStringLiteral("supportedVersions"), QJsonArray{version()}},
                                        {QStringLiteral("capabilities"), modernCapabilities()},
                                        {QStringLiteral("instructions"), m_server.instructions()},
                                        {QStringLiteral("ttlMs"), 3600000},
                                        {QStringLiteral("cacheScope"), QStringLiteral("public")}},
                            true);
        return;
    }
    if (method == QStringLiteral("subscriptions/listen")) {
        listen(id, params, exchange);
        return;
    }
    m_server.dispatch(id, method, params, true, exchange, meta.value(capabilitiesKey).toObject());
}

QString ModernEra::headerMismatch(const QString &method, const QString &version, const QJsonObject &params,
                                  const HeaderMap &headers) const
{
    const QByteArray headerVersion = headers.value("mcp-protocol-version");
    if (headerVersion.isEmpty())
        return QStringLiteral("the MCP-Protocol-Version header is missing");
    if (QString::fromLatin1(headerVersion) != version)
        return QStringLiteral("MCP-Protocol-Version %1 does not match _meta protocolVersion %2")
            .arg(QString::fromLatin1(headerVersion), version);
    if (!headers.contains("mcp-method"))
        return QStringLiteral("the Mcp-Method header is missing");
    if (decodeHeader(headers.value("mcp-method")) != method)
        return QStringLiteral("Mcp-Method %1 does not match method %2")
            .arg(decodeHeader(headers.value("mcp-method")), method);
    if (method == QStringLiteral("tools/call") || method == QStringLiteral("prompts/get") ||
        method == QStringLiteral("resources/read")) {
        const QString key =
            method == QStringLiteral("resources/read") ? QStringLiteral("uri") : QStringLiteral("name");
        if (!headers.contains("mcp-name"))
            return QStringLiteral("the Mcp-Name header is missing");
        if (decodeHeader(headers.value("mcp-name")) != params.value(key).toString())
            return QStringLiteral("Mcp-Name does not match params.%1").arg(key);
    }
    if (method == QStringLiteral("tasks/get") || method == QStringLiteral("tasks/update") ||
        method == QStringLiteral("tasks/cancel")) {
        // SEP-2663: the tasks methods route by Mcp-Name = params.taskId.
        if (!headers.contains("mcp-name"))
            return QStringLiteral("the Mcp-Name header is missing");
        if (decodeHeader(headers.value("mcp-name")).trimmed() !=
            params.value(QStringLiteral("taskId")).toString())
            return QStringLiteral("Mcp-Name does not match params.taskId");
    }
    if (method == QStringLiteral("tools/call"))
        return paramHeaderMismatch(params, headers);
    return {};
}

QString ModernEra::paramHeaderMismatch(const QJsonObject &params, const HeaderMap &headers) const
{
    const auto tool = m_server.tool(params.value(QStringLiteral("name")).toString());
    if (!tool)
        return {};
    const QJsonObject arguments = params.value(QStringLiteral("arguments")).toObject();
    const QJsonObject properties =
        tool->value(QStringLiteral("inputSchema"))[QStringLiteral("properties")].toObject();
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QJsonValue marked = it.value()[QStringLiteral("x-mcp-header")];
        if (!marked.isString())
            continue;
        const QString headerName = QStringLiteral("Mcp-Param-") + marked.toString();
        const QByteArray key = headerName.toLatin1().toLower();
        const QJsonValue argument = arguments.value(it.key());
        const bool given = !argument.isUndefined() && !argument.isNull();
        if (!headers.contains(key)) {
            if (given)
                return QStringLiteral("the %1 header is missing").arg(headerName);
            continue;
        }
        if (!given)
            return QStringLiteral("%1 is sent but arguments.%2 is not").arg(headerName, it.key());
        const auto value = decodeParamHeader(headers.value(key));
        if (!value)
            return QStringLiteral("%1 is not valid Base64").arg(headerName);
        if (*value != headerForm(argument))
            return QStringLiteral("%1 does not match arguments.%2").arg(headerName, it.key());
    }
    return {};
}

void ModernEra::listen(const QJsonValue &id, const QJsonObject &params, DemoExchange *exchange)
{
    const QJsonValue filter = params.value(QStringLiteral("notifications"));
    if (!filter.isObject()) {
        m_server.sendError(exchange, id, DemoServer::InvalidParams,
                           QStringLiteral("Invalid params: notifications must be an object"), 400);
        return;
    }
    const QJsonValue asked = filter[QStringLiteral("resourceSubscriptions")];
    QStringList grantedUris;
    if (!asked.isUndefined()) {
        const QJsonArray uris = asked.toArray();
        const bool strings =
            std::all_of(uris.begin(), uris.end(), [](const QJsonValue &v) { return v.isString(); });
        if (!asked.isArray() || !strings) {
            m_server.sendError(
                exchange, id, DemoServer::InvalidParams,
                QStringLiteral("Invalid params: notifications.resourceSubscriptions must be an "
                               "array of URI strings"),
                400);
            return;
        }
        // Only what the server can read is granted; the rest is dropped from the acknowledgement.
        for (const QJsonValue &uri : uris) {
            if (!grantedUris.contains(uri.toString()) && m_server.readResource(uri.toString(), true))
                grantedUris.append(uri.toString());
        }
    }
    Subscription subscription;
    subscription.id = id;
    subscription.resourceUris = grantedUris;
    subscription.exchange = exchange;
    subscription.tools = filter[QStringLiteral("toolsListChanged")].toBool();
    subscription.prompts = filter[QStringLiteral("promptsListChanged")].toBool();
    subscription.resources = filter[QStringLiteral("resourcesListChanged")].toBool();
    subscription.taskStatus = filter[QStringLiteral("taskStatus")].toBool();
    QJsonObject granted;
    if (subscription.tools)
        granted.insert(QStringLiteral("toolsListChanged"), true);
    if (subscription.prompts)
        granted.insert(QStringLiteral("promptsListChanged"), true);
    if (subscription.resources)
        granted.insert(QStringLiteral("resourcesListChanged"), true);
    if (subscription.taskStatus)
        granted.insert(QStringLiteral("taskStatus"), true);
    if (!asked.toArray().isEmpty())
        granted.insert(QStringLiteral("resourceSubscriptions"), QJsonArray::fromStringList(grantedUris));
    m_subscriptions.append(subscription);
    exchange->push(
        QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                    {QStringLiteral("method"), QStringLiteral("notifications/subscriptions/acknowledged")},
                    {QStringLiteral("params"),
                     QJsonObject{{QStringLiteral("notifications"), granted},
                                 {QStringLiteral("_meta"), QJsonObject{{subscriptionIdKey, id}}}}}});
}

void ModernEra::cancel(const QJsonValue &requestId)
{
    for (qsizetype i = m_subscriptions.size() - 1; i >= 0; --i) {
        if (m_subscriptions.at(i).id == requestId && !m_subscriptions.at(i).exchange.isNull() &&
            !m_subscriptions.at(i).exchange->isHttp())
            m_subscriptions.removeAt(i);
    }
}

void ModernEra::notifyListChanged(const QString &kind, const QString &method)
{
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
}

void ModernEra::notifyResourceUpdated(const QString &uri)
{
    for (qsizetype i = m_subscriptions.size() - 1; i >= 0; --i) {
        const Subscription &subscription = m_subscriptions.at(i);
        if (subscription.exchange.isNull()) {
            m_subscriptions.removeAt(i);
            continue;
        }
        if (!subscription.resourceUris.contains(uri))
            continue;
        subscription.exchange->push(QJsonObject{
            {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("method"), QStringLiteral("notifications/resources/updated")},
            {QStringLiteral("params"),
             QJsonObject{{QStringLiteral("uri"), uri},
                         {QStringLiteral("_meta"), QJsonObject{{subscriptionIdKey, subscription.id}}}}}});
    }
}

void ModernEra::notifyTask(const QJsonObject &task)
{
    for (qsizetype i = m_subscriptions.size() - 1; i >= 0; --i) {
        const Subscription &subscription = m_subscriptions.at(i);
        if (subscription.exchange.isNull()) {
            m_subscriptions.removeAt(i);
            continue;
        }
        if (!subscription.taskStatus)
            continue;
        QJsonObject params = task;
        params.insert(QStringLiteral("_meta"), QJsonObject{{subscriptionIdKey, subscription.id}});
        subscription.exchange->push(
            QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("method"), QStringLiteral("notifications/tasks")},
                        {QStringLiteral("params"), params}});
    }
}

} // namespace demo
