#include "pagedfixture.h"
#include "pagelanedelegate.h"
#include "pageledger.h"
#include "timelineview.h"
#include "tooltips.h"

#include <QAccessible>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

#include <limits>

using namespace folio;
using Script = PagedFixture::Script;

namespace {

const QString &NoCursor = PagedFixture::NoCursor;

Script threePages()
{
    return {
        {NoCursor, PagedFixture::page(PagedFixture::tools(0, 10), QStringLiteral("c1"), 5000)},
        {QStringLiteral("c1"), PagedFixture::page(PagedFixture::tools(10, 10), QStringLiteral("c2"), 30000)},
        {QStringLiteral("c2"), PagedFixture::page(PagedFixture::tools(20, 4), QJsonValue::Undefined, 0)}};
}

void wheel(QWidget *viewport, const QPoint &pos, int delta, Qt::KeyboardModifiers modifiers = {})
{
    QWheelEvent event(pos, viewport->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(viewport, &event);
}

// The view on f's list, 700 by 300, shown.
bool showOn(TimelineView &view, PagedFixture &f)
{
    view.setListModel(f.model.get());
    view.resize(700, 300);
    view.show();
    return QTest::qWaitForWindowExposed(&view);
}

} // namespace

// The request waterfall: lanes in walk order, clicks and keys, zoom and pan, the live "now" on the
// model's clock, and a timer that sleeps when nothing counts down.
class tst_TimelineView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void lanesFollowTheLedger();
    void clickActivatesALane();
    void zoomPanAndFit();
    void countsDownThenSleeps();
    void lanesAreAccessible();
};

void tst_TimelineView::lanesFollowTheLedger()
{
    PagedFixture f;
    QVERIFY(f.connect(threePages()));
    TimelineView view;
    QVERIFY(showOn(view, f));
    QCOMPARE(view.laneCount(), 0);
    QVERIFY(f.walkAll());
    QCOMPARE(view.laneCount(), 3);
    for (int lane = 0; lane < 3; ++lane)
        QCOMPARE(view.ledgerRowForLane(lane), lane);

    f.model->walker()->restart(QStringLiteral("test"));
    QVERIFY(f.walkAll());
    QCOMPARE(view.laneCount(), 6);
    // The current walk on top, the discarded one below.
    QCOMPARE(view.ledgerRowForLane(0), 3);
    QCOMPARE(view.ledgerRowForLane(2), 5);
    QCOMPARE(view.ledgerRowForLane(3), 0);
    QCOMPARE(view.laneForLedgerRow(0), 3);
    QCOMPARE(view.laneForLedgerRow(4), 1);
    QVERIFY(view.laneRect(3).bottom() < view.laneRect(0).top());
    QCOMPARE(view.laneAt(view.laneRect(1).center()), 1);
    QCOMPARE(view.laneAt(QPoint(200, 3)), -1); // the ruler
    // An item view over the ledger: a lane is the index of its row, painted by the lane delegate.
    QCOMPARE(view.model(), f.model->ledger());
    QCOMPARE(view.indexAt(view.laneRect(4).center()), f.model->ledger()->index(4, 0));
    QCOMPARE(view.visualRect(f.model->ledger()->index(4, 0)), view.laneRect(4));
    QVERIFY(qobject_cast<PageLaneDelegate *>(view.itemDelegate()));
    QVERIFY(!view.isCurrentWalk(0));
    QVERIFY(view.isCurrentWalk(1));
    QCOMPARE(view.walkEndMs(0), f.model->ledger()->page(3).sentAtMs); // the next walk's first request
    QCOMPARE(view.walkEndMs(3), std::numeric_limits<qint64>::max());

    // Everything requested is inside the fitted range.
    QVERIFY(view.isAutoFit());
    for (int row = 0; row < 6; ++row) {
        const qint64 sent = f.model->ledger()->page(row).sentAtMs;
        QVERIFY(sent >= view.rangeStartMs() && sent <= view.rangeEndMs());
    }

    testsupport::askToolTip(view, view.laneRect(3).center());
    QTRY_VERIFY(QToolTip::text().contains(QStringLiteral("request at +")));
    QVERIFY(QToolTip::text().startsWith(QStringLiteral("Page 1")));
}

