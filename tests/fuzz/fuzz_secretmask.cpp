// SecretMask (net/secretmask.h): never crashes on any command line, URL or text; masking is
// idempotent (mask(mask(x)) == mask(x)); and no known secret that was given survives maskKnown()
// or maskMessage(), as text, as bytes or in JSON.
//
// The input is lines: the first holds the known secrets (tab-separated), the second a command
// line (tab-separated words), the rest is the text (and, whole, a URL). The "never survives"
// property holds for secrets of at least MinSecretLength characters that are not part of the mask
// and hold neither '[' nor ']': a secret with a bracket can be spelled by a mask and the text next
// to it ("x[redacted]" holds "x[re"), which no replacement can prevent.
#include "fuzzcheck.h"
#include "secretmask.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace folio;

namespace {

QStringList checkableSecrets(const QStringList &secrets)
{
    QStringList out;
    for (const QString &s : secrets) {
        if (s.size() >= SecretMask::MinSecretLength && !SecretMask::maskedText().contains(s) &&
            !s.contains(QLatin1Char('[')) && !s.contains(QLatin1Char(']')))
            out << s;
    }
    return out;
}

void checkNoSecret(const QString &text, const QStringList &secrets, const char *where)
{
    for (const QString &s : secrets)
        FUZZ_CHECK(!text.contains(s),
                   QStringLiteral("%1 keeps %2 in: %3").arg(QString::fromUtf8(where), s, text));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 64 * 1024)
        return 0;
    const QString input = QString::fromUtf8(fuzzInput(data, size));
    const qsizetype firstNl = input.indexOf(QLatin1Char('\n'));
    const QString secretLine = firstNl < 0 ? input : input.left(firstNl);
    const QString rest = firstNl < 0 ? QString() : input.mid(firstNl + 1);
    const qsizetype secondNl = rest.indexOf(QLatin1Char('\n'));
    const QString argvLine = secondNl < 0 ? rest : rest.left(secondNl);
    const QString text = secondNl < 0 ? rest : rest.mid(secondNl + 1);

    const QStringList given = secretLine.split(QLatin1Char('\t'), Qt::SkipEmptyParts);
    const QStringList secrets = checkableSecrets(given);

    // Known values, as text and as bytes: gone, and masking again changes nothing.
    const QString known = SecretMask::maskKnown(text, given);
    checkNoSecret(known, secrets, "maskKnown");
    const QString knownOnce = SecretMask::maskKnown(text, secrets);
    FUZZ_CHECK(SecretMask::maskKnown(knownOnce, secrets) == knownOnce, knownOnce);
    const QByteArray knownBytes = SecretMask::maskKnown(text.toUtf8(), given);
    checkNoSecret(QString::fromUtf8(knownBytes), secrets, "maskKnown(bytes)");

    // Messages: known values and credentials by shape.
    const QByteArray message = SecretMask::maskMessage(text.toUtf8(), secrets);
    checkNoSecret(QString::fromUtf8(message), secrets, "maskMessage");
    FUZZ_CHECK(SecretMask::maskMessage(message, secrets) == message, QString::fromUtf8(message));

    // JSON: every string, member names too.
    const QJsonObject json{{text, QJsonArray{text, secretLine, 1}}, {QStringLiteral("k"), argvLine}};
    const QJsonValue maskedJson = SecretMask::maskMessage(QJsonValue(json), secrets);
    const QJsonObject o = maskedJson.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        checkNoSecret(it.key(), secrets, "maskMessage(json) key");
        if (it.value().isString())
            checkNoSecret(it.value().toString(), secrets, "maskMessage(json)");
        for (const QJsonValue &v : it.value().toArray())
            checkNoSecret(v.toString(), secrets, "maskMessage(json) array");
    }
    FUZZ_CHECK(SecretMask::maskMessage(maskedJson, secrets) == maskedJson);

    // Command lines: idempotent, and nothing secret is left to find in a masked one.
    const QStringList words = argvLine.split(QLatin1Char('\t'));
    const QStringList maskedWords = SecretMask::maskCommandLine(words);
    FUZZ_CHECK(maskedWords.size() == words.size());
    FUZZ_CHECK(SecretMask::maskCommandLine(maskedWords) == maskedWords, maskedWords.join(QLatin1Char('|')));
    (void)SecretMask::secretsInCommandLine(words);
    FUZZ_CHECK(SecretMask::secretsInCommandLine(maskedWords).isEmpty(), maskedWords.join(QLatin1Char('|')));

    // URLs, one or in a text: idempotent, and the values secretsInUrl() names are gone.
    const QString url = SecretMask::maskUrl(text);
    FUZZ_CHECK(SecretMask::maskUrl(url) == url, url);
    const QString inText = SecretMask::maskUrlsIn(text);
    FUZZ_CHECK(SecretMask::maskUrlsIn(inText) == inText, inText);
    const QString line = SecretMask::maskUrlsIn(argvLine);
    FUZZ_CHECK(SecretMask::maskUrlsIn(line) == line, line);
    (void)SecretMask::secretsInUrl(QUrl(text));
    (void)SecretMask::maskUrl(QUrl(text));
    return 0;
}
