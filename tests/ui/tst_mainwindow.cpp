#include "auditpanel.h"
#include "commandpalette.h"
#include "definitionbaseline.h"
#include "elidedlabel.h"
#include "findingspanel.h"
#include "fixtureprocess.h"
#include "guidedialog.h"
#include "legendbar.h"
#include "listview.h"
#include "mainwindow.h"
#include "pagedlistmodel.h"
#include "pageinspector.h"
#include "pagestrip.h"
#include "secretstore.h"
#include "serverhistory.h"
#include "serverlistactions.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "serverview.h"
#include "sessionfiles.h"
#include "settingskeys.h"
#include "shortcutsdialog.h"
#include "snapshot.h"
#include "testjson.h"
#include "theme.h"
#include "timelineview.h"
#include "tooltips.h"
#include "trafficlogmodel.h"
#include "trafficview.h"
#include "windowfixture.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QDeadlineTimer>
#include <QDialog>
#include <QDir>
#include <QDockWidget>
#include <QFontInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QToolTip>
#include <QTreeView>
#include <QTreeWidget>
#include <algorithm>

using namespace folio;

// The window on the real demo server, driven as a person would (offscreen): connect, scroll to
// fetch, load all, select a page chip, watch a TTL expire and its chip repaint, see a cursor error
// on its page.
class tst_MainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void withoutServersShowsTheWelcome();
    void connectsToTheDemoServerAndShowsPages();
    void scrollingFetchesTheNextPage();
    void loadAllWithTheKeyboard();
    void selectingAChipSelectsItsRows();
    void stripTimelineAndTableShareOneSelection();
    void aRestartedWalkShowsWhereItParts();
    void rowPaneHintsUntilARowIsSelected();
    void filteringKeepsWhatTheUserSees();
    void filteringMatchesRowsAsTheyArrive();
    void ttlExpiresAndTheChipRepaints();
    void cursorErrorShowsOnItsPage();
    void aListThatNeverHoldsStillStops();
    void exportsAReport();
    void savesTheSnapshotTheCommandLineTakes();
    void definitionDriftIsCaughtOnConnect();
    void connectsAreKeptAsSnapshots();
    void trafficIsLogged();
    void auditFromTheWindow();
    void removingAServerAsksFirst();
    void longTextsNeverWidenTheWindow();
    void helpListsTheKeyboardShortcuts();
    void noTabOfAnyScenarioWidensTheWindow_data();
    void noTabOfAnyScenarioWidensTheWindow();
    void aHealthyDemoHasNoFindings();
    void theEvidenceGetsTheRoom();
    void findAnything();
    void helpSaysWhatIsOnScreen();
    void keyboardReachesEveryPart();
    void theChosenTabIsRemembered();
    void problemsShowWithoutOpeningTabs();
    void walkOnConnectModes();
    void onConnectTheFirstListGoesFirst();
    void tourLoopIsFlaggedOnItsTab();
    void presentationZoomsAndShowsTheLegend();

private:
    // The healthy demo's tools list, walked to its end (within 10 s): null if it did not open or
    // did not finish.
    ListView *walkedHealthyList();

    WindowFixture m_fixture;
};

ListView *tst_MainWindow::walkedHealthyList()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    if (!list)
        return nullptr;
    list->loadAll();
    return QTest::qWaitFor([list] { return list->model()->walker()->isComplete(); }, 10000) ? list : nullptr;
}

void tst_MainWindow::initTestCase()
{
    WindowFixture::initSettings("tst_mainwindow");
}

void tst_MainWindow::init()
{
    WindowFixture::forgetTabs();
}

void tst_MainWindow::cleanup()
{
    m_fixture.reset();
}

void tst_MainWindow::withoutServersShowsTheWelcome()
{
    QCOMPARE(m_fixture.makeServers()->rowCount(), 0); // no demo server, nothing saved
    m_fixture.showWindow();
    QVERIFY(QTest::qWaitForWindowExposed(m_fixture.window()));
    QLabel *heading = nullptr;
    for (QLabel *label : m_fixture.window()->findChildren<QLabel *>()) {
        if (label->text() == QLatin1String("Folio"))
            heading = label;
    }
    QVERIFY(heading);
    QTRY_VERIFY(heading->isVisible());
    QVERIFY(heading->font().bold());
    QVERIFY(!m_fixture.serverView());
    // Nothing to report on.
    const QList<QAction *> actions = m_fixture.window()->findChildren<QAction *>();
    const auto report = std::find_if(actions.begin(), actions.end(), [](const QAction *a) {
        return a->text() == QStringLiteral("&Export Report…");
    });
    QVERIFY(report != actions.end());
    QVERIFY(!(*report)->isEnabled());
}

void tst_MainWindow::connectsToTheDemoServerAndShowsPages()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    QVERIFY(list);
    // The first page arrives by itself: the table asks for it as it is shown.
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() >= 20, 10000);
    QVERIFY(list->strip()->chipCount() >= 1);
    QCOMPARE(list->strip()->chipLook(list->model()->walker()->walkPageRows().first()).bar,
             PageStrip::Bar::Fresh);
    QVERIFY(list->summary().contains(QStringLiteral("row")));
    // "Connecting to …" does not outlive the connection, and the state is said once, on the right.
    QVERIFY2(!m_fixture.window()->statusMessage().contains(QStringLiteral("onnect")),
             qPrintable(m_fixture.window()->statusMessage()));
    QVERIFY2(m_fixture.window()->serverStatus().startsWith(QStringLiteral("demo (healthy): connected")),
             qPrintable(m_fixture.window()->serverStatus()));
    // The current tab's view is made as it is shown, and the timeline follows it.
    QCOMPARE(m_fixture.window()->timelineView()->listModel(), list->model());
    const QStringList tabs = m_fixture.serverView()->listIds();
    QVERIFY(tabs.contains(QStringLiteral("resources")));
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture.serverView()->listView(QStringLiteral("tool:search_posts")), 10000);
}

void tst_MainWindow::scrollingFetchesTheNextPage()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")},
                                            QStringLiteral("resources"));
    QVERIFY(list);
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() == 100, 10000);
    QCOMPARE(list->model()->walker()->pagesInWalk(), 1);
    list->table()->scrollToBottom();
    QScrollBar *bar = list->table()->verticalScrollBar();
    bar->setValue(bar->maximum());
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() >= 200, 10000);
    QVERIFY(list->model()->walker()->pagesInWalk() >= 2);
}

void tst_MainWindow::loadAllWithTheKeyboard()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    QVERIFY(list);
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() >= 20, 10000);
    m_fixture.window()->activateWindow();
    QTest::keyClick(m_fixture.window(), Qt::Key_L, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->walker()->isComplete(), 10000);
    QCOMPARE(list->model()->rowCount(), 123);
    QCOMPARE(list->strip()->chipCount(), 7);
    QVERIFY(list->summary().contains(QStringLiteral("complete")));
}

void tst_MainWindow::aRestartedWalkShowsWhereItParts()
{
    // The demo's unstable-order: each walk shuffles the list its own way.
    ListView *list =
        m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy"),
                                QStringLiteral("--list"), QStringLiteral("tools=unstable-order")});
    QVERIFY(list);
    PageWalker *walker = list->model()->walker();
    list->loadAll();
    QTRY_VERIFY_WITH_TIMEOUT(walker->isComplete(), 10000);
    for (int row : walker->walkPageRows())
        QVERIFY(!list->strip()->chipLook(row).parts); // the first walk parts from nothing
    walker->restart(QStringLiteral("the user asked"));
    list->loadAll();
    QTRY_VERIFY_WITH_TIMEOUT(walker->isComplete(), 10000);
    QList<int> parted;
    for (int row : walker->walkPageRows()) {
        if (list->strip()->chipLook(row).parts)
            parted << row;
    }
    QCOMPARE(parted.size(), 1); // the first page where the walks part, only
    const int row = parted.first();
    // Said in words where the pointer rests, and to a screen reader.
    list->strip()->scrollTo(walker->ledger()->index(row, 0));
    const QRect chip = list->strip()->chipRect(row);
    QVERIFY(!chip.isEmpty());
    testsupport::askToolTip(*list->strip(), chip.center());
    QTRY_VERIFY(QToolTip::text().contains(QLatin1String("parts from the walk before")));
    QVERIFY2(QToolTip::text().contains(QLatin1String("walk 1")), qPrintable(QToolTip::text()));
    QVERIFY(
        list->strip()->pageAccessibleDescription(row).contains(QLatin1String("parts from the walk before")));
}

void tst_MainWindow::selectingAChipSelectsItsRows()
{
    ListView *list = walkedHealthyList();
    QVERIFY2(list, "the healthy demo's tools list did not open, or was not walked to its end in 10 s");
    const int third = list->model()->walker()->walkPageRows().at(2);
    const QRect chip = list->strip()->chipRect(third);
    QVERIFY(!chip.isEmpty());
    QTest::mouseClick(list->strip()->viewport(), Qt::LeftButton, {}, chip.center());
    QCOMPARE(list->strip()->currentPage(), third);
    const QModelIndexList rows = list->table()->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 20);
    QCOMPARE(rows.first().data(PagedListModel::PageRowRole).toInt(), third);
    QCOMPARE(list->table()->currentIndex().row(), 40);
    // The row pane shows the first row's item as a tree (made at the first selection).
    auto *tree = list->findChild<QTreeView *>(QStringLiteral("rowItemTree"));
    QVERIFY(tree);
    QTRY_VERIFY(tree->isVisible());
    const auto keys = [tree] {
        QStringList k;
        for (int r = 0; r < tree->model()->rowCount(); ++r)
            k.append(tree->model()->index(r, 0).data().toString());
        return k;
    };
    QVERIFY2(keys().contains(QStringLiteral("name")), qPrintable(keys().join(u',')));
    // And follows the row selected next; the palette changing on the way leaves it working.
    list->setPalette(QPalette(Qt::darkGray));
    list->table()->setCurrentIndex(list->table()->model()->index(3, 0));
    QVERIFY(keys().contains(QStringLiteral("name")));
    QVERIFY(tree->isVisible());
}

