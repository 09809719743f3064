#include "authserver.h"

#include "dpop.h"
#include "httpexchange.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QRandomGenerator>
#include <QTimer>
#include <QUrlQuery>

namespace demo {

namespace {

const QByteArray resourceMetadataPath = "/.well-known/oauth-protected-resource/mcp";
const QByteArray serverMetadataPath = "/.well-known/oauth-authorization-server";
const QByteArray registerPath = "/register";
const QByteArray authorizePath = "/authorize";
const QByteArray tokenPath = "/token";

constexpr int maxRedirectUris = 10;
constexpr qsizetype maxClientNameChars = 200;

using Form = QHash<QString, QString>;

// application/x-www-form-urlencoded, as a form body or a URL's query carries it ('+' is a space).
// A parameter sent twice is refused (RFC 6749 §3.1): *duplicate names it.
bool parseForm(const QByteArray &text, Form *out, QString *duplicate)
{
    for (const QByteArray &pair : text.split('&')) {
        if (pair.isEmpty())
            continue;
        const qsizetype eq = pair.indexOf('=');
        QByteArray name = eq < 0 ? pair : pair.left(eq);
        QByteArray value = eq < 0 ? QByteArray() : pair.mid(eq + 1);
        name.replace('+', ' ');
        value.replace('+', ' ');
        const QString key = QString::fromUtf8(QByteArray::fromPercentEncoding(name));
        if (out->contains(key)) {
            *duplicate = key;
            return false;
        }
        out->insert(key, QString::fromUtf8(QByteArray::fromPercentEncoding(value)));
    }
    return true;
}

QString randomToken(int bytes = 32)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    for (char &c : raw)
        c = char(QRandomGenerator::system()->bounded(256));
    return QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QByteArray base64Url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QJsonArray jsonArray(const QStringList &list)
{
    QJsonArray a;
    for (const QString &s : list)
        a.append(s);
    return a;
}

bool isLoopbackHost(const QString &host)
{
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

// A native client's redirect URI (RFC 8252 §7.3): http on a loopback host, no fragment.
bool isLoopbackRedirect(const QUrl &url)
{
    return url.isValid() && url.scheme() == QLatin1String("http") && isLoopbackHost(url.host()) &&
           !url.hasFragment() && url.userInfo().isEmpty();
}

// A client ID metadata document URL (draft-ietf-oauth-client-id-metadata-document §3): https with
// a path, no fragment, credentials or dot segments. On a loopback host http will do too, as it does
// for this issuer, so that a client on the same machine can serve its own document.
bool isMetadataDocumentUrl(const QUrl &url)
{
    if (!url.isValid() || url.hasFragment() || !url.userInfo().isEmpty() || url.path().size() < 2)
        return false;
    const QStringList segments = url.path().split(QLatin1Char('/'));
    if (segments.contains(QStringLiteral(".")) || segments.contains(QStringLiteral("..")))
        return false;
    return url.scheme() == QLatin1String("https") ||
           (url.scheme() == QLatin1String("http") && isLoopbackHost(url.host()));
}

// RFC 8252 §7.3: a loopback redirect URI matches whatever its port (the client's listener picks
// one each time); everything else must be identical.
bool redirectMatches(const QString &registered, const QString &given)
{
    const QUrl a(registered);
    const QUrl b(given);
    if (!isLoopbackRedirect(a) || !isLoopbackRedirect(b))
        return registered == given;
    return a.scheme() == b.scheme() && a.host() == b.host() && a.path() == b.path() && a.query() == b.query();
}

// RFC 7636 §4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~".
bool isValidVerifier(const QString &verifier)
{
    if (verifier.size() < 43 || verifier.size() > 128)
        return false;
    for (const QChar c : verifier) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('-') && c != QLatin1Char('.') &&
            c != QLatin1Char('_') && c != QLatin1Char('~'))
            return false;
    }
    return true;
}

QString s256(const QString &verifier)
{
    return QString::fromLatin1(
        base64Url(QCryptographicHash::hash(verifier.toLatin1(), QCryptographicHash::Sha256)));
}

QStringList splitScopes(const QString &scope)
{
    return scope.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

// A query string of its own: every value percent-encoded (no '+' a form decoder reads as a space).
QString encodeQuery(const QList<std::pair<QString, QString>> &items)
{
    QStringList parts;
    for (const auto &[name, value] : items)
        parts.append(
            QString::fromLatin1(QUrl::toPercentEncoding(name) + '=' + QUrl::toPercentEncoding(value)));
    return parts.join(QLatin1Char('&'));
}

QByteArray quotedParam(const char *name, const QString &value)
{
    QString escaped = value;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    escaped.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QByteArray(name) + "=\"" + escaped.toUtf8() + '"';
}

} // namespace

// --- Settings ----------------------------------------------------------------------------------

QStringList AuthSettings::faultNames()
{
    return {QStringLiteral("wrong-state"),
            QStringLiteral("wrong-iss"),
            QStringLiteral("no-iss"),
            QStringLiteral("redirect-elsewhere"),
            QStringLiteral("access-denied"),
            QStringLiteral("token-400"),
            QStringLiteral("refresh-400"),
            QStringLiteral("no-s256"),
            QStringLiteral("issuer-mismatch"),
            QStringLiteral("resource-mismatch"),
            QStringLiteral("no-resource-metadata"),
            QStringLiteral("bare-challenge"),
            QStringLiteral("register-400"),
            QStringLiteral("no-registration"),
            QStringLiteral("token-type-mac")};
}

bool AuthSettings::parse(const QString &spec, QString *error)
{
    auto scopeList = [](const QString &value) { return value.split(QLatin1Char('+'), Qt::SkipEmptyParts); };
    auto milliseconds = [error](const QString &key, const QString &value, qint64 minimum, qint64 *out) {
        bool ok = false;
        const qint64 ms = value.toLongLong(&ok);
        if (!ok || ms < minimum) {
            *error = QStringLiteral("--oauth: %1 wants a whole number of milliseconds, at least %2")
                         .arg(key)
                         .arg(minimum);
            return false;
        }
        *out = ms;
        return true;
    };
    bool redirectsGiven = false;
    for (const QString &part : spec.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        const QString key = eq < 0 ? part : part.left(eq);
        const QString value = eq < 0 ? QString() : part.mid(eq + 1);
        if (eq < 0) {
            if (key == QLatin1String("rotate"))
                rotate = true;
            else if (key == QLatin1String("jwt"))
                jwt = true;
            else if (key == QLatin1String("no-refresh"))
                noRefresh = true;
            else if (key == QLatin1String("cimd"))
                metadataDocuments = true;
            else if (key == QLatin1String("dpop"))
                dpop = true;
            else {
                *error = QStringLiteral(
                             "--oauth: unknown flag \"%1\" (flags: rotate, jwt, no-refresh, cimd, dpop)")
                             .arg(key);
                return false;
            }
            continue;
        }
        if (key == QLatin1String("token-ttl-ms")) {
            if (!milliseconds(key, value, 1, &tokenTtlMs))
                return false;
        } else if (key == QLatin1String("code-ttl-ms")) {
            if (!milliseconds(key, value, 1, &codeTtlMs))
                return false;
        } else if (key == QLatin1String("refresh-ttl-ms")) {
            if (!milliseconds(key, value, 0, &refreshTtlMs))
                return false;
        } else if (key == QLatin1String("scopes")) {
            scopes = scopeList(value);
        } else if (key == QLatin1String("challenge-scope")) {
            challengeScopes = scopeList(value);
        } else if (key == QLatin1String("step-up")) {
            stepUpScope = value;
        } else if (key == QLatin1String("client")) {
            // RFC 6749 §2.2: the ID is the client's; the secret (optional) may hold ':'.
            const qsizetype colon = value.indexOf(QLatin1Char(':'));
            clientId = colon < 0 ? value : value.left(colon);
            clientSecret = colon < 0 ? QString() : value.mid(colon + 1);
            if (clientId.isEmpty() || (colon >= 0 && clientSecret.isEmpty())) {
                *error = QStringLiteral("--oauth: client wants ID or ID:SECRET, neither empty");
                return false;
            }
        } else if (key == QLatin1String("redirect")) {
            clientRedirects = scopeList(value);
            redirectsGiven = true;
            if (clientRedirects.isEmpty() || clientRedirects.size() > maxRedirectUris) {
                *error = QStringLiteral("--oauth: redirect wants 1 to %1 URIs").arg(maxRedirectUris);
                return false;
            }
            for (const QString &uri : std::as_const(clientRedirects)) {
                if (!isLoopbackRedirect(QUrl(uri, QUrl::StrictMode))) {
                    *error = QStringLiteral("--oauth: redirect %1 is not a loopback http URI (RFC 8252 §7.3)")
                                 .arg(uri);
                    return false;
                }
            }
        } else if (key == QLatin1String("dpop")) {
            if (value != QLatin1String("nonce")) {
                *error = QStringLiteral("--oauth: dpop is a flag, or dpop=nonce (not \"%1\")").arg(value);
                return false;
            }
            dpop = true;
            dpopNonce = true;
        } else if (key == QLatin1String("fault")) {
            if (!fault.isEmpty()) {
                *error = QStringLiteral("--oauth: one fault at a time (%1, then %2)").arg(fault, value);
                return false;
            }
            if (!faultNames().contains(value)) {
                *error = QStringLiteral("--oauth: unknown fault \"%1\" (faults: %2)")
                             .arg(value, faultNames().join(QStringLiteral(", ")));
                return false;
            }
            fault = value;
        } else {
            *error = QStringLiteral(
                         "--oauth: unknown key \"%1\" (keys: token-ttl-ms, code-ttl-ms, "
                         "refresh-ttl-ms, scopes, challenge-scope, step-up, client, redirect, dpop, fault)")
                         .arg(key);
            return false;
        }
    }
    if (redirectsGiven && clientId.isEmpty()) {
        *error = QStringLiteral("--oauth: redirect is for the client= of the same SPEC, and there is none");
        return false;
    }
    for (const QString &scope : scopes + challengeScopes + QStringList{stepUpScope}) {
        if (scope.contains(QLatin1Char('"')) || scope.contains(QLatin1Char('\\'))) {
            *error = QStringLiteral("--oauth: a scope may not contain '\"' or '\\' (RFC 6749 §3.3)");
            return false;
        }
    }
    return true;
}

// --- Tables ------------------------------------------------------------------------------------

template<typename T> void AuthServer::Table<T>::insert(const QString &key, const T &value)
{
    if (!items.contains(key))
        order.append(key);
    items.insert(key, value);
    while (order.size() > maxEntries)
        items.remove(order.takeFirst());
}

template<typename T> void AuthServer::Table<T>::remove(const QString &key)
{
    if (items.remove(key))
        order.removeOne(key);
}

template<typename T> const T *AuthServer::Table<T>::find(const QString &key) const
{
    const auto it = items.constFind(key);
    return it == items.constEnd() ? nullptr : &it.value();
}

// --- The server --------------------------------------------------------------------------------

AuthServer::AuthServer(const AuthSettings &settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
{
    m_clock.start();
    if (m_settings.dpopNonce) {
        m_tokenNonce = randomToken(16);
        m_resourceNonce = randomToken(16);
    }
    if (!m_settings.clientId.isEmpty()) {
        Client client;
        client.redirectUris = m_settings.clientRedirects;
        client.secret = m_settings.clientSecret;
        client.authMethod =
            client.secret.isEmpty() ? QStringLiteral("none") : QStringLiteral("client_secret_basic");
        client.refreshGrant = true;
        client.preRegistered = true;
        m_preRegistered = client;
    }
}

const AuthServer::Client *AuthServer::findClient(const QString &id) const
{
    if (!m_settings.clientId.isEmpty() && id == m_settings.clientId)
        return &m_preRegistered; // never dropped from the table
    return m_clients.find(id);
}

void AuthServer::setOrigin(const QUrl &origin)
{
    m_origin = origin.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment);
}

QString AuthServer::issuer() const
{
    return m_origin.toString();
}

QString AuthServer::resource() const
{
    return issuer() + QStringLiteral("/mcp");
}

QString AuthServer::resourceMetadataUrl() const
{
    return issuer() + QString::fromLatin1(resourceMetadataPath);
}

QString AuthServer::resourceProblem(const QString &given) const
{
    if (given == resource())
        return {};
    return given.isEmpty() ? QStringLiteral("resource is required (RFC 8707): %1").arg(resource())
                           : QStringLiteral("This server protects %1 only").arg(resource());
}

QStringList AuthServer::offeredScopes() const
{
    QStringList offered = m_settings.scopes + m_settings.challengeScopes;
    if (!m_settings.stepUpScope.isEmpty())
        offered.append(m_settings.stepUpScope);
    if (!m_settings.noRefresh)
        offered.append(QStringLiteral("offline_access"));
    return offered;
}

bool AuthServer::servesClientCredentials() const
{
    return !m_settings.clientId.isEmpty() && !m_settings.clientSecret.isEmpty();
}

bool AuthServer::handles(const QByteArray &path) const
{
    return path == resourceMetadataPath || path == serverMetadataPath || path == registerPath ||
           path == authorizePath || path == tokenPath;
}

void AuthServer::handle(const QByteArray &method, const QByteArray &target, const HeaderMap &headers,
                        const QByteArray &body, HttpExchange *exchange)
{
    const qsizetype question = target.indexOf('?');
    const QByteArray path = question < 0 ? target : target.left(question);
    const bool post = path == registerPath || path == tokenPath;
    if (method != (post ? "POST" : "GET")) {
        exchange->setHeader("Allow", post ? "POST" : "GET");
        exchange->refuse(405, post ? "Use POST.\n" : "Use GET.\n");
        return;
    }
    if (body.size() > maxBodyBytes) {
        exchange->refuse(413, "The body is over the authorization server's 64 KiB limit.\n");
        return;
    }
    if (path == resourceMetadataPath)
        serveResourceMetadata(exchange);
    else if (path == serverMetadataPath)
        serveServerMetadata(exchange);
    else if (path == registerPath)
        registerClient(body, exchange);
    else if (path == authorizePath)
        authorize(target, exchange);
    else
        token(headers, body, exchange);
}

QByteArray AuthServer::challenge(const QString &error, const QString &description) const
{
    QList<QByteArray> params;
    if (!m_settings.hasFault("no-resource-metadata") && !m_settings.hasFault("bare-challenge"))
        params.append(quotedParam("resource_metadata", resourceMetadataUrl()));
    if (!m_settings.challengeScopes.isEmpty())
        params.append(quotedParam("scope", m_settings.challengeScopes.join(QLatin1Char(' '))));
    if (!error.isEmpty()) {
        params.append(quotedParam("error", error));
        params.append(quotedParam("error_description", description));
    }
    QByteArray header = params.isEmpty() ? QByteArray("Bearer") : "Bearer " + params.join(", ");
    // RFC 9449 §7.1: the DPoP scheme is offered beside Bearer, with the algorithms it takes. One
    // header of two challenges (RFC 9110 §11.6.1), Bearer first: the scheme a client without DPoP reads.
    if (m_settings.dpop)
        header += ", DPoP " + quotedParam("algs", QStringLiteral("ES256"));
    return header;
}

QByteArray AuthServer::dpopChallenge(const QString &error, const QString &description) const
{
    // Alone (a client that sent DPoP reads this scheme's error first), with resource_metadata so
    // that a client signing in again from this answer still finds the authorization server.
    QList<QByteArray> params;
    if (!m_settings.hasFault("no-resource-metadata") && !m_settings.hasFault("bare-challenge"))
        params.append(quotedParam("resource_metadata", resourceMetadataUrl()));
    params.append(quotedParam("error", error));
    params.append(quotedParam("error_description", description));
    params.append(quotedParam("algs", QStringLiteral("ES256")));
    return "DPoP " + params.join(", ");
}

QUrl AuthServer::requestUrl(const HeaderMap &headers, const QByteArray &path) const
{
    // The connection checked that Host is a loopback name; without one, the server's own origin.
    const QByteArray host = headers.value("host");
    QUrl url = host.isEmpty() ? m_origin : QUrl(QStringLiteral("http://") + QString::fromLatin1(host));
    url.setPath(QString::fromLatin1(path));
    return url;
}

AuthServer::ProofVerdict AuthServer::checkProof(const HeaderMap &headers, const QByteArray &method,
                                                const QByteArray &path, const QString &accessToken,
                                                const QString &nonce, QString *jkt, QString *why)
{
    dpop::Expectation expected;
    expected.method = method;
    expected.url = requestUrl(headers, path);
    expected.accessToken = accessToken;
    expected.nonce = nonce;
    expected.nowSeconds = QDateTime::currentSecsSinceEpoch();
    dpop::Proof proof;
    switch (dpop::verify(headers.value("dpop"), expected, &proof, why)) {
    case dpop::Verdict::Invalid:
        return ProofVerdict::Invalid;
    case dpop::Verdict::NonceNeeded:
        return ProofVerdict::NonceNeeded;
    case dpop::Verdict::Valid:
        break;
    }
    // RFC 9449 §11.1: a proof is good once. Its iat is at most maxSkewSeconds from now, so a jti
    // is remembered until no proof carrying it can be taken any more (twice that, from when it
    // was taken), and never forgotten sooner: a client that sends maxProofIds proofs within that
    // time is refused rather than let push an earlier jti out and replay it.
    const qint64 now = expected.nowSeconds;
    while (!m_proofIdOrder.isEmpty() && m_proofIdOrder.constFirst().second < now - 2 * dpop::maxSkewSeconds)
        m_proofIds.remove(m_proofIdOrder.takeFirst().first);
    if (m_proofIds.contains(proof.jti)) {
        *why = QStringLiteral("The DPoP proof was used before (its jti is not new)");
        return ProofVerdict::Invalid;
    }
    if (m_proofIdOrder.size() >= maxProofIds) {
        *why = QStringLiteral("Too many DPoP proofs in %1 s: the demo server remembers %2; try again later")
                   .arg(2 * dpop::maxSkewSeconds)
                   .arg(maxProofIds);
        return ProofVerdict::Invalid;
    }
    m_proofIds.insert(proof.jti);
    m_proofIdOrder.append({proof.jti, now});
    *jkt = proof.thumbprint;
    return ProofVerdict::Valid;
}

bool AuthServer::admit(const QByteArray &method, const QByteArray &path, const HeaderMap &headers,
                       HttpExchange *exchange)
{
    const QByteArray authorization = headers.value("authorization").trimmed();
    const qsizetype space = authorization.indexOf(' ');
    const QByteArray scheme = (space < 0 ? authorization : authorization.left(space)).toLower();
    const QString token = space < 0 ? QString() : QString::fromLatin1(authorization.mid(space + 1).trimmed());
    const bool bearer = scheme == "bearer" && !token.isEmpty();
    // Without dpop the DPoP scheme is not served: such a request has no credentials this server reads.
    const bool dpopScheme = m_settings.dpop && scheme == "dpop" && !token.isEmpty();
    auto refuse = [this, exchange](int status, const QString &error, const QString &description,
                                   const QByteArray &header) {
        exchange->setHeader("WWW-Authenticate", header);
        exchange->setHeader("Cache-Control", "no-store");
        exchange->replyJson(
            compact({{QStringLiteral("error"), error}, {QStringLiteral("error_description"), description}}),
            status);
    };
    auto refuseDpop = [this, &refuse](const QString &error, const QString &description) {
        refuse(401, error, description, dpopChallenge(error, description));
    };
    if (!bearer && !dpopScheme) {
        // RFC 6750 §3.1: a request without credentials gets no error code.
        refuse(401, QStringLiteral("unauthorized"),
               QStringLiteral("This server needs a bearer token; its protected resource metadata is at %1")
                   .arg(resourceMetadataUrl()),
               challenge({}, {}));
        return false;
    }
    const Access *found = m_access.find(token);
    if (!found || found->expiresAt <= now()) {
        const QString description = found ? QStringLiteral("The access token expired")
                                          : QStringLiteral("The access token is unknown");
        if (found)
            m_access.remove(token);
        if (dpopScheme)
            refuseDpop(QStringLiteral("invalid_token"), description);
        else
            refuse(401, QStringLiteral("invalid_token"), description,
                   challenge(QStringLiteral("invalid_token"), description));
        return false;
    }
    const Access access = *found;
    if (bearer && !access.jkt.isEmpty()) {
        // RFC 9449 §7.2: a DPoP-bound token sent as Bearer is refused: its key must be shown.
        refuseDpop(QStringLiteral("invalid_token"),
                   QStringLiteral("This access token is DPoP-bound: send it as Authorization: DPoP, with a "
                                  "DPoP proof of its key"));
        return false;
    }
    if (dpopScheme) {
        if (access.jkt.isEmpty()) {
            refuseDpop(QStringLiteral("invalid_token"),
                       QStringLiteral("This access token is not DPoP-bound: send it as Bearer"));
            return false;
        }
        if (!headers.contains("dpop")) {
            refuseDpop(QStringLiteral("invalid_dpop_proof"),
                       QStringLiteral("A DPoP-bound access token needs a DPoP proof header"));
            return false;
        }
        QString jkt;
        QString why;
        switch (checkProof(headers, method, path, token, m_resourceNonce, &jkt, &why)) {
        case ProofVerdict::NonceNeeded:
            // RFC 9449 §9: the nonce to put in the next proof.
            exchange->setHeader("DPoP-Nonce", m_resourceNonce.toLatin1());
            refuseDpop(QStringLiteral("use_dpop_nonce"), why);
            return false;
        case ProofVerdict::Invalid:
            refuseDpop(QStringLiteral("invalid_dpop_proof"), why);
            return false;
        case ProofVerdict::Valid:
            break;
        }
        if (jkt != access.jkt) {
            refuseDpop(QStringLiteral("invalid_token"),
                       QStringLiteral("The DPoP proof is signed with another key than the one the access "
                                      "token is bound to"));
            return false;
        }
    }
    if (!m_settings.stepUpScope.isEmpty() && !access.scopes.contains(m_settings.stepUpScope)) {
        QStringList wanted = access.scopes;
        wanted.removeAll(QStringLiteral("offline_access"));
        wanted.append(m_settings.stepUpScope);
        const QString description =
            QStringLiteral("This server needs the scope %1 (step-up)").arg(m_settings.stepUpScope);
        QByteArray header = (dpopScheme ? "DPoP " : "Bearer ") +
                            quotedParam("error", QStringLiteral("insufficient_scope")) + ", " +
                            quotedParam("scope", wanted.join(QLatin1Char(' '))) + ", " +
                            quotedParam("resource_metadata", resourceMetadataUrl()) + ", " +
                            quotedParam("error_description", description);
        refuse(403, QStringLiteral("insufficient_scope"), description, header);
        return false;
    }
    return true;
}

void AuthServer::oauthError(HttpExchange *exchange, int status, const QString &error,
                            const QString &description)
{
    exchange->setHeader("Cache-Control", "no-store");
    exchange->replyJson(
        compact({{QStringLiteral("error"), error}, {QStringLiteral("error_description"), description}}),
        status);
}

// --- Metadata ----------------------------------------------------------------------------------

void AuthServer::serveResourceMetadata(HttpExchange *exchange)
{
    if (m_settings.hasFault("no-resource-metadata")) {
        exchange->refuse(404, "No protected resource metadata (fault=no-resource-metadata).\n");
        return;
    }
    const QString named =
        m_settings.hasFault("resource-mismatch") ? issuer() + QStringLiteral("/elsewhere") : resource();
    QJsonObject metadata{
        {QStringLiteral("resource"), named},
        {QStringLiteral("authorization_servers"), QJsonArray{issuer()}},
        {QStringLiteral("scopes_supported"), jsonArray(m_settings.scopes)},
        {QStringLiteral("bearer_methods_supported"), QJsonArray{QStringLiteral("header")}},
        {QStringLiteral("resource_name"), QStringLiteral("Folio demo server")},
    };
    if (m_settings.dpop) {
        // RFC 9728 §2: DPoP proofs of ES256 are taken; a Bearer token is good too.
        metadata.insert(QStringLiteral("dpop_signing_alg_values_supported"),
                        QJsonArray{QStringLiteral("ES256")});
        metadata.insert(QStringLiteral("dpop_bound_access_tokens_required"), false);
    }
    exchange->replyJson(compact(metadata), 200);
}

void AuthServer::serveServerMetadata(HttpExchange *exchange)
{
    QStringList scopes = m_settings.scopes;
    for (const QString &extra : m_settings.challengeScopes + QStringList{m_settings.stepUpScope}) {
        if (!extra.isEmpty() && !scopes.contains(extra))
            scopes.append(extra);
    }
    if (!m_settings.noRefresh)
        scopes.append(QStringLiteral("offline_access"));
    QJsonArray grants{QStringLiteral("authorization_code")};
    if (!m_settings.noRefresh)
        grants.append(QStringLiteral("refresh_token"));
    if (servesClientCredentials())
        grants.append(QStringLiteral("client_credentials"));
    QJsonObject metadata{
        {QStringLiteral("issuer"),
         m_settings.hasFault("issuer-mismatch") ? issuer() + QStringLiteral("/elsewhere") : issuer()},
        {QStringLiteral("authorization_endpoint"), issuer() + QString::fromLatin1(authorizePath)},
        {QStringLiteral("token_endpoint"), issuer() + QString::fromLatin1(tokenPath)},
        {QStringLiteral("registration_endpoint"), issuer() + QString::fromLatin1(registerPath)},
        {QStringLiteral("code_challenge_methods_supported"), QJsonArray{QStringLiteral("S256")}},
        {QStringLiteral("grant_types_supported"), grants},
        {QStringLiteral("response_types_supported"), QJsonArray{QStringLiteral("code")}},
        {QStringLiteral("response_modes_supported"), QJsonArray{QStringLiteral("query")}},
        {QStringLiteral("token_endpoint_auth_methods_supported"),
         QJsonArray{QStringLiteral("none"), QStringLiteral("client_secret_post"),
                    QStringLiteral("client_secret_basic")}},
        {QStringLiteral("scopes_supported"), jsonArray(scopes)},
        {QStringLiteral("authorization_response_iss_parameter_supported"), true},
    };
    if (m_settings.metadataDocuments)
        metadata.insert(QStringLiteral("client_id_metadata_document_supported"), true);
    if (m_settings.dpop) // RFC 9449 §5.1
        metadata.insert(QStringLiteral("dpop_signing_alg_values_supported"),
                        QJsonArray{QStringLiteral("ES256")});
    if (m_settings.hasFault("no-s256"))
        metadata.remove(QStringLiteral("code_challenge_methods_supported"));
    if (m_settings.hasFault("no-registration"))
        metadata.remove(QStringLiteral("registration_endpoint"));
    exchange->replyJson(compact(metadata), 200);
}

// --- Registration (RFC 7591) -------------------------------------------------------------------

void AuthServer::registerClient(const QByteArray &body, HttpExchange *exchange)
{
    if (m_settings.hasFault("no-registration")) {
        exchange->refuse(404, "No registration endpoint (fault=no-registration).\n");
        return;
    }
    if (m_settings.hasFault("register-400")) {
        oauthError(exchange, 400, QStringLiteral("invalid_client_metadata"),
                   QStringLiteral("The demo server refuses every registration (fault=register-400)"));
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        oauthError(exchange, 400, QStringLiteral("invalid_client_metadata"),
                   QStringLiteral("The registration request must be a JSON object"));
        return;
    }
    const QJsonObject request = document.object();
    const QJsonValue uris = request.value(QStringLiteral("redirect_uris"));
    const QJsonArray uriArray = uris.toArray();
    if (!uris.isArray() || uriArray.isEmpty() || uriArray.size() > maxRedirectUris) {
        oauthError(exchange, 400, QStringLiteral("invalid_redirect_uri"),
                   QStringLiteral("redirect_uris must list 1 to %1 loopback URIs").arg(maxRedirectUris));
        return;
    }
    Client client;
    for (const QJsonValue &uri : uriArray) {
        if (!uri.isString() || !isLoopbackRedirect(QUrl(uri.toString(), QUrl::StrictMode))) {
            oauthError(exchange, 400, QStringLiteral("invalid_redirect_uri"),
                       QStringLiteral("Only loopback http redirect URIs of native clients are taken "
                                      "(RFC 8252 §7.3)"));
            return;
        }
        client.redirectUris.append(uri.toString());
    }
    // RFC 7591 §2: without one, client_secret_basic.
    client.authMethod = request.value(QStringLiteral("token_endpoint_auth_method"))
                            .toString(QStringLiteral("client_secret_basic"));
    if (client.authMethod != QLatin1String("none") &&
        client.authMethod != QLatin1String("client_secret_post") &&
        client.authMethod != QLatin1String("client_secret_basic")) {
        oauthError(exchange, 400, QStringLiteral("invalid_client_metadata"),
                   QStringLiteral("token_endpoint_auth_method must be none, client_secret_post or "
                                  "client_secret_basic"));
        return;
    }
    const QJsonValue grants = request.value(QStringLiteral("grant_types"));
    QStringList grantTypes;
    for (const QJsonValue &g : grants.toArray())
        grantTypes.append(g.toString());
    if (grantTypes.isEmpty())
        grantTypes.append(QStringLiteral("authorization_code"));
    for (const QString &g : grantTypes) {
        if (g != QLatin1String("authorization_code") && g != QLatin1String("refresh_token")) {
            oauthError(exchange, 400, QStringLiteral("invalid_client_metadata"),
                       QStringLiteral("grant_types may hold authorization_code and refresh_token only"));
            return;
        }
    }
    for (const QJsonValue &r : request.value(QStringLiteral("response_types")).toArray()) {
        if (r.toString() != QLatin1String("code")) {
            oauthError(exchange, 400, QStringLiteral("invalid_client_metadata"),
                       QStringLiteral("response_types may hold code only"));
            return;
        }
    }
    client.refreshGrant = grantTypes.contains(QStringLiteral("refresh_token"));
    if (client.authMethod != QLatin1String("none"))
        client.secret = randomToken();
    const QString clientId = QStringLiteral("demo-") + randomToken(12);
    m_clients.insert(clientId, client);

    QJsonObject answer{
        {QStringLiteral("client_id"), clientId},
        {QStringLiteral("client_id_issued_at"), QDateTime::currentSecsSinceEpoch()},
        {QStringLiteral("redirect_uris"), jsonArray(client.redirectUris)},
        {QStringLiteral("grant_types"), jsonArray(grantTypes)},
        {QStringLiteral("response_types"), QJsonArray{QStringLiteral("code")}},
        {QStringLiteral("token_endpoint_auth_method"), client.authMethod},
    };
    const QString name = request.value(QStringLiteral("client_name")).toString();
    if (!name.isEmpty())
        answer.insert(QStringLiteral("client_name"), name.left(maxClientNameChars));
    const QString type = request.value(QStringLiteral("application_type")).toString();
    if (!type.isEmpty())
        answer.insert(QStringLiteral("application_type"), type.left(maxClientNameChars));
    if (!client.secret.isEmpty()) {
        answer.insert(QStringLiteral("client_secret"), client.secret);
        answer.insert(QStringLiteral("client_secret_expires_at"), 0);
    }
    exchange->setHeader("Cache-Control", "no-store");
    exchange->replyJson(compact(answer), 201);
}

// --- Client ID metadata documents --------------------------------------------------------------

bool AuthServer::readMetadataDocument(const QByteArray &body, const QString &url, Client *client,
                                      QString *why)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *why = QStringLiteral("is not a JSON object");
        return false;
    }
    const QJsonObject metadata = document.object();
    const QString named = metadata.value(QStringLiteral("client_id")).toString();
    if (named != url) {
        *why = QStringLiteral("names client_id \"%1\", not its own URL").arg(named);
        return false;
    }
    const QJsonArray uris = metadata.value(QStringLiteral("redirect_uris")).toArray();
    if (uris.isEmpty() || uris.size() > maxRedirectUris) {
        *why = QStringLiteral("must list 1 to %1 redirect_uris").arg(maxRedirectUris);
        return false;
    }
    for (const QJsonValue &uri : uris) {
        if (!uri.isString() || !isLoopbackRedirect(QUrl(uri.toString(), QUrl::StrictMode))) {
            *why = QStringLiteral("lists a redirect URI that is not loopback http (RFC 8252 §7.3)");
            return false;
        }
        client->redirectUris.append(uri.toString());
    }
    // A public document holds no secret: the client is public (or would sign, which is not served).
    const QString method = metadata.value(QStringLiteral("token_endpoint_auth_method")).toString();
    if (metadata.contains(QStringLiteral("client_secret")) ||
        (!method.isEmpty() && method != QLatin1String("none"))) {
        *why = QStringLiteral(
            "must describe a public client (token_endpoint_auth_method none, no client_secret)");
        return false;
    }
    client->authMethod = QStringLiteral("none");
    for (const QJsonValue &g : metadata.value(QStringLiteral("grant_types")).toArray()) {
        if (g.toString() == QLatin1String("refresh_token"))
            client->refreshGrant = true;
        else if (g.toString() != QLatin1String("authorization_code")) {
            *why = QStringLiteral("lists grant_types other than authorization_code and refresh_token");
            return false;
        }
    }
    for (const QJsonValue &r : metadata.value(QStringLiteral("response_types")).toArray()) {
        if (r.toString() != QLatin1String("code")) {
            *why = QStringLiteral("lists response_types other than code");
            return false;
        }
    }
    return true;
}

