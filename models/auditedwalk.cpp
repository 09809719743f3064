#include "auditedwalk.h"
#include "counted.h"

#include "itemdiff.h"
#include "pagewalker.h"

#include <algorithm>

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
    return {auditFinding(FindingId::UnstableOrder, {int(first.pages.size()) - 1},
                         QStringLiteral("The first walk ended after %1; a second walk with the same "
                                        "arguments did not end there")
                             .arg(counted(first.pages.size(), "page", "pages")),
                         {{QStringLiteral("probe"), QStringLiteral("second-walk")},
                          {QStringLiteral("firstWalkPages"), int(first.pages.size())},
                          {QStringLiteral("secondWalkPages"), int(second.pages.size())}}),
            {}};
}

} // namespace folio