void tst_TimelineView::clickActivatesALane()
{
    PagedFixture f;
    QVERIFY(f.connect(threePages()));
    TimelineView view;
    QVERIFY(showOn(view, f));
    QVERIFY(f.walkAll());

    QSignalSpy activated(&view, &TimelineView::pageActivated);
    QSignalSpy current(&view, &TimelineView::currentPageChanged);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.laneRect(1).center());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().at(0).toInt(), 1);
    QCOMPARE(view.currentPage(), 1);
    QCOMPARE(current.count(), 1);

    QTest::keyClick(&view, Qt::Key_Down);
    QCOMPARE(view.currentPage(), 2);
    QTest::keyClick(&view, Qt::Key_Return);
    QCOMPARE(activated.count(), 2);
    QCOMPARE(activated.last().at(0).toInt(), 2);

    // A click below the last lane activates nothing.
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, QPoint(300, view.laneRect(2).bottom() + 40));
    QCOMPARE(activated.count(), 2);
}

void tst_TimelineView::zoomPanAndFit()
{
    PagedFixture f;
    QVERIFY(f.connect(threePages()));
    TimelineView view;
    QVERIFY(showOn(view, f));
    QVERIFY(f.walkAll());

    const qint64 span = view.rangeEndMs() - view.rangeStartMs();
    const QPoint at(400, view.laneRect(0).center().y());
    const qint64 anchor =
        view.rangeStartMs() + (view.rangeEndMs() - view.rangeStartMs()) * (400 - 64) / (700 - 64 - 12);
    wheel(view.viewport(), at, 120); // zoom in around the pointer
    QVERIFY(!view.isAutoFit());
    const qint64 zoomed = view.rangeEndMs() - view.rangeStartMs();
    QVERIFY(zoomed < span);
    QVERIFY(qAbs(view.xForTime(anchor) - 400) <= 2); // the time under the pointer stays there

    // A drag pans and activates nothing.
    QSignalSpy activated(&view, &TimelineView::pageActivated);
    const qint64 startBefore = view.rangeStartMs();
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, at);
    QTest::mouseMove(view.viewport(), at + QPoint(60, 0));
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, at + QPoint(60, 0));
    QCOMPARE(activated.count(), 0);
    QVERIFY(view.rangeStartMs() < startBefore);
    QCOMPARE(view.rangeEndMs() - view.rangeStartMs(), zoomed);

    wheel(view.viewport(), at, -240); // zoom out
    QVERIFY(view.rangeEndMs() - view.rangeStartMs() > zoomed);

    QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, QPoint(300, 5)); // on the ruler: fit
    QVERIFY(view.isAutoFit());
    QCOMPARE(view.rangeEndMs() - view.rangeStartMs(), span);
}

void tst_TimelineView::countsDownThenSleeps()
{
    PagedFixture f;
    f.hang.insert(NoCursor);
    QVERIFY(f.connect(threePages()));
    TimelineView view;
    QVERIFY(showOn(view, f));
    QVERIFY(!view.isAnimating());
    f.model->walker()->start(); // in flight: the bar grows
    QVERIFY(view.isAnimating());
    const int before = view.paintCount();
    QTRY_VERIFY(view.paintCount() > before + 1);
    f.model->walker()->cancel();
    // Settled, only "now" moves: once a second.
    QTRY_COMPARE(view.animationIntervalMs(), 1000);

    f.hang.clear();
    f.model->fetchMore({});
    QVERIFY(f.walkAll());
    QVERIFY(view.isAnimating()); // fresh pages count down

    const qint64 now = view.nowWallMs();
    f.advance(5000); // "now" follows the model's clock
    QVERIFY(qAbs(view.nowWallMs() - (now + 5000)) < 50);
    f.advance(30000); // every page has expired: "now" still walks, slowly
    QTRY_COMPARE(view.animationIntervalMs(), 1000);
    view.hide(); // and nothing ticks for a timeline out of sight
    QTRY_VERIFY(!view.isAnimating());
    view.show();
    QCOMPARE(f.model->ledger()->page(f.model->walker()->walkPageRows().at(1)).state,
             PageRecord::State::Expired);
}

