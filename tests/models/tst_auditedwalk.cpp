#include "auditedwalk.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace folio;

namespace {

// A walk of pages, each given as its items' identities; a null entry is a failed page.
AuditedWalk walk(const QList<std::optional<QStringList>> &pages, bool complete)
{
    AuditedWalk w;
    for (int i = 0; i < pages.size(); ++i) {
        PageRecord p;
        p.index = i;
        if (!pages.at(i))
            p.error = McpError::rpc(-32603, QStringLiteral("boom"));
        w.pages.append(p);
        w.identities.append(pages.at(i).value_or(QStringList()));
    }
    w.complete = complete;
    return w;
}

Finding finding(const QString &id, int page)
{
    return auditFinding(id, {page}, id + QStringLiteral(" on a page"), {});
}

const QStringList ab{QStringLiteral("a"), QStringLiteral("b")};
const QStringList cd{QStringLiteral("c"), QStringLiteral("d")};
const QStringList dc{QStringLiteral("d"), QStringLiteral("c")};

} // namespace

// The second walk of the audit judged against the first (unstable-order), without a server.
class tst_AuditedWalk : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sameWalkPasses();
    void otherOrderOnAPage();
    void failedPageInOneWalkOnly();
    void failedPageInBothWalks();
    void endNotWhereItWas();
    void endPastTheCapIsNotJudged();
    void secondWalkEndingOnAFailedPage();
    void hintFindingsOncePerId();
    void otherItems();
    void otherPageBoundaries();
    void otherHints();
    void otherCursors();
    void cursorsNotJudgedWhereTheItemsDiffer();
};

void tst_AuditedWalk::sameWalkPasses()
{
    const AuditedWalk first = walk({ab, cd}, true);
    const CheckOutcome o = AuditedWalk::compareOrder(first, first, 2);
    QVERIFY(!o.finding);
    QVERIFY(o.note.isEmpty());
}

void tst_AuditedWalk::otherOrderOnAPage()
{
    const CheckOutcome o = AuditedWalk::compareOrder(walk({ab, cd}, true), walk({ab, dc}, true), 2);
    QVERIFY(o.finding);
    QCOMPARE(o.finding->id, FindingId::UnstableOrder);
    QCOMPARE(o.finding->pages, QList<int>{1});
    QCOMPARE(o.finding->evidence.value(QStringLiteral("page")).toInt(), 2); // numbered from 1
    QCOMPARE(o.finding->evidence.value(QStringLiteral("firstWalk")).toArray().size(), 2);
    QVERIFY(o.finding->message.contains(QStringLiteral("first c, d, then d, c")));
}

void tst_AuditedWalk::failedPageInOneWalkOnly()
{
    const CheckOutcome o =
        AuditedWalk::compareOrder(walk({ab, cd}, true), walk({ab, std::nullopt}, false), 2);
    QVERIFY(!o.finding);
    QVERIFY(o.note.startsWith(QStringLiteral("unstable-order judged up to page 1 only")));
}

void tst_AuditedWalk::failedPageInBothWalks()
{
    const CheckOutcome o =
        AuditedWalk::compareOrder(walk({ab, std::nullopt}, false), walk({ab, std::nullopt}, false), 2);
    QVERIFY(!o.finding);
    QVERIFY(o.note.isEmpty());
}

void tst_AuditedWalk::endNotWhereItWas()
{
    const CheckOutcome o = AuditedWalk::compareOrder(walk({ab, cd}, true), walk({ab, cd}, false), 2);
    QVERIFY(o.finding);
    QCOMPARE(o.finding->id, FindingId::UnstablePages);
    QCOMPARE(o.finding->pages, QList<int>{1});
    QCOMPARE(o.finding->evidence.value(QStringLiteral("firstWalkPages")).toInt(), 2);
}

void tst_AuditedWalk::endPastTheCapIsNotJudged()
{
    // The second walk stopped at its cap of one page: where the first ended is out of its sight.
    const CheckOutcome o = AuditedWalk::compareOrder(walk({ab, cd}, true), walk({ab}, false), 1);
    QVERIFY(!o.finding);
    QVERIFY(o.note.isEmpty());
}

void tst_AuditedWalk::secondWalkEndingOnAFailedPage()
{
    const CheckOutcome o =
        AuditedWalk::compareOrder(walk({ab, cd}, true), walk({ab, cd, std::nullopt}, false), 3);
    QVERIFY(!o.finding);
    QVERIFY(o.note.isEmpty());
}

void tst_AuditedWalk::hintFindingsOncePerId()
{
    const QList<Finding> known{finding(FindingId::TtlInvalid, 0), finding(FindingId::UnstableOrder, 1)};
    AuditedWalk second = walk({ab, cd}, true);
    second.findings = {finding(FindingId::TtlInvalid, 0), finding(FindingId::ScopeInvalid, 0),
                       finding(FindingId::ScopeInvalid, 1), finding(FindingId::DuplicateItem, 1)};
    const QList<Finding> added = AuditedWalk::newHintFindings(known, second);
    QCOMPARE(added.size(), 1);
    QCOMPARE(added.first().id, FindingId::ScopeInvalid);
    QCOMPARE(added.first().pages, QList<int>{0});
    QCOMPARE(added.first().evidence.value(QStringLiteral("walk")).toInt(), 2);
    QVERIFY(added.first().message.endsWith(QStringLiteral(" (second walk)")));
}

