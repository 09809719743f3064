#include "jsonslice.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace folio::JsonSlice {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// A forward reader over JSON text. The text was parsed before, but every step checks its bounds:
// a cut must never read past the text, whatever it holds.
class Reader
{
public:
    Reader(const char *begin, const char *end)
        : m_p(begin)
        , m_end(end)
    {}

    const char *pos() const { return m_p; }

    void skipSpace()
    {
        while (m_p < m_end && isSpace(*m_p))
            ++m_p;
    }

    bool consume(char c)
    {
        skipSpace();
        if (m_p >= m_end || *m_p != c)
            return false;
        ++m_p;
        return true;
    }

    // At an opening quote: moves past the closing one (found with memchr, then checked for an
    // odd run of backslashes before it).
    bool skipString()
    {
        if (m_p >= m_end || *m_p != '"')
            return false;
        const char *p = m_p + 1;
        for (;;) {
            const auto *q = static_cast<const char *>(std::memchr(p, '"', size_t(m_end - p)));
            if (!q)
                return false;
            const char *b = q;
            while (b > p && b[-1] == '\\')
                --b;
            p = q + 1;
            if ((q - b) % 2 == 0)
                break;
        }
        m_p = p;
        return true;
    }

    // A member name and its colon. *plain is false when the name has escapes: compared raw, such a
    // name could equal the one looked for once decoded.
    bool readName(QByteArrayView *name, bool *plain)
    {
        skipSpace();
        const char *start = m_p + 1;
        if (!skipString())
            return false;
        *name = QByteArrayView(start, m_p - 1 - start);
        *plain = !name->contains('\\');
        return consume(':');
    }

    // One member, "name": value, with the raw text of the name (between its quotes) and the value.
    bool readMember(QByteArrayView *name, QByteArrayView *value)
    {
        skipSpace();
        const char *nameStart = m_p + 1;
        if (!skipString())
            return false;
        *name = QByteArrayView(nameStart, m_p - 1 - nameStart);
        if (!consume(':'))
            return false;
        skipSpace();
        const char *valueStart = m_p;
        bool spaced = false;
        if (!skipValue(&spaced))
            return false;
        *value = QByteArrayView(valueStart, m_p - valueStart);
        return true;
    }

    // Moves past one value. *spaced tells whether whitespace occurred between its tokens.
    bool skipValue(bool *spaced)
    {
        skipSpace();
        if (m_p >= m_end)
            return false;
        if (*m_p == '"')
            return skipString();
        if (*m_p == '{' || *m_p == '[') {
            int depth = 0;
            while (m_p < m_end) {
                const char c = *m_p;
                if (c == '"') {
                    if (!skipString())
                        return false;
                    continue;
                }
                ++m_p;
                if (c == '{' || c == '[')
                    ++depth;
                else if ((c == '}' || c == ']') && --depth == 0)
                    return true;
                else if (isSpace(c))
                    *spaced = true;
            }
            return false;
        }
        // A number, true, false or null.
        const char *start = m_p;
        while (m_p < m_end && !isSpace(*m_p) && *m_p != ',' && *m_p != '}' && *m_p != ']')
            ++m_p;
        return m_p > start;
    }

private:
    const char *m_p;
    const char *m_end;
};

// Appends value text with the whitespace between its tokens removed.
void appendCompact(QByteArray *out, QByteArrayView text)
{
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out->append(c);
            if (c == '\\' && i + 1 < text.size())
                out->append(text[++i]);
            else if (c == '"')
                inString = false;
        } else if (!isSpace(c)) {
            out->append(c);
            inString = c == '"';
        }
    }
}

// Walks an object's members once. For the member named name, calls onMember(reader) with the
// reader at its value; onMember must move past the value and return whether it could. Fails when
// the name is not there or there twice, when any name has escapes, or when the object is not
// well formed.
template<typename OnMember> bool walkObject(Reader &reader, QByteArrayView name, OnMember onMember)
{
    if (!reader.consume('{'))
        return false;
    if (reader.consume('}'))
        return false;
    bool found = false;
    for (;;) {
        QByteArrayView member;
        bool plain = true;
        if (!reader.readName(&member, &plain))
            return false;
        if (!plain)
            return false; // it might decode to name: leave such text to the parser
        if (member == name) {
            if (found)
                return false; // given twice: which one a parser keeps is its own choice
            found = true;
            if (!onMember(reader))
                return false;
        } else {
            bool spaced = false;
            if (!reader.skipValue(&spaced))
                return false;
        }
        if (reader.consume(','))
            continue;
        return reader.consume('}') && found;
    }
}

