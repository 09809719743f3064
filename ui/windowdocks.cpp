#include "windowdocks.h"

#include "auditpanel.h"
#include "findingspanel.h"
#include "signinpanel.h"
#include "timelineview.h"
#include "trafficview.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QResizeEvent>

namespace folio {

namespace {

enum class Content { Now, WhenShown };

// A dock hidden at start gets its content when it first shows (restored open, chosen in View,
// or brought forward): putting a widget in a dock shows and polishes it and all its children,
// work the first painted page need not wait for.
QDockWidget *makeDock(QMainWindow *window, const QString &title, const QString &name, QWidget *content,
                      Content when = Content::Now)
{
    auto *d = new QDockWidget(title, window);
    d->setObjectName(name);
    if (when == Content::Now) {
        d->setWidget(content);
    } else {
        content->hide();
        QObject::connect(d, &QDockWidget::visibilityChanged, content, [d, content](bool visible) {
            if (visible && !d->widget())
                d->setWidget(content);
        });
    }
    window->addDockWidget(Qt::BottomDockWidgetArea, d);
    return d;
}

void fill(QDockWidget *dock, QWidget *content)
{
    if (!dock->widget())
        dock->setWidget(content);
}

} // namespace

WindowDocks::WindowDocks(QMainWindow *window, TimelineView *timeline, FindingsPanel *findings,
                         TrafficView *traffic, AuditPanel *audit, SignInPanel *signIn)
    : QObject(window)
    , m_window(window)
    , m_timeline(makeDock(window, tr("Timeline"), QStringLiteral("timelineDock"), timeline))
    , m_findings(makeDock(window, tr("Findings"), QStringLiteral("findingsDock"), findings))
    , m_traffic(makeDock(window, tr("Traffic"), QStringLiteral("trafficDock"), traffic))
    // The audit sits with them, below the table, so the page a finding opens is never behind it.
    , m_audit(makeDock(window, tr("Audit"), QStringLiteral("auditDock"), audit, Content::WhenShown))
    // The sign-in's steps, with them too; it comes forward when a sign-in starts.
    , m_signIn(makeDock(window, tr("Sign-in"), QStringLiteral("signInDock"), signIn, Content::WhenShown))
    , m_auditPanel(audit)
    , m_signInPanel(signIn)
{
    window->tabifyDockWidget(m_timeline, m_findings);
    window->tabifyDockWidget(m_findings, m_traffic);
    window->tabifyDockWidget(m_traffic, m_audit);
    window->tabifyDockWidget(m_audit, m_signIn);
    m_audit->hide();
    m_signIn->hide();
    connect(signIn, &SignInPanel::flowStarted, this, &WindowDocks::showSignIn);
    m_timeline->raise();
    // The docks behind the timeline fill their panels when they come forward.
    connect(m_findings, &QDockWidget::visibilityChanged, findings, [findings](bool visible) {
        if (visible)
            findings->rebuildWhenOnScreen();
    });
    connect(m_traffic, &QDockWidget::visibilityChanged, traffic, [traffic](bool visible) {
        if (visible)
            traffic->buildWhenOnScreen();
    });
}

QAction *WindowDocks::dockAction(QDockWidget *dock, const QKeySequence &keys)
{
    QAction *toggle = dock->toggleViewAction();
    auto *action = new QAction(toggle->text(), m_window);
    action->setCheckable(true);
    action->setChecked(toggle->isChecked());
    action->setShortcut(keys);
    connect(toggle, &QAction::toggled, action, &QAction::setChecked);
    connect(action, &QAction::triggered, dock, [dock, action](bool checked) {
        if (!checked && dock->visibleRegion().isEmpty()) {
            action->setChecked(true);
            dock->raise();
            return;
        }
        dock->setVisible(checked);
        if (checked)
            dock->raise();
    });
    return action;
}

void WindowDocks::addViewActions(QMenu *view)
{
    view->addAction(dockAction(m_traffic, QKeySequence(tr("Ctrl+T"))));
    view->addAction(dockAction(m_findings, QKeySequence(tr("Ctrl+Shift+F"))));
    view->addAction(dockAction(m_timeline, QKeySequence(tr("Ctrl+Shift+T"))));
    view->addAction(dockAction(m_audit, QKeySequence()));
    view->addAction(dockAction(m_signIn, QKeySequence()));
}

void WindowDocks::showSignIn()
{
    fill(m_signIn, m_signInPanel);
    m_signIn->show();
    m_signIn->raise();
    // Its steps and their exchanges want room: two fifths of the window's height when the dock is
    // squeezed below a quarter (a size the user chose above that stays).
    const int height = m_window->height();
    if (!m_signIn->isFloating() && m_signIn->height() < height / 4)
        m_window->resizeDocks({m_signIn}, {height * 2 / 5}, Qt::Vertical);
}

void WindowDocks::showAudit()
{
    fill(m_audit, m_auditPanel);
    m_audit->show();
    m_audit->raise();
}

void WindowDocks::setFindingsCount(int count)
{
    const QString title = count > 0 ? tr("Findings (%1)").arg(count) : tr("Findings");
    if (m_findings->windowTitle() != title)
        m_findings->setWindowTitle(title);
}

void WindowDocks::sizeTimeline(int wanted)
{
    m_window->resizeDocks({m_timeline}, {qMin(wanted, m_window->height() / 4)}, Qt::Vertical);
}

void WindowDocks::windowResized(QResizeEvent *event)
{
    // A window made smaller keeps its docks' heights and takes it all from the table: give the
    // bottom docks back their share, at most a quarter of the window.
    if (!event->oldSize().isValid() || event->size().height() >= event->oldSize().height())
        return;
    const int cap = m_window->height() / 4;
    for (QDockWidget *dock : {m_timeline, m_findings, m_traffic, m_audit}) {
        if (dock->isVisible() && !dock->isFloating() &&
            m_window->dockWidgetArea(dock) == Qt::BottomDockWidgetArea && dock->height() > cap) {
            m_window->resizeDocks({dock}, {cap}, Qt::Vertical);
            break; // tabbed docks share one height
        }
    }
}

} // namespace folio