// One selection over the ledger: a chip moves the timeline's lane and the table's row, a table
// row moves the chip and the lane, a lane moves the chip; each only once (no echo back).
void tst_MainWindow::stripTimelineAndTableShareOneSelection()
{
    ListView *list = walkedHealthyList();
    QVERIFY2(list, "the healthy demo's tools list did not open, or was not walked to its end in 10 s");
    PageStrip *strip = list->strip();
    TimelineView *timeline = m_fixture.window()->timelineView();
    QCOMPARE(strip->selectionModel(), list->pageSelection());
    QCOMPARE(timeline->selectionModel(), list->pageSelection());
    QCOMPARE(list->pageSelection()->model(), list->model()->ledger());
    const QList<int> pages = list->model()->walker()->walkPageRows();
    QVERIFY(pages.size() >= 4);
    QSignalSpy stripMoves(strip, &PageStrip::currentPageChanged);
    QSignalSpy laneMoves(timeline, &TimelineView::currentPageChanged);
    QSignalSpy pageMoves(list->pageSelection(), &QItemSelectionModel::currentRowChanged);

    // A chip: the lane and the table's current row follow.
    QTest::mouseClick(strip->viewport(), Qt::LeftButton, {}, strip->chipRect(pages.at(2)).center());
    QCOMPARE(strip->currentPage(), pages.at(2));
    QCOMPARE(timeline->currentPage(), pages.at(2));
    QCOMPARE(list->pageSelection()->currentIndex().row(), pages.at(2));
    QCOMPARE(list->table()->currentIndex().data(PagedListModel::PageRowRole).toInt(), pages.at(2));
    QCOMPARE(list->inspector()->ledgerRow(), pages.at(2));
    QCOMPARE(pageMoves.count(), 1);
    QCOMPARE(stripMoves.count(), 1);
    QCOMPARE(laneMoves.count(), 1);

    // A table row on another page: the chip and the lane follow, the table keeps the row chosen.
    const QModelIndex row = list->table()->model()->index(25, 0); // page 2 (20 a page)
    list->table()->setCurrentIndex(row);
    QCOMPARE(row.data(PagedListModel::PageRowRole).toInt(), pages.at(1));
    QCOMPARE(strip->currentPage(), pages.at(1));
    QCOMPARE(timeline->currentPage(), pages.at(1));
    QCOMPARE(list->table()->currentIndex().row(), 25);
    QCOMPARE(list->inspector()->ledgerRow(), pages.at(1));
    QCOMPARE(pageMoves.count(), 2);
    // Another row of the same page moves nothing else.
    list->table()->setCurrentIndex(list->table()->model()->index(26, 0));
    QCOMPARE(pageMoves.count(), 2);
    QCOMPARE(strip->currentPage(), pages.at(1));

    // A lane: the chip and the table follow.
    timeline->setCurrentPage(pages.at(3));
    QCOMPARE(strip->currentPage(), pages.at(3));
    QCOMPARE(list->table()->currentIndex().data(PagedListModel::PageRowRole).toInt(), pages.at(3));
    QCOMPARE(list->table()->selectionModel()->selectedRows().size(), 20);
    QCOMPARE(pageMoves.count(), 3);
    QCOMPARE(stripMoves.count(), 3);
    QCOMPARE(laneMoves.count(), 3);
}

void tst_MainWindow::rowPaneHintsUntilARowIsSelected()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    QVERIFY(list);
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() >= 20, 10000);
    // Before any selection: a muted hint, and no tree made yet.
    QLabel *hint = nullptr;
    for (QLabel *label : list->findChildren<QLabel *>(QStringLiteral("emptyState"))) {
        if (label->text().contains(QStringLiteral("row")))
            hint = label;
    }
    QVERIFY(hint);
    QTRY_VERIFY(hint->isVisible());
    QVERIFY(!list->findChild<QTreeView *>(QStringLiteral("rowItemTree")));
    QVERIFY(hint->palette().color(QPalette::WindowText) != list->palette().color(QPalette::WindowText));
    list->table()->setCurrentIndex(list->table()->model()->index(0, 0));
    auto *tree = list->findChild<QTreeView *>(QStringLiteral("rowItemTree"));
    QVERIFY(tree);
    QTRY_VERIFY(tree->isVisible());
    QVERIFY(!hint->isVisible());

    // The item as raw JSON beside the tree, and Copy.
    const QJsonObject item = list->model()->item(0);
    auto *tabs = list->findChild<QTabWidget *>(QStringLiteral("rowItemTabs"));
    QVERIFY(tabs);
    tabs->setCurrentIndex(1);
    auto *raw = list->findChild<QPlainTextEdit *>(QStringLiteral("rowItemJson"));
    QTRY_VERIFY(raw->isVisible());
    QCOMPARE(QJsonDocument::fromJson(raw->toPlainText().toUtf8()).object(), item);
    list->table()->setCurrentIndex(list->table()->model()->index(1, 0)); // follows the row
    QCOMPARE(QJsonDocument::fromJson(raw->toPlainText().toUtf8()).object(), list->model()->item(1));
    QGuiApplication::clipboard()->clear();
    list->findChild<QToolButton *>(QStringLiteral("copyItem"))->click();
    QCOMPARE(QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object(),
             list->model()->item(1));

    // The table's context menu: the row's page can be inspected and its rows copied.
    QTimer::singleShot(0, this, [] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        QVERIFY(menu);
        QStringList texts;
        for (QAction *a : menu->actions())
            texts << a->text();
        QVERIFY2(texts.contains(QStringLiteral("Inspect Page 1")), qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(texts.contains(QStringLiteral("Refetch Page 1")));
        for (QAction *a : menu->actions()) {
            if (a->text() == QLatin1String("Copy Row as JSON"))
                a->trigger();
        }
        menu->close();
    });
    list->table()->selectionModel()->select(list->table()->model()->index(1, 0),
                                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QGuiApplication::clipboard()->clear();
    const QRect cell = list->table()->visualRect(list->table()->model()->index(1, 0));
    QMetaObject::invokeMethod(list->table(), "customContextMenuRequested", Q_ARG(QPoint, cell.center()));
    QCOMPARE(QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object(),
             list->model()->item(1));

    // Tab leaves the table (the arrows move within it).
    QVERIFY(!list->table()->tabKeyNavigation());
}

void tst_MainWindow::filteringKeepsWhatTheUserSees()
{
    ListView *list = walkedHealthyList();
    QVERIFY2(list, "the healthy demo's tools list did not open, or was not walked to its end in 10 s");
    QTableView *table = list->table();
    // Unfiltered, the table shows the model itself.
    QCOMPARE(table->model(), list->model());
    table->horizontalHeader()->resizeSection(0, 211);
    int channelRow = -1;
    for (int r = 0; r < table->model()->rowCount() && channelRow < 0; ++r) {
        if (table->model()->index(r, 0).data().toString() == QLatin1String("list_channels"))
            channelRow = r;
    }
    QVERIFY(channelRow >= 0);
    table->setCurrentIndex(table->model()->index(channelRow, 0));
    auto *filter = list->findChild<QLineEdit *>();
    QVERIFY(filter);

    QTest::keyClicks(filter, QStringLiteral("CHANNEL"));
    QVERIFY(table->model() != list->model());
    // The filter proxy, under the tester from the moment it goes in, through selection and clearing.
    QAbstractItemModelTester proxyTester(table->model(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Searched off the GUI thread once the typing pauses: the result comes a moment later.
    QTRY_VERIFY(table->model()->rowCount() < list->model()->rowCount());
    const int shown = table->model()->rowCount();
    QVERIFY(shown > 0);
    // Matched on each row's stored JSON, not only on the cells shown.
    for (int r = 0; r < shown; ++r) {
        const QByteArray item = table->model()->index(r, 0).data(PagedListModel::ItemJsonRole).toByteArray();
        QVERIFY2(item.toLower().contains("channel"), item.constData());
    }
    QTRY_COMPARE(list->summary().section(QStringLiteral(" · "), 0, 0),
                 QStringLiteral("%1 of %2 row(s)").arg(shown).arg(list->model()->rowCount()));
    // The column width, the current row and its selection survive the proxy going in.
    QCOMPARE(table->horizontalHeader()->sectionSize(0), 211);
    QCOMPARE(table->currentIndex().data().toString(), QStringLiteral("list_channels"));
    QVERIFY(table->selectionModel()->isRowSelected(table->currentIndex().row(), {}));
    // Selecting a filtered row still shows that row's item.
    table->setCurrentIndex(table->model()->index(0, 0));
    auto *tree = list->findChild<QTreeView *>(QStringLiteral("rowItemTree"));
    QVERIFY(tree);
    bool named = false;
    for (int r = 0; r < tree->model()->rowCount(); ++r) {
        if (tree->model()->index(r, 0).data().toString() == QLatin1String("name"))
            named = tree->model()->index(r, 1).data().toString().contains(
                table->model()->index(0, 0).data().toString());
    }
    QVERIFY(named);

    // A needle nothing holds: no row, and the summary says so.
    QTest::keyClicks(filter, QStringLiteral("zz-no-such-text"));
    QTRY_COMPARE(table->model()->rowCount(), 0);
    QTRY_VERIFY(
        list->summary().startsWith(QStringLiteral("0 of %1 row(s) · ").arg(list->model()->rowCount())));

    filter->clear(); // at once
    QCOMPARE(table->model()->rowCount(), list->model()->rowCount());
    QVERIFY(list->summary().startsWith(QStringLiteral("%1 row(s) · ").arg(list->model()->rowCount())));
}

// Pages that arrive while a filter is applied are matched as they come.
void tst_MainWindow::filteringMatchesRowsAsTheyArrive()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")},
                                            QStringLiteral("resources"));
    QVERIFY(list);
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() > 0, 10000);
    QTRY_VERIFY(!list->model()->walker()->isLoading());
    const int firstPage = list->model()->rowCount();
    auto *filter = list->findChild<QLineEdit *>();
    QVERIFY(filter);
    QTest::keyClicks(filter, QStringLiteral("Android"));
    QTableView *table = list->table();
    QTRY_VERIFY(!list->summary().contains(QStringLiteral("filtering")));
    const int before = table->model()->rowCount();
    QVERIFY(before > 0 && before <= firstPage);

    list->loadAll();
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->walker()->isComplete(), 10000);
    QTRY_VERIFY(table->model()->rowCount() > before);
    int want = 0;
    for (int r = 0; r < list->model()->rowCount(); ++r)
        want += list->model()->itemBytes(r).toLower().contains("android") ? 1 : 0;
    QTRY_COMPARE(table->model()->rowCount(), want);
    QTRY_VERIFY(list->summary().startsWith(
        QStringLiteral("%1 of %2 row(s)").arg(want).arg(list->model()->rowCount())));
}

