#pragma once

#include "httpendpoint.h"
#include "mcperror.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QNetworkReply>

#include <functional>

class QNetworkRequest;
struct QJsonParseError;

namespace folio {

// A request to target with the endpoint's headers, token and transfer timeout, to be sent with verb
// (a DPoP proof names the method). Send it, then guardRedirects() on the reply.
QNetworkRequest makeRequest(const HttpEndpoint &endpoint, const QUrl &target, const QByteArray &accept,
                            const QByteArray &verb);

// The rule for every redirect of a request made by makeRequest() (docs/reliability.md, "Credentials
// and origins"): a request's token and headers were given for its origin, so a redirect is followed
// only when it stays on that origin and keeps the method (a 301, 302 or 303 turns a POST or DELETE
// into a GET), only one a request, and only where the caller can send its request again (follow).
// Qt follows none itself: a 3xx finishes its reply. Call this before connecting the reply's
// finished(): a redirect to follow calls follow(target) (the caller sends the same request there,
// with redirectedRequest() and followRedirect(), and forgets this reply: redirectFollowed() is
// true); any other is refused, report() is told why in one line, and httpReplyError() (and
// HttpExchange::finish()) say the same.
void guardRedirects(QNetworkReply *reply, std::function<void(const QString &line)> report,
                    std::function<void(const QUrl &target)> follow = {});
// The request of reply, to target: the same headers, token and timeout.
QNetworkRequest redirectedRequest(const QNetworkReply *reply, const QUrl &target);
// next is redirected's request sent again to its redirect's target: counts the redirect.
void followRedirect(QNetworkReply *next, const QNetworkReply *redirected);
// Whether guardRedirects() followed reply's redirect (its finished() then has nothing to say).
bool redirectFollowed(const QNetworkReply *reply);
// Why guardRedirects() refused a redirect of reply; no error when it did not.
McpError redirectRefusal(const QNetworkReply *reply);
// One origin (RFC 6454): the same scheme, host and port, default ports filled in.
bool isSameOrigin(const QUrl &a, const QUrl &b);
// "http://127.0.0.1:8080": an origin as people read it.
QString originText(const QUrl &url);

// What a body that is not the JSON asked for is, in a few words: an HTML page by its title (a
// login page, a proxy's error page), else its first characters, at most width of them.
QString describeBody(const QByteArray &contentType, const QByteArray &body, int width);
// "GET", "POST", "DELETE", ...
QByteArray operationName(const QNetworkReply *reply);
// The User-Agent of every HTTP request: folio/VERSION.
QString userAgent();

// The error a failed HTTP reply stands for: a redirect guardRedirects() refused, 401/403 with their
// WWW-Authenticate details, other statuses, TLS and network errors, in words a person understands.
McpError httpReplyError(QNetworkReply *reply, const QByteArray &body);

// What is left to read of a reply: nothing once it was aborted, by us or by Qt (a transfer
// timeout), since abort() closes it before it emits finished().
QByteArray readRemaining(QNetworkReply *reply);

// "Not JSON: <why> at offset N", saying "invalid UTF-8" for text that is not UTF-8.
QString jsonErrorText(const QJsonParseError &error);

// A header value that is not plain printable ASCII is sent as =?base64?...?= (2026-07-28).
QByteArray encodeHeaderValue(const QString &value);

} // namespace folio
