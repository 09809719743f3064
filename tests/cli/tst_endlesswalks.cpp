// Lists that never end, or end only to start again, against the real folio binary: every command
// that walks stops by itself, says which bound stopped it, and keeps its memory under a stated bound
// (issue 29; docs/reliability.md, "Hostile servers"). The servers are folio-fixture-server's walk
// modes over stdio and HTTP, and the demo server's list-changed behaviour.
#include "fixtureprocess.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using fixtureprocess::fixture;
using fixtureprocess::folioBinary;
const QString demoServer = QStringLiteral(FOLIO_DEMO_SERVER);

#if defined(__SANITIZE_ADDRESS__)
constexpr bool sanitized = true; // ASan's shadow and quarantine: RSS says nothing about Folio
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif
#else
constexpr bool sanitized = false;
#endif

struct Run
{
    int exitCode = -1;
    qint64 maxRssKiB = 0; // the command's peak resident set, and its children's (wait4)
    QByteArray out;
    QByteArray err;
    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

// Runs folio with stdout and stderr in files, and waits for it with wait4(), which tells its peak
// memory (QProcess reaps its children itself and keeps that to itself). A run that passes
// timeoutSec is killed, and fails the test that reads its exit code (-1).
Run folio(const QStringList &arguments, int timeoutSec = 60)
{
    Run run;
    QTemporaryDir dir;
    const QByteArray outPath = dir.filePath(QStringLiteral("out")).toLocal8Bit();
    const QByteArray errPath = dir.filePath(QStringLiteral("err")).toLocal8Bit();
    QList<QByteArray> args{folioBinary.toLocal8Bit()};
    for (const QString &a : arguments)
        args.append(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    const pid_t pid = ::fork();
    if (pid == 0) {
        const int out = ::open(outPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err = ::open(errPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int in = ::open("/dev/null", O_RDONLY);
        ::dup2(in, 0);
        ::dup2(out, 1);
        ::dup2(err, 2);
        ::alarm(unsigned(timeoutSec)); // survives exec: the run cannot outlive it
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.maxRssKiB = usage.ru_maxrss;
    QFile out(QString::fromLocal8Bit(outPath)), err(QString::fromLocal8Bit(errPath));
    if (out.open(QIODevice::ReadOnly))
        run.out = out.readAll();
    if (err.open(QIODevice::ReadOnly))
        run.err = err.readAll();
    return run;
}

using fixtureprocess::HttpFixture;
using fixtureprocess::target;

QStringList findingIds(const QJsonObject &listJson)
{
    QStringList ids;
    for (const QJsonValue &p : listJson.value(QStringLiteral("pages")).toArray()) {
        for (const QJsonValue &f : p.toObject().value(QStringLiteral("findings")).toArray())
            ids << f.toObject().value(QStringLiteral("id")).toString();
    }
    return ids;
}

} // namespace

class tst_EndlessWalks : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Pages of 8 MiB without end, and a cursor that grows by 1 KiB a page without end: the walk
    // stops at its size cap (here 32 MiB), in every format, and folio's peak memory stays within
    // five times the cap plus 100 MiB: the walk's items and cursors, the page being read, and the
    // output built from them (csv and table build their text at the end), beside a Qt process.
    void sizeCapStopsEndlessPages_data()
    {
        QTest::addColumn<bool>("http");
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("format");
        for (const bool http : {false, true}) {
            for (const char *mode : {"endless-pages", "growing-cursor"}) {
                for (const char *format : {"json", "table", "csv", "ndjson"}) {
                    QTest::addRow("%s_%s_%s", http ? "http" : "stdio", mode, format)
                        << http << QString::fromLatin1(mode) << QString::fromLatin1(format);
                }
            }
        }
    }

    void sizeCapStopsEndlessPages()
    {
        QFETCH(bool, http);
        QFETCH(QString, mode);
        QFETCH(QString, format);
        std::unique_ptr<HttpFixture> server;
        const QStringList where = target(http, {QStringLiteral("--mode"), mode}, &server);
        if (http)
            QVERIFY(!server->url().isEmpty());
        const qint64 capMiB = 32;
        const Run run =
            folio(QStringList{QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--format"),
                              format, QStringLiteral("--max-walk-mb"), QString::number(capMiB)} +
                  where);
        QCOMPARE(run.exitCode, 1);
        if (format == QLatin1String("json")) {
            const QJsonObject json = run.json();
            QCOMPARE(json.value(QStringLiteral("complete")).toBool(true), false);
            QVERIFY2(json.value(QStringLiteral("stopReason")).toString().contains(QStringLiteral("size cap")),
                     run.out.right(400));
            QVERIFY(findingIds(json).contains(QStringLiteral("walk-size-cap-reached")));
            const int pages = json.value(QStringLiteral("pages")).toArray().size();
            QVERIFY2(pages >= 2 && pages < 1000, QByteArray::number(pages)); // not the page cap
        } else {
            QVERIFY2((run.out + run.err).contains("size cap"), run.err.right(400));
        }
        qInfo().noquote() << QTest::currentDataTag() << "peak RSS" << run.maxRssKiB / 1024 << "MiB";
        if (!sanitized)
            QVERIFY2(run.maxRssKiB < (5 * capMiB + 100) * 1024, QByteArray::number(run.maxRssKiB));
    }

    // The size cap's memory grows with the cap, not with what the server sends: at 64 and 128 MiB
    // the peak grows by about the difference (the figures are in docs/reliability.md).
    void memoryFollowsTheCap()
    {
        if (sanitized)
            QSKIP("peak memory under AddressSanitizer is the sanitizer's");
        qint64 rss[2] = {0, 0};
        const qint64 caps[2] = {64, 128};
        for (int i = 0; i < 2; ++i) {
            const Run run = folio(
                {QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--format"),
                 QStringLiteral("ndjson"), QStringLiteral("--max-walk-mb"), QString::number(caps[i]),
                 QStringLiteral("--"), fixture, QStringLiteral("--mode"), QStringLiteral("endless-pages")});
            QCOMPARE(run.exitCode, 1);
            rss[i] = run.maxRssKiB / 1024;
        }
        qInfo() << "endless-pages peak RSS at 64 and 128 MiB caps:" << rss[0] << rss[1] << "MiB";
        QVERIFY2(rss[1] - rss[0] < 2 * (caps[1] - caps[0]), qPrintable(QString::number(rss[1] - rss[0])));
        QVERIFY2(rss[1] < 5 * caps[1] + 100, qPrintable(QString::number(rss[1])));
    }

    // A server that sends list_changed before every page after the first: every command that walks
    // stops after the restart cap, with the last walk's pages and the finding, instead of walking
    // for ever (it used to, at about 9 MB a second, for list's table and CSV, call, audit, report
    // and record).
    void restartCapStopsEveryCommand_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("says");
        QTemporaryDir dir;
        QTest::addRow("list_table") << QStringList{QStringLiteral("list"), QStringLiteral("tools")} << 1
                                    << "restart cap";
        QTest::addRow("list_csv") << QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                                 QStringLiteral("--format"), QStringLiteral("csv")}
                                  << 1 << "restart cap";
        QTest::addRow("list_json") << QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                                  QStringLiteral("--format"), QStringLiteral("json")}
                                   << 1 << "restart cap";
        QTest::addRow("list_ndjson") << QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                                    QStringLiteral("--format"), QStringLiteral("ndjson")}
                                     << 1 << "restart cap";
        QTest::addRow("audit") << QStringList{QStringLiteral("audit"), QStringLiteral("--format"),
                                              QStringLiteral("json")}
                               << -2 << "tools";
        QTest::addRow("report") << QStringList{QStringLiteral("report"), QStringLiteral("--format"),
                                               QStringLiteral("json"), QStringLiteral("-o"),
                                               QStringLiteral("-")}
                                << -2 << "tools";
        QTest::addRow("call") << QStringList{QStringLiteral("call"), QStringLiteral("tool_9_9")} << -2 << "";
    }

    void restartCapStopsEveryCommand()
    {
        QFETCH(QStringList, command);
        QFETCH(int, exitCode);
        QFETCH(QString, says);
        QElapsedTimer timer;
        timer.start();
        const Run run = folio(command + QStringList{QStringLiteral("--"), fixture, QStringLiteral("--mode"),
                                                    QStringLiteral("list-changed-every-page")},
                              60);
        qInfo().noquote() << QTest::currentDataTag() << "exit" << run.exitCode << "after" << timer.elapsed()
                          << "ms, peak RSS" << run.maxRssKiB / 1024 << "MiB";
        QVERIFY2(run.exitCode >= 0, "killed: it did not stop by itself within 60 s");
        if (exitCode >= 0)
            QCOMPARE(run.exitCode, exitCode);
        if (!says.isEmpty())
            QVERIFY2((run.out + run.err).contains(says.toUtf8()), (run.out + run.err).right(600));
        if (!sanitized)
            QVERIFY2(run.maxRssKiB < 200 * 1024, QByteArray::number(run.maxRssKiB));
    }

    // The same over the demo server's list-changed behaviour (a list that gains a tool every
    // millisecond and says so), walked one tool a page: the table shows the last walk, complete or
    // not, and the restart cap is named.
    void restartCapOnTheDemoServer()
    {
        const Run run =
            folio({QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--format"),
                   QStringLiteral("json"), QStringLiteral("--"), demoServer, QStringLiteral("--era"),
                   QStringLiteral("legacy"), QStringLiteral("--page-size"), QStringLiteral("1"),
                   QStringLiteral("--list"), QStringLiteral("tools=list-changed,intervalMs=1")});
        QVERIFY2(run.exitCode == 0 || run.exitCode == 1, run.err);
        const QJsonObject json = run.json();
        QVERIFY(!json.isEmpty());
        if (run.exitCode == 1)
            QVERIFY2(
                json.value(QStringLiteral("stopReason")).toString().contains(QStringLiteral("list_changed")),
                run.out.right(300));
    }
};

QTEST_GUILESS_MAIN(tst_EndlessWalks)
#include "tst_endlesswalks.moc"
