#include "listpager.h"

#include "catalog.h"
#include "cursorcodec.h"

#include <QJsonDocument>

#include <array>
#include <cmath>

namespace demo {

namespace {

constexpr int invalidParams = -32602;
constexpr int internalError = -32603;
const std::array<qint64, 5> ttlPattern{{60000, 3000, 0, 30000, 120000}};

quint64 mix(quint64 z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

} // namespace

ListPager::ListPager(const Catalog &catalog, const Scenario &scenario)
    : m_catalog(catalog)
    , m_scenario(scenario)
{}

QString ListPager::itemsKey(const QString &list)
{
    return list == QStringLiteral("templates") ? QStringLiteral("resourceTemplates") : list;
}

namespace {

// The list's items when it is a fixed list; nullptr for the resources, which are virtual.
const QList<QJsonObject> *fixedList(const Catalog &catalog, const QString &list)
{
    if (list == QStringLiteral("tools"))
        return &catalog.tools();
    if (list == QStringLiteral("prompts"))
        return &catalog.prompts();
    if (list == QStringLiteral("resources"))
        return nullptr; // virtual: Catalog::resourceCount() and resourceJson()
    return &catalog.templates();
}

} // namespace

qsizetype ListPager::count(const QString &list) const
{
    const QList<QJsonObject> *fixed = fixedList(m_catalog, list);
    return (fixed ? fixed->size() : m_catalog.resourceCount() + m_extraResources.size()) +
           m_revisions.value(list);
}

QByteArray ListPager::itemJson(const QString &list, qsizetype index) const
{
    const QList<QJsonObject> *fixed = fixedList(m_catalog, list);
    const qsizetype base = fixed ? fixed->size() : m_catalog.resourceCount() + m_extraResources.size();
    if (!fixed && index < m_catalog.resourceCount())
        return m_catalog.resourceJson(index);
    if (!fixed && index < base)
        return m_extraResources.at(index - m_catalog.resourceCount());
    const QJsonObject item =
        index >= base ? m_catalog.addedItem(list, int(index - base) + 1) : fixed->at(index);
    return QJsonDocument(item).toJson(QJsonDocument::Compact);
}

QList<qsizetype> ListPager::shuffled(const QString &list, qsizetype count, int walk) const
{
    // A Fisher-Yates shuffle seeded by seed, list and walk number.
    QList<qsizetype> order(count);
    for (qsizetype i = 0; i < count; ++i)
        order[i] = i;
    quint64 state = mix(m_catalog.seed() * 1000003ULL + quint64(walk) * 7919ULL + quint64(qHash(list)));
    for (qsizetype i = count - 1; i > 0; --i) {
        state = mix(state + 0x9e3779b97f4a7c15ULL);
        order.swapItemsAt(i, qsizetype(state % quint64(i + 1)));
    }
    return order;
}

PageOutcome ListPager::page(const QString &list, const QJsonValue &cursor, bool modern, qint64 nowMs)
{
    const ListBehaviour b = m_scenario.behaviour(list);
    const bool unstable = b.is("unstable-order");
    const int pageSize = qMax(1, b.pageSize);
    const int step = b.is("duplicates") ? qMax(1, pageSize - b.overlap) : pageSize;

    if (!cursor.isUndefined() && !cursor.isString())
        return PageOutcome::error(invalidParams, QStringLiteral("Invalid params: cursor must be a string"));

    // The item count never depends on the walk, only on revisions.
    const qsizetype count = this->count(list);
    const int pages = int((count + pageSize - 1) / pageSize);
    const int emptyAt = qBound(1, b.at > 0 ? b.at : 2, qMax(1, pages - 1));

    int offset = 0;
    int walk = 0;
    const QString cursorText = cursor.toString();
    if (!cursor.isUndefined()) {
        bool valid = false;
        if (cursorText.isEmpty() && b.is("empty-string-cursor") && pages > 1) {
            offset = emptyAt * pageSize;
            valid = true;
        } else if (cursorText.isEmpty() && b.is("empty-cursor-forever") && pages > 1) {
            offset = pageSize;
            valid = true;
        } else if (const auto fields = CursorCodec::decode(cursorText)) {
            const QJsonValue o = fields->value(QStringLiteral("o"));
            const double value = o.toDouble(-1);
            valid = fields->value(QStringLiteral("l")).toString() == list &&
                    fields->value(QStringLiteral("s")).toDouble(-1) == double(m_catalog.seed()) &&
                    o.isDouble() && value == std::floor(value) && value > 0 && value < double(count);
            if (valid && b.is("expiring")) {
                const QJsonValue issued = fields->value(QStringLiteral("i"));
                valid = issued.isDouble();
                if (valid && nowMs - qint64(issued.toDouble()) >= b.expireAfterMs) {
                    return PageOutcome::error(
                        invalidParams, QStringLiteral("Invalid cursor: expired"),
                        QJsonObject{{QStringLiteral("cursor"), cursorText},
                                    {QStringLiteral("expiredAfterMs"), b.expireAfterMs}});
                }
            }
            if (valid && unstable) {
                walk = fields->value(QStringLiteral("w")).toInt(0);
                valid = walk > 0;
            }
            if (valid)
                offset = int(value);
        }
        if (!valid) {
            if (b.is("bad-cursor-restarts")) {
                offset = 0;
            } else if (b.is("bad-cursor-wrong-code")) {
                return PageOutcome::error(internalError, QStringLiteral("Internal error"));
            } else {
                return PageOutcome::error(invalidParams, QStringLiteral("Invalid cursor"),
                                          QJsonObject{{QStringLiteral("cursor"), cursorText}});
            }
        }
    }
    if (unstable && walk == 0)
        walk = ++m_walks[list];

    const int pageIndex = offset / step; // 0-based
    const int at = b.at > 0 ? b.at : (b.is("error-mid-list") ? 3 : 2);
    if (b.is("error-mid-list") && pageIndex + 1 == at) {
        return PageOutcome::error(
            internalError, QStringLiteral("Internal error: the chat backend failed while reading page %1")
                               .arg(pageIndex + 1));
    }
    PageOutcome outcome;
    if (b.is("page-never-answers") && pageIndex + 1 == at) {
        outcome.kind = PageOutcome::Kind::NoAnswer;
        return outcome;
    }
    if (b.is("slow"))
        outcome.delayMs = b.latencyMs;
    if (b.is("list-changed") && b.at > 0 && pageIndex + 1 == b.at && !m_changedAt.value(list)) {
        // Once, as page "at" is served (its items as they were): the list gains its item now.
        m_changedAt.insert(list, true);
        outcome.listChanged = true;
    }

    const QList<qsizetype> order = walk > 0 ? shuffled(list, count, walk) : QList<qsizetype>();
    QByteArray &pageItems = outcome.itemsJson;
    pageItems.append('[');
    for (qsizetype i = offset; i < qMin<qsizetype>(count, offset + pageSize); ++i) {
        if (i > offset)
            pageItems.append(',');
        pageItems.append(itemJson(list, order.isEmpty() ? i : order.at(i)));
    }
    pageItems.append(']');
    outcome.itemsKey = itemsKey(list);

    auto cursorAt = [&](int nextOffset) {
        QJsonObject fields{{QStringLiteral("l"), list},
                           {QStringLiteral("o"), nextOffset},
                           {QStringLiteral("s"), qint64(m_catalog.seed())}};
        if (b.is("expiring"))
            fields.insert(QStringLiteral("i"), nowMs);
        if (unstable)
            fields.insert(QStringLiteral("w"), walk);
        return CursorCodec::encode(fields);
    };

    QJsonValue next = QJsonValue::Undefined; // last page
    if (offset + pageSize < count)
        next = cursorAt(offset + step);
    if (b.is("empty-cursor-forever")) {
        next = QString();
    } else if (b.is("empty-string-cursor") && pageIndex + 1 == emptyAt && !next.isUndefined()) {
        next = QString();
    } else if (b.is("cursor-never-advances") && !cursor.isUndefined()) {
        next = cursorText;
    } else if (b.is("cursor-cycle") && pageIndex == 2) {
        next = cursorAt(pageSize);
    }

    if (!next.isUndefined())
        outcome.result.insert(QStringLiteral("nextCursor"), next);

    if (modern) {
        QJsonValue ttl = b.ttlMs;
        QJsonValue scope = b.cacheScope;
        if (b.is("ttl-varies")) {
            ttl = ttlPattern.at(size_t(pageIndex) % ttlPattern.size());
        } else if (b.is("scope-mismatch") && pageIndex % 2 == 1) {
            scope = b.cacheScope == QStringLiteral("public") ? QStringLiteral("private")
                                                             : QStringLiteral("public");
        } else if (b.is("hints-missing")) {
            if (pageIndex % 3 != 2)
                ttl = QJsonValue::Undefined;
            if (pageIndex % 3 != 1)
                scope = QJsonValue::Undefined;
        } else if (b.is("hints-invalid")) {
            switch (pageIndex % 4) {
            case 0:
                ttl = -1000;
                break;
            case 1:
                ttl = 1500.5;
                break;
            case 2:
                ttl = QString::number(b.ttlMs);
                break;
            default:
                scope = QStringLiteral("shared");
                break;
            }
        }
        if (!ttl.isUndefined())
            outcome.result.insert(QStringLiteral("ttlMs"), ttl);
        if (!scope.isUndefined())
            outcome.result.insert(QStringLiteral("cacheScope"), scope);
    }
    if (outcome.listChanged)
        bumpRevision(list);
    return outcome;
}

} // namespace demo
