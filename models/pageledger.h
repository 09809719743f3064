#pragma once

#include "pagerecord.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QVector>

namespace folio {

class TtlClock;

// One row per page request of a list, across every walk: the history a person debugs from.
// Discarded pages stay, struck through by the view, with the reason they were discarded.
class PageLedger : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        IndexColumn,
        StateColumn,
        CursorColumn,
        NextCursorColumn,
        ItemsColumn,
        LimitColumn,
        LatencyColumn,
        BytesColumn,
        ReceivedColumn,
        TtlColumn,
        ScopeColumn,
        EffectiveTtlColumn,
        ExpiresColumn,
        ErrorColumn,
        FindingsColumn,
        ColumnCount
    };
    enum Roles {
        StateRole = Qt::UserRole + 1, // int(PageRecord::State)
        WalkRole,
        PageIndexRole,
        ExpiresAtRole, // monotonic ms on the TTL clock, -1 when not counting down
        EffectiveTtlRole,
        ScopeRole, // int(PageRecord::Scope)
        ScopePresentRole,
        LegacyRole,
        SeverityRole,  // worst finding severity, -1 when none
        ErrorCodeRole, // JSON-RPC code, 0 when none
        SerialRole,
    };

    explicit PageLedger(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    const PageRecord &page(int row) const { return m_pages.at(row); }
    const QVector<PageRecord> &pages() const { return m_pages; }
    int rowForSerial(quint64 serial) const { return m_bySerial.value(serial, -1); }

    // The model that owns the walk edits records only through these, so views hear of every change.
    int append(const PageRecord &record);
    PageRecord &edit(int row) { return m_pages[row]; }
    void notifyChanged(int row);
    void notifyChanged(int firstRow, int lastRow, const QList<int> &roles);
    void clear();

    void setMaskCursors(bool mask);
    bool maskCursors() const { return m_maskCursors; }

private:
    QVector<PageRecord> m_pages;
    QHash<quint64, int> m_bySerial;
    bool m_maskCursors = false;
};

} // namespace folio
