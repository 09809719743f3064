#include "loopbacklistener.h"

#include "netlogging.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

namespace folio {

namespace {
constexpr qsizetype maxRequestBytes = 16 * 1024; // a callback URL is far shorter
const char callbackPath[] = "/callback";
} // namespace

LoopbackListener::LoopbackListener(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        if (m_done)
            return;
        close();
        Q_EMIT timedOut();
    });
    connect(m_server, &QTcpServer::newConnection, this, &LoopbackListener::handleConnection);
}

LoopbackListener::~LoopbackListener()
{
    close();
}

bool LoopbackListener::listen(int timeoutMs)
{
    // Loopback only: the code must not be offered to the network (QtNetworkAuth's handler binds
    // every interface by default).
    if (!m_server->listen(QHostAddress::LocalHost, 0)) {
        m_error = m_server->errorString();
        return false;
    }
    qCDebug(lcHttp) << "sign-in redirect listener on 127.0.0.1 port" << m_server->serverPort();
    if (timeoutMs > 0)
        m_timeout.start(timeoutMs);
    return true;
}

QUrl LoopbackListener::redirectUri() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(m_server->serverPort());
    url.setPath(QLatin1String(callbackPath));
    return url;
}

bool LoopbackListener::isListening() const
{
    return m_server->isListening();
}

void LoopbackListener::close()
{
    m_timeout.stop();
    if (m_server->isListening()) {
        m_server->close();
        qCDebug(lcHttp) << "sign-in redirect listener closed";
    }
}

void LoopbackListener::handleConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { handleData(socket); });
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        // A connection that never sends a request line is not kept.
        QTimer::singleShot(10000, socket, [socket] { socket->abort(); });
    }
}

void LoopbackListener::handleData(QTcpSocket *socket)
{
    QByteArray buffer = socket->property("buffer").toByteArray() + socket->readAll();
    if (buffer.size() > maxRequestBytes) {
        answer(socket, 431, "Request Header Fields Too Large", "Too large.");
        return;
    }
    const qsizetype end = buffer.indexOf("\r\n\r\n");
    if (end < 0) {
        socket->setProperty("buffer", buffer);
        return;
    }
    const QList<QByteArray> requestLine = buffer.left(buffer.indexOf("\r\n")).split(' ');
    if (requestLine.size() != 3 || requestLine.at(0) != "GET") {
        answer(socket, 405, "Method Not Allowed", "Folio's sign-in listener takes one GET.");
        return;
    }
    const QUrl target(QString::fromLatin1(requestLine.at(1)));
    if (target.path() != QLatin1String(callbackPath) || m_done) {
        answer(socket, 404, "Not Found", "Nothing here.");
        return;
    }
    m_done = true;
    const QUrlQuery query(target);
    const bool failed = query.hasQueryItem(QStringLiteral("error"));
    answer(socket, 200, "OK",
           failed ? "<h1>Sign-in did not complete</h1><p>Folio shows what the authorization server said. "
                    "You can close this tab.</p>"
                  : "<h1>Signed in</h1><p>Folio has the answer. You can close this tab.</p>");
    close();
    Q_EMIT callbackReceived(query);
}

void LoopbackListener::answer(QTcpSocket *socket, int status, const QByteArray &reason,
                              const QByteArray &html)
{
    const QByteArray body = "<!doctype html><html><head><meta charset=\"utf-8\"><title>Folio</title>"
                            "<style>body{font-family:sans-serif;margin:3em;color:#222}</style></head><body>" +
                            html + "</body></html>";
    socket->write("HTTP/1.1 " + QByteArray::number(status) + ' ' + reason +
                  "\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\n"
                  "Connection: close\r\nContent-Length: " +
                  QByteArray::number(body.size()) + "\r\n\r\n" + body);
    socket->disconnectFromHost();
}

} // namespace folio
