#include "legacyssetransport.h"

#include "netlogging.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>

namespace folio {

LegacySseTransport::LegacySseTransport(const HttpEndpoint &endpoint, QObject *parent)
    : Transport(parent)
    , m_nam(new QNetworkAccessManager(this))
    , m_endpoint(endpoint)
{}

LegacySseTransport::~LegacySseTransport()
{
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->abort();
    }
}

void LegacySseTransport::open()
{
    QNetworkRequest req = makeRequest(m_endpoint, m_endpoint.url, "text/event-stream", "GET");
    qCDebug(lcHttp).noquote() << "HTTP+SSE: opening the SSE stream at"
                              << m_endpoint.url.toString(QUrl::RemoveUserInfo);
    openStream(req, nullptr);
    QTimer::singleShot(m_endpointTimeoutMs, this, [this] {
        if (!m_open && !m_finished) {
            finish(McpError::make(McpError::Kind::Timeout,
                                  QStringLiteral("The SSE stream sent no `endpoint` event in time")));
        }
    });
}

void LegacySseTransport::openStream(const QNetworkRequest &req, const QNetworkReply *redirected)
{
    m_streamHttp = HttpExchange::begin(req, "GET", {});
    m_stream = m_nam->get(req);
    if (redirected)
        followRedirect(m_stream, redirected);
    QNetworkReply *stream = m_stream;
    guardRedirects(
        stream, [this](const QString &line) { report(line); },
        [this, stream](const QUrl &target) {
            // The 3xx is an exchange of its own in the traffic log; the stream starts again there.
            m_streamHttp.appendResponseBody(readRemaining(stream));
            m_streamHttp.finish(stream);
            Q_EMIT httpExchanged(m_streamHttp);
            stream->disconnect(this);
            stream->deleteLater();
            openStream(redirectedRequest(stream, target), stream);
        });
    connect(m_stream, &QNetworkReply::readyRead, this, &LegacySseTransport::handleStreamData);
    connect(m_stream, &QNetworkReply::finished, this, &LegacySseTransport::handleStreamFinished);
}

void LegacySseTransport::handleStreamData()
{
    if (!m_stream)
        return;
    const int status = m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    m_streamHttp.readResponseHead(m_stream);
    if (status >= 300)
        return; // the error is read when the reply finishes
    // Checked as the event is read: an event that never ends stops at the limit (and, everything
    // coming on this one stream, ends the connection).
    bool over = false;
    const QByteArray chunk = readRemaining(m_stream);
    m_streamHttp.appendResponseBody(chunk);
    const QList<SseEvent> events = m_sse.feed(chunk, m_maxMessageBytes, &over);
    const qsizetype buffered = m_sse.bufferedBytes();
    QPointer<LegacySseTransport> self(this);
    for (const SseEvent &ev : events) {
        if (!self || m_finished)
            return;
        if (ev.event == "endpoint") {
            const QUrl endpoint = m_endpoint.url.resolved(QUrl(QString::fromUtf8(ev.data.trimmed())));
            // Every message is posted there with the token and headers given for the stream's
            // origin: another origin would receive them (at the start or any time later).
            if (!isSameOrigin(endpoint, m_endpoint.url)) {
                const McpError refusal = McpError::make(
                    McpError::Kind::Protocol,
                    QStringLiteral("The SSE stream's endpoint event names %1, another origin; Folio does "
                                   "not post there, so the token and headers stay with %2")
                        .arg(endpoint.toString(QUrl::RemoveUserInfo), originText(m_endpoint.url)));
                report(refusal.message);
                finish(refusal);
                return;
            }
            m_postUrl = endpoint;
            if (!m_open) {
                m_open = true;
                report(QStringLiteral("SSE endpoint: %1").arg(m_postUrl.toString(QUrl::RemoveUserInfo)));
                Q_EMIT opened();
            }
            continue;
        }
        if (ev.event != "message")
            continue;
        handUp(ev.data);
    }
    if (over && self && !m_finished)
        finish(
            tooLarge(QStringLiteral("An SSE event (%1 read, not ended)").arg(McpError::sizeText(buffered))));
}

