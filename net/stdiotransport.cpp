#include "stdiotransport.h"

#include "httpsupport.h"
#include "netlogging.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QPointer>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSocketNotifier>
#include <QTimer>

#ifdef Q_OS_LINUX
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#endif
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace folio {

namespace {
constexpr int stderrTailLines = 50;
// How long open() waits for the exec before leaving it to the event loop.
constexpr int startedWaitMs = 200;

#ifdef Q_OS_LINUX
// The watcher's program: /bin/sh (dash on Debian), with the lifeline as its standard input. `read`
// returns at the pipe's end; then the group is killed (its id, "-PGID", is $1). Nothing but shell
// builtins, so nothing else is started. A group already gone makes kill fail, quietly.
constexpr char watcherShell[] = "/bin/sh";
constexpr char watcherScript[] = "while read -r line; do :; done; kill -s KILL -- \"$1\" 2>/dev/null";

// "-<pid>" into out (at least 24 bytes), without allocating: this runs between fork and exec.
void formatGroupArgument(pid_t group, char *out)
{
    char digits[20];
    int n = 0;
    for (unsigned long v = static_cast<unsigned long>(group); n == 0 || v > 0; v /= 10)
        digits[n++] = char('0' + v % 10);
    int i = 0;
    out[i++] = '-';
    while (n > 0)
        out[i++] = digits[--n];
    out[i] = '\0';
}

// In the server's child before its exec (async-signal-safe calls only): leaves behind a watcher
// that kills the server's process group once Folio is gone, however it went. PR_SET_PDEATHSIG
// kills the server itself, but not what the server forked: those are the server's children, and
// with Folio killed nobody would be left to stop their group. The watcher holds the read end of a
// pipe whose only write end is Folio's (the lifeline); the kernel closes it when Folio exits, and
// read() returning 0 is the sign. Folio closes it on purpose once the group is gone
// (closeLifeline()). The watcher is started twice removed so that it is nobody's child but
// init's (the server never sees it in wait()), and sits in a group of its own, out of the group it
// watches.
//
// It is a small program of its own (the shell), started with clone(CLONE_VM | CLONE_VFORK) and
// exec: no copy of Folio.
// It used to be a fork of this child, which shares Folio's memory: each fork copied the page
// tables of all of Folio, with Folio stopped meanwhile (the child is a vfork child), and left a
// process holding every page Folio had, so Folio's next write to each of them copied it. That was
// about 11 ms of every stdio start (docs/benchmarks.md), and more the more memory Folio held.

// What the two processes that start the watcher need: they share the server's child's memory
// (and so Folio's) until the watcher's exec, each on a stack of its own.
struct WatcherLaunch
{
    int watchFd;
    char *const *argv;
    char *const *envp;
    char *watcherStackTop;
};

// The watcher, until its exec: a group of its own, the lifeline as its standard input, nothing
// else open.
int execWatcher(void *arg)
{
    const auto *launch = static_cast<const WatcherLaunch *>(arg);
    ::setpgid(0, 0);
    if (launch->watchFd == STDIN_FILENO)
        ::fcntl(launch->watchFd, F_SETFD, 0); // the lifeline is on close-on-exec
    else if (::dup2(launch->watchFd, STDIN_FILENO) < 0)
        ::_exit(127);
    // Only the lifeline stays open: the server's pipes and the lifeline's write end must not be
    // held here (Folio would never see the server's stdout end, nor the lifeline close).
    if (::close_range(1, ~0U, 0) != 0) {
        for (int fd = 1; fd < 4096; ++fd)
            ::close(fd);
    }
    ::execve(watcherShell, launch->argv, launch->envp);
    ::_exit(127);
}

// Between the server's child and the watcher: starts the watcher and leaves, so that the watcher
// is orphaned at once (nobody's child but init's: the server never sees it in wait()).
int orphanWatcher(void *arg)
{
    const auto *launch = static_cast<const WatcherLaunch *>(arg);
    ::clone(execWatcher, launch->watcherStackTop, CLONE_VM | CLONE_VFORK | SIGCHLD, arg);
    ::_exit(0);
}

void startGroupWatcher(int watchFd)
{
    const pid_t server = ::getpid(); // after setsid(): the server's group
    if (server <= 1)
        return; // "kill -- -1" would be every process there is
    char group[24];
    formatGroupArgument(server, group);
    char *const argv[] = {const_cast<char *>("folio-group-watcher"),
                          const_cast<char *>("-c"),
                          const_cast<char *>(watcherScript),
                          const_cast<char *>("folio-group-watcher"),
                          group,
                          nullptr};
    char *const envp[] = {nullptr};
    // clone() with stacks of their own, not vfork() within vfork(): a vfork child may not vfork
    // (POSIX), and AddressSanitizer's vfork() keeps one return address for both, so the server's
    // child returned as the middle process and exited. The stacks are mapped here, in memory
    // shared with Folio, and unmapped once both are done with them: the middle process has exited
    // (CLONE_VFORK), and it waited for the watcher's exec.
    constexpr size_t stackSize = 64 * 1024;
    void *stacks = ::mmap(nullptr, 2 * stackSize, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stacks == MAP_FAILED)
        return;
    char *base = static_cast<char *>(stacks);
    WatcherLaunch launch{watchFd, argv, envp, base + 2 * stackSize};
    const pid_t middle = ::clone(orphanWatcher, base + stackSize, CLONE_VM | CLONE_VFORK | SIGCHLD, &launch);
    if (middle > 0) {
        int status = 0;
        while (::waitpid(middle, &status, 0) < 0 && errno == EINTR) {
        }
    }
    ::munmap(stacks, 2 * stackSize);
}
#endif
} // namespace

StdioTransport::StdioTransport(QObject *parent)
    : Transport(parent)
    , m_process(new QProcess(this))
{
    connect(m_process, &QProcess::readyReadStandardOutput, this, &StdioTransport::handleStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &StdioTransport::handleStderr);
    connect(m_process, &QProcess::finished, this, &StdioTransport::handleFinished);
    connect(m_process, &QProcess::errorOccurred, this, &StdioTransport::handleError);
    connect(m_process, &QProcess::started, this, [this] {
        m_started = true;
        m_group = m_process->processId(); // setsid(): the group's id is the server's pid
        qCInfo(lcStdio) << "started" << m_program << "pid" << m_process->processId();
        Q_EMIT opened();
    });
}

StdioTransport::~StdioTransport()
{
    if (m_process->state() != QProcess::NotRunning) {
        // Destruction cannot wait for a graceful exit: make sure no child outlives us.
        qCInfo(lcStdio) << "killing" << m_program << "pid" << m_process->processId()
                        << "(the transport was destroyed while it ran)";
        m_process->disconnect(this);
        signalGroup(SIGKILL);
        m_process->kill();
        m_process->waitForFinished(1000);
    }
    signalGroup(SIGKILL); // what the server left behind, if it exited before us
    closeLifeline();
    closeStdin();
}

void StdioTransport::closeLifeline()
{
    if (m_lifeline >= 0)
        ::close(m_lifeline);
    m_lifeline = -1;
}

void StdioTransport::signalGroup(int sig)
{
    if (m_group > 0)
        ::kill(pid_t(-m_group), sig);
}

void StdioTransport::setProgram(const QString &program, const QStringList &arguments)
{
    m_program = program;
    m_arguments = arguments;
}

qint64 StdioTransport::processId() const
{
    return m_process->processId();
}

bool StdioTransport::isOpen() const
{
    return m_process->state() == QProcess::Running && !m_closing;
}

void StdioTransport::open()
{
    m_framer.setMaxLineBytes(m_maxMessageBytes);
    if (!m_extraEnv.isEmpty()) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (auto it = m_extraEnv.cbegin(); it != m_extraEnv.cend(); ++it)
            env.insert(it.key(), it.value());
        m_process->setProcessEnvironment(env);
    }
    if (!m_workingDirectory.isEmpty())
        m_process->setWorkingDirectory(m_workingDirectory);
    // An argument list, never a shell: no quoting or injection surprises.
    m_process->setProgram(m_program);
    m_process->setArguments(m_arguments);
    // The server's stdin: both ends close on exec (no other program Folio starts holds them, so
    // the server sees end of file when Folio closes its end); the child's copy of the read end
    // becomes its fd 0 (dup2 clears close-on-exec), over the null device QProcess put there.
    closeStdin();
    int stdinPipe[2] = {-1, -1};
    if (::pipe2(stdinPipe, O_CLOEXEC) != 0) {
        const McpError e = McpError::make(McpError::Kind::SpawnFailed,
                                          QStringLiteral("Could not start \"%1\": no pipe for its stdin (%2)")
                                              .arg(m_program, QString::fromLocal8Bit(std::strerror(errno))));
        QTimer::singleShot(0, this, [this, e] { finishClose(e); });
        return;
    }
    const int childStdin = stdinPipe[0];
    m_stdin = stdinPipe[1];
    ::fcntl(m_stdin, F_SETFL, ::fcntl(m_stdin, F_GETFL) | O_NONBLOCK);
    m_stdinRoom = new QSocketNotifier(m_stdin, QSocketNotifier::Write, this);
    m_stdinRoom->setEnabled(false);
    connect(m_stdinRoom, &QSocketNotifier::activated, this, &StdioTransport::writeStdin);
    // A server gone while a write is under way makes write() fail with EPIPE, not end Folio (as
    // QProcess's own writes do, the signal is ignored for the whole process).
    struct sigaction ignore = {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, nullptr);
    m_process->setStandardInputFile(QProcess::nullDevice());
    // A relay passes the server's stderr on untouched: it is the client's to read, not Folio's.
    m_process->setProcessChannelMode(m_relay ? QProcess::ForwardedErrorChannel : QProcess::SeparateChannels);
    // In the child, before the exec (async-signal-safe calls only). A session of its own makes the
    // server the leader of a new process group that its children join: close() and the destructor
    // stop them all, not only the server. PR_SET_PDEATHSIG has the kernel kill the server when
    // Folio dies, even by SIGKILL (of the thread that started it: transports live on the main
    // thread); a Folio gone before the prctl() is caught by the parent pid having changed.
    // The lifeline (startGroupWatcher()): both ends close on exec, so neither this server nor
    // any other program Folio starts holds them; the watcher gets its end as its standard input.
    const pid_t folioPid = ::getpid();
    closeLifeline();
    int lifeline[2] = {-1, -1};
#ifdef Q_OS_LINUX
    if (::pipe2(lifeline, O_CLOEXEC) != 0)
        lifeline[0] = lifeline[1] = -1;
#endif
    const int watchFd = lifeline[0];
    m_process->setChildProcessModifier([folioPid, watchFd, childStdin] {
        ::dup2(childStdin, STDIN_FILENO);
        ::setsid();
#ifdef Q_OS_LINUX
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != folioPid)
            ::_exit(127);
        if (watchFd >= 0)
            startGroupWatcher(watchFd);
#endif
    });
    // The command line as the window and the CLI's messages show it; environment values (where
    // credentials go) only by name.
    qCDebug(lcStdio) << "spawning" << m_program << "with arguments" << m_arguments
                     << "extra environment variables" << m_extraEnv.keys() << "working directory"
                     << (m_workingDirectory.isEmpty() ? QStringLiteral("(ours)") : m_workingDirectory);
    m_process->start(QIODevice::ReadOnly);
    // QProcess learns that the program started (its exec succeeded) on a later event-loop turn,
    // and nothing is sent before that: whatever the caller does next (building a window) would
    // hold the first request back while the server sits idle. Wait for the exec here instead (a
    // fraction of a millisecond; the fork is already done), so opened() is emitted from here and
    // the server starts on the first request while the caller goes on. A program that fails to
    // start is still reported on a later turn (handleError()); a timeout leaves the usual path.
    m_opening = true;
    m_process->waitForStarted(startedWaitMs);
    m_opening = false;
    if (watchFd >= 0)
        ::close(watchFd); // the child has its copy: start() forked it
    ::close(childStdin);  // likewise
    m_lifeline = lifeline[1];
}

