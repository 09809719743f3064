#pragma once

#include <QByteArrayView>

namespace folio {

// Reading members of an item's JSON text without building it: the item identities a walk judges
// (uri, uriTemplate, name, id) are read from every stored item, and parsing each one would be most
// of a long walk's time. Whole replies are read by PageDecoder (simdjson); this stays because a
// member look-up on one small text needs no parser state and no padded copy. Its input is text
// PageDecoder or QJsonDocument already accepted; it never reads outside it (tst_jsonslice).
namespace JsonSlice {

// For each of names[0..count), the raw text of that member's value in the object text (its last
// occurrence; left as is when absent). False when the text is not a well-formed object.
bool pickMembers(QByteArrayView object, const QByteArrayView *names, QByteArrayView *values, int count);

} // namespace JsonSlice

} // namespace folio
