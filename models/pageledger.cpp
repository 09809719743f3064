#include "pageledger.h"

#include "cursordecoder.h"
#include "terminaltext.h"
#include "ttlclock.h"

#include <QJsonArray>
#include <QJsonDocument>

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
        return p.expiresAtMonoMs();
    case EffectiveTtlRole:
        return p.effectiveTtlMs;
    case ScopeRole:
        return int(p.scope);
    case ScopePresentRole:
        return p.hints.hasScope;
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
    case ItemCountRole:
        return p.itemCount;
    case AnsweredRole:
        return p.receivedMonoMs >= 0;
    case ErrorKindRole:
        return int(p.error.kind);
    case HttpStatusRole:
        return p.error.httpStatus;
    case SeveritiesRole: {
        QList<int> severities;
        for (const Finding &f : p.findings)
            severities.append(int(f.severity));
        return QVariant::fromValue(severities);
    }
    case AttemptsRole:
        return QVariant::fromValue(p.attempts);
    case AskedWithoutArgumentsRole:
        return p.askedWithoutArguments;
    case PartingRole:
        return p.parting;
    default:
        break;
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    auto cursorText = [this](const QString &c) {
        if (c.isEmpty())
            return QStringLiteral("\"\" (empty string)");
        return m_maskCursors ? maskCursor(c) : oneLineSafe(c);
    };
    switch (index.column()) {
    case IndexColumn:
        return p.walk > 0 ? QStringLiteral("%1 (walk %2)")
                                .arg(QString::number(p.index + 1), QString::number(p.walk + 1))
                          : QString::number(p.index + 1);
    case StateColumn:
        return p.state == PageRecord::State::Discarded && !p.discardReason.isEmpty()
                   ? QStringLiteral("discarded: ") + oneLineSafe(p.discardReason)
                   : PageRecord::stateName(p.state);
    case CursorColumn:
        return p.requestCursor ? cursorText(*p.requestCursor) : QStringLiteral("(none)");
    case NextCursorColumn:
        switch (p.next.presence) {
        case NextCursor::Presence::Absent:
            return p.isSettled() ? QStringLiteral("absent (end)") : QString();
        case NextCursor::Presence::Null:
            return QStringLiteral("null (end)");
        case NextCursor::Presence::String:
            return cursorText(p.next.text);
        case NextCursor::Presence::WrongType:
            return PageRecord::describeValue(true, p.next.raw);
        }
        return {};
    case ItemsColumn:
        return p.isSettled() || p.state == PageRecord::State::Refetching ? QVariant(p.itemCount) : QVariant();
    case LimitColumn:
        return p.requestedLimit ? QVariant(*p.requestedLimit) : QVariant();
    case LatencyColumn:
        return p.latencyMs() >= 0 ? QStringLiteral("%1 ms").arg(p.latencyMs()) : QString();
    case BytesColumn:
        return p.responseBytes > 0 ? QVariant(p.responseBytes) : QVariant();
    case ReceivedColumn:
        return p.receivedAtMs > 0
                   ? QDateTime::fromMSecsSinceEpoch(p.receivedAtMs).toString(QStringLiteral("HH:mm:ss.zzz"))
                   : QString();
    case TtlColumn:
        if (!p.hintsExpected)
            return p.legacyEra ? tr("no hints (legacy era)") : tr("no hints (tool result)");
        return p.hints.ttlText();
    case ScopeColumn:
        if (!p.hintsExpected)
            return QString();
        return p.hints.scopeText();
    case EffectiveTtlColumn:
        return p.isSettled() ? QStringLiteral("%1 ms").arg(p.effectiveTtlMs) : QString();
    case ExpiresColumn:
        return p.expiresAtMonoMs() >= 0 ? QVariant(p.expiresAtMonoMs()) : QVariant();
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

int PageLedger::appendRequest(const PageRecord &record)
{
    const int row = int(m_pages.size());
    beginInsertRows({}, row, row);
    m_pages.append(record);
    m_pages.last().state = PageRecord::State::Loading;
    m_bySerial.insert(record.serial, row);
    endInsertRows();
    return row;
}

void PageLedger::changed(int row, const QList<int> &roles)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1), roles);
}

namespace {
const QList<int> displayRoles{Qt::DisplayRole, Qt::ToolTipRole};
} // namespace

void PageLedger::markSent(int row, bool refetch, qint64 sentAtMs, const QString &requestId)
{
    PageRecord &p = m_pages[row];
    PageRecord::Attempt attempt;
    attempt.sentAtMs = sentAtMs;
    attempt.refetch = refetch;
    attempt.requestId = requestId;
    p.attempts.append(attempt);
    p.sentAtMs = sentAtMs;
    if (refetch)
        p.state = PageRecord::State::Refetching;
    changed(row, displayRoles + QList<int>{StateRole, AttemptsRole});
}

