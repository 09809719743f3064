#include "pagestrip.h"

#include "fonts.h"
#include "pagedlistmodel.h"
#include "pageledger.h"
#include "statuscolors.h"
#include "ttlclock.h"
#include "uilogging.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>

namespace folio {

namespace {

constexpr int ChipWidth = 68;
constexpr int Spacing = 6;
constexpr int WalkGap = 28;
constexpr int SideMargin = 8;
constexpr int TopMargin = 6;
constexpr int Pad = 7;
constexpr int BarHeight = 5;
constexpr int BadgeSize = 11;
constexpr int ScopeBadgeSize = 14;
constexpr int CountdownTickMs = 200;
constexpr int SpinnerTickMs = 80;
// The last fifth of a countdown blends from green to amber: a page about to go stale says so.
constexpr qreal WarnFraction = 0.2;

qint64 animationClockMs()
{
    static QElapsedTimer timer;
    if (!timer.isValid())
        timer.start();
    return timer.elapsed();
}

} // namespace

PageStrip::PageStrip(QWidget *parent)
    : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setFrameShape(QFrame::NoFrame);
    // Chips are cards on the window colour, like the toolbar they sit under.
    viewport()->setBackgroundRole(QPalette::Window);
    viewport()->setMouseTracking(false);
    setAccessibleName(tr("Page strip"));
    m_tick.setTimerType(Qt::CoarseTimer);
    connect(&m_tick, &QTimer::timeout, this, &PageStrip::tick);
    updateMetrics();
}

PageStrip::~PageStrip() = default;

void PageStrip::setListModel(PagedListModel *model)
{
    if (m_model == model)
        return;
    if (m_model) {
        m_model->disconnect(this);
        if (m_ledger)
            m_ledger->disconnect(this);
    }
    m_model = model;
    m_ledger = model ? model->ledger() : nullptr;
    if (m_ledger) {
        connect(m_ledger, &QAbstractItemModel::rowsInserted, this,
                [this](const QModelIndex &, int first, int last) { handleRowsInserted(first, last); });
        connect(
            m_ledger, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &tl, const QModelIndex &br) { handleDataChanged(tl.row(), br.row()); });
        connect(m_ledger, &QAbstractItemModel::modelReset, this, &PageStrip::rebuild);
        connect(m_ledger, &QAbstractItemModel::rowsRemoved, this, &PageStrip::rebuild);
        connect(m_ledger, &QObject::destroyed, this, [this] {
            m_ledger = nullptr;
            rebuild();
        });
        // A restart draws the separator before the new walk's first chip exists.
        connect(m_model->walker(), &PageWalker::walkRestarted, this, [this] { viewport()->update(); });
    }
    // Like a QAbstractItemView: a new model comes with a selection of the strip's own.
    QItemSelectionModel *oldOwn = m_ownSelection;
    m_ownSelection = new QItemSelectionModel(m_ledger, this);
    setSelectionModel(m_ownSelection);
    delete oldOwn;
    rebuild();
}

void PageStrip::setSelectionModel(QItemSelectionModel *selection)
{
    if (!selection)
        selection = m_ownSelection;
    if (selection && selection->model() != m_ledger) {
        qCWarning(lcUi) << "the page strip was given a selection over another model; kept its own";
        return;
    }
    if (selection == m_selection)
        return;
    if (m_selection)
        m_selection->disconnect(this);
    m_selection = selection;
    if (m_selection)
        connect(m_selection, &QItemSelectionModel::currentRowChanged, this,
                [this](const QModelIndex &current) { handleCurrentRowChanged(current); });
    handleCurrentRowChanged(m_selection ? m_selection->currentIndex() : QModelIndex());
}

int PageStrip::currentPage() const
{
    const QModelIndex current = m_selection ? m_selection->currentIndex() : QModelIndex();
    return current.isValid() && current.row() < m_count ? current.row() : -1;
}

void PageStrip::handleCurrentRowChanged(const QModelIndex &current)
{
    const int row = current.isValid() && current.row() < m_count ? current.row() : -1;
    if (row == m_current)
        return;
    const int old = m_current;
    m_current = row;
    updateChip(old);
    updateChip(m_current);
    scrollToPage(m_current);
    Q_EMIT currentPageChanged(m_current);
}

