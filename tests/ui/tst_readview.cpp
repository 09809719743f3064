// Reading resources in the window, on the real demo server, driven as a person would (offscreen):
// Ctrl+R on a resource shows its text and its cache hints as received; its short TTL runs out and
// the bar repaints as expired; "Re-read when it expires" reads it again; an unknown URI shows its
// error where it happened; a template's variables fill in the URI that is read.
#include "listview.h"
#include "mainwindow.h"
#include "pagedlistmodel.h"
#include "readview.h"
#include "resourcereads.h"
#include "secretstore.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "serverview.h"
#include "statuscolors.h"
#include "ttlclock.h"
#include "wraplabel.h"

#include <QApplication>
#include <QCheckBox>
#include <QDeadlineTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace folio;

class tst_ReadView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void readsAResourceAndItsTtlExpires();
    void doubleClickReadsAndRereadsOnExpiry();
    void unknownUriShowsItsError();
    void readsFromATemplate();
    void emptyStateUntilARead();

private:
    // The demo server with reads whose TTL is short enough to watch (ttlMs 1500).
    ListView *openDemo(const QString &listId, const QStringList &extra = {});
    ReadView *readView() { return m_window->currentServerView()->readView(); }
    // Waits for the rows of a list's first page.
    bool waitForRows(ListView *list);

    TtlClock *m_clock = nullptr;
    SecretStore *m_secrets = nullptr;
    ServerListModel *m_servers = nullptr;
    MainWindow *m_window = nullptr;
};

void tst_ReadView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_readview"));
    QSettings().clear();
}

void tst_ReadView::cleanup()
{
    delete m_window;
    m_window = nullptr;
    delete m_servers;
    m_servers = nullptr;
    delete m_secrets;
    m_secrets = nullptr;
    delete m_clock;
    m_clock = nullptr;
}

ListView *tst_ReadView::openDemo(const QString &listId, const QStringList &extra)
{
    QSettings().setValue(QStringLiteral("walkOnConnect"), int(ServerSession::WalkOnConnect::OnDemand));
    m_clock = new TtlClock;
    m_secrets = new SecretStore;
    m_servers = new ServerListModel(m_clock, m_secrets);
    m_servers->setDemoServer(QStringLiteral(FOLIO_DEMO_SERVER),
                             QStringList{QStringLiteral("--scenario"), QStringLiteral("healthy"),
                                         QStringLiteral("--list"),
                                         QStringLiteral("resources=healthy,ttlMs=1500")} +
                                 extra);
    m_window = new MainWindow(m_servers, m_secrets);
    m_window->resize(1280, 800);
    m_window->show();
    m_window->selectServer(0);
    m_window->connectCurrent();
    ServerView *view = m_window->currentServerView();
    QDeadlineTimer deadline(10000);
    while (view && !view->listView(listId) && !deadline.hasExpired())
        QTest::qWait(20); // polling for readiness, not timing: the assertions below use QTRY
    if (!view || !view->listView(listId))
        return nullptr;
    view->showList(listId);
    return view->listView(listId);
}

bool tst_ReadView::waitForRows(ListView *list)
{
    QDeadlineTimer deadline(10000);
    while (list->table()->model()->rowCount() == 0 && !deadline.hasExpired())
        QTest::qWait(20);
    return list->table()->model()->rowCount() > 0;
}

