#pragma once

#include "httpsupport.h"
#include "sseparser.h"
#include "transport.h"

#include <QPointer>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace folio {

// The HTTP+SSE transport of 2024-11-05: a long-lived GET stream whose first `endpoint` event names
// the URL to POST messages to; every answer arrives as a `message` event on the stream.
class LegacySseTransport : public Transport
{
    Q_OBJECT
public:
    explicit LegacySseTransport(const HttpEndpoint &endpoint, QObject *parent = nullptr);
    ~LegacySseTransport() override;

    void setEndpointTimeoutMs(int ms) { m_endpointTimeoutMs = ms; }

    void open() override;
    void send(const QJsonObject &message, const QByteArray &encoded) override;
    void close() override;
    bool isOpen() const override { return m_open; }
    QString kindName() const override { return QStringLiteral("http+sse"); }

    QUrl postUrl() const { return m_postUrl; }

private:
    // The GET stream (again at a redirect's target when redirected is the 3xx that sent it there).
    void openStream(const QNetworkRequest &req, const QNetworkReply *redirected);
    // One message to the endpoint (again at a redirect's target when redirected is its 3xx).
    void post(const QNetworkRequest &req, const QByteArray &encoded, const QJsonValue &id,
              const QString &method, const QNetworkReply *redirected);
    void handleStreamData();
    void handleStreamFinished();
    void finish(const McpError &error);
    // A transport event for the traffic log (diagnostic()) and for folio.net.http.
    void report(const QString &line);

    QNetworkAccessManager *m_nam;
    HttpEndpoint m_endpoint;
    QPointer<QNetworkReply> m_stream;
    SseParser m_sse;
    HttpExchange m_streamHttp; // the GET stream, for the traffic log's HAR
    QUrl m_postUrl;
    int m_endpointTimeoutMs = 10000;
    bool m_open = false;
    bool m_finished = false;
};

} // namespace folio