void PageLedger::applyReply(int row, const PageAnswer &a)
{
    PageRecord &p = m_pages[row];
    if (!p.attempts.isEmpty()) {
        p.attempts.last().latencyMs = a.latencyMs;
        p.attempts.last().failed = false;
    }
    p.next = a.next.detached();
    p.itemCount = a.itemCount;
    if (a.requestBytes > 0)
        p.requestBytes = a.requestBytes;
    p.responseBytes = a.responseBytes;
    p.receivedAtMs = a.receivedAtMs;
    p.receivedMonoMs = a.receivedMonoMs;
    p.error = {};
    p.legacyEra = a.legacyEra;
    p.hintsExpected = a.hintsExpected;
    p.hints = a.hints.detached();
    p.scope = a.hintsExpected ? PageRecord::judgeScope(a.hints.hasScope, a.hints.cacheScope)
                              : PageRecord::Scope::NotApplicable;
    p.effectiveTtlMs = a.hintsExpected ? TtlClock::effectiveTtlMs(a.hints.ttlOrNull()) : 0;
    // TTL 0, absent or negative: stale at once. Legacy and tool pages carry no hints at all.
    p.state = p.effectiveTtlMs > 0 ? PageRecord::State::Fresh : PageRecord::State::Stale;
    changed(row, {});
}

void PageLedger::applyRefetch(int row, const PageAnswer &answer, int added, int removed, int changed)
{
    PageRecord &p = m_pages[row];
    p.diffAdded = added;
    p.diffRemoved = removed;
    p.diffChanged = changed;
    p.refetchCount++;
    applyReply(row, answer);
}

void PageLedger::applyFailure(int row, const McpError &error, qint64 latencyMs, qint64 responseBytes,
                              qint64 receivedAtMs)
{
    PageRecord &p = m_pages[row];
    if (!p.attempts.isEmpty()) {
        p.attempts.last().latencyMs = latencyMs;
        p.attempts.last().failed = true;
    }
    // May serve stale while a refetch fails: the rows stay; the page says it is expired.
    p.state =
        p.state == PageRecord::State::Refetching ? PageRecord::State::Expired : PageRecord::State::Failed;
    p.error = error;
    p.responseBytes = responseBytes;
    p.receivedAtMs = receivedAtMs;
    changed(row, {});
}

void PageLedger::addFindings(int row, const QList<Finding> &findings)
{
    if (findings.isEmpty())
        return;
    m_pages[row].findings += findings;
    Q_EMIT dataChanged(index(row, FindingsColumn), index(row, FindingsColumn),
                       displayRoles + QList<int>{SeverityRole, SeveritiesRole});
    Q_EMIT dataChanged(index(row, 0), index(row, 0), {SeverityRole, SeveritiesRole});
}

void PageLedger::markParting(int row, const QString &how)
{
    m_pages[row].parting = how;
    changed(row, displayRoles + QList<int>{PartingRole});
}

void PageLedger::markExpired(int row)
{
    m_pages[row].state = PageRecord::State::Expired;
    changed(row, displayRoles + QList<int>{StateRole});
}

void PageLedger::markCancelled(int row, const McpError &error, qint64 nowMonoMs)
{
    PageRecord &p = m_pages[row];
    if (!p.attempts.isEmpty()) {
        p.attempts.last().failed = true;
    }
    if (p.state == PageRecord::State::Refetching) {
        const qint64 expiresAt = p.expiresAtMonoMs();
        p.state =
            expiresAt >= 0 && expiresAt > nowMonoMs ? PageRecord::State::Fresh : PageRecord::State::Expired;
    } else {
        // Kept in the history; the next fetch asks for the same cursor again.
        p.state = PageRecord::State::Discarded;
        p.discardReason = tr("cancelled");
        p.error = error;
    }
    changed(row, {});
}

void PageLedger::markAskedWithoutArguments(int row)
{
    m_pages[row].askedWithoutArguments = true;
    markDiscarded({row}, tr("asked without arguments"));
}

void PageLedger::markDiscarded(const QList<int> &rows, const QString &reason)
{
    int first = -1, last = -1;
    for (int row : rows) {
        if (m_pages[row].state == PageRecord::State::Discarded)
            continue; // discarded already, for the reason it has
        m_pages[row].state = PageRecord::State::Discarded;
        m_pages[row].discardReason = reason;
        first = first < 0 ? row : qMin(first, row);
        last = qMax(last, row);
    }
    if (first >= 0)
        Q_EMIT dataChanged(index(first, 0), index(last, ColumnCount - 1),
                           displayRoles + QList<int>{StateRole});
}

void PageLedger::retime(int row, qint64 sentAtMs, qint64 latencyMs, qint64 refetchSentAtMs)
{
    PageRecord &p = m_pages[row];
    p.sentAtMs = sentAtMs;
    p.receivedAtMs = sentAtMs + latencyMs;
    for (PageRecord::Attempt &a : p.attempts) {
        if (!a.refetch) {
            a.sentAtMs = sentAtMs;
            a.latencyMs = latencyMs;
        } else if (refetchSentAtMs >= 0) {
            a.sentAtMs = refetchSentAtMs;
        }
    }
    changed(row, displayRoles + QList<int>{AttemptsRole});
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
        Q_EMIT dataChanged(index(0, CursorColumn), index(rowCount() - 1, NextCursorColumn), displayRoles);
}

} // namespace folio
