#pragma once

#include "definitionbaseline.h"
#include "mainwindow.h"
#include "secretstore.h"
#include "serverconfig.h"
#include "serverhistory.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "serverview.h"
#include "settingskeys.h"
#include "testsettings.h"
#include "ttlclock.h"

#include <QCoreApplication>
#include <QSettings>
#include <QSize>
#include <QStringList>
#include <QTest>
#include <memory>

// The main window on its servers, for the window tests (offscreen): a TTL clock, a keychain, the
// server list and the window, made in that order and deleted in the reverse one by reset() (a
// test's cleanup()) and the destructor. A test makes them step by step (makeClock(),
// makeServers(), showWindow()) or at once (openServer(), openDemo(), openDemoList()).
class WindowFixture
{
public:
    static constexpr QSize DefaultSize{1280, 800};

    WindowFixture() = default;
    ~WindowFixture() { reset(); }
    Q_DISABLE_COPY_MOVE(WindowFixture)

    // The settings of a test profile, never the user's, emptied: for initTestCase().
    static void initSettings(const char *appName) { testsupport::useEmptyTestSettings(appName); }

    // The clock, made on the first call: a test may set its time source before anything reads it,
    // or want no more than a clock.
    folio::TtlClock *makeClock()
    {
        if (!m_clock)
            m_clock = std::make_unique<folio::TtlClock>();
        return m_clock.get();
    }

    // The clock, a keychain and the server list, with no server in it yet.
    folio::ServerListModel *makeServers()
    {
        makeClock();
        m_secrets = std::make_unique<folio::SecretStore>();
        m_servers = std::make_unique<folio::ServerListModel>(m_clock.get(), m_secrets.get());
        return m_servers.get();
    }

    // The window on the server list, resized to size (an invalid size leaves the size it opens
    // at), shown, and its first server selected if it has one. Not connected.
    folio::MainWindow *showWindow(QSize size = DefaultSize)
    {
        m_window = std::make_unique<folio::MainWindow>(m_servers.get(), m_secrets.get());
        if (size.isValid())
            m_window->resize(size);
        m_window->show();
        if (m_servers->rowCount() > 0)
            m_window->selectServer(0);
        return m_window.get();
    }

    // The window on one server, connecting to it: its view.
    // A saved server (folio-demo-server --scenario scenario) named name, nothing kept of it yet (no
    // trusted definitions, no history), every list walked to its end on connect: its session,
    // connecting. What the drift and history tests start from.
    folio::ServerSession *openSavedDemo(const QString &name, const QString &scenario)
    {
        QSettings().setValue(folio::SettingsKey::WalkOnConnect,
                             int(folio::ServerSession::WalkOnConnect::Whole));
        folio::DefinitionBaseline::forget(name);
        folio::ServerHistory::forget(name);
        if (!openServer(savedDemo(name, scenario)))
            return nullptr;
        return m_servers->session(0);
    }
    // The server openSavedDemo() opened, as scenario under the same name, connected again.
    void reconnectAs(const QString &scenario)
    {
        const QString name = m_servers->session(0)->config().name;
        m_servers->updateServer(0, savedDemo(name, scenario));
        m_servers->session(0)->disconnectFromServer();
        m_servers->session(0)->connectToServer();
    }
    static folio::ServerConfig savedDemo(const QString &name, const QString &scenario)
    {
        folio::ServerConfig c;
        c.name = name;
        c.command = QStringLiteral(FOLIO_DEMO_SERVER);
        c.arguments = {QStringLiteral("--scenario"), scenario};
        return c;
    }

    folio::ServerView *openServer(const folio::ServerConfig &config, QSize size = DefaultSize)
    {
        makeServers()->addServer(config);
        return connectShown(size);
    }

    // The window on the demo server (folio-demo-server demoArgs), connecting to it: its view.
    folio::ServerView *openDemo(const QStringList &demoArgs, QSize size = DefaultSize)
    {
        makeServers()->setDemoServer(QStringLiteral(FOLIO_DEMO_SERVER), demoArgs);
        return connectShown(size);
    }

    // The demo server's listId tab, shown once it arrives (null if it did not). Its lists are
    // walked as walk says: as the views ask (the lazy paging most tests drive) unless told
    // otherwise. walkOnConnect is a setting the window reads, and stays set.
    folio::ListView *
    openDemoList(const QStringList &demoArgs, const QString &listId = QStringLiteral("tools"),
                 folio::ServerSession::WalkOnConnect walk = folio::ServerSession::WalkOnConnect::OnDemand)
    {
        QSettings().setValue(folio::SettingsKey::WalkOnConnect, int(walk));
        openDemo(demoArgs);
        return showList(listId);
    }

    // The current server's listId tab, shown once the list arrives; null if it did not in time.
    folio::ListView *showList(const QString &listId, int timeoutMs = 10000)
    {
        folio::ServerView *view = serverView();
        (void)QTest::qWaitFor([view, &listId] { return !view || view->listView(listId); }, timeoutMs);
        if (!view || !view->listView(listId))
            return nullptr;
        view->showList(listId);
        return view->listView(listId);
    }

    // Deletes the window, the server list, the keychain and the clock, in that order.
    void reset()
    {
        m_window.reset();
        m_servers.reset();
        m_secrets.reset();
        m_clock.reset();
    }
    // Every server's remembered tab forgotten: a test's window starts on its server's first tab,
    // whatever the tests before it showed (an init()).
    static void forgetTabs() { QSettings().remove(folio::SettingsKey::ServerViewTabGroup); }

    folio::TtlClock *clock() const { return m_clock.get(); }
    folio::SecretStore *secrets() const { return m_secrets.get(); }
    folio::ServerListModel *servers() const { return m_servers.get(); }
    folio::MainWindow *window() const { return m_window.get(); }
    folio::ServerView *serverView() const { return m_window ? m_window->currentServerView() : nullptr; }

private:
    folio::ServerView *connectShown(QSize size)
    {
        showWindow(size);
        m_window->connectCurrent();
        return m_window->currentServerView();
    }

    std::unique_ptr<folio::TtlClock> m_clock;
    std::unique_ptr<folio::SecretStore> m_secrets;
    std::unique_ptr<folio::ServerListModel> m_servers;
    std::unique_ptr<folio::MainWindow> m_window;
};