void PageStrip::rebuild()
{
    m_walkStarts.clear();
    m_count = m_ledger ? m_ledger->rowCount() : 0;
    for (int row = 1; row < m_count; ++row) {
        if (m_ledger->page(row).walk != m_ledger->page(row - 1).walk)
            m_walkStarts.append(row);
    }
    updateScrollRange();
    viewport()->update();
    updateTimer();
    // A reset clears the selection without a signal (QItemSelectionModel::reset()): tell it here.
    handleCurrentRowChanged(m_selection ? m_selection->currentIndex() : QModelIndex());
}

void PageStrip::handleRowsInserted(int first, int last)
{
    // Ledger rows are appended in request order; a walk number change opens a new group.
    for (int row = qMax(1, first); row <= last; ++row) {
        if (m_ledger->page(row).walk != m_ledger->page(row - 1).walk)
            m_walkStarts.append(row);
    }
    if (first != m_count) { // not an append: start over
        rebuild();
        return;
    }
    QScrollBar *bar = horizontalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum();
    m_count = m_ledger->rowCount();
    updateScrollRange();
    if (atEnd)
        bar->setValue(bar->maximum());
    viewport()->update();
    updateTimer();
}

void PageStrip::handleDataChanged(int first, int last)
{
    const QPair<int, int> visible = visibleRange();
    const int from = qMax(first, visible.first);
    const int to = qMin(last, visible.second);
    for (int row = from; row <= to; ++row)
        updateChip(row);
    updateTimer();
}

void PageStrip::updateChip(int ledgerRow)
{
    const QRect r = chipRect(ledgerRow);
    if (!r.isEmpty())
        viewport()->update(r.adjusted(-2, -2, 2, 2));
}

int PageStrip::walkBreaksBefore(int ledgerRow) const
{
    return int(std::upper_bound(m_walkStarts.cbegin(), m_walkStarts.cend(), ledgerRow) -
               m_walkStarts.cbegin());
}

int PageStrip::contentX(int ledgerRow) const
{
    return SideMargin + ledgerRow * (ChipWidth + Spacing) + walkBreaksBefore(ledgerRow) * WalkGap;
}

int PageStrip::contentWidth() const
{
    if (m_count == 0)
        return 0;
    return contentX(m_count - 1) + ChipWidth + SideMargin;
}

