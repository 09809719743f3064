#include "pagechipdelegate.h"
#include "pagedfixture.h"
#include "pageledger.h"
#include "pagestrip.h"
#include "serverconfig.h"
#include "tooltips.h"
#include "walkall.h"
#include "zoom.h"

#include <QAccessible>
#include <QClipboard>
#include <QDeadlineTimer>
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

using namespace folio;
using Script = PagedFixture::Script;
using Bar = PageStrip::Bar;

namespace {

const QString &NoCursor = PagedFixture::NoCursor;

Script threePages(const QJsonValue &lastTtl = 60000)
{
    return {{NoCursor, PagedFixture::page(PagedFixture::tools(0, 10), QStringLiteral("c1"), 5000)},
            {QStringLiteral("c1"), PagedFixture::page(PagedFixture::tools(10, 10), QStringLiteral("c2"),
                                                      30000, QStringLiteral("private"))},
            {QStringLiteral("c2"),
             PagedFixture::page(PagedFixture::tools(20, 4), QJsonValue::Undefined, lastTtl)}};
}

} // namespace

// The page strip against a scripted server: chips follow the ledger, selection by mouse and keys,
// live TTL state on an injected clock, failed and discarded pages, and ten thousand chips.
class tst_PageStrip : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void emptyStrip();
    void chipsAppearAsPagesArrive();
    void clickAndKeyboardSelect();
    void itemViewOverTheLedger();
    void expiryRepaintsTheChip();
    void stateChangeRepaintsOnlyItsChip();
    void loadingChipAnimates();
    void failedPageShowsItsCode();
    void refusedForArgumentsReadsNoArgs();
    void discardedWalkStaysStruckThrough();
    void legacyPagesHaveNoHintsBar();
    void tenThousandChips();
    void loopAndDuplicatesDrawArcs();
    void tourTemplatesLoopDrawsAnArc();
    void chipsAreAccessible();

private:
    // The strip over the fixture's list, shown at width and exposed.
    static bool show(PageStrip &strip, PagedFixture &f, int width = 600);
    // What the tooltip says at a point of the strip's viewport.
    static QString toolTipAt(PageStrip &strip, const QPoint &pos);
    // An arc's tooltip: its area scanned down the middle until a line of it is hit.
    static QString arcToolTip(PageStrip &strip, const PageStrip::Arc &arc);
};

bool tst_PageStrip::show(PageStrip &strip, PagedFixture &f, int width)
{
    strip.setListModel(f.model.get());
    strip.resize(width, strip.sizeHint().height());
    strip.show();
    return QTest::qWaitForWindowExposed(&strip);
}

QString tst_PageStrip::toolTipAt(PageStrip &strip, const QPoint &pos)
{
    // A tooltip hides on a timer: gone before the next is asked, so an old text is never read.
    QToolTip::hideText();
    (void)QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 2000);
    testsupport::askToolTip(strip, pos);
    return QToolTip::isVisible() ? QToolTip::text() : QString();
}

QString tst_PageStrip::arcToolTip(PageStrip &strip, const PageStrip::Arc &arc)
{
    const QRect area = strip.arcRect(arc);
    const int x = (strip.chipRect(arc.fromRow).center().x() + strip.chipRect(arc.toRow).center().x()) / 2;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        if (strip.chipAt(QPoint(x, y)) >= 0)
            continue;
        const QString text = toolTipAt(strip, QPoint(x, y));
        if (!text.isEmpty() && !text.startsWith(QLatin1String("walk")))
            return text;
    }
    return {};
}

