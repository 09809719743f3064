#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QObject>

class QSocketNotifier;

namespace demo {

class DemoServer;

// The server's end of stdio: newline-delimited JSON-RPC read from stdin and written to stdout,
// one DemoExchange per request. Emits finished() when stdin closes.
class DemoStdioChannel : public QObject
{
    Q_OBJECT

public:
    DemoStdioChannel(DemoServer *server, QObject *parent = nullptr);

    void start();
    void writeMessage(const QJsonObject &message);
    void writeLine(QByteArray json); // one serialized message; the newline is added

Q_SIGNALS:
    void finished();

private:
    void handleReadable();

    DemoServer *m_server;
    QSocketNotifier *m_notifier = nullptr;
    QByteArray m_buffer;
};

} // namespace demo