// --- Authorization (auto-approving) ------------------------------------------------------------

void AuthServer::authorize(const QByteArray &target, HttpExchange *exchange)
{
    const qsizetype question = target.indexOf('?');
    Form query;
    QString duplicate;
    if (!parseForm(question < 0 ? QByteArray() : target.mid(question + 1), &query, &duplicate)) {
        exchange->refuse(400, "Bad authorization request: " + duplicate.toUtf8() + " is sent twice.\n");
        return;
    }
    // Without a known client and one of its redirect URIs, nothing is redirected anywhere
    // (RFC 6749 §4.1.2.1): the answer is an error page.
    const QString clientId = query.value(QStringLiteral("client_id"));
    if (m_settings.metadataDocuments && isMetadataDocumentUrl(QUrl(clientId, QUrl::StrictMode))) {
        fetchMetadataDocument(clientId, query, exchange);
        return;
    }
    const Client *client = findClient(clientId);
    if (!client) {
        exchange->refuse(400, "Bad authorization request: unknown client_id.\n");
        return;
    }
    approve(query, *client, exchange);
}

void AuthServer::fetchMetadataDocument(const QString &url, const Form &query, HttpExchange *exchange)
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    QNetworkRequest request{QUrl(url, QUrl::StrictMode)};
    request.setRawHeader("Accept", "application/json");
    // The document is at its URL: a redirect is not followed (nor are cookies or credentials sent).
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    QNetworkReply *reply = m_network->get(request);
    // The whole fetch, not just a pause in it, has metadataDocumentTimeoutMs.
    QTimer::singleShot(metadataDocumentTimeoutMs, reply, [reply] {
        reply->setProperty("timedOut", true);
        reply->abort();
    });
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > maxBodyBytes) {
            reply->setProperty("overLimit", true);
            reply->abort();
        }
    });
    const QPointer<HttpExchange> guard(exchange);
    connect(reply, &QNetworkReply::finished, this, [this, reply, url, query, guard] {
        reply->deleteLater();
        if (!guard)
            return; // the browser went away meanwhile
        auto refuse = [&guard, &url](const QString &why) {
            guard->refuse(
                400, QStringLiteral("Bad authorization request: the client ID metadata document %1 %2.\n")
                         .arg(url, why)
                         .toUtf8());
        };
        const QByteArray body = reply->readAll();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->property("overLimit").toBool() || body.size() > maxBodyBytes) {
            refuse(QStringLiteral("is over 64 KiB"));
            return;
        }
        if (reply->property("timedOut").toBool()) {
            refuse(QStringLiteral("did not come within %1 s").arg(metadataDocumentTimeoutMs / 1000));
            return;
        }
        if (reply->error() != QNetworkReply::NoError && status == 0) {
            refuse(QStringLiteral("could not be fetched (%1)").arg(reply->errorString()));
            return;
        }
        if (status != 200) {
            refuse(QStringLiteral("answered HTTP %1, not 200").arg(status));
            return;
        }
        QString why;
        Client client;
        if (!readMetadataDocument(body, url, &client, &why)) {
            refuse(why);
            return;
        }
        // Kept for the token endpoint (and fetched again at the next authorization request).
        m_clients.insert(url, client);
        approve(query, client, guard);
    });
}

