#pragma once

#include <QObject>

class QDockWidget;
class QKeySequence;
class QMainWindow;
class QMenu;
class QAction;
class QResizeEvent;

namespace folio {

class AuditPanel;
class FindingsPanel;
class SignInPanel;
class TimelineView;
class TrafficView;

// The window's docks, below the table and tabbed together: the timeline (in front), findings,
// traffic, and the audit and the sign-in, hidden until first needed. Their View menu actions, the
// findings tab's count, and their share of the window's height when it shrinks.
class WindowDocks : public QObject
{
    Q_OBJECT
public:
    WindowDocks(QMainWindow *window, TimelineView *timeline, FindingsPanel *findings, TrafficView *traffic,
                AuditPanel *audit, SignInPanel *signIn);

    QDockWidget *timeline() const { return m_timeline; }
    QDockWidget *findings() const { return m_findings; }
    QDockWidget *traffic() const { return m_traffic; }
    QDockWidget *audit() const { return m_audit; }
    QDockWidget *signIn() const { return m_signIn; }

    // View > Traffic, Findings, Timeline, Audit, Sign-in.
    void addViewActions(QMenu *view);
    // The Sign-in dock forward, with room for its steps.
    void showSignIn();
    void showAudit();
    // The findings tab says how many there are, so that they are seen behind the timeline.
    void setFindingsCount(int count);
    // The timeline as tall as its lanes need, within a quarter of the window (a first start).
    void sizeTimeline(int wanted);
    // The window got shorter: the docks give back their share, at most a quarter of it.
    void windowResized(QResizeEvent *event);

private:
    // A View menu action for a dock: shows or closes it, like its toggle-view action, except that
    // a dock tabbed behind another (open, but off screen) comes forward instead of closing.
    QAction *dockAction(QDockWidget *dock, const QKeySequence &keys);

    QMainWindow *m_window;
    QDockWidget *m_timeline;
    QDockWidget *m_findings;
    QDockWidget *m_traffic;
    QDockWidget *m_audit;
    QDockWidget *m_signIn;
    QWidget *m_auditPanel;
    QWidget *m_signInPanel;
};

} // namespace folio
