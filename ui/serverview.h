#pragma once

#include <QHash>
#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QStackedWidget;
class QTabWidget;

namespace folio {

class ListView;
class ServerSession;

// Everything about one server: who it is (name, version, revision, capabilities, instructions)
// and a tab per list. While not connected it says why and what to do.
class ServerView : public QWidget
{
    Q_OBJECT
public:
    explicit ServerView(ServerSession *session, QWidget *parent = nullptr);

    ServerSession *session() const { return m_session; }
    ListView *currentList() const;
    QList<ListView *> lists() const;
    ListView *listView(const QString &listId) const;
    void showList(const QString &listId);
    void setMaskCursors(bool mask);

Q_SIGNALS:
    void statusMessage(const QString &message);
    void currentListChanged();
    void connectRequested();

private:
    void rebuildTabs();
    void updateHeader();
    void updateTabTitle(ListView *view);

    QPointer<ServerSession> m_session;
    QStackedWidget *m_stack;
    QWidget *m_emptyState;
    QLabel *m_emptyText;
    QPushButton *m_connect;
    QWidget *m_connected;
    QLabel *m_header;
    QLabel *m_instructions;
    QTabWidget *m_tabs;
    QHash<QString, ListView *> m_views;
    bool m_maskCursors = false;
};

} // namespace folio