void tst_AuditedWalk::otherItems()
{
    const QStringList ce{QStringLiteral("c"), QStringLiteral("e")};
    const CheckOutcome o = AuditedWalk::compareOrder(walk({ab, cd}, true), walk({ab, ce}, true), 2);
    QVERIFY(o.finding);
    QCOMPARE(o.finding->id, FindingId::UnstableItems);
    QCOMPARE(o.finding->pages, QList<int>{1});
    QCOMPARE(o.finding->evidence.value(QStringLiteral("added")).toArray(), QJsonArray{QStringLiteral("e")});
    QCOMPARE(o.finding->evidence.value(QStringLiteral("removed")).toArray(), QJsonArray{QStringLiteral("d")});
    // The same items, another order: unstable-order, as before.
    QCOMPARE(AuditedWalk::compareOrder(walk({ab, cd}, true), walk({ab, dc}, true), 2).finding->id,
             FindingId::UnstableOrder);
}

void tst_AuditedWalk::otherPageBoundaries()
{
    // a b | c d  against  a b c | d: the same items, cut elsewhere.
    const QStringList abc{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
    const QStringList d{QStringLiteral("d")};
    const CheckOutcome o = AuditedWalk::compareOrder(walk({ab, cd}, true), walk({abc, d}, true), 2);
    QVERIFY(o.finding);
    QCOMPARE(o.finding->id, FindingId::UnstablePages);
    QCOMPARE(o.finding->pages, QList<int>{0});
    QCOMPARE(o.finding->evidence.value(QStringLiteral("firstWalkItems")).toInt(), 2);
    QCOMPARE(o.finding->evidence.value(QStringLiteral("secondWalkItems")).toInt(), 3);
}

void tst_AuditedWalk::otherHints()
{
    AuditedWalk first = walk({ab, cd}, true);
    AuditedWalk second = walk({ab, cd}, true);
    for (AuditedWalk *w : {&first, &second}) {
        for (PageRecord &p : w->pages) {
            p.hints.hasTtl = true;
            p.hints.ttlMs = 60000;
            p.hints.hasScope = true;
            p.hints.cacheScope = QStringLiteral("public");
        }
    }
    QVERIFY(!AuditedWalk::compareHints(first, second, 2).finding);
    second.pages[1].hints.cacheScope = QStringLiteral("private");
    const CheckOutcome o = AuditedWalk::compareHints(first, second, 2);
    QVERIFY(o.finding);
    QCOMPARE(o.finding->id, FindingId::UnstableHints);
    QCOMPARE(o.finding->pages, QList<int>{1});
    QCOMPARE(o.finding->evidence.value(QStringLiteral("secondWalk"))
                 .toObject()
                 .value(QStringLiteral("cacheScope")),
             QJsonValue(QStringLiteral("private")));
    // Beyond the cap, not judged.
    QVERIFY(!AuditedWalk::compareHints(first, second, 1).finding);
}

void tst_AuditedWalk::otherCursors()
{
    AuditedWalk first = walk({ab, cd}, true);
    AuditedWalk second = walk({ab, cd}, true);
    first.pages[1].requestCursor = QStringLiteral("c1");
    second.pages[1].requestCursor = QStringLiteral("c1");
    QVERIFY(!AuditedWalk::compareCursors(first, second, 2).finding);
    second.pages[1].requestCursor = QStringLiteral("c1-walk2");
    const CheckOutcome o = AuditedWalk::compareCursors(first, second, 2);
    QVERIFY(o.finding);
    QCOMPARE(o.finding->id, FindingId::UnstableCursors);
    QCOMPARE(o.finding->pages, QList<int>{1});
    QCOMPARE(o.finding->evidence.value(QStringLiteral("firstWalkCursor")).toString(), QStringLiteral("c1"));
    QCOMPARE(o.finding->evidence.value(QStringLiteral("secondWalkCursor")).toString(),
             QStringLiteral("c1-walk2"));
}

void tst_AuditedWalk::cursorsNotJudgedWhereTheItemsDiffer()
{
    // Page 1 differs: a cursor that differs after it says nothing more than unstable-order does.
    AuditedWalk first = walk({ab, cd}, true);
    AuditedWalk second = walk({QStringList{QStringLiteral("b"), QStringLiteral("a")}, cd}, true);
    first.pages[1].requestCursor = QStringLiteral("c1");
    second.pages[1].requestCursor = QStringLiteral("c2");
    QVERIFY(!AuditedWalk::compareCursors(first, second, 2).finding);
}

QTEST_GUILESS_MAIN(tst_AuditedWalk)
#include "tst_auditedwalk.moc"