void tst_MainWindow::ttlExpiresAndTheChipRepaints()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy"),
                                             QStringLiteral("--list"), QStringLiteral("tools=ttlMs=700")});
    QVERIFY(list);
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() >= 20, 10000);
    const int first = list->model()->walker()->walkPageRows().first();
    QCOMPARE(list->strip()->chipLook(first).bar, PageStrip::Bar::Fresh);
    const int paints = list->strip()->paintCount();
    QTRY_COMPARE_WITH_TIMEOUT(list->model()->ledger()->page(first).state, PageRecord::State::Expired, 5000);
    QCOMPARE(list->strip()->chipLook(first).bar, PageStrip::Bar::Expired);
    QTRY_VERIFY_WITH_TIMEOUT(list->strip()->paintCount() > paints, 5000);
    QCOMPARE(list->model()->data(list->model()->index(0, 0), PagedListModel::PageStateRole).toInt(),
             int(PageRecord::State::Expired));
}

void tst_MainWindow::cursorErrorShowsOnItsPage()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("error-mid-list")});
    QVERIFY(list);
    list->loadAll();
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->walker()->isStopped(), 10000);
    const QList<int> pages = list->model()->walker()->walkPageRows();
    QCOMPARE(pages.size(), 3);
    const PageStrip::ChipLook look = list->strip()->chipLook(pages.at(2));
    QCOMPARE(look.bar, PageStrip::Bar::Failed);
    QCOMPARE(look.countText, QStringLiteral("-32603"));
    QVERIFY(!look.badges.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture.window()->findingsPanel()->count() >= 1, 5000);
    // The findings dock, brought forward, lists them.
    m_fixture.window()->activateWindow();
    QTest::keyClick(m_fixture.window(), Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture.window()->findingsPanel()->findChild<QTreeWidget *>(), 5000);
    QTRY_VERIFY(m_fixture.window()->findingsPanel()->findChild<QTreeWidget *>()->topLevelItemCount() >= 1);
    list->selectPage(pages.at(2));
    QCOMPARE(list->strip()->currentPage(), pages.at(2));
    QCOMPARE(list->model()->rowCount(), 40); // the pages already read stay
}

// A list that changes every millisecond and says so, walked one tool a page: the walk starts over
// up to the restart cap, then stops with the last walk's pages and restart-cap-reached, which the
// Findings dock lists; it does not restart for ever.
void tst_MainWindow::aListThatNeverHoldsStillStops()
{
    ListView *list = m_fixture.openDemoList(
        {QStringLiteral("--era"), QStringLiteral("legacy"), QStringLiteral("--page-size"),
         QStringLiteral("1"), QStringLiteral("--list"), QStringLiteral("tools=list-changed,intervalMs=1")});
    QVERIFY(list);
    list->loadAll();
    PageWalker *walker = list->model()->walker();
    QTRY_VERIFY_WITH_TIMEOUT(walker->isStopped(), 30000);
    QCOMPARE(walker->currentWalk(), PageWalker::DefaultRestartCap);
    QVERIFY(walker->stopReason().contains(QStringLiteral("restart cap")));
    bool found = false;
    for (const Finding &f : walker->findings())
        found = found || f.id == FindingId::RestartCapReached;
    QVERIFY(found);
    QVERIFY(list->model()->rowCount() > 0); // the last walk's pages stay
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture.window()->findingsPanel()->count() >= 1, 5000);
    // The notifications go on; the walk stays stopped.
    QSignalSpy restarted(walker, &PageWalker::walkRestarted);
    QVERIFY(!restarted.wait(500));
}

