// bench_filter: typing into the list's filter over 1,000,000 loaded rows. An offscreen QTableView
// set up as ListView sets up its table (the PageMarginDelegate, fixed row heights) over a
// PagedListModel through the filter ListView puts in (RowFilter and RowFilterModel; --qsfpm: the
// QSortFilterProxyModel it used before, filtering on each keystroke). A needle is typed one
// keystroke every --interval ms; a zero-interval heartbeat timer measures how long the GUI thread
// went without turning its event loop (a keystroke's handling, a result going in, a repaint), and
// the time from the last keystroke to the result on screen is taken when the filter says it is in
// (the viewport repainted then).
//
// Usage: bench_filter [--runs N] [--rows N] [--needle TEXT] [--interval MS] [--qsfpm]
#include "benchoptions.h"
#include "benchstats.h"
#include "benchtransport.h"
#include "benchwidgets.h"

#include "pagedlistmodel.h"
#include "rowfilter.h"
#include "rowfiltermodel.h"
#include "theme.h"

#include <QApplication>
#include <QEventLoop>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>

#include <cstdio>

using namespace folio;

namespace {

// The longest time between two turns of the event loop while it runs, in ms.
class Heartbeat : public QObject
{
public:
    Heartbeat()
    {
        m_timer.setInterval(0);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = bench::nowNs();
            if (m_last > 0)
                m_longest = qMax(m_longest, now - m_last);
            m_last = now;
        });
        m_timer.start();
    }
    // Starts a new window: the longest gap from now on.
    void reset()
    {
        m_last = bench::nowNs();
        m_longest = 0;
    }
    // The longest gap so far, the current one included.
    double longestMs() const { return double(qMax(m_longest, bench::nowNs() - m_last)) / 1e6; }

private:
    QTimer m_timer;
    qint64 m_last = 0;
    qint64 m_longest = 0;
};

void spin(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace

int main(int argc, char **argv)
{
    bench::offscreenUnlessSet();
    QApplication app(argc, argv);
    bench::Options options;
    options.add("runs", "Runs.", "5");
    options.add("rows", "Rows.", "1000000");
    options.add("needle", "What is typed.", "budget for week 7", "TEXT");
    options.add("interval", "Milliseconds between keystrokes.", "80", "MS");
    options.addSwitch("qsfpm", "The QSortFilterProxyModel filter of before.");
    options.process(app);
    const int runs = options.number("runs");
    const int pages = qMax(1, options.number("rows") / 1000);
    const QString needle = options.text("needle");
    const int interval = options.number("interval", 0);
    const bool qsfpm = options.isSet("qsfpm");
    Theme::apply(Theme::Mode::Light);

    bench::WalkedList list(pages);
    PagedListModel &model = list.model;

    RowFilter filter(model.rows());
    RowFilterModel proxy(&filter);
    QSortFilterProxyModel before;
    before.setFilterKeyColumn(-1);
    before.setFilterCaseSensitivity(Qt::CaseInsensitive);
    if (qsfpm)
        before.setSourceModel(&model);
    else
        proxy.setSourceModel(&model);

    QTableView table;
    table.setModel(qsfpm ? static_cast<QAbstractItemModel *>(&before) : &proxy);
    bench::setUpAsListView(&table);
    table.resize(1200, 760);
    table.show();
    table.setCurrentIndex(table.model()->index(0, 0));
    spin(50);

    bench::heading(
        QStringLiteral("bench_filter: %1 rows, \"%2\" typed a keystroke every %3 ms, %4, %5 run(s)")
            .arg(model.rowCount())
            .arg(needle)
            .arg(interval)
            .arg(qsfpm ? QStringLiteral("QSortFilterProxyModel (before)")
                       : QStringLiteral("RowFilter, %1 ms debounce").arg(filter.debounceMs()))
            .arg(runs));
    Heartbeat heartbeat;
    qint64 shownNs = 0;
    QObject::connect(&filter, &RowFilter::matchesReset, &table, [&] {
        table.viewport()->repaint(); // on screen now
        shownNs = bench::nowNs();
    });
    QList<double> keystrokeBlocks, resultMs, runMax, clearMs;
    int shown = 0;
    for (int run = 0; run < runs; ++run) {
        double longest = 0;
        qint64 lastKeystrokeNs = 0;
        for (int k = 1; k <= needle.size(); ++k) {
            heartbeat.reset();
            lastKeystrokeNs = bench::nowNs();
            if (qsfpm) {
                before.setFilterFixedString(needle.left(k));
                table.viewport()->repaint();
                shownNs = bench::nowNs();
            } else {
                filter.setNeedle(needle.left(k));
            }
            spin(interval); // the next keystroke comes; what it left runs meanwhile
            const double block = heartbeat.longestMs();
            keystrokeBlocks.append(block);
            longest = qMax(longest, block);
        }
        // After the last keystroke: until the result is shown (and the event loop free again).
        heartbeat.reset();
        if (!qsfpm) {
            while (filter.isPending() || shownNs < lastKeystrokeNs)
                spin(1);
        }
        spin(20);
        longest = qMax(longest, heartbeat.longestMs());
        runMax.append(longest);
        resultMs.append(double(shownNs - lastKeystrokeNs) / 1e6);
        shown = table.model()->rowCount();
        std::printf(
            "run %d: %d of %d rows shown; longest GUI block %.1f ms; last keystroke to result %.0f ms\n",
            run + 1, shown, model.rowCount(), longest, resultMs.constLast());
        std::fflush(stdout);
        // Cleared for the next run (the needle erased at once): every row again.
        heartbeat.reset();
        if (qsfpm)
            before.setFilterFixedString(QString());
        else
            filter.setNeedle(QString());
        spin(50);
        clearMs.append(heartbeat.longestMs());
    }
    bench::heading(
        QStringLiteral("bench_filter results (%1 run(s), %2 keystrokes each)").arg(runs).arg(needle.size()));
    bench::line(QStringLiteral("GUI block per keystroke (target < 16 ms)"),
                bench::Stats::of(keystrokeBlocks).text("ms", 1, true));
    bench::line(QStringLiteral("longest GUI block per run"), bench::Stats::of(runMax).text("ms", 1));
    bench::line(QStringLiteral("last keystroke to result shown (< 300 ms)"),
                bench::Stats::of(resultMs).text("ms", 0));
    bench::line(QStringLiteral("GUI block clearing the filter"), bench::Stats::of(clearMs).text("ms", 1));
    bench::line(QStringLiteral("rows shown"), QStringLiteral("%1 of %2").arg(shown).arg(model.rowCount()));
    return 0;
}