void AuthServer::approve(const Form &query, const Client &client, HttpExchange *exchange)
{
    const QString clientId = query.value(QStringLiteral("client_id"));
    const QString redirectUri = query.value(QStringLiteral("redirect_uri"));
    bool registered = false;
    for (const QString &uri : client.redirectUris)
        registered = registered || redirectMatches(uri, redirectUri);
    if (redirectUri.isEmpty() || !registered) {
        exchange->refuse(400, "Bad authorization request: redirect_uri is not one the client registered.\n");
        return;
    }

    const bool hasState = query.contains(QStringLiteral("state"));
    const QString state = query.value(QStringLiteral("state"));
    auto redirect = [this, exchange, redirectUri, hasState, state](QList<std::pair<QString, QString>> items) {
        if (m_settings.hasFault("wrong-state"))
            items.append({QStringLiteral("state"), state + QStringLiteral("-not-yours")});
        else if (hasState)
            items.append({QStringLiteral("state"), state});
        if (m_settings.hasFault("wrong-iss"))
            items.append({QStringLiteral("iss"), issuer() + QStringLiteral("/elsewhere")});
        else if (!m_settings.hasFault("no-iss"))
            items.append({QStringLiteral("iss"), issuer()});
        QUrl location(redirectUri);
        if (m_settings.hasFault("redirect-elsewhere"))
            location = QUrl(QStringLiteral("https://attacker.example/callback"));
        const QString existing = location.query(QUrl::FullyEncoded);
        const QString added = encodeQuery(items);
        location.setQuery(existing.isEmpty() ? added : existing + QLatin1Char('&') + added, QUrl::StrictMode);
        exchange->setHeader("Location", location.toString(QUrl::FullyEncoded).toUtf8());
        exchange->setHeader("Cache-Control", "no-store");
        exchange->respond(302, "text/plain; charset=utf-8", "Approved at once: back to the client.\n");
    };
    auto refuse = [&redirect](const QString &error, const QString &description) {
        redirect({{QStringLiteral("error"), error}, {QStringLiteral("error_description"), description}});
    };

    if (query.value(QStringLiteral("response_type")) != QLatin1String("code")) {
        refuse(QStringLiteral("unsupported_response_type"),
               QStringLiteral("Only response_type=code is served"));
        return;
    }
    const QString challengeValue = query.value(QStringLiteral("code_challenge"));
    if (challengeValue.isEmpty() ||
        query.value(QStringLiteral("code_challenge_method")) != QLatin1String("S256")) {
        refuse(QStringLiteral("invalid_request"),
               QStringLiteral("PKCE is required: code_challenge with code_challenge_method=S256"));
        return;
    }
    if (challengeValue.size() != 43) {
        refuse(QStringLiteral("invalid_request"),
               QStringLiteral("code_challenge must be a base64url SHA-256 (43 characters)"));
        return;
    }
    const QString resourceValue = query.value(QStringLiteral("resource"));
    if (const QString problem = resourceProblem(resourceValue); !problem.isEmpty()) {
        refuse(QStringLiteral("invalid_target"), problem);
        return;
    }
    const QStringList allowed = offeredScopes();
    QStringList scopes = splitScopes(query.value(QStringLiteral("scope")));
    for (const QString &scope : std::as_const(scopes)) {
        if (!allowed.contains(scope)) {
            refuse(QStringLiteral("invalid_scope"), QStringLiteral("Unknown scope %1").arg(scope));
            return;
        }
    }
    if (scopes.isEmpty())
        scopes = m_settings.scopes; // none asked: the resource's defaults
    if (m_settings.hasFault("access-denied")) {
        refuse(QStringLiteral("access_denied"),
               QStringLiteral("The demo user said no (fault=access-denied)"));
        return;
    }
    Code code;
    code.clientId = clientId;
    code.redirectUri = redirectUri;
    code.challenge = challengeValue;
    code.resource = resourceValue;
    code.scopes = scopes;
    code.expiresAt = now() + m_settings.codeTtlMs;
    const QString value = randomToken();
    m_codes.insert(value, code);
    redirect({{QStringLiteral("code"), value}});
}

