#pragma once

#include <QByteArray>
#include <QList>

namespace folio {

// Splits a byte stream into newline-delimited frames (stdio transport). A line longer than the
// cap is dropped whole, reported once, and framing resumes at the next newline.
class LineFramer
{
public:
    explicit LineFramer(qint64 maxLineBytes = 64 * 1024 * 1024)
        : m_max(maxLineBytes)
    {}

    struct Result
    {
        QList<QByteArray> lines;     // complete lines, without the newline (CR stripped)
        qint64 oversizedLines = 0;   // lines dropped for exceeding the cap (counted at their end)
        qint64 oversizedStarted = 0; // lines that passed the cap in this feed (dropped from here on)
    };

    Result feed(QByteArrayView bytes);
    void setMaxLineBytes(qint64 max) { m_max = max; }
    qint64 maxLineBytes() const { return m_max; }
    qsizetype pendingBytes() const { return m_buffer.size(); }

private:
    QByteArray m_buffer;
    qint64 m_max;
    bool m_discarding = false;
};

} // namespace folio
