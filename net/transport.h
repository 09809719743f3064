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

// One face for every MCP transport: stdio, Streamable HTTP and the legacy HTTP+SSE of 2024-11-05.
// Messages go out as parsed JSON plus their encoded bytes; messages come in as parsed JSON plus
// the exact bytes received, so the layers above can judge what the server really sent.
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

    // Set by the connection: offered the raw text of each single incoming message before the
    // transport parses it. Returns true when it took the message (and handled it), with the id of
    // the request it answered; the transport then neither parses nor emits it.
    using RawMessageHook = std::function<bool(const QByteArray &raw, QJsonValue *answeredId)>;
    void setRawMessageHook(RawMessageHook hook) { m_rawHook = std::move(hook); }

    // What time it is on this connection (the machine's, or a replay's): requests and the traffic
    // log read it.
    void setClock(std::shared_ptr<const Clock> clock) { m_clock = std::move(clock); }
    const std::shared_ptr<const Clock> &clock() const { return m_clock; }

    // Set by SessionRecorder::attach: told of every message out and every message offered in.
    void setRecorder(SessionRecorder *recorder);

Q_SIGNALS:
    void opened();
    // A well-formed JSON object arrived. raw is the exact bytes of this message.
    void messageReceived(const QJsonObject &message, const QByteArray &raw);
    // Bytes that were not a JSON object, or a frame over the size cap. The connection stays up.
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
    bool offerRaw(const QByteArray &raw, QJsonValue *answeredId);

    // "<what> is over the 64 MiB message-size limit": what every transport says when it stops
    // reading a message at the limit.
    McpError tooLarge(const QString &what) const
    {
        return McpError::make(McpError::Kind::MessageTooLarge,
                              QStringLiteral("%1 is over the %2 message-size limit")
                                  .arg(what, McpError::sizeText(m_maxMessageBytes)));
    }

    QString m_protocolVersion;
    RawMessageHook m_rawHook;
    HeaderList m_messageHeaders;
    std::shared_ptr<const Clock> m_clock = Clock::system();
    QPointer<QObject> m_recorder; // a SessionRecorder
    qint64 m_maxMessageBytes = DefaultMaxMessageBytes;
};

} // namespace folio