void StdioTransport::send(const QJsonObject &message, const QByteArray &encoded)
{
    if (!isOpen()) {
        Q_EMIT requestFailed(
            message.value(QStringLiteral("id")),
            McpError::make(McpError::Kind::Closed, QStringLiteral("The server process is not running")));
        return;
    }
    // Written now, as far as the pipe takes it: the server starts on the request at once, not
    // after whatever else this event-loop turn does (a page stored and printed, a window painted).
    // A plain non-blocking write: nothing here runs the event loop or reads the server's answer.
    const bool waiting = m_written < m_toWrite.size();
    m_toWrite.append(encoded).append('\n');
    if (!waiting)
        writeStdin();
}

void StdioTransport::sendBytes(QByteArrayView bytes)
{
    if (m_stdin < 0 || bytes.isEmpty())
        return;
    const bool waiting = m_written < m_toWrite.size();
    m_toWrite.append(bytes);
    if (!waiting)
        writeStdin();
}

void StdioTransport::writeStdin()
{
    while (m_stdin >= 0 && m_written < m_toWrite.size()) {
        const ssize_t n =
            ::write(m_stdin, m_toWrite.constData() + m_written, size_t(m_toWrite.size() - m_written));
        if (n > 0) {
            m_written += n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            m_stdinRoom->setEnabled(true); // the rest when the server has read some
            return;
        } else {
            // EPIPE: the server closed its stdin or is gone; its exit, if it comes, says why. What
            // was sent fails at its timeout or as the connection closes.
            if (!m_closing)
                report(QStringLiteral("Writing to the server failed: ") +
                       QString::fromLocal8Bit(std::strerror(errno)));
            closeStdin();
            return;
        }
    }
    m_toWrite.clear();
    m_written = 0;
    if (m_stdinRoom)
        m_stdinRoom->setEnabled(false);
    if (m_closeStdinWhenWritten)
        closeStdin();
    if (m_relay)
        Q_EMIT inputDrained();
}