void tst_PageStrip::emptyStrip()
{
    PageStrip strip;
    QCOMPARE(strip.chipCount(), 0);
    QCOMPARE(strip.currentPage(), -1);
    QCOMPARE(strip.chipLook(0).ledgerRow, -1);
    strip.resize(400, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    QTRY_VERIFY(strip.paintCount() > 0);
    QVERIFY(!strip.isAnimating());
}

void tst_PageStrip::chipsAppearAsPagesArrive()
{
    PagedFixture f;
    QVERIFY(f.connect(threePages()));
    PageStrip strip;
    QVERIFY(show(strip, f));

    f.model->fetchMore({});
    QCOMPARE(strip.chipCount(), 1); // the request is a chip at once
    QCOMPARE(strip.chipLook(0).bar, Bar::Loading);
    QTRY_COMPARE(strip.chipLook(0).bar, Bar::Fresh);
    QCOMPARE(strip.chipLook(0).countText, QStringLiteral("10"));
    QCOMPARE(strip.chipLook(0).pageNumber, 1);
    QCOMPARE(strip.chipLook(0).scope, PageRecord::Scope::Public);
    QCOMPARE(strip.chipLook(0).remaining, 1.0);

    QVERIFY(f.walkAll());
    QCOMPARE(strip.chipCount(), 3);
    QCOMPARE(strip.chipLook(1).scope, PageRecord::Scope::Private);
    QCOMPARE(strip.chipLook(1).badges, QList<Finding::Severity>{Finding::Severity::Error}); // scope-mismatch
    QCOMPARE(strip.chipLook(2).countText, QStringLiteral("4"));
    QVERIFY(strip.isAnimating()); // fresh chips count down

    f.now += 2500; // half of page 1's TTL
    QCOMPARE(strip.chipLook(0).remaining, 0.5);

    // Chips are laid out left to right, in order.
    QVERIFY(strip.chipRect(0).right() < strip.chipRect(1).left());
    QCOMPARE(strip.chipAt(strip.chipRect(2).center()), 2);
    QCOMPARE(strip.chipAt(QPoint(strip.chipRect(0).right() + 2, strip.chipRect(0).center().y())), -1);

    // The tooltip is the page summary.
    testsupport::askToolTip(strip, strip.chipRect(1).center());
    QTRY_VERIFY(QToolTip::text().contains(QStringLiteral("cacheScope \"private\"")));
    QVERIFY(QToolTip::text().startsWith(QStringLiteral("Page 2")));
}

void tst_PageStrip::clickAndKeyboardSelect()
{
    PagedFixture f;
    QVERIFY(f.connect(threePages()));
    PageStrip strip;
    QVERIFY(show(strip, f));
    QVERIFY(f.walkAll());

    QSignalSpy current(&strip, &PageStrip::currentPageChanged);
    QSignalSpy activated(&strip, &PageStrip::pageActivated);
    QTest::mouseClick(strip.viewport(), Qt::LeftButton, {}, strip.chipRect(1).center());
    QCOMPARE(strip.currentPage(), 1);
    QCOMPARE(current.count(), 1);
    QCOMPARE(current.takeFirst().at(0).toInt(), 1);
    QVERIFY(strip.hasFocus());

    QTest::keyClick(&strip, Qt::Key_Right);
    QCOMPARE(strip.currentPage(), 2);
    QTest::keyClick(&strip, Qt::Key_Right); // stays on the last chip
    QCOMPARE(strip.currentPage(), 2);
    QTest::keyClick(&strip, Qt::Key_Left);
    QTest::keyClick(&strip, Qt::Key_Left);
    QCOMPARE(strip.currentPage(), 0);
    QCOMPARE(current.count(), 3);
    QTest::keyClick(&strip, Qt::Key_Return);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.takeFirst().at(0).toInt(), 0);

    // A double click as the window system sends it: a press and a release, then the second press
    // as a double click (QTest::mouseDClick alone sends only the last).
    QTest::mouseClick(strip.viewport(), Qt::LeftButton, {}, strip.chipRect(2).center());
    QTest::mouseDClick(strip.viewport(), Qt::LeftButton, {}, strip.chipRect(2).center());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.takeFirst().at(0).toInt(), 2);

    strip.setCurrentPage(1);
    QCOMPARE(current.last().at(0).toInt(), 1);
    current.clear();
    strip.setCurrentPage(1); // no change, no signal
    QCOMPARE(current.count(), 0);
    // A click between chips keeps the selection.
    QTest::mouseClick(strip.viewport(), Qt::LeftButton, {},
                      QPoint(strip.chipRect(1).right() + 3, strip.chipRect(1).center().y()));
    QCOMPARE(strip.currentPage(), 1);
}

