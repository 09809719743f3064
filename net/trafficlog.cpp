#include "trafficlog.h"

#include <QDateTime>
#include <QRegularExpression>

namespace folio {

TrafficLog::TrafficLog(QObject *parent)
    : QObject(parent)
{}

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
    if (entry.timestampMs == 0)
        entry.timestampMs = QDateTime::currentMSecsSinceEpoch();
    if (entry.text.size() > maxEntryBytes) {
        entry.text.truncate(maxEntryBytes);
        entry.truncated = true;
    }
    entry.text = redact(entry.text);
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

void TrafficLog::clear()
{
    m_entries.clear();
    m_textBytes = 0;
    Q_EMIT cleared();
}

QByteArray redactSecrets(const QByteArray &text, const QStringList &secrets)
{
    QByteArray out = text;
    for (const QString &secret : secrets) {
        const QByteArray s = secret.toUtf8();
        if (!s.isEmpty())
            out.replace(s, "[redacted]");
    }
    // Header lines and JSON members that carry credentials, whatever their value.
    static const QRegularExpression header(
        QStringLiteral(R"((?im)^((?:proxy-)?authorization|cookie|set-cookie|x-api-key|api-key)\s*:\s*.*$)"));
    static const QRegularExpression bearer(QStringLiteral(R"((?i)\bbearer\s+[A-Za-z0-9._~+/=-]+)"));
    static const QRegularExpression jsonMember(QStringLiteral(
        R"re((?i)("(?:authorization|access_token|refresh_token|id_token|client_secret|password|api_?key|token)"\s*:\s*)"(?:[^"\\]|\\.)*")re"));
    QString s = QString::fromUtf8(out);
    const QString before = s;
    s.replace(header, QStringLiteral("\\1: [redacted]"));
    s.replace(bearer, QStringLiteral("Bearer [redacted]"));
    s.replace(jsonMember, QStringLiteral("\\1\"[redacted]\""));
    return s == before ? out : s.toUtf8();
}

} // namespace folio
