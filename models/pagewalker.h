#pragma once

#include "listsource.h"
#include "pageledger.h"
#include "rowstore.h"
#include "ttlclock.h"
#include "walkjudge.h"

#include <QObject>
#include <QPointer>

#include <optional>

namespace folio {

class McpClient;
class RpcCall;

// Walks one MCP list by its cursors: asks for one page at a time, judges each answer, records
// every request in a PageLedger and puts the accepted pages' items in a RowStore. The window's
// table, the command line and the audit all drive a walker; none of them is a view of the others.
//
// A walk is one pass from the first page: restart() (by the user, a refused refetch or a
// list_changed notification) discards its pages, keeps them in the ledger, and starts walk n + 1.
class PageWalker : public QObject
{
    Q_OBJECT
public:
    // Why a walk ended.
    enum class End {
        Complete,  // the last page had no next cursor (absent or null)
        Stopped,   // it cannot go on: a failed page, a repeated cursor, a cursor not a string, the cap
        Cancelled, // cancel(): the pages read stay, the walk may be resumed
    };
    Q_ENUM(End)

    static constexpr int DefaultPageCap = 1000;
    // Restarts the server causes (list_changed, a refetch's cursor refused) in a row, without a
    // walk reaching its end in between, before the walk stops instead (restart-cap-reached).
    static constexpr int DefaultRestartCap = 10;

    PageWalker(McpClient *client, const ListSource &source, TtlClock *clock, QObject *parent = nullptr);
    ~PageWalker() override;

    PageLedger *ledger() const { return m_ledger; }
    RowStore *rows() const { return m_rows; }
    TtlClock *ttlClock() const { return m_clock; }
    const ListSource &source() const { return m_source; }
    // Changing the source (tool arguments, limit, pointers) restarts a walk that has started.
    void setSource(const ListSource &source);

    void setPageCap(int cap) { m_pageCap = qMax(1, cap); }
    int pageCap() const { return m_pageCap; }
    void setRestartCap(int cap) { m_restartCap = qMax(0, cap); }
    int restartCap() const { return m_restartCap; }
    // The most the current walk keeps, its items' text and cursors: the walk stops with
    // walk-size-cap-reached once it keeps that much (the client's ServerConfig::maxWalkBytes).
    void setSizeCap(qint64 bytes) { m_sizeCap = qMax<qint64>(1, bytes); }
    qint64 sizeCap() const { return m_sizeCap; }
    qint64 keptBytes() const { return m_keptBytes; }
    // Refetch each page of the walk as it expires.
    void setAutoRefetch(bool on);
    bool autoRefetch() const { return m_autoRefetch; }
    // When set, canFetchNext() is false until start() or fetchAll(): for list tools whose
    // arguments the user fills in first.
    void setManualStart(bool manual) { m_manualStart = manual; }

    // Asks for the first page if nothing was asked yet.
    void start();
    // Whether fetchNext() would send a request now.
    bool canFetchNext() const;
    // Asks for the next page (one request in flight at a time).
    void fetchNext();
    // Follows the cursors to the end or the cap; progress() reports as pages arrive.
    void fetchAll();
    // Stops fetching all and cancels the request in flight; the pages read stay.
    void cancel();
    // Discards every page of the current walk (kept in the ledger, marked with the reason) and
    // starts again from the first page. Asked for by the user: the restart cap counts afresh.
    void restart(const QString &reason);
    // Asks for one page again with its own cursor; compares the new copy with the old.
    void refetchPage(int ledgerRow);
    // Whether the walk stopped because its last page failed, so that page can be asked again.
    bool canRetry() const;
    // Asks the failed last page again with the same cursor and goes on from there: the failed
    // attempt stays in the ledger (discarded, "retried"), the pages before it stay as they are.
    void retryFailedPage();

