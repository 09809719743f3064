#pragma once

#include "itemtexts.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>

#include <functional>
#include <memory>

namespace folio {

// A list page reply read once: the envelope parsed, the items cut out as compact JSON texts.
struct DecodedReply
{
    QJsonValue id;       // message's "id" (QJsonDocument keeps the last of two)
    QJsonObject message; // the message as QJsonDocument reads it, but result.<itemsKey> is []
    ItemTexts items;     // each item's compact JSON, back to back
};

// Reads the answer to a list request with simdjson's On-Demand API: checks the whole message as
// QJsonDocument would, cuts each item of result.<itemsKey> out as compact JSON (whitespace between
// tokens removed; strings, numbers and member order as received) and leaves only the small rest to
// QJsonDocument. Keeps simdjson's parser and a padded copy of the input between messages, so that a
// walk does not allocate them per page.
class PageDecoder
{
public:
    // The member of a reply's result that holds the items, given the reply's id; empty when the id
    // answers no list request.
    using ItemsKeyForId = std::function<QByteArray(const QJsonValue &id)>;

    PageDecoder();
    ~PageDecoder();
    PageDecoder(const PageDecoder &) = delete;
    PageDecoder &operator=(const PageDecoder &) = delete;

    // False when raw is not exactly one JSON object that QJsonDocument accepts, or when it is not
    // plainly a reply to a request with a result holding that array (no "id", no result object, no
    // such member or not an array, "result" or the member given twice), or holds what this reader
    // is stricter about than QJsonDocument (see docs/page-decoder.md): the caller then parses it
    // whole with QJsonDocument, which reports what is wrong. *out is cleared then. Reads nothing
    // outside raw.
    bool decode(QByteArrayView raw, QByteArrayView itemsKey, DecodedReply *out);

    // The same where the key depends on the reply's id, which is read first: servers may write it
    // after the result (the TypeScript SDK does).
    bool decode(QByteArrayView raw, const ItemsKeyForId &itemsKeyFor, DecodedReply *out);

private:
    struct Private;
    std::unique_ptr<Private> m_d; // keeps simdjson, linked PRIVATE, out of this header
};

// One message with a decoder of its own, for one-off callers; a connection keeps a PageDecoder.
bool decodeListReply(QByteArrayView raw, QByteArrayView itemsKey, DecodedReply *out);

} // namespace folio
