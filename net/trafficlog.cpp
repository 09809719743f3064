#include "trafficlog.h"

#include <QDateTime>
#include <QRegularExpression>

#include <array>
#include <string_view>

namespace folio {

TrafficLog::TrafficLog(QObject *parent)
    : QObject(parent)
{}

QString TrafficLog::idText(const QJsonValue &id)
{
    if (id.isString())
        return id.toString();
    if (id.isDouble())
        return QString::number(id.toInteger());
    return QString();
}

void TrafficLog::addSecret(const QString &value)
{
    if (value.size() >= 4 && !m_secrets.contains(value))
        m_secrets.append(value);
}

QByteArray TrafficLog::redact(const QByteArray &text) const
{
    return redactSecrets(text, m_secrets);
}

void TrafficLog::append(Entry entry)
{
    entry.sequence = ++m_sequence;
    if (entry.transport.isEmpty())
        entry.transport = m_transportName;
    if (entry.timestampMs == 0)
        entry.timestampMs = QDateTime::currentMSecsSinceEpoch();
    if (!m_keepText && entry.direction != Direction::Diagnostic) {
        entry.text.clear();
    } else {
        if (entry.text.size() > maxEntryBytes) {
            entry.text.truncate(maxEntryBytes);
            entry.truncated = true;
        }
        entry.text = redact(entry.text);
    }
    if (entry.direction == Direction::Incoming)
        m_bytesIn += entry.bytes;
    else if (entry.direction == Direction::Outgoing)
        m_bytesOut += entry.bytes;
    m_textBytes += entry.text.size();
    m_entries.append(entry);
    // Over a cap, drop a tenth at once so that appending stays amortised O(1).
    const bool over = (m_capacity > 0 && m_entries.size() > m_capacity) || m_textBytes > m_maxTextBytes;
    int drop = 0;
    while (over && drop < m_entries.size() - 1 &&
           ((m_capacity > 0 && m_entries.size() - drop > m_capacity * 9 / 10) ||
            m_textBytes > m_maxTextBytes * 9 / 10)) {
        m_textBytes -= m_entries.at(drop).text.size();
        ++drop;
    }
    if (drop > 0) {
        m_entries.remove(0, drop);
        Q_EMIT entriesDropped(drop);
    }
    Q_EMIT entryAppended(m_entries.constLast());
}

void TrafficLog::appendDiagnostic(const QString &line)
{
    Entry e;
    e.direction = Direction::Diagnostic;
    e.text = line.toUtf8();
    e.bytes = e.text.size();
    append(e);
}

bool TrafficLog::isSecretHeader(QByteArrayView name)
{
    for (const char *secret : {"authorization", "proxy-authorization", "cookie", "set-cookie"}) {
        if (name.compare(QByteArrayView(secret), Qt::CaseInsensitive) == 0)
            return true;
    }
    const QByteArray lower = name.toByteArray().toLower();
    return lower.contains("token") || lower.contains("secret") || lower.contains("key");
}

void TrafficLog::appendHttp(HttpExchange exchange)
{
    auto mask = [this](HttpExchange::Headers &headers) {
        for (auto &[name, value] : headers)
            value = isSecretHeader(name) ? QByteArrayLiteral("[redacted]") : redact(value);
    };
    mask(exchange.requestHeaders);
    mask(exchange.responseHeaders);
    exchange.url = QString::fromUtf8(redact(exchange.url.toUtf8()));
    if (m_keepText) {
        exchange.requestBody = redact(exchange.requestBody);
        exchange.responseBody = redact(exchange.responseBody);
    } else {
        exchange.requestBody.clear();
        exchange.responseBody.clear();
    }
    m_http.append(std::move(exchange));
    if (m_capacity > 0 && m_http.size() > m_capacity)
        m_http.remove(0, m_http.size() - m_capacity * 9 / 10);
    Q_EMIT httpExchangeAppended();
}

void TrafficLog::clear()
{
    m_entries.clear();
    m_http.clear();
    m_textBytes = 0;
    Q_EMIT cleared();
}

bool mayCarryCredentials(const QByteArray &text)
{
    // Each word is looked for only where its anchor, a letter rare in prose, occurs, and counts
    // only in the places the patterns in redactCredentials() look for it: as a header name at the
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

QByteArray redactCredentials(const QByteArray &text)
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

QByteArray redactSecrets(const QByteArray &text, const QStringList &secrets)
{
    QByteArray out = text;
    for (const QString &secret : secrets) {
        const QByteArray s = secret.toUtf8();
        if (!s.isEmpty())
            out.replace(s, "[redacted]");
    }
    return mayCarryCredentials(out) ? redactCredentials(out) : out;
}

} // namespace folio
