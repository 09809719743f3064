#include "auditedwalk.h"
#include "counted.h"

#include "itemdiff.h"
#include "pagewalker.h"

#include <algorithm>
#include <iterator>

namespace folio {

AuditedWalk AuditedWalk::record(const PageWalker &walker)
{
    AuditedWalk w;
    for (int row : walker.walkPageRows()) {
        const PageRecord &rec = walker.ledger()->page(row);
        w.pages.append(rec);
        QStringList ids;
        int first = 0, count = 0;
        if (walker.rows()->rowsOfPage(row, &first, &count)) {
            for (int r = first; r < first + count; ++r)
                ids.append(ItemDiff::identity(walker.rows()->item(r)));
        }
        w.identities.append(ids);
        if (rec.requestCursor && rec.requestCursor->isEmpty())
            w.sentEmpty = true;
        // What the server handed back to be sent again: cursors and tokens, not a position the
        // client worked out (a cursor an offset tool returns anyway is not followed). An empty
        // page token ends the list: it is not a "" cursor to send back.
        if (rec.next.isString() && !walker.source().pagesByPosition()) {
            if (rec.next.text.isEmpty()) {
                if (walker.source().paging() == ListSource::Paging::Cursor)
                    w.issuedEmpty = true;
            } else {
                w.issuedCursors.append(rec.next.text);
                w.issuedOnPage.append(rec.index);
            }
        }
    }
    w.complete = walker.isComplete();
    w.stopReason = walker.stopReason();
    w.items = walker.rows()->rowCount();
    w.findings = walker.findings();
    return w;
}

QList<Finding> AuditedWalk::newHintFindings(const QList<Finding> &known, const AuditedWalk &second)
{
    static const QStringList hintIds{FindingId::CacheHintsMissing, FindingId::TtlInvalid,
                                     FindingId::ScopeInvalid, FindingId::ScopeMismatch};
    QList<Finding> out;
    for (const Finding &f : second.findings) {
        const auto sameId = [&f](const Finding &g) { return g.id == f.id; };
        if (!hintIds.contains(f.id) || std::any_of(known.begin(), known.end(), sameId) ||
            std::any_of(out.begin(), out.end(), sameId))
            continue;
        Finding g = f;
        g.evidence.insert(QStringLiteral("walk"), 2);
        g.message += QStringLiteral(" (second walk)");
        out.append(g);
    }
    return out;
}

namespace {

// The items of pages [0, n) of a walk, in order.
QStringList itemsOf(const AuditedWalk &w, int n)
{
    QStringList out;
    for (int i = 0; i < n; ++i)
        out += w.identities.at(i);
    return out;
}

// The pages both walks read without failing, within cap.
int comparedPages(const AuditedWalk &first, const AuditedWalk &second, int cap)
{
    const int n = int(qMin(qMin(first.pages.size(), second.pages.size()), qsizetype(cap)));
    for (int i = 0; i < n; ++i) {
        if (first.pages.at(i).error.isError() || second.pages.at(i).error.isError())
            return i;
    }
    return n;
}

} // namespace

// Page i differs: other items, or the same items cut into other pages (unstable-items,
// unstable-pages); nothing when it is the same items in another order.
CheckOutcome AuditedWalk::otherItemsOrPages(const AuditedWalk &first, const AuditedWalk &second, int i, int n)
{
    const QStringList a = itemsOf(first, n);
    const QStringList b = itemsOf(second, n);
    const qsizetype common = qMin(a.size(), b.size());
    if (first.identities.at(i).size() != second.identities.at(i).size() &&
        a.mid(0, common) == b.mid(0, common)) {
        return {auditFinding(FindingId::UnstablePages, {i},
                             QStringLiteral("A second walk with the same arguments cut the list into other "
                                            "pages: page %1 held %2, then %3")
                                 .arg(QString::number(i + 1),
                                      counted(first.identities.at(i).size(), "item", "items"),
                                      counted(second.identities.at(i).size(), "item", "items")),
                             {{QStringLiteral("probe"), QStringLiteral("second-walk")},
                              {QStringLiteral("page"), i + 1},
                              {QStringLiteral("firstWalkItems"), int(first.identities.at(i).size())},
                              {QStringLiteral("secondWalkItems"), int(second.identities.at(i).size())}}),
                {}};
    }
    // Other items can be told from another order only over whole lists: within the pages a capped
    // walk read, a shuffled list shows other items too.
    const bool whole =
        first.complete && second.complete && n == first.pages.size() && n == second.pages.size();
    if (!whole)
        return {};
    QStringList sortedA = a;
    QStringList sortedB = b;
    std::sort(sortedA.begin(), sortedA.end());
    std::sort(sortedB.begin(), sortedB.end());
    if (sortedA == sortedB)
        return {};
    // Other items: what one walk read that the other did not, over the pages both read.
    QStringList added;
    QStringList removed;
    std::set_difference(sortedB.begin(), sortedB.end(), sortedA.begin(), sortedA.end(),
                        std::back_inserter(added));
    std::set_difference(sortedA.begin(), sortedA.end(), sortedB.begin(), sortedB.end(),
                        std::back_inserter(removed));
    return {auditFinding(FindingId::UnstableItems, {i},
                         QStringLiteral("A second walk with the same arguments gave other items from page %1 "
                                        "on: %2 not in the first walk, %3 of it missing")
                             .arg(QString::number(i + 1), QString::number(added.size()),
                                  QString::number(removed.size())),
                         {{QStringLiteral("probe"), QStringLiteral("second-walk")},
                          {QStringLiteral("page"), i + 1},
                          {QStringLiteral("added"), firstIdentities(added, 5)},
                          {QStringLiteral("removed"), firstIdentities(removed, 5)}}),
            {}};
}

CheckOutcome AuditedWalk::compareHints(const AuditedWalk &first, const AuditedWalk &second, int cap)
{
    const int n = comparedPages(first, second, cap);
    for (int i = 0; i < n; ++i) {
        const CacheHints &a = first.pages.at(i).hints;
        const CacheHints &b = second.pages.at(i).hints;
        if (a == b)
            continue;
        QJsonObject before;
        QJsonObject after;
        a.writeTo(before);
        b.writeTo(after);
        return {auditFinding(
                    FindingId::UnstableHints, {i},
                    QStringLiteral("A second walk with the same arguments got other cache hints on "
                                   "page %1: ttlMs %2, cacheScope %3, then ttlMs %4, cacheScope %5")
                        .arg(QString::number(i + 1), a.ttlText(), a.scopeText(), b.ttlText(), b.scopeText()),
                    {{QStringLiteral("probe"), QStringLiteral("second-walk")},
                     {QStringLiteral("page"), i + 1},
                     {QStringLiteral("firstWalk"), before},
                     {QStringLiteral("secondWalk"), after}}),
                {}};
    }
    return {};
}

CheckOutcome AuditedWalk::compareCursors(const AuditedWalk &first, const AuditedWalk &second, int cap)
{
    const int n = comparedPages(first, second, cap);
    for (int i = 1; i < n; ++i) {
        if (first.identities.at(i - 1) != second.identities.at(i - 1))
            return {}; // the list itself differs there: unstable-items or -order say it
        const std::optional<QString> &a = first.pages.at(i).requestCursor;
        const std::optional<QString> &b = second.pages.at(i).requestCursor;
        if (a == b)
            continue;
        return {
            auditFinding(
                FindingId::UnstableCursors, {i},
                QStringLiteral("A second walk with the same arguments reached page %1 with another "
                               "cursor, though the pages before it held the same items: a "
                               "client's cached cursors go stale from one walk to the next")
                    .arg(QString::number(i + 1)),
                {{QStringLiteral("probe"), QStringLiteral("second-walk")},
                 {QStringLiteral("page"), i + 1},
                 {QStringLiteral("firstWalkCursor"), a ? QJsonValue(shortText(*a, 200)) : QJsonValue()},
                 {QStringLiteral("secondWalkCursor"), b ? QJsonValue(shortText(*b, 200)) : QJsonValue()}}),
            {}};
    }
    return {};
}

CheckOutcome AuditedWalk::compareOrder(const AuditedWalk &first, const AuditedWalk &second, int cap)
{
    const int n = int(qMin(first.pages.size(), second.pages.size()));
    for (int i = 0; i < n; ++i) {
        const bool firstFailed = first.pages.at(i).error.isError();
        const bool secondFailed = second.pages.at(i).error.isError();
        if (firstFailed || secondFailed) {
            if (firstFailed == secondFailed)
                return {};
            return {std::nullopt,
                    QStringLiteral("unstable-order judged up to page %1 only: page %2 failed in "
                                   "one walk and not in the other")
                        .arg(QString::number(i), QString::number(i + 1))};
        }
        const QStringList &before = first.identities.at(i);
        const QStringList &after = second.identities.at(i);
        if (!ItemDiff::compare(before, after).isSame()) {
            if (CheckOutcome other = otherItemsOrPages(first, second, i, n); other.finding)
                return other;
            return {
                auditFinding(FindingId::UnstableOrder, {i},
                             QStringLiteral("A second walk with the same arguments gave other items on page "
                                            "%1: first %2, then %3")
                                 .arg(QString::number(i + 1),
                                      shortText(before.mid(0, 3).join(QStringLiteral(", "))),
                                      shortText(after.mid(0, 3).join(QStringLiteral(", ")))),
                             {{QStringLiteral("probe"), QStringLiteral("second-walk")},
                              {QStringLiteral("page"), i + 1},
                              {QStringLiteral("firstWalk"), firstIdentities(before)},
                              {QStringLiteral("secondWalk"), firstIdentities(after)}}),
                {}};
        }
    }
    // The end of the list must come where it came the first time.
    const bool firstEnded = first.complete && first.pages.size() <= cap;
    if (!firstEnded || (second.complete && second.pages.size() == first.pages.size()))
        return {};
    if (!second.pages.isEmpty() && second.pages.constLast().error.isError())
        return {};
    return {auditFinding(FindingId::UnstablePages, {int(first.pages.size()) - 1},
                         QStringLiteral("The first walk ended after %1; a second walk with the same "
                                        "arguments did not end there")
                             .arg(counted(first.pages.size(), "page", "pages")),
                         {{QStringLiteral("probe"), QStringLiteral("second-walk")},
                          {QStringLiteral("firstWalkPages"), int(first.pages.size())},
                          {QStringLiteral("secondWalkPages"), int(second.pages.size())}}),
            {}};
}

} // namespace folio
