#include "ledgerview.h"

#include "ledgerviewaccessible.h"
#include "pageledger.h"
#include "statuscolors.h"
#include "ttlclock.h"
#include "uilogging.h"

#include <QAccessible>
#include <QClipboard>
#include <QGuiApplication>
#include <QHelpEvent>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>

namespace folio {

LedgerView::LedgerView(Qt::Orientation orientation, QWidget *parent)
    : QAbstractItemView(parent)
    , m_orientation(orientation)
{
    installLedgerViewAccessibility(); // before anything asks for the view's interface
    // With a screen reader on, the base classes' constructors may have made (and Qt cached) a
    // plain scroll area's interface for this object: forgotten, the next question makes ours.
    // Here, not in a subclass: from now on the object is a LedgerView, which the factory knows.
    if (QAccessible::isActive()) {
        if (QAccessibleInterface *made = QAccessible::queryAccessibleInterface(this);
            made && made->role() != QAccessible::List)
            QAccessible::deleteAccessibleInterface(QAccessible::uniqueId(made));
    }
    // One current page, selected as a row of the ledger; nothing is edited, and a press held at
    // the edge does not scroll.
    setSelectionMode(SingleSelection);
    setSelectionBehavior(SelectRows);
    setEditTriggers(NoEditTriggers);
    setTabKeyNavigation(false);
    setAutoScroll(false);
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
    m_ownSelection = QAbstractItemView::selectionModel(); // over no model until a list comes
    m_tick.setTimerType(Qt::CoarseTimer);
    connect(&m_tick, &QTimer::timeout, this, [this] { tick(); });
    connect(this, &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
        if (index.isValid() && index.row() < m_count)
            Q_EMIT pageActivated(index.row());
    });
}

LedgerView::~LedgerView() = default;

void LedgerView::setListModel(PagedListModel *model)
{
    if (m_model == model)
        return;
    if (m_model)
        m_model->walker()->disconnect(this);
    if (m_ledger)
        m_ledger->disconnect(this);
    m_model = model;
    m_ledger = model ? model->ledger() : nullptr;
    takeModel(m_ledger);
    if (!m_ledger)
        return;
    // Appends, changes and resets come through the item view's slots; a removal (the ledger makes
    // none today) starts over. A ledger that goes takes its selections with it: the view shows
    // no list, with a selection of its own over no model.
    connect(m_ledger, &QAbstractItemModel::rowsRemoved, this, &LedgerView::relayout);
    connect(m_ledger, &QObject::destroyed, this, [this] {
        m_ledger = nullptr;
        takeModel(nullptr);
    });
    // A restart draws the new walk (its separator, its dimmed lanes) before its first row exists.
    connect(m_model->walker(), &PageWalker::walkRestarted, this, [this] { viewport()->update(); });
}

void LedgerView::takeModel(QAbstractItemModel *ledger)
{
    // Like any item view, a new model comes with a selection of the view's own (and a reset).
    QItemSelectionModel *oldOwn = m_ownSelection;
    QAbstractItemView::setModel(ledger);
    m_ownSelection = QAbstractItemView::selectionModel();
    if (oldOwn != m_ownSelection)
        delete oldOwn;
}

void LedgerView::setModel(QAbstractItemModel *other)
{
    if (other != model())
        qCWarning(lcUi) << "a page view is given a list (setListModel), not a model; ignored";
}

void LedgerView::setSelectionModel(QItemSelectionModel *selection)
{
    if (!selection)
        selection = m_ownSelection;
    if (!selection || selection == selectionModel())
        return;
    // The item view hands its own new selection in with a new model; any other must be over the
    // ledger (without a list there is nothing to share: the view keeps its own).
    const bool own = selection->parent() == this;
    if (!own && !m_ledger)
        return;
    if (!own && selection->model() != m_ledger) {
        qCWarning(lcUi) << "a page view was given a selection over another model; kept its own";
        return;
    }
    if (QItemSelectionModel *shared = selectionModel(); shared && shared->parent() != this)
        shared->disconnect(this);
    QAbstractItemView::setSelectionModel(selection);
    if (!own) {
        // A shared selection that goes (its list's tab closed) leaves the view with its own.
        connect(selection, &QObject::destroyed, this, [this] {
            if (m_ownSelection && m_ledger && m_ownSelection->model() == m_ledger)
                QAbstractItemView::setSelectionModel(m_ownSelection);
            handleCurrentRowChanged(selectionModel() ? selectionModel()->currentIndex() : QModelIndex());
        });
    }
    handleCurrentRowChanged(selection->currentIndex());
}

