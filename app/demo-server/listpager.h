#pragma once

#include "pageoutcome.h"
#include "scenario.h"

#include <QHash>
#include <QJsonObject>
#include <QList>

namespace demo {

class Catalog;

// Pages the four protocol lists (tools, prompts, resources, templates) the way the scenario says,
// misbehaviours included. Cursors are base64url JSON {"l":list,"o":offset,"s":seed} (+"i" issue
// time for expiring, +"w" walk number for unstable-order).
class ListPager
{
public:
    ListPager(const Catalog &catalog, const Scenario &scenario);

    PageOutcome page(const QString &list, const QJsonValue &cursor, bool modern, qint64 nowMs);

    // The list-changed scenario appends one item per revision.
    int revision(const QString &list) const { return m_revisions.value(list); }
    void bumpRevision(const QString &list) { ++m_revisions[list]; }

    static QString itemsKey(const QString &list);

    // Resources listed after the catalog's (compact JSON items): the conformance scenario's SKILL.md.
    void setExtraResources(const QList<QByteArray> &items) { m_extraResources = items; }

private:
    // The list's length (its items plus those list-changed added) and its index-th item.
    qsizetype count(const QString &list) const;
    QByteArray itemJson(const QString &list, qsizetype index) const; // compact JSON
    // unstable-order: the walk's order of the list's indexes (a permutation of 0..count-1).
    QList<qsizetype> shuffled(const QString &list, qsizetype count, int walk) const;

    const Catalog &m_catalog;
    const Scenario &m_scenario;
    QHash<QString, int> m_walks;
    QHash<QString, int> m_revisions;
    QHash<QString, bool> m_changedAt; // list-changed with "at": the change happened
    QList<QByteArray> m_extraResources;
};

} // namespace demo