// A strict recursive-descent check of JSON text; builds nothing.
class Validator
{
public:
    explicit Validator(QByteArrayView text)
        : m_p(reinterpret_cast<const unsigned char *>(text.data()))
        , m_end(m_p + text.size())
    {}

    bool document()
    {
        space();
        if (!value(0))
            return false;
        space();
        return m_p == m_end;
    }

private:
    static constexpr int maxDepth = 1024;

    void space()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    bool literal(const char *word, qsizetype size)
    {
        if (m_end - m_p < size || std::memcmp(m_p, word, size_t(size)) != 0)
            return false;
        m_p += size;
        return true;
    }

    bool value(int depth)
    {
        if (m_p >= m_end)
            return false;
        switch (*m_p) {
        case '{':
            return container(depth + 1, '}');
        case '[':
            return container(depth + 1, ']');
        case '"':
            return string();
        case 't':
            return literal("true", 4);
        case 'f':
            return literal("false", 5);
        case 'n':
            return literal("null", 4);
        default:
            return number();
        }
    }

    // An object ('{' members '}') or an array ('[' values ']'); m_p at the opening bracket.
    bool container(int depth, char close)
    {
        if (depth > maxDepth)
            return false;
        const bool members = close == '}';
        ++m_p;
        space();
        if (m_p < m_end && *m_p == close) {
            ++m_p;
            return true;
        }
        for (;;) {
            if (members) {
                if (m_p >= m_end || *m_p != '"' || !string())
                    return false;
                space();
                if (m_p >= m_end || *m_p != ':')
                    return false;
                ++m_p;
                space();
            }
            if (!value(depth))
                return false;
            space();
            if (m_p >= m_end)
                return false;
            if (*m_p == close) {
                ++m_p;
                return true;
            }
            if (*m_p != ',')
                return false;
            ++m_p;
            space();
        }
    }

    static bool isHex(unsigned char c)
    {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    // Bytes that end a run of plain string content: '"', '\\', controls and non-ASCII.
    static constexpr std::array<bool, 256> stringStops = [] {
        std::array<bool, 256> t{};
        for (int c = 0; c < 256; ++c)
            t[size_t(c)] = c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
        return t;
    }();

    bool string()
    {
        ++m_p; // "
        while (m_p < m_end) {
            while (m_p < m_end && !stringStops[*m_p])
                ++m_p; // plain ASCII: most of a page
            if (m_p >= m_end)
                return false;
            const unsigned char c = *m_p;
            if (c == '"') {
                ++m_p;
                return true;
            }
            if (c < 0x20)
                return false;
            if (c == '\\') {
                if (m_end - m_p < 2)
                    return false;
                const unsigned char e = m_p[1];
                if (e == 'u') {
                    if (m_end - m_p < 6 || !isHex(m_p[2]) || !isHex(m_p[3]) || !isHex(m_p[4]) ||
                        !isHex(m_p[5]))
                        return false;
                    m_p += 6;
                } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' ||
                           e == 'r' || e == 't') {
                    m_p += 2;
                } else {
                    return false;
                }
            } else if (c < 0x80) {
                ++m_p;
            } else if (!utf8()) {
                return false;
            }
        }
        return false;
    }

    // One multi-byte UTF-8 sequence: no overlong forms, no surrogates, nothing past U+10FFFF.
    bool utf8()
    {
        const unsigned char c = *m_p;
        int extra = 0;
        char32_t min = 0;
        char32_t u = 0;
        if (c >= 0xc2 && c <= 0xdf) {
            extra = 1;
            min = 0x80;
            u = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            extra = 2;
            min = 0x800;
            u = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            extra = 3;
            min = 0x10000;
            u = c & 0x07;
        } else {
            return false;
        }
        if (m_end - m_p <= extra)
            return false;
        for (int i = 1; i <= extra; ++i) {
            if ((m_p[i] & 0xc0) != 0x80)
                return false;
            u = (u << 6) | (m_p[i] & 0x3f);
        }
        if (u < min || u > 0x10ffff || (u >= 0xd800 && u <= 0xdfff))
            return false;
        m_p += extra + 1;
        return true;
    }

    bool number()
    {
        const unsigned char *start = m_p;
        auto digits = [this] {
            const unsigned char *from = m_p;
            while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
            return m_p > from;
        };
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        if (m_p < m_end && *m_p == '0')
            ++m_p;
        else if (!digits())
            return false;
        if (m_p < m_end && *m_p == '.') {
            ++m_p;
            if (!digits())
                return false;
        }
        bool fraction = false;
        if (m_p < m_end && (*m_p == 'e' || *m_p == 'E')) {
            fraction = true;
            ++m_p;
            if (m_p < m_end && (*m_p == '+' || *m_p == '-'))
                ++m_p;
            if (!digits())
                return false;
        }
        const auto size = m_p - start;
        fraction = fraction || std::memchr(start, '.', size_t(size)) != nullptr;
        // Qt refuses a number that overflows a double or underflows to zero: so must this. Short
        // integers cannot; anything else is converted to find out.
        if (fraction || size > 15)
            return representable(QByteArray(reinterpret_cast<const char *>(start), size));
        return true;
    }

