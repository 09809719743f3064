#include "jsonslice.h"

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
template<typename OnMember>
bool walkObject(Reader &reader, QByteArrayView name, OnMember onMember)
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

} // namespace

bool resultArrayElements(QByteArrayView raw, QByteArrayView key, QByteArray *arena, QList<quint32> *offsets)
{
    const qsizetype arenaSize = arena->size();
    const qsizetype offsetCount = offsets->size();
    const bool hadOffsets = !offsets->isEmpty();

    auto readArray = [&](Reader &reader) {
        if (!reader.consume('['))
            return false;
        arena->reserve(arena->size() + (raw.data() + raw.size() - reader.pos()));
        if (!hadOffsets)
            offsets->append(quint32(arena->size()));
        if (reader.consume(']'))
            return true;
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
            return reader.consume(']');
        }
    };

    Reader reader(raw.data(), raw.data() + raw.size());
    const bool ok = walkObject(reader, "result",
                               [&](Reader &r) { return walkObject(r, key, readArray); });
    if (!ok) {
        arena->truncate(arenaSize);
        offsets->resize(offsetCount);
    }
    return ok;
}

} // namespace folio::JsonSlice
