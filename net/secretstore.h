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

    QString service() const { return m_service; }

    // Virtual for one reason: unit tests put a keychain of their own in its place (one that
    // refuses, say), which the process-wide D-Bus session cannot be made to do per test.
    virtual void store(const QString &key, const QString &secret);
    virtual void read(const QString &key);
    virtual void remove(const QString &key);

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

    QString m_service;
    QList<Waiting> m_waiting;
    quint64 m_serial = 0;  // the last job started
    quint64 m_current = 0; // the job the queue waits for; 0 when none
    QTimer *m_stall;
};

} // namespace folio
