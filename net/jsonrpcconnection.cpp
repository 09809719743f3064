#include "jsonrpcconnection.h"

#include "httpsupport.h"
#include "jsonslice.h"

#include "netlogging.h"

#include "rpccall.h"
#include "trafficlog.h"
#include "transport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

namespace folio {

namespace {
QString idText(const QJsonValue &id)
{
    return TrafficLog::idText(id);
}
} // namespace

JsonRpcConnection::JsonRpcConnection(Transport *transport, TrafficLog *log, QObject *parent)
    : QObject(parent)
    , m_transport(transport)
    , m_log(log)
{
    m_transport->setParent(this);
    m_transport->setFrameReader(this);
    connect(m_transport, &Transport::requestFailed, this, &JsonRpcConnection::handleRequestFailed);
    connect(m_transport, &Transport::closed, this, &JsonRpcConnection::handleClosed);
    connect(m_transport, &Transport::requestHeld, this, [this](const QJsonValue &id, bool held) {
        const QPointer<RpcCall> call = m_pending.value(idKey(id));
        QTimer *timer = call ? call->findChild<QTimer *>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
        if (!timer || call->isFinished())
            return;
        if (held)
            timer->stop();
        else
            timer->start(); // its whole timeout again, counted from the new send
    });
    connect(m_transport, &Transport::malformedMessage, this, &JsonRpcConnection::handleMalformed);
    if (m_log)
        m_log->setTransportName(m_transport->kindName());
    connect(m_transport, &Transport::httpExchanged, this, [this](const HttpExchange &exchange) {
        if (m_log)
            m_log->appendHttp(exchange);
    });
    connect(m_transport, &Transport::diagnostic, this, [this](const QString &line) {
        if (m_log)
            m_log->appendDiagnostic(line);
    });
    // "ping" is answered in every legacy revision; 2026 servers send no requests.
    setRequestHandler(QStringLiteral("ping"), [](const QJsonObject &, McpError *) { return QJsonObject(); });
}

JsonRpcConnection::~JsonRpcConnection()
{
    // Pending calls belong to their owners; tell them the connection is gone.
    const auto pending = m_pending;
    m_pending.clear();
    for (const auto &call : pending) {
        if (call)
            call->finishWithError(
                McpError::make(McpError::Kind::Closed, QStringLiteral("Connection closed")));
    }
}

void JsonRpcConnection::handleMalformed(const QByteArray &raw, const McpError &e)
{
    // Info, not a warning: the server's mistake is shown in the traffic log and the
    // findings, where it can be judged; on stderr it would only repeat them.
    qCInfo(lcRpc).noquote() << "malformed message ignored:" << e.describe() << raw.size() << "bytes";
    logEntry(TrafficLog::Direction::Incoming, QStringLiteral("(malformed)"), QString(), raw, true, -1);
    Q_EMIT protocolWarning(e, raw);
    // An over-cap frame cannot be parsed for its id; with exactly one request in flight it
    // can only be that request's answer, so fail it now rather than let it time out.
    if (e.kind == McpError::Kind::MessageTooLarge && m_pending.size() == 1) {
        const QPointer<RpcCall> call = m_pending.take(m_pending.constBegin().key());
        if (call)
            call->finishWithError(e);
        return;
    }
    // A message that is not JSON (nested past the parser's depth, a number out of range,
    // bytes that are not UTF-8) still names, as a rule, the request it answers: that
    // request fails now, with the reason, rather than at its timeout.
    const QJsonValue id = answeredId(raw);
    const QPointer<RpcCall> call = id.isUndefined() ? nullptr : m_pending.take(idKey(id));
    if (call)
        call->finishWithError(e);
}

void JsonRpcConnection::logEntry(TrafficLog::Direction direction, const QString &method, const QString &id,
                                 const QByteArray &text, bool isError, qint64 latencyMs, qint64 bytes)
{
    if (!m_log)
        return;
    TrafficLog::Entry entry;
    entry.direction = direction;
    entry.method = method;
    entry.id = id;
    entry.bytes = bytes < 0 ? text.size() : bytes;
    entry.text = text;
    entry.isError = isError;
    entry.latencyMs = latencyMs;
    entry.timestampMs = m_transport->clock()->wallMs();
    m_log->append(entry);
}

QJsonValue JsonRpcConnection::answeredId(const QByteArray &raw)
{
    // Only the top level is read, member by member, its values skipped by their brackets and
    // quotes: what made the message invalid inside them does not stop it (JsonSlice, fuzzed).
    const QByteArrayView names[] = {"id", "method"};
    QByteArrayView values[2];
    if (!JsonSlice::pickMembers(QByteArrayView(raw).trimmed(), names, values, 2) || !values[1].isNull() ||
        values[0].isEmpty() || values[0].size() > 1024)
        return QJsonValue(QJsonValue::Undefined);
    const QJsonValue id = QJsonDocument::fromJson("[" + values[0].toByteArray() + "]").array().at(0);
    return id.isDouble() || id.isString() ? id : QJsonValue(QJsonValue::Undefined);
}

QString JsonRpcConnection::idKey(const QJsonValue &id)
{
    return (id.isString() ? QStringLiteral("s:") : QStringLiteral("n:")) + idText(id);
}

RpcCall *JsonRpcConnection::request(const QString &method, const QJsonObject &params, int timeoutMs,
                                    QObject *owner, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    const QJsonValue id = QJsonValue(qint64(m_nextId++));
    auto *call = new RpcCall(id, method, params, owner ? owner : this);
    m_pending.insert(idKey(id), call);

    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("id"), id},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message[QStringLiteral("params")] = params;
    const QByteArray encoded = QJsonDocument(message).toJson(QJsonDocument::Compact);
    call->markSent(this, encoded.size(), m_transport->clock());
    qCDebug(lcRpc).noquote() << "->" << method << "id" << idText(id) << encoded.size() << "bytes";
    logEntry(TrafficLog::Direction::Outgoing, method, idText(id), encoded, false, -1);
    if (timeoutMs > 0) {
        // The timer is the call's child and stops when the call finishes: a timer left to fire for
        // every answered request (QTimer::singleShot outlives its context object) would keep one
        // registered timer per page of a long walk, each registration costing a scan of them all,
        // and wake the process for each of them a timeout later. The call may outlive the
        // connection (its owner keeps it): guard that.
        auto *timer = new QTimer(call);
        timer->setSingleShot(true);
        QPointer<JsonRpcConnection> self(this);
        connect(timer, &QTimer::timeout, call, [self, call] {
            if (self)
                self->onTimeout(call);
        });
        connect(call, &RpcCall::finished, timer, &QTimer::stop);
        timer->start(timeoutMs);
    }
    // If the owner deletes the call early, forget it.
    connect(call, &QObject::destroyed, this, [this, key = idKey(id)] { m_pending.remove(key); });
    m_transport->transmit(message, encoded, headers);
    return call;
}