void StdioTransport::closeStdin()
{
    if (m_stdinRoom) {
        m_stdinRoom->setEnabled(false);
        m_stdinRoom->deleteLater(); // this may run from its activated()
        m_stdinRoom = nullptr;
    }
    if (m_stdin >= 0)
        ::close(m_stdin);
    m_stdin = -1;
    m_toWrite.clear(); // what the pipe did not take is lost with it
    m_written = 0;
    m_closeStdinWhenWritten = false;
}

void StdioTransport::close()
{
    if (m_closing)
        return;
    if (m_process->state() == QProcess::NotRunning) {
        finishClose({});
        return;
    }
    m_closing = true;
    qCDebug(lcStdio) << "closing stdin of pid" << m_process->processId();
    // After what was sent is written, as QProcess::closeWriteChannel() would.
    if (m_written < m_toWrite.size())
        m_closeStdinWhenWritten = true;
    else
        closeStdin();
    if (!m_stopTimer) {
        m_stopTimer = new QTimer(this);
        m_stopTimer->setSingleShot(true);
        connect(m_stopTimer, &QTimer::timeout, this, [this] {
            if (m_process->state() == QProcess::NotRunning)
                return;
            if (!m_terminated) {
                report(QStringLiteral("Server did not exit after stdin closed; sending SIGTERM"));
                m_terminated = true;
                signalGroup(SIGTERM);
                m_stopTimer->start(m_graceMs);
                return;
            }
            report(QStringLiteral("Server ignored SIGTERM; killing it"));
            signalGroup(SIGKILL);
            m_process->kill();
        });
    }
    m_terminated = false;
    m_stopTimer->start(m_graceMs);
}

