#pragma once

#include "oauth.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <optional>

namespace folio {

class OAuthFlow;
class SignInStore;

// One sign-in flow as the Auth view lists it: its title ("Sign-in", "Refresh", "Step-up …"),
// how it ended and its steps, each an AuthStep value.
struct SignInFlow
{
    QString title;
    bool running = false;
    bool succeeded = false;
    bool refreshOnly = false;
    QString error; // why it failed; empty while running or when it succeeded
    QList<AuthStep> steps;
};

// A server's sign-in, followed for a view: the flows so far (the past ones oldest first, then the
// current one), its state in a sentence, and the user's requests passed on (sign in, sign out,
// continue a stepped flow, cancel). It reads the SignInStore's Authorizer and its current OAuthFlow,
// so that widgets hold this and AuthStep values, never the sign-in machinery itself. A null or
// local-process server's progress is not available().
class SignInProgress : public QObject
{
    Q_OBJECT
public:
    explicit SignInProgress(SignInStore *store, QObject *parent = nullptr);
    ~SignInProgress() override;

    SignInStore *store() const;
    bool isAvailable() const;
    QList<SignInFlow> pastFlows() const;
    std::optional<SignInFlow> currentFlow() const;
    // A flow's steps: index into pastFlows(), or -1 for the current flow.
    QList<AuthStep> steps(int flowIndex) const;

    bool isRunning() const;
    bool isPaused() const;
    bool isStepped() const;
    bool isSignedIn() const;
    bool isLoaded() const;
    // Anything to sign out of: tokens, or flows to forget.
    bool hasAnything() const;
    // The access token expires at a known time: the status counts down.
    bool isCounting() const;
    QString serverUrl() const;
    // The sign-in in a sentence: a running flow's step (paused, waiting for the browser, in
    // progress), else the store's status; empty when it is not available().
    QString statusText(qint64 nowMs) const;

    // While the authorization page waits in the browser: its URL (to open again or copy); empty
    // otherwise.
    QUrl waitingUrl() const;
    void openPageAgain();

    void setStepped(bool stepped);
    // Loads the saved record first when it is not (its client identities are reused), then signs in.
    // Nothing while a flow runs.
    void signIn();
    // The same, with these settings from now on (a sign-in without a person: MachineSignIn).
    void signInWith(const OAuthClientSettings &settings);
    // Forgets the tokens, here and in the keychain, and the flows shown.
    void signOut();
    void continueFlow();
    void cancel();

Q_SIGNALS:
    void flowStarted();
    void flowFinished(bool succeeded);
    void flowsCleared();
    // A step of the current flow was added or changed.
    void stepAdded(int index);
    void stepChanged(int index);
    // The state in statusText() changed (paused, signed in or out, the keychain answered).
    void changed();

private:
    void attach(OAuthFlow *flow);

    QPointer<SignInStore> m_store;
    QPointer<OAuthFlow> m_flow;
};

} // namespace folio
