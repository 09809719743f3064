#include "httpserver.h"

#include "httpconnection.h"

#include <QTcpServer>
#include <QTcpSocket>

namespace demo {

HttpServer::HttpServer(DemoServer *server, QObject *parent)
    : QObject(parent)
    , m_server(server)
    , m_tcpServer(new QTcpServer(this))
{
    connect(m_tcpServer, &QTcpServer::newConnection, this, &HttpServer::handleNewConnection);
}

bool HttpServer::listen(quint16 port, QString *error)
{
    if (!m_tcpServer->listen(QHostAddress::LocalHost, port)) {
        *error = m_tcpServer->errorString();
        return false;
    }
    return true;
}

quint16 HttpServer::port() const
{
    return m_tcpServer->serverPort();
}

void HttpServer::handleNewConnection()
{
    while (QTcpSocket *socket = m_tcpServer->nextPendingConnection())
        new HttpConnection(socket, m_server, m_auth, this);
}

} // namespace demo
