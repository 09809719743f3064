#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>

namespace QKeychain {
class Job;
}

namespace folio {

// Keeps per-server bearer tokens in the platform keychain (QtKeychain), never in plain text.
// Every call is one asynchronous job and answers with exactly one signal: the matching success
// signal or failed(). Secrets never appear in a message or a log line. The jobs run one at a time,
// in the order asked (a job that does not answer in defaultStallMs no longer holds the others): a locked
// keyring asks the user to unlock it once (for the first job), not once per secret of an import; and when the
// user refuses, or there is no keychain, the jobs waiting behind it fail with the same answer instead of
// asking again.
class SecretStore : public QObject
{
    Q_OBJECT
public:
    enum class Failure {
        NotFound,     // nothing is saved under this key
        NoBackend,    // no Secret Service / KWallet / keychain to talk to
        AccessDenied, // the keychain is locked or the user refused access
        Other,
    };
    Q_ENUM(Failure)

    explicit SecretStore(const QString &service = QStringLiteral("Folio"), QObject *parent = nullptr);
    ~SecretStore() override;

    // The store Folio's window and commands use: service "Folio", remembering absence.
    static SecretStore *forApplication(QObject *parent);

    QString service() const { return m_service; }

    // Virtual for one reason: unit tests put a keychain of their own in its place (one that
    // refuses, say), which the process-wide D-Bus session cannot be made to do per test.
    virtual void store(const QString &key, const QString &secret);
    virtual void read(const QString &key);
    virtual void remove(const QString &key);

    // Remember the keys the keychain said it does not hold, so that a later start need not ask
    // again: the first question loads the keychain's library (libsecret brings GIO and GLib's type
    // system) and asks D-Bus, about 12 ms before an HTTP server's first request can go. A read that
    // finds nothing adds its key; a store drops it, and so does this store's read or a store of the
    // same service in another Folio process (both go through store()). Kept in QSettings
    // (SettingsKey::KeychainAbsent) as hashes of service and key, the newest maxRememberedAbsent.
    // A secret put in the keychain under Folio's service by another program is not seen until
    // Folio stores that key again. Off unless turned on: the applications turn it on; a test that
    // fills a keychain behind the store's back leaves it off.
    void setRemembersAbsence(bool on) { m_remembersAbsence = on; }
    // The keychain said, the last time it was asked, that it holds nothing under key.
    bool isKnownAbsent(const QString &key) const;
    static constexpr int maxRememberedAbsent = 200;

    // Jobs asked for and not started yet (one runs at a time).
    int waitingJobs() const { return int(m_waiting.size()); }
    // A job the keychain has not answered in this long (a prompt nobody sees, a backend that
    // hangs) stops holding the others back: the next one starts, and its own answer still comes.
    static constexpr int defaultStallMs = 10000;
    void setStallMs(int ms);
    // Plain words for a person. key names what the secret belongs to; detail is the backend's own
    // explanation, added where it helps.
    static QString failureMessage(Failure failure, const QString &key, const QString &detail = {});

Q_SIGNALS:
    // The secret for key is saved (replacing any earlier one).
    void stored(const QString &key);
    // read(key) found secret.
    void restored(const QString &key, const QString &secret);
    // The secret for key is gone (also when there was none: the Secret Service does not tell).
    void removed(const QString &key);
    // A store(), read() or remove() for key did not succeed; message is failureMessage().
    void failed(const QString &key, folio::SecretStore::Failure failure, const QString &message);

private:
    enum class Operation { Store, Read, Remove };
    static const char *operationName(Operation operation); // for folio.net.secrets

    struct Waiting
    {
        QKeychain::Job *job;
        Operation operation;
        QString key;
    };
    void enqueue(QKeychain::Job *job, Operation operation, const QString &key);
    void startNext();
    void handleFinished(QKeychain::Job *job, Operation operation, const QString &key);

    QString absenceId(const QString &key) const;
    void rememberAbsent(const QString &key, bool absent);

    QString m_service;
    bool m_remembersAbsence = false;
    QList<Waiting> m_waiting;
    quint64 m_serial = 0;  // the last job started
    quint64 m_current = 0; // the job the queue waits for; 0 when none
    QTimer *m_stall;
};

} // namespace folio
