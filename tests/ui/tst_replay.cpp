// A recorded session in the window: save the tour's session, stop its server, open the file, and
// see the same lists, pages and findings, marked as a replay; its clock plays, pauses, runs ×4 and
// scrubs; a damaged file opens nothing and says why. Offscreen, against the real demo server.

#include "listview.h"
#include "mainwindow.h"
#include "pagedlistmodel.h"
#include "pageinspector.h"
#include "pageledger.h"
#include "replaybar.h"
#include "replaytransport.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "serverview.h"
#include "sessionrecording.h"
#include "settingskeys.h"
#include "windowfixture.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace folio;

namespace {

struct PageFacts
{
    int index;
    std::optional<QString> cursor;
    QString next;
    int items;
    QStringList findings;
    bool operator==(const PageFacts &o) const
    {
        return index == o.index && cursor == o.cursor && next == o.next && items == o.items &&
               findings == o.findings;
    }
};

// What a person compares between the live list and its replay: its pages as the ledger has them.
QList<PageFacts> pagesOf(PagedListModel *model)
{
    QList<PageFacts> pages;
    const PageLedger *ledger = model->walker()->ledger();
    for (int row = 0; row < ledger->rowCount(); ++row) {
        const PageRecord &p = ledger->page(row);
        QStringList findings;
        for (const Finding &f : p.findings)
            findings << f.id;
        pages.append({p.index, p.requestCursor, p.next.text, p.itemCount, findings});
    }
    return pages;
}

} // namespace

class tst_Replay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void savedSessionReplaysWithTheServerGone();
    void replayClockPlaysPausesAndScrubs();
    void damagedFileOpensNothing();

private:
    void openTour();
    bool walked(ServerSession *session, const QStringList &lists);

    QTemporaryDir m_dir;
    WindowFixture m_fixture;
};

void tst_Replay::initTestCase()
{
    WindowFixture::initSettings("tst_replay");
    QSettings().setValue(SettingsKey::WalkOnConnect, int(ServerSession::WalkOnConnect::Whole));
    QVERIFY(m_dir.isValid());
}

void tst_Replay::cleanup()
{
    m_fixture.reset();
}

void tst_Replay::openTour()
{
    m_fixture.openDemo({QStringLiteral("--scenario"), QStringLiteral("tour")});
}

bool tst_Replay::walked(ServerSession *session, const QStringList &lists)
{
    if (session->state() != McpClient::State::Connected)
        return false;
    for (const QString &id : lists) {
        PagedListModel *m = session->existingModel(id);
        if (!m || m->walker()->isLoading() || m->walker()->isFetchingAll() || m->walker()->pagesInWalk() == 0)
            return false;
    }
    return true;
}

void tst_Replay::savedSessionReplaysWithTheServerGone()
{
    openTour();
    ServerSession *live = m_fixture.servers()->session(0);
    const QStringList lists{QStringLiteral("tools"), QStringLiteral("prompts"), QStringLiteral("resources"),
                            QStringLiteral("templates")};
    QTRY_VERIFY_WITH_TIMEOUT(walked(live, lists), 20000);
    QMap<QString, QList<PageFacts>> before;
    for (const QString &id : lists)
        before.insert(id, pagesOf(live->existingModel(id)));
    const int findings = live->findingCount();
    QVERIFY(findings > 0); // the tour's loop, at least

    const QString file = m_dir.filePath(QStringLiteral("tour.folio"));
    QString error;
    QVERIFY2(m_fixture.window()->saveSession(file, &error), qPrintable(error));
    live->disconnectFromServer(); // the server is gone
    QTRY_COMPARE(live->state(), McpClient::State::Disconnected);

    const int row = m_fixture.window()->openSession(file, &error);
    QVERIFY2(row > 0, qPrintable(error));
    ServerSession *replay = m_fixture.servers()->session(row);
    QVERIFY(replay->isReplay());
    QCOMPARE(m_fixture.window()->currentServerRow(), row);
    ServerView *view = m_fixture.serverView();
    QVERIFY(view->replayBar());
    QVERIFY(view->replayBar()->bannerText().contains(QStringLiteral("Replay of demo (tour)")));
    QVERIFY(view->replayBar()->bannerText().contains(QStringLiteral("no server is contacted")));
    QTRY_VERIFY_WITH_TIMEOUT(walked(replay, lists), 20000);
    for (const QString &id : lists)
        QCOMPARE(pagesOf(replay->existingModel(id)), before.value(id));
    QCOMPARE(replay->findingCount(), findings);
    QCOMPARE(replay->client()->serverInfo(), live->client()->serverInfo());
    QVERIFY(replay->stateText().contains(QStringLiteral("replay")));

    // A replay is read-only: what would ask the server again is disabled and says why, and the
    // recorded pages survive every way of asking (F5, the inspector's buttons).
    QAction *restartAction = nullptr;
    for (QAction *a : m_fixture.window()->findChildren<QAction *>()) {
        if (a->shortcut() == QKeySequence(Qt::Key_F5))
            restartAction = a;
    }
    QVERIFY(restartAction);
    for (const QString &id : lists) {
        view->showList(id);
        ListView *list = view->listView(id);
        QVERIFY(list);
        QVERIFY(list->isReadOnly());
        for (const char *name : {"restartButton", "autoRefetchButton", "invokeButton"}) {
            auto *button = list->findChild<QToolButton *>(QLatin1String(name));
            if (!button)
                continue; // Call… is on tools and prompts only
            QVERIFY2(!button->isEnabled(), name);
            QVERIFY2(button->toolTip().contains(QStringLiteral("replay is read-only")), name);
        }
        QVERIFY(!restartAction->isEnabled());
        const int walk = list->model()->walker()->currentWalk();
        QTest::keyClick(m_fixture.window(), Qt::Key_F5);
        list->restart();
        list->selectPage(list->model()->walker()->walkPageRows().first());
        for (const char *name : {"refetch", "restart"}) {
            auto *button = list->inspector()->findChild<QPushButton *>(QLatin1String(name));
            QVERIFY2(button && !button->isEnabled(), name);
        }
        list->inspector()->refetchPage();
        list->inspector()->discardAndRestart();
        QCOMPARE(list->model()->walker()->currentWalk(), walk);
        QCOMPARE(pagesOf(list->model()), before.value(id));
    }
}

