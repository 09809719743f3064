#pragma once

#include "answer.h"
#include "demoexchange.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace demo {

class DemoServer;

// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) of the 2026-07-28 era. A tool
// whose definition says `execution.taskSupport` "optional" or "required" runs as a task when the
// request declares the extension in its clientCapabilities: tools/call answers a CreateTaskResult
// (resultType "task", the task's fields flat), and the client polls tasks/get (the result or error
// inlined once terminal), answers input requests with tasks/update and stops it with tasks/cancel.
// Without the extension an "optional" tool runs as a plain call, a "required" one is -32021.
// Status changes go to the subscriptions/listen streams that asked for `taskStatus`.
class Tasks : public QObject
{
    Q_OBJECT

public:
    static QString extensionId();

    explicit Tasks(DemoServer &server, QObject *parent = nullptr);

    // How long a task stays readable after it was created, and the poll interval it suggests.
    static constexpr int ttlMs = 600000;

    // The tool's execution.taskSupport ("optional", "required"), empty when it has none.
    static QString support(const QJsonObject &tool);
    // tools/call of a tool with taskSupport. nullopt: answered here (a CreateTaskResult); else the
    // answer to send (a plain call's outcome, an input_required round, -32021).
    std::optional<Answer> callTool(const QJsonValue &id, const QString &name, const QJsonObject &tool,
                                   const CallContext &context, DemoExchange *exchange);
    // tasks/get, tasks/update, tasks/cancel (2026-07-28); false for any other method.
    bool handle(const QJsonValue &id, const QString &method, const CallContext &context,
                DemoExchange *exchange);

    // The 2025-11-25 form (core tasks, initialize era): tasks/get, tasks/result, tasks/list (paged
    // by cursor, pageSize tasks a page), tasks/cancel; false for any other method.
    bool handleLegacy(const QJsonValue &id, const QString &method, const QJsonObject &params,
                      DemoExchange *exchange);
    static constexpr int legacyPageSize = 3;

    // Called with each task's state (2026: DetailedTask fields; legacy: the 2025-11-25 Task) when
    // its status or message changes.
    void setNotifier(std::function<void(const QJsonObject &, bool legacy)> notifier)
    {
        m_notify = std::move(notifier);
    }

private:
    struct Task
    {
        QString id;
        QString tool;
        QJsonObject arguments;
        QString status; // working, input_required, completed, failed, cancelled
        QString statusMessage;
        QDateTime createdAt;
        QDateTime lastUpdatedAt;
        int pollIntervalMs = 1000;
        qint64 ttlMs = Tasks::ttlMs;
        bool legacy = false; // a 2025-11-25 task (task-augmented tools/call)
        QList<QPair<QJsonValue, QPointer<DemoExchange>>> waiting; // tasks/result until terminal
        QJsonObject result;                                       // completed
        QJsonObject error;                                        // failed
        QJsonObject inputRequests; // input_required: the requests still unanswered
        QJsonObject answers;       // what tasks/update brought so far
        int steps = 1;
        int stepMs = 0;
        int done = 0;
        std::unique_ptr<QTimer> timer;
    };

    static bool declared(const CallContext &context);
    Task &create(const QString &tool, const QJsonObject &arguments);
    void start(Task &task);
    void step(const QString &taskId);
    void finish(Task &task);
    void setStatus(Task &task, const QString &status, const QString &message = {});
    QJsonObject detailed(const Task &task) const;
    QJsonObject created(const Task &task) const;
    QJsonObject legacyTask(const Task &task) const;
    // Answers the tasks/result requests that wait for a terminal task.
    void answerWaiting(Task &task);
    void sendLegacyResult(const Task &task, const QJsonValue &id, DemoExchange *exchange);
    void purgeExpired();
    // The tool's outcome when it runs without a task (no extension, or the legacy era).
    static Answer plain(const QString &name, const QJsonObject &arguments);
    static QJsonObject outcome(const Task &task);

    DemoServer &m_server;
    QHash<QString, std::shared_ptr<Task>> m_tasks;
    QStringList m_order; // task ids, oldest first (tasks/list)
    std::function<void(const QJsonObject &, bool)> m_notify;
};

} // namespace demo