// --- Tokens ------------------------------------------------------------------------------------

void AuthServer::token(const HeaderMap &headers, const QByteArray &body, HttpExchange *exchange)
{
    if (!headers.value("content-type").toLower().startsWith("application/x-www-form-urlencoded")) {
        oauthError(exchange, 400, QStringLiteral("invalid_request"),
                   QStringLiteral("The token request must be application/x-www-form-urlencoded"));
        return;
    }
    Form form;
    QString duplicate;
    if (!parseForm(body, &form, &duplicate)) {
        oauthError(exchange, 400, QStringLiteral("invalid_request"),
                   QStringLiteral("%1 is sent twice").arg(duplicate));
        return;
    }

    // DPoP (RFC 9449 §5): a proof is optional; one that is sent must be good, and is checked before
    // the grant, so that a code is not spent on a request sent again with the nonce.
    QString jkt;
    if (m_settings.dpop && headers.contains("dpop")) {
        QString why;
        switch (checkProof(headers, "POST", tokenPath, {}, m_tokenNonce, &jkt, &why)) {
        case ProofVerdict::NonceNeeded:
            // RFC 9449 §8: the nonce to put in the next proof.
            exchange->setHeader("DPoP-Nonce", m_tokenNonce.toLatin1());
            oauthError(exchange, 400, QStringLiteral("use_dpop_nonce"), why);
            return;
        case ProofVerdict::Invalid:
            oauthError(exchange, 400, QStringLiteral("invalid_dpop_proof"), why);
            return;
        case ProofVerdict::Valid:
            break;
        }
    }

    // Client authentication (RFC 6749 §2.3.1): the method the client registered, and only that.
    QString clientId = form.value(QStringLiteral("client_id"));
    QString secret;
    QString method = QStringLiteral("none");
    const QByteArray authorization = headers.value("authorization").trimmed();
    auto invalidClient = [this, exchange, &method](const QString &description) {
        if (method == QLatin1String("client_secret_basic"))
            exchange->setHeader("WWW-Authenticate", "Basic realm=\"folio-demo-server\"");
        oauthError(exchange, 401, QStringLiteral("invalid_client"), description);
    };
    if (!authorization.isEmpty()) {
        method = QStringLiteral("client_secret_basic");
        QByteArray credentials;
        if (authorization.left(6).toLower() == "basic ") {
            const auto decoded = QByteArray::fromBase64Encoding(authorization.mid(6).trimmed(),
                                                                QByteArray::AbortOnBase64DecodingErrors);
            if (decoded)
                credentials = *decoded;
        }
        const qsizetype colon = credentials.indexOf(':');
        if (colon < 0) {
            invalidClient(QStringLiteral("The Authorization header is not HTTP Basic client authentication"));
            return;
        }
        const QString basicId = QString::fromUtf8(QByteArray::fromPercentEncoding(credentials.left(colon)));
        secret = QString::fromUtf8(QByteArray::fromPercentEncoding(credentials.mid(colon + 1)));
        if (!clientId.isEmpty() && clientId != basicId) {
            invalidClient(QStringLiteral("client_id differs from the one authenticated"));
            return;
        }
        clientId = basicId;
    } else if (form.contains(QStringLiteral("client_secret"))) {
        method = QStringLiteral("client_secret_post");
        secret = form.value(QStringLiteral("client_secret"));
    }
    const Client *client = findClient(clientId);
    if (!client) {
        invalidClient(QStringLiteral("Unknown client_id"));
        return;
    }
    // A confidential client registered by hand may use either secret method (RFC 6749 §2.3.1).
    const bool eitherSecretMethod = client->preRegistered && client->authMethod != QLatin1String("none") &&
                                    method != QLatin1String("none");
    if (client->authMethod != method && !eitherSecretMethod) {
        invalidClient(QStringLiteral("The client registered token_endpoint_auth_method %1, and authenticated "
                                     "with %2")
                          .arg(client->authMethod, method));
        return;
    }
    if (client->secret != secret) {
        invalidClient(QStringLiteral("The client secret is wrong"));
        return;
    }

    const QString grant = form.value(QStringLiteral("grant_type"));
    // Answered whatever the settings: who may use it is the client's matter (RFC 6749 §5.2).
    const bool clientCredentials = grant == QLatin1String("client_credentials");
    if (clientCredentials && client->authMethod == QLatin1String("none")) {
        // RFC 6749 §4.4: confidential clients only; a public one has no authentication to offer.
        invalidClient(QStringLiteral("The client_credentials grant needs client authentication, and this "
                                     "client is public"));
        return;
    }
    if (grant == QLatin1String("authorization_code"))
        grantCode(clientId, form, jkt, exchange);
    else if (clientCredentials && client->preRegistered)
        grantClientCredentials(clientId, form, jkt, exchange);
    else if (clientCredentials)
        oauthError(exchange, 400, QStringLiteral("unauthorized_client"),
                   QStringLiteral("The client_credentials grant is only for the confidential client given "
                                  "by hand (client=ID:SECRET)"));
    else if (grant == QLatin1String("refresh_token") && !m_settings.noRefresh && client->refreshGrant)
        grantRefresh(clientId, form, jkt, exchange);
    else if (grant == QLatin1String("refresh_token") && !m_settings.noRefresh)
        oauthError(exchange, 400, QStringLiteral("unauthorized_client"),
                   QStringLiteral("The client did not register the refresh_token grant"));
    else
        oauthError(exchange, 400, QStringLiteral("unsupported_grant_type"),
                   grant.isEmpty() ? QStringLiteral("grant_type is missing")
                                   : QStringLiteral("grant_type %1 is not served").arg(grant));
}

