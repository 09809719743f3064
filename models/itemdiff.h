#pragma once

#include <QByteArrayView>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio {

// Two copies of a list, or of one page of it, compared item by item by identity: what a page
// fetched again changed (PageWalker), whether a second walk gave the same items in the same order
// (the audit), and what a snapshot of a server has that another lacks. The one item diff.
struct ItemDiff
{
    // One item as compared: its identity, and its JSON text where the copies keep it (empty: the
    // item is compared by identity only, never counted as changed).
    struct Item
    {
        QString identity;
        QByteArrayView text;
    };

    int added = 0;         // identities only in the second copy
    int removed = 0;       // identities only in the first
    int changed = 0;       // identities in both whose texts differ
    bool sameOrder = true; // the same identities, in the same order, as many times

    bool isSame() const { return added == 0 && removed == 0 && changed == 0 && sameOrder; }

    static ItemDiff compare(const QList<Item> &before, const QList<Item> &after);
    // By identity only (the audit keeps identities, not texts).
    static ItemDiff compare(const QStringList &before, const QStringList &after);

    // How an item is told apart: its list identity (ListSource::identity), else its compact JSON
    // text, so that items without an id are not all one item.
    static QString identity(QByteArrayView itemJson);
    static QString identity(const QJsonObject &item);
};

} // namespace folio
