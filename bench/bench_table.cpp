// bench_table: an offscreen QTableView set up as ListView sets up its table once its filter has been
// used (the PageMarginDelegate, a QSortFilterProxyModel, fixed row heights, no grid; --no-proxy: as
// before the filter is used) over a 1,000,000-row PagedListModel; scrolls by pages and times each
// frame: the scroll plus a synchronous repaint of the whole viewport.
//
// Usage: bench_table [--runs N] [--frames N] [--rows N] [--no-proxy] [--plain-delegate]
#include "benchoptions.h"
#include "benchstats.h"
#include "benchtransport.h"
#include "benchwidgets.h"

#include "pagedlistmodel.h"
#include "theme.h"

#include <QApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>

#include <cstdio>

using namespace folio;

int main(int argc, char **argv)
{
    bench::offscreenUnlessSet();
    QApplication app(argc, argv);
    bench::Options options;
    options.add("runs", "Runs.", "3");
    options.add("frames", "Frames per run.", "600");
    options.add("rows", "Rows.", "1000000");
    options.addSwitch("no-proxy",
                      "The table on the model itself, without the filter proxy ListView puts between.");
    options.addSwitch("plain-delegate", "QStyledItemDelegate instead of PageMarginDelegate.");
    options.process(app);
    const int runs = options.number("runs");
    const int frames = options.number("frames");
    const int pages = qMax(1, options.number("rows") / 1000);
    const bool plainDelegate = options.isSet("plain-delegate");
    Theme::apply(Theme::Mode::Light);

    bench::WalkedList list(pages);
    PagedListModel &model = list.model;

    QSortFilterProxyModel proxy;
    proxy.setFilterKeyColumn(-1);
    proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
    const bool useProxy = !options.isSet("no-proxy");
    if (useProxy)
        proxy.setSourceModel(&model);

    QTableView table;
    table.setModel(useProxy ? static_cast<QAbstractItemModel *>(&proxy) : &model);
    bench::setUpAsListView(&table, !plainDelegate);
    table.setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    table.resize(1200, 760);
    table.show();
    table.resizeColumnsToContents(); // ListView sizes the columns to the first page once
    for (int c = 0; c + 1 < table.horizontalHeader()->count(); ++c)
        table.horizontalHeader()->resizeSection(
            c, qBound(60, table.horizontalHeader()->sectionSize(c) + 12, 280));
    QCoreApplication::processEvents();

    QScrollBar *bar = table.verticalScrollBar();
    bench::heading(
        QStringLiteral("bench_table: %1 rows, %2x%3 viewport (%4 rows visible), %5 frames per run, "
                       "%6, %7")
            .arg(table.model()->rowCount())
            .arg(table.viewport()->width())
            .arg(table.viewport()->height())
            .arg(bar->pageStep())
            .arg(frames)
            .arg(useProxy ? QStringLiteral("through the filter proxy") : QStringLiteral("no proxy"))
            .arg(plainDelegate ? QStringLiteral("plain delegate") : QStringLiteral("PageMarginDelegate")));
    QList<double> all;
    for (int run = 0; run < runs; ++run) {
        QList<double> ms;
        int value = int(qint64(bar->maximum()) * run / runs);
        for (int f = 0; f < frames; ++f) {
            value = qMin(bar->maximum(), value + bar->pageStep());
            const qint64 start = bench::nowNs();
            bar->setValue(value);
            table.viewport()->repaint();
            ms.append(double(bench::nowNs() - start) / 1e6);
            QCoreApplication::processEvents();
        }
        all += ms;
        std::printf("run %d (from row %d): frame %s\n", run + 1, int(qint64(bar->maximum()) * run / runs),
                    qPrintable(bench::Stats::of(ms).text("ms", 3, true)));
        std::fflush(stdout);
    }
    bench::heading(QStringLiteral("bench_table results (%1 run(s))").arg(runs));
    bench::line(QStringLiteral("paint per frame (target < 8 ms)"), bench::Stats::of(all).text("ms", 3, true));
    return 0;
}
