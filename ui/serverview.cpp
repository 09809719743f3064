#include "serverview.h"

#include "callview.h"
#include "copyaction.h"
#include "elidedlabel.h"
#include "fonts.h"
#include "listview.h"
#include "pagedlistmodel.h"
#include "promptview.h"
#include "readview.h"
#include "replaybar.h"
#include "runslabel.h"
#include "serversession.h"
#include "settingskeys.h"
#include "signinstore.h"
#include "skillview.h"
#include "statuscolors.h"
#include "taskboard.h"
#include "tasksview.h"
#include "terminaltext.h"
#include "wraplabel.h"

#include <QAction>
#include <QEvent>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSettings>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace folio {

namespace {

// A list's name as its tab shows it: a server's '&' is a character, not a mnemonic.
QString tabLabel(const ListSource &source)
{
    return oneLineSafe(source.displayName()).replace(QLatin1Char('&'), QStringLiteral("&&"));
}

} // namespace

ServerView::ServerView(ServerSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_stack(new QStackedWidget(this))
    , m_emptyState(new QWidget(this))
    , m_emptyTitle(new QLabel(this))
    , m_emptyText(new WrapLabel(this))
    , m_emptyDetail(new QLabel(this))
    , m_connect(new QPushButton(tr("Connect"), this))
    , m_connected(new QWidget(this))
    , m_header(new RunsLabel(this))
    , m_instructions(new ElidedLabel(this))
    , m_tabs(new QTabWidget(this))
{
    auto *empty = new QVBoxLayout(m_emptyState);
    empty->addStretch();
    // Plain-text labels (a rich-text one is a text document laid out on every size asked; this
    // page shows while the server starts): a bold title, and the details, copied from the
    // context menu.
    m_emptyTitle->setFont(titleFont(m_emptyTitle->font()));
    m_emptyTitle->setAlignment(Qt::AlignCenter);
    m_emptyTitle->setWordWrap(true);
    m_emptyText->setAlignment(Qt::AlignCenter);
    addCopyAction(m_emptyText, [this] {
        return m_emptyTitle->text() + QStringLiteral("\n\n") + m_emptyText->text() +
               (m_emptyDetail->isHidden() ? QString() : QStringLiteral("\n\n") + m_emptyDetail->text());
    });
    // What a failed server wrote last (its stderr lines): as it wrote them, monospace, from the
    // left, within the window's width (each line was cut to a bound where it was kept).
    m_emptyDetail->setObjectName(QStringLiteral("failureDetail"));
    m_emptyDetail->setFont(fixedFont());
    m_emptyDetail->setTextFormat(Qt::PlainText);
    m_emptyDetail->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_emptyDetail->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_emptyDetail->setFrameShape(QFrame::StyledPanel);
    m_emptyDetail->setMargin(6);
    m_emptyDetail->setMinimumWidth(0);
    m_emptyDetail->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_emptyDetail->hide();
    empty->addWidget(m_emptyTitle);
    empty->addWidget(m_emptyText);
    empty->addWidget(m_emptyDetail);
    auto *connectRow = new QHBoxLayout;
    connectRow->addStretch();
    connectRow->addWidget(m_connect);
    connectRow->addStretch();
    empty->addLayout(connectRow);
    empty->addStretch();
    connect(m_connect, &QPushButton::clicked, this, &ServerView::connectRequested);

    auto *c = new QVBoxLayout(m_connected);
    c->setContentsMargins(0, 0, 0, 0);
    c->setSpacing(2);
    m_header->setContentsMargins(8, 6, 8, 0);
    m_instructions->setContentsMargins(8, 0, 8, 4);
    m_instructions->setForegroundRole(QPalette::PlaceholderText);
    c->addWidget(m_header);
    c->addWidget(m_instructions);
    m_tabs->setObjectName(QStringLiteral("listTabs"));
    m_tabs->setDocumentMode(true);
    c->addWidget(m_tabs, 1);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        // A tab's view is made when it is first shown.
        if (listIdAt(index) == ServerSession::ReadsId)
            readView();
        else if (listIdAt(index) == ServerSession::TasksId)
            tasksView();
        else
            listView(listIdAt(index));
        // The user's choice, not a tab coming or going; a folder goes with the connection, so the
        // tab to come back to is the list shown before it.
        if (!m_rebuilding && index >= 0 && !ListSource::isDirectoryId(listIdAt(index))) {
            QSettings().setValue(tabSettingsKey(), listIdAt(index));
            m_wantedTab.clear();
        }
        Q_EMIT currentListChanged();
    });

    m_stack->addWidget(m_emptyState);
    m_stack->addWidget(m_connected);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    if (session->isReplay()) {
        m_replayBar = new ReplayBar(session, this);
        layout->addWidget(m_replayBar);
        m_connect->setText(tr("Replay"));
    }
    layout->addWidget(m_stack);

    connect(session, &ServerSession::stateChanged, this, &ServerView::updateHeader);
    connect(session, &ServerSession::listsChanged, this, &ServerView::rebuildTabs);
    connect(session, &ServerSession::listOpened, this, [this](const QString &listId) {
        showList(listId);
        window()->raise();
        window()->activateWindow();
    });
    connect(session, &ServerSession::findingsChanged, this, [this] {
        for (const ListSource &s : m_session->lists())
            updateTabTitle(s.id());
    });
    updateHeader();
    rebuildTabs();
}

