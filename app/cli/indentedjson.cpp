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

// Appends to a QByteArray through a cursor of its own: QByteArray::append() costs a call into
// insert() for every piece, and an indented item is mostly small pieces (a third of a --format
// json walk's instructions went there). It writes into the array's whole capacity, grown
// geometrically; finish() cuts it to what was written.
class Writer
{
public:
    explicit Writer(QByteArray *out)
        : m_out(out)
        , m_size(out->size())
    {}
    qsizetype size() const { return m_size; }
    void put(char c)
    {
        reserve(1);
        m_data[m_size++] = c;
    }
    void put(const char *p, qsizetype n)
    {
        reserve(n);
        std::memcpy(m_data + m_size, p, size_t(n));
        m_size += n;
    }
    void indent(int level)
    {
        reserve(4 * level);
        std::memset(m_data + m_size, ' ', size_t(4 * level));
        m_size += 4 * level;
    }
    void finish(qsizetype size) { m_out->resize(size); }

private:
    void reserve(qsizetype n)
    {
        if (Q_UNLIKELY(m_size + n > m_end))
            grow(n);
    }
    Q_DECL_COLD_FUNCTION Q_NEVER_INLINE void grow(qsizetype n)
    {
        if (m_size + n > m_out->capacity())
            m_out->reserve(qMax(m_size + n, 2 * m_out->capacity() + 256));
        m_out->resize(m_out->capacity()); // the new bytes are not written until used
        m_data = m_out->data();
        m_end = m_out->size();
    }
    QByteArray *m_out;
    char *m_data = nullptr;
    qsizetype m_size;
    qsizetype m_end = -1; // the end of m_data; -1 until the first grow()
};

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
    Writer w(out);
    const char *p = compactJson.data();
    const char *const end = p + compactJson.size();
    auto fail = [&] {
        w.finish(start);
        return false;
    };
    auto done = [&] {
        w.finish(w.size());
        return true;
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
            w.put(c);
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
            w.put(p, valueEnd - p);
            p = valueEnd;
        }

        // What follows: members and elements until one that is a value again, closing as we go.
        while (true) {
            if (open.isEmpty())
                return p == end ? done() : fail();
            if (p == end)
                return fail();
            Level &top = open.last();
            const char close = top.object ? '}' : ']';
            if (*p == close) {
                ++p;
                w.put('\n');
                open.removeLast();
                w.indent(level());
                w.put(close);
                continue;
            }
            if (!top.empty) {
                if (*p != ',')
                    return fail();
                ++p;
                w.put(',');
            }
            top.empty = false;
            w.put('\n');
            w.indent(level());
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
            w.put(p, keyEnd - p);
            w.put(": ", 2);
            p = keyEnd + 1;
            break;
        }
    }
}

} // namespace folio
