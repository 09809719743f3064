#pragma once

#include "serversession.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;
class QLabel;

namespace folio {

class ServerSession;

// The findings of every open list of one server, in one place; activating one goes to its page.
class FindingsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit FindingsPanel(QWidget *parent = nullptr);
    void setSession(ServerSession *session);
    int count() const;

Q_SIGNALS:
    // A finding was activated: show this page of this list.
    void pageRequested(const QString &listId, int ledgerRow);

private:
    void rebuild();

    QPointer<ServerSession> m_session;
    QTreeWidget *m_tree;
    QLabel *m_empty;
    QTimer m_rebuild;
};

} // namespace folio
