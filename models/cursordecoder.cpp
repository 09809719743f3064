#include "cursordecoder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <optional>

namespace folio {

namespace {

using Kind = CursorLayer::Kind;

// Bounds on the work done for one cursor: every layer strictly shrinks its input, so decoding always
// ends, but a cursor made of many small encoded JSON members could still grow a large tree.
constexpr int MaxLayers = 512;
constexpr int MaxJsonWalkDepth = 64;
constexpr qsizetype MaxSummaryLength = 120;
constexpr qsizetype MinBase64Length = 4;
constexpr qsizetype MinHexLength = 8;
constexpr int MaxJwtParts = 5;
constexpr qsizetype MaxPrefixLength = 32;
constexpr qsizetype MaxIntegerDigits = 18; // fits in qint64 without overflow checks

struct Context
{
    int layers = 0;
};

QString codePoint(uint u)
{
    return QStringLiteral("U+") + QString::number(u, 16).toUpper().rightJustified(4, QLatin1Char('0'));
}

QString describeChar(QChar c)
{
    const char16_t u = c.unicode();
    if (u >= 0x20 && u < 0x7f)
        return QLatin1Char('\'') + c + QLatin1Char('\'');
    return codePoint(u);
}

QString hexByte(uchar b)
{
    return QStringLiteral("0x%1").arg(uint(b), 2, 16, QLatin1Char('0'));
}

bool isAsciiDigit(QChar c)
{
    return c >= QLatin1Char('0') && c <= QLatin1Char('9');
}

bool isAsciiLetter(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
           (c >= QLatin1Char('A') && c <= QLatin1Char('Z'));
}

int hexValue(QChar c)
{
    if (isAsciiDigit(c))
        return c.unicode() - u'0';
    if (c >= QLatin1Char('a') && c <= QLatin1Char('f'))
        return c.unicode() - u'a' + 10;
    if (c >= QLatin1Char('A') && c <= QLatin1Char('F'))
        return c.unicode() - u'A' + 10;
    return -1;
}

// Checks that bytes are UTF-8 (strict: no overlongs, surrogates or code points past U+10FFFF) without
// control characters other than tab, CR and LF. Returns an empty string when they are, else the reason.
QString checkPrintableUtf8(const QByteArray &bytes)
{
    const auto *data = reinterpret_cast<const uchar *>(bytes.constData());
    const qsizetype size = bytes.size();
    qsizetype i = 0;
    while (i < size) {
        const uchar b = data[i];
        if (b < 0x80) {
            if ((b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7f) {
                return QStringLiteral("that are not printable text (control character %1 at offset %2)")
                    .arg(codePoint(b), QString::number(i));
            }
            ++i;
            continue;
        }
        int continuation = 0;
        uchar low = 0x80;
        uchar high = 0xbf;
        if (b >= 0xc2 && b <= 0xdf) {
            continuation = 1;
        } else if (b == 0xe0) {
            continuation = 2;
            low = 0xa0;
        } else if ((b >= 0xe1 && b <= 0xec) || b == 0xee || b == 0xef) {
            continuation = 2;
        } else if (b == 0xed) {
            continuation = 2;
            high = 0x9f;
        } else if (b == 0xf0) {
            continuation = 3;
            low = 0x90;
        } else if (b >= 0xf1 && b <= 0xf3) {
            continuation = 3;
        } else if (b == 0xf4) {
            continuation = 3;
            high = 0x8f;
        } else {
            return QStringLiteral("that are not UTF-8 (invalid byte %1 at offset %2)")
                .arg(hexByte(b), QString::number(i));
        }
        for (int k = 1; k <= continuation; ++k) {
            if (i + k >= size)
                return QStringLiteral("that are not UTF-8 (sequence cut short at offset %1)").arg(i);
            const uchar c = data[i + k];
            const uchar lo = k == 1 ? low : 0x80;
            const uchar hi = k == 1 ? high : 0xbf;
            if (c < lo || c > hi) {
                return QStringLiteral("that are not UTF-8 (invalid byte %1 at offset %2)")
                    .arg(hexByte(c), QString::number(i + k));
            }
        }
        if (b == 0xc2 && data[i + 1] <= 0x9f) {
            return QStringLiteral("that are not printable text (control character %1 at offset %2)")
                .arg(codePoint(data[i + 1]), QString::number(i));
        }
        i += continuation + 1;
    }
    return {};
}

// Turns decoded bytes into text, or says why they are not text.
std::optional<QString> bytesToText(const QByteArray &bytes, const QString &what, QString *error)
{
    const QString problem = checkPrintableUtf8(bytes);
    if (!problem.isEmpty()) {
        *error =
            QStringLiteral("%1 decoded to %2 bytes %3").arg(what, QString::number(bytes.size()), problem);
        return std::nullopt;
    }
    return QString::fromUtf8(bytes);
}

int base64Value(QChar c)
{
    if (c >= QLatin1Char('A') && c <= QLatin1Char('Z'))
        return c.unicode() - u'A';
    if (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
        return c.unicode() - u'a' + 26;
    if (isAsciiDigit(c))
        return c.unicode() - u'0' + 52;
    if (c == QLatin1Char('+') || c == QLatin1Char('-'))
        return 62;
    if (c == QLatin1Char('/') || c == QLatin1Char('_'))
        return 63;
    return -1;
}

// Strict base64/base64url: one alphabet, padding only at the end and only where it belongs, zero
// trailing bits (every encoder writes them, and requiring them turns away most plain words).
// Which of the two it was: '-'/'_' mean base64url, '+'/'/' base64; with neither, padded (or a length
// that needs none) is read as base64 and unpadded as base64url, the form cursors and JWTs use.
std::optional<QString> decodeBase64(const QString &s, Kind *kind, QString *error)
{
    qsizetype firstStd = -1;
    qsizetype firstUrl = -1;
    qsizetype dataLength = s.size();
    for (qsizetype i = 0; i < s.size(); ++i) {
        const QChar c = s.at(i);
        if (c == QLatin1Char('=')) {
            if (dataLength == s.size())
                dataLength = i;
            continue;
        }
        if (dataLength != s.size()) {
            *error = QStringLiteral("not base64: %1 at offset %2 after padding")
                         .arg(describeChar(c), QString::number(i));
            return std::nullopt;
        }
        if (base64Value(c) < 0) {
            *error = QStringLiteral("not base64: %1 at offset %2").arg(describeChar(c), QString::number(i));
            return std::nullopt;
        }
        if ((c == QLatin1Char('+') || c == QLatin1Char('/')) && firstStd < 0)
            firstStd = i;
        if ((c == QLatin1Char('-') || c == QLatin1Char('_')) && firstUrl < 0)
            firstUrl = i;
    }
    if (firstStd >= 0 && firstUrl >= 0) {
        const qsizetype second = qMax(firstStd, firstUrl);
        *error = QStringLiteral("not base64: %1 at offset %2 mixes the base64 and base64url alphabets")
                     .arg(describeChar(s.at(second)), QString::number(second));
        return std::nullopt;
    }
    const qsizetype padding = s.size() - dataLength;
    if (s.size() < MinBase64Length) {
        *error = QStringLiteral("not base64: too short to tell (%1 characters)").arg(s.size());
        return std::nullopt;
    }
    if (dataLength % 4 == 1) {
        *error = QStringLiteral("not base64: %1 characters leave a dangling character at offset %2")
                     .arg(QString::number(dataLength), QString::number(dataLength - 1));
        return std::nullopt;
    }
    if (padding > 0 && (padding > 2 || s.size() % 4 != 0 || (dataLength % 4) + padding != 4)) {
        *error =
            QStringLiteral("not base64: %1 padding characters at offset %2 do not fit %3 data characters")
                .arg(QString::number(padding), QString::number(dataLength), QString::number(dataLength));
        return std::nullopt;
    }

    if (firstUrl >= 0)
        *kind = Kind::Base64Url;
    else if (firstStd >= 0)
        *kind = Kind::Base64;
    else
        *kind = (padding == 0 && dataLength % 4 != 0) ? Kind::Base64Url : Kind::Base64;
    const QString name = CursorLayer::kindName(*kind);

    QByteArray bytes;
    bytes.reserve(dataLength * 3 / 4 + 1);
    quint32 buffer = 0;
    int bits = 0;
    for (qsizetype i = 0; i < dataLength; ++i) {
        buffer = (buffer << 6) | quint32(base64Value(s.at(i)));
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.append(char((buffer >> bits) & 0xff));
        }
    }
    if (bits > 0 && (buffer & ((1u << bits) - 1)) != 0) {
        *error = QStringLiteral("not %1: %2 at offset %3 leaves non-zero trailing bits")
                     .arg(name, describeChar(s.at(dataLength - 1)), QString::number(dataLength - 1));
        return std::nullopt;
    }
    return bytesToText(bytes, name, error);
}

bool looksHex(const QString &s)
{
    if (s.size() < MinHexLength || s.size() % 2 != 0)
        return false;
    for (QChar c : s) {
        if (hexValue(c) < 0)
            return false;
    }
    return true;
}

std::optional<QString> decodeHex(const QString &s, QString *error)
{
    QByteArray bytes;
    bytes.reserve(s.size() / 2);
    for (qsizetype i = 0; i + 1 < s.size(); i += 2)
        bytes.append(char(hexValue(s.at(i)) * 16 + hexValue(s.at(i + 1))));
    return bytesToText(bytes, QStringLiteral("hex"), error);
}

std::optional<QString> decodePercent(const QString &s, QString *error)
{
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s.at(i) != QLatin1Char('%'))
            continue;
        if (i + 2 >= s.size() || hexValue(s.at(i + 1)) < 0 || hexValue(s.at(i + 2)) < 0) {
            *error = QStringLiteral("not percent-encoded: '%' at offset %1 is not followed by two hex digits")
                         .arg(i);
            return std::nullopt;
        }
        i += 2;
    }
    return bytesToText(QByteArray::fromPercentEncoding(s.toUtf8()), QStringLiteral("percent-encoding"),
                       error);
}

bool isInteger(const QString &s)
{
    const qsizetype start = s.startsWith(QLatin1Char('-')) ? 1 : 0;
    if (s.size() <= start || s.size() - start > MaxIntegerDigits)
        return false;
    for (qsizetype i = start; i < s.size(); ++i) {
        if (!isAsciiDigit(s.at(i)))
            return false;
    }
    return true;
}

QJsonValue tokenValue(const QString &s)
{
    if (isInteger(s))
        return QJsonValue(s.toLongLong());
    return QJsonValue(s);
}

bool isPrintable(const QString &s)
{
    for (QChar c : s) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || (c.unicode() >= 0x80 && c.unicode() <= 0x9f))
            return false;
    }
    return true;
}

