// folio-bench-probe: preloaded into the window by bench_startup (LD_PRELOAD), so that the
// product carries no benchmark hook. When the application object is made it installs an event
// filter that, once a list's table has painted rows, prints
//   folio-bench: first-page-painted <CLOCK_MONOTONIC ns>
// to stderr, once. With FOLIO_BENCH_PROBE_QUIT set it then quits the application, so that a
// profiler (valgrind --tool=callgrind) can count the instructions of a start up to its first page.
#include "firstpaintmarker.h"

#include <QAbstractItemView>
#include <QCoreApplication>
#include <QEvent>
#include <QTimer>

namespace {

bool isListTable(const QAbstractItemModel *model)
{
    // The table or its filter proxy over a PagedListModel (by name: the probe links no Folio code).
    for (const QAbstractItemModel *m = model; m;) {
        if (qstrcmp(m->metaObject()->className(), "folio::PagedListModel") == 0)
            return true;
        const QVariant source = m->property("sourceModel");
        m = source.isValid() ? source.value<QAbstractItemModel *>() : nullptr;
    }
    return false;
}

class FirstPaintProbe : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (m_done || event->type() != QEvent::Paint)
            return false;
        const auto *view = qobject_cast<QAbstractItemView *>(watched->parent());
        if (!view || view->viewport() != watched || !view->model() || view->model()->rowCount() == 0 ||
            !isListTable(view->model()))
            return false;
        m_done = true;
        // After this paint event has been handled: the rows are on the backing store.
        QTimer::singleShot(0, this, [] {
            printFirstPagePainted();
            if (qEnvironmentVariableIsSet("FOLIO_BENCH_PROBE_QUIT"))
                QCoreApplication::quit();
        });
        return false;
    }

private:
    bool m_done = false;
};

void installProbe()
{
    QCoreApplication *app = QCoreApplication::instance();
    app->installEventFilter(new FirstPaintProbe(app));
}

} // namespace

Q_COREAPP_STARTUP_FUNCTION(installProbe)
