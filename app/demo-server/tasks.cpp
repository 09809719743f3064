#include "tasks.h"

#include "content.h"
#include "cursorcodec.h"
#include "demoserver.h"
#include "inputrequests.h"

#include <QJsonArray>
#include <QUuid>

#include <utility>

using namespace Qt::StringLiterals;

namespace demo {

namespace {

constexpr int missingCapability = -32021;
constexpr int internalError = -32603;
constexpr int syncGroupSteps = 10;

int intArgument(const QJsonObject &arguments, const QString &key, int fallback, int low, int high)
{
    const QJsonValue value = arguments.value(key);
    if (!value.isDouble())
        return fallback;
    return qBound(low, int(value.toDouble()), high);
}

QString stamp(const QDateTime &time)
{
    return time.toString(Qt::ISODateWithMs);
}

bool terminal(const QString &status)
{
    return status == u"completed"_s || status == u"failed"_s || status == u"cancelled"_s;
}

QJsonObject booleanSchema(const QString &property, const QString &description)
{
    return QJsonObject{
        {u"type"_s, u"object"_s},
        {u"properties"_s,
         QJsonObject{{property, QJsonObject{{u"type"_s, u"boolean"_s}, {u"description"_s, description}}}}},
        {u"required"_s, QJsonArray{property}}};
}

QJsonObject nameSchema()
{
    return QJsonObject{{u"type"_s, u"object"_s},
                       {u"properties"_s, QJsonObject{{u"name"_s, QJsonObject{{u"type"_s, u"string"_s}}}}},
                       {u"required"_s, QJsonArray{u"name"_s}}};
}

Answer missingExtension()
{
    return Answer::error(
        missingCapability,
        u"Missing required client capability: the %1 extension"_s.arg(Tasks::extensionId()),
        QJsonObject{{u"requiredCapabilities"_s,
                     QJsonObject{{u"extensions"_s, QJsonObject{{Tasks::extensionId(), QJsonObject{}}}}}}},
        400);
}

QString syncGroupText(const QJsonObject &arguments)
{
    return u"Synchronised group %1: %2 batches of members checked against the directory; nothing changed "
           u"(the demo server changes nothing)."_s.arg(arguments.value(u"group_id"_s).toString())
               .arg(syncGroupSteps);
}

} // namespace

QString Tasks::extensionId()
{
    return u"io.modelcontextprotocol/tasks"_s;
}

Tasks::Tasks(DemoServer &server, QObject *parent)
    : QObject(parent)
    , m_server(server)
{}

QString Tasks::support(const QJsonObject &tool)
{
    const QString value = tool.value(u"execution"_s)[u"taskSupport"_s].toString();
    return value == u"optional"_s || value == u"required"_s ? value : QString();
}

bool Tasks::declared(const CallContext &context)
{
    return context.modern && context.clientCapabilities.value(u"extensions"_s)[extensionId()].isObject();
}

std::optional<Answer> Tasks::callTool(const QJsonValue &id, const QString &name, const QJsonObject &tool,
                                      const CallContext &context, DemoExchange *exchange)
{
    const QJsonObject arguments = context.params.value(u"arguments"_s).toObject();
    const bool required = support(tool) == u"required"_s;
    const QJsonValue augmentation = context.params.value(u"task"_s);
    const bool runsAlone =
        name == u"slow_compute"_s || name == u"sync_group"_s || name == u"failing_job"_s ||
        name == u"protocol_error_job"_s; // no input requests (2025-11-25 has no way to send them here)
    if (!context.modern && augmentation.isObject() && runsAlone) {
        // 2025-11-25: a task-augmented request, {task: {ttl?}} → CreateTaskResult {task}.
        Task &task = create(name, arguments);
        task.legacy = true;
        const QJsonValue ttl = augmentation[u"ttl"_s];
        if (ttl.isDouble())
            task.ttlMs = qBound(qint64(1000), qint64(ttl.toDouble()), qint64(3600000));
        m_server.sendResult(exchange, id, QJsonObject{{u"task"_s, legacyTask(task)}}, false);
        start(task);
        return std::nullopt;
    }
    if (!declared(context)) {
        if (!required)
            return plain(name, arguments);
        if (!context.modern) {
            return Answer::ok(Blocks::toolResult(
                {Blocks::text(u"%1 runs only as a task: call it in 2026-07-28 with the %2 extension."_s.arg(
                    name, extensionId()))},
                true));
        }
        return missingExtension();
    }
    QJsonObject taskArguments = arguments;
    if (name == u"test_tool_with_task"_s) {
        // A multi-round trip first (SEP-2322); the task starts once the name is in.
        std::optional<Answer> error;
        const QJsonObject responses = InputRequests::responses(context.params, &error);
        if (error)
            return error;
        const auto content = InputRequests::accepted(responses, u"user_name"_s);
        const QString userName = content ? content->value(u"name"_s).toString() : QString();
        if (userName.isEmpty()) {
            return Answer::ok(InputRequests::inputRequired(QJsonObject{
                {u"user_name"_s, InputRequests::elicitation(u"What is your name?"_s, nameSchema())}}));
        }
        taskArguments.insert(u"name"_s, userName);
    }
    Task &task = create(name, taskArguments);
    m_server.sendResult(exchange, id, created(task), true);
    start(task);
    return std::nullopt;
}

Answer Tasks::plain(const QString &name, const QJsonObject &arguments)
{
    if (name == u"slow_compute"_s) {
        const int seconds = intArgument(arguments, u"seconds"_s, 1, 0, 3600);
        const QJsonObject result = Blocks::toolResult({Blocks::text(
            u"Computed %1 in %2 s."_s.arg(arguments.value(u"label"_s).toString(u"slow_compute"_s))
                .arg(seconds))});
        return seconds == 0 ? Answer::ok(result) : Answer::progress(result, seconds, 1000);
    }
    // sync_group without a task: the same run, answered when it is done (progress on the way).
    const int durationMs = intArgument(arguments, u"durationMs"_s, 20000, 0, 600000);
    return Answer::progress(Blocks::toolResult({Blocks::text(syncGroupText(arguments))}), syncGroupSteps,
                            durationMs / syncGroupSteps);
}

Tasks::Task &Tasks::create(const QString &tool, const QJsonObject &arguments)
{
    purgeExpired();
    auto task = std::make_shared<Task>();
    task->id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    task->tool = tool;
    task->arguments = arguments;
    task->status = u"working"_s;
    task->createdAt = QDateTime::currentDateTimeUtc();
    task->lastUpdatedAt = task->createdAt;
    task->pollIntervalMs = 500;
    if (tool == u"slow_compute"_s) {
        const int seconds = intArgument(arguments, u"seconds"_s, 1, 0, 3600);
        task->steps = qMax(seconds, 1);
        task->stepMs = seconds == 0 ? 0 : 1000;
    } else if (tool == u"failing_job"_s) {
        task->stepMs = 1000;
    } else if (tool == u"sync_group"_s) {
        task->steps = syncGroupSteps;
        task->stepMs = intArgument(arguments, u"durationMs"_s, 20000, 0, 600000) / syncGroupSteps;
        task->pollIntervalMs = 1000;
        task->statusMessage =
            u"Synchronising group %1: batch 0 of %2"_s.arg(arguments.value(u"group_id"_s).toString())
                .arg(syncGroupSteps);
    } else {
        task->stepMs = 300;
    }
    if (tool == u"confirm_delete"_s) {
        const QString file = arguments.value(u"filename"_s).toString();
        task->inputRequests = QJsonObject{
            {u"confirm"_s, InputRequests::elicitation(u"Delete %1?"_s.arg(file),
                                                      booleanSchema(u"confirm"_s, u"Delete the file"_s))}};
    } else if (tool == u"multi_input"_s) {
        task->inputRequests = QJsonObject{
            {u"user_name"_s, InputRequests::elicitation(u"What is your name?"_s, nameSchema())},
            {u"confirmation"_s,
             InputRequests::elicitation(u"Go ahead?"_s, booleanSchema(u"confirm"_s, u"Go ahead"_s))}};
    }
    if (!task->inputRequests.isEmpty()) {
        task->status = u"input_required"_s;
        task->statusMessage = u"Waiting for the client's answers"_s;
    }
    task->timer = std::make_unique<QTimer>();
    const QString taskId = task->id;
    connect(task->timer.get(), &QTimer::timeout, this, [this, taskId] { step(taskId); });
    m_tasks.insert(task->id, task);
    m_order.append(task->id);
    return *task;
}

void Tasks::start(Task &task)
{
    if (task.status != u"working"_s)
        return;
    task.timer->start(task.stepMs);
}

void Tasks::step(const QString &taskId)
{
    const auto it = m_tasks.find(taskId);
    if (it == m_tasks.end())
        return;
    Task &task = **it;
    if (task.status != u"working"_s) {
        task.timer->stop();
        return;
    }
    ++task.done;
    if (task.done < task.steps) {
        if (task.tool == u"sync_group"_s) {
            setStatus(task, task.status,
                      u"Synchronising group %1: batch %2 of %3"_s
                          .arg(task.arguments.value(u"group_id"_s).toString())
                          .arg(task.done)
                          .arg(task.steps));
        } else {
            task.lastUpdatedAt = QDateTime::currentDateTimeUtc();
        }
        return;
    }
    task.timer->stop();
    finish(task);
}

void Tasks::finish(Task &task)
{
    const QJsonObject &arguments = task.arguments;
    const QString tool = task.tool;
    if (tool == u"protocol_error_job"_s) {
        task.error = QJsonObject{{u"code"_s, internalError},
                                 {u"message"_s, u"Internal error: the job's worker crashed"_s}};
        setStatus(task, u"failed"_s, u"The job's worker crashed"_s);
        return;
    }
    QString text;
    bool isError = false;
    if (tool == u"slow_compute"_s) {
        text = u"Computed %1 in %2 s."_s.arg(arguments.value(u"label"_s).toString(u"slow_compute"_s))
                   .arg(intArgument(arguments, u"seconds"_s, 1, 0, 3600));
    } else if (tool == u"failing_job"_s) {
        text = u"The job failed: the export target refused the upload."_s;
        isError = true;
    } else if (tool == u"confirm_delete"_s) {
        const QJsonObject answer = task.answers.value(u"confirm"_s).toObject();
        const bool yes = answer.value(u"action"_s).toString() == u"accept"_s &&
                         answer.value(u"content"_s)[u"confirm"_s].toBool();
        const QString file = arguments.value(u"filename"_s).toString();
        text = yes ? u"Deleted %1 (not really: the demo server changes nothing)."_s.arg(file)
                   : u"Kept %1: the deletion was not confirmed."_s.arg(file);
    } else if (tool == u"multi_input"_s) {
        const QString name = task.answers.value(u"user_name"_s)[u"content"_s][u"name"_s].toString();
        text = u"Hello, %1! Both answers arrived."_s.arg(name);
    } else if (tool == u"test_tool_with_task"_s) {
        text =
            u"Hello, %1! The task ran with the name you gave."_s.arg(arguments.value(u"name"_s).toString());
    } else {
        text = syncGroupText(arguments);
    }
    task.result = Blocks::toolResult({Blocks::text(text)}, isError);
    setStatus(task, u"completed"_s, isError ? u"Finished with a tool error"_s : u"Finished"_s);
}

void Tasks::setStatus(Task &task, const QString &status, const QString &message)
{
    task.status = status;
    task.statusMessage = message;
    task.lastUpdatedAt = QDateTime::currentDateTimeUtc();
    if (m_notify)
        m_notify(task.legacy ? legacyTask(task) : detailed(task), task.legacy);
    if (terminal(status))
        answerWaiting(task);
}

QJsonObject Tasks::created(const Task &task) const
{
    QJsonObject object{{u"resultType"_s, u"task"_s},
                       {u"taskId"_s, task.id},
                       {u"status"_s, task.status},
                       {u"createdAt"_s, stamp(task.createdAt)},
                       {u"lastUpdatedAt"_s, stamp(task.lastUpdatedAt)},
                       {u"ttlMs"_s, task.ttlMs},
                       {u"pollIntervalMs"_s, task.pollIntervalMs}};
    if (!task.statusMessage.isEmpty())
        object.insert(u"statusMessage"_s, task.statusMessage);
    return object;
}

QJsonObject Tasks::detailed(const Task &task) const
{
    QJsonObject object = created(task);
    object.remove(u"resultType"_s);
    if (task.status == u"completed"_s)
        object.insert(u"result"_s, task.result);
    else if (task.status == u"failed"_s)
        object.insert(u"error"_s, task.error);
    else if (task.status == u"input_required"_s)
        object.insert(u"inputRequests"_s, task.inputRequests);
    return object;
}

void Tasks::purgeExpired()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (auto it = m_tasks.begin(); it != m_tasks.end();) {
        if ((*it)->createdAt.msecsTo(now) > (*it)->ttlMs) {
            m_order.removeAll(it.key());
            it = m_tasks.erase(it);
        } else
            ++it;
    }
}

