#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QObject>

class McpServer;
class QSocketNotifier;

// Newline-delimited JSON-RPC on stdin/stdout. Emits finished() when stdin closes.
class StdioTransport : public QObject
{
    Q_OBJECT

public:
    StdioTransport(McpServer *server, QObject *parent = nullptr);

    void start();
    void writeMessage(const QJsonObject &message);
    void writeLine(QByteArray json); // one serialized message; the newline is added

Q_SIGNALS:
    void finished();

private:
    void handleReadable();

    McpServer *m_server;
    QSocketNotifier *m_notifier = nullptr;
    QByteArray m_buffer;
};