// File > Export Report: the pages numbered from 1, and the raw request of the page that failed.
void tst_MainWindow::exportsAReport()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("error-mid-list")});
    QVERIFY(list);
    list->loadAll();
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->walker()->isStopped(), 10000);
    const QList<QAction *> actions = m_fixture.window()->findChildren<QAction *>();
    const auto action = std::find_if(actions.begin(), actions.end(), [](const QAction *a) {
        return a->text() == QStringLiteral("&Export Report…");
    });
    QVERIFY(action != actions.end());
    QVERIFY((*action)->isEnabled());
    QCOMPARE((*action)->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+E")));

    QTemporaryDir dir;
    QString error;
    const QString jsonPath = dir.filePath(QStringLiteral("demo-report.json"));
    QVERIFY2(m_fixture.window()->exportReport(jsonPath, &error), qPrintable(error));
    QFile jsonFile(jsonPath);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    const QJsonObject report = QJsonDocument::fromJson(jsonFile.readAll()).object();
    QCOMPARE(
        report.value(QStringLiteral("server")).toObject().value(QStringLiteral("demoScenario")).toString(),
        QStringLiteral("error-mid-list"));
    QJsonArray pages;
    for (const QJsonValue &l : report.value(QStringLiteral("lists")).toArray()) {
        if (l.toObject().value(QStringLiteral("list")).toString() == QLatin1String("tools"))
            pages = l.toObject().value(QStringLiteral("pages")).toArray();
    }
    QCOMPARE(pages.size(), 3);
    for (int i = 0; i < pages.size(); ++i)
        QCOMPARE(pages.at(i).toObject().value(QStringLiteral("page")).toInt(), i + 1); // as the window says
    const QJsonObject failed = pages.at(2).toObject();
    QCOMPARE(failed.value(QStringLiteral("state")).toString(), QStringLiteral("failed"));
    const QString cursor = failed.value(QStringLiteral("cursor")).toString();
    QVERIFY(!cursor.isEmpty());
    const QJsonObject attempt = failed.value(QStringLiteral("attempts")).toArray().first().toObject();
    const QJsonObject request =
        attempt.value(QStringLiteral("request")).toObject().value(QStringLiteral("message")).toObject();
    QCOMPARE(request.value(QStringLiteral("method")).toString(), QStringLiteral("tools/list"));
    QCOMPARE(request.value(QStringLiteral("params")).toObject().value(QStringLiteral("cursor")).toString(),
             cursor);
    QCOMPARE(testsupport::jsonAt(attempt, {"response", "message", "error", "code"}).toInt(), -32603);

    // The HTML a person opens: Page 3's card holds that request, unfolded.
    const QString htmlPath = dir.filePath(QStringLiteral("demo-report.html"));
    QVERIFY2(m_fixture.window()->exportReport(htmlPath, &error), qPrintable(error));
    QFile htmlFile(htmlPath);
    QVERIFY(htmlFile.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(htmlFile.readAll());
    QVERIFY(html.contains(QStringLiteral("<h3>Page 1 ")));
    const qsizetype card = html.indexOf(QStringLiteral("<h3>Page 3 "));
    QVERIFY(card > 0);
    const QString rest = html.mid(card, html.indexOf(QStringLiteral("</article>"), card) - card);
    QVERIFY(rest.contains(QStringLiteral("<details open><summary>Raw request")));
    QVERIFY(rest.contains(QStringLiteral("&quot;cursor&quot;: &quot;%1&quot;").arg(cursor)));
    QVERIFY(rest.contains(QStringLiteral("-32603")));
    QVERIFY(html.contains(QStringLiteral("No audit was run for this report")));

    // Once the window has audited the server, the report carries that audit.
    m_fixture.window()->activateWindow();
    QTest::keyClick(m_fixture.window(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
    ServerSession *audited0 = m_fixture.serverView()->session();
    QTRY_VERIFY_WITH_TIMEOUT(audited0->hasAuditResult() && !audited0->isAuditing(), 60000);
    QVERIFY2(m_fixture.window()->exportReport(jsonPath, &error), qPrintable(error));
    jsonFile.close();
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    const QJsonObject audited = QJsonDocument::fromJson(jsonFile.readAll()).object();
    QVERIFY(audited.value(QStringLiteral("audit")).toObject().contains(QStringLiteral("lists")));
    QCOMPARE(audited.value(QStringLiteral("summary")).toObject().value(QStringLiteral("audited")).toBool(),
             true);
}

void tst_MainWindow::savesTheSnapshotTheCommandLineTakes()
{
    const QStringList demo{QStringLiteral("--scenario"), QStringLiteral("healthy"), QStringLiteral("--list"),
                           QStringLiteral("tools=ttlMs=60000,cacheScope=private")};
    QVERIFY(m_fixture.openDemoList(demo));
    SessionFiles *files = m_fixture.window()->sessionFiles();
    QAction *action = files->saveSnapshotAction();
    QVERIFY(action->isEnabled());
    QVERIFY(m_fixture.window()->findChildren<QAction *>().contains(action));

    QTemporaryDir dir;
    // Cancelled at once: no file, and why.
    QSignalSpy finished(files, &SessionFiles::snapshotFinished);
    const QString cancelled = dir.filePath(QStringLiteral("cancelled.json"));
    QString error;
    QVERIFY2(files->saveSnapshot(cancelled, &error), qPrintable(error));
    QVERIFY(!action->isEnabled()); // one at a time
    QVERIFY(!files->saveSnapshot(cancelled, &error));
    files->cancelSnapshot();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
    QCOMPARE(finished.constLast().at(1).toString(), QStringLiteral("cancelled"));
    QVERIFY(!QFile::exists(cancelled));
    QVERIFY(action->isEnabled());

    // Taken: the same file as `folio snapshot` writes for the same server, but for the two fields
    // that differ between any two takes.
    const QString window = dir.filePath(QStringLiteral("window.json"));
    QVERIFY2(files->saveSnapshot(window, &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 60000);
    QCOMPARE(finished.constLast().at(1).toString(), QString());
    const QStringList snapshot{QStringLiteral("snapshot"), QStringLiteral("-o"),
                               dir.filePath(QStringLiteral("cli.json")), QStringLiteral("--"),
                               fixtureprocess::demoServer};
    const fixtureprocess::Run cli = fixtureprocess::folio(snapshot + demo);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.describe()));
    const auto comparable = [](const QString &path) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return QJsonObject();
        QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
        for (const QString &field : Snapshot::varyingFields())
            o.remove(field);
        return o;
    };
    const QJsonObject fromWindow = comparable(window);
    QVERIFY(!fromWindow.isEmpty());
    // 4 lists, 3 list tools, skills
    QCOMPARE(fromWindow.value(QStringLiteral("lists")).toArray().size(), 8);
    QCOMPARE(fromWindow, comparable(dir.filePath(QStringLiteral("cli.json"))));
}

void tst_MainWindow::definitionDriftIsCaughtOnConnect()
{
    // A saved server walked to its end on connect: the first connect pins its definitions, a later
    // one with other definitions (the demo server's second version under the same name) is drift.
    const QString name = QStringLiteral("drifting");
    ServerSession *s = m_fixture.openSavedDemo(name, QStringLiteral("drift-v1"));
    QVERIFY(s);
    QSignalSpy checked(s, &ServerSession::driftChecked);
    QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 1, 30000);
    QVERIFY(!s->hasDrift());
    QVERIFY(QFile::exists(DefinitionBaseline::path(name)));
    auto *serverActions = m_fixture.window()->findChild<ServerListActions *>();
    QVERIFY(serverActions);
    QAction *trust = serverActions->trustAction();
    QCOMPARE(trust->text(), QStringLiteral("&Trust Current Definitions…"));
    QVERIFY(!trust->isEnabled());

    m_fixture.reconnectAs(QStringLiteral("drift-v2"));
    QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 2, 30000);
    QVERIFY(s->hasDrift());
    const auto drift = [s](const QString &listId) {
        QList<Finding> found;
        for (const Finding &f : s->findings(listId)) {
            if (f.id == FindingId::DefinitionChanged)
                found.append(f);
        }
        return found;
    };
    const auto has = [](const QList<Finding> &findings, Finding::Severity severity, const QString &text) {
        return std::any_of(findings.cbegin(), findings.cend(), [&](const Finding &f) {
            return f.severity == severity && f.source == Finding::Source::Baseline &&
                   f.message.contains(text);
        });
    };
    const QList<Finding> tools = drift(QStringLiteral("tools"));
    QVERIFY2(has(tools, Finding::Severity::Error, QStringLiteral("create_post")),
             qPrintable(tools.value(0).message));
    QVERIFY(has(tools, Finding::Severity::Warning, QStringLiteral("get_team")));
    QVERIFY(has(tools, Finding::Severity::Info, QStringLiteral("export_channel")));
    QVERIFY(has(drift(QStringLiteral("prompts")), Finding::Severity::Error, QStringLiteral("weekly_digest")));
    // Paging and caching are not definitions: the resources list's changes are the diff's, not drift.
    QVERIFY(drift(QStringLiteral("resources")).isEmpty());
    // On the server's entry and in the Findings dock, found by the baseline.
    QCOMPARE(m_fixture.servers()->data(m_fixture.servers()->index(0), ServerListModel::SeverityRole).toInt(),
             int(Finding::Severity::Error));
    FindingsPanel *panel = m_fixture.window()->findingsPanel();
    m_fixture.window()->activateWindow();
    QTest::keyClick(m_fixture.window(), Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
    QTRY_VERIFY_WITH_TIMEOUT(panel->tree() && panel->tree()->isVisible(), 5000);
    QTRY_VERIFY(!panel->tree()->findItems(QStringLiteral("baseline"), Qt::MatchExactly, 4).isEmpty());
    // A zoom (or a theme) sets another font: the columns are fitted again, "warning" not elided.
    QTreeWidget *tree = panel->tree();
    const auto fits = [tree] {
        return tree->columnWidth(0) >
               tree->fontMetrics().horizontalAdvance(QStringLiteral("warning")) + tree->iconSize().width();
    };
    QVERIFY(fits());
    const int narrower = tree->columnWidth(0);
    const QFont before = QApplication::font();
    QFont larger = before;
    larger.setPointSizeF(before.pointSizeF() * 1.6);
    QApplication::setFont(larger);
    QTRY_VERIFY(tree->columnWidth(0) > narrower);
    QVERIFY(fits());
    QApplication::setFont(before);

    QTRY_VERIFY(trust->isEnabled());
    serverActions->trustDefinitions(/*confirm=*/false);
    QVERIFY(!s->hasDrift());
    QVERIFY(drift(QStringLiteral("tools")).isEmpty());
    QVERIFY(!trust->isEnabled());
    s->disconnectFromServer();
    s->connectToServer();
    QTRY_COMPARE_WITH_TIMEOUT(checked.size(), 4, 30000); // trusting counts as a check
    QVERIFY(!s->hasDrift());

    // Removing the server forgets what it was trusted with.
    m_fixture.servers()->removeServer(0);
    QVERIFY(!QFile::exists(DefinitionBaseline::path(name)));
}

void tst_MainWindow::connectsAreKeptAsSnapshots()
{
    // A saved server walked to its end on connect keeps a snapshot of each connect, the newest few.
    ServerHistory::setKeep(2);
    const QString name = QStringLiteral("remembered");
    ServerSession *s = m_fixture.openSavedDemo(name, QStringLiteral("drift-v1"));
    QVERIFY(s);
    QSignalSpy recorded(s, &ServerSession::historyRecorded);
    QTRY_COMPARE_WITH_TIMEOUT(recorded.size(), 1, 30000);
    for (int connects = 2; connects <= 3; ++connects) {
        s->disconnectFromServer();
        s->connectToServer();
        QTRY_COMPARE_WITH_TIMEOUT(recorded.size(), connects, 30000);
    }
    const QList<ServerHistory::Entry> kept = ServerHistory::entries(name);
    QCOMPARE(kept.size(), 2);
    QCOMPARE(kept.constFirst().path, recorded.constLast().at(0).toString());
    QVERIFY(kept.at(0).takenAtMs >= kept.at(1).takenAtMs);
    QString error;
    const std::optional<Snapshot> newest = Snapshot::load(kept.constFirst().path, &error);
    QVERIFY2(newest, qPrintable(error));
    QStringList ids;
    for (const Snapshot::List &l : newest->lists) {
        ids.append(l.id);
        if (!l.id.startsWith(QLatin1String("tool:")))
            QVERIFY2(l.complete, qPrintable(l.id + QLatin1String(": ") + l.stopReason));
    }
    for (const QString &id : {QStringLiteral("tools"), QStringLiteral("prompts"), QStringLiteral("resources"),
                              QStringLiteral("templates")})
        QVERIFY2(ids.contains(id), qPrintable(ids.join(QLatin1Char(','))));
    // Keeping none keeps nothing new; removing the server forgets its snapshots.
    ServerHistory::setKeep(0);
    s->disconnectFromServer();
    s->connectToServer();
    QTRY_COMPARE_WITH_TIMEOUT(s->state(), ClientState::Connected, 30000);
    QCOMPARE(ServerHistory::entries(name).size(), 2);
    ServerHistory::setKeep(ServerHistory::DefaultKeep);
    m_fixture.servers()->removeServer(0);
    QVERIFY(!QDir(ServerHistory::folder(name)).exists());

    // A write under way when the server goes (the snapshots are written on a thread of their
    // own) does not bring its folder back: forget() waits for it.
    bool answered = false;
    QObject context;
    ServerHistory::addLater(name, *newest, {}, 3, &context,
                            [&answered](bool, const QString &, const QString &) { answered = true; });
    ServerHistory::forget(name);
    QVERIFY(!QDir(ServerHistory::folder(name)).exists());
    QTRY_VERIFY(answered);
    QVERIFY(!QDir(ServerHistory::folder(name)).exists());
}

