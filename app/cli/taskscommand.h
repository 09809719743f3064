#pragma once

#include "clisession.h"
#include "command.h"
#include "serverconfig.h"
#include "taskboard.h"

#include <QJsonObject>
#include <QPointer>

class QTimer;

namespace folio {

class Interrupt;
class RpcCall;
class ToolCatalog;
class TtlClock;

// `folio tasks run|get|result|cancel` (issue 34): a tool run as a task and followed to its end by
// the same TaskBoard the window uses (polled, its status notifications followed, its result
// fetched), or one request about a task a server already holds. `folio tasks list` is
// `folio list tasks` (ListCommand, the walk of every list), so cli.cpp hands it there.
class TasksCommand : public SessionCommand
{
    Q_OBJECT
public:
    enum class Action { Run, Get, Result, Cancel };

    struct Options
    {
        Action action = Action::Run;
        QString tool;   // run
        QString taskId; // get, result, cancel
        QJsonObject arguments;
        qint64 ttlMs = -1; // run: asked of a 2025-11-25 server; -1 its choice
        bool json = false;
        bool verbose = false;
        ServerConfig server;
        CliSession::KeychainToken keychainToken = CliSession::KeychainToken::None;
    };

    // Parses the words after `folio tasks` (the action first; not "list": cli.cpp runs that as
    // `folio list tasks`). Returns ParseOk to go on, or an exit code (0 after --help, 2 for bad
    // usage, having said why on stderr).
    static int parse(const QStringList &arguments, Options *options);
    static QString helpText();

    // What the text format prints of a task: one "name  value" line each for its id, tool,
    // status (with its message), times, ttl and poll interval, then its result's content or its
    // error. Whatever the server wrote is made one line (oneLineSafe) where it stands in a line.
    static QString taskText(const TaskRecord &record);
    // The progress line of a task that is running, as stderr gets it when its status changes.
    static QString progressLine(const TaskRecord &record);

    // How long run waits for the server's answer to the tasks/cancel a SIGINT or SIGTERM sends
    // (or the request timeout, when shorter).
    static constexpr int cancelWaitMs = 3000;

    explicit TasksCommand(const Options &options, QObject *parent = nullptr);
    ~TasksCommand() override;

private:
    void begin();
    void findTool();
    void handleToolsListed();
    void handleTaskChanged();
    void handleTaskEnded(int row);
    void ask(RpcCall *call, void (TasksCommand::*handle)(RpcCall *));
    void handleGot(RpcCall *call);
    void handleResult(RpcCall *call);
    void handleCancelled(RpcCall *call);
    // Prints a task a server answered with (tasks/get, a 2025 tasks/cancel): json as received,
    // text as taskText().
    void printTask(const QJsonObject &answer, const TaskInfo &info);
    // A request about a task failed: said, exit 1 (the server's side).
    void failRequest(const QString &method, const RpcCall *call);
    // run, SIGINT or SIGTERM: the first cancels the task being followed (when there is one) and
    // waits for the server's answer a bounded time; any other ends the command at once.
    void handleInterrupt(int signal, int count);
    // Asks the board to cancel, and waits for the task's end, the cancel's refusal or the wait's end.
    void cancelOnInterrupt();
    // Says whether the server confirmed the cancel, and ends with 128 + the signal.
    void concludeInterrupt(bool cancelled, const QString &why = {});

    Options m_options;
    TtlClock *m_clock;
    QPointer<ToolCatalog> m_finder;
    QPointer<TaskBoard> m_board;
    int m_row = -1;
    QString m_lastProgress;
    Interrupt *m_interrupt = nullptr; // run only
    int m_signal = 0;                 // the first signal received; 0 none
    QString m_cancelledId;            // the task the signal cancels
    QString m_cancelPending;          // why the cancel is not confirmed yet, as the wait's end says
    QTimer *m_cancelWait = nullptr;
};

} // namespace folio
