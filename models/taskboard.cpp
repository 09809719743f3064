#include "taskboard.h"

#include "clientinput.h"
#include "invocation.h"
#include "mcpclient.h"
#include "rpccall.h"
#include "terminaltext.h"
#include "ttlclock.h"

#include <QDateTime>
#include <QTimer>

namespace folio {

namespace {

QString ttlText(qint64 ms)
{
    if (ms == TaskInfo::Unlimited)
        return QStringLiteral("unlimited");
    if (ms < 0)
        return QStringLiteral("none given");
    if (ms % 1000 == 0)
        return QStringLiteral("%1 s").arg(ms / 1000);
    return QStringLiteral("%1 ms").arg(ms);
}

} // namespace

qint64 TaskRecord::expiresAtMonoMs() const
{
    if (createdMonoMs < 0 || task.ttlMs < 0)
        return -1;
    return createdMonoMs + task.ttlMs;
}

QString TaskRecord::statusLine() const
{
    switch (phase) {
    case Phase::Starting:
        return QStringLiteral("starting: tools/call %1 sent").arg(toolName);
    case Phase::Failed:
        return QStringLiteral("no task: ") + error.describe();
    default:
        break;
    }
    QString line = TaskInfo::statusLabel(task.status);
    if (task.status == TaskInfo::Status::Unknown && !task.statusText.isEmpty())
        line = QStringLiteral("status \"%1\"").arg(task.statusText);
    if (!task.statusMessage.isEmpty())
        line += QStringLiteral(": ") + task.statusMessage;
    else if (task.status == TaskInfo::Status::Failed && !task.error.isEmpty())
        line += QStringLiteral(": ") + task.error.value(QStringLiteral("message")).toString();
    if (phase == Phase::Finishing)
        line += QStringLiteral(" (fetching the result)");
    return line;
}

QJsonObject TaskRecord::toJson() const
{
    static const char *phases[] = {"starting", "running", "finishing", "ended", "failed"};
    QJsonObject o{
        {QStringLiteral("taskId"), task.taskId.isEmpty() ? QJsonValue() : QJsonValue(task.taskId)},
        {QStringLiteral("tool"), toolName},
        {QStringLiteral("status"), task.statusText.isEmpty() ? QJsonValue() : QJsonValue(task.statusText)},
        {QStringLiteral("statusMessage"),
         task.statusMessage.isEmpty() ? QJsonValue() : QJsonValue(task.statusMessage)},
        {QStringLiteral("phase"), QString::fromLatin1(phases[int(phase)])},
        {QStringLiteral("ttlMs"), task.ttlMs >= 0 ? QJsonValue(double(task.ttlMs)) : QJsonValue()},
        {QStringLiteral("pollIntervalMs"),
         task.pollIntervalMs >= 0 ? QJsonValue(double(task.pollIntervalMs)) : QJsonValue()},
        {QStringLiteral("polls"), polls},
        {QStringLiteral("notifications"), notifications},
        {QStringLiteral("findings"), Finding::toJson(findings)}};
    if (task.createdAt.isValid())
        o.insert(QStringLiteral("createdAt"), task.createdAt.toString(Qt::ISODateWithMs));
    if (task.lastUpdatedAt.isValid())
        o.insert(QStringLiteral("lastUpdatedAt"), task.lastUpdatedAt.toString(Qt::ISODateWithMs));
    if (!result.isEmpty())
        o.insert(QStringLiteral("result"), result);
    if (error.isError())
        o.insert(QStringLiteral("error"), error.describe());
    else if (!task.error.isEmpty())
        o.insert(QStringLiteral("error"), task.error);
    return o;
}

TaskBoard::TaskBoard(McpClient *client, TtlClock *clock, QObject *parent)
    : QAbstractTableModel(parent)
    , m_client(client)
    , m_clock(clock)
    , m_pollTimer(new QTimer(this))
{
    m_since.start();
    m_pollTimer->setSingleShot(true);
    connect(m_pollTimer, &QTimer::timeout, this, &TaskBoard::pollDue);
    connect(m_clock, &TtlClock::expired, this, &TaskBoard::handleExpired);
    if (m_client) {
        connect(m_client, &McpClient::taskStatusReceived, this,
                [this](const QJsonObject &task) { handleStatus(task, true); });
    }
}

TaskBoard::~TaskBoard()
{
    for (const TaskRecord &r : std::as_const(m_tasks))
        m_clock->unschedule(r.serial);
}

int TaskBoard::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_tasks.size());
}

