#include "benchprocess.h"

#include "benchpaths.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace bench {

namespace {

QByteArray readProcFile(const QByteArray &path)
{
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return {};
    QByteArray data(8192, Qt::Uninitialized);
    const ssize_t n = ::read(fd, data.data(), data.size());
    ::close(fd);
    data.resize(n > 0 ? qsizetype(n) : 0);
    return data;
}

// pid and every descendant, through /proc/<pid>/task/<tid>/children.
void collectTree(pid_t pid, QList<pid_t> *out, int depth = 0)
{
    if (depth > 8)
        return;
    out->append(pid);
    const QByteArray children =
        readProcFile("/proc/" + QByteArray::number(pid) + "/task/" + QByteArray::number(pid) + "/children");
    for (const QByteArray &word : children.split(' ')) {
        bool ok = false;
        const int child = word.trimmed().toInt(&ok);
        if (ok && child > 0)
            collectTree(child, out, depth + 1);
    }
}

qint64 hwmKb(pid_t pid)
{
    const QByteArray status = readProcFile("/proc/" + QByteArray::number(pid) + "/status");
    const qsizetype at = status.indexOf("VmHWM:");
    if (at < 0)
        return 0;
    const qsizetype end = status.indexOf('\n', at);
    return status.mid(at + 6, end - at - 6).replace("kB", "").trimmed().toLongLong();
}

QByteArray commOf(pid_t pid)
{
    return readProcFile("/proc/" + QByteArray::number(pid) + "/comm").trimmed();
}

} // namespace

DemoHttpServer::DemoHttpServer(const QStringList &arguments)
{
    m_process.setProgram(demoServerProgram());
    m_process.setArguments(QStringList{QStringLiteral("--http"), QStringLiteral("0")} + arguments);
    m_process.start();
    const QRegularExpression listening(QStringLiteral("listening on (http://\\S+)"));
    QByteArray err;
    m_process.setReadChannel(QProcess::StandardError);
    while (m_url.isEmpty() && m_process.waitForReadyRead(10'000)) {
        err += m_process.readAllStandardError();
        const QRegularExpressionMatch m = listening.match(QString::fromUtf8(err));
        if (m.hasMatch())
            m_url = m.captured(1);
    }
    if (m_url.isEmpty())
        qFatal("bench: the demo server did not start on HTTP: %s", err.constData());
}

DemoHttpServer::~DemoHttpServer()
{
    m_process.terminate();
    if (!m_process.waitForFinished(3000))
        m_process.kill();
    m_process.waitForFinished(1000);
}

double DemoHttpServer::cpuSeconds() const
{
    const QByteArray stat = readProcFile("/proc/" + QByteArray::number(m_process.processId()) + "/stat");
    // Fields after the command name (which ends with the last ')'): state is field 3, utime 14, stime 15.
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13)
        return 0;
    return double(fields.at(11).toLongLong() + fields.at(12).toLongLong()) / double(sysconf(_SC_CLK_TCK));
}

qint64 monotonicNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

ProcessResult runProcess(const ProcessSpec &spec)
{
    ProcessResult result;
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
        return result;
    QList<QByteArray> argvBytes;
    for (const QString &a : spec.command)
        argvBytes.append(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &a : argvBytes)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    const qint64 start = monotonicNs();
    result.startNs = start;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);
        for (auto it = spec.env.constBegin(); it != spec.env.constEnd(); ++it)
            ::setenv(it.key().constData(), it.value().constData(), 1);
        const int devnull = ::open("/dev/null", O_RDONLY);
        ::dup2(devnull, 0);
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        ::execvp(argv[0], argv.data());
        ::_exit(127);
    }
    ::setpgid(pid, pid);
    ::close(out[1]);
    ::close(err[1]);
    auto elapsedMs = [start] { return double(monotonicNs() - start) / 1e6; };

    QMap<pid_t, qint64> peaks;
    QSet<pid_t> excluded;
    QByteArray stderrLine;
    bool stopping = false;
    bool outOpen = true, errOpen = true;
    int status = 0;
    bool reaped = false;
    qint64 lastSample = 0;
    char buffer[65536];
    auto stopTree = [&] {
        if (!stopping) {
            stopping = true;
            ::kill(-pid, SIGTERM);
        }
    };
    auto sample = [&] {
        QList<pid_t> tree;
        collectTree(pid, &tree);
        for (pid_t p : std::as_const(tree)) {
            if (excluded.contains(p))
                continue;
            if (!peaks.contains(p) && spec.excludeComms.contains(QString::fromLocal8Bit(commOf(p)))) {
                excluded.insert(p);
                continue;
            }
            const qint64 kb = hwmKb(p);
            if (kb > peaks.value(p))
                peaks[p] = kb;
        }
    };
    while (!reaped) {
        pollfd fds[2] = {{outOpen ? out[0] : -1, POLLIN, 0}, {errOpen ? err[0] : -1, POLLIN, 0}};
        ::poll(fds, 2, spec.sampleMs);
        if (outOpen && (fds[0].revents & (POLLIN | POLLHUP))) {
            const ssize_t n = ::read(out[0], buffer, sizeof buffer);
            if (n <= 0) {
                outOpen = false;
            } else {
                const double now = elapsedMs();
                if (result.firstStdoutMs < 0)
                    result.firstStdoutMs = now;
                result.lastStdoutMs = now;
                if (result.stdoutHead.size() < 1024)
                    result.stdoutHead.append(buffer, qMin<qsizetype>(n, 1024 - result.stdoutHead.size()));
                result.stdoutBytes += n;
                result.stdoutLines += std::count(buffer, buffer + n, '\n');
                if (spec.stopAtFirstStdout)
                    stopTree();
            }
        }
        if (errOpen && (fds[1].revents & (POLLIN | POLLHUP))) {
            const ssize_t n = ::read(err[0], buffer, sizeof buffer);
            if (n <= 0) {
                errOpen = false;
            } else {
                result.stderrTail.append(buffer, n);
                if (result.stderrTail.size() > 8192)
                    result.stderrTail = result.stderrTail.right(4096);
                if (!spec.stderrMarker.isEmpty() && result.markerMs < 0) {
                    stderrLine.append(buffer, n);
                    qsizetype nl;
                    while ((nl = stderrLine.indexOf('\n')) >= 0) {
                        const QByteArray l = stderrLine.left(nl);
                        stderrLine.remove(0, nl + 1);
                        if (l.startsWith(spec.stderrMarker) && result.markerMs < 0) {
                            result.markerMs = elapsedMs();
                            result.markerLine = l;
                            if (spec.stopAtMarker)
                                stopTree();
                        }
                    }
                }
            }
        }
        const qint64 now = monotonicNs();
        if (!stopping && now - lastSample >= qint64(spec.sampleMs) * 1'000'000) {
            lastSample = now;
            sample();
        }
        if (::waitpid(pid, &status, WNOHANG) == pid) {
            reaped = true;
            result.exitMs = elapsedMs();
        } else if (!stopping && elapsedMs() > spec.timeoutMs) {
            stopTree();
            result.stderrTail += "\n[bench: timed out]";
        }
    }
    ::kill(-pid, SIGKILL); // whatever of the tree is left (a stdio server that outlived its client)
    ::close(out[0]);
    ::close(err[0]);
    for (qint64 kb : std::as_const(peaks))
        result.peakRssKb += kb;
    result.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.ok = stopping ? (result.markerMs >= 0 || (spec.stopAtFirstStdout && result.firstStdoutMs >= 0))
                         : result.exitStatus == 0;
    return result;
}

} // namespace bench
