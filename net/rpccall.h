#pragma once

#include "clock.h"
#include "itemtexts.h"
#include "mcperror.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <memory>

namespace folio {

class JsonRpcConnection;

// One JSON-RPC request in flight, then its outcome. Owned by whoever asked for it; finished() is
// emitted exactly once (success, error, timeout, cancel or connection loss).
class RpcCall : public QObject
{
    Q_OBJECT
public:
    RpcCall(const QJsonValue &id, const QString &method, const QJsonObject &params, QObject *parent);

    QJsonValue id() const { return m_id; }
    QString method() const { return m_method; }
    QJsonObject params() const { return m_params; }

    bool isFinished() const { return m_finished; }
    bool isError() const { return m_error.isError(); }
    // The result object exactly as parsed; empty on error.
    QJsonObject result() const { return m_result; }
    McpError error() const { return m_error; }
    // The exact bytes of the response message (empty when the failure was not a message).
    QByteArray rawResponse() const { return m_raw; }
    qint64 requestBytes() const { return m_requestBytes; }
    qint64 responseBytes() const { return m_raw.size(); }
    qint64 latencyMs() const { return m_latencyMs; }
    qint64 sentAtMs() const { return m_sentAtMs; }         // wall clock (the connection's), ms since epoch
    qint64 receivedAtMs() const { return m_receivedAtMs; } // wall clock (the connection's), ms since epoch

    // Cancels the request: notifies the server and finishes with Kind::Cancelled.
    void cancel();

    // A request that could not be sent (no connection): it fails with error on the next turn of
    // the event loop, so that its owner has connected to finished().
    static RpcCall *failLater(const QString &method, const QJsonObject &params, const McpError &error,
                              QObject *parent);

    // For a list page: asks the connection to cut the array result.<key> out of the reply's raw
    // text (checked to be JSON first) instead of parsing it. When it did, itemsDeferred() is true,
    // result() holds that member as an empty array, and each item's compact JSON is in
    // deferredItems(). Otherwise the reply is parsed whole, as usual.
    void deferItems(const QString &key) { m_deferredKey = key; }
    QString deferredItemsKey() const { return m_deferredKey; }
    bool itemsDeferred() const { return m_itemsDeferred; }
    const ItemTexts &deferredItems() const { return m_items; }

Q_SIGNALS:
    void finished();

private:
    // What the connection that sent it tells it, and only that connection.
    friend class JsonRpcConnection;
    void markSent(JsonRpcConnection *connection, qint64 bytes, std::shared_ptr<const Clock> clock);
    void takeItems(ItemTexts items);
    void markReceived();
    // Milliseconds since it was sent, on the connection's clock; -1 before.
    qint64 elapsedSinceSentMs() const
    {
        return m_sentMonoMs >= 0 && m_clock ? m_clock->monoMs() - m_sentMonoMs : -1;
    }
    void finishWithResult(const QJsonObject &result, const QByteArray &raw);
    void finishWithError(const McpError &error, const QByteArray &raw = {});

    QJsonValue m_id;
    QString m_method;
    QJsonObject m_params;
    QJsonObject m_result;
    McpError m_error;
    QByteArray m_raw;
    QString m_deferredKey;
    bool m_itemsDeferred = false;
    ItemTexts m_items;
    std::shared_ptr<const Clock> m_clock; // the connection's, from markSent on
    qint64 m_sentMonoMs = -1;
    qint64 m_requestBytes = 0;
    qint64 m_latencyMs = -1;
    qint64 m_sentAtMs = 0;
    qint64 m_receivedAtMs = 0;
    bool m_finished = false;
    QPointer<JsonRpcConnection> m_connection;
};

} // namespace folio