int TaskBoard::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TaskBoard::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ToolColumn:
        return tr("Tool");
    case StatusColumn:
        return tr("Status");
    case MessageColumn:
        return tr("Message");
    case ExpiresColumn:
        return tr("Kept for");
    case TaskIdColumn:
        return tr("Task");
    default:
        return {};
    }
}

QString TaskBoard::displayText(const TaskRecord &r, int column) const
{
    switch (column) {
    case ToolColumn:
        return r.toolName;
    case StatusColumn:
        if (r.phase == TaskRecord::Phase::Starting)
            return tr("starting");
        if (r.phase == TaskRecord::Phase::Failed)
            return tr("no task");
        return r.task.status == TaskInfo::Status::Unknown && !r.task.statusText.isEmpty()
                   ? r.task.statusText
                   : TaskInfo::statusLabel(r.task.status);
    case MessageColumn:
        if (r.phase == TaskRecord::Phase::Failed || (r.error.isError() && !r.isLive()))
            return r.error.describe();
        if (!r.task.statusMessage.isEmpty())
            return r.task.statusMessage;
        if (r.task.status == TaskInfo::Status::Failed)
            return r.task.error.value(QStringLiteral("message")).toString();
        return {};
    case ExpiresColumn:
        return ttlText(r.task.ttlMs);
    case TaskIdColumn:
        return r.task.taskId;
    }
    return {};
}

QVariant TaskBoard::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_tasks.size())
        return {};
    const TaskRecord &r = m_tasks.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        // A server's words, shown as one line: nothing it sends can break the table or a terminal.
        return oneLineSafe(displayText(r, index.column()));
    case StatusRole:
        return int(r.task.status);
    case PhaseRole:
        return int(r.phase);
    case ExpiresAtRole:
        return r.expiresAtMonoMs();
    case TtlRole:
        return r.task.ttlMs;
    case SeverityRole: {
        int worst = -1;
        for (const Finding &f : r.findings)
            worst = qMax(worst, int(f.severity));
        return worst;
    }
    case SerialRole:
        return r.serial;
    default:
        return {};
    }
}

int TaskBoard::rowForTaskId(const QString &taskId) const
{
    for (int i = 0; i < m_tasks.size(); ++i) {
        if (!taskId.isEmpty() && m_tasks.at(i).task.taskId == taskId)
            return i;
    }
    return -1;
}

int TaskBoard::rowForSerial(quint64 serial) const
{
    for (int i = 0; i < m_tasks.size(); ++i) {
        if (m_tasks.at(i).serial == serial)
            return i;
    }
    return -1;
}

bool TaskBoard::offersTasks() const
{
    return m_client && m_client->offersTasks();
}

bool TaskBoard::toolRunsAsTask(const QJsonObject &tool)
{
    return taskSupport(tool) != QLatin1String("forbidden");
}

QString TaskBoard::taskSupport(const QJsonObject &tool)
{
    return McpClient::toolTaskSupport(tool);
}

