#include "mainwindow.h"

#include "auditpanel.h"
#include "bugreport.h"
#include "clientstate.h"
#include "elidedlabel.h"
#include "finding.h"
#include "findingspanel.h"
#include "fonts.h"
#include "framepacer.h"
#include "importdialog.h"
#include "inputresponder.h"
#include "legendbar.h"
#include "listview.h"
#include "pagedlistmodel.h"
#include "pageinspector.h"
#include "pagestrip.h"
#include "secretstore.h"
#include "serverdialog.h"
#include "serverlistdelegate.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "serverview.h"
#include "sessionrecording.h"
#include "settingskeys.h"
#include "signinpanel.h"
#include "signinstore.h"
#include "statuscolors.h"
#include "terminaltext.h"
#include "theme.h"
#include "timelineview.h"
#include "trafficexport.h"
#include "trafficview.h"
#include "uilogging.h"
#include "zoom.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpression>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace folio {

MainWindow::MainWindow(ServerListModel *servers, SecretStore *secrets, QWidget *parent)
    : QMainWindow(parent)
    , m_servers(servers)
    , m_secrets(secrets)
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_serverList(new QListView(this))
    , m_stack(new QStackedWidget(this))
    , m_traffic(new TrafficView(this))
    , m_findings(new FindingsPanel(this))
    , m_timeline(new TimelineView(this))
    , m_audit(new AuditPanel(this))
    , m_signIn(new SignInPanel(this))
    , m_message(new ElidedLabel(this))
    , m_permanentStatus(new ElidedLabel(this))
    , m_messageTimer(new QTimer(this))
    , m_legend(new LegendBar(this))
{
    setWindowTitle(tr("Folio"));
    setObjectName(QStringLiteral("FolioMainWindow"));
    new FramePacer(this); // a fast walk repaints at the display's pace, not once per page

    // Sidebar.
    auto *sidebar = new QWidget(this);
    auto *side = new QVBoxLayout(sidebar);
    side->setContentsMargins(6, 6, 0, 6);
    auto *title = new QLabel(tr("Servers"), sidebar); // plain text: no rich-text layout to size it
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    side->addWidget(title);
    m_serverList->setModel(m_servers);
    // Each server's questions (elicitation, sampling, roots) are answered here; set before the
    // first handshake, which a start-up connect begins only once the event loop runs.
    for (int row = 0; row < m_servers->rowCount(); ++row)
        attachResponder(m_servers->session(row));
    connect(m_servers, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first, int last) {
                for (int row = first; row <= last; ++row)
                    attachResponder(m_servers->session(row));
            });
    m_serverList->setItemDelegate(new ServerListDelegate(m_serverList));
    m_serverList->setSelectionMode(QAbstractItemView::SingleSelection);
    m_serverList->setContextMenuPolicy(Qt::ActionsContextMenu);
    side->addWidget(m_serverList, 1);
    auto *buttons = new QHBoxLayout;
    auto *add = new QPushButton(tr("Add"), sidebar);
    add->setToolTip(tr("Add a server (Ctrl+N)"));
    auto *import = new QPushButton(tr("Import…"), sidebar);
    import->setToolTip(tr("Import servers from Claude Desktop, Cursor, .mcp.json or VS Code (Ctrl+I)"));
    buttons->addWidget(add);
    buttons->addWidget(import);
    side->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, &MainWindow::addServer);
    connect(import, &QPushButton::clicked, this, &MainWindow::importServers);

    m_splitter->addWidget(sidebar);
    m_splitter->addWidget(m_stack);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({220, 1000});
    setCentralWidget(m_splitter);
    setAcceptDrops(true); // a .folio file dropped on the window opens as a replay

    createDocks();
    // The legend: a row of its own across the window's foot, above the status bar.
    m_legendBar = new QToolBar(tr("Legend"), this);
    m_legendBar->setObjectName(QStringLiteral("legendBar"));
    m_legendBar->setMovable(false);
    m_legendBar->setFloatable(false);
    m_legendBar->toggleViewAction()->setVisible(false); // View > Legend says it
    m_legendBar->addWidget(m_legend);
    addToolBar(Qt::BottomToolBarArea, m_legendBar);
    m_legendBar->setVisible(QSettings().value(SettingsKey::Legend, false).toBool());
    createActions();
    // Two texts side by side, each elided to its share: a long error never widens the window.
    m_message->setObjectName(QStringLiteral("statusMessage"));
    m_permanentStatus->setObjectName(QStringLiteral("serverStatus"));
    m_permanentStatus->setElideMode(Qt::ElideMiddle);
    m_permanentStatus->setMaximumWidth(fontMetrics().averageCharWidth() * 60);
    statusBar()->addWidget(m_message, 1);
    statusBar()->addPermanentWidget(m_permanentStatus);
    m_messageTimer->setSingleShot(true);
    m_messageTimer->setInterval(8000);
    connect(m_messageTimer, &QTimer::timeout, m_message, [this] { m_message->setText(QString()); });

    connect(m_serverList->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::handleServerSelected);
    connect(m_serverList, &QListView::doubleClicked, this, &MainWindow::connectCurrent);
    connect(m_servers, &QAbstractItemModel::dataChanged, this, &MainWindow::updateActions);
    connect(m_findings, &FindingsPanel::pageRequested, this, &MainWindow::goToPage);
    connect(m_findings, &FindingsPanel::pageIndexRequested, this, &MainWindow::goToPageIndex);
    connect(m_audit, &AuditPanel::pageRequested, this, &MainWindow::goToPageIndex);
    connect(m_secrets, &SecretStore::failed, this,
            [this](const QString &, SecretStore::Failure failure, const QString &message) {
                if (failure != SecretStore::Failure::NotFound) // nothing saved yet is no news
                    showStatus(message);
            });
    // Said after the keychain's own words, so that it is the message left showing.
    connect(m_servers, &ServerListModel::keychainRefused, this,
            [this](int, const QString &message) { showStatus(message); });

    restoreSettings();
    updateActions();
}

