#include "timelineview.h"

#include "fonts.h"
#include "pagelanedelegate.h"
#include "pageledger.h"
#include "statuscolors.h"
#include "ttlclock.h"
#include "zoom.h"

#include <QDateTime>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QtMath>

#include <limits>

namespace folio {

namespace {

int RulerHeight()
{
    return zoomed(24);
}
int LaneHeight()
{
    return zoomed(22);
}
int LabelWidth()
{
    return zoomed(64);
}
int RightMargin()
{
    return zoomed(12);
}
constexpr int TickMs = 200;
constexpr int IdleTickMs = 1000;
constexpr int DragThreshold = 4;
constexpr qint64 MinSpanMs = 20;
constexpr qint64 MaxSpanMs = 7LL * 24 * 3600 * 1000;
constexpr qint64 Never = std::numeric_limits<qint64>::max();

bool isActive(PageRecord::State s)
{
    return s == PageRecord::State::Loading || s == PageRecord::State::Refetching ||
           s == PageRecord::State::Fresh;
}

qint64 niceStep(qreal msPerPixel, int minPixels)
{
    static const qint64 steps[] = {1,       2,       5,       10,       20,       50,      100,
                                   200,     250,     500,     1000,     2000,     5000,    10000,
                                   15000,   30000,   60000,   120000,   300000,   600000,  900000,
                                   1800000, 3600000, 7200000, 21600000, 43200000, 86400000};
    for (qint64 step : steps) {
        if (step / msPerPixel >= minPixels)
            return step;
    }
    return 86400000;
}

QString tickLabel(qint64 relativeMs, qint64 step)
{
    if (step >= 60000 && relativeMs % 60000 == 0)
        return QStringLiteral("%1 min").arg(relativeMs / 60000);
    const int decimals = step >= 1000 ? 0 : step >= 100 ? 1 : step >= 10 ? 2 : 3;
    return QStringLiteral("%1 s").arg(relativeMs / 1000.0, 0, 'f', decimals);
}

} // namespace

TimelineView::TimelineView(QWidget *parent)
    : LedgerView(Qt::Vertical, parent)
{
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setBackgroundRole(QPalette::Base);
    setAccessibleName(tr("Request timeline"));
    setItemDelegate(new PageLaneDelegate(this));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_start = now - 1000;
    m_end = now + 9000;
}

TimelineView::~TimelineView() = default;

QString TimelineView::pageAccessibleName(int ledgerRow) const
{
    if (!listModel() || ledgerRow < 0 || ledgerRow >= rowCount())
        return {};
    const PageRecord &page = ledger()->page(ledgerRow);
    QString name = tr("Request %1 of %2: %3 page %4")
                       .arg(QString::number(ledgerRow + 1), QString::number(rowCount()),
                            listModel()->source().requestTitle(), QString::number(page.index + 1));
    if (page.walk > 0)
        name += tr(", walk %1").arg(page.walk + 1);
    return name;
}

QString TimelineView::pageAccessibleDescription(int ledgerRow) const
{
    if (!listModel() || ledgerRow < 0 || ledgerRow >= rowCount())
        return {};
    return describeRequestBriefly(ledger()->page(ledgerRow), listModel()->walker()->ttlClock()->nowMs());
}

void TimelineView::rowsReset()
{
    if (listModel() != m_fitted) { // another list: fit it, learn its clock
        m_fitted = listModel();
        m_autoFit = true;
        m_hasWallOffset = false;
    }
    m_walkFirstSent.clear();
    m_active.clear();
    m_activeCount = 0;
    m_minSent = 0;
    m_maxEnd = 0;
    if (rowCount() > 0)
        rowsAppended(0, rowCount() - 1);
    else
        updateScrollRange();
}

void TimelineView::rowsAppended(int first, int last)
{
    m_walkFirstSent.resize(walkGroupCount());
    m_active.resize(rowCount());
    for (int row = first; row <= last; ++row)
        noteRow(row);
    refit();
    updateScrollRange();
}

bool TimelineView::drawsRoles(const QList<int> &roles) const
{
    // What a lane is drawn from; the cursors, findings and texts are not on it.
    static const QList<int> drawn{
        PageLedger::StateRole,     PageLedger::WalkRole,         PageLedger::PageIndexRole,
        PageLedger::AttemptsRole,  PageLedger::EffectiveTtlRole, PageLedger::LegacyRole,
        PageLedger::ErrorCodeRole, PageLedger::ErrorKindRole,    PageLedger::AnsweredRole};
    return roles.isEmpty() ||
           std::any_of(roles.cbegin(), roles.cend(), [](int role) { return drawn.contains(role); });
}

void TimelineView::rowsChanged(int first, int last)
{
    for (int row = first; row <= last; ++row)
        noteRow(row);
    // A changed request can move the fitted range, and with it every lane: all of it repaints.
    refit();
    viewport()->update();
}

void TimelineView::noteRow(int row)
{
    const auto state = PageRecord::State(pageData(row, PageLedger::StateRole).toInt());
    const quint8 active = isActive(state) ? 1 : 0;
    m_activeCount += int(active) - int(m_active[row]);
    m_active[row] = active;
    qint64 &groupSent = m_walkFirstSent[walkBreaksBefore(row)];
    const auto attempts = pageData(row, PageLedger::AttemptsRole).value<QList<PageRecord::Attempt>>();
    for (const PageRecord::Attempt &a : attempts) {
        if (a.sentAtMs <= 0)
            continue;
        m_minSent = m_minSent == 0 ? a.sentAtMs : qMin(m_minSent, a.sentAtMs);
        groupSent = groupSent == 0 ? a.sentAtMs : qMin(groupSent, a.sentAtMs);
        if (a.latencyMs >= 0)
            m_maxEnd = qMax(m_maxEnd, a.sentAtMs + a.latencyMs);
    }
    // The wall clock's offset from the TTL clock is bookkeeping between two clocks, not a fact a
    // lane shows: read from the record, which has both times of the answer.
    const PageRecord &p = ledger()->page(row);
    if (p.receivedMonoMs >= 0 && p.receivedAtMs > 0) {
        m_wallOffsetMs = p.receivedAtMs - p.receivedMonoMs;
        m_hasWallOffset = true;
        if (p.hintsExpected && p.effectiveTtlMs > 0)
            m_maxEnd = qMax(m_maxEnd, TtlClock::deadlineFor(p.receivedAtMs, p.effectiveTtlMs));
    }
}

bool TimelineView::isCurrentWalk(int walk) const
{
    return !listModel() || walk == listModel()->walker()->currentWalk();
}

int TimelineView::laneHeight()
{
    return LaneHeight();
}

qint64 TimelineView::walkEndMs(int ledgerRow) const
{
    const int group = walkBreaksBefore(ledgerRow);
    if (group + 1 < m_walkFirstSent.size() && m_walkFirstSent[group + 1] > 0)
        return m_walkFirstSent[group + 1];
    return Never;
}

qint64 TimelineView::nowWallMs() const
{
    if (listModel() && m_hasWallOffset)
        return listModel()->walker()->ttlClock()->nowMs() + m_wallOffsetMs;
    return QDateTime::currentMSecsSinceEpoch();
}

void TimelineView::refit()
{
    if (!m_autoFit)
        return;
    const qint64 now = nowWallMs();
    if (m_minSent == 0) {
        m_start = now - 1000;
        m_end = now + 9000;
        return;
    }
    const qint64 start = m_minSent;
    // Fresh bands can reach far (a day-long TTL); show them, but never squash the requests into a line.
    const qint64 elapsed = qMax<qint64>(now - start, 1000);
    const qint64 horizon = start + qMax<qint64>(2 * elapsed, 120000);
    qint64 end = qMax(now, qMin(m_maxEnd, horizon));
    const qint64 span = qMax<qint64>(end - start, 1000);
    m_start = start - span / 40;
    m_end = start + span + span / 25;
}

void TimelineView::fitAll()
{
    m_autoFit = true;
    refit();
    viewport()->update();
    updateTimer();
}

void TimelineView::setTimeRange(qint64 startMs, qint64 endMs)
{
    if (endMs - startMs < MinSpanMs)
        endMs = startMs + MinSpanMs;
    if (endMs - startMs > MaxSpanMs)
        endMs = startMs + MaxSpanMs;
    m_autoFit = false;
    m_start = startMs;
    m_end = endMs;
    viewport()->update();
}

QRect TimelineView::plotRect() const
{
    return QRect(LabelWidth(), RulerHeight(), qMax(1, viewport()->width() - LabelWidth() - RightMargin()),
                 qMax(0, viewport()->height() - RulerHeight()));
}

int TimelineView::xForTime(qint64 wallMs) const
{
    const QRect plot = plotRect();
    const qreal x =
        plot.left() + qreal(wallMs - m_start) * plot.width() / qreal(qMax<qint64>(1, m_end - m_start));
    return int(qBound(-1e6, x, 1e6));
}

qint64 TimelineView::timeForX(int x) const
{
    const QRect plot = plotRect();
    return m_start + qint64(qreal(x - plot.left()) * qreal(m_end - m_start) / plot.width());
}

int TimelineView::ledgerRowForLane(int lane) const
{
    if (lane < 0 || lane >= rowCount())
        return -1;
    for (int g = walkGroupCount() - 1; g >= 0; --g) {
        const int size = walkGroupEnd(g) - walkGroupFirst(g);
        if (lane < size)
            return walkGroupFirst(g) + lane;
        lane -= size;
    }
    return -1;
}

int TimelineView::laneForLedgerRow(int ledgerRow) const
{
    if (ledgerRow < 0 || ledgerRow >= rowCount())
        return -1;
    // Newest walk on top: the walks after the row's come first.
    const int group = walkBreaksBefore(ledgerRow);
    return rowCount() - walkGroupEnd(group) + ledgerRow - walkGroupFirst(group);
}

QPair<int, int> TimelineView::visiblePositions() const
{
    const int top = verticalScrollBar()->value();
    return {top / LaneHeight(),
            qMin(rowCount() - 1, (top + viewport()->height() - RulerHeight()) / LaneHeight())};
}

void TimelineView::scrollToRow(int ledgerRow)
{
    const int top = laneForLedgerRow(ledgerRow) * LaneHeight();
    QScrollBar *bar = verticalScrollBar();
    if (top < bar->value())
        bar->setValue(top);
    else if (top + LaneHeight() > bar->value() + viewport()->height() - RulerHeight())
        bar->setValue(top + LaneHeight() - (viewport()->height() - RulerHeight()));
    viewport()->update(); // the lane shading follows the current lane
}

QRect TimelineView::laneRect(int ledgerRow) const
{
    const int lane = laneForLedgerRow(ledgerRow);
    if (lane < 0)
        return {};
    return QRect(0, RulerHeight() + lane * LaneHeight() - verticalScrollBar()->value(), viewport()->width(),
                 LaneHeight());
}

int TimelineView::laneAt(const QPoint &pos) const
{
    if (pos.y() < RulerHeight())
        return -1;
    return ledgerRowForLane((pos.y() - RulerHeight() + verticalScrollBar()->value()) / LaneHeight());
}

void TimelineView::metricsChanged()
{
    updateGeometry();
    updateScrollRange();
}

void TimelineView::updateScrollRange()
{
    QScrollBar *bar = verticalScrollBar();
    bar->setRange(0, qMax(0, rowCount() * LaneHeight() - (viewport()->height() - RulerHeight())));
    bar->setPageStep(qMax(LaneHeight(), viewport()->height() - RulerHeight()));
    bar->setSingleStep(LaneHeight());
}

QSize TimelineView::sizeHint() const
{
    // Room for a short list's lanes; a longer one scrolls.
    return QSize(640, RulerHeight() + 6 * LaneHeight() + 4);
}

void TimelineView::updateTimer()
{
    // Something in flight or fresh moves at the animation's pace; a settled list still has a
    // "now" that walks right, once a second, so it never stops short of the present or runs off.
    if (m_activeCount > 0 && isVisible())
        animate(TickMs);
    else if (m_autoFit && rowCount() > 0 && isVisible())
        animate(IdleTickMs);
    else
        stopAnimating();
}

void TimelineView::tick()
{
    refit();
    viewport()->update();
    updateTimer();
}

void TimelineView::paint(QPainter *painter, const StatusColors &colors, const QRect &)
{
    const QRect plot = plotRect();
    const qint64 now = nowWallMs();

    if (rowCount() == 0) {
        paintRuler(painter, colors);
        painter->setPen(colors.mutedText());
        painter->drawText(plot.adjusted(8, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                          listModel() ? tr("No requests yet") : tr("No list"));
        return;
    }

    // Lanes under the ruler.
    painter->save();
    painter->setClipRect(QRect(0, RulerHeight(), viewport()->width(), viewport()->height() - RulerHeight()));
    const auto [firstLane, lastLane] = visiblePositions();
    // Alternate lane shading and the current lane first, then the tick grid, then the lanes' marks.
    for (int lane = firstLane; lane <= lastLane; ++lane) {
        const int row = ledgerRowForLane(lane);
        const QRect r = laneRect(row);
        if (row == currentPage())
            painter->fillRect(r, colors.tint(colors.highlight(), 0.14));
        else if (lane % 2 == 1)
            painter->fillRect(r,
                              StatusColors::mix(colors.palette().color(QPalette::Base), colors.text(), 0.03));
    }
    const qreal msPerPixel = qreal(m_end - m_start) / plot.width();
    const qint64 step = niceStep(msPerPixel, 80);
    const qint64 origin = m_minSent > 0 ? m_minSent : m_start;
    QColor grid = colors.track();
    painter->setPen(QPen(grid, 1));
    for (qint64 t = origin + qint64(std::ceil(qreal(m_start - origin) / step)) * step; t <= m_end;
         t += step) {
        const int x = xForTime(t);
        painter->drawLine(x, RulerHeight(), x, viewport()->height());
    }
    for (int lane = firstLane; lane <= lastLane; ++lane) {
        const int row = ledgerRowForLane(lane);
        paintRow(painter, row, laneRect(row));
    }
    painter->restore();

    // Now.
    const int nowX = xForTime(now);
    if (nowX >= plot.left() && nowX <= plot.right() + RightMargin()) {
        painter->setPen(QPen(colors.highlight(), 2));
        painter->drawLine(QPointF(nowX, RulerHeight() - 6), QPointF(nowX, viewport()->height()));
    }
    paintRuler(painter, colors);
}

void TimelineView::paintRuler(QPainter *painter, const StatusColors &colors)
{
    const QRect plot = plotRect();
    const QRect ruler(0, 0, viewport()->width(), RulerHeight());
    painter->fillRect(ruler, colors.palette().color(QPalette::Window));
    painter->setPen(colors.chipBorder());
    painter->drawLine(ruler.bottomLeft(), ruler.bottomRight());
    const QFont small = smallFont(font());
    painter->setFont(small);
    painter->setPen(colors.mutedText());
    painter->drawText(QRect(6, 0, LabelWidth() - 8, RulerHeight()), Qt::AlignLeft | Qt::AlignVCenter,
                      tr("page"));
    const qreal msPerPixel = qreal(m_end - m_start) / plot.width();
    const qint64 step = niceStep(msPerPixel, 80);
    const qint64 origin = m_minSent > 0 ? m_minSent : m_start;
    painter->save();
    painter->setClipRect(QRect(plot.left() - 30, 0, plot.width() + RightMargin() + 30, RulerHeight()));
    // The now tag first, so tick labels make room for it.
    // In the ruler's own font: the filled tag sets it apart, and a bold small font would be a
    // font engine (and glyphs) of its own for one word.
    QRect tag;
    const QFontMetrics fm(small);
    const int nowX = xForTime(nowWallMs());
    if (rowCount() > 0 && nowX >= plot.left() && nowX <= plot.right() + RightMargin()) {
        const int w = fm.horizontalAdvance(tr("now")) + 8;
        tag = QRect(nowX - w / 2, 2, w, RulerHeight() - 9);
    }
    for (qint64 t = origin + qint64(std::ceil(qreal(m_start - origin) / step)) * step; t <= m_end;
         t += step) {
        const int x = xForTime(t);
        painter->setPen(colors.chipBorder());
        painter->drawLine(x, RulerHeight() - 5, x, RulerHeight() - 1);
        const QString text = tickLabel(t - origin, step);
        const int w = fm.horizontalAdvance(text);
        const QRect label(x - w / 2, 0, w, RulerHeight() - 5);
        if (tag.isValid() && label.adjusted(-4, 0, 4, 0).intersects(tag))
            continue;
        painter->setPen(colors.mutedText());
        painter->drawText(label, Qt::AlignCenter, text);
    }
    if (tag.isValid()) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(colors.highlight());
        painter->setRenderHint(QPainter::Antialiasing);
        painter->drawRoundedRect(tag, 3, 3);
        painter->setPen(colors.palette().color(QPalette::HighlightedText));
        painter->drawText(tag, Qt::AlignCenter, tr("now"));
    }
    painter->restore();
}

QString TimelineView::toolTipAt(const QPoint &pos, QRect *area) const
{
    if (pos.y() < RulerHeight())
        return tr("Seconds since the first request. Wheel: zoom · Shift+wheel or drag: pan · "
                  "double click here: fit");
    QString text = LedgerView::toolTipAt(pos, area);
    if (text.isEmpty())
        return text;
    const auto attempts = pageData(laneAt(pos), PageLedger::AttemptsRole).value<QList<PageRecord::Attempt>>();
    const qint64 origin = m_minSent;
    for (int i = 0; i < attempts.size(); ++i) {
        const PageRecord::Attempt &a = attempts[i];
        QString line = a.refetch ? tr("refetch at +%1 s").arg((a.sentAtMs - origin) / 1000.0, 0, 'f', 2)
                                 : tr("request at +%1 s").arg((a.sentAtMs - origin) / 1000.0, 0, 'f', 2);
        line += a.latencyMs >= 0 ? tr(", %1 ms").arg(a.latencyMs) : tr(", in flight");
        if (a.failed)
            line += tr(", failed");
        text += QLatin1Char('\n') + line;
    }
    return text;
}

void TimelineView::zoomAround(int x, qreal factor)
{
    const qint64 anchor = timeForX(x);
    qint64 span = qint64((m_end - m_start) * factor);
    span = qBound(MinSpanMs, span, MaxSpanMs);
    const qreal ratio = qreal(anchor - m_start) / qreal(qMax<qint64>(1, m_end - m_start));
    const qint64 start = anchor - qint64(span * ratio);
    setTimeRange(start, start + span);
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    const QPoint pos = event->position().toPoint();
    if (pos.x() < LabelWidth() && delta.y() != 0) {
        // Over the page labels the wheel scrolls the lanes.
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y() * LaneHeight() * 3 / 120);
    } else if ((event->modifiers() & Qt::ShiftModifier) || qAbs(delta.x()) > qAbs(delta.y())) {
        const int pixels = qAbs(delta.x()) > qAbs(delta.y()) ? delta.x() : delta.y();
        const qint64 dt = qint64(qreal(pixels) / 2 * (m_end - m_start) / plotRect().width());
        setTimeRange(m_start - dt, m_end - dt);
    } else if (delta.y() != 0) {
        zoomAround(pos.x(), qPow(0.8, delta.y() / 120.0));
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        LedgerView::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_dragging = false;
    m_pressPos = event->position().toPoint();
    m_pressStart = m_start;
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_pressed)
        return;
    const QPoint pos = event->position().toPoint();
    if (!m_dragging && (pos - m_pressPos).manhattanLength() < DragThreshold)
        return;
    m_dragging = true;
    viewport()->setCursor(Qt::ClosedHandCursor);
    const qint64 span = m_end - m_start;
    const qint64 dt = qint64(qreal(pos.x() - m_pressPos.x()) * span / plotRect().width());
    setTimeRange(m_pressStart - dt, m_pressStart - dt + span);
    event->accept();
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_pressed) {
        LedgerView::mouseReleaseEvent(event);
        return;
    }
    m_pressed = false;
    if (m_dragging) {
        m_dragging = false;
        viewport()->unsetCursor();
    } else if (const int row = laneAt(event->position().toPoint()); row >= 0) {
        setCurrentPage(row);
        Q_EMIT pageActivated(row);
    }
    event->accept();
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->position().y() < RulerHeight()) {
        fitAll();
        event->accept();
        return;
    }
    mousePressEvent(event);
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    // Up, Down, pages, End and Enter move and open lanes (LedgerView); Home fits, as a double
    // click on the ruler does.
    switch (event->key()) {
    case Qt::Key_Home:
    case Qt::Key_0:
        fitAll();
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAround(plotRect().center().x(), 0.8);
        break;
    case Qt::Key_Minus:
        zoomAround(plotRect().center().x(), 1.25);
        break;
    default:
        LedgerView::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    LedgerView::resizeEvent(event);
    updateScrollRange();
}

void TimelineView::scrollContentsBy(int, int)
{
    viewport()->update();
}

void TimelineView::showEvent(QShowEvent *event)
{
    refit();
    LedgerView::showEvent(event);
}

} // namespace folio
