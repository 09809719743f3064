#pragma once

#include <QObject>

class QAction;
class QListView;
class QMenu;
class QWidget;

namespace folio {

class ServerListModel;
class ServerSession;

// The server list's own work, each through its dialog: add a server, import servers from a
// client's configuration, edit the selected one and remove it (asking first; its keychain entries
// go with it). The demo server and replays are neither edited nor removed. The list view's current
// row is the server acted on; a server added or imported is selected.
class ServerListActions : public QObject
{
    Q_OBJECT
public:
    ServerListActions(ServerListModel *servers, QListView *list, QWidget *window);

    QAction *addAction() const { return m_add; }
    QAction *importAction() const { return m_import; }
    QAction *editAction() const { return m_edit; }
    QAction *removeAction() const { return m_remove; }
    QAction *trustAction() const { return m_trust; }

    void addServer();
    void importServers();
    void editServer();
    void removeServer();
    // Server > Trust Current Definitions: the current server's definitions, as walked on this
    // connection, become the trusted ones (asking first: the changes found stop being reported).
    void trustDefinitions(bool confirm = true);
    // List > Walk on Connect: how much of each list a connect walks (saved; the model applies it
    // from the next connect).
    void addWalkOnConnectMenu(QMenu *list);
    // Server > Snapshot History: how many snapshots of its connects each saved server keeps
    // (ServerHistory), and the current server's folder of them.
    void addHistoryMenu(QMenu *server);
    // Enables Edit, Remove and Trust for the current server.
    void updateActions();

Q_SIGNALS:
    void statusMessage(const QString &message);
    // A server is about to leave the list: its view goes.
    void removing(folio::ServerSession *session);

private:
    void select(int row);

    ServerListModel *m_servers;
    QListView *m_list;
    QWidget *m_window;
    QAction *m_add;
    QAction *m_import;
    QAction *m_edit;
    QAction *m_remove;
    QAction *m_trust;
    QAction *m_historyFolder = nullptr;
};

} // namespace folio
