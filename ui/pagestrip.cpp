#include "pagestrip.h"

#include "pagewalker.h"

#include "cursordecoder.h"
#include "fonts.h"
#include "pagechipdelegate.h"
#include "pagedlistmodel.h"
#include "pageledger.h"
#include "statuscolors.h"
#include "ttlclock.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtMath>

#include "zoom.h"

#include <algorithm>
#include <cmath>

namespace folio {

namespace {

int ChipWidth()
{
    return PageChipDelegate::chipWidth();
}
int Spacing()
{
    return zoomed(6);
}
int WalkGap()
{
    return zoomed(28);
}
int SideMargin()
{
    return zoomed(8);
}
// Room above the chips for the loop arcs, and below them for the duplicate links.
int ArcBand()
{
    return zoomed(20);
}
int LinkBand()
{
    return zoomed(10);
}
int TopMargin()
{
    return ArcBand();
}
int ArrowSize()
{
    return zoomed(5);
}
quint64 pageKey(int walk, int index)
{
    return (quint64(quint32(walk)) << 32) | quint32(index);
}
constexpr int CountdownTickMs = 200;
constexpr int SpinnerTickMs = 80;
} // namespace

PageStrip::PageStrip(QWidget *parent)
    : LedgerView(Qt::Horizontal, parent)
{
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    // Chips are cards on the window colour, like the toolbar they sit under.
    viewport()->setBackgroundRole(QPalette::Window);
    viewport()->setMouseTracking(false);
    setAccessibleName(tr("Page strip"));
    m_chips = new PageChipDelegate(this);
    setItemDelegate(m_chips);
    updateMetrics();
}

void PageStrip::rowsReset()
{
    m_lastFoldEnd = foldEnd();
    m_pageRows.clear();
    m_arcs.clear();
    m_duplicateLinks = 0;
    notePageRows(0, rowCount() - 1);
    updateArcs(0, rowCount() - 1);
    updateScrollRange();
}

void PageStrip::rowsAppended(int first, int last)
{
    notePageRows(first, last);
    updateArcs(first, last);
    // New chips scroll into view while the strip shows the end, and a new walk always: the
    // walks before fold away behind it.
    QScrollBar *bar = horizontalScrollBar();
    const bool newWalk = foldEnd() != m_lastFoldEnd;
    m_lastFoldEnd = foldEnd();
    const bool atEnd = bar->value() >= bar->maximum();
    updateScrollRange();
    if (atEnd || newWalk)
        bar->setValue(bar->maximum());
}

void PageStrip::rowsChanged(int first, int last)
{
    LedgerView::rowsChanged(first, last);
    updateArcs(first, last); // findings are added to a page after its answer
}

void PageStrip::notePageRows(int first, int last)
{
    if (!ledger())
        return;
    for (int row = first; row <= last; ++row) {
        const PageRecord &p = ledger()->page(row);
        m_pageRows.insert(pageKey(p.walk, p.index), row); // a retried page: its last attempt
    }
}

QList<PageStrip::Arc> PageStrip::arcsOf(int ledgerRow) const
{
    QList<Arc> arcs;
    const PageRecord &p = ledger()->page(ledgerRow);
    for (const Finding &f : p.findings) {
        const bool loop = f.id == FindingId::CursorRepeated;
        if (!loop && f.id != FindingId::DuplicateItem)
            continue;
        // A loop names the page that was first asked with the cursor; a duplicate, every earlier
        // page that held one of its items first.
        for (int other : f.pages.mid(1)) {
            const int to = m_pageRows.value(pageKey(p.walk, other), -1);
            if (to < 0 || (!loop && to == ledgerRow))
                continue;
            Arc arc;
            arc.kind = loop ? Arc::Kind::Loop : Arc::Kind::Duplicate;
            arc.fromRow = ledgerRow;
            arc.toRow = to;
            arc.fromPage = p.index + 1;
            arc.toPage = other + 1;
            if (loop) {
                arc.detail = f.evidence.value(QStringLiteral("cursor")).toString();
            } else {
                for (const QJsonValue &e : f.evidence.value(QStringLiteral("examples")).toArray()) {
                    if (e.toObject().value(QStringLiteral("firstPage")).toInt() == other + 1) {
                        arc.detail = e.toObject().value(QStringLiteral("identity")).toString();
                        break;
                    }
                }
            }
            arcs.append(arc);
        }
    }
    return arcs;
}

void PageStrip::updateArcs(int first, int last)
{
    if (!ledger())
        return;
    for (int row = first; row <= last; ++row) {
        const auto it = m_arcs.constFind(row);
        // Most pages have no findings and never had an arc: nothing to compute.
        if (ledger()->page(row).findings.isEmpty() && it == m_arcs.constEnd())
            continue;
        const QList<Arc> now = arcsOf(row);
        const QList<Arc> before = it == m_arcs.constEnd() ? QList<Arc>() : *it;
        if (now == before)
            continue;
        // Only the areas of the arcs that came or went are repainted.
        for (const Arc &arc : before) {
            viewport()->update(arcRect(arc));
            m_duplicateLinks -= arc.kind == Arc::Kind::Duplicate ? 1 : 0;
        }
        for (const Arc &arc : now) {
            viewport()->update(arcRect(arc));
            m_duplicateLinks += arc.kind == Arc::Kind::Duplicate ? 1 : 0;
        }
        if (now.isEmpty())
            m_arcs.remove(row);
        else
            m_arcs.insert(row, now);
    }
}

QList<PageStrip::Arc> PageStrip::arcs() const
{
    QList<Arc> all;
    for (const QList<Arc> &list : m_arcs)
        all += list;
    return all;
}

bool PageStrip::drawsRoles(const QList<int> &roles) const
{
    // What a chip is drawn from (chipLook()); timings, cursors and texts are not on it.
    static const QList<int> drawn{
        PageLedger::StateRole,     PageLedger::WalkRole,         PageLedger::PageIndexRole,
        PageLedger::ExpiresAtRole, PageLedger::EffectiveTtlRole, PageLedger::ScopeRole,
        PageLedger::LegacyRole,    PageLedger::SeveritiesRole,   PageLedger::ErrorCodeRole,
        PageLedger::ErrorKindRole, PageLedger::HttpStatusRole,   PageLedger::ItemCountRole,
        PageLedger::AnsweredRole};
    return roles.isEmpty() ||
           std::any_of(roles.cbegin(), roles.cend(), [](int role) { return drawn.contains(role); });
}

PageStrip::~PageStrip() = default;

int PageStrip::leadWidth() const
{
    return foldEnd() == 0 ? 0 : m_foldWidth + WalkGap();
}

int PageStrip::contentX(int ledgerRow) const
{
    const int first = firstShownRow();
    if (ledgerRow < first)
        return SideMargin(); // folded away, under the block
    return SideMargin() + leadWidth() + (ledgerRow - first) * (ChipWidth() + Spacing()) +
           (walkBreaksBefore(ledgerRow) - walkBreaksBefore(first)) * WalkGap();
}

int PageStrip::contentWidth() const
{
    if (rowCount() == 0)
        return 0;
    return contentX(rowCount() - 1) + ChipWidth() + SideMargin();
}

int PageStrip::indexAtContentX(int x, bool *onChip) const
{
    // The first chip whose right edge lies past x; chip positions grow with the row.
    int lo = firstShownRow(), hi = rowCount();
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (contentX(mid) + ChipWidth() > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (onChip)
        *onChip = lo < rowCount() && contentX(lo) <= x;
    return lo;
}

QPair<int, int> PageStrip::visibleRange() const
{
    if (rowCount() == 0)
        return {0, -1};
    const int left = horizontalScrollBar()->value();
    const int right = left + viewport()->width();
    const int first = indexAtContentX(left, nullptr);
    int last = indexAtContentX(right, nullptr);
    if (last >= rowCount() || contentX(last) >= right)
        --last;
    return {first, qMin(last, rowCount() - 1)};
}

void PageStrip::updateMetrics()
{
    m_chips->setFont(font());
    // The fold block's width, measured once per font (the layout reads it for every chip).
    const QFontMetrics fm(m_chips->labelFont());
    m_foldWidth =
        qMax(ChipWidth() * 3 / 2, fm.horizontalAdvance(tr("%n earlier walk(s)", nullptr, 88)) + zoomed(16));
}

int PageStrip::chipHeight() const
{
    return m_chips->chipHeight();
}

QRect PageStrip::chipRect(int ledgerRow) const
{
    if (ledgerRow < firstShownRow() || ledgerRow >= rowCount())
        return {};
    return QRect(contentX(ledgerRow) - horizontalScrollBar()->value(), TopMargin(), ChipWidth(),
                 chipHeight());
}

int PageStrip::chipAt(const QPoint &pos) const
{
    if (pos.y() < TopMargin() || pos.y() > TopMargin() + chipHeight())
        return -1;
    bool onChip = false;
    const int row = indexAtContentX(pos.x() + horizontalScrollBar()->value(), &onChip);
    return onChip ? row : -1;
}

int PageStrip::separatorAt(const QPoint &pos) const
{
    const int x = pos.x() + horizontalScrollBar()->value();
    for (int start : walkStarts()) {
        if (start < firstShownRow())
            continue;
        const int right = contentX(start);
        if (x >= right - WalkGap() - Spacing() && x < right)
            return start;
        if (right > x)
            break;
    }
    return -1;
}

void PageStrip::updateScrollRange()
{
    QScrollBar *bar = horizontalScrollBar();
    bar->setRange(0, qMax(0, contentWidth() - viewport()->width()));
    bar->setPageStep(qMax(1, viewport()->width()));
    bar->setSingleStep(ChipWidth() + Spacing());
}

QSize PageStrip::sizeHint() const
{
    const int scrollBar = horizontalScrollBar()->sizeHint().height();
    return QSize(SideMargin() * 2 + 8 * (ChipWidth() + Spacing()),
                 ArcBand() + chipHeight() + LinkBand() + scrollBar + 2);
}

QSize PageStrip::minimumSizeHint() const
{
    return QSize(SideMargin() * 2 + ChipWidth(), sizeHint().height());
}

PageStrip::ChipLook PageStrip::chipLook(int ledgerRow) const
{
    return PageChipDelegate::lookOf(indexOfRow(ledgerRow), nowMs());
}

void PageStrip::paint(QPainter *painter, const StatusColors &colors, const QRect &exposed)
{
    const QPair<int, int> range = visibleRange();
    if (rowCount() == 0) {
        painter->setPen(colors.mutedText());
        const QString text = listModel() && listModel()->walker()->isLoading()
                                 ? tr("Asking for the first page\u2026")
                             : listModel() ? tr("No pages yet: scroll the list or Load all")
                                           : tr("No list");
        painter->drawText(viewport()->rect().adjusted(SideMargin(), 0, -SideMargin(), 0),
                          Qt::AlignVCenter | Qt::AlignLeft, text);
        return;
    }

    // Separators of the walks that show, then the chips the exposed region touches.
    const int left = horizontalScrollBar()->value();
    const int right = left + viewport()->width();
    if (foldEnd() > 0)
        paintFold(painter, colors);
    for (int start : walkStarts()) {
        if (start < firstShownRow())
            continue;
        const int x = contentX(start);
        if (x < left)
            continue;
        if (x - WalkGap() - Spacing() > right)
            break;
        paintSeparator(painter, start, colors);
    }
    for (int row = range.first; row <= range.second; ++row) {
        const QRect r = chipRect(row);
        if (!exposed.intersects(r.adjusted(-2, -2, 2, 2)))
            continue;
        paintRow(painter, row, r);
    }
    paintArcs(painter, colors, exposed);
}

QRect PageStrip::arcRect(const Arc &arc) const
{
    const QRect from = chipRect(arc.fromRow);
    const QRect to = chipRect(arc.toRow);
    if (from.isEmpty() || to.isEmpty())
        return {};
    const int left = qMin(from.center().x(), to.center().x()) - ChipWidth() / 4 - 2;
    const int right = qMax(from.center().x(), to.center().x()) + ChipWidth() / 4 + 2;
    if (arc.kind == Arc::Kind::Loop)
        return QRect(left, 0, right - left + 1, from.top() + 2);
    return QRect(left, from.bottom() - 1, right - left + 1, LinkBand() + 2);
}

QPainterPath PageStrip::arcPath(const Arc &arc) const
{
    const QRectF from = chipRect(arc.fromRow);
    const QRectF to = chipRect(arc.toRow);
    QPainterPath path;
    if (arc.kind == Arc::Kind::Loop) {
        // Up from the page that returned the cursor and down into the page first asked with it; a
        // cubic whose control points sit at k above the chips peaks at three quarters of k.
        const qreal top = from.top();
        const qreal k = (ArcBand() - 4) / 0.75;
        if (arc.fromRow == arc.toRow) { // the cursor never advanced: a loop on the chip itself
            const qreal cx = from.center().x(), w = ChipWidth() / 5.0;
            path.moveTo(cx + w, top);
            path.cubicTo(cx + 1.8 * w, top - k, cx - 1.8 * w, top - k, cx - w, top);
            return path;
        }
        const qreal x0 = from.center().x() - ChipWidth() / 8.0; // two arcs at one chip stay apart
        const qreal x1 = to.center().x() + ChipWidth() / 8.0;
        path.moveTo(x0, top);
        path.cubicTo(x0, top - k, x1, top - k, x1, top);
        return path;
    }
    const qreal bottom = from.bottom() + 1;
    const qreal k = (LinkBand() - 2) / 0.75;
    const qreal x0 = from.center().x(), x1 = to.center().x();
    path.moveTo(x0, bottom);
    path.cubicTo(x0, bottom + k, x1, bottom + k, x1, bottom);
    return path;
}

void PageStrip::paintArcs(QPainter *painter, const StatusColors &colors, const QRect &exposed)
{
    if (m_arcs.isEmpty())
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setBrush(Qt::NoBrush);
    const QPen loopPen(colors.loopArc(), qMax(1.5, 1.6 * uiZoom()), Qt::SolidLine, Qt::RoundCap);
    QPen linkPen(colors.duplicateLink(), qMax(1.0, uiZoom()), Qt::DashLine, Qt::FlatCap);
    int duplicates = 0;
    for (const QList<Arc> &list : std::as_const(m_arcs)) {
        for (const Arc &arc : list) {
            const bool loop = arc.kind == Arc::Kind::Loop;
            if (!loop && ++duplicates > MaxDuplicateLinks)
                continue;
            if (!exposed.intersects(arcRect(arc)))
                continue;
            const QPainterPath path = arcPath(arc);
            painter->setPen(loop ? loopPen : linkPen);
            painter->setBrush(Qt::NoBrush);
            painter->drawPath(path);
            if (!loop)
                continue;
            // The arrowhead, at the page first asked with the cursor, along the curve's last tangent.
            const QPointF tip = path.pointAtPercent(1);
            const qreal angle = qDegreesToRadians(path.angleAtPercent(1));
            const QPointF dir(std::cos(angle), -std::sin(angle));
            const QPointF normal(-dir.y(), dir.x());
            const qreal a = ArrowSize();
            QPolygonF head{tip, tip - dir * a * 1.6 + normal * a, tip - dir * a * 1.6 - normal * a};
            painter->setPen(Qt::NoPen);
            painter->setBrush(colors.loopArc());
            painter->drawPolygon(head);
        }
    }
    painter->restore();
}

const PageStrip::Arc *PageStrip::arcAt(const QPoint &pos) const
{
    QPainterPathStroker stroker;
    stroker.setWidth(zoomed(8));
    int duplicates = 0;
    for (const QList<Arc> &list : m_arcs) {
        for (const Arc &arc : list) {
            if (arc.kind == Arc::Kind::Duplicate && ++duplicates > MaxDuplicateLinks)
                continue;
            if (arcRect(arc).contains(pos) && stroker.createStroke(arcPath(arc)).contains(pos))
                return &arc;
        }
    }
    return nullptr;
}

QString PageStrip::arcToolTip(const Arc &arc) const
{
    const bool masked = ledger() && ledger()->maskCursors();
    QString text;
    if (arc.kind == Arc::Kind::Loop) {
        text = arc.fromRow == arc.toRow
                   ? tr("Page %1 returned the cursor it was asked with: the cursor never advances")
                         .arg(arc.fromPage)
                   : tr("Page %1 returned the cursor page %2 was asked with: a loop")
                         .arg(QString::number(arc.fromPage), QString::number(arc.toPage));
        const QString cursor = arc.detail.isEmpty() ? QStringLiteral("\"\"")
                               : masked             ? maskCursor(arc.detail)
                                                    : arc.detail;
        text += QLatin1Char('\n') + tr("cursor %1 (cursor-repeated; the walk stopped)").arg(cursor);
        return text;
    }
    text = tr("Page %1 holds items page %2 held already: duplicates")
               .arg(QString::number(arc.fromPage), QString::number(arc.toPage));
    if (!arc.detail.isEmpty())
        text += QLatin1Char('\n') + tr("e.g. %1 (duplicate-item)").arg(arc.detail);
    if (m_duplicateLinks > MaxDuplicateLinks)
        text += QLatin1Char('\n') +
                tr("+%n more duplicate link(s), not drawn", nullptr, m_duplicateLinks - MaxDuplicateLinks);
    return text;
}

void PageStrip::paintSeparator(QPainter *painter, int walkStartRow, const StatusColors &colors)
{
    const int x = contentX(walkStartRow) - horizontalScrollBar()->value() - (WalkGap() + Spacing()) / 2;
    const QRect chip = chipRect(walkStartRow);
    painter->save();
    painter->setFont(m_chips->labelFont());
    painter->setPen(colors.mutedText());
    const QRect label(x - WalkGap() / 2, chip.top(), WalkGap(), m_chips->labelHeight());
    painter->drawText(label, Qt::AlignCenter,
                      QStringLiteral("w%1").arg(pageData(walkStartRow, PageLedger::WalkRole).toInt() + 1));
    QPen pen(colors.mutedText(), 1, Qt::DashLine);
    painter->setPen(pen);
    painter->drawLine(QPointF(x + 0.5, label.bottom() + 3), QPointF(x + 0.5, chip.bottom()));
    painter->restore();
}

void PageStrip::updateTimer()
{
    bool needed = false;
    bool fast = false;
    if (ledger() && isVisible()) {
        const QPair<int, int> range = visibleRange();
        for (int row = range.first; row <= range.second; ++row) {
            const auto s = PageRecord::State(pageData(row, PageLedger::StateRole).toInt());
            if (s == PageRecord::State::Loading || s == PageRecord::State::Refetching) {
                needed = fast = true;
                break;
            }
            if (s == PageRecord::State::Fresh)
                needed = true;
        }
    }
    if (needed)
        animate(fast ? SpinnerTickMs : CountdownTickMs);
    else
        stopAnimating();
}

void PageStrip::tick()
{
    if (!ledger()) {
        stopAnimating();
        return;
    }
    // Only the animated parts of the visible chips: bars that drain or stripe, spinners.
    const QPair<int, int> range = visibleRange();
    for (int row = range.first; row <= range.second; ++row) {
        const auto s = PageRecord::State(pageData(row, PageLedger::StateRole).toInt());
        const QRect chip = chipRect(row);
        if (s == PageRecord::State::Fresh || s == PageRecord::State::Refetching)
            viewport()->update(m_chips->barRect(chip));
        else if (s == PageRecord::State::Loading)
            viewport()->update(m_chips->countRect(chip));
    }
    updateTimer();
}

void PageStrip::metricsChanged()
{
    updateMetrics();
    updateGeometry();
    updateScrollRange();
}

void PageStrip::resizeEvent(QResizeEvent *event)
{
    LedgerView::resizeEvent(event);
    updateScrollRange();
    updateTimer();
}

void PageStrip::scrollContentsBy(int, int)
{
    viewport()->update();
    updateTimer();
}

void PageStrip::scrollToPage(int ledgerRow)
{
    if (ledgerRow < 0 || ledgerRow >= rowCount())
        return;
    if (ledgerRow < firstShownRow())
        setEarlierWalksShown(true); // a page of an earlier walk was asked for: show it
    QScrollBar *bar = horizontalScrollBar();
    const int x = contentX(ledgerRow);
    if (x - SideMargin() < bar->value())
        bar->setValue(x - SideMargin());
    else if (x + ChipWidth() + SideMargin() > bar->value() + viewport()->width())
        bar->setValue(x + ChipWidth() + SideMargin() - viewport()->width());
}

void PageStrip::wheelEvent(QWheelEvent *event)
{
    // A strip scrolls sideways whichever way the wheel turns.
    const QPoint delta = event->angleDelta();
    const int steps = qAbs(delta.x()) > qAbs(delta.y()) ? delta.x() : delta.y();
    QScrollBar *bar = horizontalScrollBar();
    bar->setValue(bar->value() - steps * (ChipWidth() + Spacing()) / 120);
    event->accept();
}

QString PageStrip::toolTipAt(const QPoint &pos, QRect *area) const
{
    if (chipAt(pos) >= 0)
        return LedgerView::toolTipAt(pos, area);
    if (foldRect().contains(pos)) {
        *area = foldRect();
        return foldToolTip();
    }
    if (const Arc *arc = arcAt(pos)) {
        *area = arcRect(*arc);
        return arcToolTip(*arc);
    }
    if (const int start = separatorAt(pos); start >= 0)
        return separatorToolTip(start);
    return {};
}

QString PageStrip::separatorToolTip(int walkStartRow) const
{
    // The reason a walk was thrown away is text, not a role: read from the record.
    const PageRecord &previous = ledger()->page(walkStartRow - 1);
    const int walk = pageData(walkStartRow, PageLedger::WalkRole).toInt() + 1;
    if (previous.discardReason.isEmpty())
        return tr("walk %1").arg(walk);
    return tr("walk %1 \u2014 restarted: %2").arg(QString::number(walk), previous.discardReason);
}

QRect PageStrip::foldRect() const
{
    if (foldEnd() == 0)
        return {};
    return QRect(SideMargin() - horizontalScrollBar()->value(), TopMargin(), leadWidth() - WalkGap(),
                 chipHeight());
}

void PageStrip::setEarlierWalksShown(bool shown)
{
    if (shown == m_earlierWalksShown)
        return;
    m_earlierWalksShown = shown;
    updateScrollRange();
    // Shown, the strip starts at the first walk; folded, it goes back to the page in hand (or the
    // live walk's end).
    QScrollBar *bar = horizontalScrollBar();
    if (shown)
        bar->setValue(0);
    else if (const int current = currentPage(); current >= firstShownRow())
        scrollToPage(current);
    else
        bar->setValue(bar->maximum());
    viewport()->update();
    updateTimer();
}

void PageStrip::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && foldRect().contains(event->position().toPoint())) {
        setEarlierWalksShown(!m_earlierWalksShown);
        event->accept();
        return;
    }
    LedgerView::mousePressEvent(event);
}

