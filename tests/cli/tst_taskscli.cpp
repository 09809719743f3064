// folio tasks (issue 34) end to end: the real folio binary against the real demo server, over
// stdio in both eras (a task run to its end; a tool that is no task; a hostile status message)
// and over HTTP in the 2025-11-25 era, where tasks outlive a command (run, list across pages,
// get, cancel, result), and a 2026-07-28 server's list; Ctrl-C on a run cancels its task on the
// server, in both eras over both transports. And the text printing of a task with a crafted record.

#include "fixtureprocess.h"
#include "mcpclient.h"
#include "sessionrecording.h"
#include "taskscommand.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>
#include <signal.h>
#include <sys/types.h>

using namespace folio;
using fixtureprocess::folioBinary;
using fixtureprocess::Run;
using testsupport::HttpDemo;

namespace {

const QString demoServer = QStringLiteral(FOLIO_DEMO_SERVER);

QStringList stdioDemo(const QString &era)
{
    return {QStringLiteral("--"),    demoServer, QStringLiteral("--scenario"), QStringLiteral("healthy"),
            QStringLiteral("--era"), era};
}

QString syncArgs(int durationMs, const QString &group = QStringLiteral("g01"))
{
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("group_id"), group},
                                                       {QStringLiteral("durationMs"), durationMs}})
                                 .toJson(QJsonDocument::Compact));
}

} // namespace

