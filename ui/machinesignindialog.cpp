#include "machinesignindialog.h"

#include "filechooser.h"
#include "statuscolors.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace folio {

MachineSignInDialog::MachineSignInDialog(const MachineSignIn &initial, QWidget *parent)
    : QDialog(parent)
    , m_form(new QFormLayout)
    , m_grant(new QComboBox(this))
    , m_clientId(new QLineEdit(initial.clientId, this))
    , m_clientSecret(new QLineEdit(this))
    , m_idpEndpoint(new QLineEdit(initial.idpTokenEndpoint.toString(), this))
    , m_idpClientId(new QLineEdit(initial.idpClientId, this))
    , m_idpClientSecret(new QLineEdit(this))
    , m_dpop(new QCheckBox(tr("Bind the tokens to a key of Folio's (DPoP) where the server offers it"), this))
    , m_explain(new QLabel(this))
    , m_problem(new QLabel(this))
{
    setWindowTitle(tr("Machine Sign-in"));
    for (OAuthGrant g : {OAuthGrant::ClientCredentials, OAuthGrant::JwtBearer, OAuthGrant::EnterpriseManaged})
        m_grant->addItem(grantName(g).left(1).toUpper() + grantName(g).mid(1), int(g));
    m_grant->setCurrentIndex(std::max(0, m_grant->findData(int(initial.grant))));
    m_grant->setAccessibleName(tr("Grant"));
    for (QLineEdit *secret : {m_clientSecret, m_idpClientSecret}) {
        secret->setEchoMode(QLineEdit::Password);
        secret->setPlaceholderText(tr("kept in the keychain with the tokens"));
    }
    m_clientId->setAccessibleName(tr("Client ID"));
    m_clientSecret->setAccessibleName(tr("Client secret"));
    m_idpEndpoint->setPlaceholderText(QStringLiteral("https://idp.example.com/oauth2/token"));
    m_dpop->setChecked(initial.dpop);
    m_explain->setWordWrap(true);
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setStyleSheet(QStringLiteral("color: %1").arg(StatusColors(palette()).failed().name()));

    m_form->addRow(tr("&Grant:"), m_grant);
    m_form->addRow(tr("Client &ID:"), m_clientId);
    m_form->addRow(tr("Client &secret:"), m_clientSecret);
    m_keyFile = fileField(tr("Private key (PEM)"), &m_keyRow);
    m_keyFile->setText(initial.keyFile);
    m_form->addRow(tr("Private &key file:"), m_keyRow);
    m_assertionFile = fileField(tr("Workload JWT"), &m_assertionRow);
    m_assertionFile->setText(initial.assertionFile);
    m_form->addRow(tr("&Workload JWT file:"), m_assertionRow);
    m_idTokenFile = fileField(tr("ID Token"), &m_idTokenRow);
    m_idTokenFile->setText(initial.idTokenFile);
    m_form->addRow(tr("ID &token file:"), m_idTokenRow);
    m_form->addRow(tr("IdP token &endpoint:"), m_idpEndpoint);
    m_form->addRow(tr("IdP client I&D:"), m_idpClientId);
    m_form->addRow(tr("IdP client s&ecret:"), m_idpClientSecret);
    m_form->addRow(QString(), m_dpop);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Sign In"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_explain);
    layout->addLayout(m_form);
    layout->addWidget(m_problem);
    layout->addStretch(1);
    layout->addWidget(buttons);

    connect(m_grant, &QComboBox::currentIndexChanged, this, &MachineSignInDialog::update);
    for (QLineEdit *edit : {m_clientId, m_clientSecret, m_keyFile, m_assertionFile, m_idTokenFile,
                            m_idpEndpoint, m_idpClientId, m_idpClientSecret})
        connect(edit, &QLineEdit::textChanged, this, &MachineSignInDialog::update);
    update();
    resize(std::max(sizeHint().width(), 560), sizeHint().height());
}

QLineEdit *MachineSignInDialog::fileField(const QString &title, QWidget **row)
{
    *row = new QWidget(this);
    auto *edit = new QLineEdit(*row);
    auto *browse = new QPushButton(tr("Choose…"), *row);
    auto *layout = new QHBoxLayout(*row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    layout->addWidget(browse);
    edit->setAccessibleName(title);
    connect(browse, &QPushButton::clicked, this, [this, edit, title] {
        const QString path = FileChooser::openFile(this, title, tr("All files (*)"));
        if (!path.isEmpty())
            edit->setText(path);
    });
    return edit;
}

MachineSignIn MachineSignInDialog::value() const
{
    MachineSignIn m;
    m.grant = OAuthGrant(m_grant->currentData().toInt());
    m.clientId = m_clientId->text().trimmed();
    m.clientSecret = m_clientSecret->text();
    m.keyFile = m_keyFile->text().trimmed();
    m.assertionFile = m_assertionFile->text().trimmed();
    m.idTokenFile = m_idTokenFile->text().trimmed();
    m.idpTokenEndpoint = QUrl(m_idpEndpoint->text().trimmed());
    m.idpClientId = m_idpClientId->text().trimmed();
    m.idpClientSecret = m_idpClientSecret->text();
    m.dpop = m_dpop->isChecked();
    return m;
}

QString MachineSignInDialog::problem() const
{
    return m_problem->text();
}

void MachineSignInDialog::update()
{
    const auto grant = OAuthGrant(m_grant->currentData().toInt());
    const bool credentials = grant == OAuthGrant::ClientCredentials;
    const bool workload = grant == OAuthGrant::JwtBearer;
    const bool enterprise = grant == OAuthGrant::EnterpriseManaged;
    const auto show = [this](QWidget *field, bool visible) { m_form->setRowVisible(field, visible); };
    show(m_clientId, !workload);
    show(m_clientSecret, !workload);
    show(m_keyRow, credentials);
    show(m_assertionRow, workload);
    show(m_idTokenRow, enterprise);
    show(m_idpEndpoint, enterprise);
    show(m_idpClientId, enterprise);
    show(m_idpClientSecret, enterprise);
    m_explain->setText(
        credentials ? tr("Folio signs in as a client of its own: with its secret, or with a private key that "
                         "signs an assertion (private_key_jwt). For servers that machines use.")
        : workload  ? tr("Folio presents the JWT its platform issued to this workload (a Kubernetes service "
                          "account token, a cloud's identity token). The file is read at each sign-in.")
                    : tr("Folio exchanges your ID token from the identity provider for an identity assertion "
                          "(ID-JAG) for this server's authorization server, then signs in with it."));
    // The rules the sign-in applies; the files are read when it starts.
    QString why = value().missing();
    if (!why.isEmpty())
        why = why.left(1).toUpper() + why.mid(1) + QLatin1Char('.');
    m_problem->setText(why);
    m_problem->setVisible(!why.isEmpty());
    if (m_ok)
        m_ok->setEnabled(why.isEmpty());
}

} // namespace folio