MainWindow::~MainWindow() = default;

// What the window shows with no server selected: a heading and a hint, in plain-text labels (a
// rich-text label is laid out as a text document each time a layout asks its size). Made when
// first needed: most starts open on a server.
QWidget *MainWindow::welcome()
{
    if (m_welcome)
        return m_welcome;
    m_welcome = new QWidget(m_stack);
    auto *heading = new QLabel(tr("Folio"), m_welcome);
    heading->setFont(titleFont(heading->font()));
    heading->setAlignment(Qt::AlignCenter);
    auto *hint = new QLabel(tr("Pick a server on the left, or add one (Ctrl+N) or import your client's "
                               "list (Ctrl+I)."),
                            m_welcome);
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    auto *layout = new QVBoxLayout(m_welcome);
    layout->addStretch();
    layout->addWidget(heading);
    layout->addWidget(hint);
    layout->addStretch();
    m_stack->addWidget(m_welcome);
    return m_welcome;
}

void MainWindow::showEvent(QShowEvent *event)
{
    if (!m_stack->currentWidget())
        m_stack->setCurrentWidget(welcome()); // no server selected
    QMainWindow::showEvent(event);
}

// A View menu action for a dock: shows or closes it, like its toggle-view action, except that a
// dock tabbed behind another (open, but off screen) comes forward instead of closing.
QAction *MainWindow::dockAction(QDockWidget *dock, const QKeySequence &keys)
{
    QAction *toggle = dock->toggleViewAction();
    auto *action = new QAction(toggle->text(), this);
    action->setCheckable(true);
    action->setChecked(toggle->isChecked());
    action->setShortcut(keys);
    connect(toggle, &QAction::toggled, action, &QAction::setChecked);
    connect(action, &QAction::triggered, dock, [dock, action](bool checked) {
        if (!checked && dock->visibleRegion().isEmpty()) {
            action->setChecked(true);
            dock->raise();
            return;
        }
        dock->setVisible(checked);
        if (checked)
            dock->raise();
    });
    return action;
}

void MainWindow::createDocks()
{
    auto dock = [this](const QString &title, const QString &name, QWidget *content) {
        auto *d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(content);
        addDockWidget(Qt::BottomDockWidgetArea, d);
        return d;
    };
    m_timelineDock = dock(tr("Timeline"), QStringLiteral("timelineDock"), m_timeline);
    m_findingsDock = dock(tr("Findings"), QStringLiteral("findingsDock"), m_findings);
    m_trafficDock = dock(tr("Traffic"), QStringLiteral("trafficDock"), m_traffic);
    tabifyDockWidget(m_timelineDock, m_findingsDock);
    tabifyDockWidget(m_findingsDock, m_trafficDock);
    // The audit sits with them, below the table, so the page a finding opens is never behind it;
    // hidden until an audit is run.
    m_auditDock = dock(tr("Audit"), QStringLiteral("auditDock"), m_audit);
    tabifyDockWidget(m_trafficDock, m_auditDock);
    m_auditDock->hide();
    // The sign-in's steps, with them too; it comes forward when a sign-in starts.
    m_signInDock = dock(tr("Sign-in"), QStringLiteral("signInDock"), m_signIn);
    tabifyDockWidget(m_auditDock, m_signInDock);
    m_signInDock->hide();
    connect(m_signIn, &SignInPanel::flowStarted, this, [this] { showSignIn(); });
    m_timelineDock->raise();
    // The docks behind the timeline fill their panels when they come forward.
    connect(m_findingsDock, &QDockWidget::visibilityChanged, m_findings, [this](bool visible) {
        if (visible)
            m_findings->rebuildWhenOnScreen();
    });
    connect(m_trafficDock, &QDockWidget::visibilityChanged, m_traffic, [this](bool visible) {
        if (visible)
            m_traffic->buildWhenOnScreen();
    });
    connect(m_timeline, &TimelineView::pageActivated, this, [this](int ledgerRow) {
        if (ListView *list = currentList())
            list->selectPage(ledgerRow);
    });
}