void tst_MainWindow::trafficIsLogged()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    QVERIFY(list);
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() >= 20, 10000);
    // Tabbed behind the timeline, the traffic view has made nothing yet; Ctrl+T brings it forward
    // (rather than closing it) and it shows what was exchanged so far.
    TrafficView *view = m_fixture.window()->trafficView();
    QVERIFY(!view->findChild<QTableView *>());
    m_fixture.window()->activateWindow();
    QTest::keyClick(m_fixture.window(), Qt::Key_T, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(view->findChild<QTableView *>(), 5000);
    QVERIFY(!view->visibleRegion().isEmpty());
    QAbstractItemModel *traffic = view->table()->model();
    // The traffic filter proxy over a live session: rows arrive while it filters.
    QAbstractItemModelTester trafficTester(traffic, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_VERIFY_WITH_TIMEOUT(traffic->rowCount() >= 4, 5000); // discover, tools/list pages...
    // Once in front, Ctrl+T closes it.
    QTest::keyClick(m_fixture.window(), Qt::Key_T, Qt::ControlModifier);
    QTRY_VERIFY(!view->isVisible());
}

void tst_MainWindow::auditFromTheWindow()
{
    // Run the audit and see its findings in the dock: the tour's templates loop, found by the
    // audit on a list the window never opened, joins the Findings dock marked as the audit's, and
    // leads to its page; the audit runs in a dock that leaves the page in view.
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("tour")});
    QVERIFY(list);
    ServerSession *session = m_fixture.serverView()->session();
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->walker()->isComplete(), 10000);
    QVERIFY(!session->existingModel(QStringLiteral("templates"))); // walked on demand only
    const int before = session->findingCount();
    // Connected, the panel no longer asks to connect first (it followed the connection).
    QVERIFY2(!m_fixture.window()->auditPanel()->statusText().contains(
                 QLatin1String("Connect to the server first")),
             qPrintable(m_fixture.window()->auditPanel()->statusText()));
    QVERIFY(m_fixture.window()->auditPanel()->runButton()->isEnabled());
    m_fixture.window()->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_fixture.window()));
    QTest::keyClick(m_fixture.window(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier);
    AuditPanel *audit = m_fixture.window()->auditPanel();
    QVERIFY(!m_fixture.window()->findChild<QDialog *>()); // no window over the page
    QTRY_VERIFY(m_fixture.window()->auditDock()->isVisible() &&
                !m_fixture.window()->auditDock()->visibleRegion().isEmpty());
    QVERIFY(audit->isRunning());
    QVERIFY(!audit->runButton()->isEnabled());
    QVERIFY(audit->cancelButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!audit->isRunning(), 60000);
    // tour: the templates list loops and list_channels accepts a foreign cursor.
    QVERIFY(audit->findingCount() >= 2);
    QVERIFY(audit->tree()->topLevelItemCount() > 0);
    QVERIFY(audit->runButton()->isEnabled());
    QCOMPARE(audit->runButton()->text(), QStringLiteral("Run again"));

    // The audit's findings are the session's: the dock's title, the sidebar and the tabs count them.
    const int after = session->findingCount();
    QVERIFY2(after > before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
    QCOMPARE(m_fixture.window()->findingsDock()->windowTitle(), QStringLiteral("Findings (%1)").arg(after));
    QCOMPARE(m_fixture.servers()->index(0).data(ServerListModel::FindingCountRole).toInt(), after);
    QCOMPARE(Finding::Severity(m_fixture.servers()->index(0).data(ServerListModel::SeverityRole).toInt()),
             Finding::Severity::Error);
    auto *tabs = m_fixture.serverView()->findChild<QTabWidget *>();
    const int templatesTab = int(m_fixture.serverView()->listIds().indexOf(QStringLiteral("templates")));
    QVERIFY(templatesTab >= 0);
    QVERIFY(tabs->tabText(templatesTab).startsWith(QLatin1String("templates (")));
    QVERIFY(!tabs->tabIcon(templatesTab).isNull());

    // In the Findings dock, marked as from the audit.
    m_fixture.window()->findingsDock()->raise();
    QTRY_VERIFY(m_fixture.window()->findingsPanel()->tree() &&
                m_fixture.window()->findingsPanel()->tree()->isVisible());
    QTreeWidget *tree = m_fixture.window()->findingsPanel()->tree();
    QTRY_COMPARE(tree->topLevelItemCount(), after);
    QTreeWidgetItem *loop = nullptr;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = tree->topLevelItem(i);
        if (item->text(FindingsPanel::IdColumn) == QLatin1String("cursor-repeated") &&
            item->text(FindingsPanel::ListColumn) == QLatin1String("templates"))
            loop = item;
    }
    QVERIFY(loop);
    QCOMPARE(loop->text(FindingsPanel::SourceColumn), QStringLiteral("audit"));
    const int loopPage = loop->text(FindingsPanel::PageColumn).toInt(); // numbered from 1
    QVERIFY(loopPage >= 2);

    // Activating it opens templates at that page (walked now), with the audit dock beside it.
    Q_EMIT tree->itemActivated(loop, 0);
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture.window()->currentList() &&
                                 m_fixture.window()->currentList()->listId() == QLatin1String("templates"),
                             5000);
    ListView *templates = m_fixture.window()->currentList();
    QTRY_VERIFY_WITH_TIMEOUT(templates->model()->walker()->pagesInWalk() >= loopPage &&
                                 templates->strip()->currentPage() ==
                                     templates->model()->walker()->walkPageRows().value(loopPage - 1),
                             10000);
    QVERIFY(templates->strip()->isVisible());
    const QRect strip(templates->strip()->mapTo(m_fixture.window(), QPoint(0, 0)),
                      templates->strip()->size());
    const QRect dock(m_fixture.window()->auditDock()->mapTo(m_fixture.window(), QPoint(0, 0)),
                     m_fixture.window()->auditDock()->size());
    QVERIFY(!strip.intersects(dock));

    // Once the window's walk has found the loop too, it is counted once: the walk's copy stays.
    QTRY_VERIFY_WITH_TIMEOUT(templates->model()->walker()->isStopped(), 10000);
    const QList<Finding> found = session->findings(QStringLiteral("templates"));
    const auto loops = std::count_if(found.begin(), found.end(), [](const Finding &f) {
        return f.id == QLatin1String("cursor-repeated");
    });
    QCOMPARE(loops, 1);
    QCOMPARE(std::find_if(found.begin(), found.end(),
                          [](const Finding &f) { return f.id == QLatin1String("cursor-repeated"); })
                 ->source,
             Finding::Source::Walk);
    QCOMPARE(session->findingCount(), after);

    // The audit's own tree still leads to a page.
    QSignalSpy requested(audit, &AuditPanel::pageRequested);
    Q_EMIT audit->pageRequested(QStringLiteral("tools"), 0);
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture.window()->currentList() &&
                                 m_fixture.window()->currentList()->listId() == QLatin1String("tools"),
                             5000);
}

void tst_MainWindow::removingAServerAsksFirst()
{
    ServerConfig c;
    c.name = QStringLiteral("files");
    c.command = QStringLiteral("npx");
    m_fixture.makeServers()->addServer(c);
    m_fixture.showWindow(QSize()); // at the size it opens
    // Del on the server list asks; Cancel (the default, and Escape) keeps the server.
    auto answer = [](bool removeIt) {
        QTimer::singleShot(0, [removeIt] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            QVERIFY(box);
            QCOMPARE(box->objectName(), QStringLiteral("confirmRemove"));
            QVERIFY(box->text().contains(QStringLiteral("files")));
            QCOMPARE(static_cast<QAbstractButton *>(box->defaultButton()), box->button(QMessageBox::Cancel));
            if (removeIt) {
                for (QAbstractButton *b : box->buttons()) {
                    if (box->buttonRole(b) == QMessageBox::DestructiveRole)
                        b->click();
                }
            } else {
                QTest::keyClick(box, Qt::Key_Escape);
            }
        });
    };
    auto *list = m_fixture.window()->findChild<QListView *>();
    QVERIFY(list);
    m_fixture.window()->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_fixture.window())); // a shortcut goes to the active window's focus
    list->setFocus();
    answer(false);
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(m_fixture.servers()->rowCount(), 1);
    QAction *remove = nullptr; // Server > Remove, as the menu would
    for (QAction *a : list->actions()) {
        if (a->text() == QLatin1String("&Remove"))
            remove = a;
    }
    QVERIFY(remove);
    answer(true);
    remove->trigger();
    QCOMPARE(m_fixture.servers()->rowCount(), 0);
}

void tst_MainWindow::longTextsNeverWidenTheWindow()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    QVERIFY(list);
    m_fixture.window()->resize(900, 600);
    QTRY_COMPARE(m_fixture.window()->width(), 900);
    // A server's error can be kilobytes of stderr: one elided line, all of it on hover and in Copy.
    const QString longText = QStringLiteral("error: ") + QString(4000, QLatin1Char('x')) +
                             QStringLiteral("\n    at Object.<anonymous> (/srv/index.js:1:1)");
    auto *message = m_fixture.window()->findChild<ElidedLabel *>(QStringLiteral("statusMessage"));
    QVERIFY(message);
    message->setText(longText);
    QApplication::processEvents();
    QVERIFY(m_fixture.window()->minimumSizeHint().width() < 900);
    QCOMPARE(m_fixture.window()->width(), 900);
    QVERIFY(message->isElided());
    QVERIFY(message->toolTip().contains(QStringLiteral("/srv/index.js")));
    // What a list's walk says (a page's error from the server can be long) elides the same way.
    auto *summary = list->findChild<ElidedLabel *>(QStringLiteral("listSummary"));
    QVERIFY(summary);
    QVERIFY(!summary->text().isEmpty());
    // The two status texts sit side by side, never on top of each other.
    auto *state = m_fixture.window()->findChild<ElidedLabel *>(QStringLiteral("serverStatus"));
    QVERIFY(state);
    QVERIFY(!message->geometry().intersects(state->geometry()));
    QVERIFY(message->geometry().right() < state->geometry().left());
    // Saved no larger than its screen.
    m_fixture.window()->resize(20000, 20000);
    QApplication::processEvents();
    m_fixture.window()->close();
    QSettings settings;
    MainWindow again(m_fixture.servers(), m_fixture.secrets());
    const QRect screen = again.screen()->availableGeometry();
    QVERIFY2(again.width() <= screen.width() && again.height() <= screen.height(),
             qPrintable(QStringLiteral("%1x%2 on %3x%4")
                            .arg(again.width())
                            .arg(again.height())
                            .arg(screen.width())
                            .arg(screen.height())));
}