QString escapePointerToken(QString token)
{
    return token.replace(QLatin1Char('~'), QLatin1String("~0"))
        .replace(QLatin1Char('/'), QLatin1String("~1"));
}

std::optional<CursorLayer> decodeText(const QString &s, int depth, Context &ctx, QString *error);

CursorLayer textLeaf(const QString &text)
{
    CursorLayer leaf;
    leaf.kind = Kind::Utf8Text;
    leaf.text = text;
    return leaf;
}

// The layer below an encoding: whatever its text decodes to, else the text itself.
CursorLayer decodeInner(const QString &text, int depth, Context &ctx)
{
    QString ignored;
    if (std::optional<CursorLayer> inner = decodeText(text, depth + 1, ctx, &ignored))
        return *inner;
    ++ctx.layers;
    return textLeaf(text);
}

CursorLayer encodingLayer(Kind kind, const QString &text, int depth, Context &ctx)
{
    CursorLayer layer;
    layer.kind = kind;
    layer.text = text;
    layer.children.append(decodeInner(text, depth, ctx));
    return layer;
}

// A JSON string member is worth a child only when it was encoded: a plain name or "page2" is not news.
bool isWorthAChild(const CursorLayer &layer)
{
    if (layer.kind == Kind::Utf8Text)
        return false;
    if (layer.kind == Kind::Prefixed)
        return !layer.children.isEmpty();
    return true;
}