void ServerView::updateHeader()
{
    const McpClient *client = m_session->client();
    switch (client->state()) {
    case ClientState::Connected: {
        m_stack->setCurrentWidget(m_connected);
        const QJsonObject info = client->serverInfo();
        QStringList caps;
        const QJsonObject c = client->capabilities();
        for (auto it = c.begin(); it != c.end(); ++it) {
            QStringList flags; // what the header has room for: the notifications a server offers
            for (const QString &flag : {QStringLiteral("listChanged"), QStringLiteral("subscribe")}) {
                if (it.value().toObject().value(flag).toBool())
                    flags << flag;
            }
            caps << (flags.isEmpty() ? it.key()
                                     : it.key() + QStringLiteral(" (") + flags.join(QStringLiteral(", ")) +
                                           QLatin1Char(')'));
        }
        const QString name = info.value(QStringLiteral("title")).toString().isEmpty()
                                 ? info.value(QStringLiteral("name")).toString()
                                 : info.value(QStringLiteral("title")).toString();
        const QString dot = QStringLiteral("  \u00b7  ");
        m_header->setRuns(
            {{name, true},
             {QLatin1Char(' ') + info.value(QStringLiteral("version")).toString() + dot + tr("revision ")},
             {client->protocolVersion(), true},
             {dot + client->transportName() + dot +
              (caps.isEmpty() ? tr("no capabilities advertised") : caps.join(QStringLiteral(", ")))}});
        m_instructions->setText(terminalSafe(client->instructions()));
        m_instructions->setVisible(!client->instructions().isEmpty());
        break;
    }
    case ClientState::Connecting:
        m_stack->setCurrentWidget(m_emptyState);
        m_emptyTitle->setText(tr("Connecting to %1…").arg(m_session->config().name));
        m_emptyDetail->hide();
        m_emptyText->setText(m_session->config().displayTarget());
        m_connect->setEnabled(false);
        break;
    case ClientState::Disconnected:
        m_stack->setCurrentWidget(m_emptyState);
        m_emptyTitle->setText(tr("%1 is not connected").arg(m_session->config().name));
        m_emptyDetail->hide();
        m_emptyText->setText(m_session->config().displayTarget() + QStringLiteral("\n\n") +
                             tr("Connect to browse its lists (Ctrl+Return)."));
        m_connect->setEnabled(true);
        break;
    case ClientState::Failed: {
        m_stack->setCurrentWidget(m_emptyState);
        const McpError e = client->lastError();
        QString hint;
        switch (e.kind) {
        case McpError::Kind::SpawnFailed:
            hint = tr("Check the command and its arguments in Edit Server (F2).");
            break;
        case McpError::Kind::AuthRequired:
        case McpError::Kind::InsufficientScope:
            // An HTTP server signs in by OAuth: the Sign-in dock shows the step that failed.
            hint = m_session->signIn()
                       ? tr("The Sign-in dock (View → Sign-in) shows each step of the sign-in and where it "
                            "failed; Try again signs in again. A server without OAuth takes a bearer token "
                            "in Edit Server (F2).")
                       : tr("Add a bearer token in Edit Server (F2). The server said: %1")
                             .arg(e.wwwAuthenticate);
            break;
        case McpError::Kind::ConnectionFailed:
            hint = tr("Is the server running at this address?");
            break;
        default:
            hint = tr("The traffic log (Ctrl+T) shows what was exchanged.");
            break;
        }
        m_emptyTitle->setText(tr("Could not connect to %1").arg(m_session->config().name));
        // The error's first line says what happened; the lines after it (a crashed server's
        // stderr) are shown as written, below.
        const QString said = e.describe();
        const qsizetype nl = said.indexOf(QLatin1Char('\n'));
        m_emptyText->setText(terminalSafe(nl < 0 ? said : said.left(nl)) + QStringLiteral("\n\n") + hint);
        m_emptyDetail->setText(nl < 0 ? QString() : terminalSafe(said.mid(nl + 1)));
        m_emptyDetail->setVisible(nl >= 0);
        m_connect->setText(tr("Try again"));
        m_connect->setEnabled(true);
        break;
    }
    }
}