void MainWindow::showSignIn()
{
    m_signInDock->show();
    m_signInDock->raise();
    // Its steps and their exchanges want room: two fifths of the window's height when the dock is
    // squeezed below a quarter (a size the user chose above that stays).
    if (!m_signInDock->isFloating() && m_signInDock->height() < height() / 4)
        resizeDocks({m_signInDock}, {height() * 2 / 5}, Qt::Vertical);
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Add Server…"), QKeySequence::New, this, &MainWindow::addServer);
    file->addAction(tr("&Import Servers…"), QKeySequence(tr("Ctrl+I")), this, &MainWindow::importServers);
    file->addSeparator();
    file->addAction(tr("&Open Session…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open Session"), QSettings().value(SettingsKey::SessionDir).toString(),
            tr("Folio sessions (*.folio);;All files (*)"));
        if (path.isEmpty())
            return;
        QSettings().setValue(SettingsKey::SessionDir, QFileInfo(path).absolutePath());
        QString error;
        if (openSession(path, &error) < 0)
            QMessageBox::warning(this, tr("Open Session"), error);
    });
    m_saveSessionAction = file->addAction(tr("&Save Session…"), QKeySequence::Save, this, [this] {
        ServerSession *s = m_servers->session(currentServerRow());
        if (!s)
            return;
        QString name = s->displayName();
        name.replace(QRegularExpression(QStringLiteral("[^\\w.-]+")), QStringLiteral("-"));
        const QString dir = QSettings().value(SettingsKey::SessionDir, QDir::homePath()).toString();
        const QString path = QFileDialog::getSaveFileName(this, tr("Save Session"),
                                                          QDir(dir).filePath(name + QStringLiteral(".folio")),
                                                          tr("Folio sessions (*.folio)"));
        if (path.isEmpty())
            return;
        QSettings().setValue(SettingsKey::SessionDir, QFileInfo(path).absolutePath());
        QString error;
        if (!saveSession(path, &error))
            QMessageBox::warning(this, tr("Save Session"), error);
    });
    m_saveSessionAction->setToolTip(tr("Save what this server's connection carried, to replay it anywhere"));
    m_exportReportAction = file->addAction(tr("&Export Report…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                                           &MainWindow::exportReportAs);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *server = menuBar()->addMenu(tr("&Server"));
    m_connectAction =
        server->addAction(tr("&Connect"), QKeySequence(tr("Ctrl+Return")), this, &MainWindow::connectCurrent);
    m_disconnectAction = server->addAction(tr("&Disconnect"), QKeySequence(tr("Ctrl+Shift+Return")), this,
                                           &MainWindow::disconnectCurrent);
    server->addSeparator();
    m_editAction = server->addAction(tr("&Edit…"), QKeySequence(Qt::Key_F2), this, &MainWindow::editServer);
    m_removeAction = server->addAction(tr("&Remove"), QKeySequence::Delete, this, &MainWindow::removeServer);
    server->addSeparator();
    m_auditAction = server->addAction(tr("&Audit Paging"), QKeySequence(tr("Ctrl+Shift+A")), this,
                                      &MainWindow::auditServer);
    server->addSeparator();
    m_signInAction = server->addAction(tr("Sign &In"), this, [this] {
        showSignIn();
        m_signIn->signIn();
    });
    m_signOutAction = server->addAction(tr("Sign &Out…"), this, [this] { m_signIn->signOut(); });
    m_removeAction->setShortcutContext(Qt::WidgetShortcut);
    m_serverList->addAction(m_connectAction);
    m_serverList->addAction(m_disconnectAction);
    m_serverList->addAction(m_editAction);
    m_serverList->addAction(m_removeAction);

    QMenu *list = menuBar()->addMenu(tr("&List"));
    m_loadAllAction = list->addAction(tr("Load &All Pages"), QKeySequence(tr("Ctrl+L")), this, [this] {
        if (ListView *l = currentList())
            l->loadAll();
    });
    m_cancelAction = list->addAction(tr("&Cancel Loading"), QKeySequence(Qt::Key_Escape), this, [this] {
        if (ListView *l = currentList())
            l->cancel();
    });
    m_restartAction = list->addAction(tr("&Restart Walk"), QKeySequence(Qt::Key_F5), this, [this] {
        if (ListView *l = currentList())
            l->restart();
    });
    m_filterAction = list->addAction(tr("&Filter Rows"), QKeySequence::Find, this, [this] {
        if (ListView *l = currentList())
            l->focusFilter();
    });
    list->addSeparator();
    QMenu *onConnect = list->addMenu(tr("Walk on &Connect"));
    auto *walkGroup = new QActionGroup(this);
    const auto savedMode = ServerSession::WalkOnConnect(
        QSettings().value(SettingsKey::WalkOnConnect, int(ServerSession::WalkOnConnect::Whole)).toInt());
    m_servers->setWalkOnConnect(savedMode);
    for (const auto &[mode, label] :
         {std::pair{ServerSession::WalkOnConnect::FirstPages, tr("Every List's &First Page")},
          std::pair{ServerSession::WalkOnConnect::Whole, tr("Every List to Its &End (within the page cap)")},
          std::pair{ServerSession::WalkOnConnect::OnDemand, tr("&Only Lists I Open")}}) {
        QAction *a = onConnect->addAction(label);
        a->setCheckable(true);
        a->setChecked(mode == savedMode);
        walkGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode] {
            QSettings().setValue(SettingsKey::WalkOnConnect, int(mode));
            m_servers->setWalkOnConnect(mode);
            showStatus(tr("Applies at the next connect."));
        });
    }
    QAction *mask = list->addAction(tr("&Mask Cursors"));
    mask->setCheckable(true);
    mask->setShortcut(QKeySequence(tr("Ctrl+M")));
    mask->setToolTip(tr("Cursors can carry tenant data: hide them in views and copies"));
    connect(mask, &QAction::toggled, this, [this](bool on) {
        m_maskCursors = on;
        for (ServerView *v : std::as_const(m_views))
            v->setMaskCursors(on);
    });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(dockAction(m_trafficDock, QKeySequence(tr("Ctrl+T"))));
    view->addAction(dockAction(m_findingsDock, QKeySequence(tr("Ctrl+Shift+F"))));
    view->addAction(dockAction(m_timelineDock, QKeySequence(tr("Ctrl+Shift+T"))));
    view->addAction(dockAction(m_auditDock, QKeySequence()));
    view->addAction(dockAction(m_signInDock, QKeySequence()));
    view->addSeparator();
    // Keyboard users reach each part of the window directly (Tab walks between them too).
    QMenu *go = view->addMenu(tr("&Go To"));
    auto focusAction = [this, go](const QString &text, const QKeySequence &keys,
                                  std::function<QWidget *()> target) {
        QAction *a = go->addAction(text);
        a->setShortcut(keys);
        connect(a, &QAction::triggered, this, [target] {
            if (QWidget *w = target())
                w->setFocus(Qt::ShortcutFocusReason);
        });
    };
    focusAction(tr("&Server List"), QKeySequence(tr("Alt+1")),
                [this]() -> QWidget * { return m_serverList; });
    focusAction(tr("&Table"), QKeySequence(tr("Alt+2")), [this]() -> QWidget * {
        ListView *l = currentList();
        return l ? l->table() : nullptr;
    });
    focusAction(tr("Page &Strip"), QKeySequence(tr("Alt+3")), [this]() -> QWidget * {
        ListView *l = currentList();
        return l ? l->strip() : nullptr;
    });
    focusAction(tr("Page &Inspector"), QKeySequence(tr("Alt+4")), [this]() -> QWidget * {
        ListView *l = currentList();
        return l ? l->inspector()->focusTarget() : nullptr;
    });
    view->addSeparator();
    // For a room: full screen, larger, with the legend of the colours.
    m_presentationAction = view->addAction(tr("&Presentation"));
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcut(QKeySequence(Qt::Key_F11));
    connect(m_presentationAction, &QAction::toggled, this, &MainWindow::setPresentation);
    QAction *zoomIn = view->addAction(tr("Zoom &In"), this, [this] { setZoom(uiZoom() * 1.15); });
    zoomIn->setShortcuts({QKeySequence(tr("Ctrl+=")), QKeySequence::ZoomIn});
    QAction *zoomOut = view->addAction(tr("Zoom &Out"), this, [this] { setZoom(uiZoom() / 1.15); });
    zoomOut->setShortcuts({QKeySequence(tr("Ctrl+-")), QKeySequence::ZoomOut});
    view->addAction(tr("&Actual Size"), QKeySequence(tr("Ctrl+0")), this, [this] { setZoom(1.0); });
    m_legendAction = view->addAction(tr("&Legend"));
    m_legendAction->setCheckable(true);
    m_legendAction->setChecked(!m_legendBar->isHidden());
    m_legendAction->setToolTip(tr("What the colours and badges mean, in the status bar"));
    connect(m_legendAction, &QAction::toggled, this, [this](bool on) {
        m_legendBar->setVisible(on);
        if (!m_presentationAction->isChecked())
            QSettings().setValue(SettingsKey::Legend, on);
    });
    view->addSeparator();
    QMenu *theme = view->addMenu(tr("&Theme"));
    auto *group = new QActionGroup(this);
    const Theme::Mode current = Theme::load();
    for (const auto &[mode, label] :
         {std::pair{Theme::Mode::System, tr("Follow the &System")},
          std::pair{Theme::Mode::Light, tr("&Light")}, std::pair{Theme::Mode::Dark, tr("&Dark")}}) {
        QAction *a = theme->addAction(label);
        a->setCheckable(true);
        a->setChecked(mode == current);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [mode] {
            Theme::save(mode);
            Theme::apply(mode);
        });
    }

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Folio"), this, [this] {
        QMessageBox::about(
            this, tr("About Folio"),
            tr("<h3>Folio %1</h3><p>An inspector for MCP servers that shows every page of every list: "
               "cursors, cache hints, TTLs and cursor errors.</p><p>Speaks MCP %2.</p>")
                .arg(QCoreApplication::applicationVersion(), Revision::all().join(QStringLiteral(", "))));
    });
}

