#include "oauthflow.h"

#include "httpsupport.h"
#include "jose.h"
#include "loopbacklistener.h"
#include "netlogging.h"
#include "secretmask.h"
#include "wwwauthenticate.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRandomGenerator>
#include <QTimer>

namespace folio {

namespace {

constexpr qint64 maxBodyBytes = 1024 * 1024; // metadata and token answers are small

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QByteArray randomToken(int bytes)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(raw.data()), bytes / 4);
    return raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QStringList stringList(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &v : value.toArray()) {
        if (v.isString())
            out.append(v.toString());
    }
    return out;
}

QString quoted(const QString &text)
{
    return QLatin1Char('"') + text + QLatin1Char('"');
}

QString urlText(const QUrl &url)
{
    return url.toString(QUrl::RemoveUserInfo);
}

// "HTTP 400"; for a redirect, where to as well. The flow follows no redirect of its own (its requests
// use ManualRedirectPolicy): a metadata, registration or token request never takes the client's
// credentials to a URL it was not given, and the user sees where it was sent instead.
QString statusText(const HttpExchange &ex, const QUrl &url)
{
    QString text = QStringLiteral("HTTP %1").arg(ex.status);
    const QByteArray location = ex.header(ex.responseHeaders, "Location");
    if (ex.status >= 300 && ex.status < 400 && !location.isEmpty())
        text += QStringLiteral(", a redirect to %1 that Folio does not follow")
                    .arg(urlText(url.resolved(QUrl(QString::fromUtf8(location)))));
    return text;
}

// The OAuth error of a token or registration answer (RFC 6749 §5.2), in a line.
QString oauthError(const QJsonObject &body)
{
    const QString error = body.value(QStringLiteral("error")).toString();
    if (error.isEmpty())
        return {};
    QString text = error;
    const QString description = body.value(QStringLiteral("error_description")).toString();
    if (!description.isEmpty())
        text += QStringLiteral(": ") + description;
    const QString uri = body.value(QStringLiteral("error_uri")).toString();
    if (!uri.isEmpty())
        text += QStringLiteral(" (") + uri + QLatin1Char(')');
    return text;
}

// "WHAT was refused (HTTP 400): invalid_grant: …", with the OAuth error when the answer has one.
QString refusal(const QString &what, const HttpExchange &ex, const QUrl &url, const QJsonObject &answer)
{
    const QString error = oauthError(answer);
    return QStringLiteral("%1 (%2)%3")
        .arg(what, statusText(ex, url), error.isEmpty() ? QString() : QStringLiteral(": ") + error);
}

// A form as an application/x-www-form-urlencoded body. QUrlQuery leaves '+' alone, which a form
// decoder reads as a space.
QByteArray formBody(const QUrlQuery &form)
{
    QByteArray body = form.toString(QUrl::FullyEncoded).toUtf8();
    body.replace('+', "%2B");
    return body;
}

QJsonObject jsonObject(const QByteArray &body, QString *why)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError) {
        *why = jsonErrorText(error);
        return {};
    }
    if (!doc.isObject()) {
        *why = QStringLiteral("JSON, but not an object");
        return {};
    }
    return doc.object();
}

} // namespace

OAuthFlow::OAuthFlow(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_record(m_options.record)
    , m_nam(new QNetworkAccessManager(this))
{}

OAuthFlow::~OAuthFlow()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

void OAuthFlow::start()
{
    if (m_started)
        return;
    m_started = true;
    m_record.resource = m_record.resource.isEmpty() ? urlText(m_options.serverUrl) : m_record.resource;
    if (m_options.refreshOnly) {
        refresh();
        return;
    }
    readChallenge();
}

void OAuthFlow::cancel()
{
    if (m_finished)
        return;
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply = nullptr;
    }
    if (m_steps.isEmpty())
        beginStep(AuthStep::Kind::Challenge, AuthStep::kindName(AuthStep::Kind::Challenge));
    fail(QStringLiteral("Cancelled by the user"), McpError::Kind::Cancelled);
}

void OAuthFlow::continueFlow()
{
    if (!m_paused || m_finished)
        return;
    m_paused = false;
    Q_EMIT pausedChanged(false);
    auto next = std::move(m_next);
    m_next = nullptr;
    if (next)
        next();
}

void OAuthFlow::appendStep(const AuthStep &step)
{
    m_steps.append(step);
    Q_EMIT stepAdded(int(m_steps.size()) - 1);
}

void OAuthFlow::replaceStep(int index, const AuthStep &step)
{
    if (index < 0 || index >= m_steps.size())
        return;
    m_steps[index] = step;
    Q_EMIT stepChanged(index);
}

int OAuthFlow::beginStep(AuthStep::Kind kind, const QString &title)
{
    AuthStep step;
    step.kind = kind;
    step.title = title;
    step.startedMs = nowMs();
    m_steps.append(step);
    Q_EMIT stepAdded(int(m_steps.size()) - 1);
    return int(m_steps.size()) - 1;
}

void OAuthFlow::changed()
{
    Q_EMIT stepChanged(int(m_steps.size()) - 1);
}

void OAuthFlow::verdict(const QString &rule, bool passed, const QString &detail)
{
    current().verdicts.append({rule, passed, detail});
    changed();
}

void OAuthFlow::stepDone(const QString &summary, std::function<void()> next)
{
    current().state = AuthStep::State::Done;
    current().summary = summary;
    current().finishedMs = nowMs();
    changed();
    if (m_options.stepped && next) {
        m_next = std::move(next);
        m_paused = true;
        Q_EMIT pausedChanged(true);
        return;
    }
    if (next)
        next();
}

void OAuthFlow::fail(const QString &message, McpError::Kind kind)
{
    if (m_finished)
        return;
    if (m_steps.isEmpty())
        beginStep(AuthStep::Kind::Challenge, AuthStep::kindName(AuthStep::Kind::Challenge));
    current().state = AuthStep::State::Failed;
    current().error = message;
    current().finishedMs = nowMs();
    changed();
    m_error =
        McpError::make(kind, QStringLiteral("Sign-in failed at \"%1\": %2").arg(current().title, message));
    m_error.signInFailed = true;
    finish();
}

void OAuthFlow::finish()
{
    m_finished = true;
    if (m_listener)
        m_listener->close();
    if (m_paused) {
        m_paused = false;
        Q_EMIT pausedChanged(false);
    }
    qCDebug(lcHttp).noquote() << "sign-in"
                              << (m_error.isError() ? m_error.message : QStringLiteral("succeeded"));
    Q_EMIT finished();
}

QNetworkRequest OAuthFlow::makeRequest(const QUrl &url, const QByteArray &accept) const
{
    HttpEndpoint endpoint; // no MCP headers and no token: these go to the authorization server
    endpoint.transferTimeoutMs = m_options.requestTimeoutMs;
    QNetworkRequest req = folio::makeRequest(endpoint, url, accept, "GET");
    // Redirects are read, not followed: the authorization endpoint's carries the code, and is
    // followed by hand only to this flow's listener (followAuthorization).
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    return req;
}

