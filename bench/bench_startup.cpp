// bench_startup: process start (just before fork) to the first page, for
//   - the window, offscreen (the folio-bench-probe module, preloaded, prints the moment a list's
//     table has first painted rows), on the embedded demo server and on the same server as below;
//   - `folio list tools --pages 1`: the first byte of the printed page;
//   - the official Inspector CLI `--cli ... --method tools/list`: the first byte of its result;
//   - the Qt floor (bench-qt-floor, bench/qtfloor.cpp): a bare Qt Widgets window painting a table
//     of 123 rows, no server. Machines differ by several times in how long Qt itself takes to
//     start; the window's figure less the floor is what folio adds, comparable across machines.
// The server is the demo server with tools in one page of 123, so every client asks for one page.
//
// Usage: bench_startup [--runs N]
#include "benchoptions.h"
#include "benchpaths.h"
#include "benchprocess.h"
#include "benchstats.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <cstdio>

namespace {

struct Case
{
    QString name;
    bench::ProcessSpec spec;
    bool painted = false; // the figure is the window's paint marker, else the first stdout byte
    QList<double> ms;
    QList<double> exitMs;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    bench::Options options;
    options.add("runs", "Runs.", "7");
    options.process(app);
    const int runs = options.number("runs");

    QTemporaryDir scratch; // HOME of every run: no saved servers, no Inspector catalog
    const QByteArray home = scratch.path().toLocal8Bit();
    const QMap<QByteArray, QByteArray> env{{"HOME", home},
                                           {"XDG_CONFIG_HOME", home + "/.config"},
                                           {"XDG_DATA_HOME", home + "/.local/share"},
                                           {"XDG_CACHE_HOME", home + "/.cache"}};
    QMap<QByteArray, QByteArray> windowEnv = env;
    windowEnv.insert("QT_QPA_PLATFORM", "offscreen");
    windowEnv.insert("LD_PRELOAD", FOLIO_BENCH_PROBE);
    const QByteArray marker = "folio-bench: first-page-painted";

    const bool withInspector = bench::nodePeersInstalled();
    if (!withInspector)
        std::printf("(the Inspector is not installed under bench/node_modules: run scripts/bench)\n");
    const QStringList serverArgs{QStringLiteral("--scenario"), QStringLiteral("healthy"),
                                 QStringLiteral("--list"), QStringLiteral("tools=pageSize=200")};
    bench::DemoHttpServer httpServer(serverArgs);
    QList<Case> cases;
    // A window, timed to the marker its first painted page prints on stderr.
    auto painted = [&](const QString &name, const QStringList &command,
                       const QMap<QByteArray, QByteArray> &e) {
        Case c;
        c.name = name;
        c.spec.command = command;
        c.spec.env = e;
        c.spec.stderrMarker = marker;
        c.spec.stopAtMarker = true;
        c.spec.timeoutMs = 20'000;
        c.painted = true;
        return c;
    };
    QMap<QByteArray, QByteArray> floorEnv = env;
    floorEnv.insert("QT_QPA_PLATFORM", "offscreen");
    cases.append(painted(QStringLiteral("Qt floor: bare window, table of 123 rows"),
                         {QStringLiteral(FOLIO_BENCH_QT_FLOOR)}, floorEnv));
    cases.append(
        painted(QStringLiteral("folio window, embedded demo (tour)"), {bench::folioProgram()}, windowEnv));
    // Over stdio each client spawns the server (whose own start-up is in every figure); over HTTP
    // the server is already up and the figures are the clients' alone.
    for (const bool http : {false, true}) {
        const QString via = http ? QStringLiteral(" [HTTP]") : QStringLiteral(" [stdio]");
        const QStringList target =
            http ? QStringList{QStringLiteral("--url"), httpServer.url()}
                 : QStringList{QStringLiteral("--"), bench::demoServerProgram()} + serverArgs;
        const QStringList inspectorTarget =
            http ? QStringList{httpServer.url()} : QStringList{bench::demoServerProgram()} + serverArgs;
        cases.append(painted(QStringLiteral("folio window") + via,
                             QStringList{bench::folioProgram()} + target, windowEnv));
        Case list;
        list.name = QStringLiteral("folio list tools --pages 1") + via;
        list.spec.command =
            QStringList{bench::folioProgram(), QStringLiteral("list"), QStringLiteral("tools"),
                        QStringLiteral("--pages"), QStringLiteral("1")} +
            target;
        list.spec.env = env;
        list.spec.timeoutMs = 20'000;
        cases.append(list);
        if (withInspector) {
            Case inspector;
            inspector.name = QStringLiteral("Inspector CLI --method tools/list") + via;
            inspector.spec.command =
                QStringList{bench::nodeProgram(), bench::inspectorLauncher(), QStringLiteral("--cli")} +
                inspectorTarget + QStringList{QStringLiteral("--method"), QStringLiteral("tools/list")};
            inspector.spec.env = env;
            inspector.spec.timeoutMs = 30'000;
            cases.append(inspector);
        }
    }