int TaskBoard::start(const QJsonObject &tool, const QJsonObject &arguments, qint64 ttlMs)
{
    TaskRecord r;
    r.serial = m_clock->allocateKey();
    r.toolName = tool.value(QStringLiteral("name")).toString();
    r.arguments = arguments;
    r.legacyEra = m_client && !m_client->isModern();
    r.startedAtMs = QDateTime::currentMSecsSinceEpoch();
    const int row = int(m_tasks.size());
    beginInsertRows({}, row, row);
    m_tasks.append(r);
    endInsertRows();
    if (!m_client) {
        fail(row, McpError::make(McpError::Kind::Closed, tr("Not connected to the server")));
        return row;
    }
    m_client->followTaskStatus();
    Invocation *invocation = m_client->invokeToolAsTask(tool, arguments, ttlMs, this);
    m_inFlight.insert(r.serial, invocation);
    const quint64 serial = r.serial;
    connect(invocation, &Invocation::finished, this, [this, invocation, serial] {
        invocation->deleteLater();
        m_inFlight.remove(serial);
        handleCreated(serial, invocation->result(), invocation->error());
    });
    return row;
}

void TaskBoard::handleCreated(quint64 serial, const QJsonObject &result, const McpError &error)
{
    const int row = rowForSerial(serial);
    if (row < 0)
        return;
    if (error.isError()) {
        fail(row, error);
        return;
    }
    const bool isTask = result.value(QStringLiteral("resultType")) == QLatin1String("task") ||
                        result.value(QStringLiteral("task")).isObject();
    if (!isTask) {
        // The server ran it as a plain call (a tool it does not run as a task, or a server that
        // ignores the request for one): the result is here.
        TaskRecord &r = m_tasks[row];
        r.phase = TaskRecord::Phase::Ended;
        r.result = result;
        r.task.status = TaskInfo::Status::Completed;
        r.task.statusText = QStringLiteral("completed");
        r.task.statusMessage = tr("the server answered at once: no task was made");
        r.endedAtMs = QDateTime::currentMSecsSinceEpoch();
        changed(row);
        Q_EMIT taskEnded(row);
        return;
    }
    QString problem;
    const std::optional<TaskInfo> info = TaskInfo::fromJson(result, &problem);
    if (!info) {
        fail(row,
             McpError::make(McpError::Kind::Protocol,
                            tr("The server's answer to a task-augmented call is no task: %1").arg(problem)));
        return;
    }
    TaskRecord &r = m_tasks[row];
    r.task = *info;
    r.createdMonoMs = m_clock->nowMs();
    r.phase = TaskRecord::Phase::Running;
    if (r.expiresAtMonoMs() >= 0)
        m_clock->schedule(r.serial, r.expiresAtMonoMs());
    apply(row, *info);
}

void TaskBoard::apply(int row, const TaskInfo &info)
{
    TaskRecord &r = m_tasks[row];
    r.task.update(info);
    if (r.phase == TaskRecord::Phase::Running && r.task.isTerminal()) {
        if (r.task.status == TaskInfo::Status::Completed && !r.task.result && r.legacyEra) {
            fetchResult(row);
            return;
        }
        if (r.task.result)
            r.result = *r.task.result;
        end(row);
        return;
    }
    if (r.phase == TaskRecord::Phase::Running) {
        schedulePoll(row);
        if (r.task.status == TaskInfo::Status::InputRequired && !r.task.inputRequests.isEmpty())
            askInputs(row);
    }
    changed(row);
}

void TaskBoard::askInputs(int row)
{
    TaskRecord &r = m_tasks[row];
    const QList<InputRequest> requests = InputRequest::fromInputRequests(
        r.task.inputRequests, QStringLiteral("tools/call %1 (task)").arg(r.toolName));
    QList<InputReply *> fresh;
    for (const InputRequest &request : requests) {
        if (r.inputsAsked.contains(request.key))
            continue; // asked already (answered and sent, or waiting for the person)
        r.inputsAsked.append(request.key);
        auto *reply = new InputReply(request, this);
        m_inputs[r.serial].append(reply);
        const quint64 serial = r.serial;
        connect(reply, &InputReply::replied, this,
                [this, serial, reply](const QJsonObject &result, const McpError &error) {
                    inputReplied(serial, reply, result, error);
                });
        fresh.append(reply);
    }
    // Handed over only once all are connected: a responder may answer at once.
    for (InputReply *reply : std::as_const(fresh)) {
        if (reply->isOpen() && m_client)
            m_client->askInput(reply);
    }
}

