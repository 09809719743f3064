#pragma once

#include "finding.h"
#include "mcperror.h"
#include "taskinfo.h"

#include <QAbstractTableModel>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QPointer>

#include <functional>

class QTimer;

namespace folio {

class InputReply;
class McpClient;
class RpcCall;
class TtlClock;

// One task a person started on this connection (a task-augmented tools/call), as it stands.
struct TaskRecord
{
    // Where Folio is with it (the task's own status is task.status).
    enum class Phase {
        Starting,  // the task-augmented call is in flight
        Running,   // a task exists and has not ended: polled every pollInterval
        Finishing, // it ended; its result is being fetched (2025: tasks/result)
        Ended,     // it ended, and what it brought is here
        Failed,    // no task: the call failed, was refused, or the server forgot the task
    };

    quint64 serial = 0; // the TTL clock's key
    QString toolName;
    QJsonObject arguments;
    bool legacyEra = false; // 2025-11-25 core tasks, not the 2026-07-28 extension
    Phase phase = Phase::Starting;
    TaskInfo task;             // as last told (tasks/get, a notification, the call's answer)
    qint64 createdMonoMs = -1; // on the TTL clock: when the task's answer arrived
    qint64 startedAtMs = 0;    // wall clock: when the call was sent
    qint64 endedAtMs = 0;      // wall clock: when Folio saw it end
    int polls = 0;             // tasks/get sent
    int failedPolls = 0;       // tasks/get failed in a row
    qint64 nextPollMs = -1;    // when its next tasks/get is due (the board's own time); -1 none
    int notifications = 0;     // status notifications received for it
    bool cancelAsked = false;
    QStringList inputsAsked;  // inputRequests keys handed to the responder (2026 input_required)
    QJsonObject inputAnswers; // their answers, until sent together in tasks/update
    int inputsAnswered = 0;   // tasks/update sent
    bool ttlRanOut = false;   // its ttl, counted from creation, has run out
    McpError error;           // why there is no task, or the last request about it that failed
    QJsonObject result;       // the tool's CallToolResult once completed
    QList<Finding> findings;

    // When its ttl runs out on the TTL clock; -1 when it has none (or none is known yet).
    qint64 expiresAtMonoMs() const;
    bool isLive() const
    {
        return phase == Phase::Starting || phase == Phase::Running || phase == Phase::Finishing;
    }
    // "working: Synchronising group g01: batch 3 of 10", "completed", "failed: …".
    QString statusLine() const;
    // {taskId, tool, status, statusMessage, phase, ttlMs, pollIntervalMs, polls, notifications,
    //  createdAt, lastUpdatedAt, result?, error?, findings}
    QJsonObject toJson() const;
};

// The tasks started on one connection, one row each: start() sends a task-augmented tools/call;
// a task is then polled with tasks/get every pollInterval the server suggests (never faster than
// minPollMs), its status notifications are followed where the server sends them, its ttl counts
// down on the TTL clock the lists and reads share, its result is fetched when it ends (2026:
// inlined in tasks/get; 2025: tasks/result), and cancel() asks tasks/cancel. A task still running
// when its ttl ran out is a finding (task-outlived-ttl), as is an answer that is no task.
class TaskBoard : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { ToolColumn, StatusColumn, MessageColumn, ExpiresColumn, TaskIdColumn, ColumnCount };
    enum Roles {
        StatusRole = Qt::UserRole + 1, // int(TaskInfo::Status)
        PhaseRole,                     // int(TaskRecord::Phase)
        ExpiresAtRole,                 // monotonic ms on the TTL clock, -1 when not counting down
        TtlRole,                       // the task's ttl in ms (TaskInfo::ttlMs)
        SeverityRole,                  // worst finding severity, -1 when none
        SerialRole,
    };
    // The fastest Folio polls, whatever a server suggests (a pollInterval of 0 would be a loop).
    static constexpr qint64 minPollMs = 100;
    // What Folio waits between polls when the server suggests nothing.
    static constexpr qint64 defaultPollMs = 1000;
    // tasks/get failing this many times in a row (not as an unknown task) gives the task up.
    static constexpr int maxFailedPolls = 3;

    TaskBoard(McpClient *client, TtlClock *clock, QObject *parent = nullptr);
    ~TaskBoard() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    McpClient *client() const { return m_client; }
    TtlClock *ttlClock() const { return m_clock; }
    int count() const { return int(m_tasks.size()); }
    const TaskRecord &record(int row) const { return m_tasks.at(row); }
    int rowForTaskId(const QString &taskId) const;
    int rowForSerial(quint64 serial) const;

    // Whether the server runs tools/call as tasks, and whether this tool may be (its
    // execution.taskSupport is optional or required).
    bool offersTasks() const;
    static bool toolRunsAsTask(const QJsonObject &tool);
    // Its execution.taskSupport: "forbidden" (also when absent), "optional" or "required".
    static QString taskSupport(const QJsonObject &tool);
    // Starts tool as a task: a new row, returned. ttlMs: asked of a 2025 server; -1 its choice.
    int start(const QJsonObject &tool, const QJsonObject &arguments, qint64 ttlMs = -1);
    // Asks tasks/get now (a live task); false when the row has no task to ask about.
    bool refresh(int row);
    // Asks tasks/cancel; false when the task has ended (or none exists yet).
    bool cancel(int row);
    // Forgets a row (nothing is asked of the server: cancel() first to stop it).
    void remove(int row);
    // A new connection forgets its tasks, as it forgets its walks and reads.
    void clear();
    QList<Finding> findings() const;

Q_SIGNALS:
    // A task ended (completed, failed, cancelled) and its result is here, or it failed to start.
    void taskEnded(int row);
    // The server answered cancel()'s tasks/cancel: error says how it refused, or is none (the
    // task's status then follows, from the answer or from tasks/get).
    void cancelAnswered(int row, const folio::McpError &error);
    void findingsChanged();

private:
    QString displayText(const TaskRecord &r, int column) const;
    void handleCreated(quint64 serial, const QJsonObject &result, const McpError &error);
    void handleStatus(const QJsonObject &task, bool notification);
    void apply(int row, const TaskInfo &info);
    // Follows a request about the task with serial (kept as its one request in flight when
    // inFlight): then(row, call) once it answers, with the row the task has then; not called when
    // the task was forgotten meanwhile.
    void follow(quint64 serial, RpcCall *call, bool inFlight,
                const std::function<void(int row, const RpcCall *call)> &then);
    void poll(quint64 serial);
    void armPollTimer();
    void pollDue();
    void schedulePoll(int row);
    void fetchResult(int row);
    // 2026 input_required: each input the task asks for (not asked before) goes to the client's
    // responder; once all are answered they go back in one tasks/update.
    void askInputs(int row);
    void inputReplied(quint64 serial, InputReply *reply, const QJsonObject &result, const McpError &error);
    void withdrawInputs(quint64 serial);
    void end(int row);
    void fail(int row, const McpError &error);
    void handleExpired(const QList<quint64> &serials);
    void addFinding(int row, const Finding &finding);
    void changed(int row);
    void forget(quint64 serial);

    QPointer<McpClient> m_client;
    TtlClock *m_clock;
    QList<TaskRecord> m_tasks;
    QTimer *m_pollTimer; // one for every task: the earliest poll due (TaskRecord::nextPollMs)
    QElapsedTimer m_since;
    QHash<quint64, QPointer<QObject>> m_inFlight;         // the request about a task now in flight
    QHash<quint64, QList<QPointer<InputReply>>> m_inputs; // inputs a task waits for
};

} // namespace folio