    bench::heading(QStringLiteral("bench_startup: process start to first page, %1 run(s) each after one "
                                  "warm-up, tools = one page of 123")
                       .arg(runs));
    for (int run = -1; run < runs; ++run) {
        for (Case &c : cases) {
            const bench::ProcessResult r = bench::runProcess(c.spec);
            double ms = -1;
            if (c.painted && r.markerMs >= 0) {
                const qint64 ns = r.markerLine.mid(marker.size()).trimmed().toLongLong();
                ms = double(ns - r.startNs) / 1e6;
            } else if (!c.painted && r.ok && r.firstStdoutMs >= 0) {
                ms = r.firstStdoutMs;
            }
            if (ms < 0) {
                std::printf("%s: FAILED (status %d)\n%s\n", qPrintable(c.name), r.exitStatus,
                            r.stderrTail.right(1500).constData());
                return 1;
            }
            if (run >= 0) { // run -1 warms the page cache
                c.ms.append(ms);
                c.exitMs.append(r.exitMs);
            }
        }
    }
    bench::heading(QStringLiteral("bench_startup results"));
    for (const Case &c : std::as_const(cases)) {
        bench::line(c.name + (c.painted ? QStringLiteral(": painted") : QStringLiteral(": printed")),
                    bench::Stats::of(c.ms).text("ms", 1) +
                        (c.painted ? QString()
                                   : QStringLiteral("; exit ") + bench::Stats::of(c.exitMs).text("ms", 1)));
    }
    // What folio's window adds to the floor (the target is < 100 ms for the whole start; see
    // docs/benchmarks.md for what the floor was where that target was set).
    const double floor = bench::Stats::of(cases.first().ms).median;
    for (const Case &c : std::as_const(cases)) {
        if (c.painted && &c != &cases.first())
            bench::line(c.name + QStringLiteral(" less the Qt floor"),
                        QStringLiteral("%1 ms (%2x the floor)")
                            .arg(bench::Stats::of(c.ms).median - floor, 0, 'f', 1)
                            .arg(bench::Stats::of(c.ms).median / floor, 0, 'f', 2));
    }
    if (withInspector) {
        for (const QString &via : {QStringLiteral(" [stdio]"), QStringLiteral(" [HTTP]")}) {
            double inspector = 0;
            for (const Case &c : std::as_const(cases)) {
                if (c.name == QStringLiteral("Inspector CLI --method tools/list") + via)
                    inspector = bench::Stats::of(c.ms).median;
            }
            for (const Case &c : std::as_const(cases)) {
                if (c.name.endsWith(via) && c.name.startsWith(QLatin1String("folio")))
                    bench::line(
                        QStringLiteral("Inspector / ") + c.name + QStringLiteral(" (target >= 10)"),
                        QStringLiteral("%1x").arg(inspector / bench::Stats::of(c.ms).median, 0, 'f', 1));
            }
        }
    }
    return 0;
}
