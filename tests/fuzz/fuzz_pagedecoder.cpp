// PageDecoder (net/pagedecoder.h) against QJsonDocument, the reader it stands in for. What
// docs/page-decoder.md promises, and nothing more:
// - whatever it accepts, QJsonDocument reads as an object, and the items, the rest of the message
//   and the id are what QJsonDocument reads (each item compact); a refusal leaves nothing behind;
// - it may refuse more than QJsonDocument (the table in the doc), but not a plain reply written
//   the way QJsonDocument writes it: QJsonDocument's own compact text of any reply it reads, with
//   the items member an array and an id that is not an object or array, must be accepted.
// Both overloads run: the key given, and the key found from the id (there the id is also the key
// when it is a string, so the fuzzer picks the member name).
#include "fuzzcheck.h"
#include "pagedecoder.h"
#include "testjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace folio;

namespace {

const QByteArray fixedKey = QByteArrayLiteral("tools");

QByteArray keyForId(const QJsonValue &id)
{
    if (id.isString())
        return id.toString().toUtf8();
    return id.isDouble() ? fixedKey : QByteArray();
}

// "\uD800" to "\uDFFF" (or a "\\" followed by such text: skipping more than needed is harmless).
bool hasSurrogateEscape(QByteArrayView text)
{
    for (qsizetype i = 0; i + 3 < text.size(); ++i) {
        if (text[i] == '\\' && text[i + 1] == 'u' && (text[i + 2] == 'd' || text[i + 2] == 'D') &&
            QByteArrayView("89abcdefABCDEF").contains(text[i + 3]))
            return true;
    }
    return false;
}

// The decoded reply is what QJsonDocument reads from the same bytes.
void compareWithQt(QByteArrayView raw, const QByteArray &key, bool decoded, const DecodedReply &reply)
{
    if (!decoded) {
        FUZZ_CHECK(reply.items.text.isEmpty() && reply.items.offsets.isEmpty() && reply.message.isEmpty() &&
                   reply.id.isNull());
        return;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(raw.toByteArray(), &error);
    FUZZ_CHECK(error.error == QJsonParseError::NoError && doc.isObject(), error.errorString());
    QJsonObject expected = doc.object();
    FUZZ_CHECK(expected.value(QLatin1String("result")).isObject());
    QJsonObject result = expected.value(QLatin1String("result")).toObject();
    const QString itemsKey = QString::fromUtf8(key);
    FUZZ_CHECK(result.value(itemsKey).isArray());
    const QJsonArray expectedItems = result.value(itemsKey).toArray();
    FUZZ_CHECK(reply.items.offsets.size() == expectedItems.size() + 1);
    FUZZ_CHECK(reply.items.offsets.first() == 0);
    FUZZ_CHECK(reply.items.offsets.last() == quint32(reply.items.text.size()));
    for (qsizetype i = 0; i < expectedItems.size(); ++i) {
        FUZZ_CHECK(reply.items.offsets[i] <= reply.items.offsets[i + 1]);
        const QByteArray text =
            reply.items.text.mid(reply.items.offsets[i], reply.items.offsets[i + 1] - reply.items.offsets[i]);
        FUZZ_CHECK(!text.isEmpty() && testsupport::isCompactJson(text), QString::fromUtf8(text));
        const QJsonDocument one = QJsonDocument::fromJson('[' + text + ']');
        FUZZ_CHECK(one.isArray() && one.array().size() == 1, QString::fromUtf8(text));
        FUZZ_CHECK(one.array().at(0) == expectedItems.at(i), QString::fromUtf8(text));
    }
    result.insert(itemsKey, QJsonArray());
    expected.insert(QLatin1String("result"), result);
    FUZZ_CHECK(reply.message == expected);
    FUZZ_CHECK(reply.id == expected.value(QLatin1String("id")));
}

// QJsonDocument's own compact text of a reply it read, when that text says the same: a reply the
// decoder must take (nothing in it is on the doc's list of what the decoder may refuse).
void checkPlainReplyAccepted(PageDecoder &decoder, QByteArrayView raw)
{
    const QJsonDocument doc = QJsonDocument::fromJson(raw.toByteArray());
    if (!doc.isObject())
        return;
    const QJsonObject message = doc.object();
    const QJsonValue id = message.value(QLatin1String("id"));
    if (id.isUndefined() || id.isObject() || id.isArray())
        return;
    const QJsonValue result = message.value(QLatin1String("result"));
    if (!result.isObject() || !result.toObject().value(QString::fromUtf8(fixedKey)).isArray())
        return;
    const QByteArray canonical = doc.toJson(QJsonDocument::Compact);
    // A lone surrogate (read from "\ud800") is written back as that escape: on the doc's list.
    if (hasSurrogateEscape(canonical) || QString::fromUtf8(canonical).toUtf8() != canonical ||
        QJsonDocument::fromJson(canonical) != doc)
        return;
    DecodedReply reply;
    const bool decoded = decoder.decode(canonical, fixedKey, &reply);
    FUZZ_CHECK(decoded, QStringLiteral("refused: ") + QString::fromUtf8(canonical.left(2000)));
    compareWithQt(canonical, fixedKey, decoded, reply);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // Kept across inputs, as a connection keeps one: what one message leaves in it must not show
    // in the next.
    static PageDecoder decoder;
    const QByteArrayView raw = fuzzInput(data, size);

    DecodedReply reply;
    const bool decoded = decoder.decode(raw, fixedKey, &reply);
    compareWithQt(raw, fixedKey, decoded, reply);

    QByteArray askedKey;
    bool asked = false;
    const PageDecoder::ItemsKeyForId keyFor = [&](const QJsonValue &id) {
        asked = true;
        askedKey = keyForId(id);
        return askedKey;
    };
    const bool decodedById = decoder.decode(raw, keyFor, &reply);
    FUZZ_CHECK(!decodedById || (asked && !askedKey.isEmpty()));
    compareWithQt(raw, askedKey, decodedById, reply);
    if (decodedById)
        FUZZ_CHECK(askedKey == keyForId(reply.id));

    checkPlainReplyAccepted(decoder, raw);
    return 0;
}
