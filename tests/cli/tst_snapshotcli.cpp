// `folio snapshot` end to end against the real demo server over stdio: the file it writes is one
// the reader accepts, with every list; two takes are equal but for the documented fields; a
// snapshot of a recording (folio record, then folio snapshot FILE.folio) equals the live one; no
// secret of the command line reaches the file; usage and unreadable recordings exit 2.

#include "fixtureprocess.h"
#include "snapshot.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using fixtureprocess::demoServer;
using fixtureprocess::folioBinary;
using fixtureprocess::Run;
using folio::Snapshot;

namespace {

// The file as JSON without the fields that may differ between two takes.
QJsonObject withoutVarying(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    for (const QString &field : Snapshot::varyingFields())
        o.remove(field);
    return o;
}

} // namespace

class TestSnapshotCli : public QObject
{
    Q_OBJECT

    // Nothing here reads the saved servers: the environment as it is.
    static Run folio(const QStringList &arguments) { return fixtureprocess::folio(arguments); }
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // A snapshot of the demo server over stdio into name; the demo's templates repeat a cursor by
    // design, so the walk of one list stops short: exit 1.
    void takeLive(const QString &name)
    {
        const Run run = folio(
            {QStringLiteral("snapshot"), QStringLiteral("-o"), path(name), QStringLiteral("--"), demoServer});
        QVERIFY2(run.exitCode == 1, qPrintable(run.describe()));
        QVERIFY2(run.err.contains("folio snapshot: wrote"), qPrintable(run.describe()));
    }

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(folioBinary), qPrintable(folioBinary));
        QVERIFY(m_dir.isValid());
        takeLive(QStringLiteral("live.json"));
    }

    void demoOverStdioHasEveryList()
    {
        QString error;
        const std::optional<Snapshot> s = Snapshot::load(path(QStringLiteral("live.json")), &error);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->transport, QStringLiteral("stdio"));
        QCOMPARE(s->serverInfo.value(QStringLiteral("name")).toString(), QStringLiteral("folio-demo-server"));
        QVERIFY(!s->revision.isEmpty());
        QVERIFY(!s->capabilities.isEmpty());
        QStringList ids;
        for (const Snapshot::List &l : s->lists) {
            ids << l.id;
            if (l.skipped.isEmpty()) {
                QVERIFY2(!l.pages.isEmpty(), qPrintable(l.id));
                QVERIFY2(l.itemCount() > 0, qPrintable(l.id));
            }
        }
        for (const QString &id : {QStringLiteral("tools"), QStringLiteral("prompts"),
                                  QStringLiteral("resources"), QStringLiteral("templates"),
                                  QStringLiteral("tool:list_users"), QStringLiteral("tool:list_channels")})
            QVERIFY2(ids.contains(id), qPrintable(ids.join(QLatin1Char(' '))));
        const Snapshot::List &tools = s->lists.at(ids.indexOf(QStringLiteral("tools")));
        QVERIFY(tools.complete);
        QVERIFY(tools.pages.size() > 1);
        QVERIFY(!tools.pages.constFirst().cursor); // a first page sends none
        QCOMPARE(tools.pages.at(1).cursor, tools.pages.at(0).nextCursor.toString()); // raw, as issued
        QVERIFY(tools.pages.constFirst().hints.hasTtl);                              // 2026: hints as sent
        const Snapshot::List &templates = s->lists.at(ids.indexOf(QStringLiteral("templates")));
        QVERIFY(!templates.complete);
        QVERIFY(!templates.stopReason.isEmpty());
        QVERIFY(!templates.findings.isEmpty());
    }

    void twoTakesEqualButTheDocumentedFields()
    {
        takeLive(QStringLiteral("again.json"));
        const QJsonObject a = withoutVarying(path(QStringLiteral("live.json")));
        QVERIFY(!a.isEmpty());
        QCOMPARE(withoutVarying(path(QStringLiteral("again.json"))), a);
    }

    void recordingEqualsLive()
    {
        const Run record = folio({QStringLiteral("record"), QStringLiteral("-o"),
                                  path(QStringLiteral("demo.folio")), QStringLiteral("--"), demoServer});
        QVERIFY2(QFile::exists(path(QStringLiteral("demo.folio"))), qPrintable(record.describe()));
        const Run run = folio({QStringLiteral("snapshot"), QStringLiteral("-o"),
                               path(QStringLiteral("replayed.json")), path(QStringLiteral("demo.folio"))});
        QVERIFY2(run.exitCode == 1, qPrintable(run.describe()));
        QCOMPARE(withoutVarying(path(QStringLiteral("replayed.json"))),
                 withoutVarying(path(QStringLiteral("live.json"))));
        // folio replay FILE snapshot is the same.
        const Run replay =
            folio({QStringLiteral("replay"), path(QStringLiteral("demo.folio")), QStringLiteral("snapshot"),
                   QStringLiteral("-o"), path(QStringLiteral("replay.json"))});
        QVERIFY2(replay.exitCode == 1, qPrintable(replay.describe()));
        QCOMPARE(withoutVarying(path(QStringLiteral("replay.json"))),
                 withoutVarying(path(QStringLiteral("live.json"))));
    }

    void noSecretOfTheCommandLine()
    {
        const QByteArray secret = "sekrit-snapshot-4711";
        const Run run = folio({QStringLiteral("snapshot"), QStringLiteral("-o"),
                               path(QStringLiteral("env.json")), QStringLiteral("--"), QStringLiteral("env"),
                               QStringLiteral("DEMO_API_TOKEN=") + QString::fromLatin1(secret), demoServer});
        QVERIFY2(run.exitCode == 1, qPrintable(run.describe()));
        QFile f(path(QStringLiteral("env.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray file = f.readAll();
        QVERIFY(!file.contains(secret));
        QVERIFY(file.contains("DEMO_API_TOKEN=[redacted]"));
    }

    void usageAndUnreadableRecordings_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no -o") << QStringList{QStringLiteral("--"), demoServer} << QStringLiteral("-o FILE");
        QTest::newRow("two targets") << QStringList{QStringLiteral("-o"), QStringLiteral("x.json"),
                                                    QStringLiteral("a.folio"), QStringLiteral("b.folio")}
                                     << QStringLiteral("one target");
        QTest::newRow("a missing recording") << QStringList{QStringLiteral("-o"), QStringLiteral("x.json"),
                                                            QStringLiteral("/nonexistent/x.folio")}
                                             << QStringLiteral("cannot replay /nonexistent/x.folio");
        QTest::newRow("a second walk")
            << QStringList{QStringLiteral("-o"), QStringLiteral("x.json"), QStringLiteral("--recheck-pages"),
                           QStringLiteral("5"),  QStringLiteral("--"),     demoServer}
            << QStringLiteral("--recheck-pages has no use here");
        QTest::newRow("a recording and a server")
            << QStringList{QStringLiteral("-o"), QStringLiteral("x.json"), QStringLiteral("x.folio"),
                           QStringLiteral("--"), demoServer}
            << QStringLiteral("folio snapshot:");
    }
    void usageAndUnreadableRecordings()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run run = folio(QStringList{QStringLiteral("snapshot")} + arguments);
        QVERIFY2(run.exitCode == 2, qPrintable(run.describe()));
        QVERIFY2(QString::fromUtf8(run.err).contains(message), qPrintable(run.describe()));
    }

    void listedInHelp()
    {
        const Run run = folio({QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("snapshot -o FILE"));
        const Run own = folio({QStringLiteral("snapshot"), QStringLiteral("--help")});
        QCOMPARE(own.exitCode, 0);
        QVERIFY(own.out.contains("Exit status:"));
    }
};

QTEST_GUILESS_MAIN(TestSnapshotCli)
#include "tst_snapshotcli.moc"
