#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace folio {

// Cuts the items of a list page straight out of the reply's raw text, so that a page's rows can be
// stored without serializing every parsed item again (which cost half of a long walk's time).
namespace JsonSlice {

// raw is one JSON-RPC response, already known to be valid JSON. Finds result.<key>, which must be
// an array, and appends each element to arena as compact JSON (whitespace between tokens removed;
// strings, numbers and member order as received), with offsets[i]..offsets[i + 1] the i-th element
// (offsets gets its leading 0 if empty). Returns false, leaving arena and offsets as they were,
// when the text does not have that shape plainly enough to trust the cut: a top level that is not
// an object, no such member, a member name written with escapes, or a name given twice.
bool resultArrayElements(QByteArrayView raw, QByteArrayView key, QByteArray *arena, QList<quint32> *offsets);

} // namespace JsonSlice

} // namespace folio
