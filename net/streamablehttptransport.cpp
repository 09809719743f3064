#include "streamablehttptransport.h"

#include "authorizer.h"
#include "jsonrpcconnection.h"
#include "netlogging.h"
#include "protocol.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

namespace folio {

namespace {
QString idText(const QJsonValue &id)
{
    return id.isString() ? id.toString() : QString::number(id.toInteger());
}
} // namespace

StreamableHttpTransport::StreamableHttpTransport(const HttpEndpoint &endpoint, QObject *parent)
    : Transport(parent)
    , m_nam(new QNetworkAccessManager(this))
    , m_endpoint(endpoint)
{}

StreamableHttpTransport::~StreamableHttpTransport()
{
    const auto replies = m_exchanges.keys();
    m_exchanges.clear();
    for (QNetworkReply *r : replies) {
        r->disconnect(this);
        r->abort();
        r->deleteLater();
    }
}

void StreamableHttpTransport::open()
{
    // Nothing to connect up front: every message is its own POST.
    m_open = true;
    qCDebug(lcHttp).noquote() << "Streamable HTTP to" << m_endpoint.url.toString(QUrl::RemoveUserInfo);
    QTimer::singleShot(0, this, [this] {
        if (m_open)
            Q_EMIT opened();
    });
}

void StreamableHttpTransport::send(const QJsonObject &message, const QByteArray &encoded)
{
    const QJsonValue id = message.value(QStringLiteral("id"));
    if (!m_open) {
        Q_EMIT requestFailed(
            id, McpError::make(McpError::Kind::Closed, QStringLiteral("The transport is closed")));
        return;
    }
    post(message, encoded, messageHeaders(), 0);
}

void StreamableHttpTransport::post(const QJsonObject &message, const QByteArray &encoded,
                                   const HeaderList &headers, int authRetries)
{
    const QJsonValue id = message.value(QStringLiteral("id"));
    QNetworkRequest req =
        makeRequest(m_endpoint, m_endpoint.url, "application/json, text/event-stream", "POST");
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    const bool modern = Revision::isModern(m_protocolVersion);
    const QString method = message.value(QStringLiteral("method")).toString();
    if (!m_protocolVersion.isEmpty())
        req.setRawHeader("MCP-Protocol-Version", m_protocolVersion.toLatin1());
    if (modern) {
        if (!method.isEmpty())
            req.setRawHeader("Mcp-Method", encodeHeaderValue(method));
        const QJsonObject params = message.value(QStringLiteral("params")).toObject();
        if (method == QLatin1String("tools/call") || method == QLatin1String("prompts/get"))
            req.setRawHeader("Mcp-Name", encodeHeaderValue(params.value(QStringLiteral("name")).toString()));
        else if (method == QLatin1String("resources/read"))
            req.setRawHeader("Mcp-Name", encodeHeaderValue(params.value(QStringLiteral("uri")).toString()));
        else if (method.startsWith(QLatin1String("tasks/")))
            req.setRawHeader("Mcp-Name",
                             encodeHeaderValue(params.value(QStringLiteral("taskId")).toString()));
        for (const auto &[name, value] : headers)
            req.setRawHeader(name, value);
    } else if (!m_sessionId.isEmpty()) {
        req.setRawHeader("Mcp-Session-Id", m_sessionId);
    }
    Exchange ex;
    // Only a request waits for an answer; a notification has no id (value() would be undefined).
    const bool isRequest =
        message.contains(QStringLiteral("method")) && message.contains(QStringLiteral("id"));
    ex.id = isRequest ? id : QJsonValue();
    ex.method = method.toUtf8();
    ex.http = HttpExchange::begin(req, "POST", encoded);
    ex.encoded = encoded; // shared with the request Qt holds: sent again after a redirect
    if (m_endpoint.authorizer) {
        ex.message = message;
        ex.headers = headers;
        ex.token = m_endpoint.authorizer->accessToken();
        ex.authRetries = authRetries;
    }
    qCDebug(lcHttp).noquote() << "POST" << exchangeName(ex) << encoded.size() << "bytes";
    watch(m_nam->post(req, encoded), ex);
}

void StreamableHttpTransport::openServerStream()
{
    if (!m_open || m_serverStream || Revision::isModern(m_protocolVersion))
        return;
    const QNetworkRequest req = streamRequest(m_lastEventId);
    Exchange ex;
    ex.serverStream = true;
    ex.http = HttpExchange::begin(req, "GET", {});
    qCDebug(lcHttp) << "GET stream requested"
                    << (m_lastEventId.isEmpty() ? "" : "(resuming after an event id)");
    QNetworkReply *reply = m_nam->get(req);
    m_serverStream = reply;
    watch(reply, ex);
}

QNetworkRequest StreamableHttpTransport::streamRequest(const QByteArray &lastEventId) const
{
    QNetworkRequest req = makeRequest(m_endpoint, m_endpoint.url, "text/event-stream", "GET");
    if (!m_protocolVersion.isEmpty())
        req.setRawHeader("MCP-Protocol-Version", m_protocolVersion.toLatin1());
    if (!m_sessionId.isEmpty())
        req.setRawHeader("Mcp-Session-Id", m_sessionId);
    if (!lastEventId.isEmpty())
        req.setRawHeader("Last-Event-ID", lastEventId);
    return req;
}

bool StreamableHttpTransport::resumeStream(const Exchange &ended)
{
    // 2026 has no resumption (a lost stream loses its request); a stream without event ids
    // cannot be resumed; and a server that keeps ending streams is not followed for ever.
    constexpr int maxResumes = 5;
    if (!m_open || Revision::isModern(m_protocolVersion) || ended.lastEventId.isEmpty() ||
        ended.resumes >= maxResumes)
        return false;
    const int retryMs = ended.sse.retryMs().value_or(1000);
    report(QStringLiteral("The SSE stream of %1 ended before its response; resuming it after %2 ms with "
                          "Last-Event-ID %3")
               .arg(exchangeName(ended), QString::number(retryMs), QString::fromLatin1(ended.lastEventId)));
    QTimer::singleShot(retryMs, this, [this, ended] {
        if (!m_open)
            return;
        const QNetworkRequest req = streamRequest(ended.lastEventId);
        Exchange ex;
        ex.id = ended.id;
        ex.method = ended.method;
        ex.lastEventId = ended.lastEventId;
        ex.resumes = ended.resumes + 1;
        ex.http = HttpExchange::begin(req, "GET", {});
        qCDebug(lcHttp).noquote() << "GET to resume" << exchangeName(ended);
        watch(m_nam->get(req), ex);
    });
    return true;
}

void StreamableHttpTransport::watch(QNetworkReply *reply, Exchange ex)
{
    m_exchanges.insert(reply, ex);
    guardRedirects(
        reply, [this](const QString &line) { report(line); },
        [this, reply](const QUrl &target) { sendAgain(reply, target); });
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { handleReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { handleFinished(reply); });
}

void StreamableHttpTransport::sendAgain(QNetworkReply *redirected, const QUrl &target)
{
    const auto it = m_exchanges.find(redirected);
    if (it == m_exchanges.end())
        return;
    const Exchange was = *it;
    m_exchanges.erase(it);
    // The 3xx is an exchange of its own in the traffic log.
    HttpExchange http = was.http;
    http.appendResponseBody(readRemaining(redirected));
    http.finish(redirected);
    Q_EMIT httpExchanged(http);
    redirected->disconnect(this);
    redirected->deleteLater();

    // The same request at the target: what the answer brought so far is forgotten.
    Exchange ex;
    ex.id = was.id;
    ex.method = was.method;
    ex.serverStream = was.serverStream;
    ex.lastEventId = was.lastEventId;
    ex.resumes = was.resumes;
    ex.message = was.message;
    ex.encoded = was.encoded;
    ex.headers = was.headers;
    ex.token = was.token;
    ex.authRetries = was.authRetries;
    const QNetworkRequest req = redirectedRequest(redirected, target);
    const QByteArray verb = operationName(redirected);
    ex.http = HttpExchange::begin(req, verb, verb == "POST" ? was.encoded : QByteArray());
    QNetworkReply *reply = verb == "POST"  ? m_nam->post(req, was.encoded)
                           : verb == "GET" ? m_nam->get(req)
                                           : m_nam->sendCustomRequest(req, verb, was.encoded);
    followRedirect(reply, redirected);
    if (ex.serverStream)
        m_serverStream = reply;
    watch(reply, ex);
}

void StreamableHttpTransport::decideContentType(QNetworkReply *reply, Exchange &ex)
{
    if (ex.decided)
        return;
    ex.decided = true;
    const QByteArray type = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray().toLower();
    ex.isSse = type.startsWith("text/event-stream");
    qCDebug(lcHttp).noquote() << "HTTP" << reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt()
                              << (type.isEmpty() ? QByteArray("(no content type)") : type) << "for"
                              << exchangeName(ex);
    if (ex.isSse)
        qCDebug(lcHttp).noquote() << "SSE stream opened for" << exchangeName(ex);
    const QByteArray session = reply->rawHeader("Mcp-Session-Id");
    if (!session.isEmpty() && !Revision::isModern(m_protocolVersion) && session != m_sessionId) {
        m_sessionId = session;
        report(QStringLiteral("HTTP session %1").arg(QString::fromLatin1(session)));
    }
}

void StreamableHttpTransport::drop(QNetworkReply *reply)
{
    const auto it = m_exchanges.find(reply);
    if (it != m_exchanges.end()) {
        // Given up (timeout, cancel, over the size limit): still an exchange the log shows.
        HttpExchange http = it->http;
        m_exchanges.erase(it);
        http.finish(reply);
        if (http.error.isEmpty())
            http.error = QStringLiteral("abandoned by Folio");
        Q_EMIT httpExchanged(http);
    }
    reply->disconnect(this);
    reply->abort();
    reply->deleteLater();
}

void StreamableHttpTransport::failTooLarge(QNetworkReply *reply, const McpError &error)
{
    const auto it = m_exchanges.constFind(reply);
    if (it == m_exchanges.cend())
        return;
    const Exchange ex = *it;
    drop(reply);
    qCInfo(lcHttp).noquote() << exchangeName(ex) << "aborted:" << error.message;
    if (ex.serverStream)
        report(QStringLiteral("The GET stream was closed: ") + error.message);
    else if (!ex.id.isNull() && !ex.answered)
        Q_EMIT requestFailed(ex.id, error);
}

void StreamableHttpTransport::abandon(const QJsonValue &id)
{
    for (auto it = m_exchanges.begin(); it != m_exchanges.end(); ++it) {
        if (!it->serverStream && !it->id.isNull() && it->id == id) {
            qCDebug(lcHttp).noquote() << "abandoning" << exchangeName(*it);
            drop(it.key());
            return;
        }
    }
}

void StreamableHttpTransport::handleReadyRead(QNetworkReply *reply)
{
    auto it = m_exchanges.find(reply);
    if (it == m_exchanges.end())
        return;
    Exchange &ex = *it;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    decideContentType(reply, ex);
    ex.http.readResponseHead(reply);
    if (ex.isSse && status < 300) {
        // Checked as the event is read: an event that never ends stops at the limit.
        bool over = false;
        const QByteArray chunk = readRemaining(reply);
        ex.http.appendResponseBody(chunk);
        const QList<SseEvent> events = ex.sse.feed(chunk, m_maxMessageBytes, &over);
        const qsizetype buffered = ex.sse.bufferedBytes();
        const bool serverStream = ex.serverStream;
        for (const SseEvent &ev : events) {
            // Looked up again for each event: what an event's receiver does (send the next
            // request) may grow the table, and a reference into it would not survive that.
            const auto cur = m_exchanges.find(reply);
            if (cur == m_exchanges.end())
                return;
            // Last-Event-ID resumes the stream the id came from, and only the GET stream is ever
            // resumed: an id from a POST's stream would make the server replay that stream instead.
            if (!ev.id.isEmpty()) {
                cur->lastEventId = ev.id;
                if (serverStream)
                    m_lastEventId = ev.id;
            }
            if (ev.event == "message")
                deliver(ev.data, *cur);
        }
        if (over)
            failTooLarge(
                reply,
                tooLarge(
                    QStringLiteral("An SSE event (%1 read, not ended)").arg(McpError::sizeText(buffered))));
        return;
    }
    if (status < 300) {
        // A declared length over the limit is refused before its first byte is kept.
        bool known = false;
        const qint64 declared = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(&known);
        if (known && declared > m_maxMessageBytes) {
            failTooLarge(
                reply,
                tooLarge(
                    QStringLiteral("The response (Content-Length %1)").arg(McpError::sizeText(declared))));
            return;
        }
    }
    // Judged before it is copied out of the reply: Qt may hand over tens of MB at once.
    const qint64 read = ex.body.size() + (reply->isOpen() ? reply->bytesAvailable() : 0);
    if (read > m_maxMessageBytes) {
        failTooLarge(
            reply,
            tooLarge(
                QStringLiteral("The response (%1 read before Folio stopped)").arg(McpError::sizeText(read))));
        return;
    }
    const QByteArray chunk = readRemaining(reply);
    ex.http.appendResponseBody(chunk);
    ex.body.append(chunk);
}

void StreamableHttpTransport::deliver(const QByteArray &raw, Exchange &ex)
{
    if (raw.trimmed().isEmpty())
        return;
    FrameOrigin origin;
    origin.exchangeId = ex.id;
    const FrameReceipt receipt = handUp(raw, origin);
    if (!ex.id.isNull() && receipt.answered.contains(ex.id))
        ex.answered = true;
}

void StreamableHttpTransport::handleFinished(QNetworkReply *reply)
{
    handleReadyRead(reply);
    auto it = m_exchanges.find(reply);
    if (it == m_exchanges.end())
        return;
    Exchange ex = *it;
    m_exchanges.erase(it);
    reply->deleteLater();
    ex.http.finish(reply);
    Q_EMIT httpExchanged(ex.http);
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const bool netError = reply->error() != QNetworkReply::NoError && status == 0;
    // The status and content type were logged as the answer began (decideContentType()).
    if (netError)
        qCDebug(lcHttp).noquote() << exchangeName(ex) << "failed:" << reply->errorString();
    else if (ex.isSse)
        qCDebug(lcHttp).noquote() << "SSE stream closed for" << exchangeName(ex);

    // The first request sent again with a new token: the sign-in's last step says how it went.
    if (ex.authRetries > 0 && m_endpoint.authorizer && !ex.id.isNull() && !netError)
        m_endpoint.authorizer->noteAuthorizedRequest(QString::fromUtf8(ex.method), status);

    if (ex.serverStream) {
        if (status == 405 || status == 404)
            report(QStringLiteral("The server offers no GET stream (HTTP %1)").arg(status));
        else if (m_open && status < 300 && !netError)
            QTimer::singleShot(ex.sse.retryMs().value_or(1000), this,
                               &StreamableHttpTransport::openServerStream);
        else if (m_open && !redirectRefusal(reply).isError()) // a refusal was said as it happened
            report(QStringLiteral("The GET stream ended: %1").arg(httpReplyError(reply, ex.body).describe()));
        return;
    }

    // A 2xx answer whose transfer broke (reset, short body, bad chunked encoding): what was read is
    // not parsed, it is a part.
    if (reply->error() != QNetworkReply::NoError && status >= 200 && status < 300) {
        if (!ex.id.isNull() && !ex.answered)
            Q_EMIT requestFailed(ex.id, httpReplyError(reply, ex.body));
        return;
    }

    // A body shorter than its Content-Length: Qt takes the connection's end for the body's.
    // (Not with a Content-Encoding, whose length is the encoded one.)
    bool known = false;
    const qint64 declared = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(&known);
    if (known && !ex.isSse && status >= 200 && status < 300 && ex.body.size() < declared &&
        !reply->hasRawHeader("Content-Encoding")) {
        if (!ex.id.isNull() && !ex.answered)
            Q_EMIT requestFailed(
                ex.id, McpError::make(McpError::Kind::ConnectionFailed,
                                      QStringLiteral("The connection broke off during the HTTP "
                                                     "%1 response: %2 of the %3 bytes its "
                                                     "Content-Length announced arrived")
                                          .arg(QString::number(status), QString::number(ex.body.size()),
                                               QString::number(declared))));
        return;
    }

    // A body: a result, or a JSON-RPC error even under a 4xx (the era probe reads it). An empty
    // body (a notification's 202) is no message.
    if (!netError && !ex.isSse && !ex.body.trimmed().isEmpty()) {
        FrameOrigin origin;
        origin.exchangeId = ex.id;
        origin.errorStatus = status >= 300;
        // The request fails with what came instead before the connection hears of a body that
        // is not JSON (which would fail it with the parser's words alone).
        origin.reportNotJson = false;
        const FrameReceipt receipt = handUp(ex.body, origin);
        if (!ex.id.isNull() && receipt.answered.contains(ex.id))
            ex.answered = true;
        if (receipt.used && (ex.answered || ex.id.isNull()))
            return;
        if (!receipt.json && status < 300) {
            if (!ex.id.isNull()) {
                // The content type and the start of the body say what came instead: a login
                // page, a proxy's error page.
                const QByteArray type = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
                const QString typeName = type.isEmpty()
                                             ? QStringLiteral("no Content-Type")
                                             : QString::fromLatin1(type.split(';').first().trimmed());
                Q_EMIT requestFailed(
                    ex.id, McpError::make(McpError::Kind::MalformedMessage,
                                          QStringLiteral("%1 %2 answered %3, not JSON (HTTP %4): %5 (%6)")
                                              .arg(QString::fromLatin1(operationName(reply)),
                                                   reply->url().toString(QUrl::RemoveUserInfo), typeName,
                                                   QString::number(status), describeBody(type, ex.body, 120),
                                                   receipt.error.message)));
            }
            Q_EMIT malformedMessage(ex.body, receipt.error);
            return;
        }
    }
    if (ex.id.isNull() || ex.answered)
        return; // notifications and responses get 202; nothing waits on them
    if (ex.isSse && status >= 200 && status < 300 && !netError && resumeStream(ex))
        return;
    if (status >= 200 && status < 300 && !netError) {
        const QString why =
            ex.isSse ? QStringLiteral("The SSE stream ended before the response arrived")
                     : QStringLiteral("The HTTP response (status %1) carried no answer").arg(status);
        Q_EMIT requestFailed(ex.id, McpError::make(McpError::Kind::Closed, why));
        return;
    }
    if ((status == 401 || status == 403) && askAuthorizer(reply, ex, status))
        return;
    McpError e = httpReplyError(reply, ex.body);
    if (status == 404 && !m_sessionId.isEmpty())
        e.message = QStringLiteral("The HTTP session expired (404); reconnect to start a new one");
    Q_EMIT requestFailed(ex.id, e);
}

bool StreamableHttpTransport::askAuthorizer(QNetworkReply *reply, const Exchange &ex, int status)
{
    Authorizer *authorizer = m_endpoint.authorizer;
    if (!authorizer || !m_open || ex.message.isEmpty() || ex.authRetries >= maxAuthRetries)
        return false;
    const QByteArray challenge = reply->rawHeader("WWW-Authenticate");
    authorizer->noteDpopNonce(reply->rawHeader("DPoP-Nonce"));
    const McpError refused = httpReplyError(reply, ex.body);
    report(QStringLiteral("%1 was refused (HTTP %2): asking the authorization server for a token")
               .arg(exchangeName(ex), QString::number(status)));
    // A sign-in can take as long as the user takes in the browser: the request's timeout waits.
    Q_EMIT requestHeld(ex.id, true);
    const QJsonValue id = ex.id;
    authorizer->handleRefusal(status, challenge, ex.token, this,
                              [this, id, message = ex.message, encoded = ex.encoded, headers = ex.headers,
                               retries = ex.authRetries, refused](const McpError &error) {
                                  Q_EMIT requestHeld(id, false);
                                  if (!m_open)
                                      return;
                                  if (error.isError()) {
                                      McpError e = error;
                                      e.httpStatus = refused.httpStatus;
                                      e.wwwAuthenticate = refused.wwwAuthenticate;
                                      Q_EMIT requestFailed(id, e);
                                      return;
                                  }
                                  post(message, encoded, headers, retries + 1);
                              });
    return true;
}

void StreamableHttpTransport::close()
{
    if (!m_open)
        return;
    m_open = false;
    if (m_serverStream) {
        // Forgotten before it is aborted: abort() closes the reply and then emits finished() at
        // once, whose handler would read the closed reply (Qt's "QIODevice::read
        // (QNetworkReplyHttpImpl): device not open") for a stream nobody waits on any more.
        QNetworkReply *stream = m_serverStream;
        m_exchanges.remove(stream);
        stream->disconnect(this);
        stream->abort();
        stream->deleteLater();
        qCDebug(lcHttp) << "GET stream closed";
    }
    if (!m_sessionId.isEmpty() && !Revision::isModern(m_protocolVersion)) {
        // End the session politely; 405 means the server does not allow it, which is fine.
        QNetworkRequest req =
            makeRequest(m_endpoint, m_endpoint.url, "application/json, text/event-stream", "DELETE");
        req.setRawHeader("Mcp-Session-Id", m_sessionId);
        if (!m_protocolVersion.isEmpty())
            req.setRawHeader("MCP-Protocol-Version", m_protocolVersion.toLatin1());
        req.setTransferTimeout(2000);
        qCDebug(lcHttp) << "DELETE to end the HTTP session";
        endSession(req, nullptr);
        return;
    }
    QTimer::singleShot(0, this, [this] { Q_EMIT closed({}); });
}

void StreamableHttpTransport::endSession(const QNetworkRequest &req, const QNetworkReply *redirected)
{
    QNetworkReply *del = m_nam->deleteResource(req);
    if (redirected)
        followRedirect(del, redirected);
    guardRedirects(
        del, [this](const QString &line) { report(line); },
        [this, del](const QUrl &target) {
            del->disconnect(this);
            del->deleteLater();
            endSession(redirectedRequest(del, target), del);
        });
    // Closed only once the DELETE is done: whoever owns us deletes us on closed(), and the
    // request would die with our QNetworkAccessManager before it left (the transfer timeout
    // bounds the wait).
    connect(del, &QNetworkReply::finished, this, [this, del] {
        qCDebug(lcHttp) << "DELETE answered: HTTP"
                        << del->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        del->deleteLater();
        Q_EMIT closed({});
    });
}

QString StreamableHttpTransport::exchangeName(const Exchange &ex)
{
    if (ex.serverStream)
        return QStringLiteral("the GET stream");
    if (ex.method.isEmpty())
        return QStringLiteral("a response POST");
    return QString::fromUtf8(ex.method) +
           (ex.id.isNull() ? QString() : QStringLiteral(" id ") + idText(ex.id));
}

void StreamableHttpTransport::report(const QString &line)
{
    qCInfo(lcHttp).noquote() << line;
    Q_EMIT diagnostic(line);
}

} // namespace folio
