#include "rowfiltermodel.h"

#include "rowfilter.h"

#include <algorithm>

namespace folio {

RowFilterModel::RowFilterModel(RowFilter *filter, QObject *parent)
    : QAbstractProxyModel(parent)
    , m_filter(filter)
{
    connect(filter, &RowFilter::matchesReset, this, &RowFilterModel::handleMatchesReset);
    connect(filter, &RowFilter::rowsMatched, this, &RowFilterModel::handleRowsMatched);
}

void RowFilterModel::setSourceModel(QAbstractItemModel *source)
{
    beginResetModel();
    for (const QMetaObject::Connection &c : std::as_const(m_sourceConnections))
        disconnect(c);
    m_sourceConnections.clear();
    QAbstractProxyModel::setSourceModel(source);
    m_filtering = m_filter && m_filter->isActive() && !m_filter->isPending();
    m_rows = m_filtering ? m_filter->matches() : QList<int>();
    if (source)
        connectSource(source);
    endResetModel();
}

void RowFilterModel::connectSource(QAbstractItemModel *source)
{
    using M = QAbstractItemModel;
    auto &c = m_sourceConnections;
    // Unfiltered, the source's changes pass through as they are. Filtered, rows that come are
    // the filter's to match (it says so with rowsMatched), rows that go leave with theirs, and
    // the rows shown after a change keep pointing at the same items.
    c << connect(source, &M::rowsAboutToBeInserted, this, [this](const QModelIndex &, int first, int last) {
        if (!m_filtering)
            beginInsertRows({}, first, last);
    });
    c << connect(source, &M::rowsInserted, this, [this](const QModelIndex &, int first, int last) {
        if (!m_filtering) {
            endInsertRows();
            return;
        }
        const int count = last - first + 1;
        for (auto it = std::lower_bound(m_rows.begin(), m_rows.end(), first); it != m_rows.end(); ++it)
            *it += count;
    });
    c << connect(source, &M::rowsAboutToBeRemoved, this, [this](const QModelIndex &, int first, int last) {
        if (!m_filtering) {
            beginRemoveRows({}, first, last);
            return;
        }
        const int lo = int(std::lower_bound(m_rows.cbegin(), m_rows.cend(), first) - m_rows.cbegin());
        const int hi = int(std::upper_bound(m_rows.cbegin(), m_rows.cend(), last) - m_rows.cbegin());
        if (lo < hi) {
            m_removeFirst = lo;
            m_removeLast = hi - 1;
            beginRemoveRows({}, lo, hi - 1);
        }
    });
    c << connect(source, &M::rowsRemoved, this, [this](const QModelIndex &, int first, int last) {
        if (!m_filtering) {
            endRemoveRows();
            return;
        }
        const bool removing = m_removeFirst >= 0;
        if (removing)
            m_rows.remove(m_removeFirst, m_removeLast - m_removeFirst + 1);
        const int count = last - first + 1;
        for (auto it = std::lower_bound(m_rows.begin(), m_rows.end(), first); it != m_rows.end(); ++it)
            *it -= count;
        m_removeFirst = m_removeLast = -1;
        if (removing)
            endRemoveRows();
    });
    c << connect(source, &M::columnsAboutToBeInserted, this,
                 [this](const QModelIndex &, int first, int last) { beginInsertColumns({}, first, last); });
    c << connect(source, &M::columnsInserted, this, [this] { endInsertColumns(); });
    c << connect(source, &M::columnsAboutToBeRemoved, this,
                 [this](const QModelIndex &, int first, int last) { beginRemoveColumns({}, first, last); });
    c << connect(source, &M::columnsRemoved, this, [this] { endRemoveColumns(); });
    c << connect(source, &M::modelAboutToBeReset, this, [this] { beginResetModel(); });
    c << connect(source, &M::modelReset, this, [this] {
        m_rows.clear(); // the filter matches the rows that come next
        endResetModel();
    });
    c << connect(source, &M::dataChanged, this,
                 [this](const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles) {
                     int lo = topLeft.row(), hi = bottomRight.row();
                     if (m_filtering) {
                         lo = int(std::lower_bound(m_rows.cbegin(), m_rows.cend(), lo) - m_rows.cbegin());
                         hi = int(std::upper_bound(m_rows.cbegin(), m_rows.cend(), hi) - m_rows.cbegin()) - 1;
                     }
                     if (lo <= hi)
                         Q_EMIT dataChanged(index(lo, topLeft.column()), index(hi, bottomRight.column()),
                                            roles);
                 });
    c << connect(source, &M::headerDataChanged, this,
                 [this](Qt::Orientation orientation, int first, int last) {
                     if (orientation == Qt::Horizontal || !m_filtering)
                         Q_EMIT headerDataChanged(orientation, first, last);
                 });
}

int RowFilterModel::proxyRow(int sourceRow) const
{
    if (!m_filtering)
        return sourceRow;
    const auto it = std::lower_bound(m_rows.cbegin(), m_rows.cend(), sourceRow);
    return it != m_rows.cend() && *it == sourceRow ? int(it - m_rows.cbegin()) : -1;
}

void RowFilterModel::handleMatchesReset()
{
    // One layout change rather than a reset: the current row and the selection follow their items
    // (a reset would drop them).
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList from = persistentIndexList();
    QList<int> sourceRows;
    sourceRows.reserve(from.size());
    for (const QModelIndex &p : from)
        sourceRows.append(sourceRow(p.row()));
    m_filtering = m_filter && m_filter->isActive();
    m_rows = m_filtering ? m_filter->matches() : QList<int>();
    QModelIndexList to;
    to.reserve(from.size());
    for (qsizetype i = 0; i < from.size(); ++i) {
        const int row = proxyRow(sourceRows.at(i));
        to.append(row < 0 ? QModelIndex() : createIndex(row, from.at(i).column()));
    }
    changePersistentIndexList(from, to);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void RowFilterModel::handleRowsMatched(const QList<int> &rows)
{
    if (!m_filtering || rows.isEmpty())
        return;
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(rows.size()) - 1);
    m_rows += rows;
    endInsertRows();
}

QModelIndex RowFilterModel::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!proxyIndex.isValid() || !sourceModel() || proxyIndex.row() >= rowCount())
        return {};
    return sourceModel()->index(sourceRow(proxyIndex.row()), proxyIndex.column());
}

QModelIndex RowFilterModel::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!sourceIndex.isValid() || sourceIndex.model() != sourceModel())
        return {};
    const int row = proxyRow(sourceIndex.row());
    return row < 0 ? QModelIndex() : createIndex(row, sourceIndex.column());
}

QModelIndex RowFilterModel::index(int row, int column, const QModelIndex &parent) const
{
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex RowFilterModel::parent(const QModelIndex &) const
{
    return {};
}

int RowFilterModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !sourceModel())
        return 0;
    return m_filtering ? int(m_rows.size()) : sourceModel()->rowCount();
}

int RowFilterModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !sourceModel() ? 0 : sourceModel()->columnCount();
}

bool RowFilterModel::hasChildren(const QModelIndex &parent) const
{
    return !parent.isValid() && rowCount() > 0 && columnCount() > 0;
}

QModelIndex RowFilterModel::sibling(int row, int column, const QModelIndex &) const
{
    return index(row, column);
}

} // namespace folio
