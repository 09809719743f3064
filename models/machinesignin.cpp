#include "machinesignin.h"

#include "settingskeys.h"

#include <QFile>
#include <QSettings>

namespace folio {

QByteArray readCredentialFile(const QString &path, QString *problem)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *problem = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return {};
    }
    if (file.size() > 64 * 1024) {
        *problem = QStringLiteral("%1 is over 64 KiB: not a key or a token").arg(path);
        return {};
    }
    const QByteArray bytes = file.readAll().trimmed();
    if (bytes.isEmpty())
        *problem = QStringLiteral("%1 is empty").arg(path);
    return bytes;
}

QString MachineSignIn::missing() const
{
    switch (grant) {
    case OAuthGrant::AuthorizationCode:
        return {};
    case OAuthGrant::ClientCredentials:
        if (clientId.trimmed().isEmpty())
            return QStringLiteral("the client ID is not given");
        if (clientSecret.isEmpty() && keyFile.isEmpty())
            return QStringLiteral("give the client secret or a private key file");
        return {};
    case OAuthGrant::JwtBearer:
        return assertionFile.isEmpty() ? QStringLiteral("the workload JWT file is not given") : QString();
    case OAuthGrant::EnterpriseManaged:
        if (clientId.trimmed().isEmpty() || clientSecret.isEmpty())
            return QStringLiteral("the client ID and secret at the authorization server are not given");
        if (!idpTokenEndpoint.isValid() || idpTokenEndpoint.isRelative())
            return QStringLiteral("the identity provider's token endpoint is not a URL");
        return idTokenFile.isEmpty() ? QStringLiteral("the ID token file is not given") : QString();
    }
    return {};
}

std::optional<OAuthClientSettings> MachineSignIn::settings(QString *problem) const
{
    *problem = missing();
    if (!problem->isEmpty())
        return std::nullopt;
    OAuthClientSettings s;
    s.grant = grant;
    s.dpop = dpop ? OAuthClientSettings::Dpop::Auto : OAuthClientSettings::Dpop::Off;
    s.preRegisteredClientId = clientId.trimmed();
    s.preRegisteredClientSecret = clientSecret;
    s.idpTokenEndpoint = idpTokenEndpoint;
    s.idpClientId = idpClientId.trimmed();
    s.idpClientSecret = idpClientSecret;
    // The files are read now, each time: a platform renews a workload's token in place.
    if (grant == OAuthGrant::ClientCredentials && !keyFile.isEmpty()) {
        s.clientKeyPem = readCredentialFile(keyFile, problem);
        if (s.clientKeyPem.isEmpty())
            return std::nullopt;
    } else if (grant == OAuthGrant::JwtBearer) {
        s.assertion = QString::fromUtf8(readCredentialFile(assertionFile, problem));
        if (s.assertion.isEmpty())
            return std::nullopt;
    } else if (grant == OAuthGrant::EnterpriseManaged) {
        s.idToken = QString::fromUtf8(readCredentialFile(idTokenFile, problem));
        if (s.idToken.isEmpty())
            return std::nullopt;
    }
    return s;
}

MachineSignIn MachineSignIn::remembered(const QUrl &serverUrl)
{
    QSettings settings;
    settings.beginGroup(SettingsKey::machineSignIn(AuthRecord::keychainKey(serverUrl)));
    MachineSignIn m;
    m.grant = grantFromKey(settings.value(QStringLiteral("grant")).toString())
                  .value_or(OAuthGrant::ClientCredentials);
    m.clientId = settings.value(QStringLiteral("clientId")).toString();
    m.keyFile = settings.value(QStringLiteral("keyFile")).toString();
    m.assertionFile = settings.value(QStringLiteral("assertionFile")).toString();
    m.idTokenFile = settings.value(QStringLiteral("idTokenFile")).toString();
    m.idpTokenEndpoint = QUrl(settings.value(QStringLiteral("idpTokenEndpoint")).toString());
    m.idpClientId = settings.value(QStringLiteral("idpClientId")).toString();
    m.dpop = settings.value(QStringLiteral("dpop"), true).toBool();
    return m;
}

void MachineSignIn::remember(const QUrl &serverUrl) const
{
    QSettings settings;
    settings.beginGroup(SettingsKey::machineSignIn(AuthRecord::keychainKey(serverUrl)));
    settings.setValue(QStringLiteral("grant"), grantKey(grant));
    settings.setValue(QStringLiteral("clientId"), clientId);
    settings.setValue(QStringLiteral("keyFile"), keyFile);
    settings.setValue(QStringLiteral("assertionFile"), assertionFile);
    settings.setValue(QStringLiteral("idTokenFile"), idTokenFile);
    settings.setValue(QStringLiteral("idpTokenEndpoint"), idpTokenEndpoint.toString());
    settings.setValue(QStringLiteral("idpClientId"), idpClientId);
    settings.setValue(QStringLiteral("dpop"), dpop);
}

} // namespace folio
