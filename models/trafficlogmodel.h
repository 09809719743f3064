#pragma once

#include "trafficlog.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QTimer>

namespace folio {

// A table over a TrafficLog. New entries are flushed in batches (one insert per event-loop turn),
// so a fast walk does not cost one view update per message.
class TrafficLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        TimeColumn,
        DirectionColumn,
        MethodColumn,
        IdColumn,
        BytesColumn,
        LatencyColumn,
        SummaryColumn,
        ColumnCount
    };
    enum Roles { TextRole = Qt::UserRole + 1, DirectionRole, IsErrorRole };

    explicit TrafficLogModel(QObject *parent = nullptr);
    void setLog(TrafficLog *log);
    TrafficLog *log() const { return m_log; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    // Pretty-printed JSON of an entry (or its text as is when it is not JSON).
    QString prettyText(int row) const;

private:
    void flush();

    QPointer<TrafficLog> m_log;
    int m_shown = 0; // entries of m_log the view knows about
    QTimer m_flush;
};

} // namespace folio
