// TaskBoard (issue 34, tasks): a task-augmented tools/call against the real demo server, over
// stdio and Streamable HTTP, in the 2026-07-28 tasks extension and the 2025-11-25 core tasks:
// a long task drains (polled, its status notifications followed) and ends with its result; one is
// cancelled; one outlives its ttl (a finding); a tool that is not a task answers at once. And a
// hostile server whose tasks/get only fails, with a pollInterval of 0: polled at the floor,
// given up after a few tries.

#include "clientinput.h"
#include "connectclient.h"
#include "mcpclient.h"
#include "scriptedtransport.h"
#include "serverconfig.h"
#include "serverprocess.h"
#include "taskboard.h"
#include "ttlclock.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace folio;

class tst_TaskBoard : public QObject
{
    Q_OBJECT

private:
    // A client on the demo server in era ("modern" or "legacy") over transport ("stdio",
    // "http"); null when it did not connect.
    McpClient *connectDemo(const QString &transport, const QString &era,
                           const QString &scenario = QStringLiteral("healthy"));
    QJsonObject tool(const QString &name);

    DefaultInputResponder m_responder;
    std::unique_ptr<testsupport::HttpDemo> m_http;
    std::unique_ptr<McpClient> m_client;
    std::unique_ptr<TtlClock> m_clock;
    std::unique_ptr<TaskBoard> m_board;

private Q_SLOTS:
    void cleanup();
    void readsBothShapes();
    void longTaskDrainsAndFinishes_data();
    void longTaskDrainsAndFinishes();
    void cancelledTask_data();
    void cancelledTask();
    void taskOutlivesItsTtl();
    void toolThatIsNoTaskAnswersAtOnce();
    void aTaskAsksForInput();
    void hostilePollingIsBounded();
};

void tst_TaskBoard::cleanup()
{
    m_board.reset();
    if (m_client)
        m_client->disconnectFromServer();
    m_client.reset();
    m_clock.reset();
    m_http.reset();
}

McpClient *tst_TaskBoard::connectDemo(const QString &transport, const QString &era, const QString &scenario)
{
    const QStringList args{QStringLiteral("--scenario"), scenario, QStringLiteral("--era"), era};
    ServerConfig config;
    if (transport == QLatin1String("http")) {
        m_http = std::make_unique<testsupport::HttpDemo>(scenario, QStringList{QStringLiteral("--era"), era});
        if (m_http->url().isEmpty())
            return nullptr;
        config = ServerConfig::remote(QUrl(m_http->url()));
    } else {
        config = ServerConfig::process(QStringLiteral(FOLIO_DEMO_SERVER), args);
    }
    m_client = std::make_unique<McpClient>();
    m_client->setConfig(config);
    // Elicitations are accepted with confirm: true (a task that asks for input).
    m_responder.elicitationValues = {{QStringLiteral("confirm"), true},
                                     {QStringLiteral("name"), QStringLiteral("Ada")}};
    m_client->setInputResponder(&m_responder);
    QString why;
    if (!testsupport::connectClient(*m_client, 10000, &why)) {
        qWarning("%s", qPrintable(why));
        return nullptr;
    }
    m_clock = std::make_unique<TtlClock>();
    m_board = std::make_unique<TaskBoard>(m_client.get(), m_clock.get());
    return m_client.get();
}

QJsonObject tst_TaskBoard::tool(const QString &name)
{
    // As tools/list lists it, as far as a task-augmented call reads it.
    QJsonObject t{{QStringLiteral("name"), name}};
    if (name == QLatin1String("sync_group"))
        t.insert(QStringLiteral("execution"),
                 QJsonObject{{QStringLiteral("taskSupport"), QStringLiteral("optional")}});
    else if (name == QLatin1String("confirm_delete") || name == QLatin1String("multi_input"))
        t.insert(QStringLiteral("execution"),
                 QJsonObject{{QStringLiteral("taskSupport"), QStringLiteral("required")}});
    return t;
}

