#include "invocation.h"

#include "mcpclient.h"
#include "netlogging.h"
#include "rpccall.h"

#include <QJsonArray>

namespace folio {

namespace {
const QString resultTypeKey = QStringLiteral("resultType");
const QString inputRequestsKey = QStringLiteral("inputRequests");
const QString inputResponsesKey = QStringLiteral("inputResponses");
const QString requestStateKey = QStringLiteral("requestState");
} // namespace

Invocation::Invocation(McpClient *client, const QString &method, const QJsonObject &params, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_method(method)
    , m_params(params)
{}

Invocation::~Invocation()
{
    // Whoever owned it is going (a view closed): the server hears the cancel, nobody hears more of
    // this Invocation, whose signals would reach an owner half destroyed.
    m_finished = true;
    for (const QPointer<InputReply> &reply : std::as_const(m_pendingInputs)) {
        if (reply)
            reply->withdraw();
    }
    if (m_call) {
        m_call->disconnect(this);
        if (!m_call->isFinished())
            m_call->cancel();
    }
}

QString Invocation::title() const
{
    QString what = m_params.value(QStringLiteral("name")).toString();
    if (what.isEmpty())
        what = m_params.value(QStringLiteral("uri")).toString();
    return what.isEmpty() ? m_method : m_method + QLatin1Char(' ') + what;
}

QByteArray Invocation::rawResponse() const
{
    return m_rounds.isEmpty() ? QByteArray() : m_rounds.constLast().raw;
}

qint64 Invocation::sentAtMs() const
{
    return m_rounds.isEmpty() ? 0 : m_rounds.constFirst().sentAtMs;
}

qint64 Invocation::receivedAtMs() const
{
    return m_rounds.isEmpty() ? 0 : m_rounds.constLast().receivedAtMs;
}

qint64 Invocation::totalMs() const
{
    if (m_rounds.isEmpty() || m_rounds.constLast().receivedAtMs == 0)
        return -1;
    return m_rounds.constLast().receivedAtMs - m_rounds.constFirst().sentAtMs;
}

void Invocation::start()
{
    if (m_finished || m_call)
        return;
    sendRound({}, std::nullopt);
}

void Invocation::failNow(const McpError &error)
{
    finish({}, error);
}

void Invocation::cancel()
{
    if (m_finished)
        return;
    if (m_call && !m_call->isFinished()) {
        // Sends notifications/cancelled; handleRound() then finishes this as cancelled.
        m_call->cancel();
        return;
    }
    finish({}, McpError::make(McpError::Kind::Cancelled, QStringLiteral("Cancelled")));
}

void Invocation::sendRound(const QJsonObject &inputResponses, const std::optional<QString> &requestState)
{
    if (!m_client) {
        finish({}, McpError::make(McpError::Kind::Closed, QStringLiteral("Not connected to the server")));
        return;
    }
    QJsonObject params = m_params;
    if (m_progressToken.isEmpty())
        m_progressToken = QStringLiteral("folio-%1").arg(m_client->m_nextProgressToken++);
    {
        QJsonObject meta = params.value(QStringLiteral("_meta")).toObject();
        meta.insert(QStringLiteral("progressToken"), m_progressToken);
        params.insert(QStringLiteral("_meta"), meta);
        m_client->registerProgress(m_progressToken, this);
    }
    // Each retry carries only what this request's own last round asked for: never another
    // request's answers or state.
    if (!inputResponses.isEmpty())
        params.insert(inputResponsesKey, inputResponses);
    if (requestState.has_value())
        params.insert(requestStateKey, *requestState);

    m_rounds.append(Round());
    RpcCall *call = m_client->request(m_method, params, this, m_timeoutMs, m_headers);
    m_call = call;
    Round &round = m_rounds.last();
    round.id = call->id();
    round.params = call->params();
    round.sentAtMs = call->sentAtMs();
    connect(call, &RpcCall::finished, this, [this, call] { handleRound(call); });
    if (call->isFinished()) // "not connected" is said at once
        handleRound(call);
}

void Invocation::handleRound(RpcCall *call)
{
    call->deleteLater();
    if (m_call == call)
        m_call = nullptr;
    if (m_finished || m_rounds.isEmpty())
        return;
    Round &round = m_rounds.last();
    round.result = call->result();
    round.raw = call->rawResponse();
    round.error = call->error();
    round.receivedAtMs = call->receivedAtMs();
    round.latencyMs = call->latencyMs();
    if (round.sentAtMs == 0)
        round.sentAtMs = call->sentAtMs();
    const int index = int(m_rounds.size()) - 1;

    if (call->isError()) {
        Q_EMIT roundFinished(index);
        finish({}, call->error());
        return;
    }
    const QJsonObject result = call->result();
    const QJsonValue type = result.value(resultTypeKey);
    // A missing resultType is "complete" (and is what every 2025-era result looks like).
    // "task" (the 2026 tasks extension): the answer is the task, whose result comes later.
    if (type.isUndefined() || type == QLatin1String("complete") || type == QLatin1String("task")) {
        Q_EMIT roundFinished(index);
        finish(result, {});
        return;
    }
    if (type != QLatin1String("input_required")) {
        Q_EMIT roundFinished(index);
        finish({}, McpError::make(McpError::Kind::Protocol,
                                  QStringLiteral("The server answered %1 with an unknown resultType: %2")
                                      .arg(m_method, type.toVariant().toString())));
        return;
    }
    const QJsonValue requests = result.value(inputRequestsKey);
    const QJsonValue state = result.value(requestStateKey);
    std::optional<QString> requestState;
    if (state.isString())
        requestState = state.toString();
    else if (!state.isUndefined() && !state.isNull()) {
        Q_EMIT roundFinished(index);
        finish({}, McpError::make(McpError::Kind::Protocol,
                                  QStringLiteral("The server's requestState is not a string")));
        return;
    }
    if (!requests.isObject() && !requestState.has_value()) {
        Q_EMIT roundFinished(index);
        finish({}, McpError::make(McpError::Kind::Protocol,
                                  QStringLiteral("The server asked for input (input_required) but sent "
                                                 "neither inputRequests nor requestState")));
        return;
    }
    if (m_rounds.size() >= m_maxRounds) {
        Q_EMIT roundFinished(index);
        finish({}, McpError::make(McpError::Kind::Protocol,
                                  QStringLiteral("The server still asked for input after %1 rounds; Folio "
                                                 "stopped there")
                                      .arg(m_rounds.size())));
        return;
    }
    round.inputs = InputRequest::fromInputRequests(requests.toObject(), title());
    Q_EMIT roundFinished(index);
    answerInputs(requestState);
}

void Invocation::answerInputs(const std::optional<QString> &requestState)
{
    m_collected = {};
    m_pendingState = requestState;
    m_pendingInputs.clear();
    const QList<InputRequest> inputs = m_rounds.constLast().inputs;
    if (inputs.isEmpty()) {
        // Only state to carry back: the server keeps its place in it.
        sendRound({}, requestState);
        return;
    }
    QList<InputReply *> replies;
    for (const InputRequest &request : inputs) {
        auto *reply = new InputReply(request, this);
        m_pendingInputs.append(reply);
        replies.append(reply);
        connect(reply, &InputReply::replied, this,
                [this, reply](const QJsonObject &result, const McpError &error) {
                    inputReplied(reply, result, error);
                });
    }
    // Handed over only once all are connected: a responder may answer at once.
    for (InputReply *reply : replies) {
        if (m_finished)
            return;
        Q_EMIT inputRequested(reply);
        if (reply->isOpen() && m_client)
            m_client->handOver(reply);
    }
}

void Invocation::inputReplied(InputReply *reply, const QJsonObject &result, const McpError &error)
{
    if (m_finished)
        return;
    const QString key = reply->request().key;
    if (error.isError()) {
        // The input could not be given: the request cannot go on either. The server hears no more.
        finish({}, McpError::make(McpError::Kind::Cancelled,
                                  QStringLiteral("%1 was not answered: %2")
                                      .arg(InputRequest::kindName(reply->request().kind), error.describe())));
        return;
    }
    m_collected.insert(key, result);
    m_pendingInputs.removeAll(reply);
    reply->deleteLater();
    for (const QPointer<InputReply> &other : std::as_const(m_pendingInputs)) {
        if (other && other->isOpen())
            return;
    }
    m_pendingInputs.clear();
    const QJsonObject responses = m_collected;
    m_collected = {};
    sendRound(responses, m_pendingState);
}

void Invocation::handleProgress(const QJsonObject &params)
{
    if (m_finished)
        return;
    m_progress = params.value(QStringLiteral("progress")).toDouble(-1);
    const QJsonValue total = params.value(QStringLiteral("total"));
    m_progressTotal = total.isDouble() ? total.toDouble() : -1;
    m_progressMessage = params.value(QStringLiteral("message")).toString();
    Q_EMIT progressed(m_progress, m_progressTotal, m_progressMessage);
}

void Invocation::finish(const QJsonObject &result, const McpError &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_result = error.isError() ? QJsonObject() : result;
    m_error = error;
    for (const QPointer<InputReply> &reply : std::as_const(m_pendingInputs)) {
        if (reply)
            reply->withdraw();
    }
    m_pendingInputs.clear();
    if (m_call) {
        RpcCall *call = m_call;
        m_call = nullptr;
        if (!call->isFinished())
            call->cancel();
    }
    if (m_client && !m_progressToken.isEmpty())
        m_client->m_progress.remove(m_progressToken);
    qCDebug(lcMcp).noquote() << title() << "finished after" << m_rounds.size() << "round(s)"
                             << (error.isError() ? error.describe() : QString());
    Q_EMIT finished();
}

} // namespace folio