void tst_PageStrip::itemViewOverTheLedger()
{
    PagedFixture f;
    QVERIFY(f.connect(threePages()));
    PageStrip strip;
    QVERIFY(show(strip, f));
    QVERIFY(f.walkAll());
    PageLedger *ledger = f.model->ledger();

    // The strip is an item view whose model is the ledger: a chip is an index of it.
    QCOMPARE(strip.model(), ledger);
    const QModelIndex second = strip.indexAt(strip.chipRect(1).center());
    QCOMPARE(second, ledger->index(1, 0));
    QCOMPARE(strip.visualRect(second), strip.chipRect(1));
    QVERIFY(!strip.indexAt(QPoint(strip.chipRect(1).right() + 3, strip.chipRect(1).center().y())).isValid());
    // Its delegate paints the chip, from the roles alone: the same look outside the strip.
    auto *chips = qobject_cast<PageChipDelegate *>(strip.itemDelegate());
    QVERIFY(chips);
    const PageStrip::ChipLook look = strip.chipLook(1);
    QCOMPARE(PageChipDelegate::lookOf(second, strip.nowMs()).countText, look.countText);
    QCOMPARE(int(PageChipDelegate::lookOf(second, strip.nowMs()).scope), int(look.scope));
    QCOMPARE(PageChipDelegate::lookOf(QModelIndex(), 0).ledgerRow, -1);
    QImage image(chips->sizeHint({}, second), QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    {
        QPainter painter(&image);
        QStyleOptionViewItem option;
        option.rect = image.rect();
        option.palette = strip.palette();
        chips->paint(&painter, option, second);
    }
    QVERIFY(image.pixel(image.width() / 2, 2) != 0); // the card's border
    QVERIFY(image.pixel(image.width() / 2, image.height() / 2) != 0);

    // Another model is refused: a page view is given a list.
    PageLedger other;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("given a list")));
    strip.setModel(&other);
    QCOMPARE(strip.model(), ledger);

    // A shared selection moves the strip; when it goes (its list's tab closed), the strip goes
    // back to a selection of its own and still answers clicks.
    auto *shared = new QItemSelectionModel(ledger);
    strip.setSelectionModel(shared);
    QCOMPARE(strip.selectionModel(), shared);
    shared->setCurrentIndex(ledger->index(2, 0),
                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(strip.currentPage(), 2);
    delete shared;
    QVERIFY(strip.selectionModel());
    QVERIFY(strip.selectionModel() != shared);
    QTest::mouseClick(strip.viewport(), Qt::LeftButton, {}, strip.chipRect(0).center());
    QCOMPARE(strip.currentPage(), 0);
    QVERIFY(strip.selectionModel()->isRowSelected(0));
    // Copy hands the current page on as its tooltip tells it.
    QGuiApplication::clipboard()->clear();
    QTest::keyClick(&strip, Qt::Key_C, Qt::ControlModifier);
    QVERIFY2(QGuiApplication::clipboard()->text().startsWith(QLatin1String("Page 1")),
             qPrintable(QGuiApplication::clipboard()->text()));

    // The list going away leaves an empty strip, not a dangling one.
    f.model.reset();
    QCOMPARE(strip.chipCount(), 0);
    QCOMPARE(strip.currentPage(), -1);
    QTest::mouseClick(strip.viewport(), Qt::LeftButton, {}, QPoint(20, 40));
    QTest::keyClick(&strip, Qt::Key_Right);
    QCOMPARE(strip.currentPage(), -1);
}

