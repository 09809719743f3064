#pragma once

#include "terminaltext.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace folio {

// Writing for people and scripts: UTF-8 to stdout/stderr, flushed at once (a command's output must
// be complete even when it ends on a watchdog). Every secret this process knows is masked first
// (SecretMask::maskOutput()); then the text passes terminalSafe() (net/terminaltext.h): a server's
// escape sequences, C1 controls, DEL, bidi and zero-width characters are shown as <U+XXXX>, never
// acted on by the terminal.
void printOut(const QString &text);
void printErr(const QString &text);
// JSON (UTF-8, as QJsonDocument writes it) to stdout, masked the same way and exact but
// terminal-safe: jsonTerminalSafe() escapes inside strings what QJsonDocument leaves raw, so the
// output parses to the same value. Used for the list's streamed pages without a copy to UTF-16.
void printJson(const QByteArray &json);
// printJson() in two steps, for output made ready before it is written (folio list's pages, as
// they arrive): the JSON masked and made terminal-safe, then those bytes written as they are.
QByteArray jsonOutput(const QByteArray &json);
void printReady(const QByteArray &ready);
QString toJsonText(const QJsonObject &object, bool indented = true); // ends with a newline
QString toJsonLine(const QJsonValue &value);                         // compact, no newline

// A cursor as a table shows it: whole, "" visible; one longer than width cut in the middle, with
// its length (the full text is in --format json).
QString shortCursor(const QString &cursor, int width = 64);
// Pads text to width (by characters).
QString padded(const QString &text, int width);

} // namespace folio