int LedgerView::currentPage() const
{
    const QItemSelectionModel *selection = selectionModel();
    if (!selection || !m_ledger)
        return -1;
    const QModelIndex current = selection->currentIndex();
    return current.isValid() && current.row() < m_count ? current.row() : -1;
}

void LedgerView::setCurrentPage(int ledgerRow)
{
    if (ledgerRow < -1 || ledgerRow >= m_count)
        ledgerRow = -1;
    // The same row again changes nothing and tells no one: views that follow each other settle.
    QItemSelectionModel *selection = selectionModel();
    if (!selection || ledgerRow == currentPage())
        return;
    if (ledgerRow < 0)
        selection->clear();
    else
        selection->setCurrentIndex(indexOfRow(ledgerRow),
                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void LedgerView::currentChanged(const QModelIndex &current, const QModelIndex &)
{
    handleCurrentRowChanged(current);
}

void LedgerView::handleCurrentRowChanged(const QModelIndex &current)
{
    const int row = m_ledger && current.isValid() && current.row() < m_count ? current.row() : -1;
    if (row == m_current)
        return;
    const int old = m_current;
    m_current = row;
    updateRow(old);
    updateRow(row);
    if (row >= 0)
        scrollToRow(row);
    announceCurrent(row);
    Q_EMIT currentPageChanged(row);
}

QModelIndex LedgerView::indexOfRow(int ledgerRow) const
{
    return m_ledger && ledgerRow >= 0 && ledgerRow < m_count ? m_ledger->index(ledgerRow, 0) : QModelIndex();
}

QRect LedgerView::visualRect(const QModelIndex &index) const
{
    return index.isValid() && index.model() == m_ledger ? rowRect(index.row()) : QRect();
}

QModelIndex LedgerView::indexAt(const QPoint &viewportPos) const
{
    return indexOfRow(rowAt(viewportPos));
}

void LedgerView::scrollTo(const QModelIndex &index, ScrollHint)
{
    if (index.isValid() && index.model() == m_ledger && index.row() < m_count)
        scrollToRow(index.row());
}

QModelIndex LedgerView::moveCursor(CursorAction action, Qt::KeyboardModifiers)
{
    if (m_count == 0)
        return {};
    const bool horizontal = m_orientation == Qt::Horizontal;
    const QPair<int, int> visible = visiblePositions();
    int delta = 0;
    switch (action) {
    case MoveLeft:
    case MoveRight:
        if (!horizontal)
            return {};
        delta = action == MoveLeft ? -1 : 1;
        break;
    case MoveUp:
    case MoveDown:
        if (horizontal)
            return {};
        delta = action == MoveUp ? -1 : 1;
        break;
    case MovePageUp:
    case MovePageDown:
        delta = qMax(1, visible.second - visible.first) * (action == MovePageUp ? -1 : 1);
        break;
    case MoveHome:
        return indexOfRow(rowAtPosition(0));
    case MoveEnd:
        return indexOfRow(rowAtPosition(m_count - 1));
    case MoveNext:
    case MovePrevious:
        return {}; // Tab leaves the view; the focus coming in picks no page
    }
    // Nothing current yet: the first key lands on what shows.
    const int current = currentPage();
    const int position =
        current < 0 ? (delta > 0 ? visible.first : visible.second) : positionOfRow(current) + delta;
    return indexOfRow(rowAtPosition(qBound(0, position, m_count - 1)));
}

int LedgerView::horizontalOffset() const
{
    return horizontalScrollBar()->value();
}

int LedgerView::verticalOffset() const
{
    return verticalScrollBar()->value();
}

void LedgerView::setSelection(const QRect &rect, QItemSelectionModel::SelectionFlags command)
{
    // One page at a time: the row under the rectangle's end, where the press is (the item view
    // spans it from the current page's centre).
    QItemSelectionModel *selection = selectionModel();
    if (!selection)
        return;
    const QModelIndex index = indexAt(rect.bottomRight());
    if (index.isValid())
        selection->select(index, command);
}

QRegion LedgerView::visualRegionForSelection(const QItemSelection &selection) const
{
    // Only the rows on screen: a long walk's selection costs what the visible rows do.
    QRegion region;
    const QPair<int, int> visible = visiblePositions();
    for (int position = visible.first; position <= visible.second; ++position) {
        const int row = rowAtPosition(position);
        if (selection.contains(indexOfRow(row)))
            region += rowRect(row).adjusted(-2, -2, 2, 2);
    }
    return region;
}

qint64 LedgerView::nowMs() const
{
    return m_model ? m_model->walker()->ttlClock()->nowMs() : 0;
}

void LedgerView::announceCurrent(int ledgerRow)
{
    // The current page takes the accessible focus: a screen reader reads it as the user moves.
    if (ledgerRow < 0 || !QAccessible::isActive())
        return;
    QAccessibleInterface *view = QAccessible::queryAccessibleInterface(this);
    QAccessibleInterface *item = view ? view->child(positionOfRow(ledgerRow)) : nullptr;
    if (!item)
        return;
    QAccessibleEvent event(item, QAccessible::Focus);
    QAccessible::updateAccessibility(&event);
}

QString LedgerView::pageAccessibleName(int ledgerRow) const
{
    if (!m_ledger || ledgerRow < 0 || ledgerRow >= m_count)
        return {};
    const int group = walkBreaksBefore(ledgerRow);
    const int inWalk = walkGroupEnd(group) - walkGroupFirst(group);
    const PageRecord &page = m_ledger->page(ledgerRow);
    QString name = tr("Page %1 of %2").arg(QString::number(page.index + 1), QString::number(inWalk));
    if (page.walk > 0)
        name += tr(", walk %1").arg(page.walk + 1);
    return name;
}

QString LedgerView::pageAccessibleDescription(int ledgerRow) const
{
    if (!m_ledger || !m_model || ledgerRow < 0 || ledgerRow >= m_count)
        return {};
    return describePageBriefly(m_ledger->page(ledgerRow), m_model->walker()->ttlClock()->nowMs());
}

void LedgerView::reset()
{
    QAbstractItemView::reset();
    relayout();
}

void LedgerView::relayout()
{
    m_walkStarts.clear();
    m_count = m_ledger ? m_ledger->rowCount() : 0;
    noteWalkStarts(1, m_count - 1);
    rowsReset();
    viewport()->update();
    updateTimer();
    // A reset clears the selection without a signal (QItemSelectionModel::reset()): say it here.
    handleCurrentRowChanged(selectionModel() ? selectionModel()->currentIndex() : QModelIndex());
}

void LedgerView::noteWalkStarts(int first, int last)
{
    // Ledger rows are appended in request order; a walk number change opens a new group.
    for (int row = qMax(1, first); row <= last; ++row) {
        if (pageData(row, PageLedger::WalkRole) != pageData(row - 1, PageLedger::WalkRole))
            m_walkStarts.append(row);
    }
}

void LedgerView::rowsInserted(const QModelIndex &parent, int first, int last)
{
    if (!m_ledger || parent.isValid())
        return;
    if (first != m_count) { // not an append: start over
        relayout();
        return;
    }
    noteWalkStarts(first, last);
    m_count = last + 1;
    rowsAppended(first, last);
    viewport()->update();
    updateTimer();
}

bool LedgerView::drawsRoles(const QList<int> &roles) const
{
    return roles.isEmpty();
}

void LedgerView::dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                             const QList<int> &roles)
{
    if (!m_ledger || !drawsRoles(roles))
        return;
    rowsChanged(qMax(0, topLeft.row()), qMin(bottomRight.row(), m_count - 1));
    updateTimer();
}

void LedgerView::rowsChanged(int first, int last)
{
    // Only what is on screen: a long list repaints the few rows it shows.
    const QPair<int, int> visible = visiblePositions();
    for (int position = visible.first; position <= visible.second; ++position) {
        const int row = rowAtPosition(position);
        if (row >= first && row <= last)
            updateRow(row);
    }
}

int LedgerView::walkBreaksBefore(int ledgerRow) const
{
    return int(std::upper_bound(m_walkStarts.cbegin(), m_walkStarts.cend(), ledgerRow) -
               m_walkStarts.cbegin());
}

int LedgerView::walkGroupFirst(int group) const
{
    return group <= 0 ? 0 : m_walkStarts.at(group - 1);
}

int LedgerView::walkGroupEnd(int group) const
{
    return group < m_walkStarts.size() ? m_walkStarts.at(group) : m_count;
}

QVariant LedgerView::pageData(int ledgerRow, int role) const
{
    return m_ledger ? m_ledger->data(m_ledger->index(ledgerRow, 0), role) : QVariant();
}

void LedgerView::updateRow(int ledgerRow)
{
    const QRect r = rowRect(ledgerRow);
    if (!r.isEmpty())
        viewport()->update(r.adjusted(-2, -2, 2, 2));
}

void LedgerView::notePainted(int ledgerRow)
{
    if (m_lastPainted.first < 0 || ledgerRow < m_lastPainted.first)
        m_lastPainted.first = ledgerRow;
    m_lastPainted.second = qMax(m_lastPainted.second, ledgerRow);
}

void LedgerView::animate(int intervalMs)
{
    if (!m_tick.isActive() || m_tick.interval() != intervalMs)
        m_tick.start(intervalMs);
}

void LedgerView::paintEvent(QPaintEvent *event)
{
    ++m_paintCount;
    m_lastPainted = {-1, -1};
    QPainter painter(viewport());
    const StatusColors colors(palette());
    paint(&painter, colors, event->rect());
}

void LedgerView::paintRow(QPainter *painter, int ledgerRow, const QRect &rect)
{
    // The delegate paints the row from the model's roles; the view says where, and whether it is
    // the current page (selected; with the focus when the view has it).
    QStyleOptionViewItem option;
    initViewItemOption(&option);
    option.rect = rect;
    option.state &= ~(QStyle::State_Selected | QStyle::State_HasFocus | QStyle::State_MouseOver);
    if (ledgerRow == currentPage()) {
        option.state |= QStyle::State_Selected;
        if (hasFocus())
            option.state |= QStyle::State_HasFocus;
    }
    notePainted(ledgerRow);
    itemDelegate()->paint(painter, option, indexOfRow(ledgerRow));
}

void LedgerView::keyPressEvent(QKeyEvent *event)
{
    if (event == QKeySequence::Copy) {
        if (const int row = currentPage(); row >= 0)
            QGuiApplication::clipboard()->setText(pageToolTip(row));
        event->accept();
        return;
    }
    QAbstractItemView::keyPressEvent(event);
}

QString LedgerView::pageToolTip(int ledgerRow) const
{
    if (!m_ledger || !m_model || ledgerRow < 0 || ledgerRow >= m_count)
        return {};
    return describePage(m_ledger->page(ledgerRow), m_model->walker()->ttlClock()->nowMs(),
                        m_ledger->maskCursors());
}

QString LedgerView::toolTipAt(const QPoint &pos, QRect *area) const
{
    const int row = rowAt(pos);
    if (row < 0)
        return {};
    *area = rowRect(row);
    return pageToolTip(row);
}

bool LedgerView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        QRect area;
        const QString text = toolTipAt(help->pos(), &area);
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, viewport(), area);
        return true;
    }
    return QAbstractItemView::viewportEvent(event);
}

void LedgerView::changeEvent(QEvent *event)
{
    QAbstractItemView::changeEvent(event);
    const QEvent::Type type = event->type();
    if (type == QEvent::FontChange || type == QEvent::StyleChange)
        metricsChanged();
    if (type == QEvent::PaletteChange || type == QEvent::FontChange || type == QEvent::StyleChange)
        viewport()->update();
}

void LedgerView::focusInEvent(QFocusEvent *event)
{
    QAbstractItemView::focusInEvent(event);
    updateRow(m_current); // the current page is drawn stronger with the focus
}

void LedgerView::focusOutEvent(QFocusEvent *event)
{
    QAbstractItemView::focusOutEvent(event);
    updateRow(m_current);
}

void LedgerView::showEvent(QShowEvent *event)
{
    QAbstractItemView::showEvent(event);
    updateTimer();
}

void LedgerView::hideEvent(QHideEvent *event)
{
    QAbstractItemView::hideEvent(event);
    m_tick.stop(); // nothing to animate off screen
}

} // namespace folio
