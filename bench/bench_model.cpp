// bench_model: 1,000,000 rows of about 200-byte items appended page by page through the real
// PagedListModel (fed by BenchTransport: the real McpClient and JsonRpcConnection above a
// transport that serves generated pages). Reports the memory per row against the raw JSON, the
// model's cost of appending a 1,000-item page (from the reply's bytes reaching the connection,
// which takes a list page by its fast path: checks the text, cuts the items, parses the rest, to
// endInsertRows), and data() cost and allocations per call for the display and page roles.
//
// Usage: bench_model [--runs N] [--rows N] [--page-size N]
#include "benchoptions.h"
#include "benchstats.h"
#include "benchtransport.h"
#include "mallocounter.h"

#include "pagedlistmodel.h"
#include "trafficlog.h"

#include <QCoreApplication>

#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <memory>

using namespace folio;

namespace {

qint64 residentBytes()
{
    FILE *f = std::fopen("/proc/self/statm", "r");
    long long size = 0, resident = 0;
    if (f) {
        if (std::fscanf(f, "%lld %lld", &size, &resident) != 2)
            resident = 0;
        std::fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

void settle()
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::processEvents();
    malloc_trim(0);
}

struct CallCost
{
    QList<double> nsPerCall;
    QList<double> allocsPerCall;
};

// Calls data() `calls` times over the given cells, `repeats` times.
CallCost measureData(const PagedListModel &model, const QList<QModelIndex> &cells, int role, int calls,
                     int repeats, qint64 *sink)
{
    CallCost cost;
    for (int r = 0; r < repeats; ++r) {
        const long long allocs = bench::allocationCount();
        const qint64 start = bench::nowNs();
        for (int i = 0; i < calls; ++i) {
            const QVariant v = model.data(cells.at(i % cells.size()), role);
            *sink += v.isValid() ? 1 : 0;
        }
        const qint64 elapsed = bench::nowNs() - start;
        cost.nsPerCall.append(double(elapsed) / calls);
        cost.allocsPerCall.append(double(bench::allocationCount() - allocs) / calls);
    }
    return cost;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    bench::Options options;
    options.add("runs", "Runs.", "3");
    options.add("rows", "Rows.", "1000000");
    options.add("page-size", "Items per page.", "1000");
    options.process(app);
    const int runs = options.number("runs");
    const int pageSize = options.number("page-size");
    const int pages = qMax(1, options.number("rows") / pageSize);
    const int rows = pages * pageSize;

    bench::heading(QStringLiteral("bench_model: %1 rows in %2 pages of %3, %4 run(s)")
                       .arg(rows)
                       .arg(pages)
                       .arg(pageSize)
                       .arg(runs));

    QList<double> appendTailMs, appendAllMs, walkSeconds, rssRatio, storedRatio, rssPerRow, rawPerRow;
    QMap<QString, CallCost> costs;
    QStringList costOrder;
    qint64 sink = 0;
    for (int run = 0; run < runs; ++run) {
        settle();
        const qint64 rssBefore = residentBytes();
        TtlClock clock;
        auto client = std::make_unique<McpClient>();
        bench::BenchTransport *transport = bench::connectBench(client.get(), pages, pageSize, 3'600'000);
        auto model =
            std::make_unique<PagedListModel>(client.get(), ListSource::protocol(ListKind::Resources), &clock);
        model->walker()->setPageCap(pages + 1);
        int pagesIn = 0;
        QObject::connect(model.get(), &QAbstractItemModel::rowsInserted, model.get(), [&] {
            const double ms = double(bench::nowNs() - transport->deliveredNs()) / 1e6;
            ++pagesIn;
            appendAllMs.append(ms);
            if (pagesIn > pages - qMax(1, pages / 10)) // the last tenth: 900,000 rows and more
                appendTailMs.append(ms);
        });
        const qint64 walkStart = bench::nowNs();
        bench::walkToEnd(model.get());
        walkSeconds.append(double(bench::nowNs() - walkStart) / 1e9);
        if (model->rowCount() != rows)
            qFatal("bench_model: %d rows, expected %d", model->rowCount(), rows);

        qint64 rawBytes = 0;
        for (int r = 0; r < rows; ++r)
            rawBytes += model->data(model->index(r, 0), PagedListModel::ItemJsonRole).toByteArray().size();
        settle();
        const qint64 rssLoaded = residentBytes();
        qint64 logBytes = 0;
        for (const TrafficLog::Entry &e : client->trafficLog()->entries())
            logBytes += e.text.size();
        client->trafficLog()->clear();
        settle();
        const qint64 rssRows = residentBytes() - rssBefore;
        const struct mallinfo2 heap = mallinfo2();
        const qint64 stored = model->rows()->storedBytes();
        rssRatio.append(double(rssRows) / double(rawBytes));
        storedRatio.append(double(stored) / double(rawBytes));
        rssPerRow.append(double(rssRows) / rows);
        rawPerRow.append(double(rawBytes) / rows);

        std::printf("run %d: walk %.2f s; raw item JSON %.1f MB (%.1f B/row); stored %.1f MB (%.2fx); RSS "
                    "delta %.1f MB with the traffic log (%.1f MB of message text), %.1f MB without "
                    "(%.2fx raw); heap in use %.1f MB, heap free %.1f MB, mmapped %.1f MB\n",
                    run + 1, walkSeconds.constLast(), rawBytes / 1e6, double(rawBytes) / rows, stored / 1e6,
                    storedRatio.constLast(), (rssLoaded - rssBefore) / 1e6, logBytes / 1e6, rssRows / 1e6,
                    rssRatio.constLast(), double(heap.uordblks) / 1e6, double(heap.fordblks) / 1e6,
                    double(heap.hblkhd) / 1e6);
        std::fflush(stdout);

        // data(): a visible screen of cells (warm: the row text cache holds them) and rows spread
        // over the whole model (cold: each call parses its row).
        QList<QModelIndex> screen, spread, spreadFirstColumn;
        for (int r = rows / 2; r < rows / 2 + 30; ++r) {
            for (int c = 0; c < model->columnCount(); ++c)
                screen.append(model->index(r, c));
        }
        for (int i = 0; i < 100'000; ++i) {
            const int r = int((qint64(i) * 7919 + run * 104729) % rows);
            spread.append(model->index(r, i % model->columnCount()));
            spreadFirstColumn.append(model->index(r, 0));
        }
        for (const QModelIndex &i : screen)
            model->data(i, Qt::DisplayRole);
        auto record = [&](const QString &name, const CallCost &c) {
            if (!costs.contains(name))
                costOrder.append(name);
            costs[name].nsPerCall += c.nsPerCall;
            costs[name].allocsPerCall += c.allocsPerCall;
        };
        record(QStringLiteral("DisplayRole, visible rows (cached text)"),
               measureData(*model, screen, Qt::DisplayRole, 1'000'000, 5, &sink));
        record(QStringLiteral("DisplayRole, rows not shown yet (parse)"),
               measureData(*model, spreadFirstColumn, Qt::DisplayRole, 100'000, 3, &sink));
        const QList<std::pair<QString, int>> pageRoles{
            {QStringLiteral("PageStateRole"), PagedListModel::PageStateRole},
            {QStringLiteral("PageIndexRole"), PagedListModel::PageIndexRole},
            {QStringLiteral("PageHintsExpectedRole"), PagedListModel::PageHintsExpectedRole},
            {QStringLiteral("FirstRowOfPageRole"), PagedListModel::FirstRowOfPageRole},
            {QStringLiteral("PageExpiresAtRole"), PagedListModel::PageExpiresAtRole},
            {QStringLiteral("PageScopeRole"), PagedListModel::PageScopeRole},
            {QStringLiteral("PageSeverityRole"), PagedListModel::PageSeverityRole},
            {QStringLiteral("ItemJsonRole"), PagedListModel::ItemJsonRole},
        };
        for (const auto &[name, role] : pageRoles)
            record(name, measureData(*model, spread, role, 1'000'000, 5, &sink));

        model.reset();
        client.reset();
        settle();
    }

    bench::heading(QStringLiteral("bench_model results (%1 run(s))").arg(runs));
    bench::line(QStringLiteral("raw item JSON per row"), bench::Stats::of(rawPerRow).text("B", 1));
    bench::line(QStringLiteral("process RSS per row (log cleared)"),
                bench::Stats::of(rssPerRow).text("B", 1));
    bench::line(QStringLiteral("process RSS / raw JSON (target < 1.5)"),
                bench::Stats::of(rssRatio).text("x", 3));
    bench::line(QStringLiteral("storedBytes() / raw JSON"), bench::Stats::of(storedRatio).text("x", 3));
    bench::line(QStringLiteral("walk of all pages, wall"), bench::Stats::of(walkSeconds).text("s", 2));
    bench::line(QStringLiteral("append a page at >= 90% rows (target < 5)"),
                bench::Stats::of(appendTailMs).text("ms", 3, true));
    bench::line(QStringLiteral("append a page, every page"),
                bench::Stats::of(appendAllMs).text("ms", 3, true));
    for (const QString &name : std::as_const(costOrder)) {
        const CallCost &c = costs.value(name);
        bench::line(QStringLiteral("data() ") + name,
                    bench::Stats::of(c.nsPerCall).text("ns/call", 1) + QStringLiteral("; allocations/call ") +
                        bench::Stats::of(c.allocsPerCall).text("", 3).trimmed());
    }
    return sink == -1 ? 1 : 0;
}
