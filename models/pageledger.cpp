#include "pageledger.h"

#include "cursordecoder.h"

#include <QDateTime>

namespace folio {

PageLedger::PageLedger(QObject *parent)
    : QAbstractTableModel(parent)
{}

int PageLedger::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_pages.size());
}

int PageLedger::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PageLedger::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn:
        return tr("Page");
    case StateColumn:
        return tr("State");
    case CursorColumn:
        return tr("Cursor");
    case NextCursorColumn:
        return tr("nextCursor");
    case ItemsColumn:
        return tr("Items");
    case LimitColumn:
        return tr("Limit");
    case LatencyColumn:
        return tr("Latency");
    case BytesColumn:
        return tr("Bytes");
    case ReceivedColumn:
        return tr("Received");
    case TtlColumn:
        return tr("ttlMs (as sent)");
    case ScopeColumn:
        return tr("cacheScope (as sent)");
    case EffectiveTtlColumn:
        return tr("Effective TTL");
    case ExpiresColumn:
        return tr("Expires");
    case ErrorColumn:
        return tr("Error");
    case FindingsColumn:
        return tr("Findings");
    default:
        return {};
    }
}

QVariant PageLedger::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_pages.size())
        return {};
    const PageRecord &p = m_pages.at(index.row());
    switch (role) {
    case StateRole:
        return int(p.state);
    case WalkRole:
        return p.walk;
    case PageIndexRole:
        return p.index;
    case ExpiresAtRole:
        return p.expiresAtMonoMs;
    case EffectiveTtlRole:
        return p.effectiveTtlMs;
    case ScopeRole:
        return int(p.scope);
    case ScopePresentRole:
        return p.hasScope;
    case LegacyRole:
        return p.legacyEra || !p.hintsExpected;
    case SeverityRole: {
        bool any = false;
        const Finding::Severity s = p.worstSeverity(&any);
        return any ? int(s) : -1;
    }
    case ErrorCodeRole:
        return p.error.kind == McpError::Kind::Rpc ? p.error.code : 0;
    case SerialRole:
        return p.serial;
    default:
        break;
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    auto cursorText = [this](const QString &c) {
        if (c.isEmpty())
            return QStringLiteral("\"\" (empty string)");
        return m_maskCursors ? maskCursor(c) : c;
    };
    switch (index.column()) {
    case IndexColumn:
        return p.walk > 0 ? QStringLiteral("%1 (walk %2)").arg(p.index + 1).arg(p.walk + 1)
                          : QString::number(p.index + 1);
    case StateColumn:
        return p.state == PageRecord::State::Discarded && !p.discardReason.isEmpty()
                   ? QStringLiteral("discarded: ") + p.discardReason
                   : PageRecord::stateName(p.state);
    case CursorColumn:
        return p.requestCursor ? cursorText(*p.requestCursor) : QStringLiteral("(none)");
    case NextCursorColumn:
        switch (p.next) {
        case ListSource::CursorPresence::Absent:
            return p.isSettled() ? QStringLiteral("absent (end)") : QString();
        case ListSource::CursorPresence::Null:
            return QStringLiteral("null (end)");
        case ListSource::CursorPresence::String:
            return cursorText(p.nextCursor);
        case ListSource::CursorPresence::WrongType:
            return PageRecord::describeValue(true, p.nextRaw);
        }
        return {};
    case ItemsColumn:
        return p.isSettled() || p.state == PageRecord::State::Refetching ? QVariant(p.itemCount) : QVariant();
    case LimitColumn:
        return p.requestedLimit ? QVariant(*p.requestedLimit) : QVariant();
    case LatencyColumn:
        return p.latencyMs >= 0 ? QStringLiteral("%1 ms").arg(p.latencyMs) : QString();
    case BytesColumn:
        return p.responseBytes > 0 ? QVariant(p.responseBytes) : QVariant();
    case ReceivedColumn:
        return p.receivedAtMs > 0
                   ? QDateTime::fromMSecsSinceEpoch(p.receivedAtMs).toString(QStringLiteral("HH:mm:ss.zzz"))
                   : QString();
    case TtlColumn:
        if (!p.hintsExpected)
            return p.legacyEra ? tr("no hints (legacy era)") : tr("no hints (tool result)");
        return PageRecord::describeValue(p.hasTtl, p.ttlMs);
    case ScopeColumn:
        if (!p.hintsExpected)
            return QString();
        return PageRecord::describeValue(p.hasScope, p.cacheScope);
    case EffectiveTtlColumn:
        return p.isSettled() ? QStringLiteral("%1 ms").arg(p.effectiveTtlMs) : QString();
    case ExpiresColumn:
        return p.expiresAtMonoMs >= 0 ? QVariant(p.expiresAtMonoMs) : QVariant();
    case ErrorColumn:
        return p.error.describe();
    case FindingsColumn: {
        QStringList ids;
        for (const Finding &f : p.findings)
            ids.append(f.id);
        return ids.join(QStringLiteral(", "));
    }
    default:
        return {};
    }
}

int PageLedger::append(const PageRecord &record)
{
    const int row = int(m_pages.size());
    beginInsertRows({}, row, row);
    m_pages.append(record);
    m_bySerial.insert(record.serial, row);
    endInsertRows();
    return row;
}

void PageLedger::notifyChanged(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void PageLedger::notifyChanged(int firstRow, int lastRow, const QList<int> &roles)
{
    if (firstRow > lastRow)
        return;
    Q_EMIT dataChanged(index(firstRow, 0), index(lastRow, ColumnCount - 1), roles);
}

void PageLedger::clear()
{
    beginResetModel();
    m_pages.clear();
    m_bySerial.clear();
    endResetModel();
}

void PageLedger::setMaskCursors(bool mask)
{
    if (m_maskCursors == mask)
        return;
    m_maskCursors = mask;
    if (!m_pages.isEmpty())
        Q_EMIT dataChanged(index(0, CursorColumn), index(rowCount() - 1, NextCursorColumn),
                           {Qt::DisplayRole});
}

} // namespace folio
