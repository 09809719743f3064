#pragma once

#include "transport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QList>

// JSON-RPC answers as a server sends them, for FakeTransport::receive().
namespace rpc {

inline QJsonObject result(const QJsonValue &id, const QJsonObject &result)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("result"), result}};
}

// An error answer; an undefined data leaves the member out.
inline QJsonObject error(const QJsonValue &id, int code, const QString &message,
                         const QJsonValue &data = QJsonValue::Undefined)
{
    QJsonObject e{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isUndefined())
        e.insert(QStringLiteral("data"), data);
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("error"), e}};
}

} // namespace rpc

// A transport seam for unit tests: records what is sent, lets the test inject what arrives.
class FakeTransport : public folio::Transport
{
    Q_OBJECT
public:
    using folio::Transport::Transport;

    void open() override
    {
        m_open = true;
        Q_EMIT opened();
    }
    void send(const QJsonObject &message, const QByteArray &) override { sent.append(message); }
    void close() override
    {
        m_open = false;
        Q_EMIT closed({});
    }
    bool isOpen() const override { return m_open; }
    QString kindName() const override { return QStringLiteral("fake"); }

    void receive(const QJsonObject &message)
    {
        receiveRaw(QJsonDocument(message).toJson(QJsonDocument::Compact));
    }
    // Like a real transport: the frame is handed up as it came, for the connection to read.
    folio::FrameReceipt receiveRaw(const QByteArray &raw, const folio::FrameOrigin &origin = {})
    {
        const folio::FrameReceipt receipt = handUp(raw, origin);
        lastAnswered = receipt.answered;
        return receipt;
    }
    void drop(const folio::McpError &error)
    {
        m_open = false;
        Q_EMIT closed(error);
    }

    QList<QJsonObject> sent;
    QList<QJsonValue> lastAnswered; // the requests the last frame answered

private:
    bool m_open = true;
};
