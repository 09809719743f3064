// bench_walk: walk throughput and peak RSS, side by side in one run, against the demo server over
// stdio and over Streamable HTTP:
//   - a 100,000-item resources list in 1,000 pages: `folio list resources --all --format ndjson` vs
//     bench/sdk-walk.mjs (the official @modelcontextprotocol/client v2, raw list requests in a loop),
//     and `--format json` against ndjson (both written from the row store once the walk ended);
//   - a 10,000-item list in 50 pages (within the Inspector's 64-page cap): the same two and the
//     official Inspector CLI `--cli ... --method resources/list`.
// Time: process start to the last byte of output (the Inspector may linger after its result), and
// to exit. Peak RSS: the client's process tree, the demo server it spawns over stdio left out.
//
// Usage: bench_walk [--runs N] [--items N] [--page-size N] [--transports stdio,http]
#include "benchoptions.h"
#include "benchpaths.h"
#include "benchprocess.h"
#include "benchstats.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>

namespace {

struct Client
{
    QString name;
    bench::ProcessSpec spec;
    bool lineOutput = true; // one item per line (the Inspector prints one JSON document)
    QList<double> outputMs, exitMs, rssMb, serverCpuMs;
};

void runPair(const QString &title, QList<Client> &clients, int runs, qint64 expectedItems,
             const bench::DemoHttpServer *server)
{
    bench::heading(title);
    for (int run = -1; run < runs; ++run) {
        // Rotate the order so that no client always runs right after the same other one.
        for (int k = 0; k < clients.size(); ++k) {
            Client &c = clients[(k + qMax(0, run)) % clients.size()];
            const double serverCpu = server ? server->cpuSeconds() : 0;
            const bench::ProcessResult r = bench::runProcess(c.spec);
            const bool complete = c.lineOutput ? r.stdoutLines == expectedItems : r.stdoutBytes > 0;
            if (!r.ok || !complete) {
                std::printf("%s: FAILED (status %d, %lld lines, %lld bytes)\n%s\n", qPrintable(c.name),
                            r.exitStatus, static_cast<long long>(r.stdoutLines),
                            static_cast<long long>(r.stdoutBytes), r.stderrTail.right(1500).constData());
                std::exit(1);
            }
            if (run < 0)
                continue; // the first round warms the page cache and the server
            c.outputMs.append(r.lastStdoutMs);
            c.exitMs.append(r.exitMs);
            c.rssMb.append(double(r.peakRssKb) / 1024);
            if (server)
                c.serverCpuMs.append((server->cpuSeconds() - serverCpu) * 1000);
        }
    }
    const Client &sdk = clients.at(1);
    const double sdkMs = bench::Stats::of(sdk.outputMs).median;
    const double ndjsonMs = bench::Stats::of(clients.at(0).outputMs).median;
    const double sdkRss = bench::Stats::of(sdk.rssMb).median;
    for (const Client &c : std::as_const(clients)) {
        const bench::Stats t = bench::Stats::of(c.outputMs);
        std::printf("  %s\n", qPrintable(c.name));
        bench::line(QStringLiteral("  start to last output"), t.text("ms", 0));
        bench::line(QStringLiteral("  start to exit"), bench::Stats::of(c.exitMs).text("ms", 0));
        bench::line(QStringLiteral("  throughput (median)"),
                    QStringLiteral("%1 items/s").arg(double(expectedItems) / t.median * 1000, 0, 'f', 0));
        bench::line(QStringLiteral("  peak RSS"), bench::Stats::of(c.rssMb).text("MB", 1));
        if (server)
            bench::line(QStringLiteral("  the server's CPU during the walk"),
                        bench::Stats::of(c.serverCpuMs).text("ms", 0));
        bench::line(QStringLiteral("  vs SDK client: throughput, RSS"),
                    QStringLiteral("%1x, %2x")
                        .arg(sdkMs / t.median, 0, 'f', 2)
                        .arg(bench::Stats::of(c.rssMb).median / sdkRss, 0, 'f', 2));
        if (c.name.contains(QLatin1String("--format json")))
            bench::line(QStringLiteral("  vs --format ndjson: time"),
                        QStringLiteral("%1x").arg(t.median / ndjsonMs, 0, 'f', 2));
    }
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    bench::Options options;
    options.add("runs", "Runs.", "5");
    options.add("items", "Items of the long list.", "100000");
    options.add("page-size", "Page size of the long list.", "100");
    options.add("transports", "stdio,http", "stdio,http", "LIST");
    options.process(app);
    const int runs = options.number("runs");
    const int items = options.number("items");
    const int pageSize = options.number("page-size");
    const QStringList transports = options.text("transports").split(QLatin1Char(','));
    if (!bench::nodePeersInstalled()) {
        std::printf("bench_walk: the npm clients are not installed under bench/node_modules (scripts/bench "
                    "installs them)\n");
        return 1;
    }
    QTemporaryDir scratch;
    const QByteArray home = scratch.path().toLocal8Bit();
    const QMap<QByteArray, QByteArray> env{{"HOME", home}, {"XDG_CONFIG_HOME", home + "/.config"}};

    struct Setup
    {
        QString title;
        int items;
        int pageSize;
        bool inspector;
    };
    const QList<Setup> setups{
        {QStringLiteral("%1 items in %2 pages").arg(items).arg((items + pageSize - 1) / pageSize), items,
         pageSize, false},
        {QStringLiteral("10000 items in 50 pages (the Inspector's cap is 64)"), 10'000, 200, true},
    };
    for (const Setup &setup : setups) {
        const QStringList serverArgs{
            QStringLiteral("--scenario"),  QStringLiteral("healthy"),
            QStringLiteral("--resources"), QString::number(setup.items),
            QStringLiteral("--list"),      QStringLiteral("resources=pageSize=%1").arg(setup.pageSize)};
        for (const QString &transport : transports) {
            const bool http = transport == QLatin1String("http");
            std::unique_ptr<bench::DemoHttpServer> server;
            QStringList target;
            if (http) {
                server = std::make_unique<bench::DemoHttpServer>(serverArgs);
                target = {server->url()};
            } else {
                target = QStringList{bench::demoServerProgram()} + serverArgs;
            }
            QList<Client> clients;
            Client folio;
            folio.name = QStringLiteral("folio list resources --all --format ndjson");
            folio.spec.command =
                QStringList{bench::folioProgram(),        QStringLiteral("list"),
                            QStringLiteral("resources"),  QStringLiteral("--all"),
                            QStringLiteral("--format"),   QStringLiteral("ndjson"),
                            QStringLiteral("--page-cap"), QStringLiteral("100000")} +
                (http ? QStringList{QStringLiteral("--url")} : QStringList{QStringLiteral("--")}) + target;
            clients.append(folio);
            Client sdk;
            sdk.name = QStringLiteral("sdk-walk.mjs (@modelcontextprotocol/client)");
            sdk.spec.command =
                QStringList{bench::nodeProgram(), bench::sdkWalkScript()} +
                (http ? QStringList{QStringLiteral("--url")} : QStringList{QStringLiteral("--")}) + target;
            clients.append(sdk);
            if (!setup.inspector) {
                Client json = folio;
                json.name = QStringLiteral("folio list resources --all --format json");
                json.spec.command[json.spec.command.indexOf(QStringLiteral("ndjson"))] =
                    QStringLiteral("json");
                json.lineOutput = false; // one document
                clients.append(json);
            }
            if (setup.inspector) {
                Client inspector;
                inspector.name = QStringLiteral("Inspector CLI --method resources/list");
                inspector.spec.command =
                    QStringList{bench::nodeProgram(), bench::inspectorLauncher(), QStringLiteral("--cli")} +
                    target + QStringList{QStringLiteral("--method"), QStringLiteral("resources/list")};
                inspector.lineOutput = false;
                clients.append(inspector);
            }
            for (Client &c : clients) {
                c.spec.env = env;
                c.spec.excludeComms = {QStringLiteral("folio-demo-serv")};
            }
            runPair(QStringLiteral("bench_walk: %1 over %2, %3 run(s) after one warm-up")
                        .arg(setup.title, http ? QStringLiteral("Streamable HTTP") : QStringLiteral("stdio"))
                        .arg(runs),
                    clients, runs, setup.items, server.get());
        }
    }
    return 0;
}