void tst_ReadView::readsAResourceAndItsTtlExpires()
{
    ListView *list = openDemo(QStringLiteral("resources"));
    QVERIFY(list);
    QVERIFY(waitForRows(list));
    QTableView *table = list->table();
    table->setFocus();
    table->setCurrentIndex(table->model()->index(0, 0));
    const QString uri = table->currentIndex().data(PagedListModel::IdentityRole).toString().mid(4); // "uri:…"
    QVERIFY(!uri.isEmpty());
    QTest::keyClick(table, Qt::Key_R, Qt::ControlModifier);

    ReadView *view = readView();
    QTRY_VERIFY(view->isVisible()); // the Reads tab came to the front
    QCOMPARE(view->currentRow(), 0);
    ResourceReads *reads = view->reads();
    QCOMPARE(reads->record(0).uri, uri);
    QTRY_COMPARE_WITH_TIMEOUT(reads->record(0).state, PageRecord::State::Fresh, 5000);
    QTRY_VERIFY(!view->shownTexts().isEmpty());
    QVERIFY(view->shownTexts().first().contains(QStringLiteral("\"")));
    QVERIFY2(view->hintsLabel()->text().startsWith(QStringLiteral("ttlMs 1500 · cacheScope ")),
             qPrintable(view->hintsLabel()->text()));
    QCOMPARE(view->ttlBar()->look().bar, ReadTtlBar::Bar::Fresh);
    QVERIFY(view->ttlBar()->look().text.startsWith(QStringLiteral("fresh · expires in")));

    // Its TTL runs out on the session's clock: the bar repaints grey, as an expired chip's.
    QTRY_COMPARE_WITH_TIMEOUT(view->ttlBar()->look().bar, ReadTtlBar::Bar::Expired, 5000);
    QCOMPARE(reads->record(0).state, PageRecord::State::Expired);
    const QImage shot = view->ttlBar()->grab().toImage();
    const QRect bar = view->ttlBar()->barRect();
    const QColor painted = shot.pixelColor(shot.width() * bar.center().x() / view->ttlBar()->width(),
                                           shot.height() * bar.center().y() / view->ttlBar()->height());
    const QColor expired = StatusColors(view->ttlBar()->palette()).expired();
    QVERIFY2(qAbs(painted.red() - expired.red()) < 8 && qAbs(painted.green() - expired.green()) < 8 &&
                 qAbs(painted.blue() - expired.blue()) < 8,
             qPrintable(painted.name() + QStringLiteral(" vs ") + expired.name()));
    QCOMPARE(reads->record(0).answers, 1); // not re-read unless asked
    QVERIFY2(view->stateLabel()->text().startsWith(QStringLiteral("read once, at ")),
             qPrintable(view->stateLabel()->text()));
}