void tst_PageStrip::expiryRepaintsTheChip()
{
    PagedFixture f;
    QVERIFY(f.connect(threePages()));
    PageStrip strip;
    QVERIFY(show(strip, f));
    QVERIFY(f.walkAll());
    QCOMPARE(strip.chipLook(0).bar, Bar::Fresh);
    QTRY_VERIFY(strip.paintCount() > 0);

    const int before = strip.paintCount();
    f.advance(5000); // page 1's TTL runs out
    QCOMPARE(f.model->ledger()->page(0).state, PageRecord::State::Expired);
    QCOMPARE(strip.chipLook(0).bar, Bar::Expired);
    QTRY_VERIFY(strip.paintCount() > before);
    QCOMPARE(strip.lastPaintedRange().first, 0);
    QVERIFY(strip.isAnimating()); // pages 2 and 3 still count down

    f.advance(60000);
    QCOMPARE(strip.chipLook(1).bar, Bar::Expired);
    QCOMPARE(strip.chipLook(2).bar, Bar::Expired);
    QTRY_VERIFY(!strip.isAnimating()); // nothing counts down: the timer sleeps

    // A refetch stripes the bar and animates again.
    f.hang.insert(QStringLiteral("c1"));
    f.model->walker()->refetchPage(1);
    QCOMPARE(strip.chipLook(1).bar, Bar::Refetching);
    QCOMPARE(strip.chipLook(1).countText, QStringLiteral("10"));
    QVERIFY(strip.isAnimating());
}

// The strip reads the ledger's roles: a change of one page's state repaints that chip alone, and
// a change of roles it does not draw (texts, timings) repaints nothing.
void tst_PageStrip::stateChangeRepaintsOnlyItsChip()
{
    PagedFixture f;
    // Stale at once (TTL 0): no chip counts down, so nothing else repaints meanwhile.
    QVERIFY(f.connect(Script{
        {NoCursor, PagedFixture::page(PagedFixture::tools(0, 10), QStringLiteral("c1"), 0)},
        {QStringLiteral("c1"), PagedFixture::page(PagedFixture::tools(10, 10), QStringLiteral("c2"), 0)},
        {QStringLiteral("c2"), PagedFixture::page(PagedFixture::tools(20, 4), QJsonValue::Undefined, 0)}}));
    PageStrip strip;
    QVERIFY(show(strip, f));
    QVERIFY(f.walkAll());
    QCOMPARE(strip.chipCount(), 3);
    QTRY_VERIFY(!strip.isAnimating());
    strip.viewport()->repaint();
    QCOMPARE(strip.lastPaintedRange(), qMakePair(0, 2));

    PageLedger *ledger = f.model->ledger();
    const int before = strip.paintCount();
    Q_EMIT ledger->dataChanged(ledger->index(1, 0), ledger->index(1, PageLedger::ColumnCount - 1),
                               {Qt::DisplayRole, Qt::ToolTipRole, PageLedger::SerialRole});
    Q_EMIT ledger->dataChanged(ledger->index(2, 0), ledger->index(2, PageLedger::ColumnCount - 1),
                               {PageLedger::StateRole});
    QTRY_VERIFY(strip.paintCount() > before);
    // Had chip 1 been repainted too, the one paint event would have covered both.
    QCOMPARE(strip.lastPaintedRange(), qMakePair(2, 2));
}

void tst_PageStrip::loadingChipAnimates()
{
    PagedFixture f;
    f.hang.insert(NoCursor);
    QVERIFY(f.connect(threePages()));
    PageStrip strip;
    QVERIFY(show(strip, f));
    QVERIFY(!strip.isAnimating());
    f.model->walker()->start();
    QCOMPARE(strip.chipLook(0).bar, Bar::Loading);
    QVERIFY(strip.isAnimating());
    const int before = strip.paintCount();
    QTRY_VERIFY(strip.paintCount() > before + 1); // the spinner turns
}