void AuthServer::grantCode(const QString &clientId, const Form &form, const QString &jkt,
                           HttpExchange *exchange)
{
    if (m_settings.hasFault("token-400")) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   QStringLiteral("The demo server refuses every authorization code (fault=token-400)"));
        return;
    }
    const QString value = form.value(QStringLiteral("code"));
    const Code *found = m_codes.find(value);
    if (!found) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   QStringLiteral("The code is unknown or was used already"));
        return;
    }
    const Code code = *found;
    m_codes.remove(value); // a code is good once, whatever comes of it
    if (code.expiresAt <= now()) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"), QStringLiteral("The code expired"));
        return;
    }
    if (code.clientId != clientId) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   QStringLiteral("The code was issued to another client"));
        return;
    }
    if (form.value(QStringLiteral("redirect_uri")) != code.redirectUri) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   QStringLiteral("redirect_uri differs from the authorization request's"));
        return;
    }
    const QString verifier = form.value(QStringLiteral("code_verifier"));
    if (!isValidVerifier(verifier)) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   QStringLiteral("code_verifier must be 43 to 128 unreserved characters (RFC 7636 §4.1)"));
        return;
    }
    if (s256(verifier) != code.challenge) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   QStringLiteral("code_verifier does not match the code_challenge (S256)"));
        return;
    }
    if (form.value(QStringLiteral("resource")) != code.resource) {
        oauthError(exchange, 400, QStringLiteral("invalid_target"),
                   QStringLiteral("resource must be %1, as in the authorization request (RFC 8707)")
                       .arg(code.resource));
        return;
    }
    issueTokens(clientId, code.resource, code.scopes, NewRefresh::Registered, jkt, exchange);
}