void OAuthFlow::request(const QNetworkRequest &req, const QByteArray &verb, const QByteArray &body,
                        Handler handler)
{
    HttpExchange exchange = HttpExchange::begin(req, verb, body);
    // The exchange belongs to the step that sent it, even when it ends after the next began (the
    // redirect followed to the listener ends after the callback's step).
    const int at = int(m_steps.size()) - 1;
    QNetworkReply *reply = verb == "GET"    ? m_nam->get(req)
                           : verb == "POST" ? m_nam->post(req, body)
                                            : m_nam->sendCustomRequest(req, verb, body);
    m_reply = reply;
    auto collected = std::make_shared<QByteArray>();
    connect(reply, &QNetworkReply::readyRead, this, [reply, collected] {
        collected->append(reply->readAll());
        if (collected->size() > maxBodyBytes)
            reply->abort();
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, exchange, collected, handler, at]() mutable {
        reply->deleteLater();
        if (m_reply == reply)
            m_reply = nullptr;
        collected->append(readRemaining(reply));
        exchange.readResponseHead(reply);
        exchange.appendResponseBody(*collected);
        exchange.finish(reply);
        if (collected->size() > maxBodyBytes)
            exchange.error = QStringLiteral("The answer is over the 1 MiB limit for sign-in answers");
        m_steps[at].exchanges.append(exchange);
        Q_EMIT stepChanged(at);
        if (m_finished)
            return;
        if (exchange.status == 0) {
            fail(QStringLiteral("%1 %2 failed: %3")
                     .arg(QString::fromLatin1(exchange.method), exchange.url,
                          exchange.error.isEmpty() ? reply->errorString() : exchange.error),
                 McpError::Kind::ConnectionFailed);
            return;
        }
        handler(exchange, *collected);
    });
}

// --- Challenge --------------------------------------------------------------------------------

void OAuthFlow::readChallenge()
{
    beginStep(AuthStep::Kind::Challenge, AuthStep::kindName(AuthStep::Kind::Challenge));
    QUrl resourceMetadata;
    QString summary;
    if (m_options.challenge.isEmpty()) {
        summary = m_options.challengeStatus ? QStringLiteral("HTTP %1 without a WWW-Authenticate challenge")
                                                  .arg(m_options.challengeStatus)
                                            : QStringLiteral("Sign-in asked for before any request");
    } else {
        // A DPoP-only server (RFC 9449 §7.1) challenges with the DPoP scheme and the same parameters.
        AuthChallenge bearer;
        for (const AuthChallenge &c : parseWwwAuthenticate(m_options.challenge)) {
            if (c.isScheme(u"Bearer") || (c.isScheme(u"DPoP") && bearer.scheme.isEmpty())) {
                bearer = c;
                if (c.isScheme(u"Bearer"))
                    break;
            }
        }
        current().details.insert(QStringLiteral("WWW-Authenticate"),
                                 QString::fromLatin1(m_options.challenge));
        verdict(QStringLiteral("Bearer or DPoP challenge"), !bearer.scheme.isEmpty(),
                bearer.scheme.isEmpty() ? QStringLiteral("neither scheme in the challenge") : bearer.scheme);
        m_challengeScope = bearer.param(u"scope");
        const QString metadata = bearer.param(u"resource_metadata");
        if (!metadata.isEmpty()) {
            resourceMetadata = m_options.serverUrl.resolved(QUrl(metadata));
            current().details.insert(QStringLiteral("resource_metadata"), urlText(resourceMetadata));
        }
        if (!m_challengeScope.isEmpty())
            current().details.insert(QStringLiteral("scope"), m_challengeScope);
        const QString error = bearer.param(u"error");
        if (!error.isEmpty())
            current().details.insert(QStringLiteral("error"), error);
        summary = QStringLiteral("HTTP %1").arg(m_options.challengeStatus);
        if (!error.isEmpty())
            summary += QStringLiteral(", error ") + quoted(error);
        if (!m_challengeScope.isEmpty())
            summary += QStringLiteral(", scope ") + quoted(m_challengeScope);
        summary += resourceMetadata.isValid() ? QStringLiteral(", names its resource metadata")
                                              : QStringLiteral(", no resource_metadata");
    }
    QList<QUrl> candidates;
    if (resourceMetadata.isValid())
        candidates.append(resourceMetadata);
    candidates += resourceMetadataUrls(m_options.serverUrl);
    stepDone(summary, [this, candidates] { fetchResourceMetadata(candidates); });
}

// --- Protected resource metadata (RFC 9728) -------------------------------------------------

QList<QUrl> OAuthFlow::resourceMetadataUrls(const QUrl &serverUrl)
{
    QList<QUrl> urls;
    QUrl base = serverUrl.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment | QUrl::RemoveUserInfo);
    const QString path = base.path();
    const QString wellKnown = QStringLiteral("/.well-known/oauth-protected-resource");
    if (!path.isEmpty() && path != QLatin1String("/")) {
        QUrl u = base;
        u.setPath(wellKnown + (path.endsWith(QLatin1Char('/')) ? path.chopped(1) : path));
        urls.append(u);
    }
    QUrl root = base;
    root.setPath(wellKnown);
    urls.append(root);
    return urls;
}

bool OAuthFlow::resourceCovers(const QString &resource, const QUrl &serverUrl)
{
    const QUrl r(resource);
    if (!isSameOrigin(r, serverUrl) || r.hasFragment())
        return false;
    QString resourcePath = r.path();
    if (resourcePath.endsWith(QLatin1Char('/')))
        resourcePath.chop(1);
    QString serverPath = serverUrl.path();
    if (serverPath.endsWith(QLatin1Char('/')))
        serverPath.chop(1);
    return serverPath == resourcePath || serverPath.startsWith(resourcePath + QLatin1Char('/'));
}

void OAuthFlow::fetchFirstJson(QList<QUrl> candidates, FoundHandler found, std::function<void()> exhausted)
{
    if (candidates.isEmpty()) {
        exhausted();
        return;
    }
    const QUrl url = candidates.takeFirst();
    request(makeRequest(url, "application/json"), "GET", {},
            [this, url, candidates, found, exhausted](const HttpExchange &ex, const QByteArray &body) {
                if (ex.status != 200) {
                    current().details.insert(urlText(url), statusText(ex, url));
                    fetchFirstJson(candidates, found, exhausted);
                    return;
                }
                QString why;
                const QJsonObject metadata = jsonObject(body, &why);
                if (metadata.isEmpty()) {
                    fail(QStringLiteral("%1 answered, but not with a JSON object: %2").arg(urlText(url), why),
                         McpError::Kind::MalformedMessage);
                    return;
                }
                found(metadata, url);
            });
}

void OAuthFlow::fetchResourceMetadata(const QList<QUrl> &candidates)
{
    beginStep(AuthStep::Kind::ResourceMetadata, AuthStep::kindName(AuthStep::Kind::ResourceMetadata));
    fetchFirstJson(
        candidates,
        [this](const QJsonObject &metadata, const QUrl &from) { useResourceMetadata(metadata, from); },
        [this] {
            // No protected resource metadata: the 2025-03-26 rule, the MCP server's origin is its
            // authorization server.
            const QUrl origin = m_options.serverUrl.adjusted(QUrl::RemovePath | QUrl::RemoveQuery |
                                                             QUrl::RemoveFragment | QUrl::RemoveUserInfo);
            m_issuer = urlText(origin);
            m_resource = urlText(m_options.serverUrl.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment));
            verdict(QStringLiteral("protected resource metadata found"), false,
                    QStringLiteral("none at any well-known URL; trying the server's origin as its "
                                   "authorization server (2025-03-26)"));
            stepDone(QStringLiteral("None found; the server's origin is taken as the authorization server"),
                     [this] { fetchServerMetadata(); });
        });
}