int PageStrip::indexAtContentX(int x, bool *onChip) const
{
    // The first chip whose right edge lies past x; chip positions grow with the row.
    int lo = 0, hi = m_count;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (contentX(mid) + ChipWidth > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    if (onChip)
        *onChip = lo < m_count && contentX(lo) <= x;
    return lo;
}

QPair<int, int> PageStrip::visibleRange() const
{
    if (m_count == 0)
        return {0, -1};
    const int left = horizontalScrollBar()->value();
    const int right = left + viewport()->width();
    const int first = indexAtContentX(left, nullptr);
    int last = indexAtContentX(right, nullptr);
    if (last >= m_count || contentX(last) >= right)
        --last;
    return {first, qMin(last, m_count - 1)};
}

void PageStrip::updateMetrics()
{
    m_smallFont = smallFont(font());
    m_countFont = titleFont(font());
    m_codeFont = font();
    m_codeFont.setBold(true);
    m_smallHeight = QFontMetrics(m_smallFont).height();
    m_countHeight = QFontMetrics(m_countFont).height();
}

int PageStrip::chipHeight() const
{
    return Pad + m_smallHeight + 2 + m_countHeight + 4 + BarHeight + Pad;
}

QRect PageStrip::chipRect(int ledgerRow) const
{
    if (ledgerRow < 0 || ledgerRow >= m_count)
        return {};
    return QRect(contentX(ledgerRow) - horizontalScrollBar()->value(), TopMargin, ChipWidth, chipHeight());
}

int PageStrip::chipAt(const QPoint &pos) const
{
    if (pos.y() < TopMargin || pos.y() > TopMargin + chipHeight())
        return -1;
    bool onChip = false;
    const int row = indexAtContentX(pos.x() + horizontalScrollBar()->value(), &onChip);
    return onChip ? row : -1;
}

int PageStrip::separatorAt(const QPoint &pos) const
{
    const int x = pos.x() + horizontalScrollBar()->value();
    for (int start : m_walkStarts) {
        const int right = contentX(start);
        if (x >= right - WalkGap - Spacing && x < right)
            return start;
        if (right > x)
            break;
    }
    return -1;
}

QRect PageStrip::barRect(const QRect &chip) const
{
    return QRect(chip.left() + Pad, chip.bottom() - Pad - BarHeight + 1, chip.width() - 2 * Pad, BarHeight);
}

QRect PageStrip::countRect(const QRect &chip) const
{
    return QRect(chip.left() + Pad, chip.top() + Pad + m_smallHeight + 2, chip.width() - 2 * Pad,
                 m_countHeight);
}

void PageStrip::updateScrollRange()
{
    QScrollBar *bar = horizontalScrollBar();
    bar->setRange(0, qMax(0, contentWidth() - viewport()->width()));
    bar->setPageStep(qMax(1, viewport()->width()));
    bar->setSingleStep(ChipWidth + Spacing);
}

QSize PageStrip::sizeHint() const
{
    const int scrollBar = horizontalScrollBar()->sizeHint().height();
    return QSize(SideMargin * 2 + 8 * (ChipWidth + Spacing), TopMargin * 2 + chipHeight() + scrollBar + 2);
}

QSize PageStrip::minimumSizeHint() const
{
    return QSize(SideMargin * 2 + ChipWidth, sizeHint().height());
}

PageStrip::ChipLook PageStrip::chipLook(int ledgerRow) const
{
    ChipLook look;
    if (!m_ledger || ledgerRow < 0 || ledgerRow >= m_count)
        return look;
    const PageRecord &p = m_ledger->page(ledgerRow);
    look.ledgerRow = ledgerRow;
    look.pageNumber = p.index + 1;
    look.walk = p.walk;
    look.state = p.state;
    look.scope = p.scope;
    const bool received = p.receivedMonoMs >= 0;
    look.legacy = received && !p.hintsExpected;
    look.struck = p.state == PageRecord::State::Discarded;
    switch (p.state) {
    case PageRecord::State::Loading:
        look.bar = Bar::Loading;
        break;
    case PageRecord::State::Fresh: {
        look.bar = Bar::Fresh;
        const qint64 now = m_model ? m_model->walker()->ttlClock()->nowMs() : 0;
        look.remaining = p.effectiveTtlMs > 0 && p.expiresAtMonoMs() >= 0
                             ? qBound(0.0, qreal(p.expiresAtMonoMs() - now) / qreal(p.effectiveTtlMs), 1.0)
                             : 0.0;
        break;
    }
    case PageRecord::State::Stale:
        look.bar = look.legacy ? Bar::Legacy : Bar::Stale;
        break;
    case PageRecord::State::Expired:
        look.bar = Bar::Expired;
        break;
    case PageRecord::State::Refetching:
        look.bar = Bar::Refetching;
        break;
    case PageRecord::State::Failed:
        look.bar = Bar::Failed;
        break;
    case PageRecord::State::Discarded:
        look.bar = !received ? Bar::None : look.legacy ? Bar::Legacy : Bar::Expired;
        break;
    }
    if (p.error.isError() && (p.state == PageRecord::State::Failed || !received)) {
        if (p.error.kind == McpError::Kind::Rpc)
            look.countText = QString::number(p.error.code);
        else if (p.error.httpStatus > 0)
            look.countText = QStringLiteral("HTTP %1").arg(p.error.httpStatus);
        else if (p.error.kind == McpError::Kind::Timeout)
            look.countText = tr("timeout");
        else if (p.error.kind == McpError::Kind::Cancelled)
            look.countText = QStringLiteral("\u2014");
        else
            look.countText = tr("error");
    } else if (received || p.state == PageRecord::State::Refetching) {
        look.countText = QString::number(p.itemCount);
    } else if (p.state == PageRecord::State::Discarded) {
        look.countText = QStringLiteral("\u2014");
    }
    for (const Finding &f : p.findings)
        look.badges.append(f.severity);
    std::stable_sort(look.badges.begin(), look.badges.end(), std::greater<>());
    return look;
}

void PageStrip::paintEvent(QPaintEvent *event)
{
    ++m_paintCount;
    QPainter painter(viewport());
    const StatusColors colors(palette());
    const QPair<int, int> range = visibleRange();
    m_lastPainted = {-1, -1};

    if (m_count == 0) {
        painter.setPen(colors.mutedText());
        const QString text = m_model && m_model->walker()->isLoading() ? tr("Asking for the first page\u2026")
                             : m_model ? tr("No pages yet: scroll the list or Load all")
                                       : tr("No list");
        painter.drawText(viewport()->rect().adjusted(SideMargin, 0, -SideMargin, 0),
                         Qt::AlignVCenter | Qt::AlignLeft, text);
        return;
    }

    // Separators of the walks that show, then the chips the exposed region touches.
    const int left = horizontalScrollBar()->value();
    const int right = left + viewport()->width();
    for (int start : std::as_const(m_walkStarts)) {
        const int x = contentX(start);
        if (x < left)
            continue;
        if (x - WalkGap - Spacing > right)
            break;
        paintSeparator(&painter, start, colors);
    }
    const QRect exposed = event->rect();
    for (int row = range.first; row <= range.second; ++row) {
        const QRect r = chipRect(row);
        if (!exposed.intersects(r.adjusted(-2, -2, 2, 2)))
            continue;
        if (m_lastPainted.first < 0)
            m_lastPainted.first = row;
        m_lastPainted.second = row;
        paintChip(&painter, r, chipLook(row), colors, row == m_current);
    }
}

void PageStrip::paintSeparator(QPainter *painter, int walkStartRow, const StatusColors &colors)
{
    const int x = contentX(walkStartRow) - horizontalScrollBar()->value() - (WalkGap + Spacing) / 2;
    const QRect chip = chipRect(walkStartRow);
    painter->save();
    painter->setFont(m_smallFont);
    painter->setPen(colors.mutedText());
    const QRect label(x - WalkGap / 2, chip.top(), WalkGap, m_smallHeight);
    painter->drawText(label, Qt::AlignCenter,
                      QStringLiteral("w%1").arg(m_ledger->page(walkStartRow).walk + 1));
    QPen pen(colors.mutedText(), 1, Qt::DashLine);
    painter->setPen(pen);
    painter->drawLine(QPointF(x + 0.5, label.bottom() + 3), QPointF(x + 0.5, chip.bottom()));
    painter->restore();
}

void PageStrip::paintChip(QPainter *painter, const QRect &rect, const ChipLook &look,
                          const StatusColors &colors, bool current)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    if (look.struck)
        painter->setOpacity(0.55);

    // The card.
    const QRectF card = QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5);
    QColor border = colors.chipBorder();
    qreal borderWidth = 1;
    if (look.bar == Bar::Failed) {
        border = colors.failed();
        borderWidth = 2;
    }
    QColor fill = look.bar == Bar::Failed ? colors.tint(colors.failed(), 0.10) : colors.chipFill();
    if (current) {
        fill = colors.tint(colors.highlight(), 0.16);
        if (look.bar != Bar::Failed) {
            border = colors.highlight();
            borderWidth = hasFocus() ? 2 : 1.5;
        }
    }
    painter->setPen(QPen(border, borderWidth));
    painter->setBrush(fill);
    painter->drawRoundedRect(card.adjusted(borderWidth / 2 - 0.5, borderWidth / 2 - 0.5,
                                           0.5 - borderWidth / 2, 0.5 - borderWidth / 2),
                             5, 5);
    if (current && look.bar == Bar::Failed) {
        // Selected and failed: the red outline stays, the selection shows inside it.
        painter->setPen(QPen(colors.highlight(), 1.5));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(card.adjusted(3, 3, -3, -3), 3, 3);
    }

    // Header: the page number, the findings.
    const QRect header(rect.left() + Pad, rect.top() + Pad - 1, rect.width() - 2 * Pad, m_smallHeight);
    painter->setFont(m_smallFont);
    painter->setPen(colors.mutedText());
    painter->drawText(header, Qt::AlignLeft | Qt::AlignVCenter, QString::number(look.pageNumber));
    const int shown = int(qMin<qsizetype>(look.badges.size(), 3));
    for (int i = 0; i < shown; ++i) {
        const QRectF badge(header.right() + 1 - (i + 1) * BadgeSize - i * 2,
                           header.center().y() - BadgeSize / 2.0 + 0.5, BadgeSize, BadgeSize);
        colors.drawSeverityBadge(painter, badge, look.badges.at(i));
    }
    if (look.badges.size() > shown) {
        painter->setPen(colors.mutedText());
        painter->drawText(
            QRect(header.left(), header.top(), header.width() - shown * (BadgeSize + 2) - 1, header.height()),
            Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("+%1").arg(look.badges.size() - shown));
    }

    // Middle: the item count (or the error code), the scope badge.
    const QRect count = countRect(rect);
    if (look.bar == Bar::Loading) {
        const qreal phase = (animationClockMs() % 1000) / 1000.0;
        StatusColors::drawSpinner(painter, QRectF(count.left(), count.center().y() - 7, 14, 14),
                                  colors.loading(), phase);
    } else if (!look.countText.isEmpty()) {
        const bool failed =
            look.bar == Bar::Failed || (look.struck && look.countText.startsWith(QLatin1Char('-')));
        const QFont &f = failed ? m_codeFont : m_countFont;
        painter->setFont(f);
        painter->setPen(failed ? colors.failed() : colors.text());
        const int scopeSpace = failed ? 0 : ScopeBadgeSize + 2;
        const QString text =
            QFontMetrics(f).elidedText(look.countText, Qt::ElideRight, count.width() - scopeSpace);
        painter->drawText(count.adjusted(0, 0, -scopeSpace, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
    }
    if (look.bar != Bar::Failed && look.bar != Bar::Loading && !look.legacy) {
        const QRectF badge(count.right() + 1 - ScopeBadgeSize,
                           count.center().y() - ScopeBadgeSize / 2.0 + 0.5, ScopeBadgeSize, ScopeBadgeSize);
        colors.drawScopeBadge(painter, badge, look.scope);
    }

    // Bottom: the TTL bar.
    const QRectF bar = barRect(rect);
    const qreal radius = bar.height() / 2;
    painter->setPen(Qt::NoPen);
    switch (look.bar) {
    case Bar::None:
    case Bar::Loading:
    case Bar::Failed:
        painter->setBrush(colors.track());
        painter->drawRoundedRect(bar, radius, radius);
        break;
    case Bar::Fresh: {
        painter->setBrush(colors.tint(colors.fresh(), 0.22));
        painter->drawRoundedRect(bar, radius, radius);
        QColor color = colors.fresh();
        if (look.remaining < WarnFraction)
            color = StatusColors::mix(colors.stale(), colors.fresh(), look.remaining / WarnFraction);
        painter->setBrush(color);
        const qreal w = bar.width() * look.remaining;
        if (w > 0.5)
            painter->drawRoundedRect(QRectF(bar.left(), bar.top(), qMax(w, bar.height()), bar.height()),
                                     radius, radius);
        break;
    }
    case Bar::Stale:
        painter->setBrush(colors.stale());
        painter->drawRoundedRect(bar, radius, radius);
        break;
    case Bar::Expired:
        painter->setBrush(colors.expired());
        painter->drawRoundedRect(bar, radius, radius);
        break;
    case Bar::Refetching: {
        QPainterPath clip;
        clip.addRoundedRect(bar, radius, radius);
        painter->save();
        painter->setClipPath(clip, Qt::IntersectClip);
        StatusColors::drawStripes(painter, bar, colors.fresh(), (animationClockMs() % 800) / 800.0);
        painter->restore();
        break;
    }
    case Bar::Legacy: {
        // No hints by design: a quiet dotted track, not a warning.
        QPen dotted(colors.legacy(), 1.2, Qt::DotLine, Qt::RoundCap);
        painter->setPen(dotted);
        painter->drawLine(QPointF(bar.left() + 1, bar.center().y()),
                          QPointF(bar.right() - 1, bar.center().y()));
        break;
    }
    }

    if (look.struck) {
        painter->setOpacity(0.9);
        painter->setPen(QPen(colors.text(), 1.5));
        painter->drawLine(QPointF(rect.left() + 3, rect.center().y() + 0.5),
                          QPointF(rect.right() - 3, rect.center().y() + 0.5));
    }
    painter->restore();
}

void PageStrip::updateTimer()
{
    bool needed = false;
    bool fast = false;
    if (m_ledger && isVisible()) {
        const QPair<int, int> range = visibleRange();
        for (int row = range.first; row <= range.second; ++row) {
            const PageRecord::State s = m_ledger->page(row).state;
            if (s == PageRecord::State::Loading || s == PageRecord::State::Refetching) {
                needed = fast = true;
                break;
            }
            if (s == PageRecord::State::Fresh)
                needed = true;
        }
    }
    if (!needed) {
        m_tick.stop();
        return;
    }
    const int interval = fast ? SpinnerTickMs : CountdownTickMs;
    if (!m_tick.isActive() || m_tick.interval() != interval)
        m_tick.start(interval);
}

void PageStrip::tick()
{
    if (!m_ledger) {
        m_tick.stop();
        return;
    }
    // Only the animated parts of the visible chips: bars that drain or stripe, spinners.
    const QPair<int, int> range = visibleRange();
    for (int row = range.first; row <= range.second; ++row) {
        const PageRecord::State s = m_ledger->page(row).state;
        const QRect chip = chipRect(row);
        if (s == PageRecord::State::Fresh || s == PageRecord::State::Refetching)
            viewport()->update(barRect(chip));
        else if (s == PageRecord::State::Loading)
            viewport()->update(countRect(chip));
    }
    updateTimer();
}

void PageStrip::resizeEvent(QResizeEvent *event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollRange();
    updateTimer();
}

void PageStrip::scrollContentsBy(int, int)
{
    viewport()->update();
    updateTimer();
}

void PageStrip::changeEvent(QEvent *event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        updateMetrics();
        updateGeometry();
        updateScrollRange();
    }
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange ||
        event->type() == QEvent::StyleChange)
        viewport()->update();
}

