#pragma once

#include <QObject>

class QTcpServer;

namespace demo {

class AuthServer;
class DemoServer;

// Streamable HTTP on 127.0.0.1 only; the MCP endpoint is /mcp. With an AuthServer (--oauth), /mcp
// needs a bearer token and the same port serves the authorization server.
class HttpServer : public QObject
{
    Q_OBJECT

public:
    HttpServer(DemoServer *server, QObject *parent = nullptr);

    // Not owned; set before connections arrive.
    void setAuthServer(AuthServer *auth) { m_auth = auth; }
    bool listen(quint16 port, QString *error);
    quint16 port() const;

private:
    void handleNewConnection();

    DemoServer *m_server;
    AuthServer *m_auth = nullptr;
    QTcpServer *m_tcpServer;
};

} // namespace demo