void tst_MainWindow::helpListsTheKeyboardShortcuts()
{
    m_fixture.openDemo({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    QAction *help = nullptr;
    for (QAction *menu : m_fixture.window()->menuBar()->actions()) {
        for (QAction *a : menu->menu() ? menu->menu()->actions() : QList<QAction *>()) {
            if (a->text() == QLatin1String("&Keyboard Shortcuts"))
                help = a;
        }
    }
    QVERIFY(help);
    QCOMPARE(help->shortcut(), QKeySequence(QKeySequence::HelpContents));
    help->trigger();
    ShortcutsDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_fixture.window()->findChild<ShortcutsDialog *>()));
    // Read from the menus: each action with keys under its menu, and the page views' keys.
    QHash<QString, QString> keys;
    QStringList groups;
    for (int i = 0; i < dialog->tree()->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *group = dialog->tree()->topLevelItem(i);
        groups << group->text(0);
        for (int j = 0; j < group->childCount(); ++j)
            keys.insert(group->child(j)->text(0), group->child(j)->text(1));
    }
    QVERIFY2(groups.contains(QStringLiteral("List")), qPrintable(groups.join(u',')));
    QVERIFY(groups.contains(QStringLiteral("Page strip and timeline")));
    QVERIFY2(keys.values().contains(QStringLiteral("Ctrl+L")), qPrintable(keys.values().join(u',')));
    QVERIFY(keys.values().contains(QStringLiteral("F5")));
    QVERIFY(keys.value(QStringLiteral("Keyboard Shortcuts")) ==
            QKeySequence(QKeySequence::HelpContents).toString(QKeySequence::NativeText));
    for (const QString &what : keys.keys())
        QVERIFY2(!what.contains(QLatin1Char('&')), qPrintable(what));
    dialog->close();
}

void tst_MainWindow::noTabOfAnyScenarioWidensTheWindow_data()
{
    // Every scenario the demo server has, as its help lists them.
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QSize>("size");
    QProcess help;
    help.start(QStringLiteral(FOLIO_DEMO_SERVER), {QStringLiteral("--help")});
    QVERIFY(help.waitForFinished(10000));
    const QString text = QString::fromUtf8(help.readAllStandardOutput());
    const qsizetype from = text.indexOf(QLatin1String("Scenarios ("));
    const qsizetype to = text.indexOf(QLatin1String("Behaviours ("));
    QVERIFY(from > 0 && to > from);
    static const QRegularExpression name(QStringLiteral("^  ([a-z][a-z-]+) "),
                                         QRegularExpression::MultilineOption);
    for (auto it = name.globalMatch(text.mid(from, to - from)); it.hasNext();) {
        const QString scenario = it.next().captured(1);
        // A small laptop's window and a large one.
        for (const QSize size : {QSize(1024, 640), QSize(1600, 1000)})
            QTest::addRow("%s@%dx%d", qPrintable(scenario), size.width(), size.height()) << scenario << size;
    }
}

void tst_MainWindow::noTabOfAnyScenarioWidensTheWindow()
{
    // A small screen's window (1024x640) and a large one (1600x1000): no tab of any demo scenario, with what
    // its first pages say (errors, loops, long tool arguments), may make it wider.
    QFETCH(QString, scenario);
    QFETCH(QSize, size);
    const QSize small = size;
    // As a user's first start: every list walked on connect (earlier tests may have chosen less).
    QSettings().setValue(SettingsKey::WalkOnConnect, int(ServerSession::WalkOnConnect::Whole));
    ServerView *view = m_fixture.openDemo({QStringLiteral("--scenario"), scenario}, small);
    QVERIFY(view);
    QTRY_VERIFY_WITH_TIMEOUT(!view->listIds().isEmpty(), 10000);
    for (const QString &id : view->listIds()) {
        if (id == ServerSession::ReadsId || id == ServerSession::TasksId) {
            view->showList(id);
        } else {
            ListView *list = m_fixture.showList(id);
            QVERIFY2(list, qPrintable(id));
            // Until its first page is in, failed or still asked for after a moment.
            (void)QTest::qWaitFor([list] { return list->strip()->chipCount() > 0; }, 3000);
            // The tool row's words show beside their icons in a large window (a narrow one:
            // presentationZoomsAndShowsTheLegend).
            auto *restart = list->findChild<QToolButton *>(QStringLiteral("restartButton"));
            QVERIFY(restart && !restart->icon().isNull());
            if (small.width() >= 1200)
                QCOMPARE(restart->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);
        }
        QApplication::processEvents();
        QVERIFY2(m_fixture.window()->width() <= small.width() &&
                     m_fixture.window()->minimumSizeHint().width() <= small.width(),
                 qPrintable(QStringLiteral("%1, tab %2: window %3 px, at least %4 px")
                                .arg(scenario, id)
                                .arg(m_fixture.window()->width())
                                .arg(m_fixture.window()->minimumSizeHint().width())));
    }
}

void tst_MainWindow::aHealthyDemoHasNoFindings()
{
    // Every list of the healthy demo walked to its end: nothing to find. search_posts wants a
    // channel or a query, which the user has not given: its tab waits for them and says so, with
    // no finding (Folio's question lacked them; the server did nothing wrong).
    QSettings().setValue(SettingsKey::WalkOnConnect, int(ServerSession::WalkOnConnect::Whole));
    ServerView *view = m_fixture.openDemo({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    QVERIFY(view);
    QTRY_VERIFY_WITH_TIMEOUT(view->listIds().contains(QStringLiteral("tool:search_posts")), 10000);
    for (const QString &id : view->listIds()) {
        if (id == ServerSession::ReadsId || id == ServerSession::TasksId)
            continue;
        ListView *list = m_fixture.showList(id);
        QVERIFY2(list, qPrintable(id));
        PageWalker *walker = list->model()->walker();
        QTRY_VERIFY2_WITH_TIMEOUT(walker->isStarted() && !walker->isLoading() &&
                                      (walker->isComplete() || walker->isStopped() || walker->canFetchNext()),
                                  qPrintable(id), 10000);
        if (walker->canFetchNext()) {
            list->loadAll();
            QTRY_VERIFY2_WITH_TIMEOUT(walker->isComplete() || walker->isStopped(), qPrintable(id), 10000);
        }
        const QList<Finding> findings = view->session()->findings(id);
        // (The message is built whether or not the check fails.)
        QVERIFY2(findings.isEmpty(), qPrintable(id + QStringLiteral(": ") +
                                                (findings.isEmpty() ? QString() : findings.first().message)));
        if (id == QStringLiteral("tool:search_posts")) {
            QVERIFY(walker->needsArguments());
            QVERIFY2(list->summary().startsWith(QStringLiteral("Needs arguments: give a channel")),
                     qPrintable(list->summary()));
        } else {
            QVERIFY2(walker->isComplete(), qPrintable(id + QStringLiteral(": ") + walker->stopReason()));
        }
    }
    // The empty findings say what the silence means: every page read was judged.
    FindingsPanel *findings = m_fixture.window()->findingsPanel();
    m_fixture.window()->findingsDock()->show();
    m_fixture.window()->findingsDock()->raise();
    QTRY_VERIFY(findings->emptyText().startsWith(
        QStringLiteral("No findings \u2014 every page read so far was judged")));
}

void tst_MainWindow::theEvidenceGetsTheRoom()
{
    // At 1360x860, the tour's templates loop: the list opens on its finding's page, and the
    // inspector shows that page's cursors, hints and finding without a scroll.
    QSettings().setValue(SettingsKey::WalkOnConnect, int(ServerSession::WalkOnConnect::Whole));
    ServerView *view =
        m_fixture.openDemo({QStringLiteral("--scenario"), QStringLiteral("tour")}, QSize(1360, 860));
    QVERIFY(view);
    ListView *list = m_fixture.showList(QStringLiteral("templates"));
    QVERIFY(list);
    PageWalker *walker = list->model()->walker();
    QTRY_VERIFY_WITH_TIMEOUT(walker->isStopped(), 10000);
    QVERIFY(!walker->findings().isEmpty());
    QTRY_COMPARE(list->strip()->currentPage(), walker->walkPageRows().last()); // the loop's page
    PageInspector *inspector = list->inspector();
    auto *scroll = inspector->findChild<QScrollArea *>();
    QVERIFY(scroll);
    QTRY_VERIFY(scroll->isVisible());
    for (const char *name : {"nextCursorRaw", "ttl", "scope", "findings"}) {
        auto *part = inspector->findChild<QWidget *>(QString::fromLatin1(name));
        QVERIFY2(part && part->isVisible(), name);
        QTRY_VERIFY2(scroll->viewport()->rect().contains(
                         QRect(part->mapTo(scroll->viewport(), QPoint(0, 0)), part->size())),
                     name);
    }
}

void tst_MainWindow::findAnything()
{
    // Ctrl+K over the window: an item of a loaded list, an action, a finding.
    ListView *tools = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("tour")},
                                             QStringLiteral("tools"), ServerSession::WalkOnConnect::Whole);
    QVERIFY(tools);
    QTRY_VERIFY_WITH_TIMEOUT(tools->model()->walker()->isComplete(), 10000);
    ServerSession *session = m_fixture.serverView()->session();
    QTRY_VERIFY_WITH_TIMEOUT(!session->findings(QStringLiteral("templates")).isEmpty(), 10000);
    MainWindow *window = m_fixture.window();
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window));
    QTest::keyClick(window, Qt::Key_K, Qt::ControlModifier);
    CommandPalette *palette = window->commandPalette();
    QVERIFY(palette);
    QTRY_VERIFY(palette->isVisible());
    QVERIFY(palette->geometry().width() <= window->geometry().width());

    QTest::keyClicks(palette->field(), QStringLiteral("delete_bookmark"));
    QCOMPARE(palette->shownTexts().value(0), QStringLiteral("delete_bookmark"));
    QTest::keyClick(palette->field(), Qt::Key_Return);
    QVERIFY(!palette->isVisible());
    const QModelIndex current = tools->table()->currentIndex();
    QVERIFY(current.isValid());
    QCOMPARE(current.siblingAtColumn(0).data().toString(), QStringLiteral("delete_bookmark"));

    // The menus' actions, by their path; the walk's finding, which opens its page.
    window->openPalette();
    QTest::keyClicks(palette->field(), QStringLiteral("keyboard shortcuts"));
    QVERIFY2(palette->shownTexts().value(0).endsWith(QStringLiteral("Keyboard Shortcuts")),
             qPrintable(palette->shownTexts().join(QLatin1Char('|'))));
    palette->field()->setText(QStringLiteral("cursor-repeated"));
    QVERIFY(!palette->shownTexts().isEmpty());
    QVERIFY(palette->shownTexts().first().startsWith(QStringLiteral("cursor-repeated: ")));
    QTest::keyClick(palette->field(), Qt::Key_Return);
    ListView *templates = m_fixture.serverView()->listView(QStringLiteral("templates"));
    QVERIFY(templates);
    QTRY_COMPARE(templates->strip()->currentPage(), templates->model()->walker()->walkPageRows().last());
    QTest::keyClick(window, Qt::Key_K, Qt::ControlModifier);
    QTRY_VERIFY(palette->isVisible());
    QTest::keyClick(palette, Qt::Key_Escape);
    QVERIFY(!palette->isVisible());
}