void collectJsonChildren(const QJsonValue &value, const QString &path, int walkDepth, int depth, Context &ctx,
                         QList<CursorLayer> *children)
{
    if (walkDepth > MaxJsonWalkDepth || ctx.layers >= MaxLayers)
        return;
    if (value.isString()) {
        QString ignored;
        std::optional<CursorLayer> layer = decodeText(value.toString(), depth + 1, ctx, &ignored);
        if (layer && isWorthAChild(*layer)) {
            layer->path = path;
            children->append(*layer);
        }
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            collectJsonChildren(it.value(), path + QLatin1Char('/') + escapePointerToken(it.key()),
                                walkDepth + 1, depth, ctx, children);
        }
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            collectJsonChildren(array.at(i), path + QLatin1Char('/') + QString::number(i), walkDepth + 1,
                                depth, ctx, children);
    }
}

bool looksLikeJson(const QString &s)
{
    for (QChar c : s) {
        if (c.isSpace())
            continue;
        return c == QLatin1Char('{') || c == QLatin1Char('[');
    }
    return false;
}

std::optional<CursorLayer> decodeJson(const QString &s, int depth, Context &ctx, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(s.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("not JSON: %1 at offset %2")
                     .arg(parseError.errorString(), QString::number(parseError.offset));
        return std::nullopt;
    }
    CursorLayer layer;
    layer.kind = Kind::Json;
    layer.text = s;
    layer.json = document.isObject() ? QJsonValue(document.object()) : QJsonValue(document.array());
    collectJsonChildren(layer.json, QString(), 0, depth, ctx, &layer.children);
    return layer;
}

