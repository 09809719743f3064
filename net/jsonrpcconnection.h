#pragma once

#include "mcperror.h"
#include "pagedecoder.h"
#include "trafficlog.h"
#include "transport.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>

namespace folio {

class RpcCall;

// JSON-RPC 2.0 over a Transport: ids, a pending-request table with per-request timeouts,
// cancellation, routing of notifications, and answers to server->client requests. It reads the
// frames its transport hands up: a list page that deferred its items by the page decoder, anything
// else parsed whole (an object, or a batch).
class JsonRpcConnection : public QObject, private FrameReader
{
    Q_OBJECT
public:
    // Takes ownership of the transport.
    JsonRpcConnection(Transport *transport, TrafficLog *log, QObject *parent = nullptr);
    ~JsonRpcConnection() override;

    Transport *transport() const { return m_transport; }

    // Sends a request; the returned call is parented to `owner` (or this) and finishes exactly once.
    // headers: extra HTTP headers for this message (Mcp-Param-*); other transports ignore them.
    RpcCall *request(const QString &method, const QJsonObject &params, int timeoutMs,
                     QObject *owner = nullptr, const QList<QPair<QByteArray, QByteArray>> &headers = {});
    void notify(const QString &method, const QJsonObject &params = {});
    // Sends notifications/cancelled for the call and finishes it with Kind::Cancelled.
    void cancel(RpcCall *call, const QString &reason = {});

    // A handler for a server->client request; returns the result, or sets *error.
    using RequestHandler = std::function<QJsonObject(const QJsonObject &params, McpError *error)>;
    void setRequestHandler(const QString &method, RequestHandler handler);
    // One that answers later (a dialog): it calls reply exactly once; a reply after the connection
    // is gone is dropped.
    using Reply = std::function<void(const QJsonObject &result, const McpError &error)>;
    using AsyncRequestHandler = std::function<void(const QJsonObject &params, Reply reply)>;
    void setAsyncRequestHandler(const QString &method, AsyncRequestHandler handler);

    int pendingCount() const { return int(m_pending.size()); }

Q_SIGNALS:
    void notificationReceived(const QString &method, const QJsonObject &params, const QByteArray &raw);
    // A message that could not be used (malformed, unknown id, not JSON-RPC). The connection stays.
    void protocolWarning(const McpError &error, const QByteArray &raw);
    // The transport closed; every pending call has already finished with Kind::Closed.
    void connectionClosed(const McpError &error);

private:
    FrameReceipt readFrame(const QByteArray &frame, const FrameOrigin &origin) override;
    void handleMessage(const QJsonObject &message, const QByteArray &raw);
    void handleMalformed(const QByteArray &raw, const McpError &error);
    // A list page whose request deferred its items (RpcCall::deferItems), read by m_decoder.
    bool takeListPage(const QByteArray &raw, QJsonValue *answeredId);
    void handleRequestFailed(const QJsonValue &id, const McpError &error);
    void handleClosed(const McpError &error);
    void handleServerRequest(const QJsonObject &message);
    void sendMessage(const QJsonObject &message);
    void sendReply(const QJsonValue &id, const QJsonObject &result, const McpError &error);
    void onTimeout(RpcCall *call);
    static QString idKey(const QJsonValue &id);
    // The top-level "id" of a message that is not valid JSON, when it has one and no "method"
    // (it answers a request); undefined otherwise.
    static QJsonValue answeredId(const QByteArray &raw);
    void logEntry(TrafficLog::Direction direction, const QString &method, const QString &id,
                  const QByteArray &text, bool isError = false, qint64 latencyMs = -1, qint64 bytes = -1);

    Transport *m_transport;
    QPointer<TrafficLog> m_log;
    qint64 m_nextId = 1;
    QHash<QString, QPointer<RpcCall>> m_pending;
    QHash<QString, RequestHandler> m_handlers;
    QHash<QString, AsyncRequestHandler> m_asyncHandlers;
    // Kept across a walk's pages (it reuses its parser and buffers), dropped after a huge message so
    // that its buffers (about 7 bytes a byte read) do not stay that size.
    std::unique_ptr<PageDecoder> m_decoder;
};

} // namespace folio