QString ServerView::tabSettingsKey() const
{
    return SettingsKey::serverViewTab(m_session->config().name);
}

void ServerView::rebuildTabs()
{
    // The tab last chosen for this server comes back when its list arrives, whether the lists
    // come one by one or together.
    if (m_tabs->count() == 0)
        m_wantedTab = QSettings().value(tabSettingsKey()).toString();
    const QString current = m_tabs->count() > 0 ? currentListId() : QString();
    const QScopedValueRollback<bool> rebuilding(m_rebuilding, true);
    // Tabs of lists that are gone, and views of models that are gone (a reconnect replaces
    // them), go; the others stay.
    for (auto it = m_pages.begin(); it != m_pages.end();) {
        bool keep = false;
        for (const ListSource &s : m_session->lists()) {
            keep = keep ||
                   (s.id() == it.key() && (!it->view || it->view->model() == m_session->listModel(s.id())));
        }
        if (!keep) {
            m_tabs->removeTab(m_tabs->indexOf(it->page));
            it->page->deleteLater();
            it = m_pages.erase(it);
        } else {
            ++it;
        }
    }
    int index = 0;
    for (const ListSource &source : m_session->lists()) {
        if (!m_pages.contains(source.id())) {
            // A tab gets its page now and its ListView when first shown: building every list's
            // view (table, strip, inspector) at connection time was most of the time to the
            // first page on screen.
            auto *page = new QWidget(m_tabs);
            auto *layout = new QVBoxLayout(page);
            layout->setContentsMargins(0, 0, 0, 0);
            page->setProperty("folioListId", source.id());
            m_pages.insert(source.id(), TabPage{page, nullptr});
            // Inserting the first tab makes it current, which makes its view (currentChanged).
            m_tabs->insertTab(index, page, tabLabel(source));
            if (source.kind() == ListSource::Kind::Tool)
                m_tabs->setTabToolTip(index, tr("List tool %1 (pages by %2)")
                                                 .arg(oneLineSafe(source.toolName()).toHtmlEscaped(),
                                                      oneLineSafe(source.cursorArgument()).toHtmlEscaped()));
            if (source.isDirectory())
                addCloseButton(index, source);
        }
        updateTabTitle(source.id());
        ++index;
    }
    // Reads come after the lists, once the server has resources to read.
    for (const ListSource &source : m_session->lists()) {
        if (source.kind() == ListSource::Kind::Protocol && source.protocolKind() == ListKind::Resources)
            readsPage(); // its view is made when the tab is first shown, like a list's
    }
    // Tasks last, once the server runs tools as tasks.
    if (m_session->tasks()->offersTasks())
        tasksPage();
    if (!m_wantedTab.isEmpty() && m_pages.contains(m_wantedTab))
        showList(std::exchange(m_wantedTab, QString()));
    else if (!current.isEmpty() && m_pages.contains(current))
        showList(current);
}