// header.payload[.signature...]: every part base64url, and at least one of them JSON.
std::optional<CursorLayer> decodeJwtLike(const QString &s, int depth, Context &ctx)
{
    const qsizetype dots = s.count(QLatin1Char('.'));
    if (dots < 1 || dots >= MaxJwtParts)
        return std::nullopt;
    const QStringList parts = s.split(QLatin1Char('.'));
    for (const QString &part : parts) {
        if (part.isEmpty())
            return std::nullopt;
        for (QChar c : part) {
            if (base64Value(c) < 0 || c == QLatin1Char('+') || c == QLatin1Char('/'))
                return std::nullopt;
        }
    }
    CursorLayer layer;
    layer.kind = Kind::JwtLike;
    layer.text = s;
    QJsonObject opaque;
    bool anyJson = false;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        Kind kind = Kind::Base64Url;
        QString why;
        if (std::optional<QString> text = decodeBase64(parts.at(i), &kind, &why)) {
            CursorLayer part = encodingLayer(Kind::Base64Url, *text, depth, ctx);
            anyJson = anyJson || part.children.constFirst().kind == Kind::Json;
            part.path = QLatin1Char('/') + QString::number(i);
            layer.children.append(part);
        } else {
            opaque.insert(QString::number(i), why);
        }
    }
    if (!anyJson)
        return std::nullopt;
    QJsonObject info{{QStringLiteral("parts"), parts.size()}};
    if (!opaque.isEmpty())
        info.insert(QStringLiteral("opaque"), opaque);
    layer.json = info;
    return layer;
}