void AuthServer::grantRefresh(const QString &clientId, const Form &form, const QString &jkt,
                              HttpExchange *exchange)
{
    if (m_settings.hasFault("refresh-400")) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   QStringLiteral("The demo server refuses every refresh token (fault=refresh-400)"));
        return;
    }
    const QString value = form.value(QStringLiteral("refresh_token"));
    const Refresh *found = m_refresh.find(value);
    if (!found) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   QStringLiteral("The refresh token is unknown, expired or rotated away"));
        return;
    }
    const Refresh refresh = *found;
    if (refresh.expiresAt > 0 && refresh.expiresAt <= now()) {
        m_refresh.remove(value);
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   QStringLiteral("The refresh token expired"));
        return;
    }
    if (refresh.clientId != clientId) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   QStringLiteral("The refresh token was issued to another client"));
        return;
    }
    // RFC 9449 §5: a public client's DPoP-bound refresh token is good with a proof of its key only.
    if (!refresh.jkt.isEmpty() && jkt != refresh.jkt) {
        oauthError(exchange, 400, QStringLiteral("invalid_grant"),
                   jkt.isEmpty()
                       ? QStringLiteral("The refresh token is DPoP-bound: send a DPoP proof of its key")
                       : QStringLiteral("The refresh token is bound to another DPoP key"));
        return;
    }
    if (form.value(QStringLiteral("resource")) != refresh.resource) {
        oauthError(exchange, 400, QStringLiteral("invalid_target"),
                   QStringLiteral("resource must be %1 (RFC 8707)").arg(refresh.resource));
        return;
    }
    QStringList scopes = refresh.scopes;
    if (form.contains(QStringLiteral("scope"))) {
        scopes = splitScopes(form.value(QStringLiteral("scope")));
        for (const QString &scope : std::as_const(scopes)) {
            if (!refresh.scopes.contains(scope)) {
                oauthError(exchange, 400, QStringLiteral("invalid_scope"),
                           QStringLiteral("%1 was not granted with this refresh token").arg(scope));
                return;
            }
        }
    }
    if (m_settings.rotate)
        m_refresh.remove(value); // refused from now on: the answer carries its successor
    // Without rotation no new one: the refresh token in hand stays good.
    issueTokens(clientId, refresh.resource, scopes,
                m_settings.rotate ? NewRefresh::Registered : NewRefresh::None, jkt, exchange);
}

