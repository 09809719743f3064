#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QMetaType>
#include <QString>

namespace folio {

// A failure anywhere below the MCP client, typed so that the layers above can show it in place.
struct McpError
{
    enum class Kind {
        None,
        SpawnFailed,      // the stdio server could not be started
        ProcessExited,    // the stdio server exited or crashed
        ConnectionFailed, // TCP/DNS/socket level
        TlsError,
        HttpStatus,        // a non-2xx HTTP status without a JSON-RPC body
        AuthRequired,      // HTTP 401
        InsufficientScope, // HTTP 403
        Timeout,
        MalformedMessage, // not JSON, or not JSON-RPC
        MessageTooLarge,
        Rpc,       // a JSON-RPC error object from the server
        ToolError, // a tools/call result with isError: true (no JSON-RPC error code)
        Protocol,  // a well-formed message that breaks the protocol (bad handshake, ...)
        Cancelled,
        Closed, // the connection was closed while the request was pending
    };

    Kind kind = Kind::None;
    int code = 0;            // JSON-RPC error code for Kind::Rpc
    int httpStatus = 0;      // HTTP status where there was one
    QString message;         // what a person reads
    QJsonValue data;         // JSON-RPC error data, as received
    QString wwwAuthenticate; // for AuthRequired/InsufficientScope
    // The sign-in that a refusal began failed: message says at which step and why (the check that
    // broke, the token endpoint's answer). httpStatus is still the refusal's, but describe() does
    // not lead with it: "HTTP 401:" before a failed iss check would name the wrong thing.
    bool signInFailed = false;

    bool isError() const { return kind != Kind::None; }
    // One line for a status bar or a CLI: "Invalid cursor (-32602 invalid params)".
    QString describe() const;
    static QString kindName(Kind kind);
    static QString rpcCodeName(int code);

    // A byte count as people read it: "64 MiB", "1.5 MiB", "512 KiB", "100 bytes".
    static QString sizeText(qint64 bytes);

    static McpError rpc(int code, const QString &message, const QJsonValue &data = {});
    static McpError make(Kind kind, const QString &message);

    // As a recorded session keeps it (docs/session-format.md): {kind, message, code?, httpStatus?,
    // data?, wwwAuthenticate?, signInFailed?}, the kind by kindName(). fromJson reads an unknown kind as
    // Protocol.
    QJsonObject toJson() const;
    static McpError fromJson(const QJsonObject &object);
};

} // namespace folio

Q_DECLARE_METATYPE(folio::McpError)