bool Tasks::handle(const QJsonValue &id, const QString &method, const CallContext &context,
                   DemoExchange *exchange)
{
    if (method != u"tasks/get"_s && method != u"tasks/update"_s && method != u"tasks/cancel"_s)
        return false;
    if (!declared(context)) {
        const Answer error = missingExtension();
        m_server.sendError(exchange, id, error.errorCode, error.errorMessage, error.httpStatus,
                           error.errorData);
        return true;
    }
    const QJsonValue taskId = context.params.value(u"taskId"_s);
    if (!taskId.isString()) {
        m_server.sendError(exchange, id, DemoServer::InvalidParams,
                           u"Invalid params: %1 needs a string taskId"_s.arg(method), 200);
        return true;
    }
    purgeExpired();
    const auto it = m_tasks.find(taskId.toString());
    if (it == m_tasks.end() || (*it)->legacy) {
        m_server.sendError(exchange, id, DemoServer::InvalidParams,
                           u"Unknown task: %1"_s.arg(taskId.toString()), 200,
                           QJsonObject{{u"taskId"_s, taskId}});
        return true;
    }
    Task &task = **it;
    if (method == u"tasks/get"_s) {
        m_server.sendResult(exchange, id, detailed(task), true);
        return true;
    }
    if (method == u"tasks/update"_s) {
        std::optional<Answer> error;
        const QJsonObject responses = InputRequests::responses(context.params, &error);
        if (error || !context.params.value(u"inputResponses"_s).isObject()) {
            m_server.sendError(exchange, id, DemoServer::InvalidParams,
                               u"Invalid params: tasks/update needs an inputResponses object"_s, 200);
            return true;
        }
        if (task.status == u"input_required"_s) {
            // Answers to requests still pending count; anything else is ignored.
            for (auto answer = responses.begin(); answer != responses.end(); ++answer) {
                if (task.inputRequests.contains(answer.key()) && answer.value().isObject()) {
                    task.inputRequests.remove(answer.key());
                    task.answers.insert(answer.key(), answer.value());
                }
            }
            if (task.inputRequests.isEmpty()) {
                setStatus(task, u"working"_s, u"Working with the answers"_s);
                start(task);
            } else {
                task.lastUpdatedAt = QDateTime::currentDateTimeUtc();
            }
        }
        m_server.sendResult(exchange, id, QJsonObject{}, true);
        return true;
    }
    // tasks/cancel: idempotent on a terminal task.
    if (!terminal(task.status)) {
        task.timer->stop();
        setStatus(task, u"cancelled"_s, u"Cancelled by the client"_s);
    }
    m_server.sendResult(exchange, id, QJsonObject{}, true);
    return true;
}