void TaskBoard::inputReplied(quint64 serial, InputReply *reply, const QJsonObject &result,
                             const McpError &error)
{
    reply->deleteLater();
    m_inputs[serial].removeAll(reply);
    const int row = rowForSerial(serial);
    if (row < 0 || m_tasks.at(row).phase != TaskRecord::Phase::Running)
        return;
    TaskRecord &r = m_tasks[row];
    if (error.isError()) {
        // Not given: the task waits on; the person may cancel it.
        r.error = McpError::make(McpError::Kind::Cancelled,
                                 tr("The task's %1 was not answered: %2")
                                     .arg(InputRequest::kindName(reply->request().kind), error.describe()));
        changed(row);
        return;
    }
    r.inputAnswers.insert(reply->request().key, result);
    for (const QPointer<InputReply> &other : std::as_const(m_inputs[serial])) {
        if (other && other->isOpen())
            return; // the others first: one tasks/update carries them all
    }
    const QJsonObject answers = std::exchange(r.inputAnswers, {});
    ++r.inputsAnswered;
    changed(row);
    follow(serial, m_client->updateTask(r.task.taskId, answers, this), false,
           [this](int row, const RpcCall *call) {
               if (call->isError()) {
                   m_tasks[row].error = call->error();
                   changed(row);
                   return;
               }
               refresh(row); // where it stands now that it has its answers
           });
}

void TaskBoard::withdrawInputs(quint64 serial)
{
    for (const QPointer<InputReply> &reply : m_inputs.take(serial)) {
        if (reply && reply->isOpen())
            reply->withdraw();
    }
}

void TaskBoard::handleStatus(const QJsonObject &task, bool notification)
{
    const std::optional<TaskInfo> info = TaskInfo::fromJson(task);
    if (!info)
        return;
    const int row = rowForTaskId(info->taskId);
    if (row < 0)
        return; // a task of another client, or one forgotten here
    if (notification)
        ++m_tasks[row].notifications;
    if (m_tasks.at(row).phase != TaskRecord::Phase::Running) {
        changed(row);
        return;
    }
    apply(row, *info);
}

void TaskBoard::schedulePoll(int row)
{
    TaskRecord &r = m_tasks[row];
    if (m_inFlight.value(r.serial) || r.nextPollMs >= 0)
        return; // the answer schedules the next one, or one is due already
    const qint64 interval =
        r.task.pollIntervalMs >= 0 ? qMax(minPollMs, r.task.pollIntervalMs) : defaultPollMs;
    r.nextPollMs = m_since.elapsed() + qMin<qint64>(interval, 24LL * 3600 * 1000);
    armPollTimer();
}

void TaskBoard::armPollTimer()
{
    // One timer for every task: set for the earliest poll due (real time, whatever clock the
    // ttls count on: a replay's may stand still).
    qint64 next = -1;
    for (const TaskRecord &r : std::as_const(m_tasks)) {
        if (r.nextPollMs >= 0 && (next < 0 || r.nextPollMs < next))
            next = r.nextPollMs;
    }
    if (next < 0) {
        m_pollTimer->stop();
        return;
    }
    m_pollTimer->start(int(qMax<qint64>(0, next - m_since.elapsed())));
}

void TaskBoard::pollDue()
{
    const qint64 now = m_since.elapsed();
    QList<quint64> due;
    for (TaskRecord &r : m_tasks) {
        if (r.nextPollMs >= 0 && r.nextPollMs <= now) {
            r.nextPollMs = -1;
            due.append(r.serial);
        }
    }
    for (quint64 serial : std::as_const(due))
        poll(serial);
    armPollTimer();
}

