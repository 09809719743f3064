#include "clientview.h"

#include "cursordecoder.h"
#include "listsource.h"
#include "pageledger.h"
#include "rowstore.h"
#include "walkjudge.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace folio {

namespace {

template<typename E> struct Named
{
    const char *name;
    E value;
};

constexpr Named<ClientPolicy::OnCap> onCapNames[] = {{"truncate", ClientPolicy::OnCap::Truncate},
                                                     {"error", ClientPolicy::OnCap::Error},
                                                     {"report", ClientPolicy::OnCap::Report}};
constexpr Named<ClientPolicy::LoopCheck> loopCheckNames[] = {
    {"none", ClientPolicy::LoopCheck::None},
    {"error-on-repeated-cursor", ClientPolicy::LoopCheck::ErrorOnRepeatedCursor},
    {"stop-on-repeated-cursor", ClientPolicy::LoopCheck::StopOnRepeatedCursor},
    {"stop-on-repeated-page", ClientPolicy::LoopCheck::StopOnRepeatedPage}};
constexpr Named<ClientPolicy::OnError> onErrorNames[] = {{"error", ClientPolicy::OnError::Error},
                                                         {"swallow", ClientPolicy::OnError::Swallow},
                                                         {"report", ClientPolicy::OnError::Report}};

template<typename E, size_t N>
bool readNamed(const QJsonObject &row, const char *key, const Named<E> (&names)[N], E *out, QString *problem)
{
    const QJsonValue v = row.value(QLatin1String(key));
    if (v.isUndefined())
        return true;
    for (const Named<E> &n : names) {
        if (v.toString() == QLatin1String(n.name)) {
            *out = n.value;
            return true;
        }
    }
    QStringList known;
    for (const Named<E> &n : names)
        known << QLatin1String(n.name);
    *problem = QStringLiteral("%1 is %2, not one of %3")
                   .arg(QLatin1String(key),
                        QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
                            .mid(1)
                            .chopped(1),
                        known.join(QStringLiteral(", ")));
    return false;
}

// The paging parameters of a row (or of an override): those present replace the policy's.
bool readParameters(const QJsonObject &row, ClientPolicy *p, QString *problem)
{
    if (const QJsonValue v = row.value(QLatin1String("followsEmptyCursor")); !v.isUndefined()) {
        if (!v.isBool()) {
            *problem = QStringLiteral("followsEmptyCursor is not true or false");
            return false;
        }
        p->followsEmptyCursor = v.toBool();
    }
    if (const QJsonValue v = row.value(QLatin1String("maxPages")); !v.isUndefined()) {
        if (v.isNull()) {
            p->maxPages.reset();
        } else if (v.isDouble() && v.toDouble() >= 1 && v.toDouble() == double(v.toInt())) {
            p->maxPages = v.toInt();
        } else {
            *problem = QStringLiteral("maxPages is not null or a whole number of at least 1");
            return false;
        }
    }
    if (const QJsonValue v = row.value(QLatin1String("capError")); v.isString())
        p->capError = v.toString();
    if (const QJsonValue v = row.value(QLatin1String("pagesLists")); !v.isUndefined()) {
        if (!v.isArray()) {
            *problem = QStringLiteral("pagesLists is not an array of list names");
            return false;
        }
        QStringList lists;
        for (const QJsonValue &l : v.toArray())
            lists << l.toString();
        p->pagesLists = lists;
    }
    return readNamed(row, "onCap", onCapNames, &p->onCap, problem) &&
           readNamed(row, "loopCheck", loopCheckNames, &p->loopCheck, problem) &&
           readNamed(row, "onError", onErrorNames, &p->onError, problem);
}

// A cursor in a message: quoted, cut when long; masked (maskCursor()) when cursors are.
QString quoted(const QString &cursor, bool mask)
{
    if (mask)
        return cursor.isEmpty() ? QStringLiteral("\"\"") : maskCursor(cursor);
    constexpr int width = 32;
    const QString shown = cursor.size() > width ? cursor.left(width - 1) + QChar(0x2026) : cursor;
    return QLatin1Char('"') + shown + QLatin1Char('"');
}

// "tools" -> "tool"; "1 tool", "3 tools".
QString itemsText(qint64 n, const QString &list)
{
    const QString one = list.endsWith(QLatin1Char('s')) ? list.chopped(1) : list;
    return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : list);
}

QString pagesText(qint64 n)
{
    return QString::number(n) + QLatin1String(n == 1 ? " page" : " pages");
}

QString sample(const QString &identity)
{
    constexpr int width = 80;
    return identity.size() > width ? identity.left(width - 1) + QChar(0x2026) : identity;
}

} // namespace

