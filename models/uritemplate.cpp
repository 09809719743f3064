#include "uritemplate.h"

#include <algorithm>
#include <cctype>

namespace folio {

namespace {

// The operators of RFC 6570 section 3.2.1's table: what starts and joins the expansion, whether
// names are written, and which characters stay as they are.
struct Operator
{
    QString first;
    QChar separator;
    bool named = false;
    bool allowReserved = false;
};

Operator operatorFor(QChar op)
{
    switch (op.unicode()) {
    case '+':
        return {QString(), QLatin1Char(','), false, true};
    case '#':
        return {QStringLiteral("#"), QLatin1Char(','), false, true};
    case '.':
        return {QStringLiteral("."), QLatin1Char('.'), false, false};
    case '/':
        return {QStringLiteral("/"), QLatin1Char('/'), false, false};
    case ';':
        return {QStringLiteral(";"), QLatin1Char(';'), true, false};
    case '?':
        return {QStringLiteral("?"), QLatin1Char('&'), true, false};
    case '&':
        return {QStringLiteral("&"), QLatin1Char('&'), true, false};
    default:
        return {QString(), QLatin1Char(','), false, false};
    }
}

bool isOperator(QChar c)
{
    return QStringLiteral("+#./;?&").contains(c);
}

// Operators RFC 6570 reserves for future use: a template with one cannot be expanded.
bool isReservedOperator(QChar c)
{
    return QStringLiteral("=,!@|").contains(c);
}

bool isVarChar(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
           (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
           (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('_') ||
           c == QLatin1Char('.') || c == QLatin1Char('%');
}

} // namespace

UriTemplate::Part UriTemplate::literalPart(const QString &text)
{
    Part p;
    p.literal = text;
    return p;
}

UriTemplate::UriTemplate(const QString &text)
    : m_text(text)
{
    parse();
}

void UriTemplate::parse()
{
    int i = 0;
    QString literal;
    while (i < m_text.size()) {
        const QChar c = m_text.at(i);
        if (c == QLatin1Char('}')) {
            m_error = QStringLiteral("a '}' at %1 closes no expression").arg(i);
            return;
        }
        if (c != QLatin1Char('{')) {
            literal += c;
            ++i;
            continue;
        }
        const int close = m_text.indexOf(QLatin1Char('}'), i);
        if (close < 0) {
            m_error = QStringLiteral("the '{' at %1 is never closed").arg(i);
            return;
        }
        if (!literal.isEmpty()) {
            m_parts.append(literalPart(literal));
            literal.clear();
        }
        QString body = m_text.mid(i + 1, close - i - 1);
        Part part;
        part.isExpression = true;
        if (!body.isEmpty() && isReservedOperator(body.front())) {
            m_error = QStringLiteral("the operator '%1' is reserved by RFC 6570").arg(body.front());
            return;
        }
        if (!body.isEmpty() && isOperator(body.front())) {
            part.op = body.front();
            body.remove(0, 1);
        }
        for (const QString &spec : body.split(QLatin1Char(','))) {
            VarSpec v;
            QString name = spec;
            if (name.endsWith(QLatin1Char('*'))) {
                v.explode = true;
                name.chop(1);
            }
            const int colon = name.indexOf(QLatin1Char(':'));
            if (colon >= 0) {
                bool ok = false;
                v.prefix = name.mid(colon + 1).toInt(&ok);
                if (!ok || v.prefix <= 0 || v.prefix >= 10000) {
                    m_error = QStringLiteral("'%1' has no valid prefix length").arg(spec);
                    return;
                }
                name.truncate(colon);
            }
            if (name.isEmpty() || !std::all_of(name.cbegin(), name.cend(), isVarChar)) {
                m_error =
                    QStringLiteral("'{%1}' is not a variable name").arg(m_text.mid(i + 1, close - i - 1));
                return;
            }
            v.name = name;
            part.vars.append(v);
        }
        m_parts.append(part);
        i = close + 1;
    }
    if (!literal.isEmpty())
        m_parts.append(literalPart(literal));
}

QStringList UriTemplate::variables() const
{
    QStringList names;
    for (const Part &p : m_parts) {
        for (const VarSpec &v : p.vars) {
            if (!names.contains(v.name))
                names.append(v.name);
        }
    }
    return names;
}

QString UriTemplate::operatorOf(const QString &variable) const
{
    for (const Part &p : m_parts) {
        for (const VarSpec &v : p.vars) {
            if (v.name == variable)
                return p.op.isNull() ? QString() : QString(p.op);
        }
    }
    return {};
}

QString UriTemplate::encode(const QString &text, bool allowReserved)
{
    static const QByteArray unreserved =
        QByteArrayLiteral("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~");
    static const QByteArray reserved = QByteArrayLiteral(":/?#[]@!$&'()*+,;=");
    const QByteArray utf8 = text.toUtf8();
    QString out;
    out.reserve(utf8.size());
    for (int i = 0; i < utf8.size(); ++i) {
        const char c = utf8.at(i);
        const auto isHex = [](char h) { return std::isxdigit(static_cast<unsigned char>(h)) != 0; };
        if (unreserved.contains(c) || (allowReserved && reserved.contains(c))) {
            out += QLatin1Char(c);
        } else if (allowReserved && c == '%' && i + 2 < utf8.size() && isHex(utf8.at(i + 1)) &&
                   isHex(utf8.at(i + 2))) {
            out += QLatin1Char('%');
        } else {
            out += QStringLiteral("%%1").arg(uchar(c), 2, 16, QLatin1Char('0')).toUpper();
        }
    }
    return out;
}

QString UriTemplate::expand(const QHash<QString, QString> &values) const
{
    QString out;
    for (const Part &p : m_parts) {
        if (!p.isExpression) {
            out += p.literal;
            continue;
        }
        const Operator op = operatorFor(p.op);
        bool first = true;
        for (const VarSpec &v : p.vars) {
            const QString value = values.value(v.name);
            if (value.isEmpty())
                continue; // undefined: nothing at all, not even the separator
            out += first ? op.first : QString(op.separator);
            first = false;
            // A prefix counts characters, not bytes (RFC 6570 section 2.4.1).
            const QString cut = v.prefix > 0 ? value.left(v.prefix) : value;
            if (op.named)
                out += encode(v.name, false) + QLatin1Char('=');
            out += encode(cut, op.allowReserved);
        }
    }
    return out;
}

} // namespace folio
