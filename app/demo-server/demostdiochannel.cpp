#include "demostdiochannel.h"

#include "demoexchange.h"
#include "demoserver.h"

#include <QJsonDocument>
#include <QSocketNotifier>

#include <cerrno>
#include <unistd.h>

namespace demo {

namespace {

// On stdio every exchange writes to the same stdout; one object per request keeps the server's
// bookkeeping (delayed answers, subscriptions) the same as on HTTP.
class StdioExchange : public DemoExchange
{
public:
    StdioExchange(DemoStdioChannel *channel, bool persistent)
        : DemoExchange(channel)
        , m_channel(channel)
        , m_persistent(persistent)
    {}

    bool isHttp() const override { return false; }
    void replyJson(const QByteArray &message, int) override
    {
        if (!message.isEmpty())
            m_channel->writeLine(message);
        done();
    }
    void accept() override { done(); }
    void refuse(int, const QByteArray &) override { done(); }
    void startStream() override {}
    void push(const QJsonObject &message) override
    {
        // A subscription never replies, so it stays until cancelled; a tool run's progress is
        // followed by its reply, which ends it as usual.
        m_channel->writeMessage(message);
    }

private:
    void done()
    {
        if (!m_persistent)
            deleteLater();
    }

    DemoStdioChannel *m_channel;
    bool m_persistent;
};

} // namespace

DemoStdioChannel::DemoStdioChannel(DemoServer *server, QObject *parent)
    : QObject(parent)
    , m_server(server)
{}

void DemoStdioChannel::start()
{
    m_server->setStdioStream(new StdioExchange(this, true));
    m_notifier = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &DemoStdioChannel::handleReadable);
}

void DemoStdioChannel::writeMessage(const QJsonObject &message)
{
    writeLine(QJsonDocument(message).toJson(QJsonDocument::Compact));
}

void DemoStdioChannel::writeLine(QByteArray line)
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

void DemoStdioChannel::handleReadable()
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

} // namespace demo
