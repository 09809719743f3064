#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

class QNetworkReply;
class QNetworkRequest;

namespace folio {

// One HTTP request and its answer, as an HTTP transport saw them: what a HAR entry needs. The
// transport records it as sent and received; TrafficLog::appendHttp() masks it before keeping it.
struct HttpExchange
{
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    qint64 startedMs = 0;    // wall clock, ms since epoch, as the request was sent
    qint64 firstByteMs = -1; // wall clock: the response's headers arrived (-1: never)
    qint64 finishedMs = -1;  // wall clock: the response ended or failed
    QByteArray method;       // "GET", "POST", "DELETE"
    QString url;             // without user info
    Headers requestHeaders;
    QByteArray requestBody;
    int status = 0; // 0: no HTTP answer (a network error)
    QByteArray statusText;
    bool http2 = false;
    Headers responseHeaders;
    QByteArray responseBody;  // as read, SSE framing included; cut at maxBodyBytes
    qint64 responseBytes = 0; // the real size read
    QString error;            // the network error, when the request failed below HTTP, or why its
                              // redirect was not followed

    static constexpr qint64 maxBodyBytes = 1024 * 1024;

    // The request as about to be sent.
    static HttpExchange begin(const QNetworkRequest &request, const QByteArray &method,
                              const QByteArray &body);
    // Status and headers, once they arrived (again: no harm).
    void readResponseHead(const QNetworkReply *reply);
    void appendResponseBody(const QByteArray &bytes);
    // The answer ended: its head if not read yet, the time, a network error.
    void finish(const QNetworkReply *reply);
    QByteArray header(const Headers &headers, QByteArrayView name) const;
};

} // namespace folio
