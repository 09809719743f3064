#pragma once

#include "transport.h"

#include <QJsonDocument>
#include <QList>

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
        Q_EMIT messageReceived(message, QJsonDocument(message).toJson(QJsonDocument::Compact));
    }
    // Like a real transport: offered to the connection's raw hook first, then parsed.
    void receiveRaw(const QByteArray &raw)
    {
        QJsonValue answered;
        if (offerRaw(raw, &answered)) {
            lastTakenId = answered;
            return;
        }
        const QJsonDocument doc = QJsonDocument::fromJson(raw);
        if (doc.isObject())
            Q_EMIT messageReceived(doc.object(), raw);
        else
            Q_EMIT malformedMessage(raw, folio::McpError::make(folio::McpError::Kind::MalformedMessage,
                                                               QStringLiteral("Not JSON")));
    }
    void drop(const folio::McpError &error)
    {
        m_open = false;
        Q_EMIT closed(error);
    }

    QList<QJsonObject> sent;
    QJsonValue lastTakenId; // the id the raw hook answered last

private:
    bool m_open = true;
};
