#pragma once

#include "clock.h"
#include "httpexchange.h"
#include "mcperror.h"
#include "protocol.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

namespace folio {

class SessionRecorder;

// How a frame came, where the transport knows more than its bytes (HTTP): the request whose
// exchange carried it, and whether it is the body of an HTTP error status (>= 300). Such a body
// counts only when it is JSON-RPC, and a JSON-RPC error in it with a null id answers that
// request: the exchange is the correlation.
struct FrameOrigin
{
    QJsonValue exchangeId; // null: not known (stdio, streams)
    bool errorStatus = false;
    // Whether handUp() reports a frame that is not JSON as malformedMessage(); off for a
    // transport that first fails the request with what it knows of the frame (its content type).
    bool reportNotJson = true;
};
// What the reader made of a frame.
struct FrameReceipt
{
    bool json = false;          // it was JSON: one message, or a batch of them
    bool used = false;          // ... and it was acted on (not an error status's body that is not JSON-RPC)
    QList<QJsonValue> answered; // the ids of the requests it answered
    McpError error;             // why it was not JSON
};
// What decodes frames: the connection. Transports hand up bytes and never parse them, so that
// one place decides how (a list page's fast path, a batch, a message that is not JSON).
class FrameReader
{
public:
    virtual ~FrameReader() = default;
    virtual FrameReceipt readFrame(const QByteArray &frame, const FrameOrigin &origin) = 0;
};

// One face for every MCP transport: stdio, Streamable HTTP and the legacy HTTP+SSE of 2024-11-05.
// Messages go out as parsed JSON plus their encoded bytes; messages come in as the exact bytes of
// each frame (handUp()), which the connection decodes, so the layers above can judge what the
// server really sent.
class Transport : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Opens the connection (spawns the process, opens the legacy SSE stream, ...). Emits opened()
    // or closed(error).
    virtual void open() = 0;
    // Sends one JSON-RPC message. HTTP transports map one request to one POST.
    virtual void send(const QJsonObject &message, const QByteArray &encoded) = 0;
    using HeaderList = QList<QPair<QByteArray, QByteArray>>;
    // What the connection calls: records the message when recording, then send()s it. headers:
    // extra HTTP headers for this one message (Mcp-Param-*), read by send() through
    // messageHeaders(); transports that are not HTTP ignore them.
    void transmit(const QJsonObject &message, const QByteArray &encoded, const HeaderList &headers = {});
    // Closes gracefully; emits closed() once done.
    virtual void close() = 0;
    virtual bool isOpen() const = 0;
    // What the transport is, for the UI ("stdio", "streamable-http", "http+sse").
    virtual QString kindName() const = 0;

    // The protocol revision in force: HTTP transports send it as MCP-Protocol-Version (2025-06-18
    // and later) and switch to the 2026-07-28 header set (Mcp-Method, Mcp-Name, no session).
    void setProtocolVersion(const QString &version) { m_protocolVersion = version; }
    QString protocolVersion() const { return m_protocolVersion; }

    void setMaxMessageBytes(qint64 bytes) { m_maxMessageBytes = bytes; }
    qint64 maxMessageBytes() const { return m_maxMessageBytes; }

    // Optional server->client stream (Streamable HTTP GET, 2025 era). Default: nothing to open.
    virtual void openServerStream() {}

    // The connection gave up on the request with this id (timeout, cancel): stop reading its answer.
    // HTTP aborts the request's reply, so that an answer that never ends holds no connection and no
    // memory; stdio has one stream for everything and nothing to abort (the default).
    virtual void abandon(const QJsonValue &id) { Q_UNUSED(id) }

    void setFrameReader(FrameReader *reader) { m_reader = reader; }

    // What time it is on this connection (the machine's, or a replay's): requests and the traffic
    // log read it.
    void setClock(std::shared_ptr<const Clock> clock) { m_clock = std::move(clock); }
    const std::shared_ptr<const Clock> &clock() const { return m_clock; }

    // Set by SessionRecorder::attach: told of every message out and every message offered in.
    void setRecorder(SessionRecorder *recorder);

Q_SIGNALS:
    void opened();
    // A frame that was not JSON, or one over the size cap (raw: what of it was read, maybe
    // nothing). The connection stays up.
    void malformedMessage(const QByteArray &raw, const McpError &error);
    // A request failed below JSON-RPC (HTTP status without a JSON-RPC body, network error).
    // id is the JSON-RPC id of the request that was being carried.
    void requestFailed(const QJsonValue &id, const McpError &error);
    // Free-form diagnostics: stdio stderr lines, HTTP session events.
    void diagnostic(const QString &line);
    // The connection is gone. error.kind is None for a clean close.
    void closed(const McpError &error);
    // HTTP transports: one request and its answer ended (or failed, or was given up), as sent and
    // received, unmasked (the traffic log masks it), for the HAR export.
    void httpExchanged(const folio::HttpExchange &exchange);
    // The request with this id waits for something other than the server (a sign-in in the
    // browser) while held: its timeout does not run.
    void requestHeld(const QJsonValue &id, bool held);

protected:
    // The extra headers of the message being sent (valid during send() only).
    const HeaderList &messageHeaders() const { return m_messageHeaders; }
    // Hands one framed message up, exactly as received, to the reader; records it first when
    // recording (what it causes, such as the next page's request, comes after it). A frame that is
    // not JSON is reported as malformedMessage() unless origin.reportNotJson is off.
    FrameReceipt handUp(const QByteArray &frame, const FrameOrigin &origin = {});

    // "<what> is over the 64 MiB message-size limit": what every transport says when it stops
    // reading a message at the limit.
    McpError tooLarge(const QString &what) const
    {
        return McpError::make(McpError::Kind::MessageTooLarge,
                              QStringLiteral("%1 is over the %2 message-size limit")
                                  .arg(what, McpError::sizeText(m_maxMessageBytes)));
    }

    QString m_protocolVersion;
    FrameReader *m_reader = nullptr;
    HeaderList m_messageHeaders;
    std::shared_ptr<const Clock> m_clock = Clock::system();
    QPointer<QObject> m_recorder; // a SessionRecorder
    qint64 m_maxMessageBytes = DefaultMaxMessageBytes;
};

} // namespace folio
