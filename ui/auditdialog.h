#pragma once

#include "rowcopy.h"

#include <QDialog>
#include <QPointer>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace folio {

class Auditor;
struct AuditResult;
class ServerSession;

// The same audit as `folio audit`, for one server, from the window: progress while it runs, then
// the findings per list; activating one goes to its page in the window.
class AuditDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AuditDialog(ServerSession *session, QWidget *parent = nullptr);
    ~AuditDialog() override;

    void start();
    bool isRunning() const;
    int findingCount() const;
    // Fills the tree from an audit's result (what the dialog does when its audit finishes).
    void showResult(const AuditResult &result);
    // The tree's context menu: Copy (the rows), Copy as JSON (a list's report or a finding).
    RowCopyActions copyActions() const { return m_copy; }
    QTreeWidget *tree() const { return m_tree; }

Q_SIGNALS:
    // Show page pageIndex (0-based, in the list's current walk) of listId.
    void pageRequested(const QString &listId, int pageIndex);
    // The audit ran to its end or was cancelled; result is what it found (for File > Export Report).
    void auditFinished(const folio::AuditResult &result);

private:
    void showAuditorResult();

    QPointer<ServerSession> m_session;
    Auditor *m_auditor = nullptr;
    QLabel *m_status;
    QTreeWidget *m_tree;
    QPushButton *m_cancel;
    QPushButton *m_again;
    RowCopyActions m_copy;
};

} // namespace folio
