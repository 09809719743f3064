#include "secretmask.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QReadWriteLock>
#include <QRegularExpression>
#include <QSet>
#include <QUrlQuery>

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace folio {

namespace SecretMask {

namespace {

const QString masked = QStringLiteral("[redacted]");

// A name's words, lower case: split at '-', '_', '.', ' ' and where lower case turns upper
// (accessToken: access, token).
QStringList wordsOf(QStringView name)
{
    QStringList words;
    QString word;
    QChar previous;
    for (const QChar c : name) {
        const bool separator =
            c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.') || c == QLatin1Char(' ');
        if (separator || (c.isUpper() && previous.isLower())) {
            if (!word.isEmpty())
                words << word;
            word.clear();
        }
        if (!separator)
            word += c.toLower();
        previous = c;
    }
    if (!word.isEmpty())
        words << word;
    return words;
}

bool isSecretWord(const QString &word)
{
    static const QSet<QString> secretWords{
        QStringLiteral("token"),       QStringLiteral("tokens"),        QStringLiteral("key"),
        QStringLiteral("apikey"),      QStringLiteral("secret"),        QStringLiteral("secrets"),
        QStringLiteral("password"),    QStringLiteral("passwd"),        QStringLiteral("passphrase"),
        QStringLiteral("pat"),         QStringLiteral("auth"),          QStringLiteral("bearer"),
        QStringLiteral("credential"),  QStringLiteral("credentials"),   QStringLiteral("cookie"),
        QStringLiteral("accesstoken"), QStringLiteral("authorization"), QStringLiteral("sig"),
        QStringLiteral("signature")};
    return secretWords.contains(word);
}

// A flag's name, its dashes off; empty when word is no flag.
QStringView flagName(QStringView word)
{
    if (word.size() < 2 || word.at(0) != QLatin1Char('-'))
        return {};
    return word.at(1) == QLatin1Char('-') ? word.mid(2) : word.mid(1);
}

// NAME of a NAME=value assignment (a shell variable name), or empty.
QStringView assignedName(QStringView word)
{
    const qsizetype eq = word.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return {};
    const QStringView name = word.left(eq);
    for (qsizetype i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        const bool ok = c == QLatin1Char('_') || (c.unicode() < 0x80 && c.isLetter()) ||
                        (i > 0 && c.unicode() < 0x80 && c.isDigit());
        if (!ok)
            return {};
    }
    return name;
}

// The value of a "Name: value" header argument with a secret name (-H 'Authorization: Bearer x'),
// from where it starts; -1 when word is none.
qsizetype headerValueStart(QStringView word)
{
    const qsizetype colon = word.indexOf(QLatin1Char(':'));
    if (colon <= 0 || word.startsWith(QLatin1Char('-')))
        return -1;
    const QStringView name = word.left(colon);
    for (const QChar c : name) {
        if (!(c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_')) || c.unicode() >= 0x80)
            return -1;
    }
    if (!isSecretHeader(name.toLatin1()))
        return -1;
    qsizetype v = colon + 1;
    while (v < word.size() && word.at(v).isSpace())
        ++v;
    // Keep the scheme ("Bearer", "Basic"): it says what kind of secret it is.
    const qsizetype space = word.indexOf(QLatin1Char(' '), v);
    if (space > v && name.compare(QLatin1StringView("authorization"), Qt::CaseInsensitive) == 0)
        v = space + 1;
    return v < word.size() ? v : -1;
}

// One pass over a command line: the words masked, and (when secrets is given) the values masked.
QStringList walkCommandLine(const QStringList &words, QStringList *secrets)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    QStringList out;
    out.reserve(words.size());
    bool valueNext = false;
    auto maskValue = [&](const QString &kept, const QString &value) {
        if (secrets && value != masked)
            *secrets << value;
        out << kept + masked;
    };
    for (const QString &word : words) {
        if (valueNext) {
            valueNext = false;
            if (!word.startsWith(QLatin1String("--"))) {
                maskValue(QString(), word);
                continue;
            }
        }
        // --flag=value and NAME=value, whatever the value holds.
        const QStringView flag = flagName(word);
        const qsizetype eq = flag.indexOf(QLatin1Char('='));
        if (!flag.isEmpty() && eq >= 0) {
            const QString name = word.left(word.size() - flag.size() + eq);
            if (isSecretFlag(name) && eq + 1 < flag.size()) {
                maskValue(name + QLatin1Char('='), flag.mid(eq + 1).toString());
                continue;
            }
        }
        const QStringView variable = assignedName(word);
        if (!variable.isEmpty() && isSecretVariable(variable) && word.size() > variable.size() + 1) {
            maskValue(variable.toString() + QLatin1Char('='), word.mid(variable.size() + 1));
            continue;
        }
        if (const qsizetype v = headerValueStart(word); v >= 0) {
            maskValue(word.left(v), word.mid(v));
            continue;
        }
        if (word.contains(space)) {
            // sh -c 'server --token X': a command line of its own. Split at white space, keeping it.
            QStringList inner, gaps;
            qsizetype at = 0;
            for (auto it = space.globalMatch(word); it.hasNext();) {
                const auto m = it.next();
                inner << word.mid(at, m.capturedStart() - at);
                gaps << m.captured();
                at = m.capturedEnd();
            }
            inner << word.mid(at);
            const QStringList maskedInner = walkCommandLine(inner, secrets);
            QString joined;
            for (qsizetype i = 0; i < maskedInner.size(); ++i)
                joined += maskedInner.at(i) + (i < gaps.size() ? gaps.at(i) : QString());
            out << joined;
            continue;
        }
        if (!flag.isEmpty() && eq < 0)
            valueNext = isSecretFlag(word);
        out << word;
    }
    return out;
}

// The items of a query or fragment ("a=1&b=2") with the values of secret items masked.
QString maskItems(QStringView items, QStringList *secrets)
{
    QString out;
    const auto parts = items.split(QLatin1Char('&'));
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QStringView part = parts.at(i);
        if (i > 0)
            out += QLatin1Char('&');
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        const QString name = eq < 0 ? QString()
                                    : QUrl::fromPercentEncoding(part.left(eq).toUtf8())
                                          .replace(QLatin1Char('+'), QLatin1Char(' '));
        if (eq > 0 && eq + 1 < part.size() && isSecretQueryItem(name)) {
            const QStringView value = part.mid(eq + 1);
            if (secrets && value != masked) {
                *secrets << value.toString();
                const QString decoded = QUrl::fromPercentEncoding(value.toUtf8());
                if (decoded != value)
                    *secrets << decoded;
            }
            out += part.left(eq + 1);
            out += masked;
        } else {
            out += part;
        }
    }
    return out;
}

// Where a URL's "://" is when it starts with a scheme (RFC 3986: a letter, then letters, digits,
// '+', '-' or '.'), or -1. A "://" further on is not the URL's own: it is text in a query or
// fragment, which a first pass would mask as a value and a second as a user-info.
qsizetype schemeSeparator(const QString &url)
{
    const auto letter = [](QChar c) { return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z'); };
    const auto schemeChar = [&](QChar c) {
        return letter(c) || (c >= u'0' && c <= u'9') || c == u'+' || c == u'-' || c == u'.';
    };
    if (url.isEmpty() || !letter(url.front()))
        return -1;
    qsizetype i = 1;
    while (i < url.size() && schemeChar(url.at(i)))
        ++i;
    return QStringView(url).mid(i).startsWith(u"://") ? i : -1;
}

QString walkUrl(const QString &url, QStringList *secrets)
{
    const qsizetype scheme = schemeSeparator(url);
    qsizetype authorityStart = scheme < 0 ? 0 : scheme + 3;
    QString out;
    qsizetype at = 0;
    if (scheme >= 0) {
        qsizetype authorityEnd = authorityStart;
        while (authorityEnd < url.size() && url.at(authorityEnd) != QLatin1Char('/') &&
               url.at(authorityEnd) != QLatin1Char('?') && url.at(authorityEnd) != QLatin1Char('#'))
            ++authorityEnd;
        const qsizetype atSign = url.lastIndexOf(QLatin1Char('@'), authorityEnd - 1);
        if (atSign >= authorityStart) {
            const QStringView userInfo = QStringView(url).mid(authorityStart, atSign - authorityStart);
            const qsizetype colon = userInfo.indexOf(QLatin1Char(':'));
            // user:password@ keeps the user; a bare user@ is a token as often as a name (git).
            const qsizetype secretStart = colon < 0 ? 0 : colon + 1;
            const QStringView secret = userInfo.mid(secretStart);
            out += url.left(authorityStart);
            out += userInfo.left(secretStart);
            if (!secret.isEmpty() && secret != masked) {
                if (secrets) {
                    *secrets << secret.toString();
                    const QString decoded = QUrl::fromPercentEncoding(secret.toUtf8());
                    if (decoded != secret)
                        *secrets << decoded;
                }
                out += masked;
            } else {
                out += secret;
            }
            at = atSign;
        }
    }
    const qsizetype query = url.indexOf(QLatin1Char('?'), at);
    const qsizetype fragment = url.indexOf(QLatin1Char('#'), at);
    const qsizetype queryEnd = fragment >= 0 && fragment > query ? fragment : url.size();
    if (query >= 0 && (fragment < 0 || query < fragment)) {
        out += QStringView(url).mid(at, query + 1 - at);
        out += maskItems(QStringView(url).mid(query + 1, queryEnd - query - 1), secrets);
        at = queryEnd;
    }
    if (fragment >= 0) {
        out += QStringView(url).mid(at, fragment + 1 - at);
        out += maskItems(QStringView(url).mid(fragment + 1), secrets);
    } else {
        out += QStringView(url).mid(at);
    }
    return out;
}

// The forms a known secret is looked for in: as it is, percent-encoded, JSON-escaped. Without the
// ones too short to mask or part of the mask itself.
QStringList searchForms(const QStringList &secrets)
{
    QStringList forms;
    for (const QString &secret : secrets) {
        if (secret.size() < MinSecretLength || masked.contains(secret))
            continue;
        const QString percent = QString::fromLatin1(QUrl::toPercentEncoding(secret));
        QString json = QString::fromUtf8(QJsonDocument(QJsonArray{secret}).toJson(QJsonDocument::Compact));
        json = json.mid(2, json.size() - 4);
        for (const QString &form : {secret, percent, json}) {
            if (!forms.contains(form))
                forms << form;
        }
    }
    return forms;
}

// Every occurrence of each form covered, the covered spans merged, each replaced by the mask.
template<typename Text>
std::optional<Text> maskSpans(const Text &text, const QList<Text> &forms, const Text &mask)
{
    QList<std::pair<qsizetype, qsizetype>> spans;
    for (const Text &form : forms) {
        for (qsizetype at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1))
            spans.append({at, at + form.size()});
    }
    if (spans.isEmpty())
        return std::nullopt; // the usual case: no copy, no comparison
    std::sort(spans.begin(), spans.end());
    Text out;
    qsizetype copied = 0;
    for (qsizetype i = 0; i < spans.size();) {
        qsizetype start = spans.at(i).first, end = spans.at(i).second;
        for (++i; i < spans.size() && spans.at(i).first <= end; ++i)
            end = std::max(end, spans.at(i).second);
        out += text.mid(copied, start - copied);
        out += mask;
        copied = end;
    }
    out += text.mid(copied);
    return out;
}

// maskSpans() again while a form still shows (one made by a mask next to the text: a secret
// holding "[" or "]"), a few times at most.
template<typename Text> Text maskAll(const Text &text, const QList<Text> &forms, const Text &mask)
{
    Text out = text;
    for (int pass = 0; pass < 4; ++pass) {
        std::optional<Text> next = maskSpans(out, forms, mask);
        if (!next)
            break;
        out = std::move(*next);
    }
    return out;
}

// The abbreviations (abbreviate(), abbreviateExchange()): an OAuth exchange's form, JSON and URL.
QByteArray abbreviateForm(const QByteArray &body)
{
    QUrlQuery query(QString::fromUtf8(body));
    bool changed = false;
    auto items = query.queryItems(QUrl::FullyDecoded);
    for (auto &[name, value] : items) {
        if (isSecretQueryItem(name)) {
            value = abbreviate(value);
            changed = true;
        }
    }
    if (!changed)
        return body;
    QUrlQuery masked;
    masked.setQueryItems(items);
    return masked.toString(QUrl::FullyEncoded).toUtf8();
}

QJsonValue abbreviateJson(const QJsonValue &value)
{
    if (value.isObject()) {
        QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (isSecretQueryItem(it.key()) && it.value().isString())
                it.value() = abbreviate(it.value().toString());
            else
                it.value() = abbreviateJson(it.value());
        }
        return o;
    }
    if (value.isArray()) {
        QJsonArray a = value.toArray();
        for (auto it = a.begin(); it != a.end(); ++it)
            *it = abbreviateJson(*it);
        return a;
    }
    return value;
}

QByteArray abbreviateBody(const QByteArray &body)
{
    if (body.isEmpty())
        return body;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error == QJsonParseError::NoError && doc.isObject())
        return QJsonDocument(abbreviateJson(doc.object()).toObject()).toJson(QJsonDocument::Compact);
    if (body.contains('=') && !body.contains('{'))
        return abbreviateForm(body);
    return body;
}

QString abbreviateUrl(const QString &url)
{
    QUrl u(url);
    if (!u.hasQuery())
        return url;
    QUrlQuery query(u);
    auto items = query.queryItems(QUrl::FullyDecoded);
    bool changed = false;
    for (auto &[name, value] : items) {
        if (isSecretQueryItem(name)) {
            value = abbreviate(value);
            changed = true;
        }
    }
    if (!changed)
        return url;
    QUrlQuery masked;
    masked.setQueryItems(items);
    u.setQuery(masked);
    return u.toString();
}

QReadWriteLock knownLock;
QStringList knownSecrets;

} // namespace

