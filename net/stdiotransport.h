#pragma once

#include "lineframer.h"
#include "transport.h"

#include <QMap>
#include <QProcess>
#include <QStringList>

class QSocketNotifier;
class QTimer;

namespace folio {

// MCP over a child process's stdin/stdout (newline-delimited JSON). stderr is kept as diagnostics.
// The server's stdin is a pipe of Folio's own, not QProcess's: send() writes what the pipe takes at
// once with a plain non-blocking write(), and the rest when the pipe has room, so that a request
// reaches the server before the caller goes on, without send() ever running the event loop.
// Shutdown closes stdin, then terminates, then kills after a grace period. The server runs in a
// session (and process group) of its own: SIGTERM and SIGKILL go to the whole group, whatever is
// left in it once the server exited is killed, and the kernel kills the server if Folio dies.
class StdioTransport : public Transport
{
    Q_OBJECT
public:
    explicit StdioTransport(QObject *parent = nullptr);
    ~StdioTransport() override;

    void setProgram(const QString &program, const QStringList &arguments);
    void setEnvironment(const QMap<QString, QString> &extra) { m_extraEnv = extra; }
    void setWorkingDirectory(const QString &dir) { m_workingDirectory = dir; }
    void setShutdownGraceMs(int ms) { m_graceMs = ms; }
    // Relay mode (`folio tap`): what the server writes on stdout is handed on as it came
    // (relayed()), never framed or read; its stderr goes straight to Folio's own stderr, byte for
    // byte; and sendBytes() writes bytes to its stdin unchanged. Set before open().
    void setRelay(bool relay) { m_relay = relay; }
    // Relay mode, once stdin is closed: the grace before SIGTERM counts from the server's last
    // output while someone still takes that output (folio tap's client); off, from the close.
    void setGraceFromLastOutput(bool on) { m_graceFromLastOutput = on; }
    // Relay mode: writes bytes to the server's stdin as they are (what the pipe does not take
    // waits, as send()'s lines do; pendingInputBytes() says how much).
    void sendBytes(QByteArrayView bytes);
    qsizetype pendingInputBytes() const { return m_toWrite.size() - m_written; }

    void open() override;
    void send(const QJsonObject &message, const QByteArray &encoded) override;
    void close() override;
    bool isOpen() const override;
    QString kindName() const override { return QStringLiteral("stdio"); }

    QStringList stderrTail() const { return m_stderrTail; }
    // The exit status of a server that exited (its code; 128 + the signal when a signal ended it),
    // -1 while it runs or when it never started.
    int exitStatus() const { return m_exitStatus; }
    // How an exit message names what the server last wrote on stderr: its error line first
    // (": Error: Cannot find module …"), then its last lines, each on a line of its own.
    static QString describeStderrTail(const QStringList &tail);
    // The line of a stderr tail that says what went wrong, not where: the first that reads as an
    // error ("Error: …", "ValueError: …", "panic: …", "thread 'main' panicked at …"), else the
    // last that is no stack frame, no source line quoted under one and no runtime's banner; ""
    // when every line is one of those.
    static QString errorLine(const QStringList &tail);
    qint64 processId() const;

Q_SIGNALS:
    // Relay mode: bytes the server wrote on stdout, exactly as read.
    void relayed(const QByteArray &bytes);
    // Relay mode: everything sendBytes() gave has reached the server's stdin pipe.
    void inputDrained();

private:
    void handleStdout();
    void handleStderr();
    void handleFinished(int exitCode, QProcess::ExitStatus status);
    // Writes what the stdin pipe takes of m_toWrite; waits for room (m_stdinRoom) for the rest.
    void writeStdin();
    // Closes Folio's end of the server's stdin (the server reads end of file).
    void closeStdin();
    void handleError(QProcess::ProcessError error);
    void finishClose(const McpError &error);
    // A transport event for the traffic log (diagnostic()) and for folio.net.stdio.
    void report(const QString &line);
    // Sends sig to the server's process group (the server and what it forked).
    void signalGroup(int sig);
    // Lets the server group's watcher go (see startGroupWatcher() in the .cpp).
    void closeLifeline();

    QProcess *m_process;
    qint64 m_group = 0;  // the server's process group (its pid), kept after it exited
    int m_lifeline = -1; // the write end of the watcher's pipe; closed when the group is gone
    int m_stdin = -1;    // the write end of the server's stdin (non-blocking)
    QSocketNotifier *m_stdinRoom = nullptr; // enabled while m_toWrite waits for the pipe
    QByteArray m_toWrite;                   // sent lines the pipe has not taken yet
    qsizetype m_written = 0;                // how much of m_toWrite it took
    bool m_closeStdinWhenWritten = false;
    QString m_program;
    QStringList m_arguments;
    QMap<QString, QString> m_extraEnv;
    QString m_workingDirectory;
    LineFramer m_framer;
    QByteArray m_stderrBuffer;
    QStringList m_stderrTail;
    int m_graceMs = 2000;
    QTimer *m_stopTimer = nullptr; // after close(): SIGTERM when it fires, then SIGKILL
    bool m_terminated = false;     // SIGTERM was sent
    bool m_closing = false;
    bool m_closedEmitted = false;
    bool m_started = false;
    bool m_opening = false; // inside open()'s wait for the exec
    bool m_relay = false;
    bool m_graceFromLastOutput = false;
    int m_exitStatus = -1;
};

} // namespace folio
