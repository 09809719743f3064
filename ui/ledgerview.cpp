#include "ledgerview.h"

#include "ledgerviewaccessible.h"
#include "pageledger.h"
#include "statuscolors.h"
#include "ttlclock.h"
#include "uilogging.h"

#include <QAccessible>
#include <QHelpEvent>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace folio {

LedgerView::LedgerView(Qt::Orientation orientation, QWidget *parent)
    : QAbstractScrollArea(parent)
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
    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::NoFrame);
    m_tick.setTimerType(Qt::CoarseTimer);
    connect(&m_tick, &QTimer::timeout, this, [this] { tick(); });
}

LedgerView::~LedgerView() = default;

void LedgerView::setListModel(PagedListModel *model)
{
    if (m_model == model)
        return;
    if (m_model) {
        m_model->disconnect(this);
        m_model->walker()->disconnect(this);
    }
    if (m_ledger)
        m_ledger->disconnect(this);
    m_model = model;
    m_ledger = model ? model->ledger() : nullptr;
    if (m_ledger) {
        connect(m_ledger, &QAbstractItemModel::rowsInserted, this,
                [this](const QModelIndex &, int first, int last) { handleRowsInserted(first, last); });
        connect(m_ledger, &QAbstractItemModel::dataChanged, this, &LedgerView::handleDataChanged);
        connect(m_ledger, &QAbstractItemModel::modelReset, this, &LedgerView::reset);
        connect(m_ledger, &QAbstractItemModel::rowsRemoved, this, &LedgerView::reset);
        connect(m_ledger, &QObject::destroyed, this, [this] {
            m_ledger = nullptr;
            reset();
        });
        // A restart draws the new walk (its separator, its dimmed lanes) before its first row exists.
        connect(m_model->walker(), &PageWalker::walkRestarted, this, [this] { viewport()->update(); });
    }
    // Like a QAbstractItemView: a new model comes with a selection of the view's own.
    QItemSelectionModel *oldOwn = m_ownSelection;
    m_ownSelection = new QItemSelectionModel(m_ledger, this);
    setSelectionModel(m_ownSelection);
    delete oldOwn;
    reset();
}

void LedgerView::setSelectionModel(QItemSelectionModel *selection)
{
    if (!selection)
        selection = m_ownSelection;
    if (selection && selection->model() != m_ledger) {
        qCWarning(lcUi) << "a page view was given a selection over another model; kept its own";
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

int LedgerView::currentPage() const
{
    if (!m_selection)
        return -1;
    const QModelIndex current = m_selection->currentIndex();
    return current.isValid() && current.row() < m_count ? current.row() : -1;
}

void LedgerView::setCurrentPage(int ledgerRow)
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

void LedgerView::handleCurrentRowChanged(const QModelIndex &current)
{
    const int row = current.isValid() && current.row() < m_count ? current.row() : -1;
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
    m_walkStarts.clear();
    m_count = m_ledger ? m_ledger->rowCount() : 0;
    noteWalkStarts(1, m_count - 1);
    rowsReset();
    viewport()->update();
    updateTimer();
    // A reset clears the selection without a signal (QItemSelectionModel::reset()): say it here.
    handleCurrentRowChanged(m_selection ? m_selection->currentIndex() : QModelIndex());
}

void LedgerView::noteWalkStarts(int first, int last)
{
    // Ledger rows are appended in request order; a walk number change opens a new group.
    for (int row = qMax(1, first); row <= last; ++row) {
        if (pageData(row, PageLedger::WalkRole) != pageData(row - 1, PageLedger::WalkRole))
            m_walkStarts.append(row);
    }
}

void LedgerView::handleRowsInserted(int first, int last)
{
    if (first != m_count) { // not an append: start over
        reset();
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

void LedgerView::handleDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                   const QList<int> &roles)
{
    if (!drawsRoles(roles))
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

void LedgerView::moveCurrent(int delta)
{
    if (m_count == 0)
        return;
    const QPair<int, int> visible = visiblePositions();
    if (currentPage() < 0) {
        // Nothing current yet: the first key lands on what shows.
        const int position = delta > 0 ? visible.first : visible.second;
        setCurrentPage(rowAtPosition(qBound(0, position, m_count - 1)));
        return;
    }
    setCurrentPage(rowAtPosition(qBound(0, positionOfRow(currentPage()) + delta, m_count - 1)));
}

void LedgerView::activateCurrent()
{
    if (currentPage() >= 0)
        Q_EMIT pageActivated(currentPage());
}

void LedgerView::keyPressEvent(QKeyEvent *event)
{
    const bool horizontal = m_orientation == Qt::Horizontal;
    const QPair<int, int> visible = visiblePositions();
    const int pageStep = qMax(1, visible.second - visible.first);
    switch (event->key()) {
    case Qt::Key_Left:
    case Qt::Key_Up:
        if ((event->key() == Qt::Key_Left) != horizontal)
            return QAbstractScrollArea::keyPressEvent(event);
        moveCurrent(-1);
        break;
    case Qt::Key_Right:
    case Qt::Key_Down:
        if ((event->key() == Qt::Key_Right) != horizontal)
            return QAbstractScrollArea::keyPressEvent(event);
        moveCurrent(1);
        break;
    case Qt::Key_Home:
        setCurrentPage(rowAtPosition(0));
        break;
    case Qt::Key_End:
        setCurrentPage(rowAtPosition(m_count - 1));
        break;
    case Qt::Key_PageUp:
        moveCurrent(-pageStep);
        break;
    case Qt::Key_PageDown:
        moveCurrent(pageStep);
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        activateCurrent();
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

void LedgerView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    if (const int row = rowAt(event->position().toPoint()); row >= 0)
        setCurrentPage(row);
    event->accept();
}

void LedgerView::mouseReleaseEvent(QMouseEvent *event)
{
    event->accept();
}

void LedgerView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int row = rowAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && row >= 0) {
        setCurrentPage(row);
        Q_EMIT pageActivated(row);
        event->accept();
        return;
    }
    QAbstractScrollArea::mouseDoubleClickEvent(event);
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
    return QAbstractScrollArea::viewportEvent(event);
}

void LedgerView::changeEvent(QEvent *event)
{
    QAbstractScrollArea::changeEvent(event);
    const QEvent::Type type = event->type();
    if (type == QEvent::FontChange || type == QEvent::StyleChange)
        metricsChanged();
    if (type == QEvent::PaletteChange || type == QEvent::FontChange || type == QEvent::StyleChange)
        viewport()->update();
}

void LedgerView::focusInEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusInEvent(event);
    updateRow(m_current); // the current page is drawn stronger with the focus
}

void LedgerView::focusOutEvent(QFocusEvent *event)
{
    QAbstractScrollArea::focusOutEvent(event);
    updateRow(m_current);
}

void LedgerView::showEvent(QShowEvent *event)
{
    QAbstractScrollArea::showEvent(event);
    updateTimer();
}

void LedgerView::hideEvent(QHideEvent *event)
{
    QAbstractScrollArea::hideEvent(event);
    m_tick.stop(); // nothing to animate off screen
}

} // namespace folio
