#include "clientinput.h"

#include <QJsonArray>

namespace folio {

std::optional<InputRequest::Kind> InputRequest::kindOf(const QString &method)
{
    if (method == QLatin1String("elicitation/create"))
        return Kind::Elicitation;
    if (method == QLatin1String("sampling/createMessage"))
        return Kind::Sampling;
    if (method == QLatin1String("roots/list"))
        return Kind::Roots;
    return std::nullopt;
}

QString InputRequest::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Elicitation:
        return QStringLiteral("elicitation");
    case Kind::Sampling:
        return QStringLiteral("sampling");
    case Kind::Roots:
        return QStringLiteral("roots");
    }
    return {};
}

QList<InputRequest> InputRequest::fromInputRequests(const QJsonObject &inputRequests, const QString &askedFor)
{
    QList<InputRequest> requests;
    for (auto it = inputRequests.begin(); it != inputRequests.end(); ++it) {
        const QJsonObject r = it.value().toObject();
        InputRequest request;
        request.method = r.value(QStringLiteral("method")).toString();
        request.params = r.value(QStringLiteral("params")).toObject();
        request.key = it.key();
        request.askedFor = askedFor;
        if (const auto kind = kindOf(request.method))
            request.kind = *kind;
        requests.append(request);
    }
    return requests;
}

QString InputRequest::summary() const
{
    QString line = kindName(kind);
    if (!askedFor.isEmpty())
        line += QStringLiteral(" for ") + askedFor;
    QString what;
    if (kind == Kind::Elicitation)
        what = params.value(QStringLiteral("message")).toString();
    else if (kind == Kind::Sampling) {
        const QJsonArray messages = params.value(QStringLiteral("messages")).toArray();
        if (!messages.isEmpty()) {
            const QJsonValue content = messages.last().toObject().value(QStringLiteral("content"));
            const QJsonObject block =
                content.isArray() ? content.toArray().first().toObject() : content.toObject();
            what = block.value(QStringLiteral("text")).toString();
        }
    }
    what = what.simplified();
    if (what.size() > 120)
        what = what.left(119) + QChar(0x2026);
    if (!what.isEmpty())
        line += QStringLiteral(": ") + what;
    return line;
}

InputReply::InputReply(const InputRequest &request, QObject *parent)
    : QObject(parent)
    , m_request(request)
{}

void InputReply::answer(const QJsonObject &result)
{
    finish(result, {});
}

void InputReply::decline()
{
    if (m_request.kind == InputRequest::Kind::Elicitation) {
        finish({{QStringLiteral("action"), QStringLiteral("decline")}}, {});
        return;
    }
    finish({}, McpError::rpc(-1, QStringLiteral("User rejected the request")));
}

void InputReply::dismiss()
{
    if (m_request.kind == InputRequest::Kind::Elicitation)
        finish({{QStringLiteral("action"), QStringLiteral("cancel")}}, {});
    else
        decline();
}

void InputReply::refuse(const McpError &error)
{
    finish({}, error);
}

void InputReply::withdraw()
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT withdrawn();
}

void InputReply::finish(const QJsonObject &result, const McpError &error)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT replied(result, error);
}

QJsonObject elicitationDefaults(const QJsonObject &requestedSchema)
{
    QJsonObject content;
    const QJsonObject properties = requestedSchema.value(QStringLiteral("properties")).toObject();
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        const QJsonObject property = it.value().toObject();
        if (property.contains(QStringLiteral("default")))
            content.insert(it.key(), property.value(QStringLiteral("default")));
    }
    return content;
}

bool DefaultInputResponder::answers(InputRequest::Kind kind) const
{
    switch (kind) {
    case InputRequest::Kind::Elicitation:
        return answerElicitation;
    case InputRequest::Kind::Sampling:
        return answerSampling;
    case InputRequest::Kind::Roots:
        return answerRoots;
    }
    return false;
}

void DefaultInputResponder::respond(InputReply *reply)
{
    const InputRequest &request = reply->request();
    if (!answers(request.kind)) {
        reply->decline();
        return;
    }
    switch (request.kind) {
    case InputRequest::Kind::Elicitation: {
        QJsonObject content =
            elicitationDefaults(request.params.value(QStringLiteral("requestedSchema")).toObject());
        for (auto it = elicitationValues.begin(); it != elicitationValues.end(); ++it)
            content.insert(it.key(), it.value());
        reply->answer(
            {{QStringLiteral("action"), QStringLiteral("accept")}, {QStringLiteral("content"), content}});
        return;
    }
    case InputRequest::Kind::Sampling:
        reply->answer(
            {{QStringLiteral("role"), QStringLiteral("assistant")},
             {QStringLiteral("content"), QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                     {QStringLiteral("text"), samplingText}}},
             {QStringLiteral("model"), QStringLiteral("folio-no-model")},
             {QStringLiteral("stopReason"), QStringLiteral("endTurn")}});
        return;
    case InputRequest::Kind::Roots: {
        QJsonArray list;
        for (const QJsonObject &root : roots)
            list.append(root);
        reply->answer({{QStringLiteral("roots"), list}});
        return;
    }
    }
}

} // namespace folio
