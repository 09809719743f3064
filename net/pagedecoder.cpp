#include "pagedecoder.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <simdjson.h>

#include <cmath>
#include <cstring>
#include <string_view>
#include <utility>

namespace folio {

namespace od = simdjson::ondemand;

namespace {

// QJsonDocument's nesting limit in Qt 6.4: 1024 nested arrays or objects are read, 1025 refused.
constexpr int maxDepth = 1024;

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// A scalar's raw_json_token() runs up to the next token: the whitespace before it is not the value's.
std::string_view trimmed(std::string_view token)
{
    while (!token.empty() && isSpace(token.back()))
        token.remove_suffix(1);
    return token;
}

// Whether a number's digits before its exponent are all zero: simdjson reads 1e-400 as 0, where
// QJsonDocument refuses a number that underflows (and reads 0.0e-999 as 0).
bool zeroMantissa(std::string_view number)
{
    for (const char c : number) {
        if (c == 'e' || c == 'E')
            break;
        if (c >= '1' && c <= '9')
            return false;
    }
    return true;
}

// Checks one value all the way down as QJsonDocument would read it, or more strictly: On-Demand
// checks only what it is asked to read. depth is the nesting of the container holding value.
bool check(od::value value, int depth)
{
    od::json_type type;
    if (value.type().get(type))
        return false;
    switch (type) {
    case od::json_type::object: {
        od::object object;
        if (depth >= maxDepth || value.get_object().get(object))
            return false;
        for (auto member : object) {
            od::field field;
            std::string_view name;
            // Unescaping the name is what checks its escapes.
            if (std::move(member).get(field) || field.unescaped_key().get(name) ||
                !check(field.value(), depth + 1))
                return false;
        }
        return true;
    }
    case od::json_type::array: {
        od::array array;
        if (depth >= maxDepth || value.get_array().get(array))
            return false;
        for (auto element : array) {
            od::value v;
            if (std::move(element).get(v) || !check(v, depth + 1))
                return false;
        }
        return true;
    }
    case od::json_type::string: {
        // UTF-8 and unescaped control characters were checked with the whole text; the escapes
        // are checked by unescaping.
        std::string_view text;
        return !value.get_string().get(text);
    }
    case od::json_type::number: {
        // Only the check: the item keeps the number's text, and the rest is read by QJsonDocument.
        // simdjson refuses what overflows a double, as QJsonDocument does, and some it reads.
        double d = 0;
        if (value.get_double().get(d))
            return false;
        const std::string_view token = trimmed(value.raw_json_token());
        // simdjson 3.0.1 misreads some numbers of more than 19 digits: it takes
        // 0.03456789012367890901234567787976931348623156e318, past the largest double, for 9.7e292
        // (tests/fuzz/fuzz_pagedecoder). Such long numbers are rare; they are read again the way
        // QJsonDocument reads them.
        if (token.size() > 19) {
            bool ok = false;
            const double q = QByteArray::fromRawData(token.data(), qsizetype(token.size())).toDouble(&ok);
            if (!ok || !std::isfinite(q))
                return false;
        }
        return d != 0 || zeroMantissa(token);
    }
    case od::json_type::boolean: {
        // type() looks at the first letter only.
        const std::string_view token = trimmed(value.raw_json_token());
        return token == "true" || token == "false";
    }
    case od::json_type::null:
        return trimmed(value.raw_json_token()) == "null";
    }
    return false;
}

} // namespace

struct PageDecoder::Private
{
    od::parser parser;
    od::document document;
    // A copy of the message with SIMDJSON_PADDING readable bytes after it, which On-Demand needs.
    QByteArray buffer;

