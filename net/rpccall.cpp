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

void RpcCall::markSent(qint64 bytes)
{
    m_requestBytes = bytes;
    m_sentAtMs = QDateTime::currentMSecsSinceEpoch();
    m_timer.start();
}

void RpcCall::finishWithResult(const QJsonObject &result, const QByteArray &raw)
{
    if (m_finished)
        return;
    m_finished = true;
    m_result = result;
    m_raw = raw;
    m_latencyMs = m_timer.isValid() ? m_timer.elapsed() : -1;
    m_receivedAtMs = QDateTime::currentMSecsSinceEpoch();
    Q_EMIT finished();
}

void RpcCall::finishWithError(const McpError &error, const QByteArray &raw)
{
    if (m_finished)
        return;
    m_finished = true;
    m_error = error;
    m_raw = raw;
    m_latencyMs = m_timer.isValid() ? m_timer.elapsed() : -1;
    m_receivedAtMs = QDateTime::currentMSecsSinceEpoch();
    Q_EMIT finished();
}

} // namespace folio
