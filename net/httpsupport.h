#pragma once

#include "httpendpoint.h"
#include "mcperror.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QNetworkReply>

class QNetworkRequest;
struct QJsonParseError;

namespace folio {

// A request to target with the endpoint's headers, bearer token and transfer timeout.
QNetworkRequest makeRequest(const HttpEndpoint &endpoint, const QUrl &target, const QByteArray &accept);

// What a body that is not the JSON asked for is, in a few words: an HTML page by its title (a
// login page, a proxy's error page), else its first characters, at most width of them.
QString describeBody(const QByteArray &contentType, const QByteArray &body, int width);
// "GET", "POST", "DELETE", ...
QByteArray operationName(const QNetworkReply *reply);
// The User-Agent of every HTTP request: folio/VERSION.
QString userAgent();

// The error a failed HTTP reply stands for: 401/403 with their WWW-Authenticate details,
// other statuses, TLS and network errors, in words a person understands.
McpError httpReplyError(QNetworkReply *reply, const QByteArray &body);

// What is left to read of a reply: nothing once it was aborted, by us or by Qt (a transfer
// timeout), since abort() closes it before it emits finished().
QByteArray readRemaining(QNetworkReply *reply);

// "Not JSON: <why> at offset N", saying "invalid UTF-8" for text that is not UTF-8.
QString jsonErrorText(const QJsonParseError &error);

// One JSON body as messages: an object, or a JSON-RPC batch (2025-03-26). Fails with a reason.
bool parseJsonMessages(const QByteArray &body, QList<QJsonObject> *messages, QString *why);

// A header value that is not plain printable ASCII is sent as =?base64?...?= (2026-07-28).
QByteArray encodeHeaderValue(const QString &value);

} // namespace folio