QString maskedText()
{
    return masked;
}

bool isSecretFlag(QStringView flag)
{
    if (flag == QLatin1StringView("-t"))
        return true;
    // One letter is too little to tell (-k, -p); a single dash before a word is Go's --.
    const QStringView name = flagName(flag);
    if (name.size() < 2)
        return false;
    const QStringList words = wordsOf(name);
    return !words.isEmpty() && isSecretWord(words.constLast());
}

bool isSecretVariable(QStringView name)
{
    // SESSION too (a session cookie's value); PWD is no password but the working directory.
    const QStringList words = wordsOf(name);
    return std::any_of(words.cbegin(), words.cend(),
                       [](const QString &w) { return isSecretWord(w) || w == QLatin1String("session"); });
}

bool isSecretQueryItem(QStringView name)
{
    static const QSet<QString> names{QStringLiteral("code"), QStringLiteral("key"), QStringLiteral("sig"),
                                     QStringLiteral("signature"), QStringLiteral("x-amz-signature"),
                                     QStringLiteral("x-amz-credential"),
                                     QStringLiteral("x-amz-security-token"), QStringLiteral("code_verifier"),
                                     // A signed JWT is a credential: a client assertion (RFC 7523),
                                     // a workload's or an ID-JAG grant.
                                     QStringLiteral("assertion"), QStringLiteral("client_assertion")};
    if (names.contains(name.toString().toLower()))
        return true;
    const QStringList words = wordsOf(name);
    return !words.isEmpty() && isSecretWord(words.constLast());
}