void TaskBoard::poll(quint64 serial)
{
    const int row = rowForSerial(serial);
    if (row < 0 || m_tasks.at(row).phase != TaskRecord::Phase::Running || m_inFlight.value(serial))
        return;
    if (!m_client || m_client->state() != ClientState::Connected) {
        fail(row, McpError::make(McpError::Kind::Closed, tr("Not connected to the server")));
        return;
    }
    TaskRecord &r = m_tasks[row];
    ++r.polls;
    follow(serial, m_client->getTask(r.task.taskId, this), true, [this](int row, const RpcCall *call) {
        if (call->isError()) {
            // An unknown task (the server forgot it) ends it here; anything else is tried again.
            if (call->error().kind == McpError::Kind::Rpc && call->error().code == -32602) {
                fail(row, call->error());
                return;
            }
            // Anything else is asked again at the next poll, a few times: a server that only
            // ever fails tasks/get is not polled for ever.
            m_tasks[row].error = call->error();
            if (++m_tasks[row].failedPolls >= maxFailedPolls) {
                fail(row, call->error());
                return;
            }
            if (m_tasks.at(row).phase == TaskRecord::Phase::Running)
                schedulePoll(row);
            changed(row);
            return;
        }
        m_tasks[row].error = {};
        m_tasks[row].failedPolls = 0;
        const std::optional<TaskInfo> info = TaskInfo::fromJson(call->result());
        if (!info || info->taskId != m_tasks.at(row).task.taskId) {
            fail(row, McpError::make(McpError::Kind::Protocol,
                                     tr("tasks/get answered something that is not this task")));
            return;
        }
        if (m_tasks.at(row).phase == TaskRecord::Phase::Running)
            apply(row, *info);
        else
            changed(row);
    });
    changed(row);
}

void TaskBoard::follow(quint64 serial, RpcCall *call, bool inFlight,
                       const std::function<void(int row, const RpcCall *call)> &then)
{
    if (inFlight)
        m_inFlight.insert(serial, call);
    connect(call, &RpcCall::finished, this, [this, call, serial, inFlight, then] {
        call->deleteLater();
        if (inFlight)
            m_inFlight.remove(serial);
        const int row = rowForSerial(serial);
        if (row >= 0) // else the task was forgotten meanwhile
            then(row, call);
    });
}

bool TaskBoard::refresh(int row)
{
    if (row < 0 || row >= m_tasks.size() || m_tasks.at(row).phase != TaskRecord::Phase::Running)
        return false;
    m_tasks[row].nextPollMs = -1;
    poll(m_tasks.at(row).serial);
    armPollTimer();
    return true;
}

void TaskBoard::fetchResult(int row)
{
    TaskRecord &r = m_tasks[row];
    r.phase = TaskRecord::Phase::Finishing;
    changed(row);
    follow(r.serial, m_client->taskResult(r.task.taskId, this), true, [this](int row, const RpcCall *call) {
        if (call->isError())
            m_tasks[row].error = call->error();
        else
            m_tasks[row].result = call->result();
        end(row);
    });
}

bool TaskBoard::cancel(int row)
{
    if (row < 0 || row >= m_tasks.size())
        return false;
    TaskRecord &r = m_tasks[row];
    if (r.phase == TaskRecord::Phase::Starting) {
        // No task yet: withdraw the call itself.
        if (auto *invocation = qobject_cast<Invocation *>(m_inFlight.value(r.serial).data()))
            invocation->cancel();
        return true;
    }
    if (r.phase != TaskRecord::Phase::Running || !m_client)
        return false;
    r.cancelAsked = true;
    changed(row);
    follow(r.serial, m_client->cancelTask(r.task.taskId, this), false, [this](int row, const RpcCall *call) {
        if (call->isError()) {
            m_tasks[row].error = call->error();
            changed(row);
            Q_EMIT cancelAnswered(row, call->error());
            return;
        }
        // 2025 answers the task itself; 2026 only acknowledges: ask where it stands now.
        if (const std::optional<TaskInfo> info = TaskInfo::fromJson(call->result());
            info && info->taskId == m_tasks.at(row).task.taskId &&
            m_tasks.at(row).phase == TaskRecord::Phase::Running)
            apply(row, *info);
        else
            refresh(row);
        Q_EMIT cancelAnswered(row, {});
    });
    return true;
}