void MainWindow::selectServer(int row)
{
    m_serverList->setCurrentIndex(m_servers->index(row));
}

int MainWindow::currentServerRow() const
{
    return m_serverList->currentIndex().row();
}

void MainWindow::attachResponder(ServerSession *session)
{
    if (session && !session->inputResponder()) {
        session->setInputResponder(new WindowInputResponder(session, this));
        // A sign-in's authorization page opens in the desktop's browser.
        session->setSignInBrowser([](const QUrl &url) { QDesktopServices::openUrl(url); });
    }
}

ServerView *MainWindow::serverView(int row)
{
    ServerSession *session = m_servers->session(row);
    if (!session)
        return nullptr;
    if (ServerView *v = m_views.value(session))
        return v;
    auto *v = new ServerView(session, m_stack);
    v->setMaskCursors(m_maskCursors);
    m_stack->addWidget(v);
    m_views.insert(session, v);
    connect(v, &ServerView::statusMessage, this, &MainWindow::showStatus);
    connect(v, &ServerView::connectRequested, this, &MainWindow::connectCurrent);
    connect(v, &ServerView::currentListChanged, this, &MainWindow::handleCurrentListChanged);
    connect(session, &ServerSession::error, this, [this, session](const QString &message) {
        // A failed connection's error is its state text, on the right, when it is the current server.
        const bool current = currentServerView() && currentServerView()->session() == session;
        if (!(current && session->state() == ClientState::Failed))
            showStatus(message);
    });
    connect(session, &ServerSession::stateChanged, this, [this, session] {
        updateActions();
        // Failed and connected both replace "Connecting to …", which would otherwise stay up. The
        // current server's state is the bar's right-hand text already: the message is cleared, not
        // repeated.
        if (session->state() == ClientState::Failed || session->state() == ClientState::Connected) {
            if (currentServerView() && currentServerView()->session() == session)
                showStatus(QString());
            else
                showStatus(tr("%1: %2").arg(session->displayName(), session->stateText()));
        }
        if (currentServerView() && currentServerView()->session() == session)
            handleCurrentListChanged();
    });
    connect(session, &ServerSession::findingsChanged, this, [this, session] {
        if (currentServerView() && currentServerView()->session() == session)
            updateFindingsTitle();
    });
    connect(session, &QObject::destroyed, this, [this, session] { m_views.remove(session); });
    return v;
}

