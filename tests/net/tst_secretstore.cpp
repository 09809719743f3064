#include "secretstore.h"
#include "settingskeys.h"
#include "signinstore.h"
#include "testsettings.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using folio::SecretStore;
using folio::SignInStore;
namespace SettingsKey = folio::SettingsKey;

// SecretStore against the real Secret Service: gnome-keyring inside the private D-Bus session that
// tests/run-in-session starts. Outside that session the keychain tests skip, so that a developer's
// own keyring is never written to (nor asked to unlock with a prompt).
class tst_SecretStore : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();

    void failureMessage_data();
    void failureMessage();

    void unreachableKeychainIsNoBackend(); // first: GLib caches the session bus once it has one
    void storeReadRemove();
    void storeReplaces();
    void servicesAreSeparate();
    void storeDeletedInFlight();
    void aStalledJobHoldsNoOneBack();
    void absenceIsRemembered();
    void absenceMemoryIsBounded();

private:
    static constexpr int Timeout = 15000;

    static QString uniqueKey(const char *what);
    static QString describeFailures(const QSignalSpy &failed);
};

namespace {

// A store on a keychain service, and a spy on each of its answers.
struct SpiedStore
{
    explicit SpiedStore(const QString &service)
        : store(service)
    {}
    SecretStore store;
    QSignalSpy stored{&store, &SecretStore::stored};
    QSignalSpy restored{&store, &SecretStore::restored};
    QSignalSpy removed{&store, &SecretStore::removed};
    QSignalSpy failed{&store, &SecretStore::failed};
};

} // namespace

QString tst_SecretStore::uniqueKey(const char *what)
{
    return QStringLiteral("server:tst_secretstore-%1-%2")
        .arg(QLatin1StringView(what))
        .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
}

QString tst_SecretStore::describeFailures(const QSignalSpy &failed)
{
    if (failed.isEmpty())
        return QStringLiteral("no answer from the keychain in time");
    QStringList messages;
    for (const QList<QVariant> &arguments : failed)
        messages << arguments.at(2).toString();
    return messages.join(QLatin1Char('\n'));
}

void tst_SecretStore::initTestCase()
{
    // What the stores remember (SettingsKey::KeychainAbsent) goes to a throwaway place.
    testsupport::useEmptyTestSettings("tst_secretstore");
}

void tst_SecretStore::init()
{
    const QByteArrayView function(QTest::currentTestFunction());
    if (function == "failureMessage" || function == "unreachableKeychainIsNoBackend" ||
        function == "absenceMemoryIsBounded")
        return;
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        QSKIP("No D-Bus session bus, so no Secret Service: run through tests/run-in-session "
              "(a private D-Bus session with an unlocked gnome-keyring).");
    if (qEnvironmentVariableIsEmpty("FOLIO_TEST_KEYRING"))
        QSKIP("Not inside tests/run-in-session: the keychain tests only use the throwaway keyring it "
              "starts, never your own.");
    // Whatever goes wrong, no warning may carry a token.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("tst-token")));
}