ClientPolicy ClientPolicy::forList(const QString &list) const
{
    ClientPolicy p = *this;
    const auto it = overrides.constFind(list);
    if (it != overrides.constEnd()) {
        QString ignored; // checked when the row was read
        readParameters(*it, &p, &ignored);
    }
    return p;
}

QList<ClientPolicy> ClientPolicy::fromJson(const QByteArray &json, QString *error)
{
    QString problem;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    const QJsonValue rows = doc.object().value(QLatin1String("policies"));
    if (parseError.error != QJsonParseError::NoError)
        problem =
            QStringLiteral("not JSON: %1 at offset %2").arg(parseError.errorString()).arg(parseError.offset);
    else if (!rows.isArray())
        problem = QStringLiteral("no \"policies\" array");
    QList<ClientPolicy> out;
    QSet<QString> ids;
    if (problem.isEmpty()) {
        int index = 0;
        for (const QJsonValue &v : rows.toArray()) {
            ++index;
            const QJsonObject row = v.toObject();
            ClientPolicy p;
            p.id = row.value(QLatin1String("id")).toString();
            p.name = row.value(QLatin1String("name")).toString();
            p.version = row.value(QLatin1String("version")).toString();
            p.source = row.value(QLatin1String("source")).toString();
            p.notes = row.value(QLatin1String("notes")).toString();
            const QString where = QStringLiteral("policy %1 (%2)").arg(index).arg(p.id);
            if (p.id.isEmpty() || p.name.isEmpty() || p.source.trimmed().isEmpty()) {
                problem = where + QStringLiteral(": an id, a name and a source are required");
                break;
            }
            if (ids.contains(p.id)) {
                problem = where + QStringLiteral(": the id is used twice");
                break;
            }
            ids.insert(p.id);
            if (!readParameters(row, &p, &problem)) {
                problem = where + QStringLiteral(": ") + problem;
                break;
            }
            const QJsonObject overrides = row.value(QLatin1String("overrides")).toObject();
            for (auto it = overrides.constBegin(); it != overrides.constEnd() && problem.isEmpty(); ++it) {
                ClientPolicy check = p;
                if (!readParameters(it.value().toObject(), &check, &problem))
                    problem = where + QStringLiteral(", override %1: ").arg(it.key()) + problem;
                p.overrides.insert(it.key(), it.value().toObject());
            }
            if (!problem.isEmpty())
                break;
            out.append(p);
        }
    }
    if (error)
        *error = problem;
    return problem.isEmpty() ? out : QList<ClientPolicy>{};
}

QList<ClientPolicy> ClientPolicy::builtIn(QString *error)
{
    QFile file(resourcePath());
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(resourcePath(), file.errorString());
        return {};
    }
    return fromJson(file.readAll(), error);
}

QString ClientView::outcomeName(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Complete:
        return QStringLiteral("complete");
    case Outcome::TruncatedAtCap:
        return QStringLiteral("truncated-at-cap");
    case Outcome::StoppedOnEmptyCursor:
        return QStringLiteral("stopped-on-empty-cursor");
    case Outcome::Error:
        return QStringLiteral("error");
    case Outcome::LoopError:
        return QStringLiteral("loop-error");
    case Outcome::NotPaged:
        return QStringLiteral("not-paged");
    case Outcome::StoppedOnRepeatedPage:
        return QStringLiteral("stopped-on-repeated-page");
    case Outcome::StoppedOnRepeatedCursor:
        return QStringLiteral("stopped-on-repeated-cursor");
    case Outcome::Swallowed:
        return QStringLiteral("error-swallowed");
    case Outcome::Endless:
        return QStringLiteral("endless");
    case Outcome::BeyondWalk:
        return QStringLiteral("beyond-walk");
    }
    return {};
}

QJsonObject ClientView::toJson() const
{
    QJsonArray missedArray;
    for (const QString &id : missedSample)
        missedArray.append(id);
    return {{QStringLiteral("id"), policyId},
            {QStringLiteral("name"), name},
            {QStringLiteral("source"), source},
            {QStringLiteral("pagesAsked"), pagesAsked},
            {QStringLiteral("items"), items},
            {QStringLiteral("itemsWithDuplicates"), itemsWithDuplicates},
            {QStringLiteral("missed"), missed},
            {QStringLiteral("missedSample"), missedArray},
            {QStringLiteral("outcome"), outcomeName(outcome)},
            {QStringLiteral("error"), error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(error)},
            {QStringLiteral("message"), message}};
}

