#pragma once

#include "httpexchange.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace folio {

// What Folio knows about signing in to one HTTP server, as plain data: what the sign-in flow
// (OAuthFlow) produces, the Authorizer uses, and the keychain keeps (one JSON secret per server,
// under keychainKey()). Never in QSettings, a log, an export or a report.

// How a sign-in gets its tokens: OAuth 2.1's grants and those of the MCP authorization extensions.
enum class OAuthGrant {
    AuthorizationCode, // a person, in the browser (the default)
    // A machine with credentials of its own (the client credentials extension, SEP-1046): a client
    // secret, or a private key that signs a client assertion (private_key_jwt, RFC 7523 §2.2).
    ClientCredentials,
    // A workload's JWT from its platform, as the grant (RFC 7523 §2.1; workload identity, SEP-1933).
    JwtBearer,
    // The user's ID token from their identity provider exchanged there for an ID-JAG (RFC 8693),
    // then that as a JWT bearer grant at the authorization server (enterprise-managed, SEP-990).
    EnterpriseManaged,
};
QString grantName(OAuthGrant grant);
// "authorization-code", "client-credentials", "jwt-bearer", "enterprise" (settings, --grant).
QString grantKey(OAuthGrant grant);
std::optional<OAuthGrant> grantFromKey(const QString &key);

// A client identity at one authorization server: how Folio is known there.
struct OAuthClient
{
    enum class Source { None, MetadataDocument, PreRegistered, Dynamic };
    Source source = Source::None;
    QString clientId;
    QString clientSecret;            // confidential clients only (pre-registered, some DCR answers)
    QByteArray privateKeyPem;        // private_key_jwt: the key client assertions are signed with
    QString tokenEndpointAuthMethod; // "client_secret_basic", "client_secret_post", "private_key_jwt", "none"

    bool isValid() const { return !clientId.isEmpty(); }
    static QString sourceName(Source source);
    QJsonObject toJson() const;
    static OAuthClient fromJson(const QJsonObject &object);
};

// The tokens of one sign-in.
struct OAuthTokens
{
    QString accessToken;
    QString refreshToken;   // empty: none was issued (never assumed)
    QString tokenType;      // "Bearer", or "DPoP": bound to AuthRecord::dpopKeyPem (RFC 9449)
    QString scope;          // as granted (or as asked when the answer does not say)
    qint64 expiresAtMs = 0; // wall clock; 0: the server did not say
    qint64 issuedAtMs = 0;
    QUrl tokenEndpoint; // where to refresh them

    bool isValid() const { return !accessToken.isEmpty(); }
    bool isExpiredAt(qint64 nowMs) const { return expiresAtMs > 0 && nowMs >= expiresAtMs; }
    QJsonObject toJson() const;
    static OAuthTokens fromJson(const QJsonObject &object);
};

// Everything kept for one server: its client identity at each authorization server it used
// (credentials are per issuer and never reused at another), the issuer in force and its tokens.
struct AuthRecord
{
    QString resource;                                 // the server's canonical URI
    QString issuer;                                   // the authorization server in force
    QMap<QString, OAuthClient> clients;               // by issuer
    OAuthTokens tokens;                               // issued by issuer
    OAuthGrant grant = OAuthGrant::AuthorizationCode; // how they were got
    // The DPoP key a DPoP token is bound to (PKCS #8 PEM): its proofs are signed with it. Never shown.
    QByteArray dpopKeyPem;

    bool isSignedIn() const { return tokens.isValid(); }
    bool isDpopBound() const
    {
        return tokens.tokenType.compare(QLatin1String("DPoP"), Qt::CaseInsensitive) == 0 &&
               !dpopKeyPem.isEmpty();
    }
    OAuthClient clientFor(const QString &issuer) const { return clients.value(issuer); }
    QByteArray toJson() const;
    static AuthRecord fromJson(const QByteArray &json);
    // Where a server's record lives in the keychain.
    static QString keychainKey(const QUrl &serverUrl);
};

// How Folio presents itself to authorization servers.
struct OAuthClientSettings
{
    QString clientName = QStringLiteral("Folio");
    // A client ID metadata document URL (HTTPS, with a path): used where the authorization server
    // says client_id_metadata_document_supported. Empty: none.
    QString metadataDocumentUrl;
    // Credentials registered by hand with an authorization server (RFC 6749 §2): used for that
    // issuer (or any, when preRegisteredIssuer is empty).
    QString preRegisteredClientId;
    QString preRegisteredClientSecret;
    QString preRegisteredIssuer;

    // How to get tokens. Every grant but AuthorizationCode runs without a person, so a command or
    // a refused request may run it again.
    OAuthGrant grant = OAuthGrant::AuthorizationCode;
    // ClientCredentials with private_key_jwt: the client's private key (PEM); else the secret above.
    QByteArray clientKeyPem;
    // JwtBearer: the workload's JWT (its platform's token, e.g. a projected service account token).
    QString assertion;
    // EnterpriseManaged: the identity provider's token endpoint, Folio's client there, and the
    // user's ID token from it. The authorization server's client is the pre-registered one above.
    QUrl idpTokenEndpoint;
    QString idpClientId;
    QString idpClientSecret;
    QString idToken;
    // DPoP (RFC 9449, the DPoP extension): Auto binds tokens to a key of Folio's where the
    // authorization server lists ES256 in dpop_signing_alg_values_supported; Off never does.
    enum class Dpop { Auto, Off };
    Dpop dpop = Dpop::Auto;
};

// One rule checked during sign-in, and what came of it.
struct AuthVerdict
{
    QString rule; // "issuer matches", "S256 advertised", ...
    bool passed = false;
    QString detail; // what was compared, in words
};

// One step of a sign-in, as the Auth view and `folio auth` show it.
struct AuthStep
{
    enum class Kind {
        Challenge,         // the 401/403 that started it
        ResourceMetadata,  // RFC 9728
        ServerMetadata,    // RFC 8414 / OpenID Connect discovery
        Registration,      // client ID metadata document, pre-registration or RFC 7591
        Authorization,     // the browser
        Callback,          // the redirect to the loopback listener
        TokenExchange,     // the ID token for an ID-JAG at the identity provider (RFC 8693)
        Token,             // code (or another grant) for tokens
        Refresh,           // refresh token for tokens
        AuthorizedRequest, // the request retried with the token
    };
    enum class State { Running, Done, Failed, Waiting };

    Kind kind = Kind::Challenge;
    State state = State::Running;
    QString title;   // "Protected resource metadata"
    QString summary; // one line: what it found
    QString error;   // when Failed: what went wrong, and the rule it broke
    QList<HttpExchange>
        exchanges; // as sent and received, unmasked: views abbreviate (SecretMask::abbreviateExchange)
    QList<AuthVerdict> verdicts;
    QJsonObject details;   // what the step found (metadata read, parameters sent), secrets masked
    QJsonObject jwtClaims; // the access token's claims when it is a JWT (Token, Refresh)
    qint64 startedMs = 0;
    qint64 finishedMs = 0;

    static QString kindName(Kind kind);
    static QString stateName(State state);
};

// The claims of a JWT (its payload, not verified), or an empty object when token is no JWT.
QJsonObject decodeJwtClaims(const QString &token);

// The steps as text, for `folio auth`: one block per step with its verdicts, numbered from
// firstNumber; withExchanges adds each step's HTTP exchanges, abbreviated
// (SecretMask::abbreviateExchange()).
QString describeSteps(const QList<AuthStep> &steps, bool withExchanges, int firstNumber = 1);

} // namespace folio