bool isSecretHeader(QByteArrayView name)
{
    // A DPoP proof is good for its request for minutes (RFC 9449 §11.1): shown decoded, not raw.
    for (const char *secret : {"authorization", "proxy-authorization", "cookie", "set-cookie", "dpop"}) {
        if (name.compare(QByteArrayView(secret), Qt::CaseInsensitive) == 0)
            return true;
    }
    const QByteArray lower = name.toByteArray().toLower();
    return lower.contains("token") || lower.contains("secret") || lower.contains("key");
}

QStringList maskCommandLine(const QStringList &words)
{
    return walkCommandLine(words, nullptr);
}

QStringList secretsInCommandLine(const QStringList &words)
{
    QStringList secrets;
    walkCommandLine(words, &secrets);
    return secrets;
}

QString maskUrl(const QString &url)
{
    return walkUrl(url, nullptr);
}

QString maskUrl(const QUrl &url)
{
    return walkUrl(url.toString(), nullptr);
}

QStringList secretsInUrl(const QUrl &url)
{
    QStringList secrets;
    walkUrl(url.toString(), &secrets);
    walkUrl(url.toString(QUrl::FullyEncoded), &secrets);
    secrets.removeDuplicates();
    return secrets;
}

QString maskUrlsIn(const QString &text)
{
    static const QRegularExpression url(QStringLiteral(R"((?i)\bhttps?://[^\s"'<>`]+)"));
    if (!text.contains(QLatin1String("://")))
        return text;
    QString out;
    qsizetype at = 0;
    for (auto it = url.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        out += QStringView(text).mid(at, m.capturedStart() - at);
        out += maskUrl(m.captured());
        at = m.capturedEnd();
    }
    out += QStringView(text).mid(at);
    return out;
}

HttpExchange::Headers maskHeaders(const HttpExchange::Headers &headers, const QStringList &known)
{
    HttpExchange::Headers out = headers;
    for (auto &[name, value] : out)
        value = isSecretHeader(name) ? masked.toUtf8() : maskKnown(value, known);
    return out;
}

QString maskKnown(const QString &text, const QStringList &secrets)
{
    if (secrets.isEmpty() || text.isEmpty())
        return text;
    return maskAll<QString>(text, searchForms(secrets), masked);
}

QByteArray maskKnown(const QByteArray &text, const QStringList &secrets)
{
    if (secrets.isEmpty() || text.isEmpty())
        return text;
    QList<QByteArray> forms;
    for (const QString &form : searchForms(secrets))
        forms << form.toUtf8();
    return maskAll<QByteArray>(text, forms, masked.toUtf8());
}

QJsonValue maskKnown(const QJsonValue &value, const QStringList &secrets)
{
    if (secrets.isEmpty())
        return value;
    if (value.isString())
        return maskKnown(value.toString(), secrets);
    if (value.isArray()) {
        QJsonArray a = value.toArray();
        for (auto it = a.begin(); it != a.end(); ++it)
            *it = maskKnown(QJsonValue(*it), secrets);
        return a;
    }
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        QJsonObject out;
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            out.insert(maskKnown(it.key(), secrets), maskKnown(it.value(), secrets));
        return out;
    }
    return value;
}

bool mayCarryCredentials(const QByteArray &text)
{
    // Each word is looked for only where its anchor, a letter rare in prose, occurs, and counts
    // only in the places the patterns in maskCredentials() look for it: as a header name at the
    // start of a line (or after "proxy-", "set-", "x-") followed by a colon, as a JSON member name
    // in quotes, or as "bearer" after a non-word character and before white space. So a tool
    // named regenerate_webhook_token, or prose about tokens, is not a reason to run them.
    enum Where : uchar { Header = 1, Member = 2, Bearer = 4 };
    struct Word
    {
        char anchor;
        qsizetype offset; // of the anchor in the word
        std::string_view word;
        uchar where;
    };
    static constexpr Word words[] = {
        {'z', 7, "authorization", Header | Member},
        {'k', 3, "cookie", Header},
        {'k', 4, "api-key", Header},
        {'k', 4, "api_key", Member},
        {'k', 3, "apikey", Member},
        {'k', 2, "token", Member},
        {'k', 9, "access_token", Member},
        {'k', 10, "refresh_token", Member},
        {'k', 5, "id_token", Member},
        {'_', 6, "client_secret", Member},
        {'w', 4, "password", Member},
        {'b', 0, "bearer", Bearer},
    };
    enum : uchar { Plain, Anchor, NonAscii };
    static const auto kinds = [] {
        std::array<uchar, 256> k{};
        for (int c = 0x80; c < 0x100; ++c)
            k[c] = NonAscii;
        for (const Word &w : words) {
            k[uchar(w.anchor)] = Anchor;
            k[uchar(QChar::toUpper(char16_t(w.anchor)))] = Anchor;
        }
        return k;
    }();
    const auto lower = [](uchar c) { return c >= 'A' && c <= 'Z' ? uchar(c + ('a' - 'A')) : c; };
    const auto isSpace = [](uchar c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
    const auto isWordChar = [](uchar c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    };
    const auto *data = reinterpret_cast<const uchar *>(text.constData());
    const qsizetype size = text.size();
    const auto at = [&](qsizetype i) -> int { return i >= 0 && i < size ? data[i] : -1; };
    const auto inPlace = [&](const Word &w, qsizetype start) {
        const qsizetype end = start + qsizetype(w.word.size());
        const int before = at(start - 1);
        if ((w.where & Member) && before == '"' && at(end) == '"')
            return true;
        if ((w.where & Header) && (before == -1 || before == '\n' || before == '\r' || before == '-')) {
            qsizetype i = end;
            while (i < size && isSpace(data[i]))
                ++i;
            if (at(i) == ':')
                return true;
        }
        return (w.where & Bearer) && (before == -1 || !isWordChar(uchar(before))) && end < size &&
               isSpace(data[end]);
    };
    for (qsizetype i = 0; i < size; ++i) {
        const uchar kind = kinds[data[i]];
        if (kind == Plain)
            continue;
        if (kind == NonAscii) {
            // Caseless matching folds two non-ASCII letters onto letters of the words: the Kelvin
            // sign (U+212A) onto k, the long s (U+017F) onto s. Text with either takes the full path.
            if ((data[i] == 0xE2 && at(i + 1) == 0x84 && at(i + 2) == 0xAA) ||
                (data[i] == 0xC5 && at(i + 1) == 0xBF))
                return true;
            continue;
        }
        const uchar anchor = lower(data[i]);
        for (const Word &w : words) {
            const qsizetype start = i - w.offset;
            if (uchar(w.anchor) != anchor || start < 0 || start + qsizetype(w.word.size()) > size)
                continue;
            qsizetype k = 0;
            while (k < qsizetype(w.word.size()) && lower(data[start + k]) == uchar(w.word[k]))
                ++k;
            if (k == qsizetype(w.word.size()) && inPlace(w, start))
                return true;
        }
    }
    return false;
}

QByteArray maskCredentials(const QByteArray &text)
{
    // Header lines and JSON members that carry credentials, whatever their value.
    static const QRegularExpression header(
        QStringLiteral(R"((?im)^((?:proxy-)?authorization|cookie|set-cookie|x-api-key|api-key)\s*:\s*.*$)"));
    static const QRegularExpression bearer(QStringLiteral(R"((?i)\bbearer\s+[A-Za-z0-9._~+/=-]+)"));
    static const QRegularExpression jsonMember(QStringLiteral(
        R"re((?i)("(?:authorization|access_token|refresh_token|id_token|client_secret|password|api_?key|token)"\s*:\s*)"(?:[^"\\]|\\.)*")re"));
    QString s = QString::fromUtf8(text);
    const QString before = s;
    s.replace(header, QStringLiteral("\\1: [redacted]"));
    s.replace(bearer, QStringLiteral("Bearer [redacted]"));
    s.replace(jsonMember, QStringLiteral("\\1\"[redacted]\""));
    return s == before ? text : s.toUtf8();
}

QByteArray maskMessage(const QByteArray &text, const QStringList &secrets)
{
    const QByteArray out = maskKnown(text, secrets);
    if (!mayCarryCredentials(out))
        return out;
    // Known values again: what maskCredentials() writes ("Bearer [redacted]") could spell one.
    const QByteArray credentials = maskCredentials(out);
    return credentials == out ? out : maskKnown(credentials, secrets);
}

QJsonValue maskMessage(const QJsonValue &value, const QStringList &secrets)
{
    const QJsonValue known = maskKnown(value, secrets);
    if (known.isString()) {
        const QByteArray text = known.toString().toUtf8();
        const QByteArray out = maskMessage(text, secrets);
        return out == text ? known : QJsonValue(QString::fromUtf8(out));
    }
    if (!known.isObject() && !known.isArray())
        return known;
    const QByteArray text = known.isObject() ? QJsonDocument(known.toObject()).toJson(QJsonDocument::Compact)
                                             : QJsonDocument(known.toArray()).toJson(QJsonDocument::Compact);
    if (!mayCarryCredentials(text))
        return known;
    const QByteArray credentials = maskCredentials(text);
    if (credentials == text)
        return known;
    // The credentials' masks keep the JSON whole (they replace string contents only); known
    // values are masked again as JSON, not as text that could cut through its syntax.
    const QJsonDocument doc = QJsonDocument::fromJson(credentials);
    return maskKnown(doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array()), secrets);
}

QString abbreviate(const QString &secret)
{
    if (secret.isEmpty())
        return secret;
    if (secret.size() <= 8)
        return QStringLiteral("•••• (%1 chars)").arg(secret.size());
    return secret.left(4) + QStringLiteral("… (%1 chars)").arg(secret.size());
}

HttpExchange abbreviateExchange(const HttpExchange &exchange)
{
    HttpExchange m = exchange;
    m.url = abbreviateUrl(m.url);
    for (auto *headers : {&m.requestHeaders, &m.responseHeaders}) {
        for (auto &[name, value] : *headers) {
            if (!isSecretHeader(name))
                continue;
            // Keep the scheme ("Bearer", "Basic"): it says what kind of secret went. Cookies have
            // none: their first value would show whole.
            const bool hasScheme = name.toLower().endsWith("authorization");
            const qsizetype space = hasScheme ? value.indexOf(' ') : -1;
            value = space > 0
                        ? value.left(space + 1) + abbreviate(QString::fromUtf8(value.mid(space + 1))).toUtf8()
                        : abbreviate(QString::fromUtf8(value)).toUtf8();
        }
    }
    for (auto &[name, value] : m.responseHeaders) {
        if (name.compare("Location", Qt::CaseInsensitive) == 0)
            value = abbreviateUrl(QString::fromUtf8(value)).toUtf8();
    }
    m.requestBody = abbreviateBody(m.requestBody);
    m.responseBody = abbreviateBody(m.responseBody);
    return m;
}

void remember(const QString &secret)
{
    if (secret.size() < MinSecretLength || masked.contains(secret))
        return;
    QWriteLocker lock(&knownLock);
    if (!knownSecrets.contains(secret))
        knownSecrets << secret;
}

void remember(const QStringList &secrets)
{
    for (const QString &secret : secrets)
        remember(secret);
}

QStringList known()
{
    QReadLocker lock(&knownLock);
    return knownSecrets;
}

QString maskOutput(const QString &text)
{
    return maskKnown(text, known());
}

QString maskLogLine(const QString &text)
{
    return maskUrlsIn(maskOutput(text));
}

} // namespace SecretMask

} // namespace folio
