#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace folio {

// Writing for people and scripts: UTF-8 to stdout/stderr, flushed at once (a command's output must
// be complete even when it ends on a watchdog), with every secret this process knows masked
// (SecretMask::maskOutput()).
void printOut(const QString &text);
void printErr(const QString &text);
// printOut() for text that is UTF-8 already (the list's streamed JSON pages), without a copy to
// UTF-16 and back; masked the same way.
void printOutUtf8(const QByteArray &text);
QString toJsonText(const QJsonObject &object, bool indented = true); // ends with a newline
QString toJsonLine(const QJsonValue &value);                         // compact, no newline

// Text cut to width characters with an ellipsis; control characters become spaces.
QString elide(const QString &text, int width);
// A cursor as a table shows it: whole, "" visible; one longer than width cut in the middle, with
// its length (the full text is in --format json).
QString shortCursor(const QString &cursor, int width = 64);
// Pads text to width (by characters).
QString padded(const QString &text, int width);

} // namespace folio
