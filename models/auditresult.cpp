#include "auditresult.h"

#include <algorithm>

namespace folio {

Finding auditFinding(const QString &id, const QList<int> &pages, const QString &message,
                     const QJsonObject &evidence)
{
    return Finding::make(id, pages, message, evidence);
}

QJsonArray firstIdentities(const QStringList &identities, int count)
{
    return QJsonArray::fromStringList(identities.mid(0, count));
}

QString shortText(const QString &text, int width)
{
    return text.size() <= width ? text : text.left(width - 1) + QChar(0x2026);
}

int AuditedList::count(Finding::Severity severity) const
{
    return int(std::count_if(findings.begin(), findings.end(),
                             [severity](const Finding &f) { return f.severity == severity; }));
}

void AuditedList::add(const CheckOutcome &outcome)
{
    if (outcome.finding)
        findings.append(*outcome.finding);
    if (!outcome.note.isEmpty())
        notes.append(outcome.note);
}

QJsonObject AuditedList::toJson() const
{
    const QJsonArray f = Finding::toJson(findings);
    QJsonObject o{
        {QStringLiteral("list"), id},
        {QStringLiteral("status"), isAudited() ? QStringLiteral("audited") : QStringLiteral("skipped")},
        {QStringLiteral("findings"), f},
        {QStringLiteral("notes"), QJsonArray::fromStringList(notes)},
        {QStringLiteral("requests"), requests},
        {QStringLiteral("elapsedMs"), elapsedMs}};
    if (!isAudited()) {
        o.insert(QStringLiteral("skipped"), skipped);
        return o;
    }
    o.insert(QStringLiteral("pages"), pages);
    o.insert(QStringLiteral("items"), items);
    o.insert(QStringLiteral("complete"), complete);
    o.insert(QStringLiteral("stopReason"), stopReason.isEmpty() ? QJsonValue() : QJsonValue(stopReason));
    if (id.startsWith(ToolListPrefix))
        o.insert(QStringLiteral("arguments"), arguments);
    if (contextTokens >= 0)
        o.insert(QStringLiteral("context"), QJsonObject{{QStringLiteral("tokens"), contextTokens},
                                                        {QStringLiteral("method"), QStringLiteral("bytes/4")},
                                                        {QStringLiteral("costliest"), costliest}});
    return o;
}

int AuditResult::count(Finding::Severity severity) const
{
    int n = 0;
    for (const AuditedList &l : lists)
        n += l.count(severity);
    return n;
}

int AuditResult::requests() const
{
    int n = 0;
    for (const AuditedList &l : lists)
        n += l.requests;
    return n;
}

QJsonObject AuditResult::summary() const
{
    int audited = 0, skipped = 0;
    for (const AuditedList &l : lists)
        (l.isAudited() ? audited : skipped)++;
    const int errors = count(Finding::Severity::Error);
    return {{QStringLiteral("errors"), errors},
            {QStringLiteral("warnings"), count(Finding::Severity::Warning)},
            {QStringLiteral("infos"), count(Finding::Severity::Info)},
            {QStringLiteral("listsAudited"), audited},
            {QStringLiteral("listsSkipped"), skipped},
            {QStringLiteral("requests"), requests()},
            {QStringLiteral("elapsedMs"), elapsedMs},
            {QStringLiteral("aborted"), aborted.isEmpty() ? QJsonValue() : QJsonValue(aborted)},
            {QStringLiteral("passed"), errors == 0 && aborted.isEmpty()}};
}

QJsonObject AuditResult::toJson() const
{
    QJsonArray l;
    for (const AuditedList &list : lists)
        l.append(list.toJson());
    return {{QStringLiteral("server"), server},
            {QStringLiteral("lists"), l},
            {QStringLiteral("summary"), summary()}};
}

} // namespace folio