QJsonObject Tasks::legacyTask(const Task &task) const
{
    QJsonObject object{{u"taskId"_s, task.id},
                       {u"status"_s, task.status},
                       {u"createdAt"_s, stamp(task.createdAt)},
                       {u"lastUpdatedAt"_s, stamp(task.lastUpdatedAt)},
                       {u"ttl"_s, task.ttlMs},
                       {u"pollInterval"_s, task.pollIntervalMs}};
    if (!task.statusMessage.isEmpty())
        object.insert(u"statusMessage"_s, task.statusMessage);
    return object;
}

void Tasks::sendLegacyResult(const Task &task, const QJsonValue &id, DemoExchange *exchange)
{
    if (task.status == u"completed"_s) {
        QJsonObject result = task.result;
        result.insert(u"_meta"_s, QJsonObject{{u"io.modelcontextprotocol/related-task"_s,
                                               QJsonObject{{u"taskId"_s, task.id}}}});
        m_server.sendResult(exchange, id, result, false);
    } else if (task.status == u"failed"_s) {
        m_server.sendError(exchange, id, task.error.value(u"code"_s).toInt(),
                           task.error.value(u"message"_s).toString(), 200);
    } else {
        m_server.sendError(exchange, id, internalError,
                           u"Task %1 was cancelled: it has no result"_s.arg(task.id), 200);
    }
}

