#include "httpconnection.h"

#include "authserver.h"
#include "httpexchange.h"

#include <QJsonDocument>
#include <QTcpSocket>
#include <QUrl>

namespace demo {

namespace {

constexpr qsizetype maxHeadSize = 64 * 1024;
constexpr qsizetype maxBodySize = 16 * 1024 * 1024;

QByteArray reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 302:
        return "Found";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 415:
        return "Unsupported Media Type";
    default:
        return "Error";
    }
}

// DNS rebinding protection: only loopback names may appear in Host and Origin.
bool isLoopbackAuthority(const QByteArray &value, bool isOrigin)
{
    QString host;
    if (isOrigin) {
        const QUrl url(QString::fromLatin1(value));
        if (!url.isValid())
            return false;
        host = url.host();
    } else {
        const QUrl url(QStringLiteral("http://") + QString::fromLatin1(value));
        if (!url.isValid())
            return false;
        host = url.host();
    }
    return host == QStringLiteral("127.0.0.1") || host == QStringLiteral("localhost") ||
           host == QStringLiteral("::1");
}

} // namespace

HttpConnection::HttpConnection(QTcpSocket *socket, DemoServer *server, AuthServer *auth, QObject *parent)
    : QObject(parent)
    , m_socket(socket)
    , m_server(server)
    , m_auth(auth)
{
    socket->setParent(this);
    // Head and body go out as separate writes: without TCP_NODELAY, Nagle and the peer's delayed
    // ACK hold the body back ~40 ms on every response.
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(socket, &QTcpSocket::readyRead, this, &HttpConnection::handleReadyRead);
    connect(socket, &QTcpSocket::disconnected, this, &HttpConnection::handleDisconnected);
}

void HttpConnection::writeRaw(const QByteArray &bytes)
{
    m_socket->write(bytes);
}

void HttpConnection::writeHead(int status, const QByteArray &contentType,
                               const QList<std::pair<QByteArray, QByteArray>> &headers,
                               qsizetype contentLength)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason(status) + "\r\n";
    if (!contentType.isEmpty())
        head += "Content-Type: " + contentType + "\r\n";
    if (contentLength >= 0)
        head += "Content-Length: " + QByteArray::number(contentLength) + "\r\n";
    else
        head += "Transfer-Encoding: chunked\r\nCache-Control: no-cache\r\n";
    for (const auto &[name, value] : headers)
        head += name + ": " + value + "\r\n";
    if (!m_keepAlive)
        head += "Connection: close\r\n";
    head += "\r\n";
    m_socket->write(head);
}

void HttpConnection::finishExchange()
{
    m_busy = false;
    m_exchange.clear();
    if (!m_keepAlive) {
        m_socket->disconnectFromHost();
        return;
    }
    processBuffer();
}

void HttpConnection::handleReadyRead()
{
    m_buffer.append(m_socket->readAll());
    processBuffer();
}

void HttpConnection::handleDisconnected()
{
    if (m_exchange)
        m_exchange->connectionLost();
    deleteLater();
}

void HttpConnection::refuse(int status, const QByteArray &text)
{
    m_keepAlive = false;
    writeHead(status, "text/plain; charset=utf-8", {}, text.size());
    m_socket->write(text);
    m_socket->disconnectFromHost();
    m_busy = true; // read nothing more
}

void HttpConnection::processBuffer()
{
    while (!m_busy) {
        const qsizetype headEnd = m_buffer.indexOf("\r\n\r\n");
        if (headEnd < 0) {
            if (m_buffer.size() > maxHeadSize)
                refuse(413, "Request head too large.\n");
            return;
        }
        const QList<QByteArray> lines = m_buffer.left(headEnd).split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        if (requestLine.size() != 3 || !requestLine.at(2).startsWith("HTTP/1.")) {
            refuse(400, "Malformed request line.\n");
            return;
        }
        HeaderMap headers;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines.at(i).indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = lines.at(i).left(colon).trimmed().toLower();
            QByteArray value = lines.at(i).mid(colon + 1).trimmed();
            // Two DPoP headers are one refused proof (RFC 9449 §4.3), not the last one taken.
            if (name == "dpop" && headers.contains(name))
                value = headers.value(name) + ", " + value;
            headers.insert(name, value);
        }
        if (headers.value("transfer-encoding").toLower().contains("chunked")) {
            refuse(411, "Send the body with a Content-Length.\n");
            return;
        }
        bool lengthOk = true;
        const qsizetype length =
            headers.contains("content-length") ? headers.value("content-length").toLongLong(&lengthOk) : 0;
        if (!lengthOk || length < 0 || length > maxBodySize) {
            refuse(lengthOk ? 413 : 400, "Bad Content-Length.\n");
            return;
        }
        if (m_buffer.size() < headEnd + 4 + length)
            return;
        const QByteArray body = m_buffer.mid(headEnd + 4, length);
        m_buffer.remove(0, headEnd + 4 + length);

        const QByteArray method = requestLine.at(0);
        const QByteArray target = requestLine.at(1);
        const QByteArray path = target.split('?').value(0);
        const bool authPath = m_auth && m_auth->handles(path);
        const QByteArray connection = headers.value("connection").toLower();
        m_keepAlive = requestLine.at(2) == "HTTP/1.1" ? !connection.contains("close")
                                                      : connection.contains("keep-alive");

        m_busy = true;
        auto exchange = new HttpExchange(this);
        m_exchange = exchange;
        if (path != "/mcp" && !authPath) {
            exchange->refuse(404, "Not found: the MCP endpoint is /mcp.\n");
        } else if ((headers.contains("host") && !isLoopbackAuthority(headers.value("host"), false)) ||
                   (headers.contains("origin") && !isLoopbackAuthority(headers.value("origin"), true))) {
            const QJsonObject error{
                {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                {QStringLiteral("id"), QJsonValue::Null},
                {QStringLiteral("error"),
                 QJsonObject{{QStringLiteral("code"), -32000},
                             {QStringLiteral("message"),
                              QStringLiteral("Forbidden: Host and Origin must be loopback")}}}};
            exchange->reply(error, 403);
        } else if (authPath) {
            m_auth->handle(method, target, headers, body, exchange);
        } else if (m_auth && !m_auth->admit(method, path, headers, exchange)) {
            // answered: 401 (or 403 insufficient_scope) with the Bearer (or DPoP) challenge
        } else if (method == "POST") {
            m_server->handleMessage(body, exchange, headers);
        } else if (method == "GET") {
            m_server->openLegacyStream(exchange, headers);
        } else if (method == "DELETE") {
            m_server->endLegacySession(exchange, headers);
        } else {
            exchange->setHeader("Allow", "GET, POST, DELETE");
            exchange->refuse(405, "Use POST (GET and DELETE for 2025 sessions).\n");
        }
    }
}

} // namespace demo
