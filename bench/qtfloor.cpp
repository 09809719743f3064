// bench-qt-floor: what a bare Qt Widgets window costs on this machine, for bench_startup to set
// folio's window start against. A QMainWindow at folio's default size with a menu bar, a dock, a
// status bar and a QTableView whose model gets 123 rows on the event loop's first turn (as a first
// page would arrive); it prints
//   folio-bench: first-page-painted <CLOCK_MONOTONIC ns>
// to stderr once the table's viewport has painted rows, and quits. No server, no fonts of its own,
// no settings: what is left of a start-up once an application does nothing else.
#include "firstpaintmarker.h"

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>

namespace {

class PaintProbe : public QObject
{
public:
    PaintProbe(QTableView *table)
        : QObject(table)
        , m_table(table)
    {
        table->viewport()->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (m_done || event->type() != QEvent::Paint || watched != m_table->viewport() ||
            m_table->model()->rowCount() == 0)
            return false;
        m_done = true;
        QTimer::singleShot(0, this, [] {
            printFirstPagePainted();
            QCoreApplication::quit();
        });
        return false;
    }

private:
    QTableView *m_table;
    bool m_done = false;
};

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QMainWindow window;
    window.resize(1360, 860);
    window.menuBar()->addMenu(QStringLiteral("&File"))->addAction(QStringLiteral("&Quit"));
    window.menuBar()->addMenu(QStringLiteral("&View"));
    window.menuBar()->addMenu(QStringLiteral("&Help"));
    auto *dock = new QDockWidget(QStringLiteral("Servers"), &window);
    dock->setWidget(new QLabel(QStringLiteral("folio-demo-server")));
    window.addDockWidget(Qt::LeftDockWidgetArea, dock);
    auto *model = new QStandardItemModel(0, 3, &window);
    model->setHorizontalHeaderLabels(
        {QStringLiteral("Name"), QStringLiteral("Description"), QStringLiteral("Page")});
    auto *table = new QTableView;
    table->setModel(model);
    window.setCentralWidget(table);
    window.statusBar()->showMessage(QStringLiteral("Connecting…"));
    new PaintProbe(table);
    window.show();
    QTimer::singleShot(0, model, [model] {
        for (int i = 0; i < 123; ++i)
            model->appendRow({new QStandardItem(QStringLiteral("tool_%1").arg(i)),
                              new QStandardItem(QStringLiteral("Does one thing of the demo's catalog")),
                              new QStandardItem(QStringLiteral("1"))});
    });
    return app.exec();
}
