#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace folio {

// A list page's items as compact JSON texts, back to back: item i is text[offsets[i], offsets[i + 1]).
// One value from the bytes received to the table's rows: what the page decoder cuts out of a reply
// (DecodedReply), what a call hands on (RpcCall::deferredItems()), what a page carries
// (ListSource::Page) and what the row store keeps (RowStore). Moved or shared, never re-serialised.
struct ItemTexts
{
    QByteArray text;
    // count() + 1 offsets into text, the first 0; empty while no item is in.
    QList<quint32> offsets;

    int count() const { return offsets.isEmpty() ? 0 : int(offsets.size()) - 1; }
    QByteArrayView at(int i) const
    {
        return QByteArrayView(text).sliced(offsets[i], offsets[i + 1] - offsets[i]);
    }
    void append(QByteArrayView item)
    {
        if (offsets.isEmpty())
            offsets.append(0);
        text.append(item);
        offsets.append(quint32(text.size()));
    }
    // What keeping them costs, as allocated.
    qint64 keptBytes() const { return text.capacity() + offsets.capacity() * qint64(sizeof(quint32)); }
};

} // namespace folio