// RFC 6749 §4.4: the client, authenticated with its secret, acts on its own behalf: no person, no
// code, and no refresh token (§4.4.3; it can always ask again).
void AuthServer::grantClientCredentials(const QString &clientId, const Form &form, const QString &jkt,
                                        HttpExchange *exchange)
{
    if (const QString problem = resourceProblem(form.value(QStringLiteral("resource"))); !problem.isEmpty()) {
        oauthError(exchange, 400, QStringLiteral("invalid_target"), problem);
        return;
    }
    const QStringList offered = offeredScopes();
    QStringList scopes = splitScopes(form.value(QStringLiteral("scope")));
    for (const QString &scope : std::as_const(scopes)) {
        if (!offered.contains(scope)) {
            oauthError(exchange, 400, QStringLiteral("invalid_scope"),
                       QStringLiteral("Unknown scope %1").arg(scope));
            return;
        }
    }
    if (scopes.isEmpty())
        scopes = m_settings.scopes; // none asked: the resource's defaults, as for a code
    else
        scopes.removeAll(QStringLiteral("offline_access")); // offered, but not granted: no refresh token
    scopes.removeDuplicates();
    issueTokens(clientId, resource(), scopes, NewRefresh::None, jkt, exchange, clientId);
}

QString AuthServer::newAccessToken(const QString &clientId, const QString &resource,
                                   const QStringList &scopes, const QString &subject, const QString &jkt)
{
    QString token;
    if (m_settings.jwt) {
        // RFC 9068's claims, unsigned ("alg":"none"): for the view to decode, not to trust.
        const qint64 issued = QDateTime::currentSecsSinceEpoch();
        const QJsonObject header{{QStringLiteral("alg"), QStringLiteral("none")},
                                 {QStringLiteral("typ"), QStringLiteral("at+jwt")}};
        QJsonObject claims{
            {QStringLiteral("iss"), issuer()},
            // RFC 9068 §2.2: without a resource owner, the client is the subject.
            {QStringLiteral("sub"), subject.isEmpty() ? QStringLiteral("demo-user") : subject},
            {QStringLiteral("aud"), resource},
            {QStringLiteral("client_id"), clientId},
            {QStringLiteral("scope"), scopes.join(QLatin1Char(' '))},
            {QStringLiteral("iat"), issued},
            {QStringLiteral("exp"), issued + (m_settings.tokenTtlMs + 999) / 1000},
            {QStringLiteral("jti"), randomToken(16)},
        };
        if (!jkt.isEmpty()) // RFC 9449 §6.1
            claims.insert(QStringLiteral("cnf"), QJsonObject{{QStringLiteral("jkt"), jkt}});
        token = QString::fromLatin1(base64Url(compact(header)) + '.' + base64Url(compact(claims)) + '.');
    } else {
        token = randomToken();
    }
    m_access.insert(token, {scopes, now() + m_settings.tokenTtlMs, jkt});
    return token;
}

