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

} // namespace

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

} // namespace folio::JsonSlice
