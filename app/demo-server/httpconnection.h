#pragma once

#include "demoserver.h"
#include "httpexchange.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>

class QTcpSocket;

namespace demo {

class AuthServer;

// One HTTP/1.1 connection: parses requests (Content-Length bodies, keep-alive), hands each to the
// DemoServer through an HttpExchange, and writes its answer as JSON or as a chunked SSE stream. With
// an AuthServer (--oauth), /mcp needs its bearer token and the authorization server's paths are its.
class HttpConnection : public QObject
{
    Q_OBJECT

public:
    HttpConnection(QTcpSocket *socket, DemoServer *server, AuthServer *auth, QObject *parent = nullptr);

    void writeRaw(const QByteArray &bytes);
    void writeHead(int status, const QByteArray &contentType,
                   const QList<std::pair<QByteArray, QByteArray>> &headers, qsizetype contentLength);
    // The current exchange has sent its last byte.
    void finishExchange();

private:
    void handleReadyRead();
    void handleDisconnected();
    void processBuffer();
    void refuse(int status, const QByteArray &text);

    QTcpSocket *m_socket;
    DemoServer *m_server;
    AuthServer *m_auth; // null: /mcp is open
    QByteArray m_buffer;
    QPointer<HttpExchange> m_exchange;
    bool m_keepAlive = true;
    bool m_busy = false;
};

} // namespace demo
