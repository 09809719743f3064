#pragma once

#include "machinesignin.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace folio {

// The Sign-in dock's "Machine Sign-in…": the grant without a person (client credentials, a
// workload's JWT, an enterprise ID token) and its credentials, as a MachineSignIn. Each grant shows
// only its own fields; secrets are typed into password fields and never shown again; the credential
// files are chosen, and read when the sign-in starts. OK stays off until the grant has what it needs.
class MachineSignInDialog : public QDialog
{
    Q_OBJECT
public:
    explicit MachineSignInDialog(const MachineSignIn &initial, QWidget *parent = nullptr);

    MachineSignIn value() const;
    // Why OK is off, in a sentence (empty when it is on).
    QString problem() const;

    QComboBox *grantBox() const { return m_grant; }
    QLineEdit *clientIdEdit() const { return m_clientId; }
    QLineEdit *clientSecretEdit() const { return m_clientSecret; }

private:
    void update();
    QLineEdit *fileField(const QString &title, QWidget **row);

    QFormLayout *m_form;
    QComboBox *m_grant;
    QLineEdit *m_clientId;
    QLineEdit *m_clientSecret;
    QLineEdit *m_keyFile;
    QLineEdit *m_assertionFile;
    QLineEdit *m_idTokenFile;
    QLineEdit *m_idpEndpoint;
    QLineEdit *m_idpClientId;
    QLineEdit *m_idpClientSecret;
    QWidget *m_keyRow = nullptr;
    QWidget *m_assertionRow = nullptr;
    QWidget *m_idTokenRow = nullptr;
    QCheckBox *m_dpop;
    QLabel *m_explain;
    QLabel *m_problem;
    QPushButton *m_ok = nullptr;
};

} // namespace folio