CursorLayer prefixedLayer(const QString &prefix, const QString &separator, const QString &value, int depth,
                          Context &ctx)
{
    CursorLayer layer;
    layer.kind = Kind::Prefixed;
    layer.text = value;
    layer.json = QJsonObject{{QStringLiteral("prefix"), prefix},
                             {QStringLiteral("separator"), separator},
                             {QStringLiteral("value"), tokenValue(value)}};
    if (!isInteger(value)) {
        QString ignored;
        if (std::optional<CursorLayer> inner = decodeText(value, depth + 1, ctx, &ignored))
            layer.children.append(*inner);
    }
    return layer;
}

// "40", "o:40", "offset=40", "page2", "page_2".
std::optional<CursorLayer> decodePrefixed(const QString &s, int depth, Context &ctx)
{
    if (!isPrintable(s))
        return std::nullopt;
    if (isInteger(s))
        return prefixedLayer(QString(), QString(), s, depth, ctx);
    if (s.isEmpty() || !isAsciiLetter(s.at(0)))
        return std::nullopt;
    qsizetype i = 1;
    while (i < s.size() && i <= MaxPrefixLength &&
           (isAsciiLetter(s.at(i)) || isAsciiDigit(s.at(i)) || s.at(i) == QLatin1Char('_') ||
            s.at(i) == QLatin1Char('-')))
        ++i;
    // A value that starts with another separator is more likely base64 padding ("YQ==") than a value.
    if (i < s.size() && i <= MaxPrefixLength &&
        (s.at(i) == QLatin1Char(':') || s.at(i) == QLatin1Char('=')) && i + 1 < s.size() &&
        s.at(i + 1) != QLatin1Char('=') && s.at(i + 1) != QLatin1Char(':')) {
        return prefixedLayer(s.left(i), s.mid(i, 1), s.mid(i + 1), depth, ctx);
    }
    // A word followed by a number, maybe joined by '_' or '-'.
    qsizetype digits = s.size();
    while (digits > 0 && isAsciiDigit(s.at(digits - 1)))
        --digits;
    if (digits == s.size() || s.size() - digits > MaxIntegerDigits)
        return std::nullopt;
    qsizetype wordEnd = digits;
    if (s.at(wordEnd - 1) == QLatin1Char('_') || s.at(wordEnd - 1) == QLatin1Char('-'))
        --wordEnd;
    if (wordEnd == 0 || wordEnd > MaxPrefixLength)
        return std::nullopt;
    for (qsizetype k = 0; k < wordEnd; ++k) {
        if (!isAsciiLetter(s.at(k)))
            return std::nullopt;
    }
    return prefixedLayer(s.left(wordEnd), s.mid(wordEnd, digits - wordEnd), s.mid(digits), depth, ctx);
}

// Tries every layer kind on s, most specific first. On failure, error holds the reason from the
// encoding that s most resembles.
std::optional<CursorLayer> decodeText(const QString &s, int depth, Context &ctx, QString *error)
{
    if (s.isEmpty()) {
        *error = QStringLiteral("empty");
        return std::nullopt;
    }
    if (depth >= MaxCursorDecodingDepth) {
        *error =
            QStringLiteral("not decoded further: more than %1 nested layers").arg(MaxCursorDecodingDepth);
        return std::nullopt;
    }
    if (ctx.layers >= MaxLayers) {
        *error = QStringLiteral("not decoded further: more than %1 layers").arg(MaxLayers);
        return std::nullopt;
    }
    ++ctx.layers;

    if (looksLikeJson(s))
        return decodeJson(s, depth, ctx, error);
    if (isInteger(s))
        return decodePrefixed(s, depth, ctx);

    QString hexError;
    const bool hexLike = looksHex(s);
    if (hexLike) {
        if (std::optional<QString> text = decodeHex(s, &hexError))
            return encodingLayer(Kind::Hex, *text, depth, ctx);
    }
    if (s.contains(QLatin1Char('.'))) {
        if (std::optional<CursorLayer> jwt = decodeJwtLike(s, depth, ctx))
            return jwt;
    }
    QString base64Error;
    Kind kind = Kind::Base64;
    if (std::optional<QString> text = decodeBase64(s, &kind, &base64Error))
        return encodingLayer(kind, *text, depth, ctx);
    QString percentError;
    const bool percentLike = s.contains(QLatin1Char('%'));
    if (percentLike) {
        if (std::optional<QString> text = decodePercent(s, &percentError))
            return encodingLayer(Kind::Percent, *text, depth, ctx);
    }
    if (std::optional<CursorLayer> prefixed = decodePrefixed(s, depth, ctx))
        return prefixed;

    --ctx.layers;
    *error = hexLike ? hexError : percentLike ? percentError : base64Error;
    return std::nullopt;
}

