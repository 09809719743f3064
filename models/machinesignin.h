#pragma once

#include "oauth.h"

#include <QString>
#include <QUrl>

#include <optional>

namespace folio {

// A sign-in without a person, as the user describes it (the Sign-in dock's "As a Machine…",
// `folio auth login --grant …`): the grant, the client, and where its credentials are. Secrets are
// given as values (a client secret) or as files read when the sign-in starts (a private key, a
// workload's JWT, an ID token): a platform renews such files, so they are read each time.
//
// remember() keeps everything but the secrets per server (QSettings), for the next time the form
// opens; the secrets reach the keychain only in the sign-in record (AuthRecord) of a sign-in that
// worked.
struct MachineSignIn
{
    OAuthGrant grant = OAuthGrant::ClientCredentials;
    QString clientId;
    QString clientSecret; // never remembered
    QString keyFile;      // ClientCredentials with private_key_jwt
    QString assertionFile;
    QString idTokenFile;
    QUrl idpTokenEndpoint;
    QString idpClientId;
    QString idpClientSecret; // never remembered
    bool dpop = true;        // where the authorization server offers it

    // What the grant still needs, without reading any file: a sentence naming the field ("the client
    // ID is not given"), or empty.
    QString missing() const;
    // The authorizer's settings, with the files read now; nullopt and why (one sentence naming the
    // field) when something the grant needs is missing or unreadable.
    std::optional<OAuthClientSettings> settings(QString *problem) const;

    static MachineSignIn remembered(const QUrl &serverUrl);
    void remember(const QUrl &serverUrl) const;
};

// A credential kept in a file, read whole and trimmed; at most 64 KiB. Empty, and why, when it
// cannot be read.
QByteArray readCredentialFile(const QString &path, QString *problem);

} // namespace folio