void tst_PageStrip::failedPageShowsItsCode()
{
    PagedFixture f;
    QVERIFY(f.connect(
        Script{{NoCursor, PagedFixture::page(PagedFixture::tools(0, 10), QStringLiteral("c1"))},
               {QStringLiteral("c1"), PagedFixture::rpcError(-32602, QStringLiteral("Invalid cursor"))}}));
    PageStrip strip;
    strip.setListModel(f.model.get());
    QVERIFY(f.walkAll());
    QCOMPARE(strip.chipCount(), 2);
    const PageStrip::ChipLook look = strip.chipLook(1);
    QCOMPARE(look.bar, Bar::Failed);
    QCOMPARE(look.state, PageRecord::State::Failed);
    QCOMPARE(look.countText, QStringLiteral("-32602"));
    QVERIFY(look.badges.contains(Finding::Severity::Error)); // page-error
    QCOMPARE(strip.chipLook(0).bar, Bar::Fresh);
    // A screen reader hears the error, and no count for a page that holds nothing.
    const QString description =
        QAccessible::queryAccessibleInterface(&strip)->child(1)->text(QAccessible::Description);
    QVERIFY2(description.startsWith(QStringLiteral("failed: Invalid cursor (-32602")),
             qPrintable(description));
}

// A list tool asked without the arguments it wants: the refusal stays on the record, struck out,
// and the chip says what it was (Folio's question), not "error" as a server's failure would.
void tst_PageStrip::refusedForArgumentsReadsNoArgs()
{
    PageLedger ledger;
    for (int i = 0; i < 2; ++i) {
        PageRecord rec;
        rec.serial = i + 1;
        ledger.appendRequest(rec);
        ledger.markSent(i, false, 1'700'000'000'000);
        ledger.applyFailure(i, McpError::make(McpError::Kind::ToolError, QStringLiteral("give a channel")), 3,
                            120, 1'700'000'000'003);
    }
    ledger.markAskedWithoutArguments(0);
    const PageChipDelegate::Look refused = PageChipDelegate::lookOf(ledger.index(0, 0), 0);
    QCOMPARE(refused.countText, QStringLiteral("args?"));
    QVERIFY(refused.struck);
    QCOMPARE(ledger.data(ledger.index(0, 0), PageLedger::AskedWithoutArgumentsRole).toBool(), true);
    // The same refusal to arguments the user chose is the server's answer: an error.
    const PageChipDelegate::Look failed = PageChipDelegate::lookOf(ledger.index(1, 0), 0);
    QCOMPARE(failed.countText, QStringLiteral("error"));
    QVERIFY(!failed.struck);
}