void tst_Replay::replayClockPlaysPausesAndScrubs()
{
    // The tour's session, with time in it after the walk.
    openTour();
    ServerSession *live = m_fixture.servers()->session(0);
    QTRY_VERIFY_WITH_TIMEOUT(walked(live, {QStringLiteral("tools")}), 20000);
    // Time itself is what is waited for: a recording with 1.5 s in it after the walk.
    const QDeadlineTimer later(1500);
    QVERIFY(QTest::qWaitFor([&later] { return later.hasExpired(); }, 5000));
    const QString file = m_dir.filePath(QStringLiteral("clock.folio"));
    QVERIFY(m_fixture.window()->saveSession(file));
    live->disconnectFromServer();

    const int row = m_fixture.window()->openSession(file);
    QVERIFY(row > 0);
    ServerSession *replay = m_fixture.servers()->session(row);
    ReplayBar *bar = m_fixture.serverView()->replayBar();
    const std::shared_ptr<ReplayClock> clock = replay->replayClock();
    QVERIFY(clock);
    QVERIFY(clock->durationMs() >= 1500);
    QTRY_VERIFY(clock->isPlaying());
    QCOMPARE(bar->playButton()->text(), QStringLiteral("Pause"));

    // Pause: time stops, and so do the pages' TTLs.
    bar->playButton()->click();
    QVERIFY(!clock->isPlaying());
    const qint64 paused = clock->nowMs();
    const QDeadlineTimer spell(300); // time passes; the paused clock must not
    QVERIFY(QTest::qWaitFor([&spell] { return spell.hasExpired(); }, 5000));
    QCOMPARE(clock->nowMs(), paused);
    QCOMPARE(replay->ttlClock()->nowMs(), paused);
    QCOMPARE(bar->playButton()->text(), QStringLiteral("Play"));

    // ×4, then play to the end: it stops there, and offers to replay.
    bar->fastButton()->click();
    QCOMPARE(clock->speed(), 4);
    bar->playButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!clock->isPlaying(), 10000);
    QVERIFY(clock->nowMs() >= clock->durationMs());
    QCOMPARE(bar->playButton()->text(), QStringLiteral("Replay"));
    QVERIFY(bar->timeText().endsWith(ReplayBar::clockText(clock->durationMs())));

    // Scrub back to the start: the replay starts again, and the pages come again.
    bar->seek(0);
    QTRY_VERIFY_WITH_TIMEOUT(walked(replay, {QStringLiteral("tools")}), 20000);
    QVERIFY(clock->nowMs() < clock->durationMs());
    // Scrub forward: time jumps there.
    const qint64 target = clock->durationMs() - 200;
    bar->seek(target);
    QTRY_VERIFY(!clock->isSeeking());
    QVERIFY(clock->nowMs() >= target);
}

void tst_Replay::damagedFileOpensNothing()
{
    openTour();
    const QString file = m_dir.filePath(QStringLiteral("damaged.folio"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        "{\"format\":\"folio-session\",\"version\":1,\"server\":{\"name\":\"x\"},\"events\":2}\n{\"t\":0,");
    f.close();
    const int rows = m_fixture.servers()->rowCount();
    QString error;
    QCOMPARE(m_fixture.window()->openSession(file, &error), -1);
    QVERIFY2(error.contains(QStringLiteral("line 2")), qPrintable(error));
    QCOMPARE(m_fixture.servers()->rowCount(), rows);
}

QTEST_MAIN(tst_Replay)
#include "tst_replay.moc"