void StdioTransport::handleStdout()
{
    const QByteArray bytes = m_process->readAllStandardOutput();
    if (m_relay) {
        // A relayed server still writing after its stdin closed is at work, not hung, as it would
        // be with no Folio between it and its client: the grace before SIGTERM counts from its last
        // output while the client takes it (setGraceFromLastOutput).
        if (m_graceFromLastOutput && m_closing && !m_terminated && m_stopTimer && m_stopTimer->isActive() &&
            !bytes.isEmpty())
            m_stopTimer->start(m_graceMs);
        if (!bytes.isEmpty())
            Q_EMIT relayed(bytes);
        return;
    }
    const LineFramer::Result r = m_framer.feed(bytes);
    if (r.oversizedStarted > 0) {
        // Said as the line passes the limit, not at its end (a 500 MB line takes a while): the
        // request it answers fails now; the rest of the line is read and dropped.
        Q_EMIT malformedMessage(QByteArray(),
                                tooLarge(QStringLiteral("A message from the server (a line not ended yet)")));
    }
    for (const QByteArray &line : r.lines)
        handUp(line); // one that is not JSON fails the request it answers, by its id
}

void StdioTransport::handleStderr()
{
    m_stderrBuffer.append(m_process->readAllStandardError());
    qsizetype nl;
    while ((nl = m_stderrBuffer.indexOf('\n')) >= 0) {
        // Its indentation stays: it tells a stack frame from the error it is under.
        QString line = QString::fromUtf8(m_stderrBuffer.left(nl));
        m_stderrBuffer.remove(0, nl + 1);
        while (!line.isEmpty() && line.back().isSpace())
            line.chop(1);
        if (line.trimmed().isEmpty())
            continue;
        m_stderrTail.append(line);
        if (m_stderrTail.size() > stderrTailLines)
            m_stderrTail.removeFirst();
        qCDebug(lcStdio).noquote() << "stderr:" << line;
        Q_EMIT diagnostic(QStringLiteral("stderr: ") + line);
    }
    if (m_stderrBuffer.size() > 64 * 1024)
        m_stderrBuffer.clear();
}