ServerView *MainWindow::currentServerView() const
{
    return qobject_cast<ServerView *>(m_stack->currentWidget());
}

ListView *MainWindow::currentList() const
{
    ServerView *v = currentServerView();
    return v ? v->currentList() : nullptr;
}

void MainWindow::handleServerSelected()
{
    const int row = currentServerRow();
    ServerView *v = serverView(row);
    m_stack->setCurrentWidget(v ? static_cast<QWidget *>(v) : welcome());
    ServerSession *session = v ? v->session() : nullptr;
    qCDebug(lcUi).noquote() << "server selected:"
                            << (session ? session->config().name : QStringLiteral("(none)"));
    m_traffic->setLog(session ? session->trafficLog() : nullptr);
    m_findings->setSession(session);
    m_audit->setSession(session);
    m_signIn->setSession(session);
    handleCurrentListChanged();
    updateActions();
    updateFindingsTitle();
}

void MainWindow::updateFindingsTitle()
{
    // The dock's tab says how many there are, so that they are seen behind the timeline.
    ServerView *v = currentServerView();
    const int n = v ? v->session()->findingCount() : 0;
    const QString title = n > 0 ? tr("Findings (%1)").arg(n) : tr("Findings");
    if (m_findingsDock->windowTitle() != title)
        m_findingsDock->setWindowTitle(title);
}

void MainWindow::handleCurrentListChanged()
{
    ListView *list = currentList();
    m_timeline->setListModel(list ? list->model() : nullptr);
    // The list's page selection: the timeline's lane, the strip's chip and the table move together.
    m_timeline->setSelectionModel(list ? list->pageSelection() : nullptr);
    updateActions();
}

void MainWindow::connectCurrent()
{
    if (ServerSession *s = m_servers->session(currentServerRow())) {
        qCDebug(lcUi).noquote() << "connect asked for" << s->config().name;
        s->connectToServer();
        showStatus(tr("Connecting to %1…").arg(s->config().name));
    }
}

void MainWindow::disconnectCurrent()
{
    if (ServerSession *s = m_servers->session(currentServerRow())) {
        qCDebug(lcUi).noquote() << "disconnect asked for" << s->config().name;
        s->disconnectFromServer();
    }
}