void JsonRpcConnection::notify(const QString &method, const QJsonObject &params)
{
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message[QStringLiteral("params")] = params;
    sendMessage(message);
}

void JsonRpcConnection::sendMessage(const QJsonObject &message)
{
    const QByteArray encoded = QJsonDocument(message).toJson(QJsonDocument::Compact);
    logEntry(TrafficLog::Direction::Outgoing, message.value(QStringLiteral("method")).toString(),
             idText(message.value(QStringLiteral("id"))), encoded, message.contains(QStringLiteral("error")),
             -1);
    m_transport->transmit(message, encoded);
}

void JsonRpcConnection::cancel(RpcCall *call, const QString &reason)
{
    if (!call || call->isFinished())
        return;
    m_pending.remove(idKey(call->id()));
    qCDebug(lcRpc).noquote() << "cancelling" << call->method() << "id" << idText(call->id()) << reason;
    QJsonObject params{{QStringLiteral("requestId"), call->id()}};
    if (!reason.isEmpty())
        params[QStringLiteral("reason")] = reason;
    if (m_transport->isOpen())
        notify(QStringLiteral("notifications/cancelled"), params);
    m_transport->abandon(call->id());
    call->finishWithError(
        McpError::make(McpError::Kind::Cancelled, reason.isEmpty() ? QStringLiteral("Cancelled") : reason));
}

