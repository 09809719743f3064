#include "taskscommand.h"

#include "callcommand.h"
#include "clioutput.h"
#include "commandline.h"
#include "interrupt.h"
#include "mcpclient.h"
#include "pagewalker.h"
#include "rpccall.h"
#include "toolcatalog.h"
#include "ttlclock.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QTimer>

namespace folio {

namespace {

const QString word = QStringLiteral("tasks");

QString msText(qint64 ms)
{
    if (ms == TaskInfo::Unlimited)
        return QStringLiteral("unlimited");
    if (ms < 0)
        return QStringLiteral("none given");
    if (ms >= 1000 && ms % 1000 == 0)
        return QStringLiteral("%1 s").arg(ms / 1000);
    return QStringLiteral("%1 ms").arg(ms);
}

// "name      value\n", the value made one line: a server's newline cannot forge a line of ours.
QString row(const char *name, const QString &value)
{
    return QString::fromLatin1(name).leftJustified(10) + oneLineSafe(value) + QLatin1Char('\n');
}

// Why a server offers no tasks, in its era's words.
QString noTasksText(const McpClient *client)
{
    if (client->isModern())
        return QStringLiteral("the server does not offer tasks: its capabilities.extensions do not "
                              "list %1 (revision %2)")
            .arg(McpClient::TasksExtension, client->protocolVersion());
    return QStringLiteral("the server does not offer tasks: its capabilities have no "
                          "tasks.requests.tools.call (revision %1; tasks came in 2025-11-25)")
        .arg(client->protocolVersion());
}

// A task a server answered with, as a record the printing reads (no tool: Folio did not start it).
TaskRecord recordOf(const TaskInfo &info, bool legacy)
{
    TaskRecord r;
    r.legacyEra = legacy;
    r.task = info;
    r.phase = info.isTerminal() ? TaskRecord::Phase::Ended : TaskRecord::Phase::Running;
    if (info.result)
        r.result = *info.result;
    return r;
}

} // namespace

QString TasksCommand::helpText()
{
    return QStringLiteral("Usage: folio tasks run TOOL [--args JSON] [--ttl-ms N] [options] <target>\n"
                          "       folio tasks get|result|cancel TASK_ID [options] <target>\n"
                          "       folio tasks list [options] <target>\n"
                          "\n"
                          "A task is a tool call the server runs on its own time, asked about later: the\n"
                          "2025-11-25 core tasks, or the 2026-07-28 extension\n"
                          "io.modelcontextprotocol/tasks.\n"
                          "\n"
                          "Actions:\n"
                          "  run TOOL         call TOOL as a task and follow it to its end, as the window\n"
                          "                   does: polled every pollInterval, its status notifications\n"
                          "                   followed, its result fetched; each change of status is a\n"
                          "                   line on stderr; then the task and its result are printed.\n"
                          "                   A tool whose execution.taskSupport is forbidden (or absent)\n"
                          "                   is refused. Ctrl-C (or SIGTERM) while it follows the task\n"
                          "                   asks tasks/cancel and waits up to 3 s (--timeout-ms if less)\n"
                          "                   for the server to confirm; a second Ctrl-C exits at once\n"
                          "  get TASK_ID      one tasks/get: the task as it stands\n"
                          "  result TASK_ID   the task's result: 2025-11-25 tasks/result (which waits until\n"
                          "                   the task ends); 2026-07-28 tasks/get, whose answer carries it\n"
                          "                   once the task completed\n"
                          "  cancel TASK_ID   tasks/cancel, then the task as it now stands\n"
                          "  list             every task the server lists (2025-11-25 tasks/list), walked\n"
                          "                   page by page as 'folio list tasks' walks it, with its options\n"
                          "                   and formats (table, json, ndjson, csv, sarif). The 2026-07-28\n"
                          "                   extension has no tasks/list\n"
                          "\n"
                          "Over stdio each command starts its own server, whose tasks end with it: asking\n"
                          "about a task later takes a server that outlives the command (--url, --server).\n"
                          "\n"
                          "Options:\n"
                          "  --args JSON      run: the tool's arguments, a JSON object (default {})\n"
                          "  --ttl-ms N       run: how long the server is asked to keep the task\n"
                          "                   (2025-11-25; a 2026-07-28 server picks it)\n"
                          "  --format F       text (default): the task, a line for each field, then its\n"
                          "                   result's content as 'folio call' prints it\n"
                          "                   json: run: {taskId, tool, status, statusMessage, phase,\n"
                          "                   ttlMs, pollIntervalMs, polls, notifications, createdAt,\n"
                          "                   lastUpdatedAt, result, error, findings}; get, result,\n"
                          "                   cancel: the server's answer exactly as received\n") +
           CommandLine::sharedOptionsHelp(19) + TargetOptions::helpText() +
           QStringLiteral(
               "\n"
               "Exit status:\n"
               "  0  run, result: the task completed and its result has no isError; get: the\n"
               "     server answered; cancel: the task now stands cancelled\n"
               "  1  the task failed, was cancelled or has no result yet, its result has\n"
               "     isError, the task is unknown to the server, or a request failed (a\n"
               "     JSON-RPC error, a timeout, the connection closed); list: as 'folio list'\n"
               "  2  bad usage, the server could not be reached, it does not offer tasks, it\n"
               "     does not run the tool as a task or list it, or (list) it has no tasks/list\n"
               "  130  run: interrupted by Ctrl-C (SIGINT; 143 for SIGTERM); the task was\n"
               "     cancelled, or stderr says why the cancel was not confirmed\n"
               "\n"
               "Examples:\n"
               "  folio tasks run sync_group --args '{\"group_id\":\"g01\",\"durationMs\":1500}' \\\n"
               "      -- folio-demo-server\n"
               "  folio-demo-server --era legacy --http 8080 &\n"
               "  folio tasks list --url http://127.0.0.1:8080/mcp\n"
               "  folio tasks cancel TASK_ID --url http://127.0.0.1:8080/mcp\n");
}

int TasksCommand::parse(const QStringList &arguments, Options *options)
{
    CommandLine line(word, arguments, QStringLiteral("text"));
    const QCommandLineOption args(QStringLiteral("args"), QStringLiteral("arguments"),
                                  QStringLiteral("JSON"));
    const QCommandLineOption ttl(QStringLiteral("ttl-ms"), QStringLiteral("ttl"), QStringLiteral("N"));
    line.parser().addOptions({args, ttl});
    if (const int code = line.parse(helpText()); code != ParseOk)
        return code;
    const QStringList words = line.positional();
    if (words.isEmpty())
        return line.usage(QStringLiteral("which action? run, get, result, cancel or list"));
    const QString action = words.constFirst();
    if (action == QLatin1String("run"))
        options->action = Action::Run;
    else if (action == QLatin1String("get"))
        options->action = Action::Get;
    else if (action == QLatin1String("result"))
        options->action = Action::Result;
    else if (action == QLatin1String("cancel"))
        options->action = Action::Cancel;
    else
        return line.usage(
            QStringLiteral("unknown action '%1': run, get, result, cancel or list").arg(action));
    const bool run = options->action == Action::Run;
    if (words.size() < 2)
        return line.usage(run ? QStringLiteral("which tool? (folio list tools shows them)")
                              : QStringLiteral("which task? give its TASK_ID"));
    if (words.size() > 2)
        return line.usage(
            QStringLiteral("one %1 at a time (unexpected '%2'); a stdio server's command goes after '--'")
                .arg(run ? QStringLiteral("tool") : QStringLiteral("task"), words.at(2)));
    (run ? options->tool : options->taskId) = words.at(1);
    QString problem;
    if (line.parser().isSet(args)) {
        if (!run)
            return line.usage(QStringLiteral("--args is for 'run'"));
        if (!line.jsonObject(args, QStringLiteral("{\"group_id\":\"g01\"}"), &options->arguments, &problem))
            return line.usage(problem);
    }
    if (line.parser().isSet(ttl)) {
        if (!run)
            return line.usage(QStringLiteral("--ttl-ms is for 'run'"));
        int value = 0;
        if (!line.positiveInt(ttl, &value))
            return line.usage(QStringLiteral("--ttl-ms wants a number of at least 1"));
        options->ttlMs = value;
    }
    if (!line.textOrJson(&options->json, &problem))
        return line.usage(problem);
    options->verbose = line.verbose();
    if (!line.readTarget(&options->server, &options->keychainToken, &problem))
        return line.usage(problem);
    return ParseOk;
}

QString TasksCommand::taskText(const TaskRecord &r)
{
    QString out;
    if (!r.task.taskId.isEmpty())
        out += row("task", r.task.taskId);
    if (!r.toolName.isEmpty())
        out += row("tool", r.toolName);
    out += row("status", r.statusLine());
    if (r.task.createdAt.isValid())
        out += row("created", r.task.createdAt.toString(Qt::ISODateWithMs));
    if (r.task.lastUpdatedAt.isValid())
        out += row("updated", r.task.lastUpdatedAt.toString(Qt::ISODateWithMs));
    if (r.phase != TaskRecord::Phase::Failed && !r.task.taskId.isEmpty()) {
        out += row("ttl", msText(r.task.ttlMs));
        out += row("poll", msText(r.task.pollIntervalMs));
    }
    if (r.polls > 0 || r.notifications > 0)
        out += row("followed", QStringLiteral("%1 tasks/get, %2 status notifications")
                                   .arg(QString::number(r.polls), QString::number(r.notifications)));
    for (const Finding &f : r.findings)
        out += row("finding", QStringLiteral("%1: %2").arg(f.id, f.message));
    if (!r.task.error.isEmpty())
        out += row("error", toJsonLine(r.task.error));
    else if (r.error.isError() && r.phase != TaskRecord::Phase::Failed)
        out += row("error", r.error.describe());
    if (!r.result.isEmpty())
        out += QStringLiteral("result:\n") + CallCommand::toolResultText(r.result);
    return out;
}

QString TasksCommand::progressLine(const TaskRecord &r)
{
    const QString id = r.task.taskId.isEmpty() ? r.toolName : r.task.taskId;
    return QStringLiteral("folio tasks: %1 %2\n").arg(oneLineSafe(id), oneLineSafe(r.statusLine()));
}

TasksCommand::TasksCommand(const Options &options, QObject *parent)
    : SessionCommand(word, options.server, options.keychainToken, parent)
    , m_options(options)
    , m_clock(new TtlClock(this))
{
    connect(m_session, &CliSession::watchdogFired, this, [this](const QString &message) {
        if (m_signal) {
            concludeInterrupt(false, message);
            return;
        }
        if (m_board && m_row >= 0)
            m_board->cancel(m_row); // the task is not left running on a server we walk away from
        fail(m_board ? 1 : 2, message);
    });
    connect(m_session, &CliSession::ready, this, &TasksCommand::begin);
    if (m_options.action == Action::Run) {
        m_interrupt = new Interrupt(this);
        connect(m_interrupt, &Interrupt::received, this, &TasksCommand::handleInterrupt);
    }
}

TasksCommand::~TasksCommand()
{
    // Before the TTL clock they schedule on.
    delete m_board;
    delete m_finder;
}

void TasksCommand::begin()
{
    McpClient *client = m_session->client();
    if (!client->offersTasks()) {
        fail(2, noTasksText(client));
        return;
    }
    switch (m_options.action) {
    case Action::Run:
        findTool();
        return;
    case Action::Get:
        ask(client->getTask(m_options.taskId, this), &TasksCommand::handleGot);
        return;
    case Action::Result:
        if (client->isModern()) {
            ask(client->getTask(m_options.taskId, this), &TasksCommand::handleResult);
            return;
        }
        // tasks/result answers when the task ends, which may be long after the timeout: the
        // request has none, and the watchdog does not count while it waits.
        printErr(QStringLiteral("folio tasks: waiting for task %1 to end (tasks/result)\n")
                     .arg(oneLineSafe(m_options.taskId)));
        m_session->stopWatchdog();
        ask(client->taskResult(m_options.taskId, this), &TasksCommand::handleResult);
        return;
    case Action::Cancel:
        ask(client->cancelTask(m_options.taskId, this), &TasksCommand::handleCancelled);
        return;
    }
}

void TasksCommand::ask(RpcCall *call, void (TasksCommand::*handle)(RpcCall *))
{
    connect(call, &RpcCall::finished, this, [this, call, handle] {
        call->deleteLater();
        if (!m_done)
            (this->*handle)(call);
    });
}

void TasksCommand::failRequest(const QString &method, const RpcCall *call)
{
    fail(1, QStringLiteral("%1 %2 failed: %3")
                .arg(method, oneLineSafe(m_options.taskId), call->error().describe()));
}

void TasksCommand::printTask(const QJsonObject &answer, const TaskInfo &info)
{
    if (m_options.json)
        printJson(toJsonText(answer).toUtf8());
    else
        printOut(taskText(recordOf(info, !m_session->client()->isModern())));
}

void TasksCommand::handleGot(RpcCall *call)
{
    if (call->isError()) {
        failRequest(QStringLiteral("tasks/get"), call);
        return;
    }
    QString problem;
    const std::optional<TaskInfo> info = TaskInfo::fromJson(call->result(), &problem);
    if (!info) {
        fail(1, QStringLiteral("tasks/get answered no task: %1").arg(problem));
        return;
    }
    printTask(call->result(), *info);
    if (m_options.action == Action::Cancel && info->status != TaskInfo::Status::Cancelled) {
        fail(1, QStringLiteral("task %1 is %2, not cancelled")
                    .arg(oneLineSafe(info->taskId), TaskInfo::statusLabel(info->status)));
        return;
    }
    finish(0);
}

void TasksCommand::handleResult(RpcCall *call)
{
    const bool modern = m_session->client()->isModern();
    const QString method = modern ? QStringLiteral("tasks/get") : QStringLiteral("tasks/result");
    if (call->isError()) {
        failRequest(method, call);
        return;
    }
    QJsonObject result = call->result();
    if (modern) {
        QString problem;
        const std::optional<TaskInfo> info = TaskInfo::fromJson(result, &problem);
        if (!info) {
            fail(1, QStringLiteral("tasks/get answered no task: %1").arg(problem));
            return;
        }
        if (!info->result) {
            // No result: say where the task stands instead.
            printTask(result, *info);
            fail(1, info->isTerminal()
                        ? QStringLiteral("task %1 is %2: it has no result")
                              .arg(oneLineSafe(info->taskId), TaskInfo::statusLabel(info->status))
                        : QStringLiteral("task %1 has no result yet: it is %2")
                              .arg(oneLineSafe(info->taskId), TaskInfo::statusLabel(info->status)));
            return;
        }
        result = *info->result;
    }
    if (m_options.json)
        printJson(toJsonText(result).toUtf8());
    else
        printOut(CallCommand::toolResultText(result));
    if (result.value(QStringLiteral("isError")).toBool(false)) {
        fail(1, QStringLiteral("the tool reported an error (isError: true)"));
        return;
    }
    finish(0);
}

void TasksCommand::handleCancelled(RpcCall *call)
{
    if (call->isError()) {
        failRequest(QStringLiteral("tasks/cancel"), call);
        return;
    }
    // 2025-11-25 answers the task itself; the 2026-07-28 extension only acknowledges: ask.
    if (TaskInfo::fromJson(call->result())) {
        handleGot(call);
        return;
    }
    ask(m_session->client()->getTask(m_options.taskId, this), &TasksCommand::handleGot);
}

void TasksCommand::findTool()
{
    m_finder = new ToolCatalog(m_session->client(), m_clock, this);
    connect(m_finder->walker(), &PageWalker::pageAccepted, m_session, &CliSession::kick);
    connect(m_finder, &ToolCatalog::found, this, &TasksCommand::handleToolsListed);
    m_finder->find();
}

void TasksCommand::handleToolsListed()
{
    if (!m_finder || m_board || m_done)
        return;
    const std::optional<QJsonObject> tool = m_finder->tool(m_options.tool);
    if (!tool) {
        fail(m_finder->isComplete() ? 2 : 1, m_finder->missingToolText(m_options.tool));
        return;
    }
    if (!TaskBoard::toolRunsAsTask(*tool)) {
        fail(2, QStringLiteral("the server does not run '%1' as a task: its execution.taskSupport is "
                               "\"forbidden\" or absent ('folio call %1' calls it)")
                    .arg(m_options.tool));
        return;
    }
    m_board = new TaskBoard(m_session->client(), m_clock, this);
    connect(m_board, &TaskBoard::dataChanged, this, &TasksCommand::handleTaskChanged);
    connect(m_board, &TaskBoard::taskEnded, this, &TasksCommand::handleTaskEnded);
    m_row = m_board->start(*tool, m_options.arguments, m_options.ttlMs);
}

void TasksCommand::handleTaskChanged()
{
    if (!m_board || m_row < 0 || m_done || m_signal)
        return;
    m_session->kick();
    const TaskRecord &r = m_board->record(m_row);
    if (!r.isLive())
        return; // the end is printed whole
    const QString line = progressLine(r);
    if (line != m_lastProgress) {
        m_lastProgress = line;
        printErr(line);
    }
}

void TasksCommand::handleTaskEnded(int row)
{
    if (!m_board || row != m_row || m_done)
        return;
    const TaskRecord &r = m_board->record(row);
    if (m_signal) { // the task ended while its cancel was awaited
        if (r.phase == TaskRecord::Phase::Failed)
            concludeInterrupt(false, r.error.describe());
        else if (r.task.status == TaskInfo::Status::Cancelled)
            concludeInterrupt(true);
        else
            concludeInterrupt(false,
                              QStringLiteral("it ended first: %1").arg(TaskInfo::statusLabel(r.task.status)));
        return;
    }
    if (m_options.json)
        printJson(toJsonText(r.toJson()).toUtf8());
    else
        printOut(taskText(r));
    if (r.phase == TaskRecord::Phase::Failed) {
        fail(1, QStringLiteral("no task: %1").arg(r.error.describe()));
        return;
    }
    if (r.task.status != TaskInfo::Status::Completed) {
        fail(1, QStringLiteral("task %1 %2")
                    .arg(oneLineSafe(r.task.taskId), TaskInfo::statusLabel(r.task.status)));
        return;
    }
    if (r.result.value(QStringLiteral("isError")).toBool(false)) {
        fail(1, QStringLiteral("the tool reported an error (isError: true)"));
        return;
    }
    if (r.error.isError()) { // 2025: tasks/result failed
        fail(1, QStringLiteral("its result could not be fetched: %1").arg(r.error.describe()));
        return;
    }
    finish(0);
}

void TasksCommand::handleInterrupt(int signal, int count)
{
    const QString name = Interrupt::signalName(signal);
    if (count > 1 || m_done) {
        // No more waiting, not even for the server to stop: the command goes now, and a stdio
        // server's process group with it (the transport kills it as it is destroyed).
        printErr(QStringLiteral("folio tasks: %1%2: exiting without waiting\n")
                     .arg(name, count > 1 ? QStringLiteral(" again") : QString()));
        m_exitCode = Interrupt::exitCode(signal);
        Q_EMIT finished(m_exitCode);
        return;
    }
    m_signal = signal;
    const TaskRecord *r = m_board && m_row >= 0 ? &m_board->record(m_row) : nullptr;
    if (!r || r->phase == TaskRecord::Phase::Starting || r->task.taskId.isEmpty()) {
        // No task known yet: nothing to cancel. A call in flight is withdrawn on the way out.
        if (r && r->phase == TaskRecord::Phase::Starting)
            m_board->cancel(m_row);
        fail(Interrupt::exitCode(signal),
             QStringLiteral("interrupted (%1) before the server named a task: nothing to cancel").arg(name));
        return;
    }
    if (r->phase != TaskRecord::Phase::Running) {
        fail(Interrupt::exitCode(signal),
             QStringLiteral("interrupted (%1): task %2 had ended already (%3): nothing to cancel")
                 .arg(name, oneLineSafe(r->task.taskId), TaskInfo::statusLabel(r->task.status)));
        return;
    }
    cancelOnInterrupt();
}

void TasksCommand::cancelOnInterrupt()
{
    // The board asks tasks/cancel and goes on following the task: its end (handleTaskEnded), or
    // the cancel's refusal, or the wait's end concludes.
    m_cancelledId = m_board->record(m_row).task.taskId;
    m_cancelPending = QStringLiteral("no answer to tasks/cancel");
    const int waitMs = qMin(cancelWaitMs, m_session->client()->config().requestTimeoutMs);
    m_cancelWait = new QTimer(this);
    m_cancelWait->setSingleShot(true);
    connect(m_cancelWait, &QTimer::timeout, this, [this, waitMs] {
        concludeInterrupt(false,
                          QStringLiteral("%1 within %2 ms").arg(m_cancelPending, QString::number(waitMs)));
    });
    m_cancelWait->start(waitMs);
    connect(m_board, &TaskBoard::cancelAnswered, this, [this](int row, const McpError &error) {
        if (row != m_row || m_done)
            return;
        if (error.isError()) {
            concludeInterrupt(false, QStringLiteral("tasks/cancel failed: %1").arg(error.describe()));
            return;
        }
        // Acknowledged, not yet ended: the board follows it until the wait ends.
        m_cancelPending = QStringLiteral("the server took tasks/cancel, but the task was still %1")
                              .arg(TaskInfo::statusLabel(m_board->record(m_row).task.status));
    });
    m_board->cancel(m_row);
}

void TasksCommand::concludeInterrupt(bool cancelled, const QString &why)
{
    if (m_done)
        return;
    if (m_cancelWait)
        m_cancelWait->stop();
    const QString name = Interrupt::signalName(m_signal);
    const QString id = oneLineSafe(m_cancelledId);
    fail(Interrupt::exitCode(m_signal),
         cancelled
             ? QStringLiteral("interrupted (%1): task %2 cancelled (the server confirmed it)").arg(name, id)
             : QStringLiteral("interrupted (%1): the cancel of task %2 was not confirmed: %3")
                   .arg(name, id, oneLineSafe(why)));
}

} // namespace folio