void ServerView::addCloseButton(int index, const ListSource &source)
{
    // A folder the user opened (a skill's, from its window) closes; the server's own lists do not.
    const QString path = oneLineSafe(source.directoryUri());
    m_tabs->setTabToolTip(
        index, tr("Folder %1, read page by page (resources/directory/read)").arg(path.toHtmlEscaped()));
    auto *close = new QToolButton(m_tabs);
    close->setObjectName(QStringLiteral("closeListTab"));
    close->setAutoRaise(true);
    close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setIconSize(QSize(12, 12));
    close->setToolTip(tr("Close this folder"));
    close->setAccessibleName(tr("Close folder %1").arg(path));
    const QString id = source.id();
    connect(close, &QToolButton::clicked, this, [this, id] { m_session->closeList(id); });
    m_tabs->tabBar()->setTabButton(index, QTabBar::RightSide, close);
}

QString ServerView::listIdAt(int index) const
{
    const QWidget *page = m_tabs->widget(index);
    return page ? page->property("folioListId").toString() : QString();
}

QString ServerView::currentListId() const
{
    return listIdAt(m_tabs->currentIndex());
}

void ServerView::updateTabTitle(const QString &listId)
{
    const auto it = m_pages.find(listId);
    if (it == m_pages.end())
        return;
    const int i = m_tabs->indexOf(it->page);
    if (i < 0)
        return;
    // Only what changed: each setTabText()/setTabIcon() lays the whole tab bar out again, and this
    // runs for every page a list receives. The list's findings, walked on connect or here, and the
    // audit's, give the tab its worst severity's icon and their count.
    int count = 0;
    bool anyError = false, anyWarning = false;
    for (const Finding &f : m_session->findings(listId)) { // the walk's and the audit's own
        ++count;
        anyError = anyError || f.severity == Finding::Severity::Error;
        anyWarning = anyWarning || f.severity == Finding::Severity::Warning;
    }
    for (const ListSource &s : m_session->lists()) {
        if (s.id() != listId)
            continue;
        const QString text = count > 0 ? tr("%1 (%2)").arg(tabLabel(s), QString::number(count)) : tabLabel(s);
        if (m_tabs->tabText(i) != text)
            m_tabs->setTabText(i, text);
    }
    const Badge badge = anyError ? Badge::Error : anyWarning ? Badge::Warning : Badge::None;
    if (badge == it->badge)
        return;
    it->badge = badge;
    m_tabs->setTabIcon(i, badge == Badge::None ? QIcon()
                                               : StatusColors(palette()).severityIcon(
                                                     badge == Badge::Error ? Finding::Severity::Error
                                                                           : Finding::Severity::Warning));
}

void ServerView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // The severity icons are drawn in the palette's colours.
    if (event->type() == QEvent::PaletteChange) {
        for (auto it = m_pages.begin(); it != m_pages.end(); ++it) {
            if (it->badge != Badge::None) {
                it->badge = Badge::Stale;
                updateTabTitle(it.key());
            }
        }
    }
}

ListView *ServerView::currentList() const
{
    const auto it = m_pages.constFind(currentListId());
    return it == m_pages.constEnd() ? nullptr : it->view;
}

QStringList ServerView::listIds() const
{
    QStringList out;
    for (int i = 0; i < m_tabs->count(); ++i)
        out.append(listIdAt(i));
    return out;
}

