#include "trafficlog.h"

#include "secretmask.h"

#include <QDateTime>

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
    if (value.size() >= SecretMask::MinSecretLength && !m_secrets.contains(value))
        m_secrets.append(value);
}

QByteArray TrafficLog::redact(const QByteArray &text) const
{
    return SecretMask::maskMessage(text, m_secrets);
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

void TrafficLog::appendHttp(HttpExchange exchange)
{
    exchange.requestHeaders = SecretMask::maskHeaders(exchange.requestHeaders, m_secrets);
    exchange.responseHeaders = SecretMask::maskHeaders(exchange.responseHeaders, m_secrets);
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

} // namespace folio