class tst_TasksCli : public QObject
{
    Q_OBJECT

private:
    Run folio(const QStringList &arguments, int timeoutMs = 60000)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_config.path());
        env.remove(QStringLiteral("QT_LOGGING_RULES"));
        return fixtureprocess::folio(arguments, env, timeoutMs);
    }

    // folio in the background, for a test to send signals to.
    void startRun(QProcess &run, const QStringList &arguments)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_config.path());
        env.remove(QStringLiteral("QT_LOGGING_RULES"));
        run.setProcessEnvironment(env);
        // Whoever started the tests may have had SIGINT ignored ('&' in a script), which the run
        // would inherit and keep: it is caught only where it is not ignored.
        run.setChildProcessModifier([] { ::signal(SIGINT, SIG_DFL); });
        run.start(folioBinary, arguments);
        QVERIFY2(run.waitForStarted(10000), qPrintable(run.errorString()));
    }

    QTemporaryDir m_config;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(folioBinary), qPrintable(folioBinary));
        QVERIFY(m_config.isValid());
    }

    void help()
    {
        // Within 80 columns (but the target options' rows, which every command shares as they are).
        const Run run = folio({QStringLiteral("tasks"), QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("Usage: folio tasks"));
        const QByteArray own =
            run.out.left(run.out.indexOf("Target")) + run.out.mid(run.out.indexOf("Exit status"));
        for (const QByteArray &line : own.split('\n'))
            QVERIFY2(QString::fromUtf8(line).size() <= 80, line.constData());
        const Run main = folio({QStringLiteral("--help")});
        const QByteArray tasks = main.out.mid(main.out.indexOf("  tasks run|get|result|cancel|list"));
        QVERIFY(!tasks.isEmpty());
        for (const QByteArray &line : tasks.split('\n').mid(0, 3))
            QVERIFY2(QString::fromUtf8(line).size() <= 80, line.constData());
        const Run list = folio({QStringLiteral("list"), QStringLiteral("--help")});
        QVERIFY(list.out.contains("Or tasks: the"));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        const QStringList demo = stdioDemo(QStringLiteral("legacy"));
        QTest::newRow("no action") << QStringList{QStringLiteral("tasks")} + demo;
        QTest::newRow("unknown action")
            << QStringList{QStringLiteral("tasks"), QStringLiteral("poll")} + demo;
        QTest::newRow("run without a tool")
            << QStringList{QStringLiteral("tasks"), QStringLiteral("run")} + demo;
        QTest::newRow("get without an id")
            << QStringList{QStringLiteral("tasks"), QStringLiteral("get")} + demo;
        QTest::newRow("args on get") << QStringList{QStringLiteral("tasks"), QStringLiteral("get"),
                                                    QStringLiteral("x"), QStringLiteral("--args"),
                                                    QStringLiteral("{}")} +
                                            demo;
        QTest::newRow("bad ttl") << QStringList{QStringLiteral("tasks"), QStringLiteral("run"),
                                                QStringLiteral("sync_group"), QStringLiteral("--ttl-ms"),
                                                QStringLiteral("0")} +
                                        demo;
        QTest::newRow("no target") << QStringList{QStringLiteral("tasks"), QStringLiteral("get"),
                                                  QStringLiteral("x")};
        QTest::newRow("list as-client") << QStringList{QStringLiteral("tasks"), QStringLiteral("list"),
                                                       QStringLiteral("--as-client"), QStringLiteral("all")} +
                                               demo;
    }
    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        const Run run = folio(arguments);
        QVERIFY2(run.exitCode == 2, qPrintable(run.describe()));
        QVERIFY(run.out.isEmpty());
        QVERIFY(!run.err.isEmpty());
    }

    void runOverStdio_data()
    {
        QTest::addColumn<QString>("era");
        QTest::newRow("2026-07-28 extension") << QStringLiteral("modern");
        QTest::newRow("2025-11-25 core tasks") << QStringLiteral("legacy");
    }
    void runOverStdio()
    {
        QFETCH(QString, era);
        const Run text =
            folio(QStringList{QStringLiteral("tasks"), QStringLiteral("run"), QStringLiteral("sync_group"),
                              QStringLiteral("--args"), syncArgs(500)} +
                  stdioDemo(era));
        QVERIFY2(text.exitCode == 0, qPrintable(text.describe()));
        QVERIFY2(text.out.contains("Synchronised group"), qPrintable(text.describe()));
        QVERIFY2(text.out.contains("status    completed"), qPrintable(text.describe()));
        QVERIFY2(text.err.contains("folio tasks: "), qPrintable(text.describe())); // progress

        const Run json =
            folio(QStringList{QStringLiteral("tasks"), QStringLiteral("run"), QStringLiteral("sync_group"),
                              QStringLiteral("--args"), syncArgs(500), QStringLiteral("--format"),
                              QStringLiteral("json")} +
                  stdioDemo(era));
        QVERIFY2(json.exitCode == 0, qPrintable(json.describe()));
        QJsonParseError error;
        const QJsonObject task = QJsonDocument::fromJson(json.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(!task.value(QStringLiteral("taskId")).toString().isEmpty());
        QCOMPARE(task.value(QStringLiteral("status")).toString(), QStringLiteral("completed"));
        QCOMPARE(task.value(QStringLiteral("tool")).toString(), QStringLiteral("sync_group"));
        QVERIFY(QJsonDocument(task.value(QStringLiteral("result")).toObject())
                    .toJson()
                    .contains("Synchronised group"));
    }

    // get_post is no task (no execution.taskSupport): refused, with the command that calls it.
    void toolThatIsNoTask()
    {
        const Run run =
            folio(QStringList{QStringLiteral("tasks"), QStringLiteral("run"), QStringLiteral("get_post"),
                              QStringLiteral("--args"), QStringLiteral("{\"post_id\":\"p00001\"}")} +
                  stdioDemo(QStringLiteral("modern")));
        QVERIFY2(run.exitCode == 2, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("does not run 'get_post' as a task"), qPrintable(run.describe()));
        QVERIFY(run.err.contains("folio call get_post"));
        QVERIFY(run.out.isEmpty());
    }

    // Before 2025-11-25 there are no tasks: a server that answers 2024-11-05 (the fixture server)
    // is said to offer none, for every action and for the list.
    void serverWithoutTasks()
    {
        const QStringList target{QStringLiteral("--"), QStringLiteral(FOLIO_FIXTURE_SERVER),
                                 QStringLiteral("--mode"), QStringLiteral("old-revision")};
        for (const QStringList &words : {QStringList{QStringLiteral("run"), QStringLiteral("sync_group")},
                                         QStringList{QStringLiteral("get"), QStringLiteral("t1")},
                                         QStringList{QStringLiteral("list")}}) {
            const Run run = folio(QStringList{QStringLiteral("tasks")} + words + target);
            QVERIFY2(run.exitCode == 2, qPrintable(run.describe()));
            QVERIFY2(run.err.contains("the server does not offer tasks"), qPrintable(run.describe()));
            QVERIFY(run.out.isEmpty());
        }
    }

    // A status message carrying an escape sequence (the group id is in it) reaches stderr and
    // stdout only as <U+001B>.
    void hostileStatusMessage()
    {
        const QString group = QStringLiteral("g\x1b]0;owned\x07\x1b[31mred\nfolio tasks: forged");
        const Run run =
            folio(QStringList{QStringLiteral("tasks"), QStringLiteral("run"), QStringLiteral("sync_group"),
                              QStringLiteral("--args"), syncArgs(1200, group)} +
                  stdioDemo(QStringLiteral("modern")));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("<U+001B>"), qPrintable(run.describe()));
        QVERIFY(!run.err.contains('\x1b'));
        QVERIFY(!run.err.contains('\x07'));
        QVERIFY(!run.out.contains('\x1b'));
        // The newline in it does not start a line of its own.
        for (const QByteArray &line : run.err.split('\n'))
            QVERIFY2(!line.startsWith("folio tasks: forged"), run.err.constData());
    }

    void taskTextIsTerminalSafe()
    {
        TaskRecord r;
        r.toolName = QStringLiteral("sync_group");
        r.phase = TaskRecord::Phase::Running;
        r.task.taskId = QStringLiteral("t\x1b[2J1");
        r.task.status = TaskInfo::Status::Working;
        r.task.statusText = QStringLiteral("working");
        r.task.statusMessage = QStringLiteral("batch 1\x1b[31m of 3\nstatus    completed\u202e");
        for (const QString &text : {TasksCommand::taskText(r), TasksCommand::progressLine(r)}) {
            QVERIFY2(!text.contains(QChar(0x1b)), qPrintable(text));
            QVERIFY2(!text.contains(QChar(0x202e)), qPrintable(text));
            QVERIFY2(!text.contains(QStringLiteral("\nstatus    completed")), qPrintable(text));
            QVERIFY(text.contains(QStringLiteral("<U+001B>")));
        }
        QCOMPARE(TasksCommand::progressLine(r).count(QLatin1Char('\n')), 1);
    }

    // A 2026-07-28 server has no tasks/list.
    void modernServerHasNoList()
    {
        const Run run = folio(QStringList{QStringLiteral("tasks"), QStringLiteral("list")} +
                              stdioDemo(QStringLiteral("modern")));
        QVERIFY2(run.exitCode == 2, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("tasks/list does not exist in the 2026-07-28 tasks extension"),
                 qPrintable(run.describe()));
        const Run list = folio(QStringList{QStringLiteral("list"), QStringLiteral("tasks")} +
                               stdioDemo(QStringLiteral("modern")));
        QCOMPARE(list.exitCode, 2);
    }

    // Over HTTP (2025-11-25) tasks outlive a command: five run to their end, then listed across
    // two pages (3 a page); a long one started by a run in the background is cancelled by
    // another command, which the run sees; get and result ask about them.
    void legacyOverHttp()
    {
        HttpDemo server(QStringLiteral("healthy"), {QStringLiteral("--era"), QStringLiteral("legacy")});
        QVERIFY(!server.url().isEmpty());
        const QStringList target{QStringLiteral("--url"), server.url()};
        QStringList ids;
        for (int i = 0; i < 5; ++i) {
            const Run run =
                folio(QStringList{QStringLiteral("tasks"), QStringLiteral("run"),
                                  QStringLiteral("sync_group"), QStringLiteral("--args"), syncArgs(300),
                                  QStringLiteral("--format"), QStringLiteral("json")} +
                      target);
            QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
            ids << run.json().value(QStringLiteral("taskId")).toString();
        }

        const Run list = folio(QStringList{QStringLiteral("tasks"), QStringLiteral("list"),
                                           QStringLiteral("--format"), QStringLiteral("json")} +
                               target);
        QVERIFY2(list.exitCode == 0, qPrintable(list.describe()));
        const QJsonObject listed = list.json();
        QCOMPARE(listed.value(QStringLiteral("list")).toString(), QStringLiteral("tasks"));
        QVERIFY(listed.value(QStringLiteral("complete")).toBool());
        const QJsonArray pages = listed.value(QStringLiteral("pages")).toArray();
        QCOMPARE(pages.size(), 2);
        QCOMPARE(pages.at(0).toObject().value(QStringLiteral("itemCount")).toInt(), 3);
        QCOMPARE(pages.at(1).toObject().value(QStringLiteral("itemCount")).toInt(), 2);
        QStringList listedIds;
        for (const QJsonValue &t : listed.value(QStringLiteral("items")).toArray())
            listedIds << t.toObject().value(QStringLiteral("taskId")).toString();
        QCOMPARE(listedIds, ids);
        const Run table = folio(QStringList{QStringLiteral("list"), QStringLiteral("tasks")} + target);
        QVERIFY2(table.exitCode == 0, qPrintable(table.describe()));
        QVERIFY(table.out.contains(ids.first().toUtf8()));
        QVERIFY(table.out.contains("completed"));

        const Run get =
            folio(QStringList{QStringLiteral("tasks"), QStringLiteral("get"), ids.at(1)} + target);
        QVERIFY2(get.exitCode == 0, qPrintable(get.describe()));
        QVERIFY(get.out.contains(ids.at(1).toUtf8()));
        QVERIFY(get.out.contains("completed"));
        const Run result =
            folio(QStringList{QStringLiteral("tasks"), QStringLiteral("result"), ids.at(1)} + target);
        QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));
        QVERIFY(result.out.contains("Synchronised group"));
        const Run unknown = folio(
            QStringList{QStringLiteral("tasks"), QStringLiteral("get"), QStringLiteral("no-such-task")} +
            target);
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains("Unknown task"));

        // A long task, run in the background, cancelled by another command.
        QProcess longRun;
        longRun.start(folioBinary,
                      QStringList{QStringLiteral("tasks"), QStringLiteral("run"),
                                  QStringLiteral("sync_group"), QStringLiteral("--args"), syncArgs(60000)} +
                          target);
        static const QRegularExpression started(QStringLiteral("folio tasks: (\\S+) working"));
        QByteArray said;
        QString longId;
        QTRY_VERIFY_WITH_TIMEOUT((said += longRun.readAllStandardError(),
                                  longId = started.match(QString::fromUtf8(said)).captured(1),
                                  !longId.isEmpty()),
                                 20000);
        const Run cancel =
            folio(QStringList{QStringLiteral("tasks"), QStringLiteral("cancel"), longId} + target);
        QVERIFY2(cancel.exitCode == 0, qPrintable(cancel.describe()));
        QVERIFY(cancel.out.contains("cancelled"));
        const Run after = folio(QStringList{QStringLiteral("tasks"), QStringLiteral("get"), longId,
                                            QStringLiteral("--format"), QStringLiteral("json")} +
                                target);
        QVERIFY2(after.exitCode == 0, qPrintable(after.describe()));
        QCOMPARE(after.json().value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));
        QVERIFY(longRun.waitForFinished(20000));
        QCOMPARE(longRun.exitCode(), 1); // the run saw its task cancelled
        QVERIFY(longRun.readAllStandardOutput().contains("cancelled"));
        // Cancelling it again: the 2025-11-25 server refuses (it has ended).
        const Run again =
            folio(QStringList{QStringLiteral("tasks"), QStringLiteral("cancel"), longId} + target);
        QCOMPARE(again.exitCode, 1);
    }

    // Ctrl-C while a run follows a task: the task is cancelled on the server (tasks/cancel; in
    // 2026-07-28 acknowledged, then asked with tasks/get), stderr says so in one line, and the
    // exit status is 130 (SIGTERM: 143). The proof is the server's: over HTTP it outlives the run and
    // 'folio tasks get' finds the task cancelled; over stdio it goes with the run, so it is put
    // behind 'folio tap --record', whose recording holds what the server answered.
    void ctrlCCancelsTheTaskOnTheServer_data()
    {
        QTest::addColumn<QString>("era");
        QTest::addColumn<bool>("http");
        QTest::addColumn<int>("signal");
        QTest::newRow("2026-07-28 stdio") << QStringLiteral("modern") << false << SIGINT;
        QTest::newRow("2025-11-25 stdio") << QStringLiteral("legacy") << false << SIGINT;
        QTest::newRow("2026-07-28 http") << QStringLiteral("modern") << true << SIGINT;
        QTest::newRow("2025-11-25 http") << QStringLiteral("legacy") << true << SIGINT;
        // SIGTERM (as a service manager or 'kill' sends it) does the same, but exits 143.
        QTest::newRow("2026-07-28 stdio SIGTERM") << QStringLiteral("modern") << false << SIGTERM;
        QTest::newRow("2025-11-25 http SIGTERM") << QStringLiteral("legacy") << true << SIGTERM;
    }
    void ctrlCCancelsTheTaskOnTheServer()
    {
        QFETCH(QString, era);
        QFETCH(bool, http);
        QFETCH(int, signal);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString recording = dir.filePath(QStringLiteral("tap.folio"));
        std::unique_ptr<HttpDemo> server;
        QStringList target;
        if (http) {
            server = std::make_unique<HttpDemo>(QStringLiteral("healthy"),
                                                QStringList{QStringLiteral("--era"), era});
            QVERIFY(!server->url().isEmpty());
            target = {QStringLiteral("--url"), server->url()};
        } else {
            target = QStringList{QStringLiteral("--"),       folioBinary, QStringLiteral("tap"),
                                 QStringLiteral("--record"), recording,   QStringLiteral("--quiet")} +
                     stdioDemo(era);
        }

        QProcess run;
        startRun(run, QStringList{QStringLiteral("tasks"), QStringLiteral("run"),
                                  QStringLiteral("sync_group"), QStringLiteral("--args"), syncArgs(60000)} +
                          target);
        if (QTest::currentTestFailed())
            return;
        static const QRegularExpression started(QStringLiteral("folio tasks: (\\S+) working"));
        QByteArray said;
        QString id;
        QTRY_VERIFY_WITH_TIMEOUT((said += run.readAllStandardError(),
                                  id = started.match(QString::fromUtf8(said)).captured(1), !id.isEmpty()),
                                 20000);

        QElapsedTimer interrupted;
        interrupted.start();
        QCOMPARE(::kill(pid_t(run.processId()), signal), 0);
        QVERIFY2(run.waitForFinished(10000), said.constData());
        said += run.readAllStandardError();
        QVERIFY2(interrupted.elapsed() < 8000, said.constData()); // the cancel's wait is 3 s at most
        QCOMPARE(run.exitStatus(), QProcess::NormalExit);
        QVERIFY2(run.exitCode() == (signal == SIGINT ? 130 : 143), said.constData());
        const QString name = signal == SIGINT ? QStringLiteral("SIGINT") : QStringLiteral("SIGTERM");
        QVERIFY2(
            said.contains(
                QStringLiteral("folio tasks: interrupted (%1): task %2 cancelled").arg(name, id).toUtf8()),
            said.constData());
        QVERIFY(!said.contains('\x1b'));
        QVERIFY(!said.contains('\x07'));
        QVERIFY(run.readAllStandardOutput().isEmpty());

        if (http) {
            const Run after = folio(QStringList{QStringLiteral("tasks"), QStringLiteral("get"), id,
                                                QStringLiteral("--format"), QStringLiteral("json")} +
                                    target);
            QVERIFY2(after.exitCode == 0, qPrintable(after.describe()));
            QCOMPARE(after.json().value(QStringLiteral("status")).toString(), QStringLiteral("cancelled"));
            return;
        }
        // The tap wrote its recording as it ended, before the run's shutdown let go of it.
        QString error;
        std::optional<SessionRecording> rec;
        QTRY_VERIFY2_WITH_TIMEOUT((rec = SessionRecording::load(recording, &error)).has_value(),
                                  qPrintable(error), 10000);
        static const QRegularExpression cancelledTask(QStringLiteral("\"status\"\\s*:\\s*\"cancelled\""));
        bool cancelAsked = false;
        bool cancelledSaid = false;
        for (const SessionRecording::Event &e : rec->events) {
            if (e.type == SessionRecording::Event::Type::Send && e.text.contains("\"tasks/cancel\"") &&
                e.text.contains(id.toUtf8()))
                cancelAsked = true;
            if (e.type == SessionRecording::Event::Type::Receive && e.text.contains(id.toUtf8()) &&
                cancelledTask.match(QString::fromUtf8(e.text)).hasMatch())
                cancelledSaid = true;
        }
        QVERIFY(cancelAsked);
        QVERIFY(cancelledSaid); // the server's own word
    }

    // A server that does not answer the cancel (stopped with SIGSTOP): the run waits no longer
    // than --timeout-ms (here shorter than 3 s), says the cancel was not confirmed and why, and
    // exits 130. A second SIGINT during that wait ends the run at once, without the line.
    void ctrlCWhenTheServerDoesNotAnswer()
    {
        QProcess server;
        server.start(demoServer,
                     {QStringLiteral("--scenario"), QStringLiteral("healthy"), QStringLiteral("--era"),
                      QStringLiteral("legacy"), QStringLiteral("--http"), QStringLiteral("0")});
        const QString url = testsupport::listeningUrl(server);
        QVERIFY(!url.isEmpty());
        const auto resume = qScopeGuard([&server] {
            ::kill(pid_t(server.processId()), SIGCONT);
            server.kill();
            server.waitForFinished(5000);
        });
        static const QRegularExpression started(QStringLiteral("folio tasks: (\\S+) working"));
        for (const bool twice : {false, true}) {
            QVERIFY(::kill(pid_t(server.processId()), SIGCONT) == 0);
            QProcess run;
            startRun(run, {QStringLiteral("tasks"), QStringLiteral("run"), QStringLiteral("sync_group"),
                           QStringLiteral("--args"), syncArgs(60000), QStringLiteral("--timeout-ms"),
                           QString::number(twice ? 20000 : 1000), QStringLiteral("-v"),
                           QStringLiteral("--url"), url});
            if (QTest::currentTestFailed())
                return;
            QByteArray said;
            QString id;
            QTRY_VERIFY_WITH_TIMEOUT((said += run.readAllStandardError(),
                                      id = started.match(QString::fromUtf8(said)).captured(1), !id.isEmpty()),
                                     20000);
            QVERIFY(::kill(pid_t(server.processId()), SIGSTOP) == 0);
            QCOMPARE(::kill(pid_t(run.processId()), SIGINT), 0);
            if (twice) {
                // Sent once the first was taken (two at once would be one: signals do not queue).
                QTRY_VERIFY_WITH_TIMEOUT(
                    (said += run.readAllStandardError(), said.contains("SIGINT received")), 10000);
                QCOMPARE(::kill(pid_t(run.processId()), SIGINT), 0);
            }
            QVERIFY2(run.waitForFinished(10000), said.constData());
            said += run.readAllStandardError();
            QCOMPARE(run.exitStatus(), QProcess::NormalExit);
            QVERIFY2(run.exitCode() == 130, said.constData());
            QVERIFY(!said.contains('\x1b'));
            if (twice) {
                QVERIFY2(said.contains("folio tasks: SIGINT again: exiting without waiting"),
                         said.constData());
                QVERIFY2(!said.contains("was not confirmed"), said.constData()); // no waiting
            } else {
                QVERIFY2(
                    said.contains(QStringLiteral("folio tasks: interrupted (SIGINT): the cancel of task %1 "
                                                 "was not confirmed: no answer to tasks/cancel within "
                                                 "1000 ms")
                                      .arg(id)
                                      .toUtf8()),
                    said.constData());
            }
        }
    }

    // Before the server named a task (here: still connecting to a server that takes its time to
    // start), there is nothing to cancel: the run exits at once with 130, and the server's
    // process goes with it.
    void ctrlCBeforeTheTask()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString pidFile = dir.filePath(QStringLiteral("server.pid"));
        QProcess run;
        startRun(run,
                 {QStringLiteral("tasks"), QStringLiteral("run"), QStringLiteral("sync_group"),
                  QStringLiteral("-v"), QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                  QStringLiteral("echo $$ > \"$1.new\"; mv \"$1.new\" \"$1\"; "
                                 "sleep 30; exec \"$2\""),
                  QStringLiteral("sh"), pidFile, demoServer});
        if (QTest::currentTestFailed())
            return;
        const auto readPid = [&pidFile] {
            QFile file(pidFile);
            return file.open(QIODevice::ReadOnly) ? pid_t(file.readAll().trimmed().toInt()) : pid_t(0);
        };
        QByteArray said;
        pid_t serverPid = 0;
        QTRY_VERIFY_WITH_TIMEOUT((said += run.readAllStandardError(), serverPid = readPid(),
                                  said.contains("-> server/discover") && serverPid > 0),
                                 20000);
        QCOMPARE(::kill(pid_t(run.processId()), SIGINT), 0);
        QVERIFY2(run.waitForFinished(10000), said.constData());
        said += run.readAllStandardError();
        QCOMPARE(run.exitStatus(), QProcess::NormalExit);
        QVERIFY2(run.exitCode() == 130, said.constData());
        QVERIFY2(said.contains("folio tasks: interrupted (SIGINT) before the server named a task: nothing "
                               "to cancel"),
                 said.constData());
        QTRY_VERIFY_WITH_TIMEOUT(::kill(serverPid, 0) != 0, 5000); // the server is gone
    }

    // The 2026-07-28 extension over HTTP: a task outlives the run; result reads it from tasks/get.
    void modernOverHttp()
    {
        HttpDemo server(QStringLiteral("healthy"));
        QVERIFY(!server.url().isEmpty());
        const QStringList target{QStringLiteral("--url"), server.url()};
        const Run run = folio(QStringList{QStringLiteral("tasks"), QStringLiteral("run"),
                                          QStringLiteral("sync_group"), QStringLiteral("--args"),
                                          syncArgs(300), QStringLiteral("--format"), QStringLiteral("json")} +
                              target);
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
        const QString id = run.json().value(QStringLiteral("taskId")).toString();
        const Run result = folio(QStringList{QStringLiteral("tasks"), QStringLiteral("result"), id} + target);
        QVERIFY2(result.exitCode == 0, qPrintable(result.describe()));
        QVERIFY(result.out.contains("Synchronised group"));
        const Run cancel = folio(QStringList{QStringLiteral("tasks"), QStringLiteral("cancel"), id} + target);
        QCOMPARE(cancel.exitCode, 1); // it had completed: the ack, then tasks/get says so
        QVERIFY2(cancel.err.contains("not cancelled"), qPrintable(cancel.describe()));
        const Run list = folio(QStringList{QStringLiteral("tasks"), QStringLiteral("list")} + target);
        QCOMPARE(list.exitCode, 2);
        QVERIFY(list.err.contains("tasks/list does not exist in the 2026-07-28 tasks extension"));
    }
};

QTEST_GUILESS_MAIN(tst_TasksCli)
#include "tst_taskscli.moc"
