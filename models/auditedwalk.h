#pragma once

#include "auditresult.h"
#include "pagerecord.h"

#include <QList>
#include <QStringList>

namespace folio {

class PageWalker;

// One walk of a list as the audit keeps it once the walker is gone: its pages, the items on each
// (by identity), the cursors it issued; and what a second walk with the same arguments must repeat
// of it (unstable-order).
struct AuditedWalk
{
    QList<PageRecord> pages;
    QList<QStringList> identities; // per page (ItemDiff::identity)
    QStringList issuedCursors;     // non-empty nextCursors, in order
    QList<int> issuedOnPage;       // the page that issued each of them
    bool issuedEmpty = false;
    bool sentEmpty = false;
    bool complete = false;
    QString stopReason;
    int items = 0;
    QList<Finding> findings;

    // The walker's current walk.
    static AuditedWalk record(const PageWalker &walker);

    // The second walk's cache-hint findings the known ones lack ("hints on every 2026 page": its
    // pages are judged too), one per id, marked as the second walk's.
    static QList<Finding> newHintFindings(const QList<Finding> &known, const AuditedWalk &second);
    // Whether second (cap pages at most) gave the same items in the same order on every page, and
    // ended where first did: a finding, a note where a failed page cut the judgement short, or
    // neither. The finding says what differs first: other items (unstable-items), the same items
    // in another order (unstable-order), or the same items cut into other pages or a list that
    // ends elsewhere (unstable-pages); its evidence is that first difference.
    static CheckOutcome compareOrder(const AuditedWalk &first, const AuditedWalk &second, int cap);
    // Whether each page both walks read (cap pages at most, up to a failed one) came with the same
    // hints, ttlMs and cacheScope as received: unstable-hints on the first that did not.
    static CheckOutcome compareHints(const AuditedWalk &first, const AuditedWalk &second, int cap);
    // Whether each page both walks read was asked with the same cursor while the pages before it
    // held the same items: unstable-cursors on the first that was not (PG-04: servers SHOULD
    // provide stable cursors; a cursor that changes from walk to walk breaks a client's cache).
    static CheckOutcome compareCursors(const AuditedWalk &first, const AuditedWalk &second, int cap);

private:
    static CheckOutcome otherItemsOrPages(const AuditedWalk &first, const AuditedWalk &second, int i, int n);
};

} // namespace folio
