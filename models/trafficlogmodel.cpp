#include "trafficlogmodel.h"

#include "terminaltext.h"

#include <QDateTime>
#include <QJsonDocument>

namespace folio {

TrafficLogModel::TrafficLogModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    m_flush.setSingleShot(true);
    m_flush.setInterval(0);
    connect(&m_flush, &QTimer::timeout, this, &TrafficLogModel::flush);
}

void TrafficLogModel::setLog(TrafficLog *log)
{
    beginResetModel();
    if (m_log)
        m_log->disconnect(this);
    m_log = log;
    m_shown = log ? int(log->entries().size()) : 0;
    endResetModel();
    if (!log)
        return;
    connect(log, &TrafficLog::entryAppended, this, [this] {
        if (!m_flush.isActive())
            m_flush.start();
    });
    connect(log, &TrafficLog::entriesDropped, this, [this](int count) {
        const int gone = qMin(count, m_shown);
        if (gone > 0) {
            beginRemoveRows({}, 0, gone - 1);
            m_shown -= gone;
            endRemoveRows();
        }
    });
    connect(log, &TrafficLog::cleared, this, [this] {
        beginResetModel();
        m_shown = 0;
        endResetModel();
    });
}

void TrafficLogModel::flush()
{
    if (!m_log)
        return;
    const int total = int(m_log->entries().size());
    if (total <= m_shown)
        return;
    beginInsertRows({}, m_shown, total - 1);
    m_shown = total;
    endInsertRows();
}

int TrafficLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_shown;
}

int TrafficLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TrafficLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case DirectionColumn:
        return tr("Dir");
    case MethodColumn:
        return tr("Method");
    case IdColumn:
        return tr("Id");
    case BytesColumn:
        return tr("Bytes");
    case LatencyColumn:
        return tr("Latency");
    case SummaryColumn:
        return tr("Message");
    default:
        return {};
    }
}

QVariant TrafficLogModel::data(const QModelIndex &index, int role) const
{
    if (!m_log || !index.isValid() || index.row() >= m_shown)
        return {};
    const TrafficLog::Entry &e = m_log->entries().at(index.row());
    switch (role) {
    case TextRole:
        return e.text;
    case DirectionRole:
        return int(e.direction);
    case IsErrorRole:
        return e.isError;
    case Qt::TextAlignmentRole:
        return index.column() == BytesColumn || index.column() == LatencyColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case TimeColumn:
        return QDateTime::fromMSecsSinceEpoch(e.timestampMs).toString(QStringLiteral("HH:mm:ss.zzz"));
    case DirectionColumn:
        return e.direction == TrafficLog::Direction::Outgoing   ? QStringLiteral("→")
               : e.direction == TrafficLog::Direction::Incoming ? QStringLiteral("←")
                                                                : QStringLiteral("·");
    case MethodColumn:
        return oneLineSafe(e.method);
    case IdColumn:
        return oneLineSafe(e.id);
    case BytesColumn:
        return e.bytes;
    case LatencyColumn:
        return e.latencyMs >= 0 ? QStringLiteral("%1 ms").arg(e.latencyMs) : QString();
    case SummaryColumn: {
        QString s = QString::fromUtf8(e.text.left(200));
        s.replace(QLatin1Char('\n'), QLatin1Char(' '));
        return oneLineSafe(s);
    }
    default:
        return {};
    }
}

QString TrafficLogModel::prettyText(int row) const
{
    if (!m_log || row < 0 || row >= m_shown)
        return {};
    const TrafficLog::Entry &e = m_log->entries().at(row);
    const QJsonDocument doc = QJsonDocument::fromJson(e.text);
    // Exact JSON with what would act on a reader escaped; any other text with it made visible.
    QString text = doc.isNull() ? terminalSafe(QString::fromUtf8(e.text))
                                : QString::fromUtf8(jsonTerminalSafe(doc.toJson(QJsonDocument::Indented)));
    if (e.truncated)
        text +=
            tr("\n… (cut at %1 bytes of %2)").arg(QString::number(e.text.size()), QString::number(e.bytes));
    return text;
}

} // namespace folio
