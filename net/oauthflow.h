#pragma once

#include "jose.h"
#include "mcperror.h"
#include "oauth.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QUrl>
#include <QUrlQuery>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace folio {

class LoopbackListener;

// One sign-in to an MCP server's authorization server, by the MCP authorization rules of
// 2025-11-25 and 2026-07-28 (basic/authorization): protected resource metadata (RFC 9728),
// authorization server metadata (RFC 8414, OpenID Connect discovery), a client identity (metadata
// document, pre-registration or RFC 7591), the authorization code grant with PKCE S256, the
// `resource` parameter (RFC 8707), `state` and the RFC 9207 `iss` checks, through the browser and a
// one-shot loopback listener; or, with refreshOnly, one refresh-token grant.
//
// Every step is plain data (AuthStep) with its HTTP exchanges and the rules it checked: views
// show them as they change, and a failure stays at the step where it happened. Each instance runs
// once: start(), then exactly one finished().
class OAuthFlow : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QUrl serverUrl;
        // The challenge that started it: the WWW-Authenticate of a 401 or 403 (empty when the user
        // asked to sign in before any request), and its status.
        QByteArray challenge;
        int challengeStatus = 0;
        // Scopes already held (a step-up asks for these and the challenge's together).
        QStringList heldScopes;
        OAuthClientSettings client;
        // What is known from earlier sign-ins (client identities per issuer, tokens to refresh).
        AuthRecord record;
        // Shows the authorization URL to the user (a browser, a printed line). Without it the URL
        // is fetched and its redirect followed to the listener (no login page: for authorization
        // servers that answer at once, such as the conformance harness's).
        std::function<void(const QUrl &)> openBrowser;
        // One refresh-token grant with record's tokens, nothing else.
        bool refreshOnly = false;
        // Pause after each step until continueFlow().
        bool stepped = false;
        int callbackTimeoutMs = 5 * 60 * 1000;
        int requestTimeoutMs = 30000;
    };

    explicit OAuthFlow(Options options, QObject *parent = nullptr);
    ~OAuthFlow() override;

    void start();
    // Stops at the current step (it fails as cancelled); the listener closes.
    void cancel();
    // In stepped mode: go on with the next step.
    void continueFlow();
    bool isPaused() const { return m_paused; }

    const Options &options() const { return m_options; }
    const QList<AuthStep> &steps() const { return m_steps; }
    bool isFinished() const { return m_finished; }
    bool succeeded() const { return m_finished && !m_error.isError(); }
    McpError error() const { return m_error; }
    // The record after the flow: the issuer in force, its client identity and the new tokens.
    const AuthRecord &record() const { return m_record; }
    // Set once the authorization request is built (for --no-browser and the Auth view).
    QUrl authorizationUrl() const { return m_authorizationUrl; }
    // The authorization page is open in the browser and its redirect not back yet.
    bool isWaitingForBrowser() const;
    // Shows the authorization page again (a browser tab closed by mistake); nothing unless
    // isWaitingForBrowser() and the flow has a browser.
    void openBrowserAgain();
    // A step the flow's owner adds after the flow (the authorized request that followed).
    void appendStep(const AuthStep &step);
    // Puts step in place of the one at index (such an added step, told better later).
    void replaceStep(int index, const AuthStep &step);

    // What was checked, as functions the tests read directly.
    // RFC 9728 §3.1: the well-known URLs of a resource's metadata, path-based first.
    static QList<QUrl> resourceMetadataUrls(const QUrl &serverUrl);
    // RFC 8414 §3.1 and OpenID Connect discovery, in the MCP order.
    static QList<QUrl> serverMetadataUrls(const QString &issuer);
    // Loopback hosts may use http; every other authorization server endpoint must be https.
    static bool isSecureEndpoint(const QUrl &url);
    // The resource a protected resource metadata names covers this server: same origin, and the
    // server's path under the resource's.
    static bool resourceCovers(const QString &resource, const QUrl &serverUrl);
    static QString pkceChallenge(const QByteArray &verifier);

Q_SIGNALS:
    void stepAdded(int index);
    void stepChanged(int index);
    void pausedChanged(bool paused);
    void authorizationUrlReady(const QUrl &url);
    void finished();

private:
    using Handler = std::function<void(const HttpExchange &exchange, const QByteArray &body)>;

    int beginStep(AuthStep::Kind kind, const QString &title);
    AuthStep &current() { return m_steps.last(); }
    void changed();
    void verdict(const QString &rule, bool passed, const QString &detail = {});
    // Ends the current step done, then runs next (now, or on continueFlow() when stepped).
    void stepDone(const QString &summary, std::function<void()> next);
    void fail(const QString &message, McpError::Kind kind = McpError::Kind::AuthRequired);
    void finish();

    void request(const QNetworkRequest &request, const QByteArray &verb, const QByteArray &body,
                 Handler handler);
    QNetworkRequest makeRequest(const QUrl &url, const QByteArray &accept) const;

    void readChallenge();
    using FoundHandler = std::function<void(const QJsonObject &document, const QUrl &from)>;
    // GETs each URL in turn until one answers 200, whose body must be a JSON object (found);
    // exhausted() when none did. Each miss is noted in the current step.
    void fetchFirstJson(QList<QUrl> candidates, FoundHandler found, std::function<void()> exhausted);
    void fetchResourceMetadata(const QList<QUrl> &candidates);
    void useResourceMetadata(const QJsonObject &metadata, const QUrl &from);
    void fetchServerMetadata();
    void useServerMetadata(const QJsonObject &metadata, const QUrl &from);
    void chooseClient();
    void registerDynamically(const QUrl &endpoint);
    void authorize();
    void followAuthorization(const QUrl &url, int hops);
    void handleCallback(const QUrlQuery &query);
    void exchangeCode(const QString &code);
    void refresh();
    void tokenRequest(QUrlQuery form, bool isRefresh, bool nonceRetry = false);
    // The grant this flow runs (a refresh runs the record's).
    OAuthGrant grant() const;
    // Proofs are signed with this key (a new one when pem is empty or unreadable).
    void useDpopKey(const QByteArray &pem);
    void chooseMachineClient();
    void exchangeIdToken();
    // The client credentials grant, or a JWT bearer grant with assertion.
    void machineToken(const QString &assertion);
    void readTokenAnswer(const HttpExchange &exchange, const QByteArray &body, bool isRefresh);
    void addClientAuthentication(QNetworkRequest *request, QUrlQuery *form) const;
    QString chooseScopes(QString *source) const;

    Options m_options;
    QList<AuthStep> m_steps;
    AuthRecord m_record;
    McpError m_error;
    QNetworkAccessManager *m_nam;
    QPointer<QNetworkReply> m_reply;
    LoopbackListener *m_listener = nullptr;
    std::function<void()> m_next;
    bool m_started = false;
    bool m_finished = false;
    bool m_paused = false;

    // What the steps found.
    QString m_challengeScope;
    QString m_resource;           // the canonical resource (RFC 8707 `resource`)
    QStringList m_resourceScopes; // protected resource metadata's scopes_supported
    QString m_issuer;             // the issuer the metadata URL was built from
    QJsonObject m_serverMetadata;
    OAuthClient m_client;
    QByteArray m_verifier;
    QString m_state;
    QString m_requestedScope;
    QUrl m_authorizationUrl;
    SigningKey m_dpopKey; // null: no DPoP
    QString m_dpopNonce;  // the authorization server's (RFC 9449 §8)
};

} // namespace folio