void OAuthFlow::useResourceMetadata(const QJsonObject &metadata, const QUrl &from)
{
    current().details.insert(QStringLiteral("metadata"), metadata);
    current().details.insert(QStringLiteral("from"), urlText(from));
    const QString resource = metadata.value(QStringLiteral("resource")).toString();
    const bool covers = !resource.isEmpty() && resourceCovers(resource, m_options.serverUrl);
    verdict(QStringLiteral("resource matches this server"), covers,
            QStringLiteral("resource %1, server %2")
                .arg(resource.isEmpty() ? QStringLiteral("(missing)") : quoted(resource),
                     quoted(urlText(m_options.serverUrl))));
    if (!covers) {
        fail(QStringLiteral("The protected resource metadata names resource %1, which is not this server "
                            "(%2) (RFC 9728 §3.3)")
                 .arg(resource.isEmpty() ? QStringLiteral("(none)") : quoted(resource),
                      urlText(m_options.serverUrl)));
        return;
    }
    m_resource = resource;
    m_resourceScopes = stringList(metadata.value(QStringLiteral("scopes_supported")));
    const QStringList servers = stringList(metadata.value(QStringLiteral("authorization_servers")));
    verdict(QStringLiteral("authorization server named"), !servers.isEmpty(),
            servers.isEmpty() ? QStringLiteral("authorization_servers is empty") : servers.first());
    if (servers.isEmpty()) {
        fail(QStringLiteral("The protected resource metadata names no authorization server"));
        return;
    }
    m_issuer = servers.first();
    if (!m_record.issuer.isEmpty() && m_record.issuer != m_issuer)
        verdict(QStringLiteral("authorization server unchanged"), false,
                QStringLiteral("it moved from %1 to %2: Folio registers again there")
                    .arg(m_record.issuer, m_issuer));
    stepDone(QStringLiteral("Resource %1, authorization server %2").arg(quoted(m_resource), quoted(m_issuer)),
             [this] { fetchServerMetadata(); });
}

// --- Authorization server metadata (RFC 8414, OpenID Connect Discovery) ---------------------

QList<QUrl> OAuthFlow::serverMetadataUrls(const QString &issuer)
{
    const QUrl base = QUrl(issuer).adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment);
    QString path = base.path();
    if (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    auto at = [&base](const QString &p) {
        QUrl u = base;
        u.setPath(p);
        return u;
    };
    if (path.isEmpty()) {
        return {at(QStringLiteral("/.well-known/oauth-authorization-server")),
                at(QStringLiteral("/.well-known/openid-configuration"))};
    }
    return {at(QStringLiteral("/.well-known/oauth-authorization-server") + path),
            at(QStringLiteral("/.well-known/openid-configuration") + path),
            at(path + QStringLiteral("/.well-known/openid-configuration"))};
}

