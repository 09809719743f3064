#include "mainwindow.h"

#include "auditpanel.h"
#include "clientstate.h"
#include "commandpalette.h"
#include "compareview.h"
#include "elidedlabel.h"
#include "findingspanel.h"
#include "fonts.h"
#include "framepacer.h"
#include "helpmenu.h"
#include "inputresponder.h"
#include "listview.h"
#include "menuactions.h"
#include "pagedlistmodel.h"
#include "pageinspector.h"
#include "pagestrip.h"
#include "paletteentries.h"
#include "secretstore.h"
#include "serverlistactions.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "serversidebar.h"
#include "serverview.h"
#include "sessionfiles.h"
#include "settingskeys.h"
#include "signinpanel.h"
#include "signinstore.h"
#include "terminaltext.h"
#include "theme.h"
#include "timelineview.h"
#include "trafficview.h"
#include "uilogging.h"
#include "zoom.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QResizeEvent>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <functional>

namespace folio {

MainWindow::MainWindow(ServerListModel *servers, SecretStore *secrets, QWidget *parent)
    : QMainWindow(parent)
    , m_servers(servers)
    , m_secrets(secrets)
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_sidebar(new ServerSidebar(servers, this))
    , m_serverList(m_sidebar->list())
    , m_stack(new QStackedWidget(this))
    , m_traffic(new TrafficView(this))
    , m_findings(new FindingsPanel(this))
    , m_timeline(new TimelineView(this))
    , m_audit(new AuditPanel(this))
    , m_signIn(new SignInPanel(this))
    , m_message(new ElidedLabel(this))
    , m_permanentStatus(new ElidedLabel(this))
    , m_messageTimer(new QTimer(this))
    , m_serverActions(m_sidebar->actions())
    , m_files(new SessionFiles(servers, m_serverList, this))
    , m_docks(new WindowDocks(this, m_timeline, m_findings, m_traffic, m_audit, m_signIn))
    , m_presentation(new Presentation(this))
{
    setWindowTitle(tr("Folio"));
    setObjectName(QStringLiteral("FolioMainWindow"));
    new FramePacer(this); // a fast walk repaints at the display's pace, not once per page

    // Each server's questions (elicitation, sampling, roots) are answered here. A start-up
    // connect, begun before the window was built, was given its responder then (main()).
    for (int row = 0; row < m_servers->rowCount(); ++row)
        attachWindowResponder(m_servers->session(row), this);
    connect(m_servers, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first, int last) {
                for (int row = first; row <= last; ++row)
                    attachWindowResponder(m_servers->session(row), this);
            });
    connect(m_serverActions, &ServerListActions::statusMessage, this, &MainWindow::showStatus);
    connect(m_serverActions, &ServerListActions::removing, this, [this](ServerSession *s) {
        if (ServerView *v = m_views.take(s))
            v->deleteLater();
    });
    connect(m_files, &SessionFiles::statusMessage, this, &MainWindow::showStatus);

    m_splitter->addWidget(m_sidebar);
    m_splitter->addWidget(m_stack);
    m_presentation->setSideWidget(m_sidebar);
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setSizes({220, 1000});
    setCentralWidget(m_splitter);
    setAcceptDrops(true); // a .folio file dropped on the window opens as a replay

    connect(m_timeline, &TimelineView::pageActivated, this, [this](int ledgerRow) {
        if (ListView *list = currentList())
            list->selectPage(ledgerRow);
    });
    createActions();
    // Two texts side by side, each elided at its end to its share (the words that matter come
    // first: "connected · 2026-07-28", "Could not reach the server"): a long error never widens
    // the window.
    m_message->setObjectName(QStringLiteral("statusMessage"));
    m_permanentStatus->setObjectName(QStringLiteral("serverStatus"));
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
    connect(m_findings, &FindingsPanel::compareRequested, this, [this] {
        QString error;
        if (!CompareView::openDrift(m_findings->session(), m_servers, this, &error))
            showStatus(error);
    });
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

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_serverActions->addAction());
    file->addAction(m_serverActions->importAction());
    file->addSeparator();
    file->addAction(m_files->openAction());
    file->addAction(m_files->saveAction());
    file->addAction(m_files->saveSnapshotAction());
    file->addAction(m_files->exportReportAction());
    file->addAction(CompareView::createAction(m_servers, this));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *server = menuBar()->addMenu(tr("&Server"));
    m_connectAction =
        server->addAction(tr("&Connect"), QKeySequence(tr("Ctrl+Return")), this, &MainWindow::connectCurrent);
    m_disconnectAction = server->addAction(tr("&Disconnect"), QKeySequence(tr("Ctrl+Shift+Return")), this,
                                           &MainWindow::disconnectCurrent);
    server->addSeparator();
    server->addAction(m_serverActions->editAction());
    server->addAction(m_serverActions->removeAction());
    server->addAction(m_serverActions->trustAction());
    m_serverActions->addHistoryMenu(server);
    server->addSeparator();
    m_auditAction = server->addAction(tr("&Audit Paging"), QKeySequence(tr("Ctrl+Shift+A")), this, [this] {
        if (!m_servers->session(currentServerRow()))
            return;
        // A dock below the table, not a window over it: a finding's page shows beside the audit.
        m_docks->showAudit();
        m_audit->start();
    });
    server->addSeparator();
    m_signInAction = server->addAction(tr("Sign &In"), this, [this] {
        m_docks->showSignIn();
        m_signIn->signIn();
    });
    m_signOutAction = server->addAction(tr("Sign &Out…"), this, [this] { m_signIn->signOut(); });
    m_serverList->addActions({m_connectAction, m_disconnectAction, m_serverActions->editAction(),
                              m_serverActions->removeAction()});

    QMenu *list = menuBar()->addMenu(tr("&List"));
    auto listAction = [this, list](const QString &text, const QKeySequence &keys, void (ListView::*act)()) {
        return list->addAction(text, keys, this, [this, act] {
            if (ListView *l = currentList())
                (l->*act)();
        });
    };
    m_loadAllAction = listAction(tr("Load &All Pages"), QKeySequence(tr("Ctrl+L")), &ListView::loadAll);
    m_cancelAction = listAction(tr("&Cancel Loading"), QKeySequence(Qt::Key_Escape), &ListView::cancel);
    m_restartAction = listAction(tr("&Restart Walk"), QKeySequence(Qt::Key_F5), &ListView::restart);
    m_filterAction = listAction(tr("&Filter Rows"), QKeySequence::Find, &ListView::focusFilter);
    list->addSeparator();
    m_serverActions->addWalkOnConnectMenu(list);
    QAction *mask = list->addAction(tr("&Mask Cursors"));
    mask->setCheckable(true);
    mask->setShortcut(QKeySequence(tr("Ctrl+M")));
    mask->setToolTip(tr("Cursors can carry tenant data: hide them in views and copies"));
    connect(mask, &QAction::toggled, this, [this](bool on) {
        m_maskCursors = on;
        m_files->setMaskCursors(on);
        for (ServerView *v : std::as_const(m_views))
            v->setMaskCursors(on);
    });

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_docks->addViewActions(view);
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
    m_findAction = go->addAction(tr("&Find Anything…"));
    m_findAction->setObjectName(QStringLiteral("findAnything"));
    m_findAction->setShortcut(QKeySequence(tr("Ctrl+K")));
    connect(m_findAction, &QAction::triggered, this, &MainWindow::openPalette);
    go->addSeparator();
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
    m_presentation->addViewActions(view);
    view->addSeparator();
    Theme::addMenu(view);

    addHelpMenu(menuBar(), this);
}

