// bench_ttl: 10,000 pages with live TTL clocks in real PagedListModels sharing one TtlClock (as the
// window's lists share one), then CPU use while nothing expires. The budget: under 1% of
// one core. (tests/models/bench_ttlclock measures the bare clock with 10,000 keys.)
//
// Usage: bench_ttl [--runs N] [--models N] [--pages N] [--idle SECONDS]
#include "benchcpu.h"
#include "benchoptions.h"
#include "benchstats.h"
#include "benchtransport.h"

#include "pagedlistmodel.h"

#include <QCoreApplication>

#include <cstdio>
#include <memory>
#include <vector>

using namespace folio;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    bench::Options options;
    options.add("runs", "Runs.", "3");
    options.add("models", "Models.", "10");
    options.add("pages", "Pages per model.", "1000");
    options.add("idle", "Idle seconds per run.", "10", "S");
    options.process(app);
    const int runs = options.number("runs");
    const int modelCount = options.number("models");
    const int pages = options.number("pages");
    const int idleSeconds = options.number("idle");

    bench::heading(QStringLiteral("bench_ttl: %1 models x %2 pages (10 items each, ttlMs 1 h), %3 s idle, "
                                  "%4 run(s)")
                       .arg(modelCount)
                       .arg(pages)
                       .arg(idleSeconds)
                       .arg(runs));
    QList<double> idlePercent;
    for (int run = 0; run < runs; ++run) {
        TtlClock clock;
        McpClient client;
        bench::connectBench(&client, pages, 10, 3'600'000);
        std::vector<std::unique_ptr<PagedListModel>> models;
        int expiredPages = 0;
        for (int m = 0; m < modelCount; ++m) {
            models.push_back(
                std::make_unique<PagedListModel>(&client, ListSource::protocol(ListKind::Resources), &clock));
            models.back()->walker()->setPageCap(pages + 1);
            QObject::connect(models.back()->ledger(), &QAbstractItemModel::dataChanged, &app,
                             [&expiredPages] { ++expiredPages; });
            bench::walkToEnd(models.back().get());
        }
        // What the walks left for the event loop (replies to delete) is not idle work: do it first.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QCoreApplication::processEvents();
        expiredPages = 0;
        const int live = clock.scheduledCount();
        const double cpuBefore = bench::cpuSeconds();
        const qint64 wallStart = bench::nowNs();
        QTimer::singleShot(idleSeconds * 1000, Qt::PreciseTimer, &app, &QCoreApplication::quit);
        app.exec();
        const double cpu = bench::cpuSeconds() - cpuBefore;
        const double wall = double(bench::nowNs() - wallStart) / 1e9;
        idlePercent.append(100.0 * cpu / wall);
        std::printf("run %d: %d live TTL clocks; %.2f s idle, %.4f s CPU = %.4f%% of one core; ledger "
                    "changes meanwhile: %d\n",
                    run + 1, live, wall, cpu, idlePercent.constLast(), expiredPages);
        std::fflush(stdout);
        models.clear();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QCoreApplication::processEvents();
    }
    bench::heading(QStringLiteral("bench_ttl results (%1 run(s))").arg(runs));
    bench::line(QStringLiteral("idle CPU, % of one core (target < 1)"),
                bench::Stats::of(idlePercent).text("%", 4));
    return 0;
}
