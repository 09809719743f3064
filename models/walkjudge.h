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
    QList<Finding> judgeItems(const PageRecord &page, const RowStore::Items &items,
                              const QString &toolLimitArg);
    // Judges a failed page.
    static QList<Finding> judgeFailure(const PageRecord &page);
    // The walk stopped at the cap with a cursor still to follow.
    static QList<Finding> judgeCapReached(const PageRecord &lastPage, int cap);
    // On a walk's first page: transparent-paging for a list that pages by offset or page number.
    static QList<Finding> judgePaging(const PageRecord &firstPage, const ListSource &source);

    static QString describeError(const PageRecord &page);

private:
    QHash<QString, int> m_sentCursors; // cursor -> page index that sent it first
    QHash<quint64, int> m_identities;  // identity hash -> page index where first seen
    QString m_firstScope;
    int m_firstScopePage = -1;
};

} // namespace folio
