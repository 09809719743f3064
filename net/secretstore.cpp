#include "secretstore.h"

#include "netlogging.h"
#include "settingskeys.h"

#include <qt6keychain/keychain.h>

#include <QCryptographicHash>
#include <QPointer>
#include <QRegularExpression>
#include <QSettings>

#include <utility>

namespace folio {

namespace {

// QtKeychain's libsecret backend reports a missing session bus or a missing Secret Service as
// OtherError with GLib's message, never as NoBackendAvailable. These are the marks of that case,
// so the user is told there is no keychain rather than shown a D-Bus error.
bool meansNoBackend(const QString &detail)
{
    // A missing Secret Service provider, a session bus that is not there and could not be
    // started, and a DBUS_SESSION_BUS_ADDRESS that names a dead socket.
    static const char *const marks[] = {
        "org.freedesktop.secrets",
        "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.NameHasNoOwner",
        "autolaunch",
        "dbus-launch",
        "Could not connect",
    };
    for (const char *mark : marks) {
        if (detail.contains(QLatin1StringView(mark), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

SecretStore::Failure failureFor(QKeychain::Error error, const QString &detail)
{
    switch (error) {
    case QKeychain::EntryNotFound:
        return SecretStore::Failure::NotFound;
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
        return SecretStore::Failure::NoBackend;
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        return SecretStore::Failure::AccessDenied;
    case QKeychain::OtherError:
        return meansNoBackend(detail) ? SecretStore::Failure::NoBackend : SecretStore::Failure::Other;
    case QKeychain::NoError:
    case QKeychain::CouldNotDeleteEntry:
        break;
    }
    return SecretStore::Failure::Other;
}

// The backend's own words, when they say something a user can act on, without the D-Bus object
// paths and interface names that GLib puts in them ("No such secret collection at path:
// /org/freedesktop/secrets/aliases/default"). The raw text stays in the log.
QString plainDetail(const QString &detail)
{
    if (detail.contains(QLatin1StringView("locked"), Qt::CaseInsensitive))
        return SecretStore::tr("the keyring is locked");
    if (detail.contains(QLatin1StringView("collection"), Qt::CaseInsensitive))
        return SecretStore::tr(
            "the keychain has no default keyring: create one (named \"login\") and unlock it");
    static const QRegularExpression dbus(QStringLiteral(R"((/org/freedesktop/\S*|\borg\.freedesktop\.\S*))"));
    QString words = QString(detail).remove(dbus).simplified();
    while (words.endsWith(QLatin1Char(':')) || words.endsWith(QLatin1Char(',')))
        words.chop(1);
    return words.size() < 4 ? QString() : words;
}

} // namespace

const char *SecretStore::operationName(Operation operation)
{
    switch (operation) {
    case Operation::Store:
        return "storing";
    case Operation::Read:
        return "reading";
    case Operation::Remove:
        return "removing";
    }
    return "";
}

SecretStore::SecretStore(const QString &service, QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_stall(new QTimer(this))
{
    m_stall->setSingleShot(true);
    m_stall->setInterval(defaultStallMs);
    // Through the signals, so that a keychain a test puts in place remembers alike.
    connect(this, &SecretStore::failed, this, [this](const QString &key, Failure failure) {
        if (failure == Failure::NotFound)
            rememberAbsent(key, true);
    });
    connect(this, &SecretStore::stored, this, [this](const QString &key) { rememberAbsent(key, false); });
    connect(this, &SecretStore::removed, this, [this](const QString &key) { rememberAbsent(key, true); });
    connect(m_stall, &QTimer::timeout, this, [this] {
        qCInfo(lcSecrets).noquote() << "the keychain has not answered in" << m_stall->interval()
                                    << "ms: the next job starts";
        m_current = 0;
        startNext();
    });
}

SecretStore *SecretStore::forApplication(QObject *parent)
{
    auto *store = new SecretStore(QStringLiteral("Folio"), parent);
    store->setRemembersAbsence(true);
    return store;
}

void SecretStore::setStallMs(int ms)
{
    m_stall->setInterval(ms);
}

SecretStore::~SecretStore()
{
    // Jobs never started hold no GLib callback: they can go with the store. The running one
    // deletes itself when the keychain answers (see enqueue()).
    for (const Waiting &w : std::as_const(m_waiting))
        delete w.job;
}

void SecretStore::store(const QString &key, const QString &secret)
{
    auto job = new QKeychain::WritePasswordJob(m_service);
    job->setTextData(secret);
    enqueue(job, Operation::Store, key);
}

void SecretStore::read(const QString &key)
{
    if (isKnownAbsent(key)) {
        // The answer the keychain gave last time, without loading it: on the next turn, as a job's.
        qCDebug(lcSecrets).noquote() << "reading the token for" << key << "skipped: known to be absent";
        QTimer::singleShot(0, this, [this, key] {
            Q_EMIT failed(key, Failure::NotFound, failureMessage(Failure::NotFound, key));
        });
        return;
    }
    enqueue(new QKeychain::ReadPasswordJob(m_service), Operation::Read, key);
}

void SecretStore::remove(const QString &key)
{
    enqueue(new QKeychain::DeletePasswordJob(m_service), Operation::Remove, key);
}

QString SecretStore::absenceId(const QString &key) const
{
    const QByteArray hash =
        QCryptographicHash::hash((m_service + QChar(0) + key).toUtf8(), QCryptographicHash::Sha256);
    return QString::fromLatin1(hash.toHex().left(32));
}

bool SecretStore::isKnownAbsent(const QString &key) const
{
    if (!m_remembersAbsence)
        return false;
    return QSettings().value(SettingsKey::KeychainAbsent).toStringList().contains(absenceId(key));
}

void SecretStore::rememberAbsent(const QString &key, bool absent)
{
    if (!m_remembersAbsence)
        return;
    QSettings settings;
    QStringList ids = settings.value(SettingsKey::KeychainAbsent).toStringList();
    const QString id = absenceId(key);
    if (ids.contains(id) == absent)
        return;
    if (absent) {
        ids.append(id);
        if (ids.size() > maxRememberedAbsent)
            ids.remove(0, ids.size() - maxRememberedAbsent);
    } else {
        ids.removeAll(id);
    }
    if (ids.isEmpty())
        settings.remove(SettingsKey::KeychainAbsent);
    else
        settings.setValue(SettingsKey::KeychainAbsent, ids);
}

QString SecretStore::failureMessage(Failure failure, const QString &key, const QString &detail)
{
    QString message;
    switch (failure) {
    case Failure::NotFound:
        // The backend's wording ("Entry not found" and the like) adds nothing here.
        return tr("No token saved for %1.").arg(key);
    case Failure::NoBackend:
        message = tr("No keychain is available: install and unlock gnome-keyring or KWallet (any "
                     "Secret Service provider), then try again. Folio never stores tokens in plain text.");
        break;
    case Failure::AccessDenied:
        message = tr("Access to the keychain was denied for %1: unlock the keyring and allow Folio "
                     "to use it.")
                      .arg(key);
        break;
    case Failure::Other:
        message = tr("The keychain could not handle the token for %1.").arg(key);
        break;
    }
    // What to do is said above; the backend's detail adds to an unknown failure only.
    if (const QString words = plainDetail(detail); failure == Failure::Other && !words.isEmpty())
        message += QStringLiteral(" (%1)").arg(words);
    return message;
}

void SecretStore::enqueue(QKeychain::Job *job, Operation operation, const QString &key)
{
    job->setKey(key);
    // The job has no parent and deletes itself after finished(): the Secret Service backend
    // answers through a GLib callback that holds the job's address, so a job deleted in flight
    // (with a store that goes away first) would be called after its death. The context object
    // below drops the answer of a store that is gone.
    job->setAutoDelete(true);
    job->setInsecureFallback(false);
    m_waiting.append({job, operation, key});
    startNext();
}

void SecretStore::startNext()
{
    if (m_current != 0 || m_waiting.isEmpty())
        return;
    const Waiting next = m_waiting.takeFirst();
    const quint64 serial = ++m_serial;
    m_current = serial;
    m_stall->start();
    qCDebug(lcSecrets).noquote() << operationName(next.operation) << "the token for" << next.key;
    connect(next.job, &QKeychain::Job::finished, this,
            [this, serial, operation = next.operation, key = next.key](QKeychain::Job *finished) {
                // A job that stalled was passed by: its answer still comes, the queue has moved on.
                const bool waitedFor = m_current == serial;
                if (waitedFor) {
                    m_current = 0;
                    m_stall->stop();
                }
                const QPointer<SecretStore> self(this); // a slot may delete the store
                handleFinished(finished, operation, key);
                if (self && waitedFor)
                    startNext();
            });
    next.job->start();
}

void SecretStore::handleFinished(QKeychain::Job *job, Operation operation, const QString &key)
{
    if (job->error() != QKeychain::NoError) {
        const Failure failure = failureFor(job->error(), job->errorString());
        // Info, not a warning: failed() reaches the user (a banner, the command's message).
        qCInfo(lcSecrets).noquote() << operationName(operation) << "the token for" << key << "failed:"
                                    << "QKeychain error" << int(job->error()) << job->errorString();
        // The user refused to unlock (or there is no keychain): the jobs waiting behind this one
        // would ask again, once each. They get the same answer.
        QList<Waiting> refused;
        if (failure == Failure::AccessDenied || failure == Failure::NoBackend)
            refused = std::exchange(m_waiting, {});
        const QPointer<SecretStore> self(this); // a slot may delete the store
        Q_EMIT failed(key, failure, failureMessage(failure, key, job->errorString()));
        for (const Waiting &w : std::as_const(refused)) {
            delete w.job; // never started
            if (!self)
                continue;
            qCInfo(lcSecrets).noquote() << operationName(w.operation) << "the token for" << w.key
                                        << "not tried: the keychain just refused";
            Q_EMIT failed(w.key, failure, failureMessage(failure, w.key));
        }
        return;
    }
    qCDebug(lcSecrets).noquote() << operationName(operation) << "the token for" << key << "done";
    switch (operation) {
    case Operation::Store:
        Q_EMIT stored(key);
        break;
    case Operation::Read:
        Q_EMIT restored(key, static_cast<QKeychain::ReadPasswordJob *>(job)->textData());
        break;
    case Operation::Remove:
        Q_EMIT removed(key);
        break;
    }
}

} // namespace folio
