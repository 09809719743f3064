#include "loopbacklistener.h"

#include "netlogging.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

namespace folio {

namespace {
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

LoopbackListener::Request LoopbackListener::readRequest(const QByteArray &received)
{
    Request r;
    if (received.size() > maxRequestBytes) {
        r.kind = Request::Kind::Refused;
        r.status = 431;
        return r;
    }
    if (!received.contains("\r\n\r\n"))
        return r;
    r.kind = Request::Kind::Refused;
    const QList<QByteArray> requestLine = received.left(received.indexOf("\r\n")).split(' ');
    if (requestLine.size() != 3 || requestLine.at(0) != "GET") {
        r.status = 405;
        return r;
    }
    const QUrl target(QString::fromLatin1(requestLine.at(1)));
    if (target.path() != QLatin1String(callbackPath)) {
        r.status = 404;
        return r;
    }
    r.kind = Request::Kind::Callback;
    r.query = QUrlQuery(target);
    return r;
}

void LoopbackListener::handleData(QTcpSocket *socket)
{
    const QByteArray buffer = socket->property("buffer").toByteArray() + socket->readAll();
    const Request request = readRequest(buffer);
    switch (request.kind) {
    case Request::Kind::Incomplete:
        socket->setProperty("buffer", buffer);
        return;
    case Request::Kind::Refused:
        answer(socket, request.status,
               request.status == 431   ? "Request Header Fields Too Large"
               : request.status == 405 ? "Method Not Allowed"
                                       : "Not Found",
               request.status == 405 ? "Folio's sign-in listener takes one GET." : "Nothing here.");
        return;
    case Request::Kind::Callback:
        break;
    }
    if (m_done) {
        answer(socket, 404, "Not Found", "Nothing here."); // one callback only
        return;
    }
    m_done = true;
    const bool failed = request.query.hasQueryItem(QStringLiteral("error"));
    answer(socket, 200, "OK",
           failed ? "<h1>Sign-in did not complete</h1><p>Folio shows what the authorization server said. "
                    "You can close this tab.</p>"
                  : "<h1>Signed in</h1><p>Folio has the answer. You can close this tab.</p>");
    close();
    Q_EMIT callbackReceived(request.query);
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
