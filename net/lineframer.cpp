#include "lineframer.h"

namespace folio {

LineFramer::Result LineFramer::feed(QByteArrayView bytes)
{
    Result r;
    qsizetype pos = 0;
    while (pos < bytes.size()) {
        const qsizetype nl = bytes.indexOf('\n', pos);
        const QByteArrayView chunk = bytes.sliced(pos, (nl < 0 ? bytes.size() : nl) - pos);
        if (!m_discarding) {
            if (m_buffer.size() + chunk.size() > m_max) {
                m_discarding = true;
                ++r.oversizedStarted;
                m_buffer.clear();
                m_buffer.squeeze();
            } else {
                m_buffer.append(chunk);
            }
        }
        if (nl < 0)
            break;
        if (m_discarding) {
            ++r.oversizedLines;
            m_discarding = false;
        } else {
            if (m_buffer.endsWith('\r'))
                m_buffer.chop(1);
            if (!m_buffer.trimmed().isEmpty())
                r.lines.append(m_buffer);
            m_buffer.clear();
        }
        pos = nl + 1;
    }
    return r;
}

} // namespace folio
