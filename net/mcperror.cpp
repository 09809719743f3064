#include "mcperror.h"

namespace folio {

QString McpError::kindName(Kind kind)
{
    switch (kind) {
    case Kind::None:
        return QStringLiteral("none");
    case Kind::SpawnFailed:
        return QStringLiteral("spawn-failed");
    case Kind::ProcessExited:
        return QStringLiteral("process-exited");
    case Kind::ConnectionFailed:
        return QStringLiteral("connection-failed");
    case Kind::TlsError:
        return QStringLiteral("tls-error");
    case Kind::HttpStatus:
        return QStringLiteral("http-status");
    case Kind::AuthRequired:
        return QStringLiteral("auth-required");
    case Kind::InsufficientScope:
        return QStringLiteral("insufficient-scope");
    case Kind::Timeout:
        return QStringLiteral("timeout");
    case Kind::MalformedMessage:
        return QStringLiteral("malformed-message");
    case Kind::MessageTooLarge:
        return QStringLiteral("message-too-large");
    case Kind::Rpc:
        return QStringLiteral("rpc-error");
    case Kind::ToolError:
        return QStringLiteral("tool-error");
    case Kind::Protocol:
        return QStringLiteral("protocol-error");
    case Kind::Cancelled:
        return QStringLiteral("cancelled");
    case Kind::Closed:
        return QStringLiteral("closed");
    }
    return QStringLiteral("unknown");
}

QString McpError::rpcCodeName(int code)
{
    switch (code) {
    case -32700:
        return QStringLiteral("parse error");
    case -32600:
        return QStringLiteral("invalid request");
    case -32601:
        return QStringLiteral("method not found");
    case -32602:
        return QStringLiteral("invalid params");
    case -32603:
        return QStringLiteral("internal error");
    case -32002:
        return QStringLiteral("resource not found");
    case -32020:
        return QStringLiteral("header mismatch");
    case -32021:
        return QStringLiteral("missing required client capability");
    case -32022:
        return QStringLiteral("unsupported protocol version");
    case -32042:
        return QStringLiteral("URL elicitation required");
    default:
        break;
    }
    if (code <= -32000 && code >= -32099)
        return QStringLiteral("server error");
    return QString();
}

QString McpError::describe() const
{
    switch (kind) {
    case Kind::None:
        return QString();
    case Kind::Rpc: {
        const QString name = rpcCodeName(code);
        // One arg() call each: a "%1" in the server's message is text, not a placeholder.
        return name.isEmpty() ? QStringLiteral("%1 (%2)").arg(message, QString::number(code))
                              : QStringLiteral("%1 (%2 %3)").arg(message, QString::number(code), name);
    }
    case Kind::HttpStatus:
    case Kind::AuthRequired:
    case Kind::InsufficientScope:
        if (httpStatus && !signInFailed)
            return QStringLiteral("HTTP %1: %2").arg(QString::number(httpStatus), message);
        return message;
    default:
        return message;
    }
}

QString McpError::sizeText(qint64 bytes)
{
    constexpr qint64 kib = 1024;
    constexpr qint64 mib = 1024 * kib;
    const auto unit = [bytes](qint64 size, const char *name) {
        const QString number = bytes % size == 0 ? QString::number(bytes / size)
                                                 : QString::number(double(bytes) / double(size), 'f', 1);
        return number + QLatin1Char(' ') + QLatin1String(name);
    };
    if (bytes >= mib)
        return unit(mib, "MiB");
    if (bytes >= kib)
        return unit(kib, "KiB");
    return QStringLiteral("%1 bytes").arg(bytes);
}

McpError McpError::rpc(int code, const QString &message, const QJsonValue &data)
{
    McpError e;
    e.kind = Kind::Rpc;
    e.code = code;
    e.message = message;
    e.data = data;
    return e;
}

McpError McpError::make(Kind kind, const QString &message)
{
    McpError e;
    e.kind = kind;
    e.message = message;
    return e;
}

QJsonObject McpError::toJson() const
{
    QJsonObject o{{QStringLiteral("kind"), kindName(kind)}, {QStringLiteral("message"), message}};
    if (code != 0)
        o.insert(QStringLiteral("code"), code);
    if (httpStatus != 0)
        o.insert(QStringLiteral("httpStatus"), httpStatus);
    if (!data.isUndefined())
        o.insert(QStringLiteral("data"), data);
    if (!wwwAuthenticate.isEmpty())
        o.insert(QStringLiteral("wwwAuthenticate"), wwwAuthenticate);
    if (signInFailed)
        o.insert(QStringLiteral("signInFailed"), true);
    return o;
}

McpError McpError::fromJson(const QJsonObject &object)
{
    McpError e;
    e.kind = Kind::Protocol;
    const QString name = object.value(QStringLiteral("kind")).toString();
    for (int k = int(Kind::None); k <= int(Kind::Closed); ++k) {
        if (kindName(Kind(k)) == name) {
            e.kind = Kind(k);
            break;
        }
    }
    e.message = object.value(QStringLiteral("message")).toString();
    e.code = object.value(QStringLiteral("code")).toInt();
    e.httpStatus = object.value(QStringLiteral("httpStatus")).toInt();
    e.data = object.value(QStringLiteral("data"));
    e.wwwAuthenticate = object.value(QStringLiteral("wwwAuthenticate")).toString();
    e.signInFailed = object.value(QStringLiteral("signInFailed")).toBool();
    return e;
}

} // namespace folio
