#include "taprelay.h"

#include "mcperror.h"
#include "netlogging.h"
#include "sessionrecording.h"
#include "stdiotransport.h"

#include <QSocketNotifier>

#include <cerrno>
#include <sys/select.h>
#include <unistd.h>

namespace folio {

namespace {
constexpr qsizetype readChunk = 64 * 1024;
// The client's ends: Folio's own stdin (what the client writes) and stdout (what it reads).
constexpr int clientReadFd = STDIN_FILENO;
constexpr int clientWriteFd = STDOUT_FILENO;
// What the server's stdin may hold unread before Folio stops reading the client: a server that
// does not read holds the client back, as it would without Folio, instead of Folio's memory.
constexpr qsizetype maxPendingInput = 16 * 1024 * 1024;
} // namespace

TapRelay::TapRelay(QObject *parent)
    : QObject(parent)
    , m_server(new StdioTransport(this))
{
    m_server->setRelay(true);
    // While the client reads, a server that writes is not hung (until the client's end closes).
    m_server->setGraceFromLastOutput(true);
    connect(m_server, &StdioTransport::opened, this, [this] {
        m_clientIn = new QSocketNotifier(clientReadFd, QSocketNotifier::Read, this);
        connect(m_clientIn, &QSocketNotifier::activated, this, &TapRelay::readClient);
    });
    connect(m_server, &StdioTransport::relayed, this, [this](const QByteArray &bytes) {
        writeClient(bytes);
        tell(From::Server, &m_fromServer, bytes);
    });
    connect(m_server, &StdioTransport::inputDrained, this, [this] {
        if (m_clientIn && !m_clientGone)
            m_clientIn->setEnabled(true);
    });
    connect(m_server, &Transport::closed, this, [this](const McpError &error) {
        onServerClosed(error.message, error.kind == McpError::Kind::SpawnFailed);
    });
}

TapRelay::~TapRelay() = default;

void TapRelay::setProgram(const QString &program, const QStringList &arguments)
{
    m_server->setProgram(program, arguments);
}

void TapRelay::setShutdownGraceMs(int ms)
{
    m_server->setShutdownGraceMs(ms);
}

void TapRelay::setRecorder(SessionRecorder *recorder)
{
    m_recorder = recorder;
    if (recorder)
        recorder->attach(m_server);
}

qint64 TapRelay::elapsedMs() const
{
    return m_clock.isValid() ? m_clock.elapsed() : 0;
}

qint64 TapRelay::untoldLines(From from) const
{
    return m_untold[from == From::Client ? 0 : 1];
}

void TapRelay::start()
{
    m_clock.start();
    m_server->open();
}

void TapRelay::readClient()
{
    QByteArray buffer(readChunk, Qt::Uninitialized);
    // One read() of a descriptor that said it is readable: it does not block, and the descriptor
    // (the client's pipe, shared with the client) is left as it was given, blocking or not.
    const ssize_t n = ::read(clientReadFd, buffer.data(), size_t(buffer.size()));
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
        return;
    if (n <= 0) {
        qCInfo(lcStdio) << "tap: the client closed its end" << (n < 0 ? "with an error" : "");
        stopReadingClient();
        return;
    }
    buffer.truncate(n);
    m_server->sendBytes(buffer);
    tell(From::Client, &m_fromClient, buffer);
    if (m_server->pendingInputBytes() > maxPendingInput)
        m_clientIn->setEnabled(false); // again when the server has read it (inputDrained)
}

void TapRelay::writeClient(const QByteArray &bytes)
{
    // Blocking writes, in order: a client that does not read holds the server back (its stdout
    // pipe fills), as it would with no Folio between them.
    qsizetype done = 0;
    while (!m_writeFailed && done < bytes.size()) {
        const ssize_t n = ::write(clientWriteFd, bytes.constData() + done, size_t(bytes.size() - done));
        if (n > 0) {
            done += n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            // A descriptor given non-blocking: wait for room rather than drop bytes.
            fd_set out;
            FD_ZERO(&out);
            FD_SET(clientWriteFd, &out);
            ::select(clientWriteFd + 1, nullptr, &out, nullptr, nullptr);
        } else {
            qCInfo(lcStdio) << "tap: the client's end of stdout is closed";
            m_writeFailed = true; // SIGPIPE is ignored (StdioTransport::open)
            // Nobody takes what the server writes now: it is stopped after the grace, however
            // much it still writes.
            m_server->setGraceFromLastOutput(false);
            stopReadingClient();
        }
    }
}

void TapRelay::tell(From from, LineFramer *framer, QByteArrayView bytes)
{
    const LineFramer::Result lines = framer->feed(bytes);
    m_untold[from == From::Client ? 0 : 1] += lines.oversizedStarted;
    const qint64 t = elapsedMs();
    for (const QByteArray &line : lines.lines) {
        if (m_recorder && from == From::Client)
            m_recorder->noteSent(line);
        else if (m_recorder)
            m_recorder->noteOffered(line);
        Q_EMIT framePassed(from, line, t);
    }
}

void TapRelay::stopReadingClient()
{
    if (m_clientGone)
        return;
    m_clientGone = true;
    if (m_clientIn)
        m_clientIn->setEnabled(false);
    Q_EMIT clientGone(elapsedMs());
    // The server's stdin closes once what the client wrote has reached it; then it is stopped as
    // every stdio server is (SIGTERM after the grace period, then SIGKILL).
    m_server->close();
}

void TapRelay::onServerClosed(const QString &why, bool spawnFailed)
{
    if (m_clientIn)
        m_clientIn->setEnabled(false);
    m_exitStatus = spawnFailed ? 127 : qMax(0, m_server->exitStatus());
    Q_EMIT finished(m_exitStatus, why);
}

} // namespace folio