void LegacySseTransport::handleStreamFinished()
{
    if (!m_stream)
        return;
    handleStreamData();
    QNetworkReply *reply = m_stream;
    reply->deleteLater();
    m_stream = nullptr;
    if (m_finished)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = readRemaining(reply);
    m_streamHttp.appendResponseBody(body);
    m_streamHttp.finish(reply);
    Q_EMIT httpExchanged(m_streamHttp);
    qCInfo(lcHttp).noquote() << "HTTP+SSE: the SSE stream closed, HTTP" << status
                             << (reply->error() != QNetworkReply::NoError ? reply->errorString() : QString());
    if (status >= 300 || reply->error() != QNetworkReply::NoError)
        finish(httpReplyError(reply, body));
    else
        finish(McpError::make(McpError::Kind::Closed, QStringLiteral("The server closed the SSE stream")));
}

void LegacySseTransport::send(const QJsonObject &message, const QByteArray &encoded)
{
    // Only a request waits for an answer; notifications and responses carry no id to fail.
    const bool isRequest =
        message.contains(QStringLiteral("method")) && message.contains(QStringLiteral("id"));
    const QJsonValue id = isRequest ? message.value(QStringLiteral("id")) : QJsonValue();
    if (!m_open) {
        Q_EMIT requestFailed(
            id, McpError::make(McpError::Kind::Closed, QStringLiteral("The SSE stream is closed")));
        return;
    }
    QNetworkRequest req = makeRequest(m_endpoint, m_postUrl, "application/json, text/event-stream", "POST");
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    const QString method = message.value(QStringLiteral("method")).toString();
    qCDebug(lcHttp).noquote() << "HTTP+SSE: POST"
                              << (method.isEmpty() ? QStringLiteral("(a response)") : method)
                              << encoded.size() << "bytes";
    post(req, encoded, id, method, nullptr);
}

void LegacySseTransport::post(const QNetworkRequest &req, const QByteArray &encoded, const QJsonValue &id,
                              const QString &method, const QNetworkReply *redirected)
{
    QNetworkReply *reply = m_nam->post(req, encoded);
    if (redirected)
        followRedirect(reply, redirected);
    HttpExchange http = HttpExchange::begin(req, "POST", encoded);
    guardRedirects(
        reply, [this](const QString &line) { report(line); },
        [this, reply, encoded, id, method, http](const QUrl &target) mutable {
            http.appendResponseBody(readRemaining(reply));
            http.finish(reply);
            Q_EMIT httpExchanged(http);
            reply->disconnect(this);
            reply->deleteLater();
            post(redirectedRequest(reply, target), encoded, id, method, reply);
        });
    connect(reply, &QNetworkReply::finished, this, [this, reply, id, method, http]() mutable {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray body = readRemaining(reply);
        http.appendResponseBody(body);
        http.finish(reply);
        Q_EMIT httpExchanged(http);
        qCDebug(lcHttp).noquote() << "HTTP+SSE: POST"
                                  << (method.isEmpty() ? QStringLiteral("(a response)") : method)
                                  << "answered: HTTP" << status
                                  << reply->header(QNetworkRequest::ContentTypeHeader).toString();
        if (status >= 300 || (reply->error() != QNetworkReply::NoError && status == 0)) {
            if (!id.isNull())
                Q_EMIT requestFailed(id, httpReplyError(reply, body));
        }
        // 2xx: the answer arrives on the stream.
    });
}

void LegacySseTransport::close()
{
    if (m_finished)
        return;
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->abort();
        m_stream->deleteLater();
        m_stream = nullptr;
    }
    m_open = false;
    QTimer::singleShot(0, this, [this] { finish({}); });
}

void LegacySseTransport::report(const QString &line)
{
    qCInfo(lcHttp).noquote() << line;
    Q_EMIT diagnostic(line);
}

void LegacySseTransport::finish(const McpError &error)
{
    if (m_finished)
        return;
    m_finished = true;
    m_open = false;
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->abort();
        m_stream->deleteLater();
        m_stream = nullptr;
    }
    Q_EMIT closed(error);
}

} // namespace folio
