#pragma once

#include <QHash>
#include <QPointer>
#include <QStackedWidget>
#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTabWidget;

namespace folio {

class CallView;
class ElidedLabel;
class PromptView;

class ListView;
class ListSource;
class ReadView;
class TasksView;
class SkillView;
struct SkillEntry;
class ReplayBar;
class RunsLabel;
class ServerSession;
class WrapLabel;

// Everything about one server: who it is (name, version, revision, capabilities, instructions)
// and a tab per list. While not connected it says why and what to do.
class ServerView : public QWidget
{
    Q_OBJECT
public:
    explicit ServerView(ServerSession *session, QWidget *parent = nullptr);

    ServerSession *session() const { return m_session; }
    // The current tab's view (made when its tab was first shown).
    ListView *currentList() const;
    QString currentListId() const;
    // Every tab's list id, in tab order.
    QStringList listIds() const;
    // The list's view, made now if its tab was never shown; nullptr for a list it does not have.
    ListView *listView(const QString &listId);
    void showList(const QString &listId);
    void setMaskCursors(bool mask);
    // A window calling one tool, or getting one prompt, of this server (owned by this view).
    CallView *openCallView(const QJsonObject &tool);
    PromptView *openPromptView(const QJsonObject &prompt);
    // A replayed session's bar (what it is, play, pause, scrub); nullptr for a live server.
    ReplayBar *replayBar() const { return m_replayBar; }
    // The Reads tab's view (after the lists), made now if there is none; showList(ServerSession::ReadsId)
    // shows it.
    ReadView *readView();
    // The Tasks tab's view (made on first use): the tasks started on this connection.
    TasksView *tasksView();
    // A skill of the skills list in a window of its own (one per skill).
    SkillView *openSkillView(const SkillEntry &entry);

Q_SIGNALS:
    void statusMessage(const QString &message);
    void currentListChanged();
    void connectRequested();

protected:
    void changeEvent(QEvent *event) override;

private:
    // The Reads tab's page; its view comes with readView().
    QWidget *readsPage();
    QWidget *tasksPage();
    void rebuildTabs();
    QString tabSettingsKey() const;
    void updateHeader();
    void updateTabTitle(const QString &listId);
    QString listIdAt(int index) const;
    void addCloseButton(int index, const ListSource &source);
    // Read (resources) and Read from Template… (templates): double-click, Ctrl+R, context menu.
    // The skills tab: Open Skill… (Ctrl+R, double-click) opens a SkillView.
    void addSkillActions(ListView *view, const ListSource &source);
    void addReadActions(ListView *view, const ListSource &source);

    // A tab's icon: the worst severity among its list's findings (Stale: to be set again).
    enum class Badge { Stale, None, Warning, Error };
    struct TabPage
    {
        QWidget *page = nullptr;   // the tab's widget
        ListView *view = nullptr;  // inside page, once shown
        Badge badge = Badge::None; // the icon the tab shows
    };

    QPointer<ServerSession> m_session;
    QStackedWidget *m_stack;
    QWidget *m_emptyState;
    QLabel *m_emptyTitle;
    WrapLabel *m_emptyText;
    QLabel *m_emptyDetail; // a failure's detail lines (a crashed server's stderr), monospace
    QPushButton *m_connect;
    QWidget *m_connected;
    RunsLabel *m_header;
    bool m_rebuilding = false;
    // The tab last chosen for this server, to come back when its list arrives (lists arrive one
    // by one or all at once); empty once shown or once the user chose another.
    QString m_wantedTab;
    ElidedLabel *m_instructions; // a server's instructions can run to pages: one line, all on hover
    QTabWidget *m_tabs;
    QHash<QString, TabPage> m_pages;
    bool m_maskCursors = false;
    ReplayBar *m_replayBar = nullptr;
    QWidget *m_readsPage = nullptr;
    ReadView *m_readView = nullptr;
    QWidget *m_tasksPage = nullptr;
    TasksView *m_tasksView = nullptr;
};

} // namespace folio
