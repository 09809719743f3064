#pragma once

#include "finding.h"
#include "pagerecord.h"
#include "rowstore.h"

#include <QHash>
#include <QJsonArray>

namespace folio {

// The passive findings of one walk, judged page by page as they arrive: it remembers the cursors
// sent, the identities seen and the scope of the first page, and nothing else (64-bit hashes for
// identities, so a million rows cost a few tens of MB, not a copy of every name).
class WalkJudge
{
public:
    void reset();

    // Called when a page request is sent (with the cursor sent, if any).
    void noteRequest(int pageIndex, const std::optional<QString> &cursor);
    // Judges an answered page in two steps, each returning its findings: its next cursor
    // (*keepWalking is false when the walk must stop: a repeated cursor, or not a string), then its
    // items (by their identities, ListSource::identity()) and cache hints. The walk may
    // ask for the next page in between.
    QList<Finding> judgeCursor(const PageRecord &page, bool *keepWalking);
    QList<Finding> judgeItems(const PageRecord &page, const ItemTexts &items, const QString &toolLimitArg);
    // Names (identities) on a page that may read as other names: hidden characters (bidi, zero-width,
    // controls) or letters that pass for Latin ones (deceptive-name). Part of judgeItems().
    static QList<Finding> judgeNames(const PageRecord &page, const ItemTexts &items);
    // Judges a failed page.
    static QList<Finding> judgeFailure(const PageRecord &page);
    // A list tool's first page, asked without a cursor, refused with isError: true or -32602
    // (invalid params) when none of its arguments was chosen (argumentsChosen: by the user; the
    // audit's filled from the schema do not count): the tool wants arguments. That says nothing
    // about its paging: no finding, the walk waits for them (the window and folio list), the
    // audit skips the list.
    static bool refusedForArguments(const ListSource &source, const PageRecord &page, bool argumentsChosen);
    // The walk stopped at the cap with a cursor still to follow.
    static QList<Finding> judgeCapReached(const PageRecord &lastPage, int cap);
    // The walk stopped with a cursor still to follow because it keeps cap bytes already.
    static QList<Finding> judgeSizeCapReached(const PageRecord &lastPage, qint64 kept, qint64 cap);
    // The list changed (or refused a refetch's cursor) restarts times in a row during the walk, and
    // the walk stopped instead of starting once more.
    static QList<Finding> judgeRestartCapReached(const PageRecord &lastPage, int restarts,
                                                 const QString &reason);
    // On a walk's first page: transparent-paging for a list that pages by offset or page number.
    static QList<Finding> judgePaging(const PageRecord &firstPage, const ListSource &source);

    static QString describeError(const PageRecord &page);

    // The cache-hint findings of one 2026-07-28 result, a page's or a read's: ttlMs or cacheScope
    // missing, a ttlMs that is no integer >= 0, a cacheScope other than "public" or "private".
    // subject names the result at a sentence's start ("Page 3", "The read of demo://x"), where
    // after a field's name ("on page 3", "in the read of demo://x"). The findings name no page:
    // the caller adds it (or, for a read, the uri).
    static QList<Finding> judgeHints(const CacheHints &hints, const QString &subject, const QString &where);
    static bool isValidScope(const QJsonValue &cacheScope);

private:
    QHash<QString, int> m_sentCursors; // cursor -> page index that sent it first
    QHash<quint64, int> m_identities;  // identity hash -> page index where first seen
    QString m_firstScope;
    int m_firstScopePage = -1;
};

} // namespace folio
