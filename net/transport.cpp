#include "transport.h"

#include "sessionrecording.h"

namespace folio {

void Transport::setRecorder(SessionRecorder *recorder)
{
    m_recorder = recorder;
}

void Transport::transmit(const QJsonObject &message, const QByteArray &encoded, const HeaderList &headers)
{
    if (auto *recorder = static_cast<SessionRecorder *>(m_recorder.data()))
        recorder->noteSent(encoded);
    m_messageHeaders = headers;
    send(message, encoded);
    m_messageHeaders.clear();
}

bool Transport::offerRaw(const QByteArray &raw, QJsonValue *answeredId)
{
    // Recorded before the hook runs: what it causes (the next page's request) comes after it.
    if (auto *recorder = static_cast<SessionRecorder *>(m_recorder.data()))
        recorder->noteOffered(raw);
    return m_rawHook && m_rawHook(raw, answeredId);
}

} // namespace folio
