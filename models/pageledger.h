#pragma once

#include "pagerecord.h"
#include "protocol.h"

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
        // What the views draw a page from, beyond the roles above.
        ItemCountRole,             // items the last answer held
        AnsweredRole,              // bool: an answer was read (received on the TTL clock)
        ErrorKindRole,             // int(McpError::Kind), None when the page has no error
        HttpStatusRole,            // the error's HTTP status, 0 when none
        SeveritiesRole,            // QList<int>: every finding's severity, in the order found
        AttemptsRole,              // QList<PageRecord::Attempt>: each request sent for the page, timed
        AskedWithoutArgumentsRole, // bool: PageRecord::askedWithoutArguments
        PartingRole,               // QString: PageRecord::parting, empty on most pages
    };

    explicit PageLedger(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    const PageRecord &page(int row) const { return m_pages.at(row); }
    const QVector<PageRecord> &pages() const { return m_pages; }
    int rowForSerial(quint64 serial) const { return m_bySerial.value(serial, -1); }

    // What an answered page request brought, as received (PageWalker fills it from the reply).
    struct PageAnswer
    {
        NextCursor next;
        int itemCount = 0;
        qint64 latencyMs = -1;
        qint64 requestBytes = 0;
        qint64 responseBytes = 0;
        qint64 receivedAtMs = 0;    // wall clock
        qint64 receivedMonoMs = -1; // TTL clock
        bool hintsExpected = false;
        bool legacyEra = false;
        CacheHints hints;
    };

    // Records change only through these, each saying what happened; each emits dataChanged with
    // the roles it touched, so views hear of every change.
    // A page was asked for: appended, Loading. Returns its row.
    int appendRequest(const PageRecord &record);
    // A request for the page left: a new attempt (Refetching when it is a refetch), with the
    // request's id as the traffic log writes it.
    void markSent(int row, bool refetch, qint64 sentAtMs, const QString &requestId = {});
    // The page's answer was read: cursor, counts, hints; Fresh while its TTL runs, else Stale.
    void applyReply(int row, const PageAnswer &answer);
    // A refetch's answer: applyReply() plus how its items differ from the copy it replaced.
    void applyRefetch(int row, const PageAnswer &answer, int added, int removed, int changed);
    // The request failed: Failed, or Expired when it was a refetch (the old rows stay).
    void applyFailure(int row, const McpError &error, qint64 latencyMs, qint64 responseBytes,
                      qint64 receivedAtMs);
    void addFindings(int row, const QList<Finding> &findings);
    // The first page of a walk that parts from the walk before it, and how (PageRecord::parting).
    void markParting(int row, const QString &how);
    void markExpired(int row);
    // The request was cancelled before its answer: Discarded ("cancelled"), or back to Fresh or
    // Expired when it was a refetch.
    void markCancelled(int row, const McpError &error, qint64 nowMonoMs);
    // Pages of a walk that was thrown away (restart, list_changed), kept in the history. A page
    // discarded already keeps the reason it was discarded for.
    void markDiscarded(const QList<int> &rows, const QString &reason);
    // A list tool's page refused because Folio asked without the arguments the tool wants: struck
    // out like any discarded page, and said for what it is (the chip reads "args?", not "error").
    void markAskedWithoutArguments(int row);
    // Replaces a page's timings by recorded ones (screenshots, replays): its first request's, and
    // when refetchSentAtMs >= 0 the time its refetches were sent.
    void retime(int row, qint64 sentAtMs, qint64 latencyMs, qint64 refetchSentAtMs = -1);
    void clear();

    void setMaskCursors(bool mask);
    bool maskCursors() const { return m_maskCursors; }

private:
    void changed(int row, const QList<int> &roles);

    QVector<PageRecord> m_pages;
    QHash<quint64, int> m_bySerial;
    bool m_maskCursors = false;
};

} // namespace folio