    bool load(QByteArrayView raw);
    bool readId(QJsonValue *id);
    bool read(QByteArrayView raw, QByteArrayView itemsKey, DecodedReply *out);
    bool readItems(od::value items, DecodedReply *out, const char **begin, const char **end);
};

bool PageDecoder::Private::load(QByteArrayView raw)
{
    if (raw.isEmpty())
        return false; // (and raw.data() may be null, which memcpy must not be given)
    buffer.resize(raw.size() + qsizetype(simdjson::SIMDJSON_PADDING));
    std::memcpy(buffer.data(), raw.data(), size_t(raw.size()));
    std::memset(buffer.data() + raw.size(), ' ', simdjson::SIMDJSON_PADDING);
    const simdjson::padded_string_view text(buffer.constData(), size_t(raw.size()), size_t(buffer.size()));
    return !parser.iterate(text).get(document);
}

// The reply's id as QJsonDocument reads it: the last top-level "id", a string, number or null.
bool PageDecoder::Private::readId(QJsonValue *id)
{
    od::object top;
    if (document.get_object().get(top))
        return false;
    std::string_view idText;
    for (auto member : top) {
        od::field field;
        std::string_view name;
        if (std::move(member).get(field) || field.unescaped_key().get(name))
            return false;
        if (name == "id") {
            od::json_type type;
            if (field.value().type().get(type) || type == od::json_type::object ||
                type == od::json_type::array)
                return false;
            idText = trimmed(field.value().raw_json_token());
        }
    }
    if (idText.empty())
        return false;
    // The whole text is checked by the read that follows; QJsonDocument reads the id as it will
    // read it in the rest (a string's escapes, an integer or a double).
    const QByteArray one = '[' + QByteArray(idText.data(), qsizetype(idText.size())) + ']';
    const QJsonDocument doc = QJsonDocument::fromJson(one);
    if (!doc.isArray() || doc.array().size() != 1)
        return false;
    *id = doc.array().at(0);
    document.rewind();
    return true;
}

// The items array: each element checked, then its text from its first token to the next one
// (',' or ']') minified into the arena. begin and end delimit the array's text, up to the next token.
bool PageDecoder::Private::readItems(od::value items, DecodedReply *out, const char **begin, const char **end)
{
    od::array array;
    if (items.current_location().get(*begin) || items.get_array().get(array))
        return false;
    out->items.offsets.append(0);
    for (auto element : array) {
        od::value value;
        od::json_type type;
        if (std::move(element).get(value) || value.type().get(type))
            return false;
        if (type != od::json_type::object && type != od::json_type::array) {
            // A single token: compact already, once the whitespace after it is dropped.
            const std::string_view token = trimmed(value.raw_json_token());
            if (!check(value, 3))
                return false;
            out->items.text.append(token.data(), qsizetype(token.size()));
        } else {
            const char *start = nullptr;
            const char *next = nullptr;
            if (value.current_location().get(start) || !check(value, 3) ||
                document.current_location().get(next))
                return false;
            const qsizetype at = out->items.text.size();
            // minify() may write a SIMD block past what it keeps.
            out->items.text.resize(at + (next - start) + qsizetype(simdjson::SIMDJSON_PADDING));
            size_t written = 0;
            if (simdjson::minify(start, size_t(next - start), out->items.text.data() + at, written))
                return false;
            out->items.text.resize(at + qsizetype(written));
        }
        out->items.offsets.append(quint32(out->items.text.size()));
    }
    return !document.current_location().get(*end);
}

bool PageDecoder::Private::read(QByteArrayView raw, QByteArrayView itemsKey, DecodedReply *out)
{
    const std::string_view key(itemsKey.data(), size_t(itemsKey.size()));
    const char *itemsBegin = nullptr;
    const char *itemsEnd = nullptr;
    bool haveId = false;
    bool haveResult = false;
    od::object top;
    if (document.get_object().get(top))
        return false;
    out->items.text.reserve(raw.size() + qsizetype(simdjson::SIMDJSON_PADDING));
    for (auto member : top) {
        od::field field;
        std::string_view name;
        if (std::move(member).get(field) || field.unescaped_key().get(name))
            return false;
        if (name != "result") {
            haveId = haveId || name == "id";
            if (!check(field.value(), 1))
                return false;
            continue;
        }
        // Given twice, QJsonDocument would keep the last result: not plain enough to cut.
        od::object result;
        if (haveResult || field.value().get_object().get(result))
            return false;
        haveResult = true;
        bool haveItems = false;
        for (auto resultMember : result) {
            od::field f;
            std::string_view n;
            if (std::move(resultMember).get(f) || f.unescaped_key().get(n))
                return false;
            if (n != key) {
                if (!check(f.value(), 2))
                    return false;
                continue;
            }
            if (haveItems || !readItems(f.value(), out, &itemsBegin, &itemsEnd))
                return false;
            haveItems = true;
        }
        if (!haveItems)
            return false;
    }
    // Past the object there must be nothing: current_location() is out of bounds at the end.
    const char *trailing = nullptr;
    if (!haveId || !haveResult || document.current_location().get(trailing) != simdjson::OUT_OF_BOUNDS)
        return false;

    // The rest is small (the envelope, a cursor, a TTL): QJsonDocument reads it as it reads every
    // other message, so that message holds what the usual path would.
    const qsizetype begin = itemsBegin - buffer.constData();
    const qsizetype end = itemsEnd - buffer.constData();
    QByteArray rest;
    rest.reserve(raw.size() - (end - begin) + 2);
    rest.append(raw.first(begin));
    rest.append("[]");
    rest.append(raw.sliced(end));
    const QJsonDocument doc = QJsonDocument::fromJson(rest);
    if (!doc.isObject())
        return false;
    out->message = doc.object();
    out->id = out->message.value(QLatin1String("id"));
    return true;
}

PageDecoder::PageDecoder()
    : m_d(std::make_unique<Private>())
{
    // On-Demand's own depth limit is asserted only where NDEBUG is not set; check() stops at
    // maxDepth first, so with one level to spare it never trips. (Should this fail, iterate()
    // allocates again and reports it.)
    [[maybe_unused]] const simdjson::error_code error = m_d->parser.allocate(64 * 1024, maxDepth + 1);
}

PageDecoder::~PageDecoder() = default;

bool PageDecoder::decode(QByteArrayView raw, QByteArrayView itemsKey, DecodedReply *out)
{
    *out = DecodedReply();
    if (m_d->load(raw) && m_d->read(raw, itemsKey, out))
        return true;
    *out = DecodedReply();
    return false;
}

bool PageDecoder::decode(QByteArrayView raw, const ItemsKeyForId &itemsKeyFor, DecodedReply *out)
{
    *out = DecodedReply();
    QJsonValue id;
    if (m_d->load(raw) && m_d->readId(&id)) {
        const QByteArray key = itemsKeyFor(id);
        if (!key.isEmpty() && m_d->read(raw, key, out) && out->id == id)
            return true;
    }
    *out = DecodedReply();
    return false;
}

bool decodeListReply(QByteArrayView raw, QByteArrayView itemsKey, DecodedReply *out)
{
    PageDecoder decoder;
    return decoder.decode(raw, itemsKey, out);
}

} // namespace folio