void MainWindow::addServer()
{
    ServerDialog dialog(this);
    ServerConfig c;
    c.nameFromServer = true; // unless the user names it
    dialog.setConfig(c);
    if (dialog.exec() != QDialog::Accepted)
        return;
    ServerConfig config = dialog.config();
    config.name = m_servers->uniqueName(config.name);
    const int row = m_servers->addServer(config); // it saves the token to the keychain
    selectServer(row);
    showStatus(tr("Added %1. Connect with Ctrl+Return.").arg(config.name));
}

void MainWindow::editServer()
{
    const int row = currentServerRow();
    ServerSession *s = m_servers->session(row);
    if (!s || m_servers->isDemo(row))
        return;
    ServerDialog dialog(this);
    dialog.setConfig(s->config());
    if (dialog.exec() != QDialog::Accepted)
        return;
    ServerConfig config = dialog.config();
    if (config.nameFromServer && s->config().nameFromServer)
        config.name = s->config().name; // still unnamed: the keychain token stays under its key
    else if (config.name != s->config().name)
        config.name = m_servers->uniqueName(config.name);
    m_servers->updateServer(row, config); // it saves or removes the token in the keychain
    showStatus(tr("Saved %1; the change applies at the next connect.").arg(config.name));
}

void MainWindow::removeServer()
{
    const int row = currentServerRow();
    ServerSession *s = m_servers->session(row);
    if (!s || m_servers->isDemo(row))
        return;
    const QString name = s->config().name;
    // Nothing else in the window destroys what the user made: this asks first, Cancel the default.
    QMessageBox ask(QMessageBox::Question, tr("Remove Server"), tr("Remove %1 from the list?").arg(name),
                    QMessageBox::Cancel, this);
    ask.setInformativeText(
        s->config().tokenInKeychain ? tr("Its settings and the token saved in the keychain are deleted.")
        : s->signIn() ? tr("Its settings and its sign-in (tokens and client registrations, in the "
                           "keychain) are deleted.")
                      : tr("Its settings are deleted."));
    QPushButton *remove = ask.addButton(tr("Remove"), QMessageBox::DestructiveRole);
    ask.setDefaultButton(QMessageBox::Cancel);
    ask.setObjectName(QStringLiteral("confirmRemove"));
    ask.exec();
    if (ask.clickedButton() != remove)
        return;
    if (SignInStore *signIn = s->signIn()) // the model removes the token and env secrets
        signIn->forget();
    if (ServerView *v = m_views.take(s))
        v->deleteLater();
    m_servers->removeServer(row);
    showStatus(tr("Removed %1.").arg(name));
}

void MainWindow::importServers()
{
    ImportDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    int last = -1;
    const QList<ServerConfig> configs = dialog.selected();
    for (ServerConfig c : configs) {
        c.name = m_servers->uniqueName(c.name);
        last = m_servers->addServer(c);
    }
    if (last >= 0)
        selectServer(last);
    showStatus(tr("Imported %n server(s). Nothing was started.", nullptr, int(configs.size())));
}

int MainWindow::openSession(const QString &path, QString *error)
{
    QString why;
    const auto recording = SessionRecording::load(path, &why);
    if (!recording) {
        const QString message = tr("%1 cannot be opened: %2").arg(QFileInfo(path).fileName(), why);
        if (error)
            *error = message;
        showStatus(message);
        return -1;
    }
    ServerConfig config = recording->replayConfig(path);
    config.name = m_servers->uniqueName(tr("%1 (replay)").arg(recording->name));
    const int row = m_servers->addServer(config, /*persist=*/false);
    selectServer(row);
    m_servers->session(row)->connectToServer();
    showStatus(tr("Replaying %1: no server is contacted").arg(QFileInfo(path).fileName()));
    return row;
}

bool MainWindow::saveSession(const QString &path, QString *error)
{
    ServerSession *s = m_servers->session(currentServerRow());
    const SessionRecording recording = s ? s->recording() : SessionRecording();
    QString why;
    if (!s || s->isReplay() || recording.events.isEmpty())
        why = s && s->isReplay() ? tr("a replay is saved already: it is its file")
                                 : tr("nothing to save yet: connect to the server first");
    else if (!recording.save(path, &why))
        why = tr("cannot write %1: %2").arg(path, why);
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        showStatus(why);
        return false;
    }
    QString message =
        tr("Saved the session (%1 events) to %2").arg(QString::number(recording.events.size()), path);
    if (!recording.stripped.isEmpty())
        message += tr("; left out: %1").arg(recording.stripped.join(QStringLiteral("; ")));
    showStatus(message);
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), [](const QUrl &u) {
            return u.isLocalFile() && u.toLocalFile().endsWith(QLatin1String(".folio"));
        }))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls()) {
        QString error;
        if (url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".folio")) &&
            openSession(url.toLocalFile(), &error) < 0)
            QMessageBox::warning(this, tr("Open Session"), error);
    }
    event->acceptProposedAction();
}