void tst_PageStrip::discardedWalkStaysStruckThrough()
{
    PagedFixture f;
    QVERIFY(f.connect(threePages()));
    PageStrip strip;
    QVERIFY(show(strip, f, 900));
    QVERIFY(f.walkAll());
    strip.setCurrentPage(1);

    f.model->walker()->restart(QStringLiteral("the server sent notifications/tools/list_changed"));
    QTRY_COMPARE(strip.chipCount(), 4); // three discarded, the new walk's first page
    for (int row = 0; row < 3; ++row) {
        QVERIFY(strip.chipLook(row).struck);
        QCOMPARE(strip.chipLook(row).state, PageRecord::State::Discarded);
        QCOMPARE(strip.chipLook(row).walk, 0);
    }
    QTRY_COMPARE(strip.chipLook(3).bar, Bar::Fresh);
    QVERIFY(!strip.chipLook(3).struck);
    QCOMPARE(strip.chipLook(3).pageNumber, 1);
    QCOMPARE(strip.chipLook(3).walk, 1);
    QCOMPARE(strip.currentPage(), 1); // the selection stays on the discarded chip

    // The walk before folds into one block ahead of the live one, which stays in view.
    QVERIFY(!strip.earlierWalksShown());
    QVERIFY(strip.foldRect().isValid());
    for (int row = 0; row < 3; ++row)
        QVERIFY(strip.chipRect(row).isEmpty());
    QVERIFY(strip.chipRect(3).left() > strip.foldRect().right());
    QVERIFY(strip.viewport()->rect().contains(strip.chipRect(3)));
    const QPoint onFold = strip.foldRect().center();
    const QString foldTip = toolTipAt(strip, onFold);
    QVERIFY2(foldTip.startsWith(QStringLiteral("1 earlier walk")) &&
                 foldTip.endsWith(QStringLiteral("folded: click to show them")),
             qPrintable(foldTip));
    QTest::mouseClick(strip.viewport(), Qt::LeftButton, {}, onFold);
    QVERIFY(strip.earlierWalksShown());
    QCOMPARE(strip.currentPage(), 1); // a click on the block selects nothing
    QVERIFY(strip.chipRect(0).left() > strip.foldRect().right());

    // Shown, the new walk starts after a gap that names the restart.
    const int gap = strip.chipRect(3).left() - strip.chipRect(2).right();
    QVERIFY(gap > strip.chipRect(2).left() - strip.chipRect(1).right() + 10);
    const QPoint inGap(strip.chipRect(3).left() - gap / 2, strip.chipRect(3).center().y());
    QCOMPARE(strip.chipAt(inGap), -1);
    testsupport::askToolTip(strip, inGap);
    QTRY_COMPARE(QToolTip::text(),
                 QStringLiteral("walk 2 \u2014 restarted: the server sent notifications/tools/list_changed"));
    QCOMPARE(strip.chipAt(strip.chipRect(3).center()), 3);

    // Folded again, and shown again when one of its pages is asked for.
    QTest::mouseClick(strip.viewport(), Qt::LeftButton, {}, strip.foldRect().center());
    QVERIFY(!strip.earlierWalksShown());
    QVERIFY(strip.chipRect(2).isEmpty());
    strip.scrollToPage(2);
    QVERIFY(strip.earlierWalksShown());
    QVERIFY(strip.viewport()->rect().contains(strip.chipRect(2)));

    QVERIFY(f.walkAll());
    QCOMPARE(strip.chipCount(), 6);
    QTest::keyClick(&strip, Qt::Key_End);
    QCOMPARE(strip.currentPage(), 5);
}

void tst_PageStrip::legacyPagesHaveNoHintsBar()
{
    PagedFixture f;
    QVERIFY(f.connect(Script{{NoCursor, PagedFixture::page(PagedFixture::tools(0, 3), QJsonValue::Undefined,
                                                           QJsonValue::Undefined, QJsonValue::Undefined)}},
                      false));
    PageStrip strip;
    strip.setListModel(f.model.get());
    QVERIFY(f.walkAll());
    const PageStrip::ChipLook look = strip.chipLook(0);
    QCOMPARE(look.bar, Bar::Legacy);
    QVERIFY(look.legacy);
    QVERIFY(look.badges.isEmpty()); // no hints by design is not a finding
    QCOMPARE(look.scope, PageRecord::Scope::NotApplicable);
}

void tst_PageStrip::tenThousandChips()
{
    PagedFixture f;
    constexpr int Pages = 10000;
    QVERIFY(f.connect([](const QString &cursor) {
        const int n = cursor == PagedFixture::NoCursor ? 0 : cursor.mid(1).toInt();
        return PagedFixture::page(PagedFixture::tools(n, 1),
                                  n + 1 < Pages ? QJsonValue(QStringLiteral("c%1").arg(n + 1))
                                                : QJsonValue());
    }));
    f.model->walker()->setPageCap(Pages);
    PageStrip strip;
    QVERIFY(show(strip, f, 800));
    QVERIFY(f.walkAll(120000));
    QCOMPARE(strip.chipCount(), Pages);
    QCOMPARE(strip.horizontalScrollBar()->value(),
             strip.horizontalScrollBar()->maximum()); // followed the end

    strip.setCurrentPage(4321);
    QVERIFY(strip.viewport()->rect().contains(strip.chipRect(4321)));
    QCOMPARE(strip.chipAt(strip.chipRect(4321).center()), 4321);
    const int before = strip.paintCount();
    strip.viewport()->repaint();
    QCOMPARE(strip.paintCount(), before + 1);
    const QPair<int, int> painted = strip.lastPaintedRange();
    QVERIFY(painted.first <= 4321 && painted.second >= 4321);
    QVERIFY2(painted.second - painted.first < 15, "only the visible chips are painted");
}

