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

FrameReceipt Transport::handUp(const QByteArray &frame, const FrameOrigin &origin)
{
    auto *recorder = static_cast<SessionRecorder *>(m_recorder.data());
    if (recorder)
        recorder->noteOffered(frame);
    FrameReceipt receipt;
    if (m_reader)
        receipt = m_reader->readFrame(frame, origin);
    // An error status's body that is not JSON-RPC is no message (the HTTP failure is recorded).
    if (recorder && !receipt.used && origin.errorStatus)
        recorder->withdrawOffered(frame);
    if (!receipt.json && receipt.error.isError() && origin.reportNotJson)
        Q_EMIT malformedMessage(frame, receipt.error);
    return receipt;
}

} // namespace folio
