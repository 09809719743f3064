#pragma once

#include "httpsupport.h"
#include "sseparser.h"
#include "transport.h"

#include <QHash>
#include <QPointer>

class QNetworkAccessManager;
class QNetworkReply;

namespace folio {

// MCP Streamable HTTP (2025-03-26 onwards, and 2026-07-28): one POST per message, answered with
// JSON or an SSE stream parsed as bytes arrive. 2025 era: Mcp-Session-Id and the optional GET
// stream; 2026-07-28: no session, Mcp-Method/Mcp-Name headers on every POST.
class StreamableHttpTransport : public Transport
{
    Q_OBJECT
public:
    explicit StreamableHttpTransport(const HttpEndpoint &endpoint, QObject *parent = nullptr);
    ~StreamableHttpTransport() override;

    void open() override;
    void send(const QJsonObject &message, const QByteArray &encoded) override;
    void close() override;
    bool isOpen() const override { return m_open; }
    QString kindName() const override { return QStringLiteral("streamable-http"); }
    void openServerStream() override;
    void abandon(const QJsonValue &id) override;

    QByteArray sessionId() const { return m_sessionId; }

private:
    struct Exchange
    {
        QJsonValue id; // the request's id (null for notifications/responses)
        QByteArray method;
        QByteArray body; // JSON bodies are buffered whole
        SseParser sse;
        bool isSse = false;
        bool decided = false;  // content type known
        bool answered = false; // the response for id arrived
        bool serverStream = false;
        QByteArray lastEventId; // the last SSE event id this stream carried
        int resumes = 0;        // GETs made so far to resume this request's stream
        HttpExchange http;      // for the traffic log's HAR
        // To send a request again after a sign-in or a refresh (Authorizer).
        QJsonObject message;
        QByteArray encoded;
        HeaderList headers;
        QString token;       // the access token it carried
        int authRetries = 0; // times it was sent again for a new token (at most maxAuthRetries)
    };
    static constexpr int maxAuthRetries = 3;
    void post(const QJsonObject &message, const QByteArray &encoded, const HeaderList &headers,
              int authRetries);
    // A 401/403 the authorizer may answer with a new token: true when the request waits for it.
    bool askAuthorizer(QNetworkReply *reply, const Exchange &ex, int status);

    void handleReadyRead(QNetworkReply *reply);
    void handleFinished(QNetworkReply *reply);
    void decideContentType(QNetworkReply *reply, Exchange &ex);
    void deliver(const QByteArray &raw, Exchange &ex);
    void watch(QNetworkReply *reply, Exchange ex);
    // A redirect guardRedirects() follows: the request of redirected sent again to target.
    void sendAgain(QNetworkReply *redirected, const QUrl &target);
    // The DELETE that ends the session (again at a redirect's target when redirected is its 3xx);
    // closed() once it is answered.
    void endSession(const QNetworkRequest &req, const QNetworkReply *redirected);
    // 2025 era: a request's SSE stream ended before its response; a GET with Last-Event-ID
    // resumes it (after the stream's retry: time), where the response then arrives.
    bool resumeStream(const Exchange &ended);
    // A GET for an SSE stream: a new one, or one resumed after lastEventId.
    QNetworkRequest streamRequest(const QByteArray &lastEventId) const;
    // Stops reading a reply for good: forgotten, aborted, deleted later.
    void drop(QNetworkReply *reply);
    // The exchange's answer is over the size limit: stop reading it and fail its request.
    void failTooLarge(QNetworkReply *reply, const McpError &error);
    // "tools/list id 7", "the GET stream": which exchange a log line is about.
    static QString exchangeName(const Exchange &ex);
    // A transport event for the traffic log (diagnostic()) and for folio.net.http.
    void report(const QString &line);

    QNetworkAccessManager *m_nam;
    HttpEndpoint m_endpoint;
    QByteArray m_sessionId;
    QHash<QNetworkReply *, Exchange> m_exchanges;
    QPointer<QNetworkReply> m_serverStream;
    QByteArray m_lastEventId;
    bool m_open = false;
};

} // namespace folio