namespace ClientSimulation {

ClientView simulate(const ClientPolicy &policy, const QString &list, const QList<ClientWalkPage> &walk,
                    bool walkComplete, bool maskCursors)
{
    using Outcome = ClientView::Outcome;
    const ClientPolicy p = policy.forList(list);
    ClientView v;
    v.policyId = p.id;
    v.name = p.name;
    v.source = p.source;
    v.list = list;
    v.totalIsLowerBound = !walkComplete;

    // What Folio read: the reference the client's list is measured against.
    QStringList order;
    QSet<QString> all;
    for (const ClientWalkPage &page : walk) {
        for (const QString &id : page.identities) {
            if (!all.contains(id)) {
                all.insert(id);
                order.append(id);
            }
        }
    }
    v.total = int(order.size());

    // A page per cursor: the first page Folio asked with it (a walk asks no cursor twice).
    QHash<QString, int> byCursor;
    for (int i = 0; i < walk.size(); ++i) {
        if (walk.at(i).cursor && !byCursor.contains(*walk.at(i).cursor))
            byCursor.insert(*walk.at(i).cursor, i);
    }

    const bool paged = p.pages(list);
    const int cap = p.maxPages ? qMin(*p.maxPages, MaxSimulatedPages) : MaxSimulatedPages;
    QSet<QString> got;
    QHash<QString, int> sentFor; // cursor -> the client's page (1-based) it was sent for
    bool keeps = true;           // false: it returns no list
    QString reason;              // the message's part after the counts
    const ClientWalkPage *previous = nullptr;
    int index = walk.isEmpty() ? -1 : 0;
    if (index < 0) {
        v.outcome = Outcome::BeyondWalk;
        reason = QStringLiteral("Folio's walk read no page");
    }
    while (index >= 0) {
        const ClientWalkPage &page = walk.at(index);
        const int pageNo = ++v.pagesAsked;
        const bool wrongType = page.next.presence == NextCursor::Presence::WrongType;
        if (page.failed || wrongType) {
            v.error =
                page.failed
                    ? QStringLiteral("page %1 failed: %2").arg(pageNo).arg(page.error)
                    : QStringLiteral("page %1's nextCursor is not a string: %2")
                          .arg(pageNo)
                          .arg(QString::fromUtf8(
                                   QJsonDocument(QJsonArray{page.next.raw}).toJson(QJsonDocument::Compact))
                                   .mid(1)
                                   .chopped(1));
            if (!page.failed && p.onError != ClientPolicy::OnError::Error) {
                for (const QString &id : page.identities) // its items came; its cursor cannot be read
                    got.insert(id);
                v.itemsWithDuplicates += int(page.identities.size());
            }
            switch (p.onError) {
            case ClientPolicy::OnError::Error:
                v.outcome = Outcome::Error;
                keeps = false;
                reason = v.error + QStringLiteral(", and it raises the error");
                break;
            case ClientPolicy::OnError::Swallow:
                v.outcome = Outcome::Swallowed;
                reason = v.error + QStringLiteral(", and it returns what it had as if the list ended");
                break;
            case ClientPolicy::OnError::Report:
                v.outcome = Outcome::Error;
                reason = v.error + QStringLiteral("; it keeps what it read and says so");
                break;
            }
            break;
        }
        if (p.loopCheck == ClientPolicy::LoopCheck::StopOnRepeatedPage && previous &&
            previous->identities == page.identities && previous->next == page.next) {
            v.outcome = Outcome::StoppedOnRepeatedPage;
            reason = QStringLiteral("stops at page %1, which repeats page %2's items and cursor")
                         .arg(pageNo)
                         .arg(pageNo - 1);
            break;
        }
        for (const QString &id : page.identities)
            got.insert(id);
        v.itemsWithDuplicates += int(page.identities.size());

        if (!page.next.isString()) {
            v.outcome = Outcome::Complete;
            reason = QStringLiteral("in ") + pagesText(pageNo);
            break;
        }
        const QString cursor = page.next.text;
        if (!paged) {
            v.outcome = Outcome::NotPaged;
            reason = QStringLiteral("never pages %1: takes page 1 only").arg(list);
            break;
        }
        if (cursor.isEmpty() && !p.followsEmptyCursor) {
            v.outcome = Outcome::StoppedOnEmptyCursor;
            reason = QStringLiteral("takes the cursor \"\" on page %1 for the end").arg(pageNo);
            break;
        }
        if (const auto sent = sentFor.constFind(cursor); sent != sentFor.constEnd()) {
            if (p.loopCheck == ClientPolicy::LoopCheck::ErrorOnRepeatedCursor) {
                v.outcome = Outcome::LoopError;
                keeps = false;
                v.error = QStringLiteral("page %1's nextCursor %2 was already sent for page %3")
                              .arg(pageNo)
                              .arg(quoted(cursor, maskCursors))
                              .arg(*sent);
                reason = QStringLiteral("raises an error: ") + v.error;
                break;
            }
            if (p.loopCheck == ClientPolicy::LoopCheck::StopOnRepeatedCursor) {
                v.outcome = Outcome::StoppedOnRepeatedCursor;
                reason =
                    QStringLiteral("stops: page %1's nextCursor %2 was already sent for page %3, and says so")
                        .arg(pageNo)
                        .arg(quoted(cursor, maskCursors))
                        .arg(*sent);
                break;
            }
        }
        if (pageNo >= cap) {
            if (!p.maxPages || *p.maxPages > MaxSimulatedPages) {
                v.outcome = Outcome::Endless;
                reason = QStringLiteral("would not stop: the cursors go round and it has no cap and no loop "
                                        "check (%1 simulated)")
                             .arg(pagesText(pageNo));
                break;
            }
            switch (p.onCap) {
            case ClientPolicy::OnCap::Truncate:
                v.outcome = Outcome::TruncatedAtCap;
                reason = QStringLiteral("stops after %1 (its cap) without an error").arg(pagesText(pageNo));
                break;
            case ClientPolicy::OnCap::Report:
                v.outcome = Outcome::TruncatedAtCap;
                reason = QStringLiteral("stops at its cap of %1 and says so").arg(pagesText(pageNo));
                break;
            case ClientPolicy::OnCap::Error: {
                v.outcome = Outcome::Error;
                keeps = false;
                const QString raised = p.capError.isEmpty() ? QStringLiteral("an error") : p.capError;
                v.error = QStringLiteral("%1 after %2 (its cap)").arg(raised, pagesText(pageNo));
                reason = QStringLiteral("raises %1 after %2 (its cap), so no list is returned")
                             .arg(raised, pagesText(pageNo));
                break;
            }
            }
            break;
        }
        const auto next = byCursor.constFind(cursor);
        if (next == byCursor.constEnd()) {
            v.outcome = Outcome::BeyondWalk;
            reason =
                QStringLiteral("would go on with the cursor %1 after page %2, which Folio's walk did not "
                               "ask: unknown from there")
                    .arg(quoted(cursor, maskCursors))
                    .arg(pageNo);
            break;
        }
        if (!sentFor.contains(cursor))
            sentFor.insert(cursor, pageNo + 1);
        previous = &page;
        index = *next;
    }

    if (!keeps) {
        got.clear();
        v.itemsWithDuplicates = 0;
    }
    v.items = int(got.size());
    for (const QString &id : std::as_const(order)) {
        if (got.contains(id))
            continue;
        ++v.missed;
        if (v.missedSample.size() < MissedSampleSize)
            v.missedSample.append(sample(id));
    }

    const QString total =
        itemsText(v.total, list) + (v.totalIsLowerBound ? QStringLiteral(" Folio read") : QString());
    QString counts;
    if (!keeps)
        counts = v.total > 0 ? QStringLiteral("loses all ") + total : QStringLiteral("returns no list");
    else if (v.missed == 0)
        counts = v.total == 1 ? QStringLiteral("gets the one ") + total.mid(2)
                              : QStringLiteral("gets all ") + total;
    else
        counts = QStringLiteral("loses %1 of %2").arg(v.missed).arg(total);
    v.message =
        counts + (v.outcome == Outcome::Complete ? QStringLiteral(" ") : QStringLiteral(": ")) + reason;
    if (keeps && v.itemsWithDuplicates > v.items)
        v.message += QStringLiteral("; %1 counting repeats").arg(v.itemsWithDuplicates);
    return v;
}

QList<ClientWalkPage> walkOf(const PageLedger &ledger, const RowStore &rows, const QList<int> &walkRows,
                             bool maskCursors)
{
    QList<ClientWalkPage> out;
    for (int row : walkRows) {
        const PageRecord &record = ledger.page(row);
        if (!record.isSettled())
            continue; // asked, not answered: the walk did not read it
        ClientWalkPage page;
        page.cursor = record.requestCursor;
        page.next = record.next;
        page.failed = record.error.isError() || record.state == PageRecord::State::Failed ||
                      record.state == PageRecord::State::Discarded;
        if (page.failed)
            page.error = WalkJudge::describeError(maskCursors ? record.masked() : record);
        if (const ItemTexts *items = rows.pageItems(row)) {
            for (int i = 0; i < items->count(); ++i) {
                const QByteArrayView text = items->at(i);
                QString id = ListSource::identity(text);
                if (id.isEmpty())
                    id = QStringLiteral("item:") + QString::fromUtf8(text);
                page.identities.append(id);
            }
        }
        out.append(page);
    }
    return out;
}

} // namespace ClientSimulation

} // namespace folio
