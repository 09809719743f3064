// decodeCursor (models/cursordecoder.h): never crashes, stays within its bounds, and never claims
// a decoding it did not do. Each layer is checked against the text it was found in: base64 and
// hex re-encode to it, percent-decoding it gives the layer's text, JSON re-parses to the layer's
// value, a prefixed token is prefix + separator + value, a JWT-like cursor's parts are its dotted
// pieces, and a JSON member's layer sits at its pointer. The input is read as UTF-8 and, for
// lone surrogates (a cursor is a JSON string), as UTF-16 too.
#include "cursordecoder.h"
#include "fuzzcheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace folio;

namespace {

using Kind = CursorLayer::Kind;

QJsonValue atPointer(const QJsonValue &root, const QString &pointer, bool *found)
{
    *found = false;
    if (!pointer.startsWith(QLatin1Char('/')))
        return {};
    QJsonValue cur = root;
    for (QString part : pointer.mid(1).split(QLatin1Char('/'))) {
        part.replace(QLatin1String("~1"), QLatin1String("/"))
            .replace(QLatin1String("~0"), QLatin1String("~"));
        if (cur.isObject()) {
            // Found by walking the members: Qt 6.4's QJsonObject::contains() and value() miss a
            // key that mixes U+FFFD with Latin-1 letters, though keys() returns it.
            const QJsonObject o = cur.toObject();
            auto it = o.constBegin();
            while (it != o.constEnd() && it.key() != part)
                ++it;
            if (it == o.constEnd())
                return {};
            cur = it.value();
        } else if (cur.isArray()) {
            bool ok = false;
            const qsizetype i = part.toLongLong(&ok);
            if (!ok || i < 0 || i >= cur.toArray().size() || QString::number(i) != part)
                return {};
            cur = cur.toArray().at(i);
        } else {
            return {};
        }
    }
    *found = true;
    return cur;
}

QString stripped(const QString &s)
{
    QString out = s;
    out.remove(QLatin1Char('='));
    return out;
}

void verify(const CursorLayer &layer, const QString &input, int depth);

// An encoding's one child: what its text decodes to, or the text itself as a leaf.
void verifyInner(const CursorLayer &layer, int depth)
{
    FUZZ_CHECK(layer.children.size() == 1);
    const CursorLayer &child = layer.children.first();
    FUZZ_CHECK(child.path.isEmpty());
    verify(child, layer.text, depth + 1);
}

void verify(const CursorLayer &layer, const QString &input, int depth)
{
    // Each decoding step is one level, a JWT-like part two (the part, then what it holds).
    FUZZ_CHECK(depth <= 2 * MaxCursorDecodingDepth + 2);
    FUZZ_CHECK(!input.isEmpty());
    switch (layer.kind) {
    case Kind::Base64:
    case Kind::Base64Url: {
        const bool url = layer.kind == Kind::Base64Url;
        const QByteArray encoded =
            layer.text.toUtf8().toBase64((url ? QByteArray::Base64UrlEncoding : QByteArray::Base64Encoding) |
                                         QByteArray::OmitTrailingEquals);
        FUZZ_CHECK(QString::fromLatin1(encoded) == stripped(input), input);
        FUZZ_CHECK(input.size() - stripped(input).size() <= 2);
        verifyInner(layer, depth);
        break;
    }
    case Kind::Hex:
        FUZZ_CHECK(QString::fromLatin1(layer.text.toUtf8().toHex()) == input.toLower(), input);
        verifyInner(layer, depth);
        break;
    case Kind::Percent:
        FUZZ_CHECK(input.contains(QLatin1Char('%')));
        FUZZ_CHECK(QByteArray::fromPercentEncoding(input.toUtf8()) == layer.text.toUtf8(), input);
        verifyInner(layer, depth);
        break;
    case Kind::Utf8Text:
        FUZZ_CHECK(layer.text == input && layer.children.isEmpty());
        break;
    case Kind::Json: {
        FUZZ_CHECK(layer.text == input);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(input.toUtf8(), &error);
        FUZZ_CHECK(error.error == QJsonParseError::NoError, input);
        FUZZ_CHECK(layer.json == (doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array())));
        for (const CursorLayer &child : layer.children) {
            bool found = false;
            const QJsonValue member = atPointer(layer.json, child.path, &found);
            FUZZ_CHECK(found && member.isString(), child.path);
            FUZZ_CHECK(child.kind != Kind::Utf8Text);
            verify(child, member.toString(), depth + 1);
        }
        break;
    }
    case Kind::JwtLike: {
        FUZZ_CHECK(layer.text == input);
        const QStringList parts = input.split(QLatin1Char('.'));
        FUZZ_CHECK(parts.size() >= 2);
        FUZZ_CHECK(layer.json.toObject().value(QLatin1String("parts")).toInt() == parts.size());
        bool anyJson = false;
        for (const CursorLayer &child : layer.children) {
            FUZZ_CHECK(child.kind == Kind::Base64Url && child.path.startsWith(QLatin1Char('/')));
            bool ok = false;
            const int i = child.path.mid(1).toInt(&ok);
            FUZZ_CHECK(ok && i >= 0 && i < parts.size(), child.path);
            verify(child, parts.at(i), depth + 1);
            anyJson = anyJson || child.children.first().kind == Kind::Json;
        }
        FUZZ_CHECK(anyJson);
        break;
    }
    case Kind::Prefixed: {
        const QJsonObject info = layer.json.toObject();
        const QString prefix = info.value(QLatin1String("prefix")).toString();
        const QString separator = info.value(QLatin1String("separator")).toString();
        FUZZ_CHECK(prefix + separator + layer.text == input, input);
        FUZZ_CHECK(!layer.text.isEmpty());
        const QJsonValue value = info.value(QLatin1String("value"));
        if (value.isString())
            FUZZ_CHECK(value.toString() == layer.text);
        else
            FUZZ_CHECK(value.isDouble() && value.toInteger() == layer.text.toLongLong(), layer.text);
        FUZZ_CHECK(layer.children.size() <= 1);
        for (const CursorLayer &child : layer.children) {
            FUZZ_CHECK(child.path.isEmpty());
            verify(child, layer.text, depth + 1);
        }
        break;
    }
    }
}

void check(const QString &cursor)
{
    const CursorDecoding decoding = decodeCursor(cursor);
    switch (decoding.verdict) {
    case CursorDecoding::Verdict::Empty:
        FUZZ_CHECK(cursor.isEmpty() && decoding.layers.isEmpty());
        break;
    case CursorDecoding::Verdict::Opaque:
        FUZZ_CHECK(!cursor.isEmpty() && decoding.layers.isEmpty() && !decoding.error.isEmpty());
        break;
    case CursorDecoding::Verdict::Decoded:
        FUZZ_CHECK(decoding.layers.size() == 1 && decoding.error.isEmpty());
        FUZZ_CHECK(cursor.size() <= MaxDecodedCursorLength);
        verify(decoding.layers.first(), cursor, 0);
        break;
    }
    FUZZ_CHECK(cursor.isEmpty() == (decoding.verdict == CursorDecoding::Verdict::Empty));
    // What is shown of it.
    FUZZ_CHECK(decoding.summary().size() <= 120);
    (void)cursorDecodingToJson(decoding);
    (void)cursorDecodingTree(decoding);
    FUZZ_CHECK(maskCursor(cursor).size() <= 32); // a few characters and the length
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView bytes = fuzzInput(data, size);
    check(QString::fromUtf8(bytes));
    if (size >= 2)
        check(QString::fromUtf16(reinterpret_cast<const char16_t *>(data), qsizetype(size / 2)));
    return 0;
}