void MainWindow::updateActions()
{
    const int row = currentServerRow();
    ServerSession *s = m_servers->session(row);
    const auto state = s ? s->state() : ClientState::Disconnected;
    m_connectAction->setEnabled(s && state != ClientState::Connected && state != ClientState::Connecting);
    m_disconnectAction->setEnabled(s &&
                                   (state == ClientState::Connected || state == ClientState::Connecting));
    m_editAction->setEnabled(s && !m_servers->isDemo(row) && !s->isReplay());
    m_saveSessionAction->setEnabled(s && !s->isReplay() && state != ClientState::Disconnected);
    m_auditAction->setEnabled(s && state == ClientState::Connected);
    SignInStore *signIn = s ? s->signIn() : nullptr;
    m_signInAction->setEnabled(signIn != nullptr);
    m_signOutAction->setEnabled(signIn && signIn->authorizer()->isSignedIn());
    m_exportReportAction->setEnabled(s != nullptr);
    m_removeAction->setEnabled(s && !m_servers->isDemo(row));
    const bool hasList = currentList() != nullptr;
    m_loadAllAction->setEnabled(hasList);
    m_cancelAction->setEnabled(hasList);
    m_restartAction->setEnabled(hasList);
    m_filterAction->setEnabled(hasList);
    m_permanentStatus->setText(s ? tr("%1: %2").arg(s->displayName(), s->stateText()) : QString());
}

void MainWindow::setLegendShown(bool shown)
{
    m_legendAction->setChecked(shown);
}

void MainWindow::setZoom(qreal zoom)
{
    if (m_baseFont.pointSizeF() <= 0)
        m_baseFont = QApplication::font(); // actual size, as the platform gave it
    setUiZoom(zoom);
    QFont f = m_baseFont;
    f.setPointSizeF(m_baseFont.pointSizeF() * uiZoom());
    QApplication::setFont(f); // every widget's text, and the strip's and timeline's sizes with it
    if (!m_presentationAction->isChecked())
        QSettings().setValue(SettingsKey::Zoom, uiZoom());
}

void MainWindow::setPresentation(bool on)
{
    if (on == isFullScreen() && on == m_presenting)
        return;
    m_presenting = on;
    if (on) {
        m_zoomBeforePresentation = uiZoom();
        m_legendBeforePresentation = m_legendAction->isChecked();
        showFullScreen();
        setZoom(qMax(uiZoom(), 1.3));
        m_legendAction->setChecked(true);
    } else {
        showNormal();
        m_legendAction->setChecked(m_legendBeforePresentation);
        setZoom(m_zoomBeforePresentation);
    }
    const QSignalBlocker blocker(m_presentationAction);
    m_presentationAction->setChecked(on);
}

QString MainWindow::statusMessage() const
{
    return m_message->text();
}

QString MainWindow::serverStatus() const
{
    return m_permanentStatus->text();
}

void MainWindow::showStatus(const QString &message)
{
    // Kept in the log too: a status message is gone after eight seconds.
    if (!message.isEmpty())
        qCDebug(lcUi).noquote() << "status:" << message;
    // One line in the bar (an error can carry a server's last lines of stderr); all of it on hover.
    m_message->setText(oneLineSafe(message));
    if (message.isEmpty())
        m_messageTimer->stop();
    else
        m_messageTimer->start();
}

void MainWindow::goToPage(const QString &listId, int ledgerRow)
{
    ServerView *v = currentServerView();
    if (!v)
        return;
    v->showList(listId);
    if (ListView *l = v->listView(listId))
        l->selectPage(ledgerRow);
}

void MainWindow::goToPageIndex(const QString &listId, int pageIndex)
{
    ServerView *v = currentServerView();
    ListView *l = v ? v->listView(listId) : nullptr;
    if (!l || !l->model()) {
        showStatus(tr("%1 is not open in this window").arg(listId));
        return;
    }
    v->showList(listId);
    const QList<int> rows = l->model()->walker()->walkPageRows();
    if (pageIndex < rows.size()) {
        l->selectPage(rows.at(pageIndex));
        return;
    }
    showStatus(tr("Page %1 of %2 is not loaded yet: loading all pages (Esc cancels)")
                   .arg(QString::number(pageIndex + 1), listId));
    auto *ctx = new QObject(l);
    connect(l->model()->walker(), &PageWalker::pageAccepted, ctx, [l, ctx, pageIndex] {
        const QList<int> r = l->model()->walker()->walkPageRows();
        if (pageIndex < r.size() && l->model()->ledger()->page(r.at(pageIndex)).isSettled()) {
            l->selectPage(r.at(pageIndex));
            ctx->deleteLater();
        }
    });
    connect(l->model()->walker(), &PageWalker::walkFinished, ctx, &QObject::deleteLater);
    l->loadAll();
}

void MainWindow::auditServer()
{
    if (!m_servers->session(currentServerRow()))
        return;
    // A dock below the table, not a window over it: a finding's page shows beside the audit.
    m_auditDock->show();
    m_auditDock->raise();
    m_audit->start();
}

