#pragma once

#include <QWidget>

class QListView;

namespace folio {

class ServerListActions;
class ServerListModel;

// The window's left side: the saved servers, one row each (state dot, name, target, findings
// badge, drawn by ServerListDelegate), and the buttons that add and import them. Its list's
// current row is the server the window shows; its actions (add, import, edit, remove) act on it.
class ServerSidebar : public QWidget
{
    Q_OBJECT
public:
    ServerSidebar(ServerListModel *servers, QWidget *window);

    QListView *list() const { return m_list; }
    ServerListActions *actions() const { return m_actions; }

private:
    QListView *m_list;
    ServerListActions *m_actions;
};

} // namespace folio
