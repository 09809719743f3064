#pragma once

#include "demoexchange.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QUrl>

class QNetworkAccessManager;

namespace demo {

class HttpExchange;

// What `--oauth[=SPEC]` asks of the authorization server: SPEC is a comma list of key=value
// settings and flags, as `--list` takes them (docs/demo-server.md, "OAuth").
struct AuthSettings
{
    qint64 tokenTtlMs = 3600000;
    qint64 codeTtlMs = 60000;
    qint64 refreshTtlMs = 0; // 0: refresh tokens do not expire
    QStringList scopes{QStringLiteral("chat:read"), QStringLiteral("chat:write")};
    QStringList challengeScopes; // scope="..." in the 401 challenge; none by default
    QString stepUpScope;         // a token without it gets 403 insufficient_scope on /mcp
    bool rotate = false;         // each refresh issues a new refresh token; the old one is refused
    bool jwt = false;            // access tokens look like unsigned JWTs (claims to decode)
    bool noRefresh = false;      // no refresh token is issued
    // A pre-registered client (client=ID[:SECRET]), known from the start; public without a secret.
    QString clientId;
    QString clientSecret;
    QStringList clientRedirects{QStringLiteral("http://127.0.0.1/callback")}; // redirect=A+B
    bool metadataDocuments = false; // cimd: client IDs may be client ID metadata document URLs
    // dpop: DPoP-bound tokens (RFC 9449) for a client that sends a proof; dpop=nonce: the token
    // endpoint and /mcp also want their server nonce in the proof (use_dpop_nonce first).
    bool dpop = false;
    bool dpopNonce = false;
    QString fault; // one of faultNames(), or empty

    static QStringList faultNames();
    bool parse(const QString &spec, QString *error);
    bool hasFault(const char *name) const { return fault == QLatin1String(name); }
};

// The demo server's own OAuth 2.1 authorization server and the protection of /mcp, on the same
// 127.0.0.1 port: protected resource metadata (RFC 9728), authorization server metadata
// (RFC 8414), dynamic client registration (RFC 7591), a pre-registered client and client ID
// metadata documents (both optional), an authorization endpoint that approves at once with a
// redirect (no login page: PKCE S256 and the RFC 8707 resource are checked, RFC 9207 iss is
// sent), and a token endpoint for the authorization_code and refresh_token grants, and for the
// client_credentials grant of a confidential pre-registered client (no person involved). With dpop,
// tokens are bound to the key of the client's DPoP proof (RFC 9449; checked by dpop.h). Faults
// (AuthSettings::fault) break one rule on purpose, for the client to catch. Everything is kept in
// memory and bounded (maxEntries per table, oldest dropped first).
class AuthServer : public QObject
{
    Q_OBJECT

public:
    static constexpr int maxEntries = 1000;
    static constexpr qsizetype maxBodyBytes = 64 * 1024;   // forms and registrations are small
    static constexpr int metadataDocumentTimeoutMs = 5000; // fetching a client ID metadata document
    static constexpr int maxProofIds = 1024;               // DPoP proof jtis remembered against replay

    explicit AuthServer(const AuthSettings &settings, QObject *parent = nullptr);

    // Where the server listens (http://127.0.0.1:PORT): the issuer, and the origin of /mcp.
    void setOrigin(const QUrl &origin);
    QString issuer() const;
    QString resource() const;
    QString resourceMetadataUrl() const;

    // The paths it answers itself (metadata, /register, /authorize, /token).
    bool handles(const QByteArray &path) const;
    // Answers one request to such a path. target is the request line's, query included.
    void handle(const QByteArray &method, const QByteArray &target, const HeaderMap &headers,
                const QByteArray &body, HttpExchange *exchange);
    // A request to /mcp: true when its token is good (the request goes on); otherwise it has been
    // answered 401 (or 403 insufficient_scope). A DPoP-bound token must come as
    // "Authorization: DPoP" with a proof of this method and path (RFC 9449 §7).
    bool admit(const QByteArray &method, const QByteArray &path, const HeaderMap &headers,
               HttpExchange *exchange);

    // The --help section: keys, flags and faults.
    static QString help();

private:
    struct Client
    {
        QStringList redirectUris;
        QString authMethod; // none, client_secret_post, client_secret_basic
        QString secret;
        bool refreshGrant = false;  // registered the refresh_token grant
        bool preRegistered = false; // client=: with a secret, either client_secret_* method
    };
    struct Code
    {
        QString clientId;
        QString redirectUri;
        QString challenge;
        QString resource;
        QStringList scopes;
        qint64 expiresAt = 0;
    };
    struct Access
    {
        QStringList scopes;
        qint64 expiresAt = 0;
        QString jkt; // DPoP-bound: the RFC 7638 thumbprint of its key (cnf.jkt); empty: Bearer
    };
    struct Refresh
    {
        QString clientId;
        QString resource;
        QStringList scopes;
        qint64 expiresAt = 0; // 0: never
        QString jkt;          // a public client's DPoP-bound refresh token: refreshed with that key only
    };
    // A table that keeps at most maxEntries, forgetting the oldest first.
    template<typename T> struct Table
    {
        QHash<QString, T> items;
        QList<QString> order;
        void insert(const QString &key, const T &value);
        void remove(const QString &key);
        const T *find(const QString &key) const;
    };

