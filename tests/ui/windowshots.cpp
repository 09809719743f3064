#include "windowshots.h"

#include "commandpalette.h"
#include "guidedialog.h"

#include "auditpanel.h"
#include "callview.h"
#include "findingspanel.h"
#include "inputresponder.h"
#include "legendbar.h"
#include "listview.h"
#include "machinesignindialog.h"
#include "mainwindow.h"
#include "mcpclient.h"
#include "oauthflow.h"
#include "pagedlistmodel.h"
#include "pagewalker.h"
#include "promptview.h"
#include "readview.h"
#include "resourcereads.h"
#include "schemaform.h"
#include "secretstore.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "serverview.h"
#include "shortcutsdialog.h"
#include "signinpanel.h"
#include "signinstore.h"
#include "skillview.h"
#include "taskboard.h"
#include "tasksview.h"
#include "theme.h"
#include "ttlclock.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPixmap>
#include <QPointer>
#include <QProcess>
#include <QRegularExpression>
#include <QTextStream>
#include <QTimer>
#include <QTreeWidget>

#include <functional>
#include <memory>

namespace folio {

namespace {

// A list of steps, each polled until it says it is done (or its deadline passes).
class Script : public QObject
{
public:
    using Step = std::function<bool()>;
    void add(const QString &name, Step step, int timeoutMs = 15000)
    {
        m_steps.append({name, step, timeoutMs});
    }
    void run()
    {
        connect(&m_timer, &QTimer::timeout, this, &Script::tick);
        m_timer.start(100);
        m_deadline = QDeadlineTimer(m_steps.isEmpty() ? 0 : m_steps.first().timeoutMs);
    }
    int failures = 0;

private:
    struct Entry
    {
        QString name;
        Step step;
        int timeoutMs;
    };
    void tick()
    {
        if (m_index >= m_steps.size()) {
            m_timer.stop();
            QCoreApplication::exit(failures ? 1 : 0);
            return;
        }
        const Entry &e = m_steps.at(m_index);
        const bool done = e.step();
        if (done || m_deadline.hasExpired()) {
            if (!done) {
                ++failures;
                QTextStream(stderr) << "screenshots: step \"" << e.name << "\" timed out" << Qt::endl;
            }
            ++m_index;
            if (m_index < m_steps.size())
                m_deadline = QDeadlineTimer(m_steps.at(m_index).timeoutMs);
        }
    }
    QList<Entry> m_steps;
    int m_index = 0;
    QTimer m_timer;
    QDeadlineTimer m_deadline;
};

// The demo server on HTTP with its authorization server, added to the window (not saved) for the
// sign-in pictures; the browser an HTTP GET of the authorization URL.
class SignInShots
{
public:
    SignInShots(ServerListModel *servers, const QString &program)
        : m_servers(servers)
        , m_program(program)
    {}
    ~SignInShots() { stop(); }
    // Starts the server (first call), then adds it and connects once it listens: true when done.
    // With a machine form, it signs in with that first instead (the window connects after).
    bool open(MainWindow *window, const QString &oauth, const std::optional<MachineSignIn> &machine = {})
    {
        if (!m_process) {
            m_process = std::make_unique<QProcess>();
            m_process->start(m_program, {QStringLiteral("--scenario"), QStringLiteral("healthy"),
                                         QStringLiteral("--http"), QStringLiteral("0"),
                                         QStringLiteral("--oauth=") + oauth});
        }
        m_err += m_process->readAllStandardError();
        static const QRegularExpression listening(QStringLiteral("listening on (http://\\S+)"));
        const QRegularExpressionMatch m = listening.match(QString::fromUtf8(m_err));
        if (!m.hasMatch())
            return false;
        ServerConfig config = ServerConfig::remote(QUrl(m.captured(1)));
        config.name = machine ? QStringLiteral("machine (OAuth)") : QStringLiteral("hosted (OAuth)");
        int row = rowOf(m_session);
        if (row < 0) {
            row = m_servers->addServer(config, false);
            m_session = m_servers->session(row);
            m_session->setSignInBrowser([this](const QUrl &url) {
                QNetworkReply *reply = m_browser.get(QNetworkRequest(url));
                QObject::connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
            });
        } else {
            m_servers->updateServer(row, config); // another URL: a sign-in of its own
        }
        // A machine's grant set before connecting: the server's 401 runs it, as it does for a server
        // whose saved sign-in is a machine's.
        QString problem;
        if (const auto settings = machine ? machine->settings(&problem) : std::nullopt)
            m_session->signIn()->authorizer()->setClientSettings(*settings);
        window->selectServer(row);
        window->connectCurrent();
        return true;
    }
    // The sign-in ended: signed in and connected (succeed), or its flow failed.
    bool settled(bool succeed) const
    {
        if (!m_session || !m_session->signIn())
            return false;
        const OAuthFlow *flow = m_session->signIn()->authorizer()->flow();
        if (!flow || !flow->isFinished())
            return false;
        return succeed ? flow->succeeded() && m_session->state() == McpClient::State::Connected
                       : !flow->succeeded();
    }
    // The server stops; its row stays (the window owns its view) with nothing in the keychain.
    void close()
    {
        if (m_session) {
            m_session->disconnectFromServer();
            m_session->signIn()->forget();
        }
        stop();
    }

private:
    int rowOf(const ServerSession *session) const
    {
        for (int row = 0; session && row < m_servers->rowCount(); ++row) {
            if (m_servers->session(row) == session)
                return row;
        }
        return -1;
    }
    void stop()
    {
        if (m_process) {
            m_process->kill();
            m_process->waitForFinished(3000);
            m_process.reset();
        }
        m_err.clear();
    }
    ServerListModel *m_servers;
    QString m_program;
    std::unique_ptr<QProcess> m_process;
    QByteArray m_err;
    QNetworkAccessManager m_browser;
    QPointer<ServerSession> m_session;
};

} // namespace

int takeWindowShots(const QString &demoServer, const QString &directory)
{
    QDir().mkpath(directory);
    Theme::apply(Theme::Mode::Light); // the first picture is main-light, whatever the desktop's
    TtlClock clock;
    SecretStore secretStore;
    ServerListModel serverList(&clock, &secretStore);
    serverList.setDemoServer(demoServer, {QStringLiteral("--scenario"), QStringLiteral("tour")});
    ServerListModel *servers = &serverList;
    MainWindow window(servers, &secretStore);
    window.resize(1600, 1000);
    window.show();
    window.selectServer(0);
    window.connectCurrent();

    Script script;
    auto list = [&window](const QString &id) -> ListView * {
        ServerView *v = window.currentServerView();
        return v ? v->listView(id) : nullptr;
    };
    auto save = [&window, directory](const QString &name) {
        const QString path = QDir(directory).filePath(name);
        window.grab().save(path);
        QTextStream(stdout) << path << Qt::endl;
    };
    // The steps to the dark theme and to a laptop's window size that follow a light picture, and
    // back.
    const auto toDark = [] {
        Theme::apply(Theme::Mode::Dark);
        return true;
    };
    const auto toLight = [] {
        Theme::apply(Theme::Mode::Light);
        return true;
    };
    const auto toSmall = [&window] {
        window.resize(1024, 640);
        return true;
    };
    const auto toLargeAndLight = [&window] {
        window.resize(1600, 1000);
        Theme::apply(Theme::Mode::Light);
        return true;
    };
    // A few ticks for the window to settle (layouts, a theme's repaint), then its picture.
    auto shot = [&script, save](const QString &name, int ticks) {
        auto waited = std::make_shared<int>(0);
        script.add(QStringLiteral("settle"), [waited, ticks] { return ++*waited > ticks; });
        script.add(name, [save, name] {
            save(name + QStringLiteral(".png"));
            return true;
        });
    };
    // A step of the theme or the size (toDark, toLight, toSmall), then the picture it gives.
    auto stepThenShot = [&script, shot](const QString &step, const Script::Step &what, const QString &name,
                                        int ticks) {
        script.add(step, what);
        shot(name, ticks);
    };
    auto walked = [list](const QString &id) {
        ListView *l = list(id);
        return l && l->model() && !l->model()->walker()->isLoading() &&
               !l->model()->walker()->isFetchingAll() && l->model()->walker()->pagesInWalk() > 0;
    };
    script.add(QStringLiteral("connect"),
               [servers] { return servers->session(0)->state() == McpClient::State::Connected; });
    script.add(QStringLiteral("tools loaded"), [walked] { return walked(QStringLiteral("tools")); });
    script.add(QStringLiteral("select a page"), [list] {
        ListView *l = list(QStringLiteral("tools"));
        const QList<int> rows = l->model()->walker()->walkPageRows();
        l->selectPage(rows.value(qMin(3, int(rows.size()) - 1)));
        return true;
    });
    int waited = 0;
    script.add(QStringLiteral("let the TTL bars drain"),
               [&waited] { return ++waited > 35; }); // page 2 (3 s TTL) has expired
    script.add(QStringLiteral("tools light"), [save] {
        save(QStringLiteral("main-light.png"));
        return true;
    });
    stepThenShot(QStringLiteral("dark"), toDark, QStringLiteral("main-dark"), 3);
    script.add(QStringLiteral("templates"), [&window] {
        window.currentServerView()->showList(QStringLiteral("templates"));
        if (ListView *l = window.currentServerView()->listView(QStringLiteral("templates")))
            l->loadAll();
        return true;
    });
    script.add(QStringLiteral("templates walked"), [list] {
        ListView *l = list(QStringLiteral("templates"));
        return l && l->model() && (l->model()->walker()->isStopped() || l->model()->walker()->isComplete());
    });
    script.add(QStringLiteral("findings dock"), [&window, list] {
        if (ListView *l = list(QStringLiteral("templates"))) {
            const QList<int> rows = l->model()->walker()->walkPageRows();
            if (!rows.isEmpty())
                l->selectPage(rows.last());
        }
        window.findingsDock()->raise();
        return true;
    });
    shot(QStringLiteral("findings-dark"), 5);
    stepThenShot(QStringLiteral("light again"), toLight, QStringLiteral("findings-light"), 3);
    // A list tool asked without the arguments it wants: it waits for them, no finding.
    script.add(QStringLiteral("search_posts"), [&window] {
        window.currentServerView()->showList(QStringLiteral("tool:search_posts"));
        return true;
    });
    script.add(QStringLiteral("search_posts waits"), [list] {
        ListView *l = list(QStringLiteral("tool:search_posts"));
        return l && l->model() && l->model()->walker()->needsArguments();
    });
    shot(QStringLiteral("needs-arguments-light"), 3);
    // The audit in its dock below the table, its findings in the Findings dock too, and the
    // templates loop drawn as an arc in the strip above.
    script.add(QStringLiteral("audit"), [&window] {
        window.auditDock()->show();
        window.auditDock()->raise();
        window.auditPanel()->start();
        return true;
    });
    script.add(
        QStringLiteral("audited"), [&window] { return !window.auditPanel()->isRunning(); }, 90000);
    script.add(QStringLiteral("the loop's page"), [list] {
        if (ListView *l = list(QStringLiteral("templates"))) {
            const QList<int> rows = l->model()->walker()->walkPageRows();
            if (!rows.isEmpty())
                l->selectPage(rows.last());
        }
        return true;
    });
    shot(QStringLiteral("audit-light"), 5);
    script.add(QStringLiteral("the audit's findings"), [&window] {
        window.findingsDock()->raise();
        return true;
    });
    shot(QStringLiteral("audit-findings-light"), 5);
    script.add(QStringLiteral("audit dark"), [&window] {
        Theme::apply(Theme::Mode::Dark);
        window.auditDock()->raise();
        return true;
    });
    shot(QStringLiteral("audit-dark"), 3);
    stepThenShot(QStringLiteral("audit small"), toSmall, QStringLiteral("audit-small-dark"), 5);
    stepThenShot(QStringLiteral("audit small light"), toLight, QStringLiteral("audit-small-light"), 3);
    script.add(QStringLiteral("light for the rest"), toLargeAndLight);
    // The same window at a small size: what a laptop beside a projector gives it.
    script.add(QStringLiteral("small"), [&window, list] {
        window.resize(1024, 640);
        window.currentServerView()->showList(QStringLiteral("tools"));
        if (ListView *l = list(QStringLiteral("tools"))) {
            const QList<int> rows = l->model()->walker()->walkPageRows();
            l->selectPage(rows.value(qMin(3, int(rows.size()) - 1)));
        }
        window.timelineDock()->raise();
        return true;
    });
    shot(QStringLiteral("small-light"), 5);
    stepThenShot(QStringLiteral("small dark"), toDark, QStringLiteral("small-dark"), 3);
    script.add(QStringLiteral("light again"), toLight);
    // What a room sees at 1920x1080: presenting (larger, the legend, the sidebar and docks
    // stepped aside); full screen is the window manager's, so the size is set here.
    script.add(QStringLiteral("presentation"), [&window] {
        window.setPresentation(true);
        window.resize(1920, 1080);
        return true;
    });
    shot(QStringLiteral("presentation-light"), 5);
    stepThenShot(QStringLiteral("presentation dark"), toDark, QStringLiteral("presentation-dark"), 3);
    script.add(QStringLiteral("presentation ends"), [&window] {
        window.setPresentation(false);
        window.resize(1600, 1000);
        return true;
    });
    // The Reads tab: two resources read, the one shown with its text, its hints as received and
    // its TTL draining, the other's bar beside it in the list.
    script.add(QStringLiteral("reads"), [&window, list] {
        Theme::apply(Theme::Mode::Light);
        window.setZoom(1.0);
        window.setLegendShown(false);
        ListView *l = list(QStringLiteral("resources"));
        if (!l || !l->model() || l->model()->rowCount() < 2) {
            if (l && l->model() && l->model()->canFetchMore({}))
                l->model()->fetchMore({});
            return false;
        }
        ReadView *reads = window.currentServerView()->readView();
        window.currentServerView()->showList(ServerSession::ReadsId);
        reads->readUri(l->model()->item(1).value(QStringLiteral("uri")).toString());
        reads->readUri(l->model()->item(0).value(QStringLiteral("uri")).toString());
        return true;
    });
    script.add(QStringLiteral("read"), [&window] {
        const ResourceReads *r = window.currentServerView()->readView()->reads();
        return r->count() == 2 && r->record(0).isSettled() && r->record(1).isSettled();
    });
    auto drained = std::make_shared<int>(0);
    script.add(QStringLiteral("let the read's TTL drain a little"), [drained] { return ++*drained > 40; });
    shot(QStringLiteral("read-light"), 1);
    stepThenShot(QStringLiteral("read dark"), toDark, QStringLiteral("read-dark"), 3);
    stepThenShot(QStringLiteral("read small"), toSmall, QStringLiteral("read-small-dark"), 5);
    script.add(QStringLiteral("read done"), toLargeAndLight);
    // A subscribed read that the server says has changed (update_post edits the post): stale at
    // once, the reason said, the subscription shown.
    const QString post = QStringLiteral("chat://posts/p00001");
    script.add(QStringLiteral("read a post"), [&window, post] {
        window.currentServerView()->readView()->readUri(post);
        return true;
    });
    script.add(QStringLiteral("subscribed"), [&window, post] {
        const ResourceReads *r = window.currentServerView()->readView()->reads();
        const int row = r->rowForUri(post);
        return row >= 0 && r->record(row).subscription.state == ResourceSubscription::State::Active;
    });
    script.add(QStringLiteral("the post is edited"), [&window] {
        ResourceReads *r = window.currentServerView()->readView()->reads();
        r->client()->callTool(
            QStringLiteral("update_post"),
            QJsonObject{{QStringLiteral("post_id"), QStringLiteral("p00001")},
                        {QStringLiteral("message"), QStringLiteral("Stand-up moves to 10:30 from Monday.")}});
        return true;
    });
    script.add(QStringLiteral("the read is stale"), [&window, post] {
        const ResourceReads *r = window.currentServerView()->readView()->reads();
        const int row = r->rowForUri(post);
        return row >= 0 && !r->record(row).staleReason.isEmpty();
    });
    shot(QStringLiteral("read-updated-light"), 3);
    stepThenShot(QStringLiteral("read updated dark"), toDark, QStringLiteral("read-updated-dark"), 3);
    script.add(QStringLiteral("read updated done"), toLargeAndLight);
    // A tool called from the tools list: update_post (not read-only, so it asks first), its form
    // filled in, confirmed, and its result; then a prompt got with its argument.
    auto item = [list](const QString &listId, const QString &name) {
        QJsonObject found;
        if (ListView *l = list(listId)) {
            for (int row = 0; row < l->model()->rowCount() && found.isEmpty(); ++row) {
                if (l->model()->item(row).value(QStringLiteral("name")).toString() == name)
                    found = l->model()->item(row);
            }
        }
        return found;
    };
    // The Tasks tab: sync_group (the demo's long task) run three times as a task: one completed,
    // its result under the table; one draining; one cancelled.
    script.add(QStringLiteral("tasks"), [&window, item, list] {
        const QJsonObject sync = item(QStringLiteral("tools"), QStringLiteral("sync_group"));
        if (sync.isEmpty()) {
            ListView *l = list(QStringLiteral("tools"));
            if (l && l->model() && l->model()->canFetchMore({}))
                l->model()->fetchMore({});
            return false;
        }
        ServerView *view = window.currentServerView();
        TaskBoard *tasks = view->session()->tasks();
        tasks->start(sync, {{QStringLiteral("group_id"), QStringLiteral("g01")},
                            {QStringLiteral("durationMs"), 1200}});
        tasks->start(sync, {{QStringLiteral("group_id"), QStringLiteral("g02")},
                            {QStringLiteral("durationMs"), 90000}});
        tasks->start(sync, {{QStringLiteral("group_id"), QStringLiteral("g03")},
                            {QStringLiteral("durationMs"), 90000}});
        view->showList(ServerSession::TasksId);
        return true;
    });
    script.add(QStringLiteral("tasks running"), [&window] {
        TaskBoard *tasks = window.currentServerView()->session()->tasks();
        if (tasks->record(2).phase != TaskRecord::Phase::Running)
            return false;
        tasks->cancel(2);
        return true;
    });
    script.add(QStringLiteral("tasks settled"), [&window] {
        TaskBoard *tasks = window.currentServerView()->session()->tasks();
        if (tasks->record(0).phase != TaskRecord::Phase::Ended ||
            tasks->record(2).phase != TaskRecord::Phase::Ended)
            return false;
        window.currentServerView()->tasksView()->showTask(0);
        return true;
    });
    shot(QStringLiteral("tasks-light"), 3);
    stepThenShot(QStringLiteral("tasks dark"), toDark, QStringLiteral("tasks-dark"), 3);
    stepThenShot(QStringLiteral("tasks small"), toSmall, QStringLiteral("tasks-small-dark"), 5);
    script.add(QStringLiteral("tasks done"), [&window, toLargeAndLight] {
        window.currentServerView()->session()->tasks()->cancel(1);
        return toLargeAndLight();
    });
    auto callView = std::make_shared<QPointer<CallView>>();
    auto promptView = std::make_shared<QPointer<PromptView>>();
    auto saveWidget = [directory](QWidget *w, const QString &name) {
        const QString path = QDir(directory).filePath(name + QStringLiteral(".png"));
        w->grab().save(path);
        QTextStream(stdout) << path << Qt::endl;
    };
    auto widgetShot = [&script, saveWidget](const std::function<QWidget *()> &widget, const QString &name,
                                            int ticks) {
        auto waited = std::make_shared<int>(0);
        script.add(QStringLiteral("settle"), [waited, ticks] { return ++*waited > ticks; });
        script.add(name, [saveWidget, widget, name] {
            if (QWidget *w = widget())
                saveWidget(w, name);
            return true;
        });
    };
    // A skill (SEP-2640) opened from the skills tab and loaded: its files checked against the entry.
    auto skillView = std::make_shared<QPointer<SkillView>>();
    script.add(QStringLiteral("skill"), [&window, list, skillView] {
        ListView *l = list(QStringLiteral("skills"));
        if (!l || !l->model())
            return false;
        for (int row = 0; row < l->model()->rowCount(); ++row) {
            const QJsonObject item = l->model()->item(row);
            if (item.value(QStringLiteral("frontmatter")).toObject().value(QStringLiteral("name")) ==
                QLatin1String("weekly-digest")) {
                *skillView = window.currentServerView()->openSkillView(*SkillEntry::fromJson(item));
                (*skillView)->resize(900, 600);
                (*skillView)->startLoad();
                return true;
            }
        }
        if (l->model()->canFetchMore({}))
            l->model()->fetchMore({});
        return false;
    });
    script.add(QStringLiteral("skill loaded"), [skillView] {
        return *skillView && (*skillView)->load() &&
               (*skillView)->load()->outcome() != SkillLoad::Outcome::Running;
    });
    widgetShot([skillView] { return skillView->data(); }, QStringLiteral("skill-light"), 3);
    script.add(QStringLiteral("skill dark"), [] {
        Theme::apply(Theme::Mode::Dark);
        return true;
    });
    widgetShot([skillView] { return skillView->data(); }, QStringLiteral("skill-dark"), 3);
    script.add(QStringLiteral("skill done"), [skillView, toLargeAndLight] {
        if (*skillView)
            (*skillView)->close();
        return toLargeAndLight();
    });
    // A skill's folder (Open Folder in its window): resources/directory/read walked page by page in
    // a tab of the server's window, with its page strip.
    const QString folderId = QStringLiteral("directory:skill://folio-chat/triage-posts");
    script.add(QStringLiteral("skill folder"), [&window, folderId] {
        ServerSession *session = window.currentServerView()->session();
        if (session->openList(ListSource::directory(QStringLiteral("skill://folio-chat/triage-posts"))) !=
            folderId)
            return false;
        if (PagedListModel *model = session->existingModel(folderId))
            model->walker()->fetchAll();
        return true;
    });
    script.add(QStringLiteral("skill folder walked"), [&window, folderId] {
        const PagedListModel *model = window.currentServerView()->session()->existingModel(folderId);
        return model && model->walker()->isComplete();
    });
    shot(QStringLiteral("skill-folder-light"), 3);
    stepThenShot(QStringLiteral("skill folder dark"), toDark, QStringLiteral("skill-folder-dark"), 3);
    script.add(QStringLiteral("skill folder done"), [&window, folderId, toLargeAndLight] {
        window.currentServerView()->session()->closeList(folderId);
        return toLargeAndLight();
    });
    // Find anything (Ctrl+K) over the tour: items, actions and findings that match "post".
    script.add(QStringLiteral("palette"), [&window] {
        window.openPalette();
        window.commandPalette()->field()->setText(QStringLiteral("post"));
        return true;
    });
    widgetShot([&window]() -> QWidget * { return window.commandPalette(); }, QStringLiteral("palette-light"),
               3);
    script.add(QStringLiteral("palette closed"), [&window] {
        window.commandPalette()->close();
        if (auto *guide = window.findChild<QAction *>(QStringLiteral("guideAction")))
            guide->trigger(); // Help > What Am I Looking At?
        return true;
    });
    widgetShot([&window]() -> QWidget * { return window.findChild<GuideDialog *>(); },
               QStringLiteral("guide-light"), 3);
    script.add(QStringLiteral("guide closed"), [&window] {
        if (auto *guide = window.findChild<GuideDialog *>())
            guide->close();
        return true;
    });
    // The current call window closed, then the named tool's opened at the pictures' size with
    // these arguments; false when the server has no such tool.
    const auto openCall = [&window, item, callView](const QString &name, const QJsonObject &arguments) {
        if (*callView)
            (*callView)->close();
        const QJsonObject tool = item(QStringLiteral("tools"), name);
        if (tool.isEmpty())
            return false;
        *callView = window.currentServerView()->openCallView(tool);
        (*callView)->resize(1100, 720);
        (*callView)->form()->setValues(arguments);
        return true;
    };
    script.add(QStringLiteral("call view"), [&window, openCall, callView] {
        Theme::apply(Theme::Mode::Light);
        window.setZoom(1.0);
        window.setLegendShown(false);
        // The form showcase: an enum with a default, nested options by $ref, an array of targets.
        if (!openCall(QStringLiteral("execute_command"),
                      QJsonObject{{QStringLiteral("command"), QStringLiteral("/remind")},
                                  {QStringLiteral("text"), QStringLiteral("Stand-up in 5 minutes")},
                                  {QStringLiteral("targets"),
                                   QJsonArray{QJsonObject{
                                       {QStringLiteral("kind"), QStringLiteral("channel")},
                                       {QStringLiteral("name"), QStringLiteral("town-square")}}}}}))
            return false;
        (*callView)->call(); // asks first when it is not read-only
        return true;
    });
    widgetShot([callView] { return callView->data(); }, QStringLiteral("call-confirm-light"), 3);
    // A read-only tool with mixed content: text, an image, an embedded resource, a link, and a
    // structuredContent checked against its outputSchema.
    script.add(QStringLiteral("call mixed"), [openCall, callView] {
        if (!openCall(QStringLiteral("summarize_reactions"),
                      QJsonObject{{QStringLiteral("reaction_id"), QStringLiteral("p00042")}}))
            return false;
        (*callView)->call();
        return true;
    });
    script.add(QStringLiteral("call done"),
               [callView] { return *callView && (*callView)->state() == CallView::State::Done; });
    widgetShot([callView] { return callView->data(); }, QStringLiteral("call-light"), 3);
    script.add(QStringLiteral("call dark"), toDark);
    widgetShot([callView] { return callView->data(); }, QStringLiteral("call-dark"), 3);
    script.add(QStringLiteral("call small"), [callView] {
        if (*callView)
            (*callView)->resize(640, 480);
        return true;
    });
    widgetShot([callView] { return callView->data(); }, QStringLiteral("call-small-dark"), 3);
    // A slow tool mid-call: its progress where its result will be, with Cancel.
    script.add(QStringLiteral("call running"), [openCall, callView] {
        Theme::apply(Theme::Mode::Light);
        if (!openCall(QStringLiteral("run_playbook"),
                      QJsonObject{{QStringLiteral("playbook_id"), QStringLiteral("onboarding")},
                                  {QStringLiteral("steps"), 10},
                                  {QStringLiteral("stepMs"), 700}}))
            return false;
        (*callView)->callNow();
        return true;
    });
    script.add(QStringLiteral("call progressed"), [callView] {
        const auto *text =
            *callView ? (*callView)->findChild<QLabel *>(QStringLiteral("callProgressText")) : nullptr;
        return text && text->text().contains(QStringLiteral("Step 3 of 10"));
    });
    widgetShot([callView] { return callView->data(); }, QStringLiteral("call-running-light"), 1);
    script.add(QStringLiteral("call cancelled"), [callView] {
        if (*callView)
            (*callView)->cancel();
        return true;
    });
    script.add(QStringLiteral("prompt view"), [&window, item, callView, promptView] {
        Theme::apply(Theme::Mode::Light);
        if (*callView)
            (*callView)->close();
        window.currentServerView()->showList(QStringLiteral("prompts"));
        if (ListView *l = window.currentServerView()->listView(QStringLiteral("prompts")))
            l->loadAll();
        const QJsonObject prompt = item(QStringLiteral("prompts"), QStringLiteral("summarize_channel"));
        if (prompt.isEmpty())
            return false;
        *promptView = window.currentServerView()->openPromptView(prompt);
        (*promptView)->resize(1000, 600);
        if (QLineEdit *e = (*promptView)->argumentEdit(QStringLiteral("channel")))
            e->setText(QStringLiteral("help-android"));
        (*promptView)->get();
        return true;
    });
    script.add(QStringLiteral("prompt done"), [promptView] {
        return *promptView && (*promptView)->run() && (*promptView)->run()->isFinished();
    });
    widgetShot([promptView] { return promptView->data(); }, QStringLiteral("prompt-light"), 3);
    script.add(QStringLiteral("prompt dark"), toDark);
    widgetShot([promptView] { return promptView->data(); }, QStringLiteral("prompt-dark"), 3);
    // Help > Keyboard Shortcuts, read from the menus.
    auto shortcuts = std::make_shared<QPointer<ShortcutsDialog>>();
    script.add(QStringLiteral("shortcuts"), [&window, shortcuts] {
        *shortcuts = new ShortcutsDialog(window.menuBar(), &window);
        (*shortcuts)->setAttribute(Qt::WA_DeleteOnClose);
        (*shortcuts)->show();
        return true;
    });
    widgetShot([shortcuts] { return shortcuts->data(); }, QStringLiteral("shortcuts-dark"), 3);
    script.add(QStringLiteral("shortcuts closed"), [shortcuts] {
        if (*shortcuts)
            (*shortcuts)->close();
        return true;
    });
    script.add(QStringLiteral("views closed"), [promptView] {
        Theme::apply(Theme::Mode::Light);
        if (*promptView)
            (*promptView)->close();
        return true;
    });
    // A 2026 tool that asks first: send_draft's input_required elicitation, as its form.
    auto askingCall = std::make_shared<QPointer<CallView>>();
    auto responderOf = [servers] {
        return dynamic_cast<WindowInputResponder *>(servers->session(0)->client()->inputResponder());
    };
    script.add(QStringLiteral("elicitation"), [&window, item, askingCall] {
        const QJsonObject tool = item(QStringLiteral("tools"), QStringLiteral("send_draft"));
        if (tool.isEmpty())
            return false;
        *askingCall = window.currentServerView()->openCallView(tool);
        (*askingCall)
            ->form()
            ->setValues(QJsonObject{{QStringLiteral("draft_id"), QStringLiteral("draft-7")}});
        (*askingCall)->callNow();
        return true;
    });
    script.add(QStringLiteral("elicitation asked"),
               [responderOf] { return responderOf() && responderOf()->openDialog(); });
    widgetShot([responderOf] { return responderOf() ? responderOf()->openDialog() : nullptr; },
               QStringLiteral("elicitation-light"), 3);
    script.add(QStringLiteral("elicitation dark"), toDark);
    widgetShot([responderOf] { return responderOf() ? responderOf()->openDialog() : nullptr; },
               QStringLiteral("elicitation-dark"), 3);
    script.add(QStringLiteral("elicitation answered"), [responderOf, askingCall] {
        Theme::apply(Theme::Mode::Light);
        if (QDialog *d = responderOf() ? responderOf()->openDialog() : nullptr)
            d->reject();
        if (*askingCall)
            (*askingCall)->close();
        return true;
    });
    // Signing in: the demo server on HTTP with its own authorization server (--oauth), the browser
    // an HTTP GET that follows the authorization server's redirect to Folio's listener; the Sign-in
    // dock with the token step selected, its DPoP proof decoded (--oauth dpop). Then one whose token endpoint
    // refuses the code: the failure at its step. Neither server is saved.
    auto signIn = std::make_shared<SignInShots>(servers, servers->session(0)->config().command);
    auto signInStep = [&window, signIn](const QString &oauth) {
        return [&window, signIn, oauth] { return signIn->open(&window, oauth); };
    };
    auto signInSettled = [signIn](bool succeed) {
        return [signIn, succeed] { return signIn->settled(succeed); };
    };
    auto selectStep = [&window](const QString &title) {
        return [&window, title] {
            window.signInDock()->show();
            window.signInDock()->raise();
            QTreeWidget *tree = window.signInPanel()->steps();
            for (int f = 0; f < tree->topLevelItemCount(); ++f) {
                QTreeWidgetItem *flow = tree->topLevelItem(f);
                for (int i = 0; i < flow->childCount(); ++i) {
                    if (flow->child(i)->text(0) == title)
                        tree->setCurrentItem(flow->child(i));
                }
            }
            return true;
        };
    };
    script.add(QStringLiteral("sign-in server"), signInStep(QStringLiteral("jwt,dpop"))); // DPoP-bound tokens
    script.add(QStringLiteral("signed in"), signInSettled(true), 30000);
    script.add(QStringLiteral("the token step"), selectStep(QStringLiteral("Token")));
    shot(QStringLiteral("signin-light"), 5);
    stepThenShot(QStringLiteral("sign-in dark"), toDark, QStringLiteral("signin-dark"), 3);
    stepThenShot(QStringLiteral("sign-in small"), toSmall, QStringLiteral("signin-small-dark"), 5);
    stepThenShot(QStringLiteral("sign-in small light"), toLight, QStringLiteral("signin-small-light"), 3);
    script.add(QStringLiteral("sign-in server stopped"), [&window, signIn] {
        window.resize(1600, 1000);
        Theme::apply(Theme::Mode::Light);
        signIn->close();
        return true;
    });
    // A machine's sign-in (client credentials): the form, then its steps in the dock.
    widgetShot(
        [&window] {
            MachineSignIn form;
            form.clientId = QStringLiteral("folio-bot");
            auto *dialog = new MachineSignInDialog(form, &window);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->clientSecretEdit()->setText(QStringLiteral("example-secret"));
            dialog->show();
            QTimer::singleShot(3000, dialog, &QDialog::close);
            return dialog;
        },
        QStringLiteral("signin-machine-form-light"), 3);
    MachineSignIn machine;
    machine.clientId = QStringLiteral("folio-bot");
    machine.clientSecret = QStringLiteral("example-secret");
    // A server of its own: its sign-in store is new, and takes the machine's grant before connecting.
    auto machineSignIn = std::make_shared<SignInShots>(servers, servers->session(0)->config().command);
    script.add(QStringLiteral("machine server"), [&window, machineSignIn, machine] {
        return machineSignIn->open(&window, QStringLiteral("jwt,client=folio-bot:example-secret"), machine);
    });
    script.add(
        QStringLiteral("machine signed in"), [machineSignIn] { return machineSignIn->settled(true); }, 30000);
    script.add(QStringLiteral("the machine's token step"), selectStep(QStringLiteral("Token")));
    shot(QStringLiteral("signin-machine-light"), 5);
    stepThenShot(QStringLiteral("machine dark"), toDark, QStringLiteral("signin-machine-dark"), 3);
    script.add(QStringLiteral("machine server stopped"), [&window, machineSignIn] {
        Theme::apply(Theme::Mode::Light);
        machineSignIn->close();
        window.selectServer(0);
        return true;
    });
    script.add(QStringLiteral("refused server"), signInStep(QStringLiteral("fault=token-400")));
    script.add(QStringLiteral("refused"), signInSettled(false), 30000);
    script.add(QStringLiteral("the failed step"), selectStep(QStringLiteral("Token")));
    shot(QStringLiteral("signin-failed-light"), 5);
    script.add(QStringLiteral("sign-in done"), [&window, signIn] {
        signIn->close();
        window.selectServer(0);
        window.signInDock()->hide();
        return true;
    });
    // A replay: the tour saved as a session, its server stopped, the file opened and scrubbed to
    // past the templates loop.
    const QString sessionFile = QDir(directory).filePath(QStringLiteral(".tour.folio"));
    script.add(QStringLiteral("replay"), [&window, servers, sessionFile] {
        Theme::apply(Theme::Mode::Light);
        window.setZoom(1.0);
        window.setLegendShown(false);
        if (!window.saveSession(sessionFile))
            return false;
        servers->session(0)->disconnectFromServer();
        return window.openSession(sessionFile) >= 0;
    });
    script.add(QStringLiteral("replay walked"), [&window, list] {
        ServerSession *s = window.currentServerView() ? window.currentServerView()->session() : nullptr;
        if (!s || !s->isReplay() || s->state() != McpClient::State::Connected)
            return false;
        window.currentServerView()->showList(QStringLiteral("templates"));
        ListView *l = list(QStringLiteral("templates"));
        return l && l->model() && l->model()->walker()->pagesInWalk() >= 3 &&
               !l->model()->walker()->isLoading();
    });
    shot(QStringLiteral("replay-light"), 8);
    stepThenShot(QStringLiteral("replay dark"), toDark, QStringLiteral("replay-dark"), 3);
    script.add(QStringLiteral("replay done"), [sessionFile] {
        Theme::apply(Theme::Mode::Light);
        QFile::remove(sessionFile);
        return true;
    });
    script.run();
    const int rc = QApplication::exec();
    servers->session(0)->disconnectFromServer();
    return rc;
}

} // namespace folio
