#include "itemdiff.h"

#include "listsource.h"

#include <QHash>
#include <QJsonDocument>
#include <QSet>

namespace folio {

ItemDiff ItemDiff::compare(const QList<Item> &before, const QList<Item> &after)
{
    ItemDiff d;
    d.sameOrder = before.size() == after.size();
    // The first text of each identity (a list that repeats an item is judged elsewhere:
    // duplicate-items).
    QHash<QString, QByteArrayView> first;
    first.reserve(before.size());
    for (const Item &item : before) {
        if (!first.contains(item.identity))
            first.insert(item.identity, item.text);
    }
    QSet<QString> seen;
    seen.reserve(after.size());
    for (qsizetype i = 0; i < after.size(); ++i) {
        const Item &item = after.at(i);
        if (d.sameOrder && before.at(i).identity != item.identity)
            d.sameOrder = false;
        if (seen.contains(item.identity))
            continue;
        seen.insert(item.identity);
        const auto it = first.constFind(item.identity);
        if (it == first.constEnd())
            ++d.added;
        else if (!it->isEmpty() && !item.text.isEmpty() && *it != item.text)
            ++d.changed;
    }
    for (auto it = first.constBegin(); it != first.constEnd(); ++it)
        d.removed += seen.contains(it.key()) ? 0 : 1;
    return d;
}

ItemDiff ItemDiff::compare(const QStringList &before, const QStringList &after)
{
    const auto items = [](const QStringList &ids) {
        QList<Item> out;
        out.reserve(ids.size());
        for (const QString &id : ids)
            out.append({id, {}});
        return out;
    };
    return compare(items(before), items(after));
}

QString ItemDiff::identity(QByteArrayView itemJson)
{
    const QString id = ListSource::identity(itemJson);
    return id.isEmpty() ? QString::fromUtf8(itemJson) : id;
}

QString ItemDiff::identity(const QJsonObject &item)
{
    const QString id = ListSource::identity(item);
    return id.isEmpty() ? QString::fromUtf8(QJsonDocument(item).toJson(QJsonDocument::Compact)) : id;
}

} // namespace folio
