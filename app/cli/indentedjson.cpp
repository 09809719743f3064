#include "indentedjson.h"

#include <QVarLengthArray>
#include <QtAlgorithms>

#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace folio {

namespace {

// Deeper than QJsonDocument parses (1024 levels) plus the document around the value.
constexpr int maxLevels = 1100;

void appendIndent(QByteArray *out, int level)
{
    static const QByteArray spaces(4 * maxLevels, ' ');
    out->append(spaces.constData(), 4 * level);
}

// The first byte from p on that is a quote, a backslash or a control character (end if none).
const char *nextSpecial(const char *p, const char *end)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    for (; end - p >= 16; p += 16) {
        const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
        // Bytes below 0x20: unsigned min with 0x1f equals the byte. Those at 0x80 and above are
        // UTF-8, never special.
        const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1f)), x);
        const __m128i hits =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)), control);
        if (const int mask = _mm_movemask_epi8(hits))
            return p + qCountTrailingZeroBits(unsigned(mask));
    }
#endif
    for (; p < end; ++p) {
        if (*p == '"' || *p == '\\' || uchar(*p) < 0x20)
            return p;
    }
    return end;
}

// The end of a string starting at p (its opening quote), one past the closing quote; nullptr when
// the string has an escape or a character Qt's writer would put differently.
const char *stringEnd(const char *p, const char *end)
{
    for (p = nextSpecial(p + 1, end); p < end; p = nextSpecial(p + 1, end)) {
        if (*p == '"')
            return p + 1;
        if (uchar(*p) < 0x20 || ++p == end)
            return nullptr;
        if (*p == 0 || !std::strchr("\"\\bfnrt", *p))
            return nullptr; // \u and \/: Qt writes the character itself (or \u with lowercase hex)
    }
    return nullptr;
}

bool isPlainKey(const char *begin, const char *end)
{
    for (const char *p = begin; p < end; ++p) {
        const uchar c = uchar(*p);
        if (c < 0x20 || c >= 0x80 || c == '\\') // non-ASCII keys: Qt orders them by UTF-16
            return false;
    }
    return true;
}

// One past an integer Qt writes back the same (QByteArray::number of a qint64); nullptr otherwise.
const char *integerEnd(const char *p, const char *end)
{
    const char *start = p;
    if (*p == '-')
        ++p;
    const char *digits = p;
    while (p < end && *p >= '0' && *p <= '9')
        ++p;
    const qsizetype count = p - digits;
    if (count == 0 || count > 15 || (count > 1 && *digits == '0'))
        return nullptr;
    if (*digits == '0' && digits != start) // -0 comes back as 0
        return nullptr;
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E'))
        return nullptr; // a double: Qt writes its shortest form, which may differ
    return p;
}

} // namespace

bool appendIndentedJson(QByteArray *out, QByteArrayView compactJson, int depth)
{
    struct Level
    {
        bool object = false;
        bool empty = true;
        QByteArrayView lastKey;
    };
    QVarLengthArray<Level, 16> open;
    const qsizetype start = out->size();
    const char *p = compactJson.data();
    const char *const end = p + compactJson.size();
    auto fail = [&] {
        out->truncate(start);
        return false;
    };
    auto level = [&] { return depth + int(open.size()); };

    while (true) {
        // A value.
        if (p == end)
            return fail();
        const char c = *p;
        if (c == '{' || c == '[') {
            if (depth + open.size() >= maxLevels - 1)
                return fail();
            out->append(c);
            ++p;
            open.append(Level{c == '{', true, {}});
        } else {
            const char *valueEnd = nullptr;
            if (c == '"')
                valueEnd = stringEnd(p, end);
            else if (c == '-' || (c >= '0' && c <= '9'))
                valueEnd = integerEnd(p, end);
            else if (c == 't' && end - p >= 4 && std::memcmp(p, "true", 4) == 0)
                valueEnd = p + 4;
            else if (c == 'f' && end - p >= 5 && std::memcmp(p, "false", 5) == 0)
                valueEnd = p + 5;
            else if (c == 'n' && end - p >= 4 && std::memcmp(p, "null", 4) == 0)
                valueEnd = p + 4;
            if (!valueEnd)
                return fail();
            out->append(p, valueEnd - p);
            p = valueEnd;
        }

        // What follows: members and elements until one that is a value again, closing as we go.
        while (true) {
            if (open.isEmpty())
                return p == end ? true : fail();
            if (p == end)
                return fail();
            Level &top = open.last();
            const char close = top.object ? '}' : ']';
            if (*p == close) {
                ++p;
                out->append('\n');
                open.removeLast();
                appendIndent(out, level());
                out->append(close);
                continue;
            }
            if (!top.empty) {
                if (*p != ',')
                    return fail();
                ++p;
                out->append(',');
            }
            top.empty = false;
            out->append('\n');
            appendIndent(out, level());
            if (!top.object)
                break; // an element
            // A member: its key, in order, then its value.
            if (p == end || *p != '"')
                return fail();
            const char *keyEnd = stringEnd(p, end);
            if (!keyEnd || keyEnd == end || *keyEnd != ':' || !isPlainKey(p + 1, keyEnd - 1))
                return fail();
            const QByteArrayView key(p + 1, keyEnd - 1 - (p + 1));
            if (!top.lastKey.isNull() && !(top.lastKey < key))
                return fail();
            top.lastKey = key.isNull() ? QByteArrayView("", 0) : key;
            out->append(p, keyEnd - p);
            out->append(": ", 2);
            p = keyEnd + 1;
            break;
        }
    }
}

} // namespace folio
