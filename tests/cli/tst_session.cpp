// Recorded sessions end to end: `folio record` against the real demo server (stdio and HTTP), the
// server stopped, then `folio replay ... list ... --format json` compared with what `folio list`
// printed live; damaged and foreign files get a clear error and exit 2.

#include "fixtureprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString demoServer = QStringLiteral(FOLIO_DEMO_SERVER);
using fixtureprocess::folioBinary;
using fixtureprocess::Run;
using testsupport::HttpDemo;

// What a replay cannot repeat: when things happened and how long they took.
QJsonValue withoutTimes(const QJsonValue &v)
{
    static const QStringList times{QStringLiteral("latencyMs"), QStringLiteral("receivedAtMs"),
                                   QStringLiteral("sentAtMs"), QStringLiteral("elapsedMs")};
    if (v.isObject()) {
        QJsonObject o;
        const QJsonObject in = v.toObject();
        for (auto it = in.begin(); it != in.end(); ++it) {
            if (!times.contains(it.key()))
                o.insert(it.key(), withoutTimes(it.value()));
        }
        return o;
    }
    if (v.isArray()) {
        QJsonArray a;
        for (const QJsonValue &x : v.toArray())
            a.append(withoutTimes(x));
        return a;
    }
    return v;
}

} // namespace

class TestSession : public QObject
{
    Q_OBJECT

