#pragma once

#include "presentation.h"
#include "windowdocks.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QStackedWidget>

class QAction;
class QDockWidget;
class QListView;
class QSplitter;
class QLabel;
class QTimer;

namespace folio {

class AuditPanel;
class CommandPalette;
class ElidedLabel;
class FindingsPanel;
class LegendBar;
class ListView;
class SecretStore;
class ServerListActions;
class ServerListModel;
class ServerSession;
class ServerSidebar;
class ServerView;
class SessionFiles;
class SignInPanel;
class TimelineView;
class TrafficView;

// The Folio window: servers on the left, the selected server's lists on the right, and docks for
// traffic, findings, the page timeline and the audit. It composes widgets; the models do the work.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    MainWindow(ServerListModel *servers, SecretStore *secrets, QWidget *parent = nullptr);
    ~MainWindow() override;

    void selectServer(int row);
    int currentServerRow() const;
    ServerView *serverView(int row);
    ServerView *currentServerView() const;
    ListView *currentList() const;
    TrafficView *trafficView() const { return m_traffic; }
    FindingsPanel *findingsPanel() const { return m_findings; }
    TimelineView *timelineView() const { return m_timeline; }
    QDockWidget *timelineDock() const { return m_docks->timeline(); }
    QDockWidget *findingsDock() const { return m_docks->findings(); }
    // Server > Audit Paging runs in this dock (hidden until the first audit), beside the table.
    AuditPanel *auditPanel() const { return m_audit; }
    QDockWidget *auditDock() const { return m_docks->audit(); }
    QDockWidget *signInDock() const { return m_docks->signIn(); }
    SignInPanel *signInPanel() const { return m_signIn; }
    // The status bar's two texts: the last message (gone after a while) and the current server's
    // state. Each is one elided line; the whole text is in its tooltip and its Copy.
    QString statusMessage() const;
    // View > Zoom (1 is actual size; remembered) and View > Presentation (full screen, zoomed,
    // the legend shown; left as it was on leaving).
    void setZoom(qreal zoom) { m_presentation->setZoom(zoom); }
    void setPresentation(bool on) { m_presentation->setPresenting(on); }
    bool isPresenting() const { return m_presentation->isPresenting(); }
    // Find anything (Ctrl+K): the palette over the window's actions, servers, lists, loaded items
    // and findings; made when first opened.
    void openPalette();
    CommandPalette *commandPalette() const { return m_palette; }
    LegendBar *legend() const { return m_presentation->legend(); }
    void setLegendShown(bool shown) { m_presentation->setLegendShown(shown); }
    QString serverStatus() const;

    void connectCurrent();
    void disconnectCurrent();

    // File > Open Session (and folio FILE.folio, and a file dropped on the window): adds a replay
    // of the recorded session to the sidebar, selects it and starts it. A file that cannot be read
    // is said in *error and in the status bar (the menu and a drop say it in a message box too),
    // and adds nothing. Returns its row or -1.
    int openSession(const QString &path, QString *error = nullptr);
    // File > Save Session: what the current server's connection carried since it connected.
    bool saveSession(const QString &path, QString *error = nullptr);
    // File > Export Report without its dialog: the current server's report (BugReport) written to
    // fileName, in the format its suffix names (HTML otherwise). False with the reason in *error.
    bool exportReport(const QString &fileName, QString *error = nullptr);
    // File > Open Session, Save Session, Save Snapshot, Export Report.
    SessionFiles *sessionFiles() const { return m_files; }

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void createActions();
    QWidget *welcome();
    void handleServerSelected();
    void handleCurrentListChanged();
    void updateActions();
    void updateFindingsTitle();
    void showStatus(const QString &message);
    void fitToScreen();
    void restoreSettings();
    void saveSettings();
    void goToPage(const QString &listId, int ledgerRow);
    void goToPageIndex(const QString &listId, int pageIndex);

    ServerListModel *m_servers;
    CommandPalette *m_palette = nullptr; // made when first opened (Ctrl+K)
    QAction *m_findAction = nullptr;     // View > Go To > Find Anything, not offered by the palette
    SecretStore *m_secrets;
    QSplitter *m_splitter;
    ServerSidebar *m_sidebar;
    QListView *m_serverList;
    QStackedWidget *m_stack;
    QWidget *m_welcome = nullptr; // made by welcome()
    QHash<ServerSession *, ServerView *> m_views;
    TrafficView *m_traffic;
    FindingsPanel *m_findings;
    TimelineView *m_timeline;
    AuditPanel *m_audit;
    SignInPanel *m_signIn;
    ElidedLabel *m_message;
    ElidedLabel *m_permanentStatus;
    QTimer *m_messageTimer;
    ServerListActions *m_serverActions;
    SessionFiles *m_files;
    WindowDocks *m_docks;
    Presentation *m_presentation;
    bool m_maskCursors = false;

    QAction *m_connectAction = nullptr;
    QAction *m_disconnectAction = nullptr;
    QAction *m_auditAction = nullptr;
    QAction *m_signInAction = nullptr;
    QAction *m_signOutAction = nullptr;
    QAction *m_loadAllAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_restartAction = nullptr;
    QAction *m_filterAction = nullptr;
};

} // namespace folio