ListView *ServerView::listView(const QString &listId)
{
    const auto it = m_pages.find(listId);
    if (it == m_pages.end())
        return nullptr;
    if (!it->view) {
        for (const ListSource &source : m_session->lists()) {
            if (source.id() != listId)
                continue;
            auto *view = new ListView(m_session, source, it->page);
            view->setMaskCursors(m_maskCursors);
            it->page->layout()->addWidget(view);
            it->view = view;
            connect(view, &ListView::statusMessage, this, &ServerView::statusMessage);
            connect(view, &ListView::callToolRequested, this, &ServerView::openCallView);
            connect(view, &ListView::getPromptRequested, this, &ServerView::openPromptView);
            connect(view, &ListView::summaryChanged, this, [this, listId] { updateTabTitle(listId); });
            addReadActions(view, source);
            addSkillActions(view, source);
            updateTabTitle(listId);
            break;
        }
    }
    return it->view;
}

CallView *ServerView::openCallView(const QJsonObject &tool)
{
    // One window per tool: asking again brings it back (with what was typed in it).
    const QList<CallView *> open = findChildren<CallView *>(QString(), Qt::FindDirectChildrenOnly);
    for (CallView *v : open) {
        if (v->tool() == tool) {
            v->showNormal();
            v->raise();
            v->activateWindow();
            return v;
        }
    }
    auto *view = new CallView(m_session, tool, this);
    connect(view, &CallView::statusMessage, this, &ServerView::statusMessage);
    connect(view, &CallView::taskStarted, this, [this](int row) {
        showList(ServerSession::TasksId);
        tasksView()->showTask(row);
    });
    view->showAsWindow(
        tr("Call %1 — %2").arg(tool.value(QStringLiteral("name")).toString(), m_session->displayName()),
        QSize(1000, 640));
    return view;
}

PromptView *ServerView::openPromptView(const QJsonObject &prompt)
{
    const QList<PromptView *> open = findChildren<PromptView *>(QString(), Qt::FindDirectChildrenOnly);
    for (PromptView *v : open) {
        if (v->prompt() == prompt) {
            v->showNormal();
            v->raise();
            v->activateWindow();
            return v;
        }
    }
    auto *view = new PromptView(m_session, prompt, this);
    connect(view, &PromptView::statusMessage, this, &ServerView::statusMessage);
    view->showAsWindow(tr("Get prompt %1 — %2")
                           .arg(prompt.value(QStringLiteral("name")).toString(), m_session->displayName()),
                       QSize(900, 600));
    return view;
}

void ServerView::showList(const QString &listId)
{
    if (listId == ServerSession::ReadsId) {
        m_tabs->setCurrentWidget(readView()->parentWidget());
        return;
    }
    if (listId == ServerSession::TasksId) {
        m_tabs->setCurrentWidget(tasksView()->parentWidget());
        return;
    }
    if (listView(listId))
        m_tabs->setCurrentWidget(m_pages.value(listId).page);
}

void ServerView::setMaskCursors(bool mask)
{
    m_maskCursors = mask;
    for (const TabPage &p : std::as_const(m_pages)) {
        if (p.view)
            p.view->setMaskCursors(mask);
    }
}

QWidget *ServerView::readsPage()
{
    if (!m_readsPage) {
        m_readsPage = new QWidget(m_tabs);
        m_readsPage->setProperty("folioListId", ServerSession::ReadsId);
        auto *layout = new QVBoxLayout(m_readsPage);
        layout->setContentsMargins(0, 0, 0, 0);
        m_tabs->addTab(m_readsPage, tr("Reads"));
    }
    return m_readsPage;
}

ReadView *ServerView::readView()
{
    if (!m_readView) {
        m_readView = new ReadView(m_session, readsPage());
        m_readsPage->layout()->addWidget(m_readView);
        connect(m_readView, &ReadView::statusMessage, this, &ServerView::statusMessage);
    }
    return m_readView;
}

QWidget *ServerView::tasksPage()
{
    if (!m_tasksPage) {
        m_tasksPage = new QWidget(m_tabs);
        m_tasksPage->setProperty("folioListId", ServerSession::TasksId);
        auto *layout = new QVBoxLayout(m_tasksPage);
        layout->setContentsMargins(0, 0, 0, 0);
        m_tabs->addTab(m_tasksPage, tr("Tasks"));
    }
    return m_tasksPage;
}

