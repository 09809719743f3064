#include "httpexchange.h"

#include "httpconnection.h"

#include <QJsonDocument>

namespace demo {

HttpExchange::HttpExchange(HttpConnection *connection)
    : DemoExchange(connection)
    , m_connection(connection)
{}

void HttpExchange::setHeader(const QByteArray &name, const QByteArray &value)
{
    m_headers.append({name, value});
}

void HttpExchange::replyJson(const QByteArray &json, int httpStatus)
{
    if (m_finished)
        return;
    if (m_streaming) {
        if (!json.isEmpty())
            writeChunk("data: " + json + "\n\n");
        m_connection->writeRaw("0\r\n\r\n");
    } else {
        m_connection->writeHead(httpStatus, "application/json", m_headers, json.size());
        m_connection->writeRaw(json);
    }
    finish();
}

void HttpExchange::accept()
{
    if (m_finished)
        return;
    m_connection->writeHead(202, {}, m_headers, 0);
    finish();
}

void HttpExchange::refuse(int httpStatus, const QByteArray &text)
{
    respond(httpStatus, "text/plain; charset=utf-8", text);
}

void HttpExchange::respond(int httpStatus, const QByteArray &contentType, const QByteArray &body)
{
    if (m_finished)
        return;
    m_connection->writeHead(httpStatus, contentType, m_headers, body.size());
    m_connection->writeRaw(body);
    finish();
}

void HttpExchange::startStream()
{
    if (m_finished || m_streaming)
        return;
    m_streaming = true;
    m_connection->writeHead(200, "text/event-stream", m_headers, -1);
    writeChunk(": stream open\n\n");
}

void HttpExchange::push(const QJsonObject &message)
{
    if (m_finished)
        return;
    startStream();
    writeChunk("data: " + QJsonDocument(message).toJson(QJsonDocument::Compact) + "\n\n");
}

void HttpExchange::connectionLost()
{
    if (m_finished)
        return;
    m_finished = true;
    Q_EMIT closed();
    deleteLater();
}

void HttpExchange::writeChunk(const QByteArray &bytes)
{
    m_connection->writeRaw(QByteArray::number(bytes.size(), 16) + "\r\n" + bytes + "\r\n");
}

void HttpExchange::finish()
{
    m_finished = true;
    m_connection->finishExchange();
    deleteLater();
}

} // namespace demo