void AuthServer::issueTokens(const QString &clientId, const QString &resource, const QStringList &scopes,
                             NewRefresh refresh, const QString &jkt, HttpExchange *exchange,
                             const QString &subject)
{
    QJsonObject answer{
        {QStringLiteral("access_token"), newAccessToken(clientId, resource, scopes, subject, jkt)},
        {QStringLiteral("token_type"), m_settings.hasFault("token-type-mac") ? QStringLiteral("mac")
                                       : jkt.isEmpty()                       ? QStringLiteral("Bearer")
                                                                             : QStringLiteral("DPoP")},
        // Whole seconds, rounded up; the token itself dies at exactly token-ttl-ms.
        {QStringLiteral("expires_in"), (m_settings.tokenTtlMs + 999) / 1000},
        {QStringLiteral("scope"), scopes.join(QLatin1Char(' '))},
    };
    // Issued to every client registered for the refresh_token grant (offline_access asked or not)
    // unless no-refresh, or the caller says none (a refresh that does not rotate, client_credentials).
    const Client *client = findClient(clientId);
    if (refresh == NewRefresh::Registered && !m_settings.noRefresh && client && client->refreshGrant) {
        const QString value = randomToken();
        // RFC 9449 §5: a public client's refresh token is bound to the DPoP key; a confidential
        // client's is bound to its authentication already, and is not.
        const QString boundTo = client->authMethod == QLatin1String("none") ? jkt : QString();
        m_refresh.insert(value, {clientId, resource, scopes,
                                 m_settings.refreshTtlMs > 0 ? now() + m_settings.refreshTtlMs : 0, boundTo});
        answer.insert(QStringLiteral("refresh_token"), value);
    }
    exchange->setHeader("Cache-Control", "no-store");
    exchange->setHeader("Pragma", "no-cache");
    exchange->replyJson(compact(answer), 200);
}

// --- Help --------------------------------------------------------------------------------------

QString AuthServer::help()
{
    return QStringLiteral(
        "OAuth (--http PORT --oauth[=SPEC]; SPEC is a comma list of key=value and flags;\n"
        "docs/demo-server.md has the details):\n"
        "  /mcp needs a bearer token; the same port serves an auto-approving OAuth 2.1 authorization\n"
        "  server (issuer http://127.0.0.1:PORT): /.well-known/oauth-protected-resource/mcp,\n"
        "  /.well-known/oauth-authorization-server, /register, /authorize, /token.\n"
        "  token-ttl-ms=N           access token lifetime (3600000); expires_in is N/1000 rounded up\n"
        "  code-ttl-ms=N            authorization code lifetime (60000)\n"
        "  refresh-ttl-ms=N         refresh token lifetime (0: never expires)\n"
        "  scopes=A+B               scopes_supported (chat:read+chat:write)\n"
        "  challenge-scope=A+B      scope=\"A B\" in the 401 challenge (none)\n"
        "  step-up=S                a token without scope S gets 403 insufficient_scope\n"
        "  rotate                   each refresh returns a new refresh token; the old one is refused\n"
        "  jwt                      access tokens are unsigned JWTs (alg none) with iss, aud, scope, exp\n"
        "  no-refresh               no refresh token (otherwise one for every client registered for\n"
        "                           the refresh_token grant, offline_access asked or not)\n"
        "  client=ID[:SECRET]       a pre-registered client: public (none) without SECRET, else\n"
        "                           client_secret_basic or client_secret_post, and then it may use\n"
        "                           the client_credentials grant too (no person; no refresh token)\n"
        "  redirect=A+B             its redirect URIs (http://127.0.0.1/callback), loopback http only,\n"
        "                           matched on any port\n"
        "  cimd                     client ID metadata documents: client_id_metadata_document_supported,\n"
        "                           and a client_id that is an https URL (http on loopback) is fetched\n"
        "  dpop                     DPoP (RFC 9449): metadata lists ES256; a token request with a good\n"
        "                           DPoP proof gets token_type DPoP, bound to its key (and a public\n"
        "                           client's refresh token too); /mcp then wants Authorization: DPoP\n"
        "                           and a proof of that key. Without a proof: Bearer, as before\n"
        "  dpop=nonce               the same, and /token and /mcp want their nonce in the proof\n"
        "                           (400 / 401 use_dpop_nonce with DPoP-Nonce first)\n"
        "  fault=NAME               one broken rule:\n"
        "    wrong-state            the redirect carries another state\n"
        "    wrong-iss, no-iss      the redirect's iss is another issuer / missing (RFC 9207)\n"
        "    redirect-elsewhere     /authorize redirects to https://attacker.example/callback\n"
        "    access-denied          /authorize answers error=access_denied\n"
        "    token-400, refresh-400 the code / refresh grant gets 400 invalid_grant\n"
        "    no-s256                metadata lacks code_challenge_methods_supported\n"
        "    issuer-mismatch        metadata's issuer is not the one it was fetched for\n"
        "    resource-mismatch      resource metadata names another resource\n"
        "    no-resource-metadata   no resource metadata, no resource_metadata (2025-03-26 style)\n"
        "    bare-challenge         the 401 names no resource_metadata (found at the well-known URL)\n"
        "    register-400           /register refuses with invalid_client_metadata\n"
        "    no-registration        no registration_endpoint\n"
        "    token-type-mac         tokens of type \"mac\", not Bearer\n");
}

} // namespace demo