void JsonRpcConnection::setRequestHandler(const QString &method, RequestHandler handler)
{
    m_handlers.insert(method, std::move(handler));
}

void JsonRpcConnection::setAsyncRequestHandler(const QString &method, AsyncRequestHandler handler)
{
    m_asyncHandlers.insert(method, std::move(handler));
}

void JsonRpcConnection::onTimeout(RpcCall *call)
{
    if (call->isFinished())
        return;
    m_pending.remove(idKey(call->id()));
    qCInfo(lcRpc).noquote() << "no answer to" << call->method() << "id" << idText(call->id())
                            << "within the timeout";
    // Tell the server we gave up, so that it can stop working on it.
    if (m_transport->isOpen())
        notify(QStringLiteral("notifications/cancelled"),
               {{QStringLiteral("requestId"), call->id()},
                {QStringLiteral("reason"), QStringLiteral("timeout")}});
    // An answer that never ends (a stalled body, an endless SSE event) is not read any further.
    m_transport->abandon(call->id());
    McpError e = McpError::make(McpError::Kind::Timeout,
                                QStringLiteral("No answer to %1 within the timeout").arg(call->method()));
    call->finishWithError(e);
}

namespace {
// One frame as messages: an object, or a JSON-RPC batch (2025-03-26). Fails with a reason.
bool parseMessages(const QByteArray &frame, QList<QJsonObject> *messages, QString *why)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(frame, &err);
    if (err.error != QJsonParseError::NoError) {
        *why = jsonErrorText(err);
        return false;
    }
    if (doc.isObject()) {
        messages->append(doc.object());
        return true;
    }
    const QJsonArray batch = doc.array();
    if (!doc.isArray() || batch.isEmpty()) {
        *why = QStringLiteral("Not a JSON-RPC message object");
        return false;
    }
    for (const QJsonValue &v : batch) {
        if (!v.isObject()) {
            *why = QStringLiteral("A batch element is not a JSON object");
            return false;
        }
        messages->append(v.toObject());
    }
    return true;
}
} // namespace

FrameReceipt JsonRpcConnection::readFrame(const QByteArray &frame, const FrameOrigin &origin)
{
    FrameReceipt receipt;
    QJsonValue taken;
    if (!origin.errorStatus && takeListPage(frame, &taken)) {
        receipt.json = receipt.used = true;
        receipt.answered.append(taken);
        return receipt;
    }
    QList<QJsonObject> messages;
    QString why;
    if (!parseMessages(frame, &messages, &why)) {
        receipt.error = McpError::make(McpError::Kind::MalformedMessage, why);
        return receipt;
    }
    receipt.json = true;
    if (origin.errorStatus) {
        // An HTTP error's body counts only as JSON-RPC; an error in it without an id answers the
        // request the exchange carried. The raw bytes stay as sent.
        if (!messages.first().contains(QStringLiteral("jsonrpc")))
            return receipt;
        QJsonObject &only = messages.first();
        if (messages.size() == 1 && !origin.exchangeId.isNull() &&
            only.value(QStringLiteral("id")).isNull() && only.contains(QStringLiteral("error")))
            only[QStringLiteral("id")] = origin.exchangeId;
    }
    receipt.used = true;
    for (const QJsonObject &m : std::as_const(messages)) {
        const QJsonValue id = m.value(QStringLiteral("id"));
        if (!m.contains(QStringLiteral("method")) && !id.isNull() && !id.isUndefined())
            receipt.answered.append(id);
        // A message of a batch is logged as its own compact text.
        handleMessage(m, messages.size() == 1 ? frame : QJsonDocument(m).toJson(QJsonDocument::Compact));
    }
    return receipt;
}

