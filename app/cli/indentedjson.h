#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace folio {

// Appends one value's compact JSON text to *out as QJsonDocument::Indented would write the value
// it parses to, nested depth levels deep (4 spaces a level, no newline after it), when the text is
// already in the form Qt's writer gives: no whitespace, object keys plain ASCII in ascending order
// without repeats, strings with no escapes but \" \\ \b \f \n \r \t, numbers as integers of up to
// 15 digits without a sign on zero. That is what a page's stored items usually are (Qt wrote them,
// or the server wrote what Qt would); then the text needs no parsing. Returns false and leaves
// *out as it was otherwise: the caller parses that value and writes it the slow way.
bool appendIndentedJson(QByteArray *out, QByteArrayView compactJson, int depth);

} // namespace folio
