#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace folio {

// Reading JSON text without building it: cutting a list page's items straight out of the reply's
// raw text (so that rows are stored without parsing and writing every item again, which was most
// of a long walk's time) and checking text is JSON without parsing it.
namespace JsonSlice {

// Whether text is exactly one JSON value (RFC 8259; strings valid UTF-8; nesting at most 1024
// deep), with whitespace around it: what QJsonDocument::fromJson would accept, checked without
// building anything.
bool isValid(QByteArrayView text);

// raw is one JSON-RPC response, already known to be valid JSON. Finds result.<key>, which must be
// an array, and appends each element to arena as compact JSON (whitespace between tokens removed;
// strings, numbers and member order as received), with offsets[i]..offsets[i + 1] the i-th element
// (offsets gets its leading 0 if empty). Returns false, leaving arena and offsets as they were,
// when the text does not have that shape plainly enough to trust the cut: a top level that is not
// an object, no such member, a member name written with escapes, or a name given twice.
bool resultArrayElements(QByteArrayView raw, QByteArrayView key, QByteArray *arena, QList<quint32> *offsets);

// The raw text of the first member named name of the object text, read no further than it; its
// caller must allow for a later one (parse the rest and compare). False when absent or not read.
bool firstMember(QByteArrayView object, QByteArrayView name, QByteArrayView *value);

// For each of names[0..count), the raw text of that member's value in the object text (its last
// occurrence; left as is when absent). False when the text is not a well-formed object.
bool pickMembers(QByteArrayView object, const QByteArrayView *names, QByteArrayView *values, int count);

// The same cut, and in *rest the raw text with that array emptied ("[]"): what is left to parse.
bool takeResultArray(QByteArrayView raw, QByteArrayView key, QByteArray *arena, QList<quint32> *offsets,
                     QByteArray *rest);

} // namespace JsonSlice

} // namespace folio