    Run folio(const QStringList &arguments)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("FOLIO_TEST_TOKEN"), QStringLiteral("sekrit-token-4711"));
        return fixtureprocess::folio(arguments, env, 60000);
    }

    QString path(const QString &name) const { return m_dir.filePath(name); }

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(folioBinary), qPrintable(folioBinary));
        QVERIFY(m_dir.isValid());
    }

    // Over stdio the server is gone once the command ends: the replay runs on the file alone.
    void replayPrintsWhatListPrinted_data()
    {
        QTest::addColumn<QString>("list");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("tools") << QStringLiteral("tools") << 0;
        QTest::newRow("prompts") << QStringLiteral("prompts") << 0;
        QTest::newRow("templates (a cursor loop)") << QStringLiteral("templates") << 1;
        QTest::newRow("a list tool") << QStringLiteral("tool:list_users") << 0;
    }
    void replayPrintsWhatListPrinted()
    {
        QFETCH(QString, list);
        QFETCH(int, exitCode);
        const QStringList target{QStringLiteral("--"), demoServer, QStringLiteral("--scenario"),
                                 QStringLiteral("tour")};
        const QString file = path(QStringLiteral("tour.folio"));
        if (!QFile::exists(file)) {
            const Run record =
                folio(QStringList{QStringLiteral("record"), QStringLiteral("-o"), file} + target);
            QVERIFY2(record.exitCode == 1, record.err.constData()); // the tour has errors on purpose
            QVERIFY2(record.err.contains("saved to"), record.err.constData());
        }
        const Run live = folio(
            QStringList{QStringLiteral("list"), list, QStringLiteral("--format"), QStringLiteral("json")} +
            target);
        QCOMPARE(live.exitCode, exitCode);
        const Run replay = folio({QStringLiteral("replay"), file, QStringLiteral("list"), list,
                                  QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(replay.exitCode == exitCode, replay.err.constData());
        const QJsonObject recorded = QJsonDocument::fromJson(live.out).object();
        const QJsonObject replayed = QJsonDocument::fromJson(replay.out).object();
        QVERIFY(!recorded.value(QStringLiteral("pages")).toArray().isEmpty());
        QCOMPARE(withoutTimes(replayed), withoutTimes(recorded));
    }

    // Over HTTP, with a bearer token: the server is stopped before the replay, and the token is
    // nowhere in the file.
    void replayWithTheServerStopped()
    {
        // healthy: its cursors do not hold the time they were issued at, so two runs agree
        HttpDemo server(QStringLiteral("healthy"));
        QVERIFY(!server.url().isEmpty());
        const QString file = path(QStringLiteral("http.folio"));
        const QStringList target{QStringLiteral("--url"), server.url(), QStringLiteral("--token-env"),
                                 QStringLiteral("FOLIO_TEST_TOKEN")};
        const Run record = folio(QStringList{QStringLiteral("record"), QStringLiteral("-o"), file} + target);
        QVERIFY2(record.exitCode == 0 || record.exitCode == 1, record.err.constData());
        const Run live = folio(QStringList{QStringLiteral("list"), QStringLiteral("resources"),
                                           QStringLiteral("--format"), QStringLiteral("json")} +
                               target);
        QCOMPARE(live.exitCode, 0);
        server.stop();

        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY(!bytes.contains("sekrit-token-4711"));
        const QJsonObject header = QJsonDocument::fromJson(bytes.left(bytes.indexOf('\n'))).object();
        QCOMPARE(header.value(QStringLiteral("format")).toString(), QStringLiteral("folio-session"));
        QCOMPARE(header.value(QStringLiteral("version")).toInt(), 1);
        const QString stripped =
            header.value(QStringLiteral("stripped")).toVariant().toStringList().join(u'|');
        QVERIFY2(stripped.contains(QStringLiteral("bearer token")), qPrintable(stripped));
        QVERIFY2(stripped.contains(QStringLiteral("HTTP headers")), qPrintable(stripped));

        const Run replay =
            folio({QStringLiteral("replay"), file, QStringLiteral("list"), QStringLiteral("resources"),
                   QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(replay.exitCode == 0, replay.err.constData());
        QCOMPARE(withoutTimes(QJsonDocument::fromJson(replay.out).object()),
                 withoutTimes(QJsonDocument::fromJson(live.out).object()));
        // The audit replays too, with the findings it had.
        const Run audit = folio({QStringLiteral("replay"), file, QStringLiteral("audit"),
                                 QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(audit.exitCode, record.exitCode);
    }

    // A request the recording does not hold fails, saying so.
    void replayOfWhatWasNotRecorded()
    {
        const QString file = path(QStringLiteral("tools-only.folio"));
        const Run record = folio({QStringLiteral("record"), QStringLiteral("-o"), file,
                                  QStringLiteral("--list"), QStringLiteral("tools"), QStringLiteral("--"),
                                  demoServer, QStringLiteral("--scenario"), QStringLiteral("healthy")});
        QVERIFY2(record.exitCode == 0, record.err.constData());
        const Run replay =
            folio({QStringLiteral("replay"), file, QStringLiteral("list"), QStringLiteral("prompts")});
        QVERIFY(replay.exitCode != 0);
        QVERIFY2((replay.out + replay.err).contains("the recording holds no answer"), replay.out.constData());
    }

    void damagedFiles_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("says");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("empty");
        QTest::newRow("foreign") << QByteArray("{\"log\":{\"version\":\"1.2\"}}\n")
                                 << QStringLiteral("not a Folio session");
        QTest::newRow("binary") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0", 11)
                                << QStringLiteral("not a Folio session");
        QTest::newRow("newer") << QByteArray("{\"format\":\"folio-session\",\"version\":99}\n")
                               << QStringLiteral("newer Folio");
        QTest::newRow("cut short")
            << QByteArray(
                   "{\"format\":\"folio-session\",\"version\":1,\"server\":{\"name\":\"x\"},\"events\":3}\n"
                   "{\"t\":0,\"e\":\"start\",\"text\":\"stdio\"}\n")
            << QStringLiteral("cut short");
        QTest::newRow("events_1e308")
            << QByteArray("{\"format\":\"folio-session\",\"version\":1,\"server\":{\"name\":\"x\"},"
                          "\"events\":1e308}\n"
                          "{\"t\":0,\"e\":\"start\",\"text\":\"stdio\"}\n")
            << QStringLiteral("the file holds 1 of the 1e+308 events its header announces");
        QTest::newRow("damaged line")
            << QByteArray(
                   "{\"format\":\"folio-session\",\"version\":1,\"server\":{\"name\":\"x\"},\"events\":2}\n"
                   "{\"t\":0,\"e\":\"start\",\"text\":\"stdio\"}\n{\"t\":1,\"e\":\"se")
            << QStringLiteral("line 3");
    }
    void damagedFiles()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, says);
        const QString file = path(QStringLiteral("damaged.folio"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
        f.close();
        const Run run =
            folio({QStringLiteral("replay"), file, QStringLiteral("list"), QStringLiteral("tools")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(QString::fromUtf8(run.err).contains(says), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    // A device or a pipe says it is empty and never ends: the read is bounded, and a first line
    // that is no header is refused at once.
    void endlessFile()
    {
        QElapsedTimer timer;
        timer.start();
        const Run run = folio({QStringLiteral("replay"), QStringLiteral("/dev/zero"), QStringLiteral("list"),
                               QStringLiteral("tools")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("not a Folio session"), run.err.constData());
        QVERIFY2(timer.elapsed() < 10000, QByteArray::number(timer.elapsed()));
    }

    void usage()
    {
        QCOMPARE(folio({QStringLiteral("record"), QStringLiteral("--"), demoServer}).exitCode, 2);
        QCOMPARE(folio({QStringLiteral("replay")}).exitCode, 2);
        const Run other = folio({QStringLiteral("replay"), path(QStringLiteral("tour.folio")),
                                 QStringLiteral("decode-cursor"), QStringLiteral("x")});
        QCOMPARE(other.exitCode, 2);
        QVERIFY(other.err.contains("list, audit, report or snapshot"));
        const Run both =
            folio({QStringLiteral("replay"), path(QStringLiteral("tour.folio")), QStringLiteral("list"),
                   QStringLiteral("tools"), QStringLiteral("--"), demoServer});
        QCOMPARE(both.exitCode, 2);
        QCOMPARE(folio({QStringLiteral("replay"), QStringLiteral("--help")}).exitCode, 0);
        QCOMPARE(folio({QStringLiteral("record"), QStringLiteral("--help")}).exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