QString summarize(const CursorLayer &layer)
{
    switch (layer.kind) {
    case Kind::Base64:
    case Kind::Base64Url:
    case Kind::Hex:
    case Kind::Percent:
        return layer.children.isEmpty() ? layer.text : summarize(layer.children.constFirst());
    case Kind::Utf8Text:
        return layer.text;
    case Kind::Json:
        return QString::fromUtf8(layer.json.isArray()
                                     ? QJsonDocument(layer.json.toArray()).toJson(QJsonDocument::Compact)
                                     : QJsonDocument(layer.json.toObject()).toJson(QJsonDocument::Compact));
    case Kind::Prefixed: {
        const QJsonObject info = layer.json.toObject();
        const QString value = layer.children.isEmpty() ? layer.text : summarize(layer.children.constFirst());
        return info.value(QStringLiteral("prefix")).toString() +
               info.value(QStringLiteral("separator")).toString() + value;
    }
    case Kind::JwtLike: {
        const int parts = layer.json.toObject().value(QStringLiteral("parts")).toInt();
        QStringList shown;
        for (int i = 0; i < parts; ++i)
            shown.append(QStringLiteral("…"));
        for (const CursorLayer &part : layer.children) {
            const int index = part.path.mid(1).toInt();
            if (index >= 0 && index < parts)
                shown[index] = summarize(part);
        }
        return shown.join(QLatin1Char('.'));
    }
    }
    return layer.text;
}

QJsonObject layerToJson(const CursorLayer &layer)
{
    QJsonObject object{{QStringLiteral("kind"), layer.kindName()}};
    if (!layer.path.isEmpty())
        object.insert(QStringLiteral("path"), layer.path);
    if (!layer.text.isNull())
        object.insert(QStringLiteral("text"), layer.text);
    if (!layer.json.isUndefined() && !layer.json.isNull())
        object.insert(QStringLiteral("json"), layer.json);
    QJsonArray children;
    for (const CursorLayer &child : layer.children)
        children.append(layerToJson(child));
    object.insert(QStringLiteral("children"), children);
    return object;
}

} // namespace

QString CursorLayer::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Base64:
        return QStringLiteral("base64");
    case Kind::Base64Url:
        return QStringLiteral("base64url");
    case Kind::Hex:
        return QStringLiteral("hex");
    case Kind::Percent:
        return QStringLiteral("percent-encoded");
    case Kind::Utf8Text:
        return QStringLiteral("utf-8 text");
    case Kind::Json:
        return QStringLiteral("json");
    case Kind::JwtLike:
        return QStringLiteral("jwt-like");
    case Kind::Prefixed:
        return QStringLiteral("prefixed");
    }
    return QStringLiteral("unknown");
}

bool operator==(const CursorLayer &a, const CursorLayer &b)
{
    return a.kind == b.kind && a.path == b.path && a.text == b.text && a.json == b.json &&
           a.children == b.children;
}