void PageStrip::focusInEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusInEvent(event);
    updateChip(m_current);
}

void PageStrip::focusOutEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusOutEvent(event);
    updateChip(m_current);
}

void PageStrip::setCurrentPage(int ledgerRow)
{
    if (ledgerRow < -1 || ledgerRow >= m_count)
        ledgerRow = -1;
    // The same row again changes nothing and tells no one: views that follow each other settle.
    if (!m_selection || ledgerRow == currentPage())
        return;
    if (ledgerRow < 0)
        m_selection->clear();
    else
        m_selection->setCurrentIndex(m_ledger->index(ledgerRow, 0),
                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void PageStrip::scrollToPage(int ledgerRow)
{
    if (ledgerRow < 0 || ledgerRow >= m_count)
        return;
    QScrollBar *bar = horizontalScrollBar();
    const int x = contentX(ledgerRow);
    if (x - SideMargin < bar->value())
        bar->setValue(x - SideMargin);
    else if (x + ChipWidth + SideMargin > bar->value() + viewport()->width())
        bar->setValue(x + ChipWidth + SideMargin - viewport()->width());
}

void PageStrip::moveCurrent(int delta)
{
    if (m_count == 0)
        return;
    if (m_current < 0) {
        setCurrentPage(delta > 0 ? visibleRange().first : visibleRange().second);
        return;
    }
    setCurrentPage(qBound(0, m_current + delta, m_count - 1));
}

void PageStrip::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    const int row = chipAt(event->position().toPoint());
    if (row >= 0)
        setCurrentPage(row);
    event->accept();
}

void PageStrip::mouseReleaseEvent(QMouseEvent *event)
{
    event->accept();
}

void PageStrip::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int row = chipAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && row >= 0) {
        setCurrentPage(row);
        Q_EMIT pageActivated(row);
        event->accept();
        return;
    }
    QAbstractScrollArea::mouseDoubleClickEvent(event);
}

