#pragma once

#include <QObject>

class QTcpServer;

namespace demo {

class DemoServer;

// Streamable HTTP on 127.0.0.1 only; the MCP endpoint is /mcp.
class HttpServer : public QObject
{
    Q_OBJECT

public:
    HttpServer(DemoServer *server, QObject *parent = nullptr);

    bool listen(quint16 port, QString *error);
    quint16 port() const;

private:
    void handleNewConnection();

    DemoServer *m_server;
    QTcpServer *m_tcpServer;
};

} // namespace demo
