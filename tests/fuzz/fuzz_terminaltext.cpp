// The terminal filter (net/terminaltext.h): on any text, its output holds no character a terminal
// would act on or that reorders or hides text (but the '\n', '\t' and CRLF terminalSafe() keeps),
// filtering twice changes nothing, and jsonTerminalSafe() keeps JSON exact: what QJsonDocument
// writes parses, after the filter, to the same value.
#include "fuzzcheck.h"
#include "terminaltext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace folio;

namespace {

void checkNoHidden(const QString &text, bool keepsLines, const char *where)
{
    const QList<char32_t> hidden = hiddenCharacters(text);
    for (char32_t c : hidden) {
        const bool kept = keepsLines && (c == u'\n' || c == u'\t' || c == u'\r');
        FUZZ_CHECK(kept, QStringLiteral("%1 left U+%2 in: %3")
                             .arg(QString::fromUtf8(where), QString::number(uint(c), 16), text));
    }
    if (keepsLines) {
        // A CR only as the CR of a CRLF.
        for (qsizetype i = text.indexOf(QLatin1Char('\r')); i >= 0;
             i = text.indexOf(QLatin1Char('\r'), i + 1))
            FUZZ_CHECK(i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n'), text);
    }
}

} // namespace

// Whether an object within value holds its keys as no JSON text can be read back: one key twice,
// or out of the order Qt keeps keys in (see the Qt 6.4 U+FEFF quirk below). Found by putting each
// member into a new object, as parsing its written text would.
bool hasMisplacedKeys(const QJsonValue &value)
{
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        return std::any_of(array.begin(), array.end(),
                           [](const QJsonValue &v) { return hasMisplacedKeys(v); });
    }
    if (!value.isObject())
        return false;
    const QJsonObject object = value.toObject();
    QJsonObject rebuilt;
    for (auto it = object.begin(); it != object.end(); ++it)
        rebuilt.insert(it.key(), it.value());
    if (rebuilt.keys() != object.keys())
        return true;
    return std::any_of(object.begin(), object.end(), [](const QJsonValue &v) { return hasMisplacedKeys(v); });
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    const QByteArrayView input = fuzzInput(data, size);
    const QString text = QString::fromUtf8(input);

    const QString safe = terminalSafe(text);
    checkNoHidden(safe, true, "terminalSafe");
    FUZZ_CHECK(terminalSafe(safe) == safe, safe);

    const QString line = oneLineSafe(text);
    checkNoHidden(line, false, "oneLineSafe");
    FUZZ_CHECK(oneLineSafe(line) == line, line);
    FUZZ_CHECK(oneLineSafe(safe) == terminalSafe(oneLineSafe(text)), text);

    const QString markup = markupTerminalSafe(text);
    checkNoHidden(markup, true, "markupTerminalSafe");
    FUZZ_CHECK(markupTerminalSafe(markup) == markup, markup);

    // Any bytes: nothing hidden comes out (the JSON form escapes, it never shows <U+...>).
    const QByteArray jsonSafe = jsonTerminalSafe(input.toByteArray());
    checkNoHidden(QString::fromUtf8(jsonSafe), true, "jsonTerminalSafe");
    FUZZ_CHECK(jsonTerminalSafe(jsonSafe) == jsonSafe, QString::fromUtf8(jsonSafe));

    // JSON as Folio writes it: the same value after the filter, compact and indented.
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(input.toByteArray(), &error);
    if (error.error == QJsonParseError::NoError) {
        for (const auto format : {QJsonDocument::Compact, QJsonDocument::Indented}) {
            const QByteArray written = doc.toJson(format);
            const QByteArray filtered = jsonTerminalSafe(written);
            checkNoHidden(QString::fromUtf8(filtered), true, "jsonTerminalSafe of JSON");
            QJsonParseError again;
            const QJsonDocument back = QJsonDocument::fromJson(filtered, &again);
            FUZZ_CHECK(again.error == QJsonParseError::NoError, QString::fromUtf8(filtered));
            // The value that was written, compared as written (Qt's parser drops a U+FEFF that
            // starts a raw string, so the unfiltered text would not even read back as itself).
            // Qt 6.4 drops it from a key after placing the key, so "\ufeffe" and "e" can be one
            // key twice, or a key out of order, which no JSON text reads back as: not compared.
            if (!hasMisplacedKeys(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array())))
                FUZZ_CHECK(back.toJson(QJsonDocument::Compact) == doc.toJson(QJsonDocument::Compact),
                           QString::fromUtf8(filtered));
        }
    }

    // The finding's helpers never crash, and say nothing of plain ASCII letters.
    (void)lookAlikeCharacters(text);
    (void)describeCodePoints(hiddenCharacters(text));
    return 0;
}
