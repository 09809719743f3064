// bench_window: Load all in the window. The real MainWindow (offscreen) on the demo server over stdio,
// its resources list of 100,000 items in 1,000 pages of 100: from Load all to the last page stored
// and the window's pending repaints done, with the GUI thread's CPU time over the walk. For scale,
// the same walk headless in the same run (`folio list resources --all --format ndjson`, process
// start to exit): what the window adds per page is the difference. Per-page costs in the window (a
// header re-measured, a tab bar laid out again, a strip or timeline redrawn whole) show here.
//
// Usage: bench_window [--runs N] [--items N] [--page-size N]
#include "benchoptions.h"
#include "benchpaths.h"
#include "benchprocess.h"
#include "benchstats.h"
#include "benchwidgets.h"

#include "listview.h"
#include "mainwindow.h"
#include "pagedlistmodel.h"
#include "secretstore.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "serverview.h"
#include "theme.h"
#include "ttlclock.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QThread>

#include <cstdio>
#include <ctime>

using namespace folio;

namespace {

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Runs the event loop until done() or the deadline; false on the deadline.
template<typename Done> bool spinUntil(Done done, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 20);
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    bench::offscreenUnlessSet();
    QApplication app(argc, argv);
    // The window remembers things (geometry, splitters, column widths): not from the user's settings.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("FolioBench"));
    QCoreApplication::setApplicationName(QStringLiteral("bench_window"));
    bench::Options options;
    options.add("runs", "Runs.", "5");
    options.add("items", "Items in the list.", "100000");
    options.add("page-size", "Items per page.", "100");
    options.process(app);
    const int runs = options.number("runs");
    const int items = options.number("items");
    const int pageSize = options.number("page-size");
    const int pages = (items + pageSize - 1) / pageSize;
    const QStringList demoArgs{QStringLiteral("--resources"), QString::number(items),
                               QStringLiteral("--list"),
                               QStringLiteral("resources=pageSize=%1").arg(pageSize)};

    Theme::apply(Theme::Mode::Light);
    TtlClock clock;
    SecretStore secrets;
    ServerListModel servers(&clock, &secrets);
    servers.setDemoServer(bench::demoServerProgram(), demoArgs);
    MainWindow window(&servers, &secrets);
    window.resize(1360, 860);
    window.show();
    window.selectServer(0);
    window.connectCurrent();
    const QString listId = QStringLiteral("resources");
    ListView *list = nullptr;
    if (!spinUntil(
            [&] {
                ServerView *view = window.currentServerView();
                list = view ? view->listView(listId) : nullptr;
                return list && list->model();
            },
            20'000)) {
        std::fprintf(stderr, "bench_window: the demo server's resources list did not come up\n");
        return 1;
    }
    window.currentServerView()->showList(listId);
    PagedListModel *model = list->model();

    bench::heading(QStringLiteral("bench_window: Load all in the window, %1 items in %2 pages over stdio, "
                                  "%3 run(s)")
                       .arg(items)
                       .arg(pages)
                       .arg(runs));
    QList<double> wallMs, cpuMs, headlessMs;
    for (int run = 0; run < runs; ++run) {
        // From a list with its first page only, as after opening it.
        list->restart();
        if (!spinUntil([&] { return model->rowCount() > 0 && !model->walker()->isLoading(); }, 20'000)) {
            std::fprintf(stderr, "bench_window: the first page did not arrive\n");
            return 1;
        }
        QCoreApplication::processEvents();
        const double cpu0 = threadCpuMs();
        const qint64 start = bench::monotonicNs();
        list->loadAll();
        if (!spinUntil([&] { return model->walker()->isComplete(); }, 120'000)) {
            std::fprintf(stderr, "bench_window: the walk did not complete (%d rows)\n", model->rowCount());
            return 1;
        }
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents(); // the repaints the last page asked for
        const double ms = double(bench::monotonicNs() - start) / 1e6;
        const double cpu = threadCpuMs() - cpu0;
        if (model->rowCount() != items) {
            std::fprintf(stderr, "bench_window: %d rows, expected %d\n", model->rowCount(), items);
            return 1;
        }
        wallMs.append(ms);
        cpuMs.append(cpu);

        // The same walk headless, for scale.
        bench::ProcessSpec headless;
        headless.command =
            QStringList{bench::folioProgram(),   QStringLiteral("list"),     listId,
                        QStringLiteral("--all"), QStringLiteral("--format"), QStringLiteral("ndjson"),
                        QStringLiteral("--")} +
            QStringList{bench::demoServerProgram()} + demoArgs;
        headless.excludeComms = {QStringLiteral("folio-demo-serv")};
        const bench::ProcessResult r = bench::runProcess(headless);
        if (!r.ok) {
            std::fprintf(stderr, "bench_window: folio list failed: %s\n", r.stderrTail.constData());
            return 1;
        }
        headlessMs.append(r.exitMs);
        std::printf("run %d: window %.0f ms (GUI thread CPU %.0f ms, %.1f us a page); folio list %.0f ms\n",
                    run + 1, ms, cpu, cpu * 1000.0 / pages, r.exitMs);
        std::fflush(stdout);
    }

    bench::heading(QStringLiteral("bench_window results"));
    bench::line(QStringLiteral("window: Load all to the last page"), bench::Stats::of(wallMs).text("ms", 0));
    bench::line(QStringLiteral("window: GUI thread CPU over the walk"),
                bench::Stats::of(cpuMs).text("ms", 0));
    QList<double> perPage;
    for (double c : std::as_const(cpuMs))
        perPage.append(c * 1000.0 / pages);
    bench::line(QStringLiteral("window: GUI thread CPU per page"), bench::Stats::of(perPage).text("us", 1));
    bench::line(QStringLiteral("folio list --all (headless), start to exit"),
                bench::Stats::of(headlessMs).text("ms", 0));
    bench::line(QStringLiteral("window / headless (median)"),
                QStringLiteral("%1x").arg(
                    bench::Stats::of(wallMs).median / bench::Stats::of(headlessMs).median, 0, 'f', 2));
    return 0;
}
