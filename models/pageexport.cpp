#include "pageexport.h"

#include "cursordecoder.h"
#include "pagewalker.h"

#include <QJsonArray>

namespace folio::PageExport {

QJsonObject pageJson(const PageRecord &p, bool maskCursors)
{
    QJsonObject o = maskCursors ? p.toMaskedJson() : p.toJson();
    auto addDecoding = [maskCursors, &o](const QString &key, const QString &cursor) {
        if (maskCursors)
            return;
        const CursorDecoding decoding = decodeCursor(cursor);
        if (decoding.isDecoded())
            o.insert(key, cursorDecodingToJson(decoding));
    };
    if (p.requestCursor && !p.requestCursor->isEmpty())
        addDecoding(QStringLiteral("cursorDecoded"), *p.requestCursor);
    if (p.next.isString() && !p.next.text.isEmpty())
        addDecoding(QStringLiteral("nextCursorDecoded"), p.next.text);
    return o;
}

QJsonObject pageJson(const PageWalker &walker, int ledgerRow, bool maskCursors)
{
    const PageRecord &p = walker.ledger()->page(ledgerRow);
    QJsonObject o = pageJson(p, maskCursors);
    int first = 0, count = 0;
    if (p.isSettled() && p.state != PageRecord::State::Failed &&
        walker.rows()->rowsOfPage(ledgerRow, &first, &count)) {
        QJsonArray items;
        for (int row = first; row < first + count; ++row)
            items.append(RowStore::parse(walker.rows()->itemText(row)));
        o.insert(QStringLiteral("items"), items);
    }
    return o;
}

} // namespace folio::PageExport