bool JsonRpcConnection::takeListPage(const QByteArray &raw, QJsonValue *answeredId)
{
    if (m_pending.isEmpty())
        return false;
    // Anything that is not plainly the answer to a request that deferred its items goes the usual
    // way, which parses it whole and reports what is wrong with it.
    QPointer<RpcCall> call;
    DecodedReply reply;
    const auto itemsKeyFor = [this, &call](const QJsonValue &id) {
        call = m_pending.value(idKey(id));
        return call ? call->deferredItemsKey().toUtf8() : QByteArray();
    };
    constexpr qsizetype hugeMessage = 4 * 1024 * 1024;
    if (!m_decoder)
        m_decoder = std::make_unique<PageDecoder>();
    const bool decoded = m_decoder->decode(raw, itemsKeyFor, &reply);
    if (raw.size() > hugeMessage)
        m_decoder.reset();
    if (!decoded || !call)
        return false;
    call->takeItems(std::move(reply.items));
    *answeredId = reply.id;
    handleMessage(reply.message, raw);
    return true;
}

void JsonRpcConnection::handleMessage(const QJsonObject &message, const QByteArray &raw)
{
    const bool hasId =
        message.contains(QStringLiteral("id")) && !message.value(QStringLiteral("id")).isNull();
    const bool hasMethod = message.value(QStringLiteral("method")).isString();
    const bool isResponse =
        message.contains(QStringLiteral("result")) || message.contains(QStringLiteral("error"));

    if (message.value(QStringLiteral("jsonrpc")).toString() != QLatin1String("2.0") ||
        (!hasMethod && !isResponse)) {
        qCInfo(lcRpc) << "a message that is not JSON-RPC 2.0 was ignored," << raw.size() << "bytes";
        logEntry(TrafficLog::Direction::Incoming, QStringLiteral("(not JSON-RPC)"), QString(), raw, true, -1);
        Q_EMIT protocolWarning(
            McpError::make(McpError::Kind::MalformedMessage,
                           QStringLiteral("A message that is not JSON-RPC 2.0 was ignored")),
            raw);
        return;
    }

    if (isResponse && !hasMethod) {
        const QJsonValue id = message.value(QStringLiteral("id"));
        const QPointer<RpcCall> call = hasId ? m_pending.take(idKey(id)) : QPointer<RpcCall>();
        const qint64 latencyMs = call ? call->elapsedSinceSentMs() : -1;
        if (call)
            qCDebug(lcRpc).noquote() << "<-" << call->method() << "id" << idText(id)
                                     << (message.contains(QStringLiteral("error")) ? "error" : "result")
                                     << "in" << latencyMs << "ms," << raw.size() << "bytes";
        else // info: shown in the traffic log, like a malformed message
            qCInfo(lcRpc).noquote() << "a response for an unknown request id"
                                    << (idText(id).isEmpty() ? QStringLiteral("(none)") : idText(id))
                                    << "was ignored";
        logEntry(TrafficLog::Direction::Incoming, call ? call->method() : QString(), idText(id), raw,
                 message.contains(QStringLiteral("error")), latencyMs);
        if (!call) {
            Q_EMIT protocolWarning(
                McpError::make(McpError::Kind::Protocol,
                               QStringLiteral("A response for an unknown request id %1 was ignored")
                                   .arg(idText(id).isEmpty() ? QStringLiteral("(none)") : idText(id))),
                raw);
            return;
        }
        if (message.contains(QStringLiteral("error"))) {
            const QJsonObject err = message.value(QStringLiteral("error")).toObject();
            call->finishWithError(McpError::rpc(err.value(QStringLiteral("code")).toInt(),
                                                err.value(QStringLiteral("message")).toString(),
                                                err.value(QStringLiteral("data"))),
                                  raw);
        } else if (!message.value(QStringLiteral("result")).isObject()) {
            call->finishWithError(
                McpError::make(McpError::Kind::Protocol,
                               QStringLiteral("The result of %1 is not a JSON object").arg(call->method())),
                raw);
        } else {
            call->finishWithResult(message.value(QStringLiteral("result")).toObject(), raw);
        }
        return;
    }

    qCDebug(lcRpc).noquote() << "<-" << (hasId ? "request" : "notification")
                             << message.value(QStringLiteral("method")).toString();
    logEntry(TrafficLog::Direction::Incoming, message.value(QStringLiteral("method")).toString(),
             idText(message.value(QStringLiteral("id"))), raw, false, -1);
    if (hasId)
        handleServerRequest(message);
    else
        Q_EMIT notificationReceived(message.value(QStringLiteral("method")).toString(),
                                    message.value(QStringLiteral("params")).toObject(), raw);
}