    bool isStarted() const { return m_started; }
    bool isLoading() const { return !m_inFlight.isNull(); }
    bool isFetchingAll() const { return m_fetchingAll; }
    bool isComplete() const { return m_complete; }
    bool isStopped() const { return m_stopped; }
    // The walk waits for arguments the user has not given a list tool: the ones its inputSchema
    // requires (ListSource::argumentsNeeded(): no request was sent), or any, when the server
    // refused the first page without them (WalkJudge::refusedForArguments(): that page stays in
    // the walk, discarded, with no finding). Stopped, with stopReason() saying what it needs;
    // setSource() with arguments walks again.
    bool needsArguments() const { return m_needsArguments; }
    QString stopReason() const { return m_stopReason; }
    int currentWalk() const { return m_walk; }
    int pagesInWalk() const { return m_rows->pageCount(); } // the one asked for included
    int pagesRead() const;                                  // the walk's pages that were answered
    // The ledger rows of the current walk's pages, in order.
    QList<int> walkPageRows() const { return m_rows->pageLedgerRows(); }
    // Findings of the current walk, page order.
    QList<Finding> findings() const;

Q_SIGNALS:
    // A page's answer was accepted: its record is settled and its rows are in rows().
    void pageAccepted(int ledgerRow);
    void pageFailed(int ledgerRow, const folio::McpError &error);
    // Nothing is in flight any more and the walk ended, or stopped for now (cancelled).
    void walkFinished(folio::PageWalker::End end);
    // Pages read so far in this walk (the one in flight not counted) and their rows.
    void progress(int pages, int rows);
    void loadingChanged(bool loading);
    void findingsChanged();
    void walkRestarted(const QString &reason);

private:
    enum class Job { NextPage, Refetch };

    void requestNextPage();
    void sendRequest(Job job, int ledgerRow, const std::optional<QString> &cursor);
    void handleReply(RpcCall *call, Job job, int ledgerRow, int walk);
    void acceptPage(int ledgerRow, const ListSource::Page &page, RpcCall *call);
    void acceptRefetch(int ledgerRow, const ListSource::Page &page, RpcCall *call);
    void failPage(int ledgerRow, const McpError &error, RpcCall *call);
    PageLedger::PageAnswer answerOf(const ListSource::Page &page, RpcCall *call) const;
    void scheduleExpiry(int ledgerRow);
    void handleExpired(const QList<quint64> &serials);
    void handleListChanged(ListKind kind);
    // A restart the server caused: within the restart cap a restart, beyond it the walk stops.
    void restartForServer(const QString &reason);
    void startNewWalk(const QString &reason);
    void stopAtRestartCap();
    void dropInFlight();
    void stop(const QString &reason);
    void setInFlight(RpcCall *call);
    void pumpQueue();
    // A page's rows as compact JSON: cut from the reply's raw text when the connection did so,
    // else each parsed item written again.
    ItemTexts itemsOf(const ListSource::Page &page) const;
    // Where a walk parts from the one before it: each page's items, reduced to their identities.
    struct PageDigest
    {
        int count = 0;
        quint64 order = 0; // the identities in order
        quint64 set = 0;   // the identities in any order
        static PageDigest of(const ItemTexts &items);
    };
    // At a restart: what the walk ending held, page by page, as far as it was read in order.
    void keepDigests();
    // Compares an accepted page with the walk before's page of its number, and marks the first
    // that differs (PageLedger::markParting).
    void judgeParting(int ledgerRow, const ItemTexts &items);

    McpClient *m_client;
    ListSource m_source;
    QPointer<TtlClock> m_clock; // shared; may go before the walker at shutdown
    PageLedger *m_ledger;
    RowStore *m_rows;
    WalkJudge m_judge;

    QPointer<RpcCall> m_inFlight;
    QList<int> m_refetchQueue; // ledger rows waiting for a refetch
    bool m_nextPageWanted = false;
    int m_walk = 0;
    int m_pageCap = DefaultPageCap;
    int m_restartCap = DefaultRestartCap;
    int m_serverRestarts = 0;   // restarts the server caused since a walk last reached its end
    QString m_restartCapReason; // set at the restart cap while the page in flight is awaited
    qint64 m_sizeCap;
    qint64 m_keptBytes = 0; // the current walk's items and cursors
    bool m_fetchingAll = false;
    bool m_autoRefetch = false;
    bool m_started = false;
    bool m_manualStart = false;
    bool m_inserting = false; // a page's rows are going in: requests wait (views ask at once)
    bool m_complete = false;
    bool m_stopped = false;
    bool m_needsArguments = false;
    QString m_stopReason;
    std::optional<QString> m_nextCursor; // what the next page request sends
    int m_largestPage = 0;               // the most items a page of this walk held
    QVector<PageDigest> m_earlierWalk;   // the walk before this one (empty when none was read)
    int m_earlierWalkNumber = -1;
    bool m_earlierWalkComplete = false; // it read to the list's end
    bool m_parted = false;              // this walk was marked where it parts from the earlier
};

} // namespace folio

Q_DECLARE_METATYPE(folio::PageWalker::End)