// A screen reader meets a list of requests in the order the lanes show them (the current walk on
// top): each named by its request and page, described by its latency and its answer.
void tst_TimelineView::lanesAreAccessible()
{
    PagedFixture f;
    int secondPages = 0;
    QVERIFY(f.connect([&secondPages](const QString &cursor) {
        if (cursor == NoCursor)
            return PagedFixture::page(PagedFixture::tools(0, 10), QStringLiteral("c1"), 12000,
                                      QStringLiteral("private"));
        // The first walk's page 2 hands its own cursor back; the second walk's fails.
        if (secondPages++ == 0)
            return PagedFixture::page(PagedFixture::tools(10, 10), QStringLiteral("c1"), 12000,
                                      QStringLiteral("private"));
        return PagedFixture::rpcError(-32602, QStringLiteral("Invalid cursor"));
    }));
    TimelineView view;
    QVERIFY(showOn(view, f));
    QVERIFY(f.walkAll());
    QCOMPARE(view.laneCount(), 2);

    QAccessibleInterface *list = QAccessible::queryAccessibleInterface(&view);
    QVERIFY(list);
    QCOMPARE(list->role(), QAccessible::List);
    QCOMPARE(list->text(QAccessible::Name), QStringLiteral("Request timeline"));
    QCOMPARE(list->childCount(), 2);
    QAccessibleInterface *first = list->child(0);
    QVERIFY(first && first->isValid());
    QCOMPARE(first->role(), QAccessible::ListItem);
    QCOMPARE(first->text(QAccessible::Name), QStringLiteral("Request 1 of 2: tools/list page 1"));
    const QRegularExpression freshPage(
        QStringLiteral("^\\d+ ms, 10 items, fresh, expires in 12 s, private$"));
    QVERIFY2(freshPage.match(first->text(QAccessible::Description)).hasMatch(),
             qPrintable(first->text(QAccessible::Description)));
    const QString repeated = list->child(1)->text(QAccessible::Description);
    QVERIFY2(repeated.contains(QStringLiteral("cursor-repeated")), qPrintable(repeated));

    // A restart puts the new walk's lanes on top: the children follow what the view shows.
    f.model->walker()->restart(QStringLiteral("test"));
    QVERIFY(f.walkAll());
    QCOMPARE(view.laneCount(), 4);
    QCOMPARE(list->childCount(), 4);
    QAccessibleInterface *top = list->child(0);
    QAccessibleInterface *failed = list->child(1);
    QVERIFY(top && failed);
    QCOMPARE(top->text(QAccessible::Name), QStringLiteral("Request 3 of 4: tools/list page 1, walk 2"));
    QCOMPARE(failed->text(QAccessible::Name), QStringLiteral("Request 4 of 4: tools/list page 2, walk 2"));
    const QString failure = failed->text(QAccessible::Description);
    QVERIFY2(QRegularExpression(QStringLiteral("^\\d+ ms, failed: Invalid cursor \\(-32602"))
                 .match(failure)
                 .hasMatch(),
             qPrintable(failure));
    QVERIFY2(!failure.contains(QStringLiteral("items")), qPrintable(failure));
    QCOMPARE(list->child(2), first); // the same interface each time, now below the new walk
    QCOMPARE(list->indexOfChild(first), 2);
    QCOMPARE(list->indexOfChild(failed), 1);
    QVERIFY(list->child(3)->text(QAccessible::Description).contains(QStringLiteral("discarded")));

    QCOMPARE(failed->rect().size(), view.laneRect(3).size());
    QCOMPARE(list->childAt(failed->rect().center().x(), failed->rect().center().y()), failed);

    // The current lane is selected, and focused while the view has the focus.
    QVERIFY(!failed->state().selected);
    view.setCurrentPage(3);
    QVERIFY(failed->state().selected);
    QVERIFY(!top->state().selected);
    view.activateWindow();
    view.setFocus();
    QVERIFY(QTest::qWaitForWindowActive(&view));
    QTRY_VERIFY(view.hasFocus());
    QVERIFY(failed->state().focused);
    QVERIFY(!top->state().focused);
}

QTEST_MAIN(tst_TimelineView)
#include "tst_timelineview.moc"