bool MainWindow::exportReport(const QString &fileName, QString *error)
{
    ServerSession *s = m_servers->session(currentServerRow());
    if (!s) {
        if (error)
            *error = tr("No server is selected.");
        return false;
    }
    BugReport::Input input = BugReport::Input::fromSession(*s);
    if (s->hasAuditResult()) { // the last audit run in this window
        input.audit = s->auditResult();
        input.auditFinishedAtMs = s->auditFinishedAtMs();
    }
    input.maskCursors = m_maskCursors;
    const BugReport::Format format = BugReport::formatForFile(fileName).value_or(BugReport::Format::Html);
    return TrafficExport::writeFile(fileName, BugReport::render(BugReport::build(input), format), error);
}

void MainWindow::exportReportAs()
{
    ServerSession *s = m_servers->session(currentServerRow());
    if (!s)
        return;
    QString name = s->displayName().simplified();
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    const QString html = tr("HTML report (*.html *.htm)"), markdown = tr("Markdown report (*.md)"),
                  json = tr("JSON report (*.json)");
    QString filter = html;
    QString fileName = QFileDialog::getSaveFileName(
        this, tr("Export Report"),
        QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
            .filePath(QStringLiteral("%1-report.html").arg(name.isEmpty() ? QStringLiteral("server") : name)),
        QStringList{html, markdown, json}.join(QStringLiteral(";;")), &filter);
    if (fileName.isEmpty())
        return;
    // A name without a known suffix takes the chosen filter's.
    if (!BugReport::formatForFile(fileName))
        fileName += filter == markdown ? QStringLiteral(".md")
                    : filter == json   ? QStringLiteral(".json")
                                       : QStringLiteral(".html");
    QString error;
    if (!exportReport(fileName, &error)) {
        QMessageBox::warning(this, tr("Export Report"), tr("Could not write %1: %2").arg(fileName, error));
        return;
    }
    showStatus(tr("Report written to %1").arg(QDir::toNativeSeparators(fileName)));
}

// Within the available area of the screen the window is on (a geometry saved on a larger screen, or
// a window a long text once widened, is brought back inside). Maximized and full-screen windows are
// the window manager's.
void MainWindow::fitToScreen()
{
    if (isMaximized() || isFullScreen())
        return;
    const QScreen *s = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!s)
        return;
    const QRect available = s->availableGeometry();
    const QSize frameExtra = frameGeometry().size() - geometry().size();
    const QSize room = available.size() - frameExtra;
    if (width() <= room.width() && height() <= room.height())
        return;
    resize(qMin(width(), room.width()), qMin(height(), room.height()));
    move(qBound(available.left(), x(), qMax(available.left(), available.right() - frameGeometry().width())),
         qBound(available.top(), y(), qMax(available.top(), available.bottom() - frameGeometry().height())));
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    // A window made smaller keeps its docks' heights and takes it all from the table: give the
    // bottom docks back their share, at most a quarter of the window.
    if (!event->oldSize().isValid() || event->size().height() >= event->oldSize().height())
        return;
    const int cap = height() / 4;
    for (QDockWidget *dock : {m_timelineDock, m_findingsDock, m_trafficDock, m_auditDock}) {
        if (dock->isVisible() && !dock->isFloating() && dockWidgetArea(dock) == Qt::BottomDockWidgetArea &&
            dock->height() > cap) {
            resizeDocks({dock}, {cap}, Qt::Vertical);
            break; // tabbed docks share one height
        }
    }
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(SettingsKey::WindowGeometry).toByteArray());
    restoreState(settings.value(SettingsKey::WindowState).toByteArray());
    const QByteArray split = settings.value(SettingsKey::WindowSplitter).toByteArray();
    if (!split.isEmpty())
        m_splitter->restoreState(split);
    if (!settings.contains(SettingsKey::WindowGeometry)) {
        resize(1360, 860);
    }
    fitToScreen();
    if (const qreal zoom = settings.value(SettingsKey::Zoom, 1.0).toDouble(); !qFuzzyCompare(zoom, 1.0))
        setZoom(zoom);
    if (!settings.contains(SettingsKey::WindowState)) {
        // The timeline as tall as its lanes need, within a quarter of the window: the table first.
        const int wanted = m_timeline->sizeHint().height() + fontMetrics().height() + 8;
        resizeDocks({m_timelineDock}, {qMin(wanted, height() / 4)}, Qt::Vertical);
    }
}

void MainWindow::saveSettings()
{
    fitToScreen(); // never saved wider or taller than the screen
    QSettings settings;
    settings.setValue(SettingsKey::WindowGeometry, saveGeometry());
    settings.setValue(SettingsKey::WindowState, saveState());
    settings.setValue(SettingsKey::WindowSplitter, m_splitter->saveState());
    if (ListView *l = currentList()) {
        settings.beginGroup(SettingsKey::ListViewGroup);
        l->saveSettings(settings);
        settings.endGroup();
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    for (int row = 0; row < m_servers->rowCount(); ++row)
        m_servers->session(row)->disconnectFromServer();
    event->accept();
}

} // namespace folio