void tst_SecretStore::failureMessage_data()
{
    QTest::addColumn<SecretStore::Failure>("failure");
    QTest::addColumn<QString>("detail");
    QTest::addColumn<QStringList>("mentions");

    QTest::newRow("not_found_names_the_key")
        << SecretStore::Failure::NotFound << QStringLiteral("Entry not found")
        << QStringList{QStringLiteral("No token saved for server:demo")};
    QTest::newRow("no_backend_says_what_to_install")
        << SecretStore::Failure::NoBackend << QString()
        << QStringList{QStringLiteral("No keychain is available"), QStringLiteral("gnome-keyring"),
                       QStringLiteral("KWallet"), QStringLiteral("plain text")};
    QTest::newRow("access_denied_says_unlock")
        << SecretStore::Failure::AccessDenied << QString()
        << QStringList{QStringLiteral("denied"), QStringLiteral("server:demo"), QStringLiteral("unlock")};
    QTest::newRow("other_keeps_backend_detail")
        << SecretStore::Failure::Other << QStringLiteral("D-Bus said no")
        << QStringList{QStringLiteral("server:demo"), QStringLiteral("(D-Bus said no)")};
    // GLib's messages name D-Bus paths and interfaces: the user reads what happened in words.
    QTest::newRow("missing_collection_in_words")
        << SecretStore::Failure::Other
        << QStringLiteral("No such secret collection at path: /org/freedesktop/secrets/aliases/default")
        << QStringList{QStringLiteral("server:demo"), QStringLiteral("no default keyring")};
    QTest::newRow("locked_in_words") << SecretStore::Failure::Other
                                     << QStringLiteral("Cannot create an item in a locked collection")
                                     << QStringList{QStringLiteral("(the keyring is locked)")};
    QTest::newRow("no_backend_without_dbus_names")
        << SecretStore::Failure::NoBackend
        << QStringLiteral("The name org.freedesktop.secrets was not provided by any .service files")
        << QStringList{QStringLiteral("No keychain is available")};
}

void tst_SecretStore::failureMessage()
{
    QFETCH(SecretStore::Failure, failure);
    QFETCH(QString, detail);
    QFETCH(QStringList, mentions);

    const QString message = SecretStore::failureMessage(failure, QStringLiteral("server:demo"), detail);
    for (const QString &mention : std::as_const(mentions))
        QVERIFY2(message.contains(mention), qPrintable(message));
    if (failure == SecretStore::Failure::NotFound)
        QVERIFY2(!message.contains(detail), qPrintable(message));
    QVERIFY2(!message.contains(QStringLiteral("freedesktop")), qPrintable(message));
}