void TaskBoard::end(int row)
{
    TaskRecord &r = m_tasks[row];
    r.phase = TaskRecord::Phase::Ended;
    r.endedAtMs = QDateTime::currentMSecsSinceEpoch();
    withdrawInputs(r.serial);
    r.nextPollMs = -1;
    changed(row);
    Q_EMIT taskEnded(row);
}

void TaskBoard::fail(int row, const McpError &error)
{
    TaskRecord &r = m_tasks[row];
    r.phase = TaskRecord::Phase::Failed;
    r.error = error;
    withdrawInputs(r.serial);
    r.endedAtMs = QDateTime::currentMSecsSinceEpoch();
    r.nextPollMs = -1;
    m_clock->unschedule(r.serial);
    changed(row);
    Q_EMIT taskEnded(row);
}

void TaskBoard::handleExpired(const QList<quint64> &serials)
{
    for (quint64 serial : serials) {
        const int row = rowForSerial(serial);
        if (row < 0)
            continue;
        TaskRecord &r = m_tasks[row];
        r.ttlRanOut = true;
        if (r.phase == TaskRecord::Phase::Running) {
            addFinding(
                row, Finding::make(FindingId::TaskOutlivedTtl, {},
                                   tr("Task %1 (%2) was still %3 when its ttl of %4 ran out: the server may "
                                      "forget it before it ends")
                                       .arg(r.task.taskId, r.toolName, TaskInfo::statusLabel(r.task.status),
                                            ttlText(r.task.ttlMs)),
                                   {{QStringLiteral("taskId"), r.task.taskId},
                                    {QStringLiteral("tool"), r.toolName},
                                    {QStringLiteral("ttlMs"), double(r.task.ttlMs)},
                                    {QStringLiteral("status"), r.task.statusText}}));
        }
        changed(row);
    }
}

void TaskBoard::addFinding(int row, const Finding &finding)
{
    m_tasks[row].findings.append(finding);
    Q_EMIT findingsChanged();
}

void TaskBoard::remove(int row)
{
    if (row < 0 || row >= m_tasks.size())
        return;
    const quint64 serial = m_tasks.at(row).serial;
    const bool hadFindings = !m_tasks.at(row).findings.isEmpty();
    forget(serial);
    beginRemoveRows({}, row, row);
    m_tasks.removeAt(row);
    endRemoveRows();
    if (hadFindings)
        Q_EMIT findingsChanged();
}

void TaskBoard::forget(quint64 serial)
{
    m_clock->unschedule(serial);
    withdrawInputs(serial);
    if (QObject *pending = m_inFlight.take(serial).data()) {
        if (auto *invocation = qobject_cast<Invocation *>(pending))
            invocation->cancel();
        pending->disconnect(this);
        pending->deleteLater();
    }
}

void TaskBoard::clear()
{
    if (m_tasks.isEmpty())
        return;
    bool hadFindings = false;
    for (const TaskRecord &r : std::as_const(m_tasks)) {
        hadFindings = hadFindings || !r.findings.isEmpty();
        forget(r.serial);
    }
    beginResetModel();
    m_tasks.clear();
    endResetModel();
    if (hadFindings)
        Q_EMIT findingsChanged();
}

QList<Finding> TaskBoard::findings() const
{
    QList<Finding> all;
    for (const TaskRecord &r : m_tasks)
        all += r.findings;
    return all;
}

void TaskBoard::changed(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

} // namespace folio