QString CursorDecoding::verdictName() const
{
    switch (verdict) {
    case Verdict::Empty:
        return QStringLiteral("empty");
    case Verdict::Decoded:
        return QStringLiteral("decoded");
    case Verdict::Opaque:
        return QStringLiteral("opaque");
    }
    return QStringLiteral("unknown");
}

QString CursorDecoding::summary() const
{
    switch (verdict) {
    case Verdict::Empty:
        return QStringLiteral("\"\"");
    case Verdict::Opaque:
        return QStringLiteral("opaque");
    case Verdict::Decoded:
        break;
    }
    if (layers.isEmpty())
        return QStringLiteral("opaque");
    QString line = summarize(layers.constFirst());
    for (QChar &c : line) {
        if (c.unicode() < 0x20)
            c = QLatin1Char(' ');
    }
    if (line.size() > MaxSummaryLength) {
        qsizetype cut = MaxSummaryLength - 1;
        if (line.at(cut - 1).isHighSurrogate())
            --cut;
        line = line.left(cut) + QStringLiteral("…");
    }
    return line;
}

CursorDecoding decodeCursor(const QString &cursor)
{
    CursorDecoding decoding;
    if (cursor.isEmpty()) {
        decoding.verdict = CursorDecoding::Verdict::Empty;
        return decoding;
    }
    if (cursor.size() > MaxDecodedCursorLength) {
        decoding.verdict = CursorDecoding::Verdict::Opaque;
        decoding.error = QStringLiteral("not decoded: %1 characters, more than the %2 that are looked into")
                             .arg(QString::number(cursor.size()), QString::number(MaxDecodedCursorLength));
        return decoding;
    }
    Context ctx;
    QString error;
    if (std::optional<CursorLayer> layer = decodeText(cursor, 0, ctx, &error)) {
        decoding.verdict = CursorDecoding::Verdict::Decoded;
        decoding.layers.append(*layer);
    } else {
        decoding.verdict = CursorDecoding::Verdict::Opaque;
        decoding.error = error;
    }
    return decoding;
}

QString maskCursor(const QString &cursor)
{
    if (cursor.isEmpty())
        return QStringLiteral("\"\"");
    qsizetype keep = qMin<qsizetype>(4, cursor.size() / 2);
    if (keep > 0 && cursor.at(keep - 1).isHighSurrogate())
        --keep;
    return cursor.left(keep) + (cursor.size() == 1 ? QStringLiteral("… (1 char)")
                                                   : QStringLiteral("… (%1 chars)").arg(cursor.size()));
}

QJsonObject cursorDecodingToJson(const CursorDecoding &decoding)
{
    QJsonObject object{{QStringLiteral("verdict"), decoding.verdictName()},
                       {QStringLiteral("nonNormative"), true},
                       {QStringLiteral("summary"), decoding.summary()}};
    QJsonArray layers;
    for (const CursorLayer &layer : decoding.layers)
        layers.append(layerToJson(layer));
    object.insert(QStringLiteral("layers"), layers);
    if (!decoding.error.isEmpty())
        object.insert(QStringLiteral("error"), decoding.error);
    return object;
}

namespace {

QJsonValue layerTree(const CursorLayer &layer)
{
    if (layer.children.isEmpty()) {
        if (!layer.json.isUndefined() && !layer.json.isNull())
            return layer.json;
        return layer.text;
    }
    QJsonObject node;
    if (!layer.json.isUndefined() && !layer.json.isNull())
        node.insert(QStringLiteral("value"), layer.json);
    for (const CursorLayer &child : layer.children) {
        const QString key = child.path.isEmpty()
                                ? child.kindName()
                                : QStringLiteral("%1 (%2)").arg(child.path, child.kindName());
        node.insert(key, layerTree(child));
    }
    return node;
}

} // namespace

QJsonValue cursorDecodingTree(const CursorDecoding &decoding)
{
    QJsonObject top;
    for (const CursorLayer &layer : decoding.layers)
        top.insert(layer.kindName(), layerTree(layer));
    return top;
}

} // namespace folio
