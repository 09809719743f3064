#pragma once

#include "secretstore.h"

#include <QMap>
#include <QTimer>

#include <optional>

// A keychain in memory for unit tests, answering on the next turn of the event loop as QtKeychain
// does. refuse set: every store() fails with that failure, as a missing or locked keychain would;
// reads and removes still answer from what it holds.
class FakeSecretStore : public folio::SecretStore
{
public:
    using SecretStore::SecretStore;

    QMap<QString, QString> entries;
    std::optional<Failure> refuse;
    int stores = 0;

    void store(const QString &key, const QString &secret) override
    {
        ++stores;
        if (refuse) {
            later([this, key, failure = *refuse] {
                Q_EMIT failed(key, failure, failureMessage(failure, key, QStringLiteral("fake keychain")));
            });
            return;
        }
        entries.insert(key, secret);
        later([this, key] { Q_EMIT stored(key); });
    }

    void read(const QString &key) override
    {
        if (!entries.contains(key)) {
            later([this, key] {
                Q_EMIT failed(key, Failure::NotFound, failureMessage(Failure::NotFound, key));
            });
            return;
        }
        later([this, key, secret = entries.value(key)] { Q_EMIT restored(key, secret); });
    }

    void remove(const QString &key) override
    {
        entries.remove(key);
        later([this, key] { Q_EMIT removed(key); });
    }

private:
    template<typename F> void later(F f) { QTimer::singleShot(0, this, f); }
};