    qint64 now() const { return m_clock.elapsed(); }
    const Client *findClient(const QString &id) const;
    QByteArray challenge(const QString &error, const QString &description) const;
    // The DPoP scheme's challenge for a DPoP token refused (RFC 9449 §7.1): error, algs, metadata.
    QByteArray dpopChallenge(const QString &error, const QString &description) const;
    // The URL a request to path was sent to, as its Host header names it: a DPoP proof's htu.
    QUrl requestUrl(const HeaderMap &headers, const QByteArray &path) const;
    // Checks the request's DPoP header (dpop.h) and that its jti is new; a good proof's jti is
    // remembered (the latest maxProofIds).
    enum class ProofVerdict { Valid, Invalid, NonceNeeded };
    ProofVerdict checkProof(const HeaderMap &headers, const QByteArray &method, const QByteArray &path,
                            const QString &accessToken, const QString &nonce, QString *jkt, QString *why);

    void serveResourceMetadata(HttpExchange *exchange);
    void serveServerMetadata(HttpExchange *exchange);
    void registerClient(const QByteArray &body, HttpExchange *exchange);
    void authorize(const QByteArray &target, HttpExchange *exchange);
    // The client behind a client ID metadata document URL: fetched, checked, then approve().
    static bool readMetadataDocument(const QByteArray &body, const QString &url, Client *client,
                                     QString *why);
    void fetchMetadataDocument(const QString &url, const QHash<QString, QString> &query,
                               HttpExchange *exchange);
    void approve(const QHash<QString, QString> &query, const Client &client, HttpExchange *exchange);
    void token(const HeaderMap &headers, const QByteArray &body, HttpExchange *exchange);
    // jkt: the thumbprint of the key of the request's good DPoP proof, empty without one.
    void grantCode(const QString &clientId, const QHash<QString, QString> &form, const QString &jkt,
                   HttpExchange *exchange);
    void grantRefresh(const QString &clientId, const QHash<QString, QString> &form, const QString &jkt,
                      HttpExchange *exchange);
    void grantClientCredentials(const QString &clientId, const QHash<QString, QString> &form,
                                const QString &jkt, HttpExchange *exchange);
    // Whether a refresh token comes with the access token: the client's registration and
    // no-refresh decide (Registered), unless one is kept or the grant issues none (RFC 6749 §4.4.3).
    enum class NewRefresh { Registered, None };
    // jkt non-empty: token_type DPoP, the tokens bound to that key (RFC 9449 §5, §6).
    void issueTokens(const QString &clientId, const QString &resource, const QStringList &scopes,
                     NewRefresh refresh, const QString &jkt, HttpExchange *exchange,
                     const QString &subject = {});
    // subject: the JWT's sub, the demo user unless given (the client itself, for client_credentials).
    QString newAccessToken(const QString &clientId, const QString &resource, const QStringList &scopes,
                           const QString &subject, const QString &jkt);
    // Why a resource parameter is not this server's /mcp (RFC 8707), or empty when it is.
    QString resourceProblem(const QString &given) const;
    // Every scope a client may ask for: scopes, challenge and step-up scopes, offline_access.
    QStringList offeredScopes() const;
    // A client=ID:SECRET is configured: the metadata lists client_credentials (the one client for it).
    bool servesClientCredentials() const;

    void oauthError(HttpExchange *exchange, int status, const QString &error, const QString &description);

    AuthSettings m_settings;
    QUrl m_origin;
    QElapsedTimer m_clock;
    Table<Client> m_clients;
    Client m_preRegistered; // when AuthSettings::clientId is set
    Table<Code> m_codes;
    Table<Access> m_access;
    Table<Refresh> m_refresh;
    QNetworkAccessManager *m_network = nullptr; // for metadata documents, made on first use
    // dpop=nonce: the token endpoint's and /mcp's nonces (RFC 9449 §8, §9), one each per run.
    QString m_tokenNonce;
    QString m_resourceNonce;
    QSet<QString> m_proofIds;                     // jtis of the proofs taken lately (checkProof)
    QList<QPair<QString, qint64>> m_proofIdOrder; // each with when it was taken, oldest first
};

} // namespace demo
