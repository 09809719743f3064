#pragma once

#include "jose.h"
#include "mcperror.h"
#include "oauth.h"
#include "oauthflow.h"

#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>

namespace folio {

// The sign-in state of one HTTP server for its connection: the token its requests carry, and what
// to do when the server refuses one. The HTTP transport asks it (handleRefusal) on a 401 or a 403
// and sends the request again once it has a new token:
// - a 401 with a refresh token in hand: one refresh-token grant;
// - a 401 otherwise (or a failed refresh): a sign-in (OAuthFlow), where interactive;
// - a 403 insufficient_scope: a sign-in for the challenge's scopes and the ones held (step-up).
// Requests refused while a flow runs wait for that flow. The record (tokens and client identities)
// is the owner's to keep: recordChanged() says when it should be saved.
class Authorizer : public QObject
{
    Q_OBJECT
public:
    explicit Authorizer(const QUrl &serverUrl, QObject *parent = nullptr);

    QUrl serverUrl() const { return m_serverUrl; }
    void setRecord(const AuthRecord &record);
    const AuthRecord &record() const { return m_record; }
    void setClientSettings(const OAuthClientSettings &settings)
    {
        m_settings = settings;
        m_machineFailure = {};
    }
    // How the authorization URL reaches the user. Without one, the URL is fetched and its
    // redirect followed (authorization servers that answer at once: the conformance harness).
    void setBrowser(std::function<void(const QUrl &)> browser) { m_browser = std::move(browser); }
    // Not interactive: a refusal is answered by a refresh at most (the command line without
    // `folio auth login`); a sign-in is then the user's to start.
    void setInteractive(bool interactive) { m_interactive = interactive; }
    bool isInteractive() const { return m_interactive; }
    // How the user starts a sign-in where this authorizer may not ("folio auth login --url …"):
    // said in the error of a refusal it cannot answer.
    void setSignInHint(const QString &hint) { m_hint = hint; }
    // Sign-ins pause after every step until OAuthFlow::continueFlow().
    void setStepped(bool stepped) { m_stepped = stepped; }
    bool isStepped() const { return m_stepped; }
    void setCallbackTimeoutMs(int ms) { m_callbackTimeoutMs = ms; }

    QString accessToken() const { return m_record.tokens.accessToken; }
    // The headers that present the token on a request: "Authorization: Bearer …", or for a
    // DPoP-bound token "Authorization: DPoP …" and a fresh proof of this method and URL (RFC 9449
    // §7), with the server's latest nonce. Empty when not signed in.
    QList<std::pair<QByteArray, QByteArray>> authorizationHeaders(const QByteArray &method,
                                                                  const QUrl &url) const;
    // A DPoP-Nonce the server sent (on any answer): the next proofs carry it (RFC 9449 §9).
    void noteDpopNonce(const QByteArray &nonce);
    bool isSignedIn() const { return m_record.isSignedIn(); }

    using Done = std::function<void(const McpError &error)>;
    // The server refused a request that carried usedToken (empty: none) with status and its
    // WWW-Authenticate. done() is called once, in context's thread and only while context lives:
    // with no error when a new token is ready (send again), else with why not.
    void handleRefusal(int status, const QByteArray &challenge, const QString &usedToken, QObject *context,
                       Done done);
    // A sign-in now, without a refusal first (the Sign in button, `folio auth login`).
    void signIn();
    // Forgets the tokens (the client identities stay: they are not secrets of the user's), and the
    // flows that carried them.
    void signOut();
    void cancel();

    // The flow running or the last one, with its steps; null before any.
    OAuthFlow *flow() const { return m_flow; }
    // What a flow was for, in a word: "Sign-in", "Refresh" or "Step-up".
    static QString flowTitle(const OAuthFlow *flow);
    // The flows before flow(), oldest first, at most maxPastFlows: what the Auth view lists above the
    // current one (later refreshes and step-ups). Cleared by signOut(): their exchanges hold tokens.
    struct PastFlow
    {
        QString title;
        bool succeeded = false;
        QString error;
        QList<AuthStep> steps;
    };
    static constexpr int maxPastFlows = 20;
    const QList<PastFlow> &pastFlows() const { return m_pastFlows; }
    // The request retried after a sign-in or refresh was answered: shown as the flow's last step.
    void noteAuthorizedRequest(const QString &what, int status);

Q_SIGNALS:
    void flowStarted(folio::OAuthFlow *flow);
    void flowFinished(folio::OAuthFlow *flow);
    // Signed out: flow() and pastFlows() are gone.
    void flowsCleared();
    // The record changed (new tokens, a new client identity, signed out): save it.
    void recordChanged();

private:
    struct Waiter
    {
        QPointer<QObject> context;
        Done done;
    };
    void startFlow(int status, const QByteArray &challenge, bool refreshOnly);
    // A refusal can be answered without a person: a grant of a machine (set, or the record's).
    bool runsWithoutPerson() const;
    void handleFlowFinished();
    void settle(const McpError &error);

    QUrl m_serverUrl;
    AuthRecord m_record;
    OAuthClientSettings m_settings;
    std::function<void(const QUrl &)> m_browser;
    bool m_interactive = true;
    QString m_hint;
    bool m_stepped = false;
    int m_callbackTimeoutMs = 5 * 60 * 1000;
    QPointer<OAuthFlow> m_flow;
    bool m_flowRunning = false;
    // What the running flow was for: a refresh falls back to a sign-in when it fails.
    bool m_refreshing = false;
    int m_challengeStatus = 0;
    QByteArray m_challenge;
    QString m_refreshedFrom; // the access token a refresh replaced: refreshed once, not again
    SigningKey m_dpopKey;    // the record's, read once
    QString m_dpopNonce;     // the resource server's latest
    // The authorized request was refused for the resource server's DPoP nonce and goes again with
    // it: that answer, not the refusal, is the sign-in's last step.
    bool m_nonceRetry = false;
    // A grant without a person that failed is not run again by itself (a workload's JWT refused
    // once is refused again): the user signs in, or the settings change.
    McpError m_machineFailure;
    QList<Waiter> m_waiters;
    QList<PastFlow> m_pastFlows;
};

} // namespace folio