void tst_MainWindow::helpSaysWhatIsOnScreen()
{
    m_fixture.makeServers();
    MainWindow *window = m_fixture.showWindow();
    auto *guide = window->findChild<QAction *>(QStringLiteral("guideAction"));
    QVERIFY(guide);
    QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::WhatsThis));
    guide->trigger();
    GuideDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = window->findChild<GuideDialog *>()) && dialog->isVisible());
    const QString text = dialog->text()->toPlainText();
    for (const char *part :
         {"The page strip", "The inspector", "The timeline", "Findings", "The server list"})
        QVERIFY2(text.contains(QLatin1String(part)), part);
    auto *legend = dialog->findChild<LegendBar *>();
    QVERIFY(legend);
    // A narrow legend wraps its entries onto more lines instead of leaving the last out.
    QVERIFY(legend->hasHeightForWidth());
    QVERIFY(legend->heightForWidth(300) > 2 * legend->heightForWidth(4000));
    QCOMPARE(legend->heightForWidth(4000), legend->sizeHint().height());
    // Its swatches are the palette's status colours: another in dark.
    QPalette dark = dialog->palette();
    dark.setColor(QPalette::Window, Qt::black);
    dark.setColor(QPalette::Base, Qt::black);
    dark.setColor(QPalette::Text, Qt::white);
    dark.setColor(QPalette::WindowText, Qt::white);
    QVERIFY(GuideDialog::html(dark) != GuideDialog::html(dialog->palette()));
    dialog->close();
}

void tst_MainWindow::keyboardReachesEveryPart()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    QVERIFY(list);
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->rowCount() >= 20, 10000);
    m_fixture.window()->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_fixture.window()));
    const auto go = [this](Qt::Key key) {
        QTest::keyClick(m_fixture.window(), key, Qt::AltModifier);
        return QApplication::focusWidget();
    };
    QCOMPARE(go(Qt::Key_2), static_cast<QWidget *>(list->table()));
    QCOMPARE(go(Qt::Key_3), static_cast<QWidget *>(list->strip()));
    QCOMPARE(go(Qt::Key_1), static_cast<QWidget *>(m_fixture.window()->findChild<QListView *>()));
    list->selectPage(list->model()->walker()->walkPageRows().first());
    QWidget *inspector = go(Qt::Key_4);
    QVERIFY(inspector);
    QVERIFY(list->inspector()->isAncestorOf(inspector));
}

void tst_MainWindow::theChosenTabIsRemembered()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")},
                                            QStringLiteral("prompts"));
    QVERIFY(list);
    QCOMPARE(m_fixture.serverView()->currentListId(), QStringLiteral("prompts"));
    cleanup();

    // Another start: the server's lists arrive and the tab chosen last is the one shown.
    m_fixture.openDemo({QStringLiteral("--scenario"), QStringLiteral("healthy")}, QSize());
    QTRY_VERIFY_WITH_TIMEOUT(m_fixture.serverView() &&
                                 m_fixture.serverView()->listIds().contains(QStringLiteral("prompts")),
                             10000);
    QCOMPARE(m_fixture.serverView()->currentListId(), QStringLiteral("prompts"));
}

void tst_MainWindow::problemsShowWithoutOpeningTabs()
{
    // Prompts' first page lacks its hints (2026 only); the tools tab is the one shown.
    ListView *tools =
        m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy"),
                                QStringLiteral("--list"), QStringLiteral("prompts=hints-missing")},
                               QStringLiteral("tools"), ServerSession::WalkOnConnect::Whole);
    QVERIFY(tools);
    ServerSession *session = m_fixture.serverView()->session();
    QCOMPARE(session->walkOnConnect(), ServerSession::WalkOnConnect::Whole);
    // Its first page was walked on connect, with no tab opened: its findings are on its tab, the
    // server entry and the Findings dock's title.
    QTRY_VERIFY_WITH_TIMEOUT(
        session->existingModel(QStringLiteral("prompts")) &&
            !session->existingModel(QStringLiteral("prompts"))->walker()->findings().isEmpty(),
        10000);
    PagedListModel *prompts = session->existingModel(QStringLiteral("prompts"));
    QTRY_VERIFY_WITH_TIMEOUT(prompts->walker()->isComplete(), 10000); // to its end
    QVERIFY(!m_fixture.serverView()->listView(QStringLiteral("prompts")) ||
            m_fixture.serverView()->currentListId() != QLatin1String("prompts"));
    const int n = int(prompts->walker()->findings().size());
    auto *tabs = m_fixture.serverView()->findChild<QTabWidget *>();
    QVERIFY(tabs);
    int promptsTab = -1;
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->tabText(i).startsWith(QLatin1String("prompts")))
            promptsTab = i;
    }
    QVERIFY(promptsTab >= 0);
    QTRY_COMPARE(tabs->tabText(promptsTab),
                 QStringLiteral("prompts (%1)")
                     .arg(session->existingModel(QStringLiteral("prompts"))->walker()->findings().size()));
    QVERIFY(!tabs->tabIcon(promptsTab).isNull());
    QVERIFY(n > 0);
    const QModelIndex entry = m_fixture.servers()->index(0);
    QTRY_VERIFY(Finding::Severity(entry.data(ServerListModel::SeverityRole).toInt()) !=
                Finding::Severity::Info);
    QVERIFY(entry.data(ServerListModel::FindingCountRole).toInt() >= n);
    QTRY_VERIFY2(m_fixture.window()->findingsDock()->windowTitle().startsWith(QLatin1String("Findings (")),
                 qPrintable(m_fixture.window()->findingsDock()->windowTitle()));
    // Templates were walked too (the list tools are read-only and need nothing else: theirs as well).
    QTRY_VERIFY_WITH_TIMEOUT(session->existingModel(QStringLiteral("templates")) &&
                                 session->existingModel(QStringLiteral("templates"))->walker()->isComplete(),
                             10000);
}

void tst_MainWindow::tourLoopIsFlaggedOnItsTab()
{
    // The tour's templates loop on page 3: seen on the tab, never opened.
    ListView *tools = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("tour")},
                                             QStringLiteral("tools"), ServerSession::WalkOnConnect::Whole);
    QVERIFY(tools);
    ServerView *view = m_fixture.serverView();
    auto *tabs = view->findChild<QTabWidget *>();
    int templatesTab = -1;
    for (int i = 0; i < tabs->count(); ++i) {
        if (view->listIds().value(i) == QLatin1String("templates"))
            templatesTab = i;
    }
    QVERIFY(templatesTab >= 0);
    QTRY_VERIFY_WITH_TIMEOUT(tabs->tabText(templatesTab).startsWith(QLatin1String("templates (")), 10000);
    QVERIFY(!tabs->tabIcon(templatesTab).isNull());
    PagedListModel *templates = view->session()->existingModel(QStringLiteral("templates"));
    const QList<Finding> findings = templates->walker()->findings(); // a copy: one list to search
    QVERIFY(std::any_of(findings.begin(), findings.end(),
                        [](const Finding &f) { return f.id == QLatin1String("cursor-repeated"); }));
    QCOMPARE(view->currentListId(), QStringLiteral("tools"));
    QCOMPARE(Finding::Severity(m_fixture.servers()->index(0).data(ServerListModel::SeverityRole).toInt()),
             Finding::Severity::Error);
}

