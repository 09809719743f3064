#pragma once

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QTextBrowser;
class QTimer;
class QTreeWidget;
class QTreeWidgetItem;

namespace folio {

class ServerSession;
class SignInProgress;
class SignInStore;
struct AuthStep;
struct MachineSignIn;
struct SignInFlow;

// The Auth view: an HTTP server's sign-in as a sequence of steps (challenge, resource metadata,
// authorization server metadata, registration, authorization, callback, token, the first
// authorized request), one group per flow with the later refreshes and step-ups under their own;
// the selected step shows each rule it checked, its error at the step where it happened, what it
// found, the access token's JWT claims and its raw HTTP exchanges, secrets masked unless the user
// asks to see them. Sign in, sign out, step through with Continue, cancel. The session's
// SignInStore runs everything, read through a SignInProgress; this panel only shows it and passes
// the user's clicks on.
class SignInPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SignInPanel(QWidget *parent = nullptr);
    ~SignInPanel() override;

    void setSession(ServerSession *session);
    // On a step's row: its AuthStep::State, as int.
    static const int StateRole;

    // The buttons' work, for the window's actions and the tests.
    void signIn();
    // Signs in without a person (client credentials, a workload's JWT, an enterprise ID token):
    // asks for the grant and its credentials first, remembered per server but for the secrets.
    void signInAsMachine();
    // With the given form, not asking (the dialog's OK, the tests). False, with why in the status,
    // when a credential file cannot be read.
    bool signInAsMachine(const MachineSignIn &form);
    // Asks first (unless confirm is false): the tokens go from the keychain.
    void signOut(bool confirm = true);
    void continueFlow();
    void cancel();

    QString statusText() const;
    QTreeWidget *steps() const { return m_steps; }
    QTextBrowser *detail() const { return m_detail; }
    QCheckBox *steppedBox() const { return m_stepped; }
    QCheckBox *revealBox() const { return m_reveal; }
    QPushButton *signInButton() const { return m_signInButton; }
    QPushButton *machineButton() const { return m_machine; }
    QPushButton *continueButton() const { return m_continue; }
    // While the authorization page waits in the browser: open it again, copy its link.
    QPushButton *openAgainButton() const { return m_openAgain; }
    QPushButton *copyLinkButton() const { return m_copyLink; }

Q_SIGNALS:
    // A sign-in flow started for the session shown (the window brings the panel forward).
    void flowStarted();

protected:
    void changeEvent(QEvent *event) override;

private:
    bool available() const;
    void rebuild();
    void updateFlowItem();
    void updateStatus();
    void showDetail();
    // A flow's row and its steps' (flowIndex: into pastFlows(), or -1 for the current flow).
    QTreeWidgetItem *addFlowItem(const SignInFlow &flow, int flowIndex);
    void fillStepItem(QTreeWidgetItem *item, const AuthStep &step) const;

    QPointer<ServerSession> m_session;
    SignInProgress *m_progress = nullptr;
    QTreeWidgetItem *m_flowItem = nullptr; // the current flow's group
    bool m_connectAfter = false;           // connect once the user's sign-in succeeds
    QLabel *m_status;
    QString m_formProblem; // why the last machine sign-in did not start (a file that cannot be read)
    QPushButton *m_signInButton;
    QPushButton *m_machine;
    QPushButton *m_signOut;
    QCheckBox *m_stepped;
    QPushButton *m_openAgain;
    QPushButton *m_copyLink;
    QPushButton *m_continue;
    QPushButton *m_cancel;
    QTreeWidget *m_steps;
    QCheckBox *m_reveal;
    QTextBrowser *m_detail;
    QTimer *m_tick;
};

// One step as the panel's detail shows it (HTML): state, summary, error, the rules checked, what it
// found, the JWT claims and the HTTP exchanges, masked unless reveal. Colours from palette.
QString authStepHtml(const AuthStep &step, bool reveal, const QPalette &palette);

} // namespace folio