void tst_TaskBoard::readsBothShapes()
{
    // 2025-11-25: a CreateTaskResult wraps the Task; ttl null is unlimited.
    const auto legacy = TaskInfo::fromJson(
        QJsonObject{{QStringLiteral("task"),
                     QJsonObject{{QStringLiteral("taskId"), QStringLiteral("t1")},
                                 {QStringLiteral("status"), QStringLiteral("working")},
                                 {QStringLiteral("createdAt"), QStringLiteral("2026-12-07T10:00:00.000Z")},
                                 {QStringLiteral("ttl"), QJsonValue::Null},
                                 {QStringLiteral("pollInterval"), 500}}}});
    QVERIFY(legacy);
    QCOMPARE(legacy->taskId, QStringLiteral("t1"));
    QCOMPARE(legacy->status, TaskInfo::Status::Working);
    QCOMPARE(legacy->ttlMs, TaskInfo::Unlimited);
    QCOMPARE(legacy->pollIntervalMs, 500);
    QVERIFY(legacy->createdAt.isValid());
    // 2026-07-28: flat, with ms names, and a DetailedTask's result inlined.
    const auto modern = TaskInfo::fromJson(
        QJsonObject{{QStringLiteral("resultType"), QStringLiteral("complete")},
                    {QStringLiteral("taskId"), QStringLiteral("t2")},
                    {QStringLiteral("status"), QStringLiteral("input_required")},
                    {QStringLiteral("ttlMs"), 600000},
                    {QStringLiteral("pollIntervalMs"), 1000},
                    {QStringLiteral("result"), QJsonObject{{QStringLiteral("content"), QJsonArray()}}}});
    QVERIFY(modern);
    QCOMPARE(modern->status, TaskInfo::Status::InputRequired);
    QCOMPARE(modern->ttlMs, 600000);
    QCOMPARE(modern->pollIntervalMs, 1000);
    QVERIFY(modern->result.has_value());
    // An odd status is kept as sent; no taskId is no task.
    const auto odd = TaskInfo::fromJson(QJsonObject{{QStringLiteral("taskId"), QStringLiteral("t3")},
                                                    {QStringLiteral("status"), QStringLiteral("zombie")}});
    QCOMPARE(odd->status, TaskInfo::Status::Unknown);
    QCOMPARE(odd->statusText, QStringLiteral("zombie"));
    QString problem;
    QVERIFY(!TaskInfo::fromJson(QJsonObject{{QStringLiteral("taskId"), 7}}, &problem));
    QVERIFY(problem.contains(QStringLiteral("taskId")));
}

void tst_TaskBoard::longTaskDrainsAndFinishes_data()
{
    QTest::addColumn<QString>("transport");
    QTest::addColumn<QString>("era");
    QTest::newRow("stdio, 2026-07-28 extension") << QStringLiteral("stdio") << QStringLiteral("modern");
    QTest::newRow("stdio, 2025-11-25 core tasks") << QStringLiteral("stdio") << QStringLiteral("legacy");
    QTest::newRow("http, 2026-07-28 extension") << QStringLiteral("http") << QStringLiteral("modern");
    QTest::newRow("http, 2025-11-25 core tasks") << QStringLiteral("http") << QStringLiteral("legacy");
}

void tst_TaskBoard::longTaskDrainsAndFinishes()
{
    QFETCH(QString, transport);
    QFETCH(QString, era);
    QVERIFY(connectDemo(transport, era));
    QVERIFY(m_board->offersTasks());
    QCOMPARE(m_client->offersTaskList(), era == QLatin1String("legacy"));
    QSignalSpy ended(m_board.get(), &TaskBoard::taskEnded);
    const int row = m_board->start(
        tool(QStringLiteral("sync_group")),
        {{QStringLiteral("group_id"), QStringLiteral("g01")}, {QStringLiteral("durationMs"), 1500}},
        era == QLatin1String("legacy") ? 60000 : -1);
    QCOMPARE(row, 0);
    QCOMPARE(m_board->record(0).phase, TaskRecord::Phase::Starting);
    QTRY_COMPARE_WITH_TIMEOUT(m_board->record(0).phase, TaskRecord::Phase::Running, 5000);
    const TaskRecord &r = m_board->record(0);
    QVERIFY(!r.task.taskId.isEmpty());
    QCOMPARE(r.task.status, TaskInfo::Status::Working);
    // The ttl the server keeps it for counts down on the TTL clock: the client's ask in 2025, the
    // server's own in 2026.
    QCOMPARE(r.task.ttlMs, era == QLatin1String("legacy") ? 60000 : 600000);
    QVERIFY(m_clock->isScheduled(r.serial));
    QCOMPARE(m_board->data(m_board->index(0, 0), TaskBoard::ExpiresAtRole).toLongLong(), r.expiresAtMonoMs());
    QCOMPARE(r.task.pollIntervalMs, 1000);
    // Draining: the status message moves through the batches.
    QTRY_VERIFY_WITH_TIMEOUT(m_board->record(0).task.statusMessage.contains(QStringLiteral("batch")), 5000);
    QVERIFY(ended.wait(10000));
    const TaskRecord &done = m_board->record(0);
    QCOMPARE(done.phase, TaskRecord::Phase::Ended);
    QCOMPARE(done.task.status, TaskInfo::Status::Completed);
    QVERIFY2(QJsonDocument(done.result).toJson().contains("Synchronised group g01"),
             QJsonDocument(done.result).toJson().constData());
    // Followed by its notifications (the demo sends one a batch), and not polled faster than the
    // server's 1 s asked.
    QVERIFY2(done.notifications > 0, qPrintable(QString::number(done.notifications)));
    QVERIFY2(done.polls <= 3, qPrintable(QString::number(done.polls)));
    QVERIFY(m_board->findings().isEmpty());
    QCOMPARE(m_board->data(m_board->index(0, TaskBoard::StatusColumn)).toString(),
             QStringLiteral("completed"));
}