QString PageStrip::foldToolTip() const
{
    const int walks = int(walkStarts().size());
    const QString what = tr("%n earlier walk(s)", nullptr, walks) + QStringLiteral(", ") +
                         tr("%n page(s)", nullptr, foldEnd());
    return m_earlierWalksShown ? tr("%1: click to fold them away").arg(what)
                               : tr("%1, folded: click to show them").arg(what);
}

void PageStrip::paintFold(QPainter *painter, const StatusColors &colors)
{
    const QRect r = foldRect();
    if (!r.intersects(viewport()->rect()))
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    // A stack of cards, struck chips' colour: history, put away.
    const QRectF card = QRectF(r).adjusted(0.5, 0.5, -3.5, -3.5);
    painter->setPen(QPen(colors.chipBorder(), 1));
    painter->setBrush(colors.chipFill());
    if (!m_earlierWalksShown)
        painter->drawRoundedRect(card.translated(3, 3), 4, 4);
    painter->setPen(QPen(colors.discarded(), 1, m_earlierWalksShown ? Qt::DashLine : Qt::SolidLine));
    painter->drawRoundedRect(card, 4, 4);
    // A chevron that points where the click goes: right to open, left to fold.
    const qreal h = zoomed(4);
    const QPointF c(card.left() + zoomed(10), card.center().y());
    QPainterPath chevron;
    if (m_earlierWalksShown) {
        chevron.moveTo(c.x() + h / 2, c.y() - h);
        chevron.lineTo(c.x() - h / 2, c.y());
        chevron.lineTo(c.x() + h / 2, c.y() + h);
    } else {
        chevron.moveTo(c.x() - h / 2, c.y() - h);
        chevron.lineTo(c.x() + h / 2, c.y());
        chevron.lineTo(c.x() - h / 2, c.y() + h);
    }
    painter->setPen(
        QPen(colors.mutedText(), qMax(1.5, 1.5 * uiZoom()), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(chevron);
    painter->setFont(m_chips->labelFont());
    painter->setPen(colors.mutedText());
    const int walks = int(walkStarts().size());
    const QRectF text = card.adjusted(zoomed(18), 2, -2, -2);
    const QString lines = tr("%n earlier walk(s)", nullptr, walks) + QLatin1Char('\n') +
                          (m_earlierWalksShown ? tr("fold") : tr("%n page(s)", nullptr, foldEnd()));
    painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter, lines);
    painter->restore();
}

} // namespace folio
