#pragma once

#include "clisession.h"

#include <QObject>

namespace folio {

// What a subcommand's parse() returns when the command is to run (anything else is an exit code).
constexpr int ParseOk = -1;

// A subcommand run under the application's event loop: start() begins, finished() ends it with the
// process exit code (emitted once, after the server connection is shut down).
class Command : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    virtual void start() = 0;

Q_SIGNALS:
    void finished(int exitCode);
};

// A command that talks to one server (list, call, get-prompt, read, audit, report): it owns the
// CliSession, starts it, and ends once — finish() shuts the session down, and finished() follows
// with the code. A connection that fails goes to connectFailed(); a command connects to the
// session's ready() and watchdogFired() itself.
class SessionCommand : public Command
{
    Q_OBJECT
public:
    // word: the subcommand as its messages name it ("folio list: ...").
    SessionCommand(const QString &word, const ServerConfig &server, CliSession::KeychainToken keychainToken,
                   QObject *parent = nullptr);

    void start() override;

protected:
    // The server could not be reached: "cannot connect to TARGET: why". By default said as
    // fail(2, reason); a command that writes something even then (audit, report) says it itself.
    virtual void connectFailed(const QString &reason);
    // Ends the command with exitCode (the first call wins).
    void finish(int exitCode);
    // "folio WORD: message" on stderr, then finish(exitCode); nothing once finished.
    void fail(int exitCode, const QString &message);

    CliSession *m_session;
    bool m_done = false;
    int m_exitCode = 0;

private:
    QString m_word;
    QString m_target;
};

} // namespace folio