void tst_TaskBoard::cancelledTask_data()
{
    QTest::addColumn<QString>("era");
    QTest::newRow("2026-07-28 extension") << QStringLiteral("modern");
    QTest::newRow("2025-11-25 core tasks") << QStringLiteral("legacy");
}

void tst_TaskBoard::cancelledTask()
{
    QFETCH(QString, era);
    QVERIFY(connectDemo(QStringLiteral("stdio"), era));
    QSignalSpy ended(m_board.get(), &TaskBoard::taskEnded);
    m_board->start(tool(QStringLiteral("sync_group")), {{QStringLiteral("group_id"), QStringLiteral("g02")},
                                                        {QStringLiteral("durationMs"), 60000}});
    QTRY_COMPARE_WITH_TIMEOUT(m_board->record(0).phase, TaskRecord::Phase::Running, 5000);
    QVERIFY(m_board->cancel(0));
    QVERIFY(m_board->record(0).cancelAsked);
    QVERIFY(ended.wait(5000));
    QCOMPARE(m_board->record(0).task.status, TaskInfo::Status::Cancelled);
    QCOMPARE(m_board->record(0).phase, TaskRecord::Phase::Ended);
    QVERIFY(!m_board->cancel(0)); // it has ended
    QVERIFY(!m_board->refresh(0));
}

void tst_TaskBoard::taskOutlivesItsTtl()
{
    // 2025-11-25 lets the client ask the ttl: 1 s (the demo's least) for a 4 s task.
    QVERIFY(connectDemo(QStringLiteral("stdio"), QStringLiteral("legacy")));
    QSignalSpy findings(m_board.get(), &TaskBoard::findingsChanged);
    m_board->start(
        tool(QStringLiteral("sync_group")),
        {{QStringLiteral("group_id"), QStringLiteral("g03")}, {QStringLiteral("durationMs"), 4000}}, 1000);
    QVERIFY(findings.wait(5000));
    const QList<Finding> all = m_board->findings();
    QCOMPARE(all.size(), 1);
    QCOMPARE(all.first().id, FindingId::TaskOutlivedTtl);
    QCOMPARE(all.first().severity, Finding::Severity::Warning);
    QCOMPARE(all.first().evidence.value(QStringLiteral("ttlMs")).toInteger(), 1000);
    QVERIFY(m_board->record(0).ttlRanOut);
    QCOMPARE(m_board->data(m_board->index(0, 0), TaskBoard::SeverityRole).toInt(),
             int(Finding::Severity::Warning));
    m_board->cancel(0);
}

void tst_TaskBoard::toolThatIsNoTaskAnswersAtOnce()
{
    QVERIFY(connectDemo(QStringLiteral("stdio"), QStringLiteral("modern")));
    QSignalSpy ended(m_board.get(), &TaskBoard::taskEnded);
    m_board->start(tool(QStringLiteral("get_post")), {{QStringLiteral("post_id"), QStringLiteral("p00001")}});
    QVERIFY(ended.wait(5000));
    const TaskRecord &r = m_board->record(0);
    QCOMPARE(r.phase, TaskRecord::Phase::Ended);
    QVERIFY(r.task.taskId.isEmpty());
    QVERIFY(r.task.statusMessage.contains(QStringLiteral("no task was made")));
    QVERIFY(!r.result.isEmpty());
}

