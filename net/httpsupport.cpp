#include "httpsupport.h"

#include "authorizer.h"
#include "httpexchange.h"
#include "netlogging.h"
#include "wwwauthenticate.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkRequest>
#include <QStringList>

namespace folio {

namespace {

// A server's text as a message shows it: control characters (a terminal's escape sequence, a NUL)
// become U+FFFD.
QString oneLine(QString text)
{
    for (QChar &c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            c = QChar(0xfffd);
    }
    return text;
}

// Where guardRedirects() keeps its refusal on the reply, for whoever reads the reply's end.
constexpr char redirectRefusalProperty[] = "folioRedirectRefusal";
// Where a followed redirect's next reply keeps the URL first asked and the redirects so far, and
// where a 3xx that was followed says so (its transport then forgets it).
constexpr char redirectFirstProperty[] = "folioRedirectFirst";
constexpr char redirectHopsProperty[] = "folioRedirectHops";
constexpr char redirectFollowedProperty[] = "folioRedirectFollowed";

} // namespace

QString describeBody(const QByteArray &contentType, const QByteArray &body, int width)
{
    const QByteArray head = body.left(64 * 1024);
    const QByteArray lower = head.toLower();
    const bool html = contentType.toLower().contains("html") ||
                      lower.trimmed().startsWith("<!doctype html") || lower.trimmed().startsWith("<html");
    if (html) {
        // A login page, a proxy's or a framework's error page: its title says what it is.
        const qsizetype open = lower.indexOf("<title");
        const qsizetype start = open < 0 ? -1 : lower.indexOf('>', open);
        const qsizetype end = start < 0 ? -1 : lower.indexOf("</title", start);
        QString title = end > start
                            ? oneLine(QString::fromUtf8(head.mid(start + 1, end - start - 1)).simplified())
                            : QString();
        if (title.size() > width)
            title = title.left(width - 1) + QChar(0x2026);
        return title.isEmpty() ? QStringLiteral("an HTML page")
                               : QStringLiteral("an HTML page titled \"%1\"").arg(title);
    }
    QString text = oneLine(QString::fromUtf8(body.left(width * 4)).simplified());
    if (text.size() > width)
        text = text.left(width - 1) + QChar(0x2026);
    return text;
}

QString userAgent()
{
    const QString version = QCoreApplication::applicationVersion();
    return QStringLiteral("folio/") + (version.isEmpty() ? QStringLiteral("0.1.0") : version);
}

QNetworkRequest makeRequest(const HttpEndpoint &endpoint, const QUrl &target, const QByteArray &accept,
                            const QByteArray &verb)
{
    QNetworkRequest req(target);
    req.setRawHeader("Accept", accept);
    req.setHeader(QNetworkRequest::UserAgentHeader, userAgent());
    // Qt would follow a redirect anywhere, the Authorization header and every configured header
    // with it: it follows none, and guardRedirects() decides.
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    if (endpoint.transferTimeoutMs > 0)
        req.setTransferTimeout(endpoint.transferTimeoutMs);
    for (const auto &[name, value] : endpoint.headers)
        req.setRawHeader(name, value);
    if (endpoint.authorizer && endpoint.authorizer->isSignedIn()) {
        // Bearer, or DPoP with a proof for this method and URL.
        for (const auto &[name, value] : endpoint.authorizer->authorizationHeaders(verb, target))
            req.setRawHeader(name, value);
    } else if (!endpoint.bearerToken.isEmpty()) {
        req.setRawHeader("Authorization", "Bearer " + endpoint.bearerToken.toUtf8());
    }
    return req;
}

bool isSameOrigin(const QUrl &a, const QUrl &b)
{
    const auto port = [](const QUrl &url) {
        const QString scheme = url.scheme().toLower();
        return url.port(scheme == QLatin1String("https") ? 443 : scheme == QLatin1String("http") ? 80 : -1);
    };
    return a.isValid() && b.isValid() && !a.host().isEmpty() &&
           a.scheme().compare(b.scheme(), Qt::CaseInsensitive) == 0 &&
           a.host().compare(b.host(), Qt::CaseInsensitive) == 0 && port(a) == port(b);
}

QString originText(const QUrl &url)
{
    return url.adjusted(QUrl::RemoveUserInfo | QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment)
        .toString();
}

void guardRedirects(QNetworkReply *reply, std::function<void(const QString &line)> report,
                    std::function<void(const QUrl &target)> follow)
{
    // Qt follows nothing (ManualRedirectPolicy): a 3xx finishes its reply, whole, and is decided
    // here, before the transport's own finished() handler (connected after this one) reads it.
    // Qt 6.4's own following (UserVerifiedRedirectPolicy) broke the redirected answer now and then
    // ("Unknown error" at its end) when the 3xx had a body, and sent a second redirect twice.
    QObject::connect(
        reply, &QNetworkReply::finished, reply,
        [reply, report = std::move(report), follow = std::move(follow)] {
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QByteArray location = reply->rawHeader("Location");
            if (status < 300 || status >= 400 || location.isEmpty() || status == 304)
                return;
            // The URL first asked and the redirects followed so far (followRedirect() carries them).
            const QVariant firstProperty = reply->property(redirectFirstProperty);
            const QUrl first = firstProperty.isValid() ? firstProperty.toUrl() : reply->request().url();
            const int hops = reply->property(redirectHopsProperty).toInt() + 1;
            const QByteArray method = operationName(reply);
            const QUrl target = reply->url().resolved(QUrl(QString::fromUtf8(location)));
            const QString from = QStringLiteral("%1 %2").arg(QString::fromLatin1(method),
                                                             first.toString(QUrl::RemoveUserInfo));
            const QString to = target.toString(QUrl::RemoveUserInfo);
            QString why;
            if (!isSameOrigin(target, first)) {
                why = QStringLiteral("The server redirected %1 to %2, another origin; Folio did not follow "
                                     "it, so the token and headers stay with %3 (to use that server, "
                                     "connect to its URL)")
                          .arg(from, to, originText(first));
            } else if ((status == 301 || status == 302 || status == 303) && method != "GET" &&
                       method != "HEAD") {
                why = QStringLiteral("The server redirected %1 to %2, which would turn the %3 into a GET; "
                                     "Folio did not follow it (a 307 or 308 keeps the method)")
                          .arg(from, to, QString::fromLatin1(method));
            } else if (hops > 1) {
                why = QStringLiteral("Too many redirects: the server redirected %1 again, to %2; Folio "
                                     "follows one redirect a request")
                          .arg(from, to);
            } else if (!follow) {
                why = QStringLiteral("The server redirected %1 to %2; Folio does not follow redirects of "
                                     "this request")
                          .arg(from, to);
            }
            if (why.isEmpty()) {
                qCDebug(lcHttp).noquote() << "HTTP" << status << "for" << from << "followed to" << to;
                reply->setProperty(redirectFollowedProperty, true);
                follow(target);
                return;
            }
            McpError refusal;
            refusal.kind = McpError::Kind::HttpStatus;
            refusal.httpStatus = status;
            refusal.message = why;
            reply->setProperty(redirectRefusalProperty, QVariant::fromValue(refusal));
            if (report)
                report(refusal.describe());
        });
}

QNetworkRequest redirectedRequest(const QNetworkReply *reply, const QUrl &target)
{
    QNetworkRequest req = reply->request();
    req.setUrl(target);
    return req;
}

void followRedirect(QNetworkReply *next, const QNetworkReply *redirected)
{
    const QVariant first = redirected->property(redirectFirstProperty);
    next->setProperty(redirectFirstProperty, first.isValid() ? first : QVariant(redirected->request().url()));
    next->setProperty(redirectHopsProperty, redirected->property(redirectHopsProperty).toInt() + 1);
}

bool redirectFollowed(const QNetworkReply *reply)
{
    return reply->property(redirectFollowedProperty).toBool();
}

McpError redirectRefusal(const QNetworkReply *reply)
{
    return reply->property(redirectRefusalProperty).value<McpError>();
}

QByteArray operationName(const QNetworkReply *reply)
{
    switch (reply->operation()) {
    case QNetworkAccessManager::GetOperation:
        return "GET";
    case QNetworkAccessManager::PostOperation:
        return "POST";
    case QNetworkAccessManager::DeleteOperation:
        return "DELETE";
    case QNetworkAccessManager::CustomOperation:
        return reply->request().attribute(QNetworkRequest::CustomVerbAttribute).toByteArray();
    default:
        return "HTTP";
    }
}

McpError httpReplyError(QNetworkReply *reply, const QByteArray &body)
{
    if (const McpError refusal = redirectRefusal(reply); refusal.isError())
        return refusal;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString bodyHint =
        body.trimmed().isEmpty()
            ? QString()
            : describeBody(reply->header(QNetworkRequest::ContentTypeHeader).toByteArray(), body, 300);
    McpError e;
    e.httpStatus = status;
    if (status == 401 || status == 403) {
        e.kind = status == 401 ? McpError::Kind::AuthRequired : McpError::Kind::InsufficientScope;
        e.wwwAuthenticate = QString::fromLatin1(reply->rawHeader("WWW-Authenticate"));
        e.message = status == 401 ? QStringLiteral("Authentication required")
                                  : QStringLiteral("Insufficient scope or forbidden");
        if (!e.wwwAuthenticate.isEmpty()) {
            // What a Bearer challenge says (RFC 6750 §3, RFC 9728 §5.1), then the header as received.
            QStringList said;
            for (const AuthChallenge &challenge :
                 parseWwwAuthenticate(reply->rawHeader("WWW-Authenticate"))) {
                if (!challenge.isScheme(u"Bearer"))
                    continue;
                for (const QString &name : {QStringLiteral("error"), QStringLiteral("scope"),
                                            QStringLiteral("resource_metadata")}) {
                    if (challenge.hasParam(name))
                        said.append(QStringLiteral("%1 \"%2\"").arg(name, challenge.param(name)));
                }
                break;
            }
            if (!said.isEmpty())
                e.message += QStringLiteral(": ") + said.join(QStringLiteral(", "));
            e.message += QStringLiteral(" (WWW-Authenticate: %1)").arg(e.wwwAuthenticate);
        } else if (!bodyHint.isEmpty())
            e.message += QStringLiteral(": ") + bodyHint;
        return e;
    }
    if (reply->error() == QNetworkReply::TooManyRedirectsError ||
        reply->error() == QNetworkReply::InsecureRedirectError) {
        e.kind = McpError::Kind::HttpStatus;
        const QUrl target = reply->attribute(QNetworkRequest::RedirectionTargetAttribute).toUrl();
        e.message = reply->error() == QNetworkReply::TooManyRedirectsError
                        ? QStringLiteral("Too many redirects (the server redirects in a loop)")
                        : QStringLiteral("A redirect to a less safe URL was refused");
        if (target.isValid())
            e.message += QStringLiteral(", last to ") + target.toString(QUrl::RemoveUserInfo);
        return e;
    }
    if (status >= 300) {
        e.kind = McpError::Kind::HttpStatus;
        const QString reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        e.message = reason.isEmpty() ? QStringLiteral("The server answered with an error status") : reason;
        e.message +=
            QStringLiteral(" (%1 %2)")
                .arg(QString::fromLatin1(operationName(reply)), reply->url().toString(QUrl::RemoveUserInfo));
        const QByteArray location = reply->rawHeader("Location");
        if (status < 400 && !location.isEmpty()) {
            // A redirect Qt did not follow: say where to.
            e.message = QStringLiteral("The server redirects to %1, which Folio did not follow")
                            .arg(reply->url()
                                     .resolved(QUrl(QString::fromUtf8(location)))
                                     .toString(QUrl::RemoveUserInfo));
        }
        if (!bodyHint.isEmpty())
            e.message += QStringLiteral(": ") + bodyHint;
        return e;
    }
    switch (reply->error()) {
    case QNetworkReply::SslHandshakeFailedError:
        e.kind = McpError::Kind::TlsError;
        e.message = QStringLiteral("TLS handshake failed: ") + reply->errorString();
        break;
    case QNetworkReply::OperationCanceledError:
    case QNetworkReply::TimeoutError:
        e.kind = McpError::Kind::Timeout;
        e.message = QStringLiteral("The HTTP request timed out: ") + reply->errorString();
        break;
    case QNetworkReply::NoError:
        e.kind = McpError::Kind::Protocol;
        e.message = QStringLiteral("The HTTP response carried no usable message");
        break;
    default:
        e.kind = McpError::Kind::ConnectionFailed;
        // With a status the server was reached: the answer itself broke (reset, short body, bad
        // chunked encoding).
        e.message = status > 0 ? QStringLiteral("The connection broke off during the HTTP %1 response: %2")
                                     .arg(QString::number(status), reply->errorString())
                               : QStringLiteral("Could not reach the server: ") + reply->errorString();
        break;
    }
    return e;
}

QByteArray readRemaining(QNetworkReply *reply)
{
    return reply->isOpen() ? reply->readAll() : QByteArray();
}

QString jsonErrorText(const QJsonParseError &error)
{
    if (error.error == QJsonParseError::IllegalUTF8String)
        return QStringLiteral("Not JSON: invalid UTF-8 at offset %1").arg(error.offset);
    return QStringLiteral("Not JSON: %1 at offset %2")
        .arg(error.errorString(), QString::number(error.offset));
}

QByteArray encodeHeaderValue(const QString &value)
{
    bool plain = true;
    for (QChar c : value)
        plain = plain && c.unicode() >= 0x20 && c.unicode() < 0x7f;
    if (plain && value == value.trimmed())
        return value.toLatin1();
    return "=?base64?" + value.toUtf8().toBase64() + "?=";
}

} // namespace folio

