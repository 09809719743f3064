#include "wwwauthenticate.h"

#include <QStringDecoder>

#include <optional>

namespace folio {

namespace {

// tchar (RFC 9110 §5.6.2).
bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
        return true;
    default:
        return false;
    }
}

// token68's characters before its trailing '=' (RFC 9110 §11.2).
bool isToken68Char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
}

// OWS, and CR and LF: a field folded over lines (obs-fold) reads as one line.
bool isWhitespace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

QString text(QByteArrayView bytes)
{
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString s = utf8(bytes);
    if (utf8.hasError())
        return QString::fromLatin1(bytes);
    return s;
}

class Reader
{
public:
    explicit Reader(QByteArrayView header)
        : m_s(header)
    {}

    QList<AuthChallenge> read()
    {
        QList<AuthChallenge> out;
        for (;;) {
            skipSeparators();
            if (atEnd())
                return out;
            const qsizetype start = m_pos;
            const QByteArrayView scheme = token();
            if (scheme.isEmpty() || (!atEnd() && peek() != ',' && !isWhitespace(peek()))) {
                // Not a challenge: drop this element.
                m_pos = start;
                skipElement();
                continue;
            }
            AuthChallenge challenge;
            challenge.scheme = QString::fromLatin1(scheme);
            skipWhitespace();
            if (!atEnd() && peek() != ',') {
                if (!readToken68(&challenge.token68))
                    readParams(&challenge);
            }
            out.append(std::move(challenge));
        }
    }

private:
    bool atEnd() const { return m_pos >= m_s.size(); }
    char peek() const { return m_s[m_pos]; }

    void skipWhitespace()
    {
        while (!atEnd() && isWhitespace(peek()))
            ++m_pos;
    }

    // OWS and commas: the gaps between list elements, empty elements included.
    void skipSeparators()
    {
        while (!atEnd() && (isWhitespace(peek()) || peek() == ','))
            ++m_pos;
    }

    QByteArrayView token()
    {
        const qsizetype start = m_pos;
        while (!atEnd() && isTokenChar(peek()))
            ++m_pos;
        return m_s.sliced(start, m_pos - start);
    }

    // Up to the next comma outside a quoted-string (or the end): what cannot be read is dropped.
    void skipElement()
    {
        bool quoted = false;
        while (!atEnd()) {
            const char c = peek();
            if (quoted) {
                if (c == '\\')
                    ++m_pos;
                else if (c == '"')
                    quoted = false;
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                return;
            }
            ++m_pos;
        }
    }

    // token68, then only OWS up to a comma or the end; the position is left as it was otherwise.
    bool readToken68(QString *out)
    {
        qsizetype p = m_pos;
        while (p < m_s.size() && isToken68Char(m_s[p]))
            ++p;
        if (p == m_pos)
            return false;
        while (p < m_s.size() && m_s[p] == '=')
            ++p;
        const qsizetype end = p;
        while (p < m_s.size() && isWhitespace(m_s[p]))
            ++p;
        if (p < m_s.size() && m_s[p] != ',')
            return false;
        *out = QString::fromLatin1(m_s.sliced(m_pos, end - m_pos));
        m_pos = p;
        return true;
    }

    // Whether an auth-param starts here: token BWS "=" (a new challenge starts with a token and
    // then whitespace and something else, a comma or the end).
    bool atParam() const
    {
        qsizetype p = m_pos;
        while (p < m_s.size() && isTokenChar(m_s[p]))
            ++p;
        if (p == m_pos)
            return false;
        while (p < m_s.size() && isWhitespace(m_s[p]))
            ++p;
        return p < m_s.size() && m_s[p] == '=';
    }

    // A quoted-string at the position, unescaped; nullopt (and the position anywhere inside it)
    // when it is unterminated or holds a character it may not.
    std::optional<QString> quotedString()
    {
        ++m_pos; // the opening quote
        QByteArray value;
        while (!atEnd()) {
            const char c = peek();
            ++m_pos;
            if (c == '"')
                return text(value);
            if (c == '\\') {
                if (atEnd())
                    return std::nullopt;
                const char escaped = peek();
                ++m_pos;
                if ((uchar(escaped) < 0x20 && escaped != '\t') || escaped == 0x7f)
                    return std::nullopt;
                value.append(escaped);
                continue;
            }
            if ((uchar(c) < 0x20 && c != '\t') || c == 0x7f)
                return std::nullopt;
            value.append(c);
        }
        return std::nullopt;
    }

    // One auth-param: token BWS "=" BWS ( token / quoted-string ).
    bool readParam(std::pair<QString, QString> *param)
    {
        const QByteArrayView name = token();
        if (name.isEmpty())
            return false;
        skipWhitespace();
        if (atEnd() || peek() != '=')
            return false;
        ++m_pos;
        skipWhitespace();
        if (atEnd())
            return false;
        QString value;
        if (peek() == '"') {
            std::optional<QString> quoted = quotedString();
            if (!quoted)
                return false;
            value = std::move(*quoted);
        } else {
            const QByteArrayView t = token();
            if (t.isEmpty())
                return false;
            value = QString::fromLatin1(t);
        }
        skipWhitespace();
        if (!atEnd() && peek() != ',')
            return false;
        param->first = QString::fromLatin1(name).toLower();
        param->second = std::move(value);
        return true;
    }

    // Whether a challenge starts here: a token, then whitespace, a comma or the end.
    bool atChallenge() const
    {
        qsizetype p = m_pos;
        while (p < m_s.size() && isTokenChar(m_s[p]))
            ++p;
        return p > m_pos && (p == m_s.size() || m_s[p] == ',' || isWhitespace(m_s[p]));
    }

    // #auth-param: parameters up to the end or to the next element that starts a challenge;
    // elements that are neither are dropped.
    void readParams(AuthChallenge *challenge)
    {
        for (;;) {
            const qsizetype start = m_pos;
            std::pair<QString, QString> param;
            if (readParam(&param)) {
                challenge->params.append(std::move(param));
            } else {
                m_pos = start;
                skipElement();
            }
            for (;;) {
                skipSeparators();
                if (atEnd() || atChallenge())
                    return;
                if (atParam())
                    break;
                skipElement();
            }
        }
    }

    QByteArrayView m_s;
    qsizetype m_pos = 0;
};

} // namespace

QString AuthChallenge::param(QStringView name) const
{
    for (const auto &[n, value] : params) {
        if (n.compare(name, Qt::CaseInsensitive) == 0)
            return value.isNull() ? QStringLiteral("") : value;
    }
    return {};
}

QList<AuthChallenge> parseWwwAuthenticate(QByteArrayView header)
{
    return Reader(header).read();
}

} // namespace folio