// 2026: a task that stops at input_required with inputRequests (the demo's conformance fixtures)
// has each input answered through the client's responder, all of them sent back in one
// tasks/update, and then completes with what was answered.
void tst_TaskBoard::aTaskAsksForInput()
{
    QVERIFY(connectDemo(QStringLiteral("stdio"), QStringLiteral("modern"), QStringLiteral("conformance")));
    QSignalSpy asked(m_client.get(), &McpClient::inputRequested);
    QSignalSpy ended(m_board.get(), &TaskBoard::taskEnded);
    m_board->start(tool(QStringLiteral("confirm_delete")),
                   {{QStringLiteral("filename"), QStringLiteral("notes.txt")}});
    m_board->start(tool(QStringLiteral("multi_input")), {});
    QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 2, 10000);
    QCOMPARE(asked.size(), 3); // confirm; user_name and confirmation
    const TaskRecord &confirm = m_board->record(0);
    QCOMPARE(confirm.task.status, TaskInfo::Status::Completed);
    QCOMPARE(confirm.inputsAsked, QStringList{QStringLiteral("confirm")});
    QCOMPARE(confirm.inputsAnswered, 1);
    QVERIFY2(QJsonDocument(confirm.result).toJson().contains("Deleted notes.txt"),
             QJsonDocument(confirm.result).toJson().constData());
    const TaskRecord &both = m_board->record(1);
    QCOMPARE(both.inputsAsked.size(), 2);
    QCOMPARE(both.inputsAnswered, 1); // one tasks/update carried both
    QVERIFY2(QJsonDocument(both.result).toJson().contains("Hello, Ada!"),
             QJsonDocument(both.result).toJson().constData());
}

void tst_TaskBoard::hostilePollingIsBounded()
{
    QElapsedTimer since;
    QList<qint64> polledAt;
    std::unique_ptr<McpClient> client(connectedToScripted(
        nullptr,
        [&](const QString &method, const QJsonObject &) -> QJsonObject {
            if (method == QLatin1String("tools/call"))
                return {{QStringLiteral("resultType"), QStringLiteral("task")},
                        {QStringLiteral("taskId"), QStringLiteral("\x1b]0;owned\x07")},
                        {QStringLiteral("status"), QStringLiteral("working")},
                        {QStringLiteral("ttlMs"), 600000},
                        {QStringLiteral("pollIntervalMs"), 0}};
            if (method == QLatin1String("tasks/get")) {
                polledAt.append(since.elapsed());
                return {{QStringLiteral("error"),
                         QJsonObject{{QStringLiteral("code"), -32603},
                                     {QStringLiteral("message"), QStringLiteral("busy")}}}};
            }
            return QJsonObject{{QStringLiteral("resultType"), QStringLiteral("complete")}};
        },
        [](ScriptedTransport *t) {
            t->capabilities.insert(QStringLiteral("extensions"),
                                   QJsonObject{{McpClient::TasksExtension, QJsonObject()}});
        }));
    QVERIFY(client);
    TtlClock clock;
    TaskBoard board(client.get(), &clock);
    QVERIFY(board.offersTasks());
    QSignalSpy ended(&board, &TaskBoard::taskEnded);
    since.start();
    board.start(tool(QStringLiteral("sync_group")), {});
    QVERIFY(ended.wait(5000));
    QCOMPARE(board.record(0).phase, TaskRecord::Phase::Failed);
    QCOMPARE(polledAt.size(), TaskBoard::maxFailedPolls);
    for (int i = 1; i < polledAt.size(); ++i)
        QVERIFY2(polledAt.at(i) - polledAt.at(i - 1) >= TaskBoard::minPollMs - 5,
                 qPrintable(QString::number(polledAt.at(i) - polledAt.at(i - 1))));
    QVERIFY(board.record(0).error.describe().contains(QStringLiteral("busy")));
    // The server's taskId held an OSC sequence: the table shows it, never sends it.
    const QString shownId = board.data(board.index(0, TaskBoard::TaskIdColumn)).toString();
    QVERIFY2(shownId.contains(QStringLiteral("<U+001B>")) && !shownId.contains(QChar(0x1b)),
             qPrintable(shownId));
    board.clear();
    QCOMPARE(board.count(), 0);
}

QTEST_GUILESS_MAIN(tst_TaskBoard)
#include "tst_taskboard.moc"
