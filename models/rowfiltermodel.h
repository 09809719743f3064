#pragma once

#include <QAbstractProxyModel>
#include <QList>
#include <QPointer>

namespace folio {

class RowFilter;

// A table that shows the rows of its source a RowFilter matched, in order, or every row while no
// filter is applied. A row list, not a predicate: mapping is a binary search, and a new result
// goes in as one layout change that keeps the selection and the current row where they still show.
// The source's rows must be the filter's RowStore rows, one for one (PagedListModel).
class RowFilterModel : public QAbstractProxyModel
{
    Q_OBJECT
public:
    explicit RowFilterModel(RowFilter *filter, QObject *parent = nullptr);

    void setSourceModel(QAbstractItemModel *source) override;
    RowFilter *filter() const { return m_filter; }
    bool isFiltering() const { return m_filtering; }

    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QModelIndex sibling(int row, int column, const QModelIndex &index) const override;

private:
    int sourceRow(int proxyRow) const { return m_filtering ? m_rows.at(proxyRow) : proxyRow; }
    int proxyRow(int sourceRow) const; // -1 when the row is filtered out
    void handleMatchesReset();
    void handleRowsMatched(const QList<int> &rows);
    void connectSource(QAbstractItemModel *source);

    QPointer<RowFilter> m_filter;
    bool m_filtering = false;
    QList<int> m_rows;                         // the source rows shown, ascending, while filtering
    int m_removeFirst = -1, m_removeLast = -1; // proxy rows going, between the source's signals
    QList<QMetaObject::Connection> m_sourceConnections;
};

} // namespace folio
