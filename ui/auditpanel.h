#pragma once

#include "rowcopy.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace folio {

struct AuditResult;
class ServerSession;

// The same audit as `folio audit`, for the current server, in a dock beside the page it leads
// to: progress while it runs, then the findings per list; activating one goes to its page in the
// window. The session runs the audit and keeps its result (its findings join the Findings dock);
// this panel only shows it, so switching servers shows each one's own audit.
class AuditPanel : public QWidget
{
    Q_OBJECT
public:
    explicit AuditPanel(QWidget *parent = nullptr);
    ~AuditPanel() override;

    void setSession(ServerSession *session);
    // Starts the session's audit (it says so when the server is not connected).
    void start();
    void cancel();
    bool isRunning() const;
    // The last audit's findings (all of them, the ones the walk shows too included).
    int findingCount() const;
    // Fills the tree from an audit's result (what the panel does when the session's audit ends).
    void showResult(const AuditResult &result);
    QString statusText() const;
    // The tree's context menu: Copy (the rows), Copy as JSON (a list's report or a finding).
    RowCopyActions copyActions() const { return m_copy; }
    QTreeWidget *tree() const { return m_tree; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    // How many walks of each list (1: no comparison) and the pause before each later walk, in
    // seconds: remembered across runs (SettingsKey::AuditWalks, AuditWalkPause), as in
    // `folio audit --walks N --walk-pause-ms MS`.
    QSpinBox *walksBox() const { return m_walks; }
    QSpinBox *pauseBox() const { return m_pause; }

Q_SIGNALS:
    // Show page pageIndex (0-based, in the list's current walk) of listId.
    void pageRequested(const QString &listId, int pageIndex);

private:
    void showSessionState();
    void showIdle();

    QPointer<ServerSession> m_session;
    QLabel *m_status;
    QTreeWidget *m_tree;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QSpinBox *m_walks;
    QSpinBox *m_pause;
    RowCopyActions m_copy;
};

} // namespace folio
