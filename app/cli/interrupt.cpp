#include "interrupt.h"

#include "clilogging.h"

#include <QPointer>
#include <QSocketNotifier>

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

namespace folio {

namespace {

// The write end the handler writes to; -1 when no Interrupt lives.
volatile std::sig_atomic_t writeFd = -1;

// Async-signal-safe: one write(2) of the signal's number, errno left as it was. A full socket
// (signals faster than the event loop reads them) drops the byte: the ones before it still tell.
extern "C" void onSignal(int signal)
{
    const int savedErrno = errno;
    const int fd = writeFd;
    if (fd >= 0) {
        const unsigned char byte = static_cast<unsigned char>(signal);
        if (::write(fd, &byte, 1) < 0) {
            // Nothing to do from here.
        }
    }
    errno = savedErrno;
}

// Puts onSignal in place for signal unless the process was started with it ignored.
bool install(int signal, struct sigaction *previous)
{
    if (::sigaction(signal, nullptr, previous) != 0 || previous->sa_handler == SIG_IGN)
        return false;
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return ::sigaction(signal, &action, nullptr) == 0;
}

} // namespace

Interrupt::Interrupt(QObject *parent)
    : QObject(parent)
{
    Q_ASSERT(writeFd < 0); // one at a time
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, m_fds) != 0) {
        qCInfo(lcCli) << "no socketpair for the signal handlers:" << strerror(errno)
                      << "- SIGINT and SIGTERM end Folio as they would";
        m_fds[0] = m_fds[1] = -1;
        return;
    }
    m_notifier = new QSocketNotifier(m_fds[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &Interrupt::readSignals);
    writeFd = m_fds[0];
    m_installedInt = install(SIGINT, &m_previousInt);
    m_installedTerm = install(SIGTERM, &m_previousTerm);
}

Interrupt::~Interrupt()
{
    if (m_installedTerm)
        ::sigaction(SIGTERM, &m_previousTerm, nullptr);
    if (m_installedInt)
        ::sigaction(SIGINT, &m_previousInt, nullptr);
    writeFd = -1;
    delete m_notifier;
    for (int fd : m_fds) {
        if (fd >= 0)
            ::close(fd);
    }
}

QString Interrupt::signalName(int signal)
{
    switch (signal) {
    case SIGINT:
        return QStringLiteral("SIGINT");
    case SIGTERM:
        return QStringLiteral("SIGTERM");
    default:
        return QStringLiteral("signal %1").arg(signal);
    }
}

void Interrupt::readSignals()
{
    const QPointer<Interrupt> self(this); // a receiver may end us
    unsigned char bytes[16];
    while (self) {
        const ssize_t n = ::read(m_fds[1], bytes, sizeof bytes);
        if (n <= 0)
            return; // EAGAIN: all read
        for (ssize_t i = 0; i < n && self; ++i) {
            ++m_count;
            qCDebug(lcCli).noquote() << signalName(bytes[i]) << "received (" << m_count << ")";
            Q_EMIT received(bytes[i], m_count);
        }
    }
}

} // namespace folio
