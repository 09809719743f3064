// A saved server is one thing for the window and the command line: the same entry, started with
// the same environment, its secret values filled from the same keychain (issue 28, "saved servers
// and their credentials"). The real folio binary runs `folio list --server NAME`; the window's
// ServerListModel starts the same entry in this process; a shell in front of the demo server
// writes what it was given.

#include "savedservers.h"
#include "secretstore.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "ttlclock.h"

#include "fixtureprocess.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace folio;

using fixtureprocess::demoServer;
using fixtureprocess::folioBinary;

class tst_SavedServers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_config.isValid());
        // This process reads and writes the settings folio reads: $XDG_CONFIG_HOME/Folio/Folio.conf.
        QCoreApplication::setOrganizationName(QStringLiteral("Folio"));
        QCoreApplication::setApplicationName(QStringLiteral("Folio"));
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_config.path());
        m_name = QStringLiteral("tst-savedservers-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    }

    void cleanupTestCase()
    {
        if (!m_keychainKey.isEmpty()) {
            SecretStore keychain;
            QSignalSpy answered(&keychain, &SecretStore::removed);
            QSignalSpy failed(&keychain, &SecretStore::failed);
            keychain.remove(m_keychainKey);
            QTRY_VERIFY(answered.size() + failed.size() > 0);
        }
    }

    void commandLineAndWindowStartTheSameEnvironment()
    {
        // A stdio server with a plain variable and a secret one, whose value is in the keychain
        // only (as the window saves an imported GITHUB_TOKEN).
        const QString dump = m_config.filePath(QStringLiteral("environment.txt"));
        ServerConfig saved = ServerConfig::process(QStringLiteral("/bin/sh"));
        saved.name = m_name;
        saved.arguments = {
            QStringLiteral("-c"),
            QStringLiteral("printf '%s|%s\\n' \"$FOLIO_TEST_SECRET_TOKEN\" \"$FOLIO_TEST_PLAIN\" "
                           "> \"$0\"; exec \"$@\""),
            dump,
            demoServer,
            QStringLiteral("--scenario"),
            QStringLiteral("healthy")};
        saved.environment.insert(QStringLiteral("FOLIO_TEST_PLAIN"), QStringLiteral("plain-1"));
        saved.envInKeychain = {QStringLiteral("FOLIO_TEST_SECRET_TOKEN")};
        SavedServers::save({saved});
        {
            QFile settings(m_config.filePath(QStringLiteral("Folio/Folio.conf")));
            QVERIFY(settings.open(QIODevice::ReadOnly));
            QVERIFY(settings.readAll().contains(m_name.toUtf8())); // where folio looks
        }

        const QString secret = QStringLiteral("tst-secret-") + QUuid::createUuid().toString(QUuid::Id128);
        {
            SecretStore keychain;
            QSignalSpy stored(&keychain, &SecretStore::stored);
            QSignalSpy failed(&keychain, &SecretStore::failed);
            keychain.store(saved.envSecretKey(QStringLiteral("FOLIO_TEST_SECRET_TOKEN")), secret);
            QTRY_VERIFY_WITH_TIMEOUT(stored.size() + failed.size() > 0, 15000);
            if (!failed.isEmpty())
                QSKIP(qPrintable(QStringLiteral("no keychain here: ") + failed.first().at(2).toString()));
            m_keychainKey = saved.envSecretKey(QStringLiteral("FOLIO_TEST_SECRET_TOKEN"));
        }
        const QByteArray expected = secret.toUtf8() + "|plain-1\n";

        // The command line.
        QProcess folio;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_config.path());
        folio.setProcessEnvironment(env);
        folio.start(folioBinary, {QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--server"),
                                  m_name, QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY(folio.waitForFinished(60000));
        const QByteArray err = folio.readAllStandardError();
        QVERIFY2(folio.exitCode() == 0, err.constData());
        QVERIFY2(!err.contains(secret.toUtf8()), err.constData());
        QCOMPARE(readAndRemove(dump), expected);

        // The window: the same entry, loaded and connected by the server list.
        TtlClock clock;
        SecretStore keychain;
        ServerListModel servers(&clock, &keychain);
        servers.load();
        const int row = servers.findByName(m_name);
        QVERIFY(row >= 0);
        ServerSession *session = servers.session(row);
        QVERIFY(session->config().environment.value(QStringLiteral("FOLIO_TEST_SECRET_TOKEN")).isEmpty());
        session->connectToServer();
        QTRY_COMPARE_WITH_TIMEOUT(session->state(), McpClient::State::Connected, 30000);
        QCOMPARE(readAndRemove(dump), expected);
        session->disconnectFromServer();
    }

private:
    static QByteArray readAndRemove(const QString &path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return {};
        const QByteArray bytes = file.readAll();
        file.remove();
        return bytes;
    }

    QTemporaryDir m_config;
    QString m_name;
    QString m_keychainKey;
};

QTEST_GUILESS_MAIN(tst_SavedServers)
#include "tst_savedservers.moc"