TasksView *ServerView::tasksView()
{
    if (!m_tasksView) {
        m_tasksView = new TasksView(m_session, tasksPage());
        m_tasksPage->layout()->addWidget(m_tasksView);
        connect(m_tasksView, &TasksView::statusMessage, this, &ServerView::statusMessage);
    }
    return m_tasksView;
}

void ServerView::addSkillActions(ListView *view, const ListSource &source)
{
    if (source.kind() != ListSource::Kind::Extension || source.id() != QLatin1String("skills"))
        return;
    QTableView *table = view->table();
    auto *open = new QAction(tr("Open Skill…"), table);
    open->setShortcut(QKeySequence(tr("Ctrl+R")));
    open->setShortcutContext(Qt::WidgetShortcut);
    table->addAction(open);
    const auto openAt = [this](const QModelIndex &index) {
        if (!index.isValid())
            return;
        const QJsonObject item =
            QJsonDocument::fromJson(index.data(PagedListModel::ItemJsonRole).toByteArray()).object();
        if (const std::optional<SkillEntry> entry = SkillEntry::fromJson(item))
            openSkillView(*entry);
    };
    connect(open, &QAction::triggered, this, [table, openAt] { openAt(table->currentIndex()); });
    connect(table, &QAbstractItemView::doubleClicked, this, openAt);
}

SkillView *ServerView::openSkillView(const SkillEntry &entry)
{
    for (SkillView *v : findChildren<SkillView *>(QString(), Qt::FindDirectChildrenOnly)) {
        if (v->entry().uri == entry.uri) {
            v->showNormal();
            v->raise();
            v->activateWindow();
            return v;
        }
    }
    auto *view = new SkillView(m_session, entry, this);
    connect(view, &SkillView::statusMessage, this, &ServerView::statusMessage);
    view->showAsWindow(QSize(900, 640));
    return view;
}

void ServerView::addReadActions(ListView *view, const ListSource &source)
{
    // A folder's entries (resources/directory/read) are resources too: each is read by its uri.
    const bool protocol = source.kind() == ListSource::Kind::Protocol;
    if (!source.isDirectory() && (!protocol || (source.protocolKind() != ListKind::Resources &&
                                                source.protocolKind() != ListKind::ResourceTemplates)))
        return;
    const ListKind kind = protocol ? source.protocolKind() : ListKind::Resources;
    QTableView *table = view->table();
    auto *read = new QAction(kind == ListKind::Resources ? tr("Read") : tr("Read from Template…"), table);
    read->setShortcut(QKeySequence(tr("Ctrl+R")));
    read->setShortcutContext(Qt::WidgetShortcut);
    table->addAction(read); // ListView's context menu offers the table's own actions first
    const auto readAt = [this, table, kind, source](const QModelIndex &index) {
        if (!index.isValid())
            return;
        const QJsonObject item =
            QJsonDocument::fromJson(index.data(PagedListModel::ItemJsonRole).toByteArray()).object();
        if (const std::optional<ListSource> folder = source.subdirectory(item)) {
            // A folder in a folder (SEP-2640) opens in a tab of its own, as its parent did.
            QString why;
            if (m_session->openList(*folder, &why).isEmpty())
                Q_EMIT statusMessage(tr("The folder cannot be read: %1").arg(oneLineSafe(why)));
            return;
        }
        ReadView *reads = readView();
        m_tabs->setCurrentWidget(m_readsPage);
        if (kind == ListKind::Resources)
            reads->readUri(item.value(QStringLiteral("uri")).toString());
        else
            reads->readFromTemplate(item);
    };
    connect(read, &QAction::triggered, this, [table, readAt] { readAt(table->currentIndex()); });
    connect(table, &QAbstractItemView::doubleClicked, this, readAt);
}

} // namespace folio
