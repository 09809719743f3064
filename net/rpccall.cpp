#include "rpccall.h"

#include "jsonrpcconnection.h"

#include <QDateTime>

namespace folio {

RpcCall::RpcCall(const QJsonValue &id, const QString &method, const QJsonObject &params, QObject *parent)
    : QObject(parent)
    , m_id(id)
    , m_method(method)
    , m_params(params)
{}

void RpcCall::cancel()
{
    if (m_finished)
        return;
    if (m_connection)
        m_connection->cancel(this);
    else
        finishWithError(McpError::make(McpError::Kind::Cancelled, QStringLiteral("Cancelled")));
}

RpcCall *RpcCall::failLater(const QString &method, const QJsonObject &params, const McpError &error,
                            QObject *parent)
{
    auto *call = new RpcCall(QJsonValue(), method, params, parent);
    QMetaObject::invokeMethod(
        call, [call, error] { call->finishWithError(error); }, Qt::QueuedConnection);
    return call;
}

void RpcCall::markSent(JsonRpcConnection *connection, qint64 bytes, std::shared_ptr<const Clock> clock)
{
    m_connection = connection;
    m_requestBytes = bytes;
    m_clock = std::move(clock);
    m_sentAtMs = m_clock->wallMs();
    m_sentMonoMs = m_clock->monoMs();
}

void RpcCall::takeItems(ItemTexts items)
{
    m_itemsDeferred = true;
    m_items = std::move(items);
}

void RpcCall::markReceived()
{
    const std::shared_ptr<const Clock> clock = m_clock ? m_clock : Clock::system();
    m_latencyMs = m_sentMonoMs >= 0 ? clock->monoMs() - m_sentMonoMs : -1;
    m_receivedAtMs = clock->wallMs();
}

void RpcCall::finishWithResult(const QJsonObject &result, const QByteArray &raw)
{
    if (m_finished)
        return;
    m_finished = true;
    m_result = result;
    m_raw = raw;
    markReceived();
    Q_EMIT finished();
}

void RpcCall::finishWithError(const McpError &error, const QByteArray &raw)
{
    if (m_finished)
        return;
    m_finished = true;
    m_error = error;
    m_raw = raw;
    markReceived();
    Q_EMIT finished();
}

} // namespace folio