void tst_ReadView::doubleClickReadsAndRereadsOnExpiry()
{
    ListView *list = openDemo(QStringLiteral("resources"));
    QVERIFY(list);
    QVERIFY(waitForRows(list));
    QTableView *table = list->table();
    const QRect cell = table->visualRect(table->model()->index(1, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    ReadView *view = readView();
    QTRY_VERIFY(view->isVisible());
    ResourceReads *reads = view->reads();
    QTRY_COMPARE_WITH_TIMEOUT(reads->record(0).state, PageRecord::State::Fresh, 5000);
    QTest::mouseClick(view->rereadOnExpiryBox(), Qt::LeftButton, {},
                      QPoint(8, view->rereadOnExpiryBox()->height() / 2));
    QVERIFY(reads->record(0).rereadOnExpiry);
    // Expired, then read again: the contents replaced and the clock restarted.
    QTRY_COMPARE_WITH_TIMEOUT(reads->record(0).answers, 2, 6000);
    QTRY_COMPARE_WITH_TIMEOUT(view->ttlBar()->look().bar, ReadTtlBar::Bar::Fresh, 3000);
    QVERIFY(view->stateLabel()->text().contains(QStringLiteral("read 2 times")));

    // Re-read by hand.
    reads->setRereadOnExpiry(0, false);
    QTRY_VERIFY(view->rereadButton()->isEnabled());
    QTest::mouseClick(view->rereadButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(reads->record(0).answers, 3, 5000);
}

void tst_ReadView::unknownUriShowsItsError()
{
    ListView *list = openDemo(QStringLiteral("resources"));
    QVERIFY(list);
    ServerView *server = m_window->currentServerView();
    server->showList(ServerSession::ReadsId);
    ReadView *view = readView();
    QTRY_VERIFY(view->isVisible());
    view->uriField()->setFocus();
    QTest::keyClicks(view->uriField(), QStringLiteral("chat://nowhere/at-all"));
    QTest::keyClick(view->uriField(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(view->reads()->record(0).state, PageRecord::State::Failed, 5000);
    QTRY_VERIFY(view->errorLabel()->isVisible());
    QVERIFY2(view->errorLabel()->text().contains(QStringLiteral("-32602")),
             qPrintable(view->errorLabel()->text()));
    QVERIFY(view->errorLabel()->text().contains(QStringLiteral("Resource not found")));
    QCOMPARE(view->ttlBar()->look().bar, ReadTtlBar::Bar::Failed);
    QVERIFY(view->shownTexts().isEmpty());
}

void tst_ReadView::readsFromATemplate()
{
    // A channel the demo server has, from its resources list.
    ListView *resources = openDemo(QStringLiteral("resources"));
    QVERIFY(resources);
    QVERIFY(waitForRows(resources));
    QString channel;
    for (int r = 0; r < resources->table()->model()->rowCount() && channel.isEmpty(); ++r) {
        const QString id =
            resources->table()->model()->index(r, 0).data(PagedListModel::IdentityRole).toString();
        const QString prefix = QStringLiteral("uri:chat://channels/");
        if (id.startsWith(prefix) && !id.mid(prefix.size()).contains(QLatin1Char('/')))
            channel = id.mid(prefix.size());
    }
    QVERIFY(!channel.isEmpty());
    m_window->currentServerView()->showList(QStringLiteral("templates"));
    ListView *list = m_window->currentServerView()->listView(QStringLiteral("templates"));
    QVERIFY(list);
    QVERIFY(waitForRows(list));
    QTableView *table = list->table();
    int row = -1;
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        if (table->model()->index(r, 0).data(PagedListModel::IdentityRole).toString() ==
            QStringLiteral("uriTemplate:chat://channels/{channel}"))
            row = r;
    }
    QVERIFY(row >= 0);
    table->setFocus();
    table->setCurrentIndex(table->model()->index(row, 0));
    QTest::keyClick(table, Qt::Key_R, Qt::ControlModifier);
    TemplateReadDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<TemplateReadDialog *>()) && dialog->isVisible());
    QLineEdit *field = dialog->field(QStringLiteral("channel"));
    QVERIFY(field);
    QTest::keyClicks(field, channel);
    const QString uri = QStringLiteral("chat://channels/") + channel;
    QCOMPARE(dialog->uri(), uri);
    QTest::keyClick(field, Qt::Key_Return);
    ReadView *view = readView();
    QTRY_VERIFY(view->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(view->reads()->count(), 1, 3000);
    QCOMPARE(view->reads()->record(0).uri, uri);
    QCOMPARE(view->reads()->record(0).uriTemplate, QStringLiteral("chat://channels/{channel}"));
    QTRY_VERIFY_WITH_TIMEOUT(view->reads()->record(0).hasContents(), 5000);
    QTRY_VERIFY(!view->shownTexts().isEmpty());
}

void tst_ReadView::emptyStateUntilARead()
{
    ListView *list = openDemo(QStringLiteral("resources"));
    QVERIFY(list);
    m_window->currentServerView()->showList(ServerSession::ReadsId);
    ReadView *view = readView();
    QTRY_VERIFY(view->isVisible());
    WrapLabel *empty = view->findChild<WrapLabel *>(QStringLiteral("emptyState"));
    QVERIFY(empty);
    QVERIFY(empty->isVisible());
    QVERIFY(empty->text().startsWith(QStringLiteral("No resource read yet.")));
    QVERIFY(!view->ttlBar()->isVisible());
}

QTEST_MAIN(tst_ReadView)
#include "tst_readview.moc"