namespace folio {

HttpExchange HttpExchange::begin(const QNetworkRequest &request, const QByteArray &method,
                                 const QByteArray &body)
{
    HttpExchange ex;
    ex.startedMs = QDateTime::currentMSecsSinceEpoch();
    ex.method = method;
    ex.url = request.url().toString(QUrl::RemoveUserInfo);
    for (const QByteArray &name : request.rawHeaderList())
        ex.requestHeaders.append({name, request.rawHeader(name)});
    ex.requestBody = body.left(maxBodyBytes);
    return ex;
}

void HttpExchange::readResponseHead(const QNetworkReply *reply)
{
    if (firstByteMs >= 0)
        return;
    const QVariant code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!code.isValid())
        return;
    firstByteMs = QDateTime::currentMSecsSinceEpoch();
    status = code.toInt();
    statusText = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray();
    responseHeaders = reply->rawHeaderPairs();
    http2 = reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool();
}

void HttpExchange::appendResponseBody(const QByteArray &bytes)
{
    responseBytes += bytes.size();
    if (responseBody.size() < maxBodyBytes)
        responseBody.append(bytes.left(maxBodyBytes - responseBody.size()));
}

void HttpExchange::finish(const QNetworkReply *reply)
{
    readResponseHead(reply);
    finishedMs = QDateTime::currentMSecsSinceEpoch();
    if (firstByteMs < 0)
        firstByteMs = finishedMs;
    if (const McpError refusal = redirectRefusal(reply); refusal.isError())
        error = refusal.message;
    else if (reply->error() != QNetworkReply::NoError && status == 0)
        error = reply->errorString();
}

QByteArray HttpExchange::header(const Headers &headers, QByteArrayView name) const
{
    for (const auto &[n, v] : headers) {
        if (QByteArrayView(n).compare(name, Qt::CaseInsensitive) == 0)
            return v;
    }
    return {};
}

} // namespace folio