void tst_PageStrip::loopAndDuplicatesDrawArcs()
{
    // Page 2 repeats an item of page 1; page 3 returns c1, the cursor page 2 was asked with.
    PagedFixture f;
    QJsonArray second = PagedFixture::tools(10, 9);
    second.append(PagedFixture::tools(0, 1).first());
    QVERIFY(f.connect(Script{
        {NoCursor, PagedFixture::page(PagedFixture::tools(0, 10), QStringLiteral("c1"))},
        {QStringLiteral("c1"), PagedFixture::page(second, QStringLiteral("c2"))},
        {QStringLiteral("c2"), PagedFixture::page(PagedFixture::tools(20, 10), QStringLiteral("c1"))}}));
    PageStrip strip;
    QVERIFY(show(strip, f));
    QVERIFY(f.walkAll());
    QTRY_COMPARE(strip.arcs().size(), 2);
    const QList<PageStrip::Arc> arcs = strip.arcs(); // by the page they start from
    const PageStrip::Arc duplicate = arcs.at(0);
    QCOMPARE(duplicate.kind, PageStrip::Arc::Kind::Duplicate);
    QCOMPARE(duplicate.fromPage, 2);
    QCOMPARE(duplicate.toPage, 1);
    QCOMPARE(duplicate.detail, QStringLiteral("name:tool_000")); // the identity, as the finding names it
    const PageStrip::Arc loop = arcs.at(1);
    QCOMPARE(loop.kind, PageStrip::Arc::Kind::Loop);
    QCOMPARE(loop.fromRow, 2);
    QCOMPARE(loop.toRow, 1);
    QCOMPARE(loop.fromPage, 3);
    QCOMPARE(loop.toPage, 2);
    QCOMPARE(loop.detail, QStringLiteral("c1"));

    // Above the chips the loop, below them the duplicate: both within the strip, clear of the chips.
    const QRect chip = strip.chipRect(1);
    QVERIFY(strip.arcRect(loop).top() >= 0);
    QVERIFY(strip.arcRect(loop).bottom() <= chip.top() + 1);
    QVERIFY(strip.arcRect(duplicate).top() >= chip.bottom() - 1);
    QVERIFY(strip.arcRect(duplicate).bottom() < strip.viewport()->height());

    // Each explains itself on hover.
    QCOMPARE(arcToolTip(strip, loop).section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("Page 3 returned the cursor page 2 was asked with: a loop"));
    QVERIFY(arcToolTip(strip, duplicate).startsWith(QLatin1String("Page 2 holds items page 1 held already")));

    // A new walk keeps the old one's arcs (its pages stay in the history) and adds its own.
    f.model->walker()->restart(QStringLiteral("by the test"));
    QVERIFY(f.walkAll());
    QTRY_COMPARE(strip.arcs().size(), 4);
    QCOMPARE(strip.arcs().at(3).fromRow, 5);
    QCOMPARE(strip.arcs().at(3).toRow, 4);

    // At twice the size, the room for the arcs grows with the chips.
    const int height = strip.sizeHint().height();
    setUiZoom(2.0);
    QVERIFY(strip.sizeHint().height() > height);
    strip.resize(1200, strip.sizeHint().height());
    QVERIFY(strip.arcRect(strip.arcs().at(1)).top() >= 0);
    setUiZoom(1.0);
}

