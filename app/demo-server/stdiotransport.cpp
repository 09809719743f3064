#include "stdiotransport.h"

#include "exchange.h"
#include "mcpserver.h"

#include <QJsonDocument>
#include <QSocketNotifier>

#include <cerrno>
#include <unistd.h>

namespace {

// On stdio every exchange writes to the same stdout; one object per request keeps the server's
// bookkeeping (delayed answers, subscriptions) the same as on HTTP.
class StdioExchange : public Exchange
{
public:
    StdioExchange(StdioTransport *transport, bool persistent)
        : Exchange(transport)
        , m_transport(transport)
        , m_persistent(persistent)
    {}

    bool isHttp() const override { return false; }
    void replyJson(const QByteArray &message, int) override
    {
        if (!message.isEmpty())
            m_transport->writeLine(message);
        done();
    }
    void accept() override { done(); }
    void refuse(int, const QByteArray &) override { done(); }
    void startStream() override {}
    void push(const QJsonObject &message) override
    {
        m_persistent = true; // a subscription: stays until cancelled
        m_transport->writeMessage(message);
    }

private:
    void done()
    {
        if (!m_persistent)
            deleteLater();
    }

    StdioTransport *m_transport;
    bool m_persistent;
};

} // namespace

StdioTransport::StdioTransport(McpServer *server, QObject *parent)
    : QObject(parent)
    , m_server(server)
{}

void StdioTransport::start()
{
    m_server->setStdioStream(new StdioExchange(this, true));
    m_notifier = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &StdioTransport::handleReadable);
}

void StdioTransport::writeMessage(const QJsonObject &message)
{
    writeLine(QJsonDocument(message).toJson(QJsonDocument::Compact));
}

void StdioTransport::writeLine(QByteArray line)
{
    line.append('\n');
    const char *data = line.constData();
    qsizetype left = line.size();
    while (left > 0) {
        const ssize_t written = ::write(STDOUT_FILENO, data, size_t(left));
        if (written < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return; // the client is gone; stdin EOF will end us
        }
        data += written;
        left -= written;
    }
}

void StdioTransport::handleReadable()
{
    char chunk[65536];
    const ssize_t got = ::read(STDIN_FILENO, chunk, sizeof chunk);
    if (got < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (got <= 0) {
        m_notifier->setEnabled(false);
        Q_EMIT finished();
        return;
    }
    m_buffer.append(chunk, got);
    qsizetype newline;
    while ((newline = m_buffer.indexOf('\n')) >= 0) {
        QByteArray line = m_buffer.left(newline).trimmed();
        m_buffer.remove(0, newline + 1);
        if (line.isEmpty())
            continue;
        m_server->handleMessage(line, new StdioExchange(this, false), {});
    }
}
