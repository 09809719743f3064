#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringView>

namespace folio {

// The one home of terminal-safe text: everything Folio writes to a terminal (the command line's
// stdout and stderr, log lines) and every cell of the window that shows a server's text passes
// one of these. A server's text may hold escape sequences (clear the screen, set the window's
// title, OSC 52 to write the user's clipboard, OSC 8 links), C1 controls that terminals take as
// ESC + a letter, DEL, bidirectional overrides that reorder what is read, and zero-width
// characters that hide in a name. Each such character becomes "<U+XXXX>" (four uppercase hex
// digits): printable ASCII, so filtering the result again changes nothing, and plain to read.

// Whether c is one of the characters the filters make visible (C0 but for what the caller keeps,
// DEL, C1, bidi controls, zero-width and other invisible format characters).
bool isHiddenCharacter(char32_t c);

// Multi-line text: keeps '\n', '\t' and the CR of a CRLF; every other hidden character becomes
// <U+XXXX>.
QString terminalSafe(QStringView text);
// One line (a table cell, a header, a name in a sentence): '\n', '\r' and '\t' become visible too.
QString oneLineSafe(QStringView text);
// The same for a QString: text itself (shared, not copied) when it holds nothing to show.
QString terminalSafe(const QString &text);
QString oneLineSafe(const QString &text);
// One line cut to width characters with an ellipsis (a surrogate pair never split); hidden
// characters, line breaks and tabs shown as oneLineSafe() shows them. width 0: not cut.
QString elide(const QString &text, int width);

// XML or HTML text (a JUnit report, an HTML bug report), still well-formed: as terminalSafe(), with
// each hidden character written "&lt;U+XXXX&gt;", which reads as terminalSafe()'s "<U+XXXX>".
QString markupTerminalSafe(QStringView text);

// JSON text (UTF-8, as QJsonDocument::toJson or a minifier writes it) for a terminal, still exact:
// the hidden characters QJsonDocument leaves raw inside strings (DEL, C1, bidi, zero-width) are
// written as \uXXXX escapes, so the text parses to the same value. Raw C0 other than '\n' and
// '\t' (which such text holds only as whitespace) are escaped too; bytes that are not UTF-8
// become U+FFFD.
QByteArray jsonTerminalSafe(const QByteArray &json);

// The hidden characters text holds, each once, in the order first met (for a warning or a finding).
QList<char32_t> hiddenCharacters(QStringView text);
// Letters that pass for Latin ones (Greek, Cyrillic, Armenian, Cherokee, fullwidth, mathematical)
// in a name that also holds ASCII letters (a Cyrillic 'а' in "reаd_file"): each once, in the order
// first met. Empty for a name in a script of its own (no ASCII letters) and for accented Latin.
QList<char32_t> lookAlikeCharacters(QStringView name);
// "U+202E, U+200B": code points as a finding or a warning names them.
QString describeCodePoints(const QList<char32_t> &codePoints);

} // namespace folio
