#pragma once

#include "listsource.h"
#include "pageledger.h"
#include "ttlclock.h"
#include "walkjudge.h"

#include <QAbstractTableModel>
#include <QCache>
#include <QPointer>
#include <QStringList>
#include <QVector>

namespace folio {

class McpClient;
class RpcCall;
class TtlClock;

// A lazy table over one MCP list that follows the cursors: canFetchMore/fetchMore ask for the
// next page asynchronously (one request in flight), "fetch all" walks to the end within a page
// cap, and every row knows its page. The pages themselves live in a PageLedger.
//
// Rows are stored compactly: each page keeps its items as compact JSON in one byte arena with an
// offset table; cell text is parsed on demand and kept in a small cache of recently shown rows.
class PagedListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Roles {
        ItemJsonRole = Qt::UserRole + 1, // QByteArray: the item as compact JSON
        IdentityRole,                    // "name:x", "uri:y", ...
        PageRowRole,                     // the page's row in ledger()
        PageIndexRole,                   // 0-based page index in the walk
        PageStateRole,                   // int(PageRecord::State)
        PageExpiresAtRole,               // monotonic ms on ttlClock(), -1 when not counting down
        PageTtlRole,                     // effective TTL ms
        PageScopeRole,                   // "public" / "private" / "" (missing or invalid)
        PageSeverityRole,                // worst finding severity on the page, -1 when none
        PageHintsExpectedRole,           // bool: a 2026 protocol list page
        FirstRowOfPageRole,              // bool: the row opens its page (views draw a boundary)
    };

    static constexpr int DefaultPageCap = 1000;

    PagedListModel(McpClient *client, const ListSource &source, TtlClock *clock, QObject *parent = nullptr);
    ~PagedListModel() override;

    // QAbstractItemModel
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    PageLedger *ledger() const { return m_ledger; }
    TtlClock *ttlClock() const { return m_clock; }
    const ListSource &source() const { return m_source; }
    // Changing the source (tool arguments, limit, pointers) restarts the walk.
    void setSource(const ListSource &source);

    void setPageCap(int cap) { m_pageCap = qMax(1, cap); }
    int pageCap() const { return m_pageCap; }
    void setAutoRefetch(bool on);
    // When set, views cannot start the walk by scrolling (fetchMore): only start() or fetchAll()
    // do. For list tools whose arguments the user must fill in first.
    void setManualStart(bool manual) { m_manualStart = manual; }
    bool autoRefetch() const { return m_autoRefetch; }

    // Asks for the first page if nothing was asked yet.
    void start();
    // Follows the cursors to the end (or the cap); progress() reports as pages arrive.
    void fetchAll();
    // Stops fetching all and cancels the request in flight; the pages read stay.
    void cancel();
    // Discards every page of the current walk (kept in the ledger, marked with the reason) and
    // starts again from the first page.
    void restart(const QString &reason);
    // Asks for one page again with its own cursor; compares the new copy with the old.
    void refetchPage(int ledgerRow);

    bool isLoading() const { return !m_inFlight.isNull(); }
    bool isFetchingAll() const { return m_fetchingAll; }
    // The walk reached an absent/null nextCursor.
    bool isComplete() const { return m_complete; }
    // The walk cannot go on: a failed page, a repeated cursor, the cap.
    bool isStopped() const { return m_stopped; }
    QString stopReason() const { return m_stopReason; }
    int currentWalk() const { return m_walk; }
    int pagesInWalk() const { return int(m_pages.size()); }
    // The ledger rows of the current walk's pages, in order.
    QList<int> walkPageRows() const;
    // Findings of the current walk, page order.
    QList<Finding> findings() const;
    // The rows of one page of the current walk: [first, first+count).
    bool rowsOfPage(int ledgerRow, int *first, int *count) const;
    // The item at row as parsed JSON.
    QJsonObject item(int row) const;
    // The item at row as stored: compact JSON text.
    QByteArray itemBytes(int row) const;
    qint64 storedBytes() const; // what the row storage holds, for benchmarks

Q_SIGNALS:
    void pageReceived(int ledgerRow);
    void pageFailed(int ledgerRow, const folio::McpError &error);
    void walkFinished(); // complete, stopped or cancelled
    void progress(int pages, int rows);
    void loadingChanged(bool loading);
    void findingsChanged();
    void walkRestarted(const QString &reason);
    void columnsChanged();

private:
    struct StoredPage
    {
        int ledgerRow = -1;
        int firstRow = 0;
        QByteArray arena;         // items as compact JSON, back to back
        QVector<quint32> offsets; // itemCount + 1 entries
        int count() const { return int(offsets.size()) - 1; }
    };
    enum class Job { NextPage, Refetch };

    void requestNextPage();
    void sendRequest(Job job, int ledgerRow, const std::optional<QString> &cursor);
    void handleReply(RpcCall *call, Job job, int ledgerRow, int walk);
    void acceptPage(int ledgerRow, const ListSource::Page &page, RpcCall *call);
    void acceptRefetch(int ledgerRow, const ListSource::Page &page, RpcCall *call);
    void failPage(int ledgerRow, const McpError &error, RpcCall *call);
    void applyHints(PageRecord &record, const ListSource::Page &page);
    void handleExpired(const QList<quint64> &serials);
    void handleListChanged(ListKind kind);
    void stop(const QString &reason);
    void setInFlight(RpcCall *call);
    void pumpQueue();
    // A page's rows as compact JSON: cut from the reply's raw text when it is a protocol list's
    // plain result, else each parsed item written again.
    StoredPage pack(const ListSource::Page &page, const QByteArray &raw) const;
    int storedIndexForLedgerRow(int ledgerRow) const;
    const QStringList &rowTexts(int row) const;
    void notifyPageRows(int storedIndex, const QList<int> &roles);
    void ensureColumns(const QJsonArray &items);

    McpClient *m_client;
    ListSource m_source;
    QPointer<TtlClock> m_clock; // shared; may go before the model at shutdown
    PageLedger *m_ledger;
    WalkJudge m_judge;
    QList<ListSource::Column> m_columns;

    QVector<StoredPage> m_pages; // the current walk's pages, in order
    QVector<quint32> m_rowPage;  // row -> index into m_pages
    int m_rowCount = 0;
    mutable QCache<int, QStringList> m_textCache;

    QPointer<RpcCall> m_inFlight;
    QList<int> m_refetchQueue; // ledger rows waiting for a refetch
    bool m_nextPageWanted = false;
    int m_walk = 0;
    int m_pageCap = DefaultPageCap;
    bool m_fetchingAll = false;
    bool m_autoRefetch = false;
    bool m_started = false;
    bool m_manualStart = false;
    bool m_inserting = false; // a page's rows are going in: requests wait
    bool m_complete = false;
    bool m_stopped = false;
    QString m_stopReason;
    std::optional<QString> m_nextCursor; // what the next page request sends
};

} // namespace folio
