#include "sseparser.h"

namespace folio {

QList<SseEvent> SseParser::feed(QByteArrayView bytes)
{
    bool over = false;
    return feed(bytes, -1, &over);
}

QList<SseEvent> SseParser::feed(QByteArrayView bytes, qint64 maxBytes, bool *overLimit)
{
    *overLimit = false;
    QList<SseEvent> out;
    for (char c : bytes) {
        if (m_pendingCr) {
            m_pendingCr = false;
            if (c == '\n')
                continue; // the LF of a CRLF pair
        }
        if (c == '\r' || c == '\n') {
            m_pendingCr = (c == '\r');
            processLine(m_line, out);
            m_line.clear();
            continue;
        }
        m_line.append(c);
        if (maxBytes >= 0 && m_line.size() + m_data.size() > maxBytes) {
            *overLimit = true;
            break;
        }
    }
    return out;
}

void SseParser::processLine(const QByteArray &rawLine, QList<SseEvent> &out)
{
    QByteArray line = rawLine;
    if (m_firstLine) {
        m_firstLine = false;
        if (line.startsWith("\xEF\xBB\xBF"))
            line.remove(0, 3); // a UTF-8 BOM may start the stream
    }
    if (line.isEmpty()) {
        // Dispatch. An event with no data line is dropped, but its id still counts.
        if (m_hasData) {
            SseEvent ev;
            if (!m_event.isEmpty())
                ev.event = m_event;
            ev.data = m_data;
            ev.id = m_lastEventId;
            ev.retryMs = m_eventRetry;
            out.append(ev);
        }
        m_event.clear();
        m_data.clear();
        m_hasData = false;
        m_eventRetry.reset();
        return;
    }
    if (line.startsWith(':'))
        return; // comment / keep-alive
    QByteArray field;
    QByteArray value;
    const qsizetype colon = line.indexOf(':');
    if (colon < 0) {
        field = line;
    } else {
        field = line.left(colon);
        value = line.mid(colon + 1);
        if (value.startsWith(' '))
            value.remove(0, 1);
    }
    if (field == "data") {
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_event = value;
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_lastEventId = value;
    } else if (field == "retry") {
        bool ok = !value.isEmpty();
        for (char c : value)
            ok = ok && c >= '0' && c <= '9';
        if (ok) {
            const int ms = value.toInt(&ok);
            if (ok) {
                m_retryMs = ms;
                m_eventRetry = ms;
            }
        }
    }
}

} // namespace folio