void Tasks::answerWaiting(Task &task)
{
    const auto waiting = std::exchange(task.waiting, {});
    for (const auto &[id, exchange] : waiting) {
        if (exchange)
            sendLegacyResult(task, id, exchange);
    }
}

bool Tasks::handleLegacy(const QJsonValue &id, const QString &method, const QJsonObject &params,
                         DemoExchange *exchange)
{
    if (method != u"tasks/get"_s && method != u"tasks/result"_s && method != u"tasks/list"_s &&
        method != u"tasks/cancel"_s)
        return false;
    purgeExpired();
    if (method == u"tasks/list"_s) {
        // Oldest first, legacyPageSize a page; the cursor is the offset of the next page.
        QStringList ids;
        for (const QString &taskId : std::as_const(m_order)) {
            if (m_tasks.value(taskId)->legacy)
                ids.append(taskId);
        }
        qsizetype offset = 0;
        const QJsonValue cursor = params.value(u"cursor"_s);
        if (!cursor.isUndefined()) {
            const auto fields = CursorCodec::decode(cursor.toString());
            if (!cursor.isString() || !fields || !fields->value(u"tasks"_s).isDouble()) {
                m_server.sendError(exchange, id, DemoServer::InvalidParams,
                                   u"Invalid params: unknown cursor"_s, 200);
                return true;
            }
            offset = qBound(qsizetype(0), qsizetype(fields->value(u"tasks"_s).toInteger()), ids.size());
        }
        QJsonArray page;
        for (qsizetype i = offset; i < qMin(offset + legacyPageSize, ids.size()); ++i)
            page.append(legacyTask(*m_tasks.value(ids.at(i))));
        QJsonObject result{{u"tasks"_s, page}};
        if (offset + legacyPageSize < ids.size())
            result.insert(u"nextCursor"_s, CursorCodec::encode({{u"tasks"_s, offset + legacyPageSize}}));
        m_server.sendResult(exchange, id, result, false);
        return true;
    }
    const QString taskId = params.value(u"taskId"_s).toString();
    const auto it = m_tasks.find(taskId);
    if (it == m_tasks.end() || !(*it)->legacy) {
        m_server.sendError(exchange, id, DemoServer::InvalidParams, u"Unknown task: %1"_s.arg(taskId), 200,
                           QJsonObject{{u"taskId"_s, taskId}});
        return true;
    }
    Task &task = **it;
    if (method == u"tasks/get"_s) {
        m_server.sendResult(exchange, id, legacyTask(task), false);
    } else if (method == u"tasks/result"_s) {
        if (terminal(task.status))
            sendLegacyResult(task, id, exchange);
        else
            task.waiting.append({id, QPointer<DemoExchange>(exchange)}); // answered when it ends
    } else if (terminal(task.status)) {                                  // tasks/cancel
        m_server.sendError(exchange, id, DemoServer::InvalidParams,
                           u"Task %1 is already %2: it cannot be cancelled"_s.arg(task.id, task.status), 200);
    } else {
        task.timer->stop();
        setStatus(task, u"cancelled"_s, u"Cancelled by the client"_s);
        m_server.sendResult(exchange, id, legacyTask(task), false);
    }
    return true;
}

} // namespace demo