void tst_SecretStore::unreachableKeychainIsNoBackend()
{
    // A session bus address that leads nowhere: no keychain, and never the developer's own one.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray savedAddress = qgetenv("DBUS_SESSION_BUS_ADDRESS");
    const auto restore = qScopeGuard([&] { qputenv("DBUS_SESSION_BUS_ADDRESS", savedAddress); });
    qputenv("DBUS_SESSION_BUS_ADDRESS",
            "unix:path=" + QFile::encodeName(dir.filePath(QStringLiteral("no-bus"))));

    SecretStore store(QStringLiteral("Folio-test"));
    QSignalSpy stored(&store, &SecretStore::stored);
    QSignalSpy failed(&store, &SecretStore::failed);
    const QString key = uniqueKey("nobus");
    // An import's three secrets: one job runs, the others wait behind it, and when the keychain
    // is not there they fail with the same answer without being tried (a locked keyring the user
    // refuses to unlock would otherwise ask once per secret).
    store.store(key, QStringLiteral("tst-token-nobus"));
    store.store(key + QStringLiteral("-2"), QStringLiteral("tst-token-nobus"));
    store.read(key + QStringLiteral("-3"));
    QCOMPARE(store.waitingJobs(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(failed.size() == 3, Timeout);
    QVERIFY2(stored.isEmpty(), "stored without a keychain");
    QCOMPARE(store.waitingJobs(), 0);
    for (int i = 1; i < 3; ++i) {
        QCOMPARE(failed.at(i).at(0).toString(), key + QStringLiteral("-%1").arg(i + 1));
        QCOMPARE(failed.at(i).at(1).value<SecretStore::Failure>(), SecretStore::Failure::NoBackend);
    }
    const QList<QVariant> failure = failed.takeFirst();
    QCOMPARE(failure.at(0).toString(), key);
    QCOMPARE(failure.at(1).value<SecretStore::Failure>(), SecretStore::Failure::NoBackend);
    QVERIFY2(failure.at(2).toString().startsWith(QStringLiteral("No keychain is available")),
             qPrintable(failure.at(2).toString()));
    // In words: no bus address, socket path or D-Bus name reaches the user.
    QVERIFY2(!failure.at(2).toString().contains(QStringLiteral("no-bus")) &&
                 !failure.at(2).toString().contains(QStringLiteral("DBus")),
             qPrintable(failure.at(2).toString()));
}

void tst_SecretStore::storeReadRemove()
{
    SpiedStore spied(QStringLiteral("Folio-test"));
    auto &[store, stored, restored, removed, failed] = spied;
    const QString key = uniqueKey("roundtrip");
    const QString token = QStringLiteral("tst-token-\u00e9\u2603-") + key; // not only ASCII

    store.store(key, token);
    QVERIFY2(stored.wait(Timeout), qPrintable(describeFailures(failed)));
    QCOMPARE(stored.takeFirst().at(0).toString(), key);

    store.read(key);
    QVERIFY2(restored.wait(Timeout), qPrintable(describeFailures(failed)));
    const QList<QVariant> answer = restored.takeFirst();
    QCOMPARE(answer.at(0).toString(), key);
    QVERIFY2(answer.at(1).toString() == token, "the token read back differs from the one stored");

    store.remove(key);
    QVERIFY2(removed.wait(Timeout), qPrintable(describeFailures(failed)));
    QCOMPARE(removed.takeFirst().at(0).toString(), key);

    store.read(key);
    QVERIFY2(failed.wait(Timeout), restored.isEmpty() ? "no answer from the keychain in time"
                                                      : "the token is still there after remove()");
    QCOMPARE(failed.size(), 1);
    const QList<QVariant> failure = failed.takeFirst();
    QCOMPARE(failure.at(0).toString(), key);
    QCOMPARE(failure.at(1).value<SecretStore::Failure>(), SecretStore::Failure::NotFound);
    QCOMPARE(failure.at(2).toString(), SecretStore::failureMessage(SecretStore::Failure::NotFound, key));
    QVERIFY(restored.isEmpty());
}

void tst_SecretStore::storeReplaces()
{
    SpiedStore spied(QStringLiteral("Folio-test"));
    auto &[store, stored, restored, removed, failed] = spied;
    const QString key = uniqueKey("replace");

    store.store(key, QStringLiteral("tst-token-old"));
    store.store(key, QStringLiteral("tst-token-new"));
    QCOMPARE(store.waitingJobs(), 1); // one at a time, in the order asked: the later one wins
    QTRY_COMPARE_WITH_TIMEOUT(stored.size() + failed.size(), 2, Timeout);
    QVERIFY2(failed.isEmpty(), qPrintable(describeFailures(failed)));

    store.read(key);
    QVERIFY2(restored.wait(Timeout), qPrintable(describeFailures(failed)));
    QVERIFY2(restored.takeFirst().at(1).toString() == QStringLiteral("tst-token-new"),
             "the later store() did not replace the earlier token");

    store.remove(key);
    QVERIFY2(removed.wait(Timeout), qPrintable(describeFailures(failed)));
}

void tst_SecretStore::servicesAreSeparate()
{
    SpiedStore spied(QStringLiteral("Folio-test"));
    auto &[folio, stored, restored, removed, failed] = spied;
    SecretStore other(QStringLiteral("Folio-test-other"));
    QSignalSpy otherRestored(&other, &SecretStore::restored);
    QSignalSpy otherFailed(&other, &SecretStore::failed);
    const QString key = uniqueKey("service");

    folio.store(key, QStringLiteral("tst-token-service"));
    QVERIFY2(stored.wait(Timeout), qPrintable(describeFailures(failed)));

    other.read(key);
    QVERIFY2(otherFailed.wait(Timeout), otherRestored.isEmpty() ? "no answer from the keychain in time"
                                                                : "another service read Folio's token");
    QCOMPARE(otherFailed.takeFirst().at(1).value<SecretStore::Failure>(), SecretStore::Failure::NotFound);

    folio.remove(key);
    QVERIFY2(removed.wait(Timeout), qPrintable(describeFailures(failed)));
}

void tst_SecretStore::storeDeletedInFlight()
{
    // A window closed (or a command ended) while the keychain is still answering: the jobs outlive
    // their store, finish their work, and nobody is called back on a deleted object.
    const QString key = uniqueKey("inflight");
    {
        auto *gone = new SecretStore(QStringLiteral("Folio-test"));
        for (int i = 0; i < 8; ++i)
            gone->store(key, QStringLiteral("tst-token-inflight"));
        gone->read(key);
        delete gone;
    }
    // Another store's answers arrive after the deleted store's: its jobs were dispatched first.
    SpiedStore spied(QStringLiteral("Folio-test"));
    auto &[store, stored, restored, removed, failed] = spied;
    // The deleted store's writes may still be on their way: read until the token is there.
    QDeadlineTimer deadline(Timeout);
    while (restored.isEmpty() && !deadline.hasExpired()) {
        failed.clear();
        store.read(key);
        QTRY_VERIFY_WITH_TIMEOUT(!restored.isEmpty() || !failed.isEmpty(), Timeout);
    }
    QVERIFY2(!restored.isEmpty(), qPrintable(describeFailures(failed)));
    QCOMPARE(restored.first().at(1).toString(), QStringLiteral("tst-token-inflight"));
    store.remove(key);
    QVERIFY2(removed.wait(Timeout), qPrintable(describeFailures(failed)));
}

// A keychain that does not answer (a prompt nobody sees) must not hold every later job: after the
// stall time the next one starts. Each job still answers exactly once, whichever way it ran.
void tst_SecretStore::aStalledJobHoldsNoOneBack()
{
    SpiedStore spied(QStringLiteral("Folio-test"));
    auto &[store, stored, restored, removed, failed] = spied;
    store.setStallMs(1); // every job "stalls": the queue moves on at once
    const QString key = uniqueKey("stall");
    for (int i = 0; i < 3; ++i)
        store.store(key + QString::number(i), QStringLiteral("tst-token-stall"));
    QCOMPARE(store.waitingJobs(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(stored.size() + failed.size(), 3, Timeout);
    QVERIFY2(failed.isEmpty(), qPrintable(describeFailures(failed)));
    QCOMPARE(store.waitingJobs(), 0);
    QVERIFY(!stored.wait(200)); // no answer comes twice
    QCOMPARE(stored.size(), 3);
    for (int i = 0; i < 3; ++i)
        store.remove(key + QString::number(i));
    QTRY_COMPARE_WITH_TIMEOUT(removed.size() + failed.size(), 3, Timeout);
}

void tst_SecretStore::absenceIsRemembered()
{
    const QString key = uniqueKey("absent");
    const auto cleanUp = qScopeGuard([&] {
        SecretStore store(QStringLiteral("Folio-test"));
        QSignalSpy answered(&store, &SecretStore::removed);
        store.remove(key);
        answered.wait(Timeout);
    });

    SpiedStore spied(QStringLiteral("Folio-test"));
    auto &[store, stored, restored, removed, failed] = spied;
    store.setRemembersAbsence(true);
    QVERIFY(!store.isKnownAbsent(key));
    store.read(key);
    QVERIFY2(failed.wait(Timeout), "no answer from the keychain in time");
    QCOMPARE(failed.takeFirst().at(1).value<SecretStore::Failure>(), SecretStore::Failure::NotFound);
    QVERIFY(store.isKnownAbsent(key));
    // Only a hash of service and key reaches the settings.
    const QStringList ids = QSettings().value(SettingsKey::KeychainAbsent).toStringList();
    QVERIFY(!ids.isEmpty());
    for (const QString &id : ids)
        QVERIFY2(!id.contains(QStringLiteral("absent")) && id.size() == 32, qPrintable(id));
    // The same key of another service, or a store that does not remember, knows nothing of it.
    SecretStore otherService(QStringLiteral("Folio-test-other"));
    otherService.setRemembersAbsence(true);
    QVERIFY(!otherService.isKnownAbsent(key));
    SecretStore forgetful(QStringLiteral("Folio-test"));
    QVERIFY(!forgetful.isKnownAbsent(key));

    // A later start does not ask the keychain: a token put there behind the store's back (by a
    // store that does not remember) is not seen...
    QSignalSpy forgetfulStored(&forgetful, &SecretStore::stored);
    forgetful.store(key, QStringLiteral("tst-token-behind"));
    QVERIFY(forgetfulStored.wait(Timeout));
    QVERIFY(store.isKnownAbsent(key));
    store.read(key);
    QVERIFY(failed.wait(Timeout));
    QCOMPARE(failed.takeFirst().at(1).value<SecretStore::Failure>(), SecretStore::Failure::NotFound);
    QVERIFY(restored.isEmpty());

    // ... and a sign-in for that key's server is loaded at once, before load() returns.
    const QUrl url(QStringLiteral("http://127.0.0.1:9/") + key.mid(key.lastIndexOf(QLatin1Char('-')) + 1));
    SignInStore asked(url, &store);
    bool askedDone = false;
    asked.load([&] { askedDone = true; });
    QVERIFY2(!askedDone, "the first load waits for the keychain");
    QTRY_VERIFY_WITH_TIMEOUT(askedDone, Timeout);
    SignInStore atOnce(url, &store);
    bool atOnceDone = false;
    atOnce.load([&] { atOnceDone = true; });
    QVERIFY2(atOnceDone, "a sign-in known to be absent still waited for the keychain");
    QVERIFY(atOnce.isLoaded());

    // A store through the remembering store ends it: the next read asks and finds the token.
    store.store(key, QStringLiteral("tst-token-front"));
    QVERIFY2(stored.wait(Timeout), qPrintable(describeFailures(failed)));
    QVERIFY(!store.isKnownAbsent(key));
    store.read(key);
    QVERIFY2(restored.wait(Timeout), qPrintable(describeFailures(failed)));
    QVERIFY(restored.takeFirst().at(1).toString() == QStringLiteral("tst-token-front"));
    // And a remove makes it absent again.
    store.remove(key);
    QVERIFY2(removed.wait(Timeout), qPrintable(describeFailures(failed)));
    QVERIFY(store.isKnownAbsent(key));
}

void tst_SecretStore::absenceMemoryIsBounded()
{
    // No keychain needed: the memory follows the answers, whoever gives them.
    SecretStore store(QStringLiteral("Folio-test-bounded"));
    store.setRemembersAbsence(true);
    const int extra = 5;
    for (int i = 0; i < SecretStore::maxRememberedAbsent + extra; ++i) {
        const QString key = QStringLiteral("server:bounded-%1").arg(i);
        Q_EMIT store.failed(key, SecretStore::Failure::NotFound, QString());
    }
    QCOMPARE(QSettings().value(SettingsKey::KeychainAbsent).toStringList().size(),
             SecretStore::maxRememberedAbsent);
    // The oldest went first.
    QVERIFY(!store.isKnownAbsent(QStringLiteral("server:bounded-0")));
    QVERIFY(!store.isKnownAbsent(QStringLiteral("server:bounded-%1").arg(extra - 1)));
    QVERIFY(store.isKnownAbsent(QStringLiteral("server:bounded-%1").arg(extra)));
    // A refusal or a failure of another kind says nothing about what the keychain holds.
    Q_EMIT store.failed(QStringLiteral("server:refused"), SecretStore::Failure::AccessDenied, QString());
    Q_EMIT store.failed(QStringLiteral("server:nobackend"), SecretStore::Failure::NoBackend, QString());
    QVERIFY(!store.isKnownAbsent(QStringLiteral("server:refused")));
    QVERIFY(!store.isKnownAbsent(QStringLiteral("server:nobackend")));
}

QTEST_GUILESS_MAIN(tst_SecretStore)
#include "tst_secretstore.moc"
