#pragma once

#include <QByteArray>
#include <QList>
#include <optional>

namespace folio {

struct SseEvent
{
    QByteArray event = "message"; // "message" when the stream names none
    QByteArray data;              // data lines joined with '\n'
    QByteArray id;
    std::optional<int> retryMs; // a valid retry: field seen in this event
};

// Incremental text/event-stream parser (WHATWG "interpreting an event stream"): feed bytes as
// they arrive, split anywhere, and take the complete events. LF, CR and CRLF all end lines.
class SseParser
{
public:
    QList<SseEvent> feed(QByteArrayView bytes);
    // The same, but stops (and sets *overLimit) as soon as the event being read holds more than
    // maxBytes, so that an event that never ends costs no more than the limit. The events complete
    // before that point are returned.
    QList<SseEvent> feed(QByteArrayView bytes, qint64 maxBytes, bool *overLimit);
    QByteArray lastEventId() const { return m_lastEventId; }
    std::optional<int> retryMs() const { return m_retryMs; }
    qsizetype bufferedBytes() const { return m_line.size() + m_data.size(); }

private:
    void processLine(const QByteArray &line, QList<SseEvent> &out);

    QByteArray m_line;
    bool m_pendingCr = false;
    bool m_firstLine = true;
    QByteArray m_event;
    QByteArray m_data;
    bool m_hasData = false;
    std::optional<int> m_eventRetry;
    QByteArray m_lastEventId;
    std::optional<int> m_retryMs;
};

} // namespace folio
