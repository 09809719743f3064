#pragma once

#include "demoexchange.h"

#include <QList>

#include <utility>

namespace demo {

class HttpConnection;

// One HTTP request's answer: a JSON body with Content-Length, or a chunked SSE stream.
class HttpExchange : public DemoExchange
{
    Q_OBJECT

public:
    explicit HttpExchange(HttpConnection *connection);

    bool isHttp() const override { return true; }
    void setHeader(const QByteArray &name, const QByteArray &value) override;
    void replyJson(const QByteArray &message, int httpStatus) override;
    void accept() override;
    void refuse(int httpStatus, const QByteArray &text) override;
    void startStream() override;
    void push(const QJsonObject &message) override;
    // Ends the exchange with any status and body (the authorization server's redirects).
    void respond(int httpStatus, const QByteArray &contentType, const QByteArray &body);

    void connectionLost();

private:
    void writeChunk(const QByteArray &bytes);
    void finish();

    HttpConnection *m_connection;
    QList<std::pair<QByteArray, QByteArray>> m_headers;
    bool m_streaming = false;
    bool m_finished = false;
};

} // namespace demo
