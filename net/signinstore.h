#pragma once

#include "authorizer.h"

#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>

namespace folio {

class SecretStore;

// Keeps one server's sign-in (AuthRecord: tokens and client identities per issuer) in the keychain
// under AuthRecord::keychainKey(), for its Authorizer: load() before connecting, and every change
// the authorizer makes is saved. When the keychain refuses, the sign-in is kept for this session
// only and keychainProblem() says why, in words for the user: nothing is written elsewhere.
class SignInStore : public QObject
{
    Q_OBJECT
public:
    SignInStore(const QUrl &serverUrl, SecretStore *secrets, QObject *parent = nullptr);

    Authorizer *authorizer() const { return m_authorizer; }
    QUrl serverUrl() const { return m_authorizer->serverUrl(); }

    // Reads the saved record (none saved: an empty one), then calls done, once, in any case: at
    // once, before returning, when the keychain is known to hold none (SecretStore::isKnownAbsent).
    void load(std::function<void()> done);
    bool isLoaded() const { return m_loaded; }
    // Forgets the tokens here and in the keychain; client identities stay with the record.
    void signOut();
    // Everything about this server goes (tokens and client identities): the keychain entry is removed.
    void forget();

    // Empty when the record is where it belongs; else why it is kept for this session only.
    QString keychainProblem() const { return m_problem; }
    // A save is under way (the keychain answers later): saved() follows.
    bool isSaving() const { return m_saving > 0; }

    // "Signed in at https://as.example (scope \"read\"), expires in 52 min" or "Not signed in".
    QString statusText(qint64 nowMs) const;

Q_SIGNALS:
    // Signed in or out, a refresh, or the keychain said something.
    void changed();
    // The keychain answered the last save (stored, or failed: keychainProblem()).
    void saved();

private:
    void save();

    QPointer<SecretStore> m_secrets;
    Authorizer *m_authorizer;
    QString m_key;
    QString m_problem;
    bool m_loaded = false;
    int m_saving = 0;
};

} // namespace folio