void MainWindow::selectServer(int row)
{
    m_serverList->setCurrentIndex(m_servers->index(row));
}

int MainWindow::currentServerRow() const
{
    return m_serverList->currentIndex().row();
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
    connect(session, &ServerSession::listOpened, this, [this, session] {
        // A folder opened from a skill's window of a server that is not the one shown: show it.
        const int row = m_servers->rowOf(session);
        if (row >= 0 && row != currentServerRow())
            selectServer(row);
    });
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
    m_docks->setFindingsCount(v ? v->session()->findingCount() : 0);
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

int MainWindow::openSession(const QString &path, QString *error)
{
    return m_files->openSession(path, error);
}

bool MainWindow::saveSession(const QString &path, QString *error)
{
    return m_files->saveSession(path, error);
}

bool MainWindow::exportReport(const QString &fileName, QString *error)
{
    return m_files->exportReport(fileName, error);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (SessionFiles::carriesSession(event->mimeData()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    m_files->openDropped(event->mimeData());
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
    m_auditAction->setEnabled(s && state == ClientState::Connected);
    SignInStore *signIn = s ? s->signIn() : nullptr;
    m_signInAction->setEnabled(signIn != nullptr);
    m_signOutAction->setEnabled(signIn && signIn->authorizer()->isSignedIn());
    m_serverActions->updateActions();
    m_files->updateActions();
    const bool hasList = currentList() != nullptr;
    m_loadAllAction->setEnabled(hasList);
    m_cancelAction->setEnabled(hasList);
    const bool readOnly = hasList && currentList()->isReadOnly();
    m_restartAction->setEnabled(hasList && !readOnly);
    m_restartAction->setToolTip(readOnly ? currentList()->readOnlyReason() : QString());
    m_filterAction->setEnabled(hasList);
    m_permanentStatus->setText(s ? tr("%1: %2").arg(s->displayName(), s->stateText()) : QString());
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

// Find anything: the menus' actions, the servers, the current server's lists, the items loaded in
// them and their findings, each with what choosing it does.
void MainWindow::openPalette()
{
    QList<CommandPalette::Entry> entries = PaletteEntries::actions(menuBar(), m_findAction);
    entries += PaletteEntries::servers(m_servers, [this](int row) { selectServer(row); });
    entries += PaletteEntries::contents(currentServerView(), 20000,
                                        [this](const QString &id, int page) { goToPageIndex(id, page); });
    if (!m_palette)
        m_palette = new CommandPalette(this);
    m_palette->setEntries(std::move(entries));
    m_palette->popup();
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
    if (!l->selectWalkPage(pageIndex))
        showStatus(tr("Page %1 of %2 is not loaded yet: loading all pages (Esc cancels)")
                       .arg(QString::number(pageIndex + 1), listId));
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
    m_docks->windowResized(event);
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
        m_presentation->setZoom(zoom);
    if (!settings.contains(SettingsKey::WindowState)) // the timeline as tall as its lanes: the table first
        m_docks->sizeTimeline(m_timeline->sizeHint().height() + fontMetrics().height() + 8);
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
    // The window is remembered as it is outside a presentation (its docks and sidebar back).
    if (isPresenting())
        setPresentation(false);
    saveSettings();
    for (int row = 0; row < m_servers->rowCount(); ++row)
        m_servers->session(row)->disconnectFromServer();
    event->accept();
}

} // namespace folio