void JsonRpcConnection::handleServerRequest(const QJsonObject &message)
{
    const QString method = message.value(QStringLiteral("method")).toString();
    const QJsonValue id = message.value(QStringLiteral("id"));
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    const auto async = m_asyncHandlers.constFind(method);
    if (async != m_asyncHandlers.constEnd()) {
        QPointer<JsonRpcConnection> self(this);
        auto answered = std::make_shared<bool>(false);
        (*async)(params, [self, id, answered](const QJsonObject &result, const McpError &error) {
            if (*answered || !self)
                return;
            *answered = true;
            self->sendReply(id, result, error);
        });
        return;
    }
    const auto handler = m_handlers.constFind(method);
    if (handler == m_handlers.constEnd()) {
        sendReply(id, {}, McpError::rpc(-32601, QStringLiteral("Method not supported by Folio: ") + method));
        return;
    }
    McpError error;
    const QJsonObject result = (*handler)(params, &error);
    sendReply(id, result, error);
}

void JsonRpcConnection::sendReply(const QJsonValue &id, const QJsonObject &result, const McpError &error)
{
    QJsonObject reply{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id}};
    if (error.isError()) {
        QJsonObject e{{QStringLiteral("code"), error.code}, {QStringLiteral("message"), error.message}};
        if (!error.data.isUndefined() && !error.data.isNull())
            e[QStringLiteral("data")] = error.data;
        reply[QStringLiteral("error")] = e;
    } else {
        reply[QStringLiteral("result")] = result;
    }
    if (m_transport->isOpen())
        sendMessage(reply);
}

void JsonRpcConnection::handleRequestFailed(const QJsonValue &id, const McpError &error)
{
    const QPointer<RpcCall> call = m_pending.take(idKey(id));
    const qint64 latencyMs = call ? call->elapsedSinceSentMs() : -1;
    qCDebug(lcRpc).noquote() << "x" << (call ? call->method() : QStringLiteral("(unknown)")) << "id"
                             << idText(id) << "failed after" << latencyMs << "ms:" << error.describe();
    logEntry(TrafficLog::Direction::Incoming, call ? call->method() : QString(), idText(id),
             error.describe().toUtf8(), true, latencyMs,
             0); // no message arrived: the text is Folio's description of the failure
    if (call)
        call->finishWithError(error);
}

void JsonRpcConnection::handleClosed(const McpError &error)
{
    qCDebug(lcRpc).noquote() << "transport closed"
                             << (error.isError() ? error.describe() : QStringLiteral("cleanly")) << "with"
                             << m_pending.size() << "requests pending";
    const auto pending = m_pending;
    m_pending.clear();
    McpError e = error;
    if (!e.isError())
        e = McpError::make(McpError::Kind::Closed, QStringLiteral("The connection was closed"));
    for (const auto &call : pending) {
        if (call)
            call->finishWithError(e);
    }
    Q_EMIT connectionClosed(error);
}

} // namespace folio
