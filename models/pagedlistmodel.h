#pragma once

#include "listsource.h"
#include "pagewalker.h"
#include "rowstore.h"

#include <QAbstractTableModel>
#include <QCache>
#include <QPointer>
#include <QStringList>

namespace folio {

class McpClient;
class PageLedger;
class RowStore;
class TtlClock;

// A lazy table over one list's walk: its rows are the walker's RowStore, and canFetchMore() /
// fetchMore() ask the walker for the next page as the view scrolls. Cell text is parsed on
// demand from the stored JSON and kept in a small cache of recently shown rows. Only views use
// fetchMore(); everything else drives the walker.
class PagedListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Roles {
        ItemJsonRole = Qt::UserRole + 1, // QByteArray: the item as compact JSON
        IdentityRole,                    // "name:x", "uri:y", ...
        PageRowRole,                     // int: the page's row in ledger()
        PageIndexRole,                   // int: 0-based page index in the walk
        PageStateRole,                   // int(PageRecord::State)
        PageExpiresAtRole,               // qint64: monotonic ms on the TTL clock, -1 when not counting down
        PageTtlRole,                     // qint64: effective TTL ms
        PageScopeRole,                   // int(PageRecord::Scope)
        PageSeverityRole,                // int: worst finding severity on the page, -1 when none
        PageHintsExpectedRole,           // bool: a 2026 protocol list page
        FirstRowOfPageRole,              // bool: the row opens its page (views draw a boundary)
    };

    // A table over walker (not owned).
    explicit PagedListModel(PageWalker *walker, QObject *parent = nullptr);
    // A table over a walker of its own.
    PagedListModel(McpClient *client, const ListSource &source, TtlClock *clock, QObject *parent = nullptr);

    // QAbstractItemModel
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    // The item key a column shows ("name", "description"); "" out of range.
    QString columnKey(int column) const
    {
        return column >= 0 && column < m_columns.size() ? m_columns.at(column).key : QString();
    }
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    PageWalker *walker() const { return m_walker; }
    PageLedger *ledger() const { return m_walker->ledger(); }
    RowStore *rows() const { return m_rows; }
    const ListSource &source() const { return m_walker->source(); }
    // Changing the source (tool arguments, limit, pointers) restarts the walk; the columns follow.
    void setSource(const ListSource &source);

    // The item at row as parsed JSON, and as stored (compact JSON text).
    QJsonObject item(int row) const;
    QByteArray itemBytes(int row) const;

Q_SIGNALS:
    void columnsChanged();

private:
    void connectWalker();
    const QStringList &rowTexts(int row) const;
    void ensureColumns(const ItemTexts &items);
    void handleLedgerChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                             const QList<int> &roles);

    PageWalker *m_walker;
    RowStore *m_rows;
    QList<ListSource::Column> m_columns;
    mutable QCache<int, QStringList> m_textCache;
};

} // namespace folio
