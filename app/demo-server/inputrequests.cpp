#include "inputrequests.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMessageAuthenticationCode>
#include <QRandomGenerator>

namespace demo {

namespace {

constexpr int invalidParams = -32602;

} // namespace

InputRequests::InputRequests()
{
    m_key.resize(32);
    QRandomGenerator::system()->generate(reinterpret_cast<quint32 *>(m_key.data()),
                                         reinterpret_cast<quint32 *>(m_key.data() + m_key.size()));
}

QJsonObject InputRequests::elicitation(const QString &message, const QJsonObject &requestedSchema)
{
    return QJsonObject{
        {QStringLiteral("method"), QStringLiteral("elicitation/create")},
        {QStringLiteral("params"), QJsonObject{{QStringLiteral("message"), message},
                                               {QStringLiteral("requestedSchema"), requestedSchema}}}};
}

QJsonObject InputRequests::sampling(const QString &text, int maxTokens)
{
    const QJsonObject message{
        {QStringLiteral("role"), QStringLiteral("user")},
        {QStringLiteral("content"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}}}};
    return QJsonObject{
        {QStringLiteral("method"), QStringLiteral("sampling/createMessage")},
        {QStringLiteral("params"), QJsonObject{{QStringLiteral("messages"), QJsonArray{message}},
                                               {QStringLiteral("maxTokens"), maxTokens}}}};
}

QJsonObject InputRequests::roots()
{
    return QJsonObject{{QStringLiteral("method"), QStringLiteral("roots/list")},
                       {QStringLiteral("params"), QJsonObject{}}};
}

QJsonObject InputRequests::inputRequired(const QJsonObject &requests, const QString &state)
{
    QJsonObject result{{QStringLiteral("resultType"), QStringLiteral("input_required")},
                       {QStringLiteral("inputRequests"), requests}};
    if (!state.isEmpty())
        result.insert(QStringLiteral("requestState"), state);
    return result;
}

QString InputRequests::sign(const QJsonObject &state) const
{
    const QByteArray payload = QJsonDocument(state).toJson(QJsonDocument::Compact);
    const QByteArray mac = QMessageAuthenticationCode::hash(payload, m_key, QCryptographicHash::Sha256);
    const auto encoding = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;
    return QString::fromLatin1(payload.toBase64(encoding) + '.' + mac.toBase64(encoding));
}

std::optional<QJsonObject> InputRequests::verify(const QString &state) const
{
    const QList<QByteArray> parts = state.toLatin1().split('.');
    if (parts.size() != 2)
        return std::nullopt;
    const auto encoding = QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors;
    const auto payload = QByteArray::fromBase64Encoding(parts.at(0), encoding);
    const auto mac = QByteArray::fromBase64Encoding(parts.at(1), encoding);
    if (!payload || !mac)
        return std::nullopt;
    const QByteArray expected = QMessageAuthenticationCode::hash(*payload, m_key, QCryptographicHash::Sha256);
    if (expected != *mac)
        return std::nullopt;
    const QJsonDocument document = QJsonDocument::fromJson(*payload);
    if (!document.isObject())
        return std::nullopt;
    return document.object();
}

QJsonObject InputRequests::responses(const QJsonObject &params, std::optional<Answer> *error)
{
    const QJsonValue value = params.value(QStringLiteral("inputResponses"));
    if (value.isUndefined())
        return {};
    if (!value.isObject()) {
        *error =
            Answer::error(invalidParams, QStringLiteral("Invalid params: inputResponses must be an object"));
        return {};
    }
    return value.toObject();
}

std::optional<QJsonObject> InputRequests::accepted(const QJsonObject &responses, const QString &key,
                                                   bool *declined)
{
    const QJsonValue value = responses.value(key);
    if (!value.isObject() || !value[QStringLiteral("action")].isString())
        return std::nullopt;
    const QString action = value[QStringLiteral("action")].toString();
    if (declined)
        *declined = action != QStringLiteral("accept");
    return value[QStringLiteral("content")].toObject();
}

} // namespace demo