bool OAuthFlow::isSecureEndpoint(const QUrl &url)
{
    if (url.scheme() == QLatin1String("https"))
        return true;
    if (url.scheme() != QLatin1String("http"))
        return false;
    const QString host = url.host();
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

void OAuthFlow::fetchServerMetadata()
{
    beginStep(AuthStep::Kind::ServerMetadata, AuthStep::kindName(AuthStep::Kind::ServerMetadata));
    // Every well-known URL is on the issuer's own scheme and host.
    if (!isSecureEndpoint(QUrl(m_issuer))) {
        verdict(QStringLiteral("HTTPS"), false, m_issuer);
        fail(QStringLiteral("The authorization server %1 is not HTTPS (only loopback may use http)")
                 .arg(quoted(m_issuer)));
        return;
    }
    fetchFirstJson(
        serverMetadataUrls(m_issuer),
        [this](const QJsonObject &metadata, const QUrl &from) { useServerMetadata(metadata, from); },
        [this] {
            fail(QStringLiteral("No authorization server metadata at any well-known URL of %1 (RFC 8414, "
                                "OpenID Connect discovery)")
                     .arg(quoted(m_issuer)));
        });
}

void OAuthFlow::useServerMetadata(const QJsonObject &metadata, const QUrl &from)
{
    current().details.insert(QStringLiteral("metadata"), metadata);
    current().details.insert(QStringLiteral("from"), urlText(from));
    const QString issuer = metadata.value(QStringLiteral("issuer")).toString();
    // RFC 8414 §3.3: the issuer must be identical to the one the URL was built from.
    const bool sameIssuer = issuer == m_issuer;
    verdict(QStringLiteral("issuer matches"), sameIssuer,
            QStringLiteral("metadata says %1, expected %2").arg(quoted(issuer), quoted(m_issuer)));
    if (!sameIssuer) {
        fail(
            QStringLiteral("The metadata's issuer %1 is not the authorization server it was fetched for (%2) "
                           "(RFC 8414 §3.3)")
                .arg(quoted(issuer), quoted(m_issuer)));
        return;
    }
    const QStringList methods =
        stringList(metadata.value(QStringLiteral("code_challenge_methods_supported")));
    // PKCE protects the authorization code; the other grants send none.
    const bool s256 = methods.contains(QStringLiteral("S256")) || grant() != OAuthGrant::AuthorizationCode;
    verdict(QStringLiteral("S256 advertised"), s256,
            metadata.contains(QStringLiteral("code_challenge_methods_supported"))
                ? QStringLiteral("code_challenge_methods_supported: ") + methods.join(QStringLiteral(", "))
                : QStringLiteral("code_challenge_methods_supported is absent"));
    if (!s256) {
        fail(metadata.contains(QStringLiteral("code_challenge_methods_supported"))
                 ? QStringLiteral("The authorization server does not offer PKCE S256, which MCP requires")
                 : QStringLiteral("The authorization server does not say it supports PKCE "
                                  "(code_challenge_methods_supported is absent); MCP requires S256"));
        return;
    }
    for (const char *key : {"authorization_endpoint", "token_endpoint", "registration_endpoint"}) {
        const QString value = metadata.value(QLatin1String(key)).toString();
        if (value.isEmpty()) {
            // RFC 8414 §2: no authorization endpoint where no grant of the server needs one.
            if (qstrcmp(key, "registration_endpoint") == 0 ||
                (qstrcmp(key, "authorization_endpoint") == 0 && grant() != OAuthGrant::AuthorizationCode))
                continue;
            fail(QStringLiteral("The authorization server metadata has no %1").arg(QLatin1String(key)));
            return;
        }
        const bool secure = isSecureEndpoint(QUrl(value));
        if (!secure) {
            verdict(QStringLiteral("HTTPS endpoints"), false, value);
            fail(QStringLiteral("%1 %2 is not HTTPS (only loopback may use http)")
                     .arg(QLatin1String(key), value));
            return;
        }
    }
    verdict(QStringLiteral("HTTPS endpoints"), true, QStringLiteral("or loopback"));
    m_serverMetadata = metadata;
    QString summary = grant() == OAuthGrant::AuthorizationCode
                          ? QStringLiteral("Issuer %1, PKCE S256").arg(quoted(issuer))
                          : QStringLiteral("Issuer %1").arg(quoted(issuer));
    if (grant() != OAuthGrant::AuthorizationCode) {
        const QString wanted = grant() == OAuthGrant::ClientCredentials
                                   ? QStringLiteral("client_credentials")
                                   : QStringLiteral("urn:ietf:params:oauth:grant-type:jwt-bearer");
        const QStringList grants = stringList(metadata.value(QStringLiteral("grant_types_supported")));
        // Only noted: RFC 8414's default list (authorization_code, implicit) is often left unsaid.
        verdict(
            QStringLiteral("grant type listed"), grants.contains(wanted),
            grants.isEmpty()
                ? QStringLiteral("grant_types_supported is absent; %1 is tried").arg(wanted)
                : QStringLiteral("%1; the server lists %2").arg(wanted, grants.join(QStringLiteral(", "))));
    }
    // DPoP (RFC 9449 §5.1): bind the tokens to a key where the server signs off on ES256.
    const QStringList dpopAlgs =
        stringList(metadata.value(QStringLiteral("dpop_signing_alg_values_supported")));
    if (m_options.client.dpop == OAuthClientSettings::Dpop::Auto &&
        dpopAlgs.contains(QStringLiteral("ES256"))) {
        useDpopKey(m_record.issuer == m_issuer ? m_record.dpopKeyPem : QByteArray());
        verdict(QStringLiteral("DPoP"), true,
                QStringLiteral("dpop_signing_alg_values_supported lists ES256: tokens are bound to a key of "
                               "Folio's (thumbprint %1)")
                    .arg(m_dpopKey.thumbprint()));
        summary += QStringLiteral(", DPoP");
    } else if (!dpopAlgs.isEmpty()) {
        verdict(QStringLiteral("DPoP"), true,
                m_options.client.dpop == OAuthClientSettings::Dpop::Off
                    ? QStringLiteral("offered (%1), turned off in the settings")
                          .arg(dpopAlgs.join(QStringLiteral(", ")))
                    : QStringLiteral("offered for %1 only; Folio signs ES256: Bearer tokens")
                          .arg(dpopAlgs.join(QStringLiteral(", "))));
    }
    stepDone(summary, [this] { chooseClient(); });
}

// --- Client identity ------------------------------------------------------------------------

void OAuthFlow::chooseClient()
{
    beginStep(AuthStep::Kind::Registration, AuthStep::kindName(AuthStep::Kind::Registration));
    if (grant() != OAuthGrant::AuthorizationCode) {
        chooseMachineClient();
        return;
    }
    // The redirect listener comes first: its URI is part of the registration.
    m_listener = new LoopbackListener(this);
    if (!m_listener->listen(m_options.callbackTimeoutMs)) {
        fail(QStringLiteral("Could not listen on 127.0.0.1 for the browser's redirect: ") +
                 m_listener->errorString(),
             McpError::Kind::ConnectionFailed);
        return;
    }
    connect(m_listener, &LoopbackListener::callbackReceived, this, &OAuthFlow::handleCallback);
    connect(m_listener, &LoopbackListener::timedOut, this, [this] {
        fail(QStringLiteral("No answer from the browser within %1 minutes")
                 .arg(m_options.callbackTimeoutMs / 60000.0),
             McpError::Kind::Timeout);
    });
    current().details.insert(QStringLiteral("redirect_uri"), m_listener->redirectUri().toString());

    const QStringList authMethods =
        stringList(m_serverMetadata.value(QStringLiteral("token_endpoint_auth_methods_supported")));
    auto methodFor = [&authMethods](bool hasSecret) {
        if (!hasSecret)
            return QStringLiteral("none");
        // RFC 8414 §2: without the list, client_secret_basic is the default.
        if (authMethods.isEmpty() || authMethods.contains(QStringLiteral("client_secret_basic")))
            return QStringLiteral("client_secret_basic");
        if (authMethods.contains(QStringLiteral("client_secret_post")))
            return QStringLiteral("client_secret_post");
        return QStringLiteral("client_secret_basic");
    };

    const OAuthClient known = m_record.clientFor(m_issuer);
    if (known.isValid()) {
        m_client = known;
        verdict(QStringLiteral("credentials for this issuer"), true,
                QStringLiteral("%1 from an earlier sign-in").arg(OAuthClient::sourceName(known.source)));
        stepDone(QStringLiteral("Client %1 (%2), kept from an earlier sign-in at this issuer")
                     .arg(quoted(m_client.clientId), OAuthClient::sourceName(m_client.source)),
                 [this] { authorize(); });
        return;
    }
    if (!m_record.clients.isEmpty())
        verdict(QStringLiteral("credentials for this issuer"), true,
                QStringLiteral("those of %1 are not reused here").arg(m_record.clients.firstKey()));

    const OAuthClientSettings &settings = m_options.client;
    if (!settings.preRegisteredClientId.isEmpty() &&
        (settings.preRegisteredIssuer.isEmpty() || settings.preRegisteredIssuer == m_issuer)) {
        m_client.source = OAuthClient::Source::PreRegistered;
        m_client.clientId = settings.preRegisteredClientId;
        m_client.clientSecret = settings.preRegisteredClientSecret;
        m_client.tokenEndpointAuthMethod = methodFor(!m_client.clientSecret.isEmpty());
        verdict(QStringLiteral("token endpoint auth method listed"),
                authMethods.isEmpty() || authMethods.contains(m_client.tokenEndpointAuthMethod),
                QStringLiteral("%1; the server lists %2")
                    .arg(m_client.tokenEndpointAuthMethod,
                         authMethods.isEmpty() ? QStringLiteral("none (client_secret_basic is the default)")
                                               : authMethods.join(QStringLiteral(", "))));
        stepDone(QStringLiteral("Pre-registered client %1 (%2)")
                     .arg(quoted(m_client.clientId), m_client.tokenEndpointAuthMethod),
                 [this] { authorize(); });
        return;
    }
    const bool cimd =
        m_serverMetadata.value(QStringLiteral("client_id_metadata_document_supported")).toBool();
    if (cimd && !settings.metadataDocumentUrl.isEmpty()) {
        m_client.source = OAuthClient::Source::MetadataDocument;
        m_client.clientId = settings.metadataDocumentUrl;
        m_client.tokenEndpointAuthMethod = QStringLiteral("none");
        verdict(QStringLiteral("client ID metadata documents supported"), true, settings.metadataDocumentUrl);
        stepDone(QStringLiteral("Client ID metadata document %1").arg(quoted(m_client.clientId)),
                 [this] { authorize(); });
        return;
    }
    const QUrl registration(m_serverMetadata.value(QStringLiteral("registration_endpoint")).toString());
    if (registration.isValid() && !registration.isEmpty()) {
        registerDynamically(registration);
        return;
    }
    fail(cimd ? QStringLiteral("The authorization server takes client ID metadata documents, but none is set "
                               "(Settings), and it offers no registration endpoint")
              : QStringLiteral("The authorization server offers no way to become its client: no client ID "
                               "metadata documents, no registration endpoint, and no pre-registered client "
                               "ID is set"));
}

void OAuthFlow::registerDynamically(const QUrl &endpoint)
{
    QJsonObject body{
        {QStringLiteral("client_name"), m_options.client.clientName},
        {QStringLiteral("redirect_uris"), QJsonArray{m_listener->redirectUri().toString()}},
        {QStringLiteral("grant_types"),
         QJsonArray{QStringLiteral("authorization_code"), QStringLiteral("refresh_token")}},
        {QStringLiteral("response_types"), QJsonArray{QStringLiteral("code")}},
        {QStringLiteral("token_endpoint_auth_method"), QStringLiteral("none")},
        {QStringLiteral("application_type"), QStringLiteral("native")},
    };
    QNetworkRequest req = makeRequest(endpoint, "application/json");
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    request(req, "POST", QJsonDocument(body).toJson(QJsonDocument::Compact),
            [this, endpoint](const HttpExchange &ex, const QByteArray &answer) {
                QString why;
                const QJsonObject reply = jsonObject(answer, &why);
                if (ex.status != 200 && ex.status != 201) {
                    fail(refusal(QStringLiteral("Dynamic registration was refused"), ex, endpoint, reply));
                    return;
                }
                const QString clientId = reply.value(QStringLiteral("client_id")).toString();
                if (clientId.isEmpty()) {
                    fail(QStringLiteral("The registration answer has no client_id") +
                             (why.isEmpty() ? QString() : QStringLiteral(" (") + why + QLatin1Char(')')),
                         McpError::Kind::MalformedMessage);
                    return;
                }
                m_client.source = OAuthClient::Source::Dynamic;
                m_client.clientId = clientId;
                m_client.clientSecret = reply.value(QStringLiteral("client_secret")).toString();
                m_client.tokenEndpointAuthMethod =
                    reply.value(QStringLiteral("token_endpoint_auth_method")).toString();
                if (m_client.tokenEndpointAuthMethod.isEmpty())
                    m_client.tokenEndpointAuthMethod = m_client.clientSecret.isEmpty()
                                                           ? QStringLiteral("none")
                                                           : QStringLiteral("client_secret_basic");
                stepDone(QStringLiteral("Registered as %1 (application_type native)").arg(quoted(clientId)),
                         [this] { authorize(); });
            });
}

// --- Authorization --------------------------------------------------------------------------

QString OAuthFlow::pkceChallenge(const QByteArray &verifier)
{
    return QString::fromLatin1(QCryptographicHash::hash(verifier, QCryptographicHash::Sha256)
                                   .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString OAuthFlow::chooseScopes(QString *source) const
{
    QStringList scopes;
    if (!m_challengeScope.isEmpty()) {
        scopes = m_challengeScope.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        *source = QStringLiteral("the challenge");
    } else if (!m_resourceScopes.isEmpty()) {
        scopes = m_resourceScopes;
        *source = QStringLiteral("scopes_supported of the protected resource");
    } else {
        *source = QStringLiteral("none offered: no scope sent");
    }
    // A step-up asks for what is held as well as what the challenge wants.
    for (const QString &held : m_options.heldScopes) {
        if (!held.isEmpty() && !scopes.contains(held))
            scopes.append(held);
    }
    if (!m_options.heldScopes.isEmpty() && !m_challengeScope.isEmpty())
        *source += QStringLiteral(", with the scopes already held");
    // offline_access (a refresh token) only where the authorization server lists it.
    const QStringList serverScopes = stringList(m_serverMetadata.value(QStringLiteral("scopes_supported")));
    if (serverScopes.contains(QStringLiteral("offline_access")) &&
        !scopes.contains(QStringLiteral("offline_access")) && !scopes.isEmpty()) {
        scopes.append(QStringLiteral("offline_access"));
        *source += QStringLiteral(", and offline_access (listed by the authorization server)");
    } else if (!serverScopes.contains(QStringLiteral("offline_access"))) {
        scopes.removeAll(QStringLiteral("offline_access"));
    }
    return scopes.join(QLatin1Char(' '));
}

void OAuthFlow::authorize()
{
    beginStep(AuthStep::Kind::Authorization, AuthStep::kindName(AuthStep::Kind::Authorization));
    m_verifier = randomToken(48); // 64 characters, within RFC 7636's 43-128
    m_state = QString::fromLatin1(randomToken(24));
    QString scopeSource;
    m_requestedScope = chooseScopes(&scopeSource);
    QUrl url(m_serverMetadata.value(QStringLiteral("authorization_endpoint")).toString());
    QUrlQuery query(url);
    query.addQueryItem(QStringLiteral("response_type"), QStringLiteral("code"));
    query.addQueryItem(QStringLiteral("client_id"), m_client.clientId);
    query.addQueryItem(QStringLiteral("redirect_uri"), m_listener->redirectUri().toString());
    query.addQueryItem(QStringLiteral("code_challenge"), pkceChallenge(m_verifier));
    query.addQueryItem(QStringLiteral("code_challenge_method"), QStringLiteral("S256"));
    query.addQueryItem(QStringLiteral("state"), m_state);
    query.addQueryItem(QStringLiteral("resource"), m_resource);
    if (!m_requestedScope.isEmpty())
        query.addQueryItem(QStringLiteral("scope"), m_requestedScope);
    // QUrlQuery leaves '+' alone, which a form decoder reads as a space.
    QString encoded = query.toString(QUrl::FullyEncoded);
    encoded.replace(QLatin1Char('+'), QStringLiteral("%2B"));
    url.setQuery(encoded, QUrl::StrictMode);
    m_authorizationUrl = url;
    verdict(QStringLiteral("PKCE S256"), true, QStringLiteral("code_challenge sent, verifier kept"));
    verdict(QStringLiteral("resource parameter"), true, m_resource);
    verdict(QStringLiteral("scopes chosen"), true,
            (m_requestedScope.isEmpty() ? QStringLiteral("(none)") : quoted(m_requestedScope)) +
                QStringLiteral(" from ") + scopeSource);
    current().details.insert(QStringLiteral("scope"), m_requestedScope);
    current().details.insert(QStringLiteral("url"), url.toString());
    current().state = AuthStep::State::Waiting;
    current().summary = QStringLiteral("Waiting for the browser");
    changed();
    Q_EMIT authorizationUrlReady(url);
    if (m_options.openBrowser) {
        m_options.openBrowser(url);
        return;
    }
    followAuthorization(url, 0);
}

bool OAuthFlow::isWaitingForBrowser() const
{
    return !m_finished && m_authorizationUrl.isValid() && !m_steps.isEmpty() &&
           m_steps.constLast().kind == AuthStep::Kind::Authorization &&
           m_steps.constLast().state == AuthStep::State::Waiting;
}

void OAuthFlow::openBrowserAgain()
{
    if (isWaitingForBrowser() && m_options.openBrowser)
        m_options.openBrowser(m_authorizationUrl);
}

void OAuthFlow::followAuthorization(const QUrl &url, int hops)
{
    // No browser: the authorization server answers at once with a redirect (no login page), which
    // is followed only to this flow's own listener.
    request(
        makeRequest(url, "text/html"), "GET", {},
        [this, url, hops](const HttpExchange &ex, const QByteArray &) {
            const QByteArray location = ex.header(ex.responseHeaders, "Location");
            if (ex.status < 300 || ex.status >= 400 || location.isEmpty()) {
                fail(QStringLiteral(
                         "The authorization endpoint answered HTTP %1 instead of redirecting (there is no "
                         "browser to log in with)")
                         .arg(ex.status));
                return;
            }
            const QUrl target = url.resolved(QUrl(QString::fromUtf8(location)));
            const QUrl redirect = m_listener->redirectUri();
            const bool ours = target.scheme() == redirect.scheme() && target.host() == redirect.host() &&
                              target.port() == redirect.port() && target.path() == redirect.path();
            if (!ours) {
                if (hops < 5 && isSecureEndpoint(target) && target.host() == url.host()) {
                    followAuthorization(target, hops + 1); // a login hop on the authorization server
                    return;
                }
                verdict(QStringLiteral("redirect to the loopback listener"), false,
                        urlText(target.adjusted(QUrl::RemoveQuery)));
                fail(
                    QStringLiteral("The authorization server redirected to %1, which is not Folio's loopback "
                                   "listener: the code is not followed there")
                        .arg(urlText(target.adjusted(QUrl::RemoveQuery))));
                return;
            }
            // The listener takes it as a browser's request would arrive.
            request(makeRequest(target, "text/html"), "GET", {},
                    [](const HttpExchange &, const QByteArray &) {});
        });
}

void OAuthFlow::handleCallback(const QUrlQuery &query)
{
    if (m_finished)
        return;
    if (current().kind == AuthStep::Kind::Authorization) {
        current().state = AuthStep::State::Done;
        current().summary = QStringLiteral("The browser came back");
        current().finishedMs = nowMs();
        changed();
    }
    beginStep(AuthStep::Kind::Callback, AuthStep::kindName(AuthStep::Kind::Callback));
    QJsonObject params;
    for (const auto &[name, value] : query.queryItems(QUrl::FullyDecoded))
        params.insert(name, name == QLatin1String("code") ? SecretMask::abbreviate(value) : value);
    current().details.insert(QStringLiteral("query"), params);
    // RFC 9207 first, before the code or an error is acted on or shown.
    const bool issRequired =
        m_serverMetadata.value(QStringLiteral("authorization_response_iss_parameter_supported")).toBool();
    const bool hasIss = query.hasQueryItem(QStringLiteral("iss"));
    const QString iss = query.queryItemValue(QStringLiteral("iss"), QUrl::FullyDecoded);
    if (issRequired && !hasIss) {
        verdict(QStringLiteral("iss present"), false,
                QStringLiteral(
                    "the authorization server advertises authorization_response_iss_parameter_supported"));
        current().details.remove(QStringLiteral("query"));
        fail(QStringLiteral(
            "The authorization response has no iss, which its server promises (RFC 9207 §2.4); "
            "it is not used"));
        return;
    }
    if (hasIss) {
        const bool same = iss == m_issuer;
        verdict(QStringLiteral("iss equals the issuer"), same,
                QStringLiteral("iss %1, expected %2").arg(quoted(iss), quoted(m_issuer)));
        if (!same) {
            current().details.remove(QStringLiteral("query"));
            fail(QStringLiteral(
                     "The authorization response comes from issuer %1, not %2 (RFC 9207 §2.4); it is "
                     "not used")
                     .arg(quoted(iss), quoted(m_issuer)));
            return;
        }
    } else {
        verdict(QStringLiteral("iss"), true, QStringLiteral("not sent, and not promised"));
    }
    const bool stateOk = query.queryItemValue(QStringLiteral("state"), QUrl::FullyDecoded) == m_state;
    verdict(QStringLiteral("state matches"), stateOk);
    if (!stateOk) {
        fail(
            QStringLiteral("The state in the redirect is not the one sent: the answer is not to this sign-in "
                           "and is not used"));
        return;
    }
    if (query.hasQueryItem(QStringLiteral("error"))) {
        QString error = query.queryItemValue(QStringLiteral("error"), QUrl::FullyDecoded);
        const QString description =
            query.queryItemValue(QStringLiteral("error_description"), QUrl::FullyDecoded);
        if (!description.isEmpty())
            error += QStringLiteral(": ") + description;
        fail(QStringLiteral("The authorization server refused: ") + error);
        return;
    }
    const QString code = query.queryItemValue(QStringLiteral("code"), QUrl::FullyDecoded);
    if (code.isEmpty()) {
        fail(QStringLiteral("The redirect carries no code"), McpError::Kind::Protocol);
        return;
    }
    stepDone(QStringLiteral("Code received"), [this, code] { exchangeCode(code); });
}

// --- Tokens ---------------------------------------------------------------------------------

void OAuthFlow::addClientAuthentication(QNetworkRequest *req, QUrlQuery *form) const
{
    if (m_client.tokenEndpointAuthMethod == QLatin1String("private_key_jwt")) {
        // RFC 7523 §2.2: aud is the authorization server's issuer identifier.
        const SigningKey key = SigningKey::fromPem(m_client.privateKeyPem);
        form->addQueryItem(QStringLiteral("client_id"), m_client.clientId);
        form->addQueryItem(QStringLiteral("client_assertion_type"),
                           QStringLiteral("urn:ietf:params:oauth:client-assertion-type:jwt-bearer"));
        form->addQueryItem(QStringLiteral("client_assertion"),
                           jose::clientAssertion(key, m_client.clientId, m_issuer, nowMs() / 1000));
        return;
    }
    if (m_client.tokenEndpointAuthMethod == QLatin1String("none") && m_client.clientId.isEmpty())
        return; // a workload's assertion says who it is
    if (m_client.tokenEndpointAuthMethod == QLatin1String("client_secret_basic") &&
        !m_client.clientSecret.isEmpty()) {
        // RFC 6749 §2.3.1: both form-encoded before they are joined.
        const QByteArray id = QUrl::toPercentEncoding(m_client.clientId);
        const QByteArray secret = QUrl::toPercentEncoding(m_client.clientSecret);
        req->setRawHeader("Authorization", "Basic " + (id + ':' + secret).toBase64());
        return;
    }
    form->addQueryItem(QStringLiteral("client_id"), m_client.clientId);
    if (m_client.tokenEndpointAuthMethod == QLatin1String("client_secret_post") &&
        !m_client.clientSecret.isEmpty())
        form->addQueryItem(QStringLiteral("client_secret"), m_client.clientSecret);
}

void OAuthFlow::exchangeCode(const QString &code)
{
    beginStep(AuthStep::Kind::Token, AuthStep::kindName(AuthStep::Kind::Token));
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("authorization_code"));
    form.addQueryItem(QStringLiteral("code"), code);
    // The authorization request's redirect_uri, identical (RFC 6749 §4.1.3): the listener closed
    // on the callback, and its port with it.
    const QUrlQuery sent(m_authorizationUrl);
    form.addQueryItem(QStringLiteral("redirect_uri"),
                      sent.queryItemValue(QStringLiteral("redirect_uri"), QUrl::FullyDecoded));
    form.addQueryItem(QStringLiteral("code_verifier"), QString::fromLatin1(m_verifier));
    form.addQueryItem(QStringLiteral("resource"), m_resource);
    tokenRequest(form, false);
}

void OAuthFlow::refresh()
{
    beginStep(AuthStep::Kind::Refresh, AuthStep::kindName(AuthStep::Kind::Refresh));
    m_issuer = m_record.issuer;
    m_client = m_record.clientFor(m_issuer);
    m_resource = m_record.resource;
    if (m_record.isDpopBound())
        useDpopKey(m_record.dpopKeyPem); // a DPoP-bound refresh token is refreshed with its key
    if (m_record.tokens.refreshToken.isEmpty() || !m_record.tokens.tokenEndpoint.isValid()) {
        fail(QStringLiteral("No refresh token was issued: sign in again"));
        return;
    }
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("refresh_token"));
    form.addQueryItem(QStringLiteral("refresh_token"), m_record.tokens.refreshToken);
    form.addQueryItem(QStringLiteral("resource"), m_resource);
    tokenRequest(form, true);
}

void OAuthFlow::tokenRequest(QUrlQuery form, bool isRefresh, bool nonceRetry)
{
    const QUrl endpoint = isRefresh
                              ? m_record.tokens.tokenEndpoint
                              : QUrl(m_serverMetadata.value(QStringLiteral("token_endpoint")).toString());
    if (!isSecureEndpoint(endpoint)) {
        fail(QStringLiteral("The token endpoint %1 is not HTTPS (only loopback may use http)")
                 .arg(urlText(endpoint)));
        return;
    }
    QNetworkRequest req = makeRequest(endpoint, "application/json");
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/x-www-form-urlencoded"));
    QUrlQuery sent = form;
    addClientAuthentication(&req, &sent);
    const QByteArray body = formBody(sent);
    if (!nonceRetry)
        verdict(QStringLiteral("resource parameter"), true, m_resource);
    if (!m_dpopKey.isNull()) {
        const QString proof = jose::dpopProof(m_dpopKey, "POST", endpoint, {}, m_dpopNonce, nowMs() / 1000);
        req.setRawHeader("DPoP", proof.toLatin1());
        current().details.insert(QStringLiteral("dpop_proof"), jose::decodeJws(proof));
    }
    request(req, "POST", body,
            [this, isRefresh, nonceRetry, form](const HttpExchange &ex, const QByteArray &answer) {
                // RFC 9449 §8: the authorization server wants a nonce in the proof; one more try with it.
                if (!m_dpopKey.isNull() && ex.status == 400 && !nonceRetry) {
                    QString why;
                    const QByteArray nonce = ex.header(ex.responseHeaders, "DPoP-Nonce");
                    if (jsonObject(answer, &why).value(QStringLiteral("error")) ==
                            QLatin1String("use_dpop_nonce") &&
                        !nonce.isEmpty()) {
                        m_dpopNonce = QString::fromLatin1(nonce);
                        verdict(
                            QStringLiteral("DPoP nonce"), true,
                            QStringLiteral("the server asked for one (use_dpop_nonce): sent again with it"));
                        tokenRequest(form, isRefresh, true);
                        return;
                    }
                }
                readTokenAnswer(ex, answer, isRefresh);
            });
}

OAuthGrant OAuthFlow::grant() const
{
    return m_options.refreshOnly ? m_record.grant : m_options.client.grant;
}

void OAuthFlow::useDpopKey(const QByteArray &pem)
{
    m_dpopKey = pem.isEmpty() ? SigningKey() : SigningKey::fromPem(pem);
    if (m_dpopKey.isNull())
        m_dpopKey = SigningKey::generateEs256();
}

// --- Grants without a person ------------------------------------------------------------------

void OAuthFlow::chooseMachineClient()
{
    const OAuthClientSettings &settings = m_options.client;
    const QStringList authMethods =
        stringList(m_serverMetadata.value(QStringLiteral("token_endpoint_auth_methods_supported")));
    const auto methodVerdict = [this, &authMethods] {
        verdict(QStringLiteral("token endpoint auth method listed"),
                authMethods.isEmpty() || authMethods.contains(m_client.tokenEndpointAuthMethod),
                QStringLiteral("%1; the server lists %2")
                    .arg(m_client.tokenEndpointAuthMethod,
                         authMethods.isEmpty() ? QStringLiteral("none (client_secret_basic is the default)")
                                               : authMethods.join(QStringLiteral(", "))));
    };
    m_client = {};
    m_client.source = OAuthClient::Source::PreRegistered;
    m_client.clientId = settings.preRegisteredClientId;
    const OAuthGrant g = grant();
    if (g == OAuthGrant::JwtBearer) {
        // The workload's JWT is the grant; the client, if named, authenticates with nothing more.
        if (settings.assertion.isEmpty()) {
            fail(QStringLiteral("No workload JWT to present (the assertion is empty)"));
            return;
        }
        m_client.tokenEndpointAuthMethod = QStringLiteral("none");
        const QJsonObject claims = decodeJwtClaims(settings.assertion);
        current().details.insert(QStringLiteral("assertion"), claims);
        verdict(QStringLiteral("workload JWT"), !claims.isEmpty(),
                claims.isEmpty() ? QStringLiteral("not a JWT: sent as it is")
                                 : QStringLiteral("issued by %1 for %2")
                                       .arg(quoted(claims.value(QStringLiteral("iss")).toString()),
                                            quoted(claims.value(QStringLiteral("sub")).toString())));
        stepDone(QStringLiteral("Workload identity%1")
                     .arg(m_client.clientId.isEmpty() ? QString()
                                                      : QStringLiteral(" as ") + quoted(m_client.clientId)),
                 [this] { machineToken(m_options.client.assertion); });
        return;
    }
    if (m_client.clientId.isEmpty()) {
        fail(QStringLiteral("No client ID is set for %1").arg(grantName(g)));
        return;
    }
    if (g == OAuthGrant::ClientCredentials && !settings.clientKeyPem.isEmpty()) {
        QString why;
        const SigningKey key = SigningKey::fromPem(settings.clientKeyPem, &why);
        if (key.isNull()) {
            fail(QStringLiteral("The client's private key cannot sign: ") + why);
            return;
        }
        m_client.privateKeyPem = settings.clientKeyPem;
        m_client.tokenEndpointAuthMethod = QStringLiteral("private_key_jwt");
        methodVerdict();
        const QStringList algs = stringList(
            m_serverMetadata.value(QStringLiteral("token_endpoint_auth_signing_alg_values_supported")));
        verdict(QStringLiteral("signing algorithm listed"), algs.isEmpty() || algs.contains(key.algorithm()),
                QStringLiteral("%1; the server lists %2")
                    .arg(key.algorithm(),
                         algs.isEmpty() ? QStringLiteral("none") : algs.join(QStringLiteral(", "))));
        stepDone(
            QStringLiteral("Client %1 (private_key_jwt, %2)").arg(quoted(m_client.clientId), key.algorithm()),
            [this] { machineToken({}); });
        return;
    }
    if (settings.preRegisteredClientSecret.isEmpty()) {
        fail(QStringLiteral("No client secret or private key is set for client %1")
                 .arg(quoted(m_client.clientId)));
        return;
    }
    m_client.clientSecret = settings.preRegisteredClientSecret;
    m_client.tokenEndpointAuthMethod = authMethods.isEmpty() ||
                                               authMethods.contains(QStringLiteral("client_secret_basic")) ||
                                               !authMethods.contains(QStringLiteral("client_secret_post"))
                                           ? QStringLiteral("client_secret_basic")
                                           : QStringLiteral("client_secret_post");
    methodVerdict();
    stepDone(
        QStringLiteral("Client %1 (%2)").arg(quoted(m_client.clientId), m_client.tokenEndpointAuthMethod),
        [this, g] {
            if (g == OAuthGrant::EnterpriseManaged)
                exchangeIdToken();
            else
                machineToken({});
        });
}

void OAuthFlow::exchangeIdToken()
{
    beginStep(AuthStep::Kind::TokenExchange, AuthStep::kindName(AuthStep::Kind::TokenExchange));
    const OAuthClientSettings &settings = m_options.client;
    const QUrl endpoint = settings.idpTokenEndpoint;
    if (!endpoint.isValid() || !isSecureEndpoint(endpoint)) {
        fail(endpoint.isValid()
                 ? QStringLiteral("The identity provider's token endpoint %1 is not HTTPS (only "
                                  "loopback may use http)")
                       .arg(urlText(endpoint))
                 : QStringLiteral("No identity provider token endpoint is set"));
        return;
    }
    if (settings.idToken.isEmpty()) {
        fail(QStringLiteral("No ID token from the identity provider is set"));
        return;
    }
    // SEP-990 / RFC 8693 §2.1: the ID token for an ID-JAG whose audience is the authorization server
    // and whose resource is this MCP server.
    QString scopeSource;
    const QString scope = chooseScopes(&scopeSource);
    QUrlQuery form;
    form.addQueryItem(QStringLiteral("grant_type"),
                      QStringLiteral("urn:ietf:params:oauth:grant-type:token-exchange"));
    form.addQueryItem(QStringLiteral("requested_token_type"),
                      QStringLiteral("urn:ietf:params:oauth:token-type:id-jag"));
    form.addQueryItem(QStringLiteral("audience"), m_issuer);
    form.addQueryItem(QStringLiteral("resource"), m_resource);
    if (!scope.isEmpty())
        form.addQueryItem(QStringLiteral("scope"), scope);
    form.addQueryItem(QStringLiteral("subject_token"), settings.idToken);
    form.addQueryItem(QStringLiteral("subject_token_type"),
                      QStringLiteral("urn:ietf:params:oauth:token-type:id_token"));
    QNetworkRequest req = makeRequest(endpoint, "application/json");
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/x-www-form-urlencoded"));
    if (!settings.idpClientSecret.isEmpty()) {
        const QByteArray id = QUrl::toPercentEncoding(settings.idpClientId);
        const QByteArray secret = QUrl::toPercentEncoding(settings.idpClientSecret);
        req.setRawHeader("Authorization", "Basic " + (id + ':' + secret).toBase64());
    } else if (!settings.idpClientId.isEmpty()) {
        form.addQueryItem(QStringLiteral("client_id"), settings.idpClientId);
    }
    current().details.insert(QStringLiteral("audience"), m_issuer);
    current().details.insert(QStringLiteral("resource"), m_resource);
    current().details.insert(QStringLiteral("id_token"), decodeJwtClaims(settings.idToken));
    request(req, "POST", formBody(form), [this, endpoint](const HttpExchange &ex, const QByteArray &answer) {
        QString why;
        const QJsonObject reply = jsonObject(answer, &why);
        if (ex.status != 200) {
            fail(refusal(QStringLiteral("The identity provider refused the token exchange"), ex, endpoint,
                         reply));
            return;
        }
        const QString jag = reply.value(QStringLiteral("access_token")).toString();
        const QString type = reply.value(QStringLiteral("issued_token_type")).toString();
        const bool isJag = type == QLatin1String("urn:ietf:params:oauth:token-type:id-jag");
        verdict(QStringLiteral("issued_token_type id-jag"), isJag,
                type.isEmpty() ? QStringLiteral("(missing)") : type);
        if (jag.isEmpty() || !isJag) {
            fail(jag.isEmpty()
                     ? QStringLiteral("The token exchange answer has no access_token")
                     : QStringLiteral("The identity provider issued %1, not an ID-JAG").arg(quoted(type)),
                 McpError::Kind::Protocol);
            return;
        }
        const QJsonObject header = jose::decodeJws(jag).value(QStringLiteral("header")).toObject();
        current().jwtClaims = decodeJwtClaims(jag);
        verdict(QStringLiteral("typ oauth-id-jag+jwt"),
                header.value(QStringLiteral("typ")) == QLatin1String("oauth-id-jag+jwt"),
                header.value(QStringLiteral("typ")).toString());
        const QString audience = current().jwtClaims.value(QStringLiteral("aud")).toString();
        verdict(QStringLiteral("audience is the authorization server"),
                audience.isEmpty() || audience == m_issuer,
                QStringLiteral("aud %1, issuer %2").arg(quoted(audience), quoted(m_issuer)));
        stepDone(QStringLiteral("ID-JAG for %1").arg(quoted(m_issuer)), [this, jag] { machineToken(jag); });
    });
}

void OAuthFlow::machineToken(const QString &assertion)
{
    beginStep(AuthStep::Kind::Token, AuthStep::kindName(AuthStep::Kind::Token));
    QString scopeSource;
    m_requestedScope = chooseScopes(&scopeSource);
    if (grant() == OAuthGrant::ClientCredentials &&
        m_requestedScope.contains(QLatin1String("offline_access"))) {
        // RFC 6749 §4.4.3: no refresh token for client credentials; the grant itself runs again.
        QStringList scopes = m_requestedScope.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        scopes.removeAll(QStringLiteral("offline_access"));
        m_requestedScope = scopes.join(QLatin1Char(' '));
        scopeSource += QStringLiteral("; offline_access left out: client credentials get no refresh token");
    }
    QUrlQuery form;
    if (grant() == OAuthGrant::ClientCredentials) {
        form.addQueryItem(QStringLiteral("grant_type"), QStringLiteral("client_credentials"));
    } else {
        form.addQueryItem(QStringLiteral("grant_type"),
                          QStringLiteral("urn:ietf:params:oauth:grant-type:jwt-bearer"));
        form.addQueryItem(QStringLiteral("assertion"), assertion);
    }
    if (!m_requestedScope.isEmpty())
        form.addQueryItem(QStringLiteral("scope"), m_requestedScope);
    form.addQueryItem(QStringLiteral("resource"), m_resource);
    verdict(QStringLiteral("scopes chosen"), true,
            (m_requestedScope.isEmpty() ? QStringLiteral("(none)") : quoted(m_requestedScope)) +
                QStringLiteral(" from ") + scopeSource);
    tokenRequest(form, false);
}

void OAuthFlow::readTokenAnswer(const HttpExchange &ex, const QByteArray &body, bool isRefresh)
{
    QString why;
    const QJsonObject answer = jsonObject(body, &why);
    if (ex.status != 200) {
        const QString error = oauthError(answer);
        fail(QStringLiteral("The token endpoint answered %1%2")
                 .arg(statusText(ex, QUrl(ex.url)),
                      error.isEmpty()
                          ? (body.isEmpty() ? QString() : QStringLiteral(": ") + describeBody({}, body, 200))
                          : QStringLiteral(" with OAuth error ") + error));
        return;
    }
    const QString accessToken = answer.value(QStringLiteral("access_token")).toString();
    const QString tokenType = answer.value(QStringLiteral("token_type")).toString();
    if (accessToken.isEmpty()) {
        fail(QStringLiteral("The token answer has no access_token") +
                 (why.isEmpty() ? QString() : QStringLiteral(" (") + why + QLatin1Char(')')),
             McpError::Kind::MalformedMessage);
        return;
    }
    const bool bearer = tokenType.compare(QLatin1String("Bearer"), Qt::CaseInsensitive) == 0;
    const bool dpop =
        !m_dpopKey.isNull() && tokenType.compare(QLatin1String("DPoP"), Qt::CaseInsensitive) == 0;
    verdict(m_dpopKey.isNull() ? QStringLiteral("token type Bearer")
                               : QStringLiteral("token type DPoP or Bearer"),
            bearer || dpop, tokenType.isEmpty() ? QStringLiteral("(missing)") : tokenType);
    if (!bearer && !dpop) {
        fail(QStringLiteral("The token is of type %1, not %2")
                 .arg(quoted(tokenType),
                      m_dpopKey.isNull() ? QStringLiteral("Bearer") : QStringLiteral("DPoP or Bearer")),
             McpError::Kind::Protocol);
        return;
    }
    if (!m_dpopKey.isNull() && bearer)
        verdict(QStringLiteral("token bound to the DPoP key"), false,
                QStringLiteral("the server issued a Bearer token: it is sent as one (RFC 9449 §5)"));
    OAuthTokens tokens;
    tokens.accessToken = accessToken;
    tokens.tokenType = tokenType;
    tokens.issuedAtMs = nowMs();
    const qint64 expiresIn = answer.value(QStringLiteral("expires_in")).toInteger(-1);
    if (expiresIn > 0)
        tokens.expiresAtMs = tokens.issuedAtMs + expiresIn * 1000;
    tokens.scope = answer.contains(QStringLiteral("scope"))
                       ? answer.value(QStringLiteral("scope")).toString()
                       : (isRefresh ? m_record.tokens.scope : m_requestedScope);
    tokens.refreshToken = answer.value(QStringLiteral("refresh_token")).toString();
    const bool rotated =
        isRefresh && !tokens.refreshToken.isEmpty() && tokens.refreshToken != m_record.tokens.refreshToken;
    if (isRefresh && tokens.refreshToken.isEmpty())
        tokens.refreshToken = m_record.tokens.refreshToken; // not rotated: the old one stays good
    tokens.tokenEndpoint = isRefresh
                               ? m_record.tokens.tokenEndpoint
                               : QUrl(m_serverMetadata.value(QStringLiteral("token_endpoint")).toString());
    current().jwtClaims = decodeJwtClaims(accessToken);
    QJsonObject shown = answer;
    for (const char *key : {"access_token", "refresh_token", "id_token"}) {
        if (shown.contains(QLatin1String(key)))
            shown.insert(QLatin1String(key),
                         SecretMask::abbreviate(shown.value(QLatin1String(key)).toString()));
    }
    current().details.insert(QStringLiteral("answer"), shown);

    m_record.issuer = m_issuer;
    m_record.resource = m_resource;
    m_record.clients.insert(m_issuer, m_client);
    m_record.tokens = tokens;
    m_record.grant = grant();
    m_record.dpopKeyPem = dpop ? m_dpopKey.privatePem() : QByteArray();
    QString summary = dpop ? QStringLiteral("DPoP-bound access token") : QStringLiteral("Access token");
    if (tokens.expiresAtMs > 0)
        summary += QStringLiteral(" for %1 s").arg(expiresIn);
    if (!tokens.scope.isEmpty())
        summary += QStringLiteral(", scope ") + quoted(tokens.scope);
    summary += tokens.refreshToken.isEmpty() ? QStringLiteral(", no refresh token")
               : rotated                     ? QStringLiteral(", refresh token rotated")
                                             : QStringLiteral(", with a refresh token");
    current().state = AuthStep::State::Done;
    current().summary = summary;
    current().finishedMs = nowMs();
    changed();
    finish();
}

} // namespace folio
