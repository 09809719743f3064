#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>

namespace demo {

// A request's HTTP headers, names in lower case (empty on stdio).
using HeaderMap = QHash<QByteArray, QByteArray>;

// The server's side of one request: its way back to the client, a POST's response on HTTP (or a
// stream: SSE), or stdout on stdio. Every exchange ends with exactly one of reply(), accept() or
// refuse(), or with closed().
class DemoExchange : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    virtual bool isHttp() const = 0;
    // Adds a response header (HTTP only); call before the first byte goes out.
    virtual void setHeader(const QByteArray &name, const QByteArray &value)
    {
        Q_UNUSED(name)
        Q_UNUSED(value)
    }
    // Ends the exchange with one JSON-RPC message; httpStatus only matters on HTTP. An empty
    // message ends it without one.
    void reply(const QJsonObject &message, int httpStatus = 200)
    {
        replyJson(message.isEmpty() ? QByteArray() : QJsonDocument(message).toJson(QJsonDocument::Compact),
                  httpStatus);
    }
    // The same with the message already serialized (compact, one line).
    virtual void replyJson(const QByteArray &message, int httpStatus = 200) = 0;
    // Ends the exchange without a message: an accepted notification or response (HTTP 202).
    virtual void accept() = 0;
    // Ends the exchange with a bare HTTP status and a text body (transport-level refusals).
    virtual void refuse(int httpStatus, const QByteArray &text) = 0;
    // Starts a stream (SSE on HTTP) without sending a message yet.
    virtual void startStream() = 0;
    // Sends one message and keeps the exchange open.
    virtual void push(const QJsonObject &message) = 0;

Q_SIGNALS:
    // The client went away before the exchange ended; the exchange is deleted right after.
    void closed();
};

} // namespace demo