QString StdioTransport::errorLine(const QStringList &tail)
{
    static const QRegularExpression error(QStringLiteral(
        "^(?:[\\w.$]*(?:Error|Exception|Failure)\\b|(?:panic|fatal|error|FATAL|ERROR)\\b[:\\]]|"
        "thread '.*' panicked)"));
    static const QRegularExpression frame(QStringLiteral("^(?:at |File \"|Traceback \\(|\\^+$|\\.\\.\\. \\d+ "
                                                         "more|Node\\.js v\\d|[{}\\]),]+$|goroutine \\d+)"));
    QString fallback;
    for (const QString &line : tail) {
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty())
            continue;
        if (error.match(trimmed).hasMatch())
            return trimmed;
        // Indented lines are frames, quoted source or an object's members.
        if (!line.at(0).isSpace() && !frame.match(trimmed).hasMatch())
            fallback = trimmed;
    }
    return fallback;
}

QString StdioTransport::describeStderrTail(const QStringList &tail)
{
    // The last lines, not the last one: a Node stack trace ends in "}", a Python one in the
    // exception, a shell script's in what failed before it.
    constexpr int shown = 8;
    constexpr int width = 240;
    if (tail.isEmpty())
        return QStringLiteral(" (it wrote nothing on stderr)");
    const qsizetype from = qMax<qsizetype>(0, tail.size() - shown);
    const QString said = errorLine(tail);
    QString text = said.isEmpty() ? QString()
                                  : QStringLiteral(": ") +
                                        (said.size() > width ? said.left(width - 1) + QChar(0x2026) : said);
    text += from > 0 ? QStringLiteral("; the last %1 lines it wrote on stderr:").arg(shown)
                     : QStringLiteral("; what it wrote on stderr:");
    for (qsizetype i = from; i < tail.size(); ++i) {
        const QString &line = tail.at(i);
        text += QStringLiteral("\n  ") + (line.size() > width ? line.left(width - 1) + QChar(0x2026) : line);
    }
    return text;
}

void StdioTransport::handleFinished(int exitCode, QProcess::ExitStatus status)
{
    closeStdin();
    handleStdout(); // whatever was still buffered
    handleStderr();
    // As a shell says it: QProcess gives a crashed process's signal as its exit code.
    m_exitStatus = status == QProcess::CrashExit ? 128 + exitCode : exitCode;
    qCInfo(lcStdio) << m_program << (status == QProcess::CrashExit ? "crashed" : "exited") << "with code"
                    << exitCode << (m_closing ? "after we closed it" : "on its own");
    // The server is gone; what it forked and left in its group goes too.
    if (m_group > 0 && ::kill(pid_t(-m_group), 0) == 0) {
        report(QStringLiteral("The server left processes behind in its process group; killing them"));
        signalGroup(SIGKILL);
    }
    m_group = 0;
    closeLifeline(); // the group is gone: its watcher may go too
    if (m_closing) {
        finishClose({});
        return;
    }
    QString why = status == QProcess::CrashExit
                      ? QStringLiteral("The server process crashed")
                      : QStringLiteral("The server process exited with code %1").arg(exitCode);
    why += describeStderrTail(m_stderrTail);
    McpError e = McpError::make(McpError::Kind::ProcessExited, why);
    e.code = exitCode;
    finishClose(e);
}

void StdioTransport::handleError(QProcess::ProcessError error)
{
    if (error == QProcess::FailedToStart) {
        const McpError e = McpError::make(
            McpError::Kind::SpawnFailed,
            QStringLiteral("Could not start \"%1\": %2").arg(m_program, m_process->errorString()));
        qCInfo(lcStdio).noquote() << e.message;
        if (m_opening) // not from inside open(): the caller has not returned yet
            QTimer::singleShot(0, this, [this, e] { finishClose(e); });
        else
            finishClose(e);
    }
}

void StdioTransport::report(const QString &line)
{
    qCInfo(lcStdio).noquote() << line;
    Q_EMIT diagnostic(line);
}

void StdioTransport::finishClose(const McpError &error)
{
    closeStdin();
    if (m_process->state() == QProcess::NotRunning && m_group == 0)
        closeLifeline(); // nothing left to watch (a server that never started, too)
    if (m_closedEmitted)
        return;
    m_closedEmitted = true;
    Q_EMIT closed(error);
}

} // namespace folio