// A screen reader meets a list of pages: each named "Page N of M", described in one line, the
// current one selected and announced as the focus.
void tst_PageStrip::chipsAreAccessible()
{
    PagedFixture f;
    QVERIFY(f.connect(
        Script{{NoCursor, PagedFixture::page(PagedFixture::tools(0, 10), QStringLiteral("c1"), 12000,
                                             QStringLiteral("private"))},
               {QStringLiteral("c1"), PagedFixture::page(PagedFixture::tools(10, 10), QStringLiteral("c1"),
                                                         12000, QStringLiteral("private"))}}));
    PageStrip strip;
    QVERIFY(show(strip, f));
    QVERIFY(f.walkAll());
    QTRY_COMPARE(strip.chipCount(), 2);

    QAccessibleInterface *list = QAccessible::queryAccessibleInterface(&strip);
    QVERIFY(list);
    QCOMPARE(list->role(), QAccessible::List);
    QCOMPARE(list->text(QAccessible::Name), QStringLiteral("Page strip"));
    QCOMPARE(list->childCount(), 2);
    QAccessibleInterface *second = list->child(1);
    QVERIFY(second && second->isValid());
    QCOMPARE(list->child(1), second); // the same interface each time
    QCOMPARE(list->indexOfChild(second), 1);
    QCOMPARE(second->role(), QAccessible::ListItem);
    QCOMPARE(second->text(QAccessible::Name), QStringLiteral("Page 2 of 2"));
    const QString description = second->text(QAccessible::Description);
    QVERIFY2(description.startsWith(QStringLiteral("10 items, fresh, expires in 12")),
             qPrintable(description));
    QVERIFY2(description.contains(QStringLiteral("private")), qPrintable(description));
    QVERIFY2(description.contains(QStringLiteral("cursor-repeated")), qPrintable(description));
    QCOMPARE(second->rect().size(), strip.chipRect(1).size());
    QCOMPARE(list->childAt(second->rect().center().x(), second->rect().center().y()), second);

    QVERIFY(!second->state().selected);
    strip.setCurrentPage(1);
    QVERIFY(second->state().selected);
}

void tst_PageStrip::tourTemplatesLoopDrawsAnArc()
{
    // The demo server's tour: its templates list's cursor comes back around. The strip draws the
    // loop as an arc from the page that returned the cursor back to the page first asked with it.
    ServerConfig config;
    config.name = QStringLiteral("demo");
    config.command = QStringLiteral(FOLIO_DEMO_SERVER);
    config.arguments = {QStringLiteral("--scenario"), QStringLiteral("tour")};
    McpClient client;
    client.setConfig(config);
    QSignalSpy connected(&client, &McpClient::connected);
    client.connectToServer();
    QVERIFY(connected.wait(10000));
    TtlClock clock;
    PagedListModel model(&client, ListSource::protocol(ListKind::ResourceTemplates), &clock);
    PageStrip strip;
    strip.setListModel(&model);
    strip.resize(900, strip.sizeHint().height());
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    QVERIFY(testsupport::walkAll(model, 10000));
    QVERIFY(model.walker()->isStopped());

    const QList<PageStrip::Arc> arcs = strip.arcs();
    const auto loop = std::find_if(arcs.begin(), arcs.end(), [](const PageStrip::Arc &a) {
        return a.kind == PageStrip::Arc::Kind::Loop;
    });
    QVERIFY(loop != arcs.end());
    QVERIFY2(loop->toPage < loop->fromPage,
             qPrintable(QStringLiteral("%1 -> %2").arg(loop->fromPage).arg(loop->toPage)));
    QCOMPARE(loop->fromRow, model.walker()->walkPageRows().last()); // the page the walk stopped on
    QCOMPARE(strip.chipLook(loop->fromRow).pageNumber, loop->fromPage);
    QCOMPARE(strip.chipLook(loop->toRow).pageNumber, loop->toPage);
    QCOMPARE(arcToolTip(strip, *loop).section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("Page %1 returned the cursor page %2 was asked with: a loop")
                 .arg(loop->fromPage)
                 .arg(loop->toPage));

    // A picture to look at: build-ci/tests/ui/pagestrip-tour-loop.png.
    const QString png =
        QDir(QStringLiteral(FOLIO_BINARY_DIR)).filePath(QStringLiteral("tests/ui/pagestrip-tour-loop.png"));
    QVERIFY(strip.grab().save(png));
    qInfo().noquote() << "page strip:" << png;
    client.disconnectFromServer();
}

QTEST_MAIN(tst_PageStrip)
#include "tst_pagestrip.moc"
