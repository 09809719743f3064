#pragma once

#include "httpexchange.h"

#include <QByteArray>
#include <QJsonValue>
#include <QObject>
#include <QStringList>
#include <QVector>

namespace folio {

// Every message in and out, with time, direction, size and latency, secrets redacted. Bounded:
// the oldest entries go first once the cap is reached (the counters keep the totals).
class TrafficLog : public QObject
{
    Q_OBJECT
public:
    enum class Direction { Outgoing, Incoming, Diagnostic };
    struct Entry
    {
        qint64 sequence = 0;
        qint64 timestampMs = 0; // wall clock, ms since epoch
        Direction direction = Direction::Outgoing;
        QString method; // request/notification method, or the answered request's method
        QString id;     // JSON-RPC id as text (idText()), empty for notifications
        qint64 bytes = 0;
        qint64 latencyMs = -1; // responses only
        bool isError = false;
        QByteArray text; // redacted message text (compact JSON) or diagnostic line
        bool truncated = false;
        QString transport; // "stdio", "streamable-http", "http+sse": what carried it
    };

    explicit TrafficLog(QObject *parent = nullptr);

    // A JSON-RPC id as Entry::id holds it: a string as it is, a number in decimal, else empty.
    static QString idText(const QJsonValue &id);

    // Caps on what is kept: entries, and bytes of message text (a message's text is cut at
    // maxEntryBytes; the byte count in the entry stays the real size).
    void setCapacity(int entries) { m_capacity = entries; }
    void setMaxTextBytes(qint64 bytes) { m_maxTextBytes = bytes; }
    static constexpr qint64 maxEntryBytes = 1024 * 1024;
    // Off: entries keep everything but their text (no copy, no redaction), for headless runs that
    // never show the log and only watch it for activity. On by default.
    void setKeepText(bool keep) { m_keepText = keep; }
    bool keepsText() const { return m_keepText; }
    // Values that must never appear in the log (tokens, header values marked secret).
    void addSecret(const QString &value);
    const QStringList &secrets() const { return m_secrets; }
    // SecretMask::maskMessage() with this log's secrets: what every entry, recording and report
    // from this client's traffic is masked with.
    QByteArray redact(const QByteArray &text) const;

    // What carries the entries appended from now on (Transport::kindName()), unless they say.
    void setTransportName(const QString &name) { m_transportName = name; }

    void append(Entry entry);
    void appendDiagnostic(const QString &line);
    const QVector<Entry> &entries() const { return m_entries; }
    // HTTP exchanges (the HTTP transports'), masked: secret header values read "[redacted]"
    // (SecretMask::maskHeaders()),
    // bodies are redacted as message text is. Without kept text, the bodies are left out. Bounded
    // like the entries.
    void appendHttp(HttpExchange exchange);
    const QVector<HttpExchange> &httpExchanges() const { return m_http; }
    qint64 totalBytesIn() const { return m_bytesIn; }
    qint64 totalBytesOut() const { return m_bytesOut; }
    void clear();

Q_SIGNALS:
    void entryAppended(const folio::TrafficLog::Entry &entry);
    void entriesDropped(int count);
    void httpExchangeAppended();
    void cleared();

private:
    QVector<Entry> m_entries;
    QVector<HttpExchange> m_http;
    QString m_transportName;
    QStringList m_secrets;
    bool m_keepText = true;
    int m_capacity = 20000;
    qint64 m_maxTextBytes = 64 * 1024 * 1024;
    qint64 m_textBytes = 0;
    qint64 m_sequence = 0;
    qint64 m_bytesIn = 0;
    qint64 m_bytesOut = 0;
};

} // namespace folio