void tst_MainWindow::walkOnConnectModes()
{
    {
        // Every list to its end unless set otherwise.
        TtlClock clock;
        ServerListModel servers(&clock, nullptr);
        servers.setDemoServer(QStringLiteral("/opt/demo"), {});
        QCOMPARE(servers.session(0)->walkOnConnect(), ServerSession::WalkOnConnect::Whole);
    }
    for (const auto mode :
         {ServerSession::WalkOnConnect::FirstPages, ServerSession::WalkOnConnect::OnDemand}) {
        TtlClock clock;
        SecretStore secrets;
        ServerListModel servers(&clock, &secrets);
        servers.setWalkOnConnect(mode);
        servers.setDemoServer(QStringLiteral(FOLIO_DEMO_SERVER),
                              {QStringLiteral("--scenario"), QStringLiteral("healthy")});
        ServerSession *session = servers.session(0);
        QCOMPARE(session->walkOnConnect(), mode);
        QSignalSpy lists(session, &ServerSession::listsChanged);
        session->connectToServer();
        QTRY_VERIFY_WITH_TIMEOUT(session->state() == McpClient::State::Connected && !lists.isEmpty(), 10000);
        if (mode == ServerSession::WalkOnConnect::FirstPages) {
            // Templates: 20 items, 8 a page; the first page only.
            QTRY_VERIFY_WITH_TIMEOUT(
                session->existingModel(QStringLiteral("templates")) &&
                    session->existingModel(QStringLiteral("templates"))->walker()->pagesRead() == 1,
                10000);
            QVERIFY(!session->existingModel(QStringLiteral("templates"))->walker()->isComplete());
            QCOMPARE(session->existingModel(QStringLiteral("templates"))->walker()->pagesInWalk(), 1);
        } else {
            // The tools list is walked in every mode (list tools are found in it): once it has
            // ended, the session has decided what else to walk on connect.
            QTRY_VERIFY_WITH_TIMEOUT(
                session->existingModel(QStringLiteral("tools")) &&
                    session->existingModel(QStringLiteral("tools"))->walker()->isComplete(),
                10000);
            QVERIFY(!session->existingModel(QStringLiteral("templates")));
            QVERIFY(!session->existingModel(QStringLiteral("prompts")));
        }
        session->disconnectFromServer();
    }
}

void tst_MainWindow::onConnectTheFirstListGoesFirst()
{
    // The list on screen (tools) is asked for alone: no other list's page is read, or asked for,
    // before its first page is in; then the others are walked as before.
    TtlClock clock;
    SecretStore secrets;
    ServerListModel servers(&clock, &secrets);
    servers.setWalkOnConnect(ServerSession::WalkOnConnect::Whole);
    servers.setDemoServer(QStringLiteral(FOLIO_DEMO_SERVER),
                          {QStringLiteral("--scenario"), QStringLiteral("healthy")});
    ServerSession *session = servers.session(0);
    int othersBusy = -1; // when tools' first page came: how many other lists had asked or read
    connect(session, &ServerSession::listsChanged, this, [session, &othersBusy] {
        PagedListModel *tools = session->existingModel(QStringLiteral("tools"));
        if (!tools || othersBusy >= 0)
            return;
        connect(tools->walker(), &PageWalker::pageAccepted, session, [session, &othersBusy] {
            if (othersBusy >= 0)
                return;
            othersBusy = 0;
            for (const QString &id :
                 {QStringLiteral("prompts"), QStringLiteral("resources"), QStringLiteral("templates")}) {
                const PagedListModel *m = session->existingModel(id);
                othersBusy += m && (m->walker()->isLoading() || m->walker()->pagesRead() > 0);
            }
        });
    });
    session->connectToServer();
    QTRY_VERIFY_WITH_TIMEOUT(othersBusy >= 0, 10000);
    QCOMPARE(othersBusy, 0);
    QTRY_VERIFY_WITH_TIMEOUT(session->existingModel(QStringLiteral("templates")) &&
                                 session->existingModel(QStringLiteral("templates"))->walker()->isComplete(),
                             10000);
    QVERIFY(session->existingModel(QStringLiteral("prompts"))->walker()->isComplete());
    session->disconnectFromServer();
}

namespace {
// QApplication::setFont tells the widgets only once the event loop has been entered by exec(),
// which a test never calls: this does what it would (each window resolves its font again and
// passes it down as a FontChange).
void tellWidgetsTheFont()
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        QEvent change(QEvent::ApplicationFontChange);
        QApplication::sendEvent(w, &change);
    }
}
} // namespace

void tst_MainWindow::presentationZoomsAndShowsTheLegend()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    QVERIFY(list);
    QTRY_VERIFY_WITH_TIMEOUT(list->strip()->chipCount() >= 1 && list->model()->rowCount() > 0, 10000);
    const int row = list->model()->walker()->walkPageRows().first();
    const QSize chip = list->strip()->chipRect(row).size();
    const qreal text = QApplication::font().pointSizeF();
    auto *legendBar = m_fixture.window()->findChild<QToolBar *>(QStringLiteral("legendBar"));
    QVERIFY(legendBar);
    QVERIFY(legendBar->isHidden());

    // Zoom scales the text, the chips and the rows, and Ctrl+0 puts them back: at 150 % every
    // table's rows keep their padding around a line of the larger text (no descender clipped, as
    // "get_post" was), and are as before once back at actual size.
    const auto tables = m_fixture.window()->findChildren<QTableView *>();
    QVERIFY(tables.contains(list->table()));
    QList<int> rowHeights, paddings; // a row's height, and what it has beyond a line of text
    for (const QTableView *table : tables) {
        rowHeights.append(table->verticalHeader()->defaultSectionSize());
        paddings.append(rowHeights.last() - QFontMetrics(table->font()).height());
    }
    Theme::apply(Theme::Mode::Light); // Folio's style, as the app runs (its icons follow the zoom)
    auto *restart = list->findChild<QToolButton *>(QStringLiteral("restartButton"));
    QVERIFY(restart);
    QTRY_VERIFY(restart->iconSize().width() > 0);
    // Where the tool row's words do not fit, its buttons show their icons, named first in their
    // tooltips.
    QVERIFY(list->isVisible());
    const int wide = list->width();
    list->resize(560, list->height());
    QTRY_COMPARE(restart->toolButtonStyle(), Qt::ToolButtonIconOnly);
    QVERIFY(restart->toolTip().startsWith(QStringLiteral("Restart: ")));
    list->resize(wide, list->height());
    QTRY_COMPARE(restart->toolButtonStyle(), Qt::ToolButtonTextBesideIcon);
    const QSize icon = restart->iconSize();
    // The cursors' fixed-width text grows with the rest.
    list->selectPage(row); // the inspector is built for a page
    auto *cursor = m_fixture.window()->findChild<QLineEdit *>(QStringLiteral("nextCursorRaw"));
    QVERIFY(cursor);
    const qreal cursorText = QFontInfo(cursor->font()).pointSizeF();
    const int nameColumn = list->table()->columnWidth(0);
    m_fixture.window()->setZoom(1.5);
    tellWidgetsTheFont();
    QTRY_VERIFY(list->strip()->chipRect(row).width() > chip.width());
    QVERIFY2(restart->iconSize().width() > icon.width(), "the icons did not grow with the text");
    QVERIFY2(QFontInfo(cursor->font()).pointSizeF() > cursorText, "the cursors' text did not grow");
    QVERIFY2(list->table()->columnWidth(0) > nameColumn, "the name column did not grow with its text");
    QVERIFY(QFontInfo(cursor->font()).fixedPitch());
    QVERIFY(list->strip()->chipRect(row).height() > chip.height());
    QVERIFY(QApplication::font().pointSizeF() > text);
    for (int i = 0; i < tables.size(); ++i) {
        const int line = QFontMetrics(tables.at(i)->font()).height();
        QVERIFY2(tables.at(i)->verticalHeader()->defaultSectionSize() >= line + paddings.at(i),
                 "a table's rows did not grow with its text");
    }
    QCOMPARE(list->table()->rowHeight(0), list->table()->verticalHeader()->defaultSectionSize());
    m_fixture.window()->setZoom(1.0);
    tellWidgetsTheFont();
    QTRY_COMPARE(list->strip()->chipRect(row).size(), chip);
    QCOMPARE(QApplication::font().pointSizeF(), text);
    QCOMPARE(restart->iconSize(), icon);
    QVERIFY(qAbs(list->table()->columnWidth(0) - nameColumn) <= 2); // back, give or take rounding
    for (int i = 0; i < tables.size(); ++i)
        QCOMPARE(tables.at(i)->verticalHeader()->defaultSectionSize(), rowHeights.at(i));

    // Presentation: full screen, larger, with the legend, the sidebar and docks stepped aside;
    // left as it was.
    QDockWidget *timeline = m_fixture.window()->timelineDock();
    timeline->show();
    QWidget *sidebar = m_fixture.window()->findChild<QListView *>()->parentWidget();
    QTRY_VERIFY(timeline->isVisible() && sidebar->isVisible());
    m_fixture.window()->setPresentation(true);
    QVERIFY(m_fixture.window()->isPresenting());
    QTRY_VERIFY(m_fixture.window()->isFullScreen());
    QVERIFY(!legendBar->isHidden());
    QVERIFY(!timeline->isVisible());
    QVERIFY(!sidebar->isVisible());
    QVERIFY(m_fixture.serverView()->isVisible()); // the server's lists fill the screen
    QVERIFY(list->strip()->chipRect(row).width() > chip.width());
    QCOMPARE(LegendBar::entryNames().size(), 13);
    QVERIFY(LegendBar::entryNames().contains(QStringLiteral("refetching")));
    m_fixture.window()->setPresentation(false);
    QTRY_VERIFY(!m_fixture.window()->isFullScreen());
    QVERIFY(legendBar->isHidden());
    QVERIFY(timeline->isVisible());
    QVERIFY(sidebar->isVisible());
    QTRY_COMPARE(list->strip()->chipRect(row).size(), chip);
    QSettings().remove(SettingsKey::Zoom);
}

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