    static bool representable(const QByteArray &number)
    {
        const double d = std::strtod(number.constData(), nullptr);
        if (!std::isfinite(d))
            return false;
        if (d == 0.0) {
            // Zero is fine only when every digit of the mantissa is.
            for (const char c : number) {
                if (c == 'e' || c == 'E')
                    break;
                if (c >= '1' && c <= '9')
                    return false;
            }
        }
        return true;
    }

    const unsigned char *m_p;
    const unsigned char *m_end;
};

} // namespace

bool isValid(QByteArrayView text)
{
    return Validator(text).document();
}

bool firstMember(QByteArrayView object, QByteArrayView name, QByteArrayView *value)
{
    Reader reader(object.data(), object.data() + object.size());
    if (!reader.consume('{') || reader.consume('}'))
        return false;
    for (;;) {
        QByteArrayView member;
        QByteArrayView memberValue;
        if (!reader.readMember(&member, &memberValue))
            return false;
        if (member == name) {
            *value = memberValue;
            return true;
        }
        if (!reader.consume(','))
            return false;
    }
}

bool pickMembers(QByteArrayView object, const QByteArrayView *names, QByteArrayView *values, int count)
{
    Reader reader(object.data(), object.data() + object.size());
    if (!reader.consume('{'))
        return false;
    if (reader.consume('}'))
        return true;
    for (;;) {
        QByteArrayView name;
        QByteArrayView value;
        if (!reader.readMember(&name, &value))
            return false;
        for (int i = 0; i < count; ++i) {
            if (name == names[i])
                values[i] = value;
        }
        if (reader.consume(','))
            continue;
        return reader.consume('}');
    }
}

namespace {

// resultArrayElements(), also telling where the array's text starts ('[') and ends (after ']').
bool cutResultArray(QByteArrayView raw, QByteArrayView key, QByteArray *arena, QList<quint32> *offsets,
                    const char **arrayBegin, const char **arrayEnd)
{
    const qsizetype arenaSize = arena->size();
    const qsizetype offsetCount = offsets->size();
    const bool hadOffsets = !offsets->isEmpty();

    auto readArray = [&](Reader &reader) {
        reader.skipSpace();
        *arrayBegin = reader.pos();
        if (!reader.consume('['))
            return false;
        arena->reserve(arena->size() + (raw.data() + raw.size() - reader.pos()));
        if (!hadOffsets)
            offsets->append(quint32(arena->size()));
        if (!reader.consume(']')) {
            for (;;) {
                reader.skipSpace();
                const char *start = reader.pos();
                bool spaced = false;
                if (!reader.skipValue(&spaced))
                    return false;
                const QByteArrayView element(start, reader.pos() - start);
                if (spaced)
                    appendCompact(arena, element);
                else
                    arena->append(element);
                offsets->append(quint32(arena->size()));
                if (reader.consume(','))
                    continue;
                if (!reader.consume(']'))
                    return false;
                break;
            }
        }
        *arrayEnd = reader.pos();
        return true;
    };

    Reader reader(raw.data(), raw.data() + raw.size());
    const bool ok = walkObject(reader, "result", [&](Reader &r) { return walkObject(r, key, readArray); });
    if (!ok) {
        arena->truncate(arenaSize);
        offsets->resize(offsetCount);
    }
    return ok;
}

} // namespace

bool resultArrayElements(QByteArrayView raw, QByteArrayView key, QByteArray *arena, QList<quint32> *offsets)
{
    const char *begin = nullptr;
    const char *end = nullptr;
    return cutResultArray(raw, key, arena, offsets, &begin, &end);
}

bool takeResultArray(QByteArrayView raw, QByteArrayView key, QByteArray *arena, QList<quint32> *offsets,
                     QByteArray *rest)
{
    const char *begin = nullptr;
    const char *end = nullptr;
    if (!cutResultArray(raw, key, arena, offsets, &begin, &end))
        return false;
    rest->clear();
    rest->reserve(raw.size() - (end - begin) + 2);
    rest->append(raw.data(), begin - raw.data());
    rest->append("[]");
    rest->append(end, raw.data() + raw.size() - end);
    return true;
}

} // namespace folio::JsonSlice
