#include "auditedwalk.h"

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
    QCOMPARE(o.finding->id, FindingId::UnstableOrder);
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

QTEST_GUILESS_MAIN(tst_AuditedWalk)
#include "tst_auditedwalk.moc"