void PageStrip::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Left:
        moveCurrent(-1);
        break;
    case Qt::Key_Right:
        moveCurrent(1);
        break;
    case Qt::Key_Home:
        if (m_count > 0)
            setCurrentPage(0);
        break;
    case Qt::Key_End:
        if (m_count > 0)
            setCurrentPage(m_count - 1);
        break;
    case Qt::Key_PageUp:
        moveCurrent(-qMax(1, viewport()->width() / (ChipWidth + Spacing)));
        break;
    case Qt::Key_PageDown:
        moveCurrent(qMax(1, viewport()->width() / (ChipWidth + Spacing)));
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (m_current >= 0)
            Q_EMIT pageActivated(m_current);
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

void PageStrip::wheelEvent(QWheelEvent *event)
{
    // A strip scrolls sideways whichever way the wheel turns.
    const QPoint delta = event->angleDelta();
    const int steps = qAbs(delta.x()) > qAbs(delta.y()) ? delta.x() : delta.y();
    QScrollBar *bar = horizontalScrollBar();
    bar->setValue(bar->value() - steps * (ChipWidth + Spacing) / 120);
    event->accept();
}

bool PageStrip::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int row = chipAt(help->pos());
        QString text;
        QRect area;
        if (row >= 0) {
            text = chipToolTip(row);
            area = chipRect(row);
        } else if (const int start = separatorAt(help->pos()); start >= 0) {
            text = separatorToolTip(start);
        }
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport(), area);
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

QString PageStrip::chipToolTip(int ledgerRow) const
{
    if (!m_ledger || !m_model)
        return {};
    return describePage(m_ledger->page(ledgerRow), m_model->walker()->ttlClock()->nowMs(),
                        m_ledger->maskCursors());
}

QString PageStrip::separatorToolTip(int walkStartRow) const
{
    const PageRecord &previous = m_ledger->page(walkStartRow - 1);
    const int walk = m_ledger->page(walkStartRow).walk + 1;
    if (previous.discardReason.isEmpty())
        return tr("walk %1").arg(walk);
    return tr("walk %1 \u2014 restarted: %2").arg(walk).arg(previous.discardReason);
}

} // namespace folio
