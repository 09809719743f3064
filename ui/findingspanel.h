#pragma once

#include "rowcopy.h"
#include "serversession.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;
class QLabel;

namespace folio {

class ServerSession;

// The findings of every open list of one server and of its last audit (marked "audit"), in one
// place; activating one goes to its page.
class FindingsPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column {
        SeverityColumn,
        IdColumn,
        ListColumn,
        PageColumn,
        SourceColumn,
        MessageColumn,
        ColumnCount
    };

    explicit FindingsPanel(QWidget *parent = nullptr);
    void setSession(ServerSession *session);
    ServerSession *session() const { return m_session; }
    int count() const; // the session's findings (ServerSession::findingCount()), shown or not
    // The tree is made and filled once the panel is on screen; its dock calls this when it comes
    // forward.
    void rebuildWhenOnScreen();
    // The tree's context menu: Copy (the row), Copy as JSON (the finding, with its list).
    RowCopyActions copyActions() const { return m_copy; }
    QTreeWidget *tree() const { return m_tree; }
    // What the panel says when there is nothing to list (empty while it shows findings, or before
    // it was first on screen).
    QString emptyText() const;

Q_SIGNALS:
    // A finding was activated: show this page of this list (-1: the list, no page).
    void pageRequested(const QString &listId, int ledgerRow);
    // An audit's finding was activated whose page (0-based, in the list's walk) the window's
    // walk has not reached yet.
    void pageIndexRequested(const QString &listId, int pageIndex);
    // A definition-changed finding (drift) was activated: compare the trusted definitions with now.
    void compareRequested(const QString &listId);

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void build();
    void rebuild();
    // The columns but the message fitted to what they hold, in the current font.
    void fitColumns();

    QPointer<ServerSession> m_session;
    QTreeWidget *m_tree = nullptr; // and m_empty: made by build()
    QLabel *m_empty = nullptr;
    RowCopyActions m_copy;
    QTimer m_rebuild;
    bool m_stale = false; // the session changed while the panel was hidden
};

} // namespace folio
