#include "fakesecretstore.h"
#include "savedservers.h"
#include "serverimport.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "testsettings.h"
#include "ttlclock.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QHostAddress>
#include <QJsonDocument>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

namespace {

ServerConfig stdioServer(const QString &name, const QString &command = QStringLiteral("srv"))
{
    ServerConfig c = ServerConfig::process(command, {QStringLiteral("--flag")});
    c.name = name;
    return c;
}

ServerConfig httpServer(const QString &name, const QString &token)
{
    ServerConfig c = ServerConfig::remote(QUrl(QStringLiteral("http://127.0.0.1:9/mcp")));
    c.name = name;
    c.bearerToken = token; // typed in the dialog: not saved yet
    return c;
}

// The settings file as it is on disk: what another program, a backup or a sync tool would see.
QByteArray settingsFileBytes()
{
    QSettings settings;
    settings.sync();
    QFile file(settings.fileName());
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QStringList names(const QList<ServerConfig> &configs)
{
    QStringList n;
    for (const ServerConfig &c : configs)
        n << c.name;
    return n;
}

} // namespace

// The saved servers: the demo server first and fixed, add / rename / remove each saved at once
// (without secrets, without servers given on the command line), loaded back in order, names kept
// unique; QAbstractItemModelTester throughout.
class tst_ServerListModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void demoIsNamedByItsScenario();
    void modelTester();
    void demoServerIsFirstAndFixed();
    void addRenameRemove();
    void savedServersLoadBackInOrder();
    void savedServersKeepNoSecret();
    void uniqueName_data();
    void uniqueName();

    // Secrets: to the keychain, or held for this session only and said so.
    void tokenGoesToTheKeychain();
    void refusedTokenIsHeldForTheSession();
    void refusedTokenIsSentAtConnect();
    void refusedTokenIsSavedOnALaterTry();
    void importMovesSecretsToTheKeychain();
    void importRefusedHoldsEnvironmentForTheSession();
    void heldEnvironmentReachesTheProcess();
    void renameMovesSecrets();
    void removeForgetsSecrets();
    void fillSecretsSaysWhatIsMissing();

private:
    TtlClock *m_clock = nullptr;
    FakeSecretStore *m_keychain = nullptr;
    ServerListModel *m_model = nullptr;
    QAbstractItemModelTester *m_tester = nullptr;
};

void tst_ServerListModel::initTestCase()
{
    testsupport::useTestSettings("tst_serverlistmodel"); // emptied by init()
}

void tst_ServerListModel::init()
{
    QSettings().clear();
    m_clock = new TtlClock(this);
    m_keychain = new FakeSecretStore(QStringLiteral("Folio-test"), this);
    m_model = new ServerListModel(m_clock, m_keychain, this);
    m_tester =
        new QAbstractItemModelTester(m_model, QAbstractItemModelTester::FailureReportingMode::QtTest, this);
}

void tst_ServerListModel::cleanup()
{
    delete m_tester;
    delete m_model;
    delete m_keychain;
    delete m_clock;
    m_tester = nullptr;
    m_model = nullptr;
    m_keychain = nullptr;
    m_clock = nullptr;
}

// The demo entry says which scenario it runs; a server not yet connected goes by its config's name.
void tst_ServerListModel::demoIsNamedByItsScenario()
{
    m_model->setDemoServer(QStringLiteral("/bin/true"), {});
    QCOMPARE(m_model->index(0).data().toString(), QStringLiteral("demo (tour)"));
    m_model->setDemoServer(QStringLiteral("/bin/true"),
                           {QStringLiteral("--scenario"), QStringLiteral("healthy")});
    QCOMPARE(m_model->index(0).data().toString(), QStringLiteral("demo (healthy)"));
    ServerConfig named = stdioServer(QStringLiteral("node"));
    named.nameFromServer = true;
    const int row = m_model->addServer(named, /*persist=*/false);
    QCOMPARE(m_model->index(row).data().toString(), QStringLiteral("node"));
}

void tst_ServerListModel::modelTester()
{
    // Every change the model makes, under the tester's eye (attached in init()).
    m_model->setDemoServer(QStringLiteral("/bin/true"), {});
    m_model->addServer(stdioServer(QStringLiteral("a")));
    m_model->addServer(stdioServer(QStringLiteral("b")), /*persist=*/false);
    m_model->updateServer(1, stdioServer(QStringLiteral("a2")));
    m_model->setDemoServer(QStringLiteral("/bin/false"), {}); // replaced
    m_model->removeServer(2);
    m_model->setDemoServer(QString(), {}); // left out
    m_model->load();
    QCOMPARE(m_model->rowCount(), 2); // a2, and a2 loaded again from the settings
}

void tst_ServerListModel::demoServerIsFirstAndFixed()
{
    m_model->addServer(stdioServer(QStringLiteral("mine")));
    m_model->setDemoServer(QStringLiteral("/opt/demo"),
                           {QStringLiteral("--scenario"), QStringLiteral("tour")});
    QCOMPARE(m_model->rowCount(), 2);
    QVERIFY(m_model->isDemo(0));
    QVERIFY(!m_model->isDemo(1));
    QVERIFY(m_model->index(0).data(ServerListModel::IsDemoRole).toBool());
    QVERIFY(!m_model->index(1).data(ServerListModel::IsDemoRole).toBool());
    QCOMPARE(m_model->session(0)->config().command, QStringLiteral("/opt/demo"));

    // Neither renamed nor removed, and never saved.
    QSignalSpy changed(m_model, &QAbstractItemModel::dataChanged);
    m_model->updateServer(0, stdioServer(QStringLiteral("hijack")));
    m_model->removeServer(0);
    QCOMPARE(changed.size(), 0);
    QCOMPARE(m_model->rowCount(), 2);
    QCOMPARE(names(SavedServers::load()), QStringList{QStringLiteral("mine")});

    // Set again, it is replaced in place; set empty, it goes.
    m_model->setDemoServer(QStringLiteral("/opt/demo2"), {});
    QCOMPARE(m_model->rowCount(), 2);
    QCOMPARE(m_model->session(0)->config().command, QStringLiteral("/opt/demo2"));
    m_model->setDemoServer(QString(), {});
    QCOMPARE(m_model->rowCount(), 1);
    QVERIFY(!m_model->isDemo(0));
    QCOMPARE(m_model->index(0).data().toString(), QStringLiteral("mine"));
}

void tst_ServerListModel::addRenameRemove()
{
    const ServerConfig first = stdioServer(QStringLiteral("first"), QStringLiteral("/usr/bin/first"));
    QCOMPARE(m_model->addServer(first), 0);
    QCOMPARE(m_model->addServer(stdioServer(QStringLiteral("second"))), 1);
    const QModelIndex idx = m_model->index(0);
    QCOMPARE(idx.data().toString(), QStringLiteral("first"));
    QCOMPARE(idx.data(ServerListModel::TargetRole).toString(), first.displayTarget());
    QCOMPARE(idx.data(ServerListModel::StateRole).toInt(), int(McpClient::State::Disconnected));
    QCOMPARE(idx.data(ServerListModel::StateTextRole).toString(), QStringLiteral("disconnected"));
    QVERIFY(idx.data(Qt::ToolTipRole).toString().contains(first.displayTarget()));
    QCOMPARE(m_model->findByName(QStringLiteral("second")), 1);
    QCOMPARE(m_model->findByName(QStringLiteral("third")), -1);
    QCOMPARE(m_model->rowOf(m_model->session(1)), 1);
    QVERIFY(!m_model->session(2));
    QVERIFY(!m_model->session(-1));
    QCOMPARE(names(SavedServers::load()), (QStringList{QStringLiteral("first"), QStringLiteral("second")}));

    // Renamed: the row says so and the settings follow at once.
    QSignalSpy changed(m_model, &QAbstractItemModel::dataChanged);
    m_model->updateServer(0, stdioServer(QStringLiteral("renamed")));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.first().at(0).value<QModelIndex>(), m_model->index(0));
    QCOMPARE(m_model->index(0).data().toString(), QStringLiteral("renamed"));
    QCOMPARE(m_model->findByName(QStringLiteral("first")), -1);
    QCOMPARE(names(SavedServers::load()), (QStringList{QStringLiteral("renamed"), QStringLiteral("second")}));
    m_model->updateServer(5, stdioServer(QStringLiteral("nowhere"))); // no such row: nothing
    QCOMPARE(changed.size(), 1);

    // Removed: gone from the list and from the settings; its session goes later.
    QPointer<ServerSession> session = m_model->session(0);
    m_model->removeServer(0);
    QCOMPARE(m_model->rowCount(), 1);
    QCOMPARE(m_model->index(0).data().toString(), QStringLiteral("second"));
    QCOMPARE(names(SavedServers::load()), QStringList{QStringLiteral("second")});
    QTRY_VERIFY(session.isNull());
    m_model->removeServer(3); // no such row: nothing
    QCOMPARE(m_model->rowCount(), 1);
}

void tst_ServerListModel::savedServersLoadBackInOrder()
{
    m_model->addServer(stdioServer(QStringLiteral("one")));
    ServerConfig http = ServerConfig::remote(QUrl(QStringLiteral("https://example.test/mcp")));
    http.name = QStringLiteral("two");
    m_model->addServer(http);
    ServerConfig unnamed = stdioServer(QStringLiteral("three"));
    unnamed.nameFromServer = true; // the Add dialog's Name left empty
    m_model->addServer(unnamed);

    ServerListModel again(m_clock, nullptr);
    QAbstractItemModelTester tester(&again, QAbstractItemModelTester::FailureReportingMode::QtTest);
    again.setDemoServer(QStringLiteral("/opt/demo"), {});
    QSignalSpy inserted(&again, &QAbstractItemModel::rowsInserted);
    again.load();
    QCOMPARE(inserted.size(), 1);  // one batch
    QCOMPARE(again.rowCount(), 4); // after the demo server
    QCOMPARE(again.index(1).data().toString(), QStringLiteral("one"));
    QCOMPARE(again.index(2).data().toString(), QStringLiteral("two"));
    QVERIFY(again.session(2)->config().hasUrl());
    QCOMPARE(again.session(2)->config().url, http.url);
    QCOMPARE(again.index(3).data().toString(), QStringLiteral("three"));
    QVERIFY(again.session(3)->config().nameFromServer);
    QVERIFY(!again.session(1)->config().nameFromServer);
    QCOMPARE(again.session(1)->config().arguments, QStringList{QStringLiteral("--flag")});
}

void tst_ServerListModel::savedServersKeepNoSecret()
{
    m_model->setDemoServer(QStringLiteral("/bin/true"), {});
    ServerConfig http = ServerConfig::remote(QUrl(QStringLiteral("https://example.test/mcp")));
    http.name = QStringLiteral("remote");
    http.bearerToken = QStringLiteral("super-secret-token");
    http.tokenInKeychain = true;
    m_model->addServer(http);
    ServerConfig transient;
    transient.name = QStringLiteral("from-command-line");
    transient.command = QStringLiteral("srv");
    m_model->addServer(transient, /*persist=*/false);
    QCOMPARE(m_model->rowCount(), 3);

    const QByteArray stored = QSettings().value(QStringLiteral("servers")).toByteArray();
    QVERIFY(!stored.contains("super-secret-token"));
    QVERIFY(stored.contains("keychain"));
    QVERIFY(!stored.contains("from-command-line"));
    const QList<ServerConfig> loaded = SavedServers::load();
    QCOMPARE(loaded.size(), 1);
    QVERIFY(loaded.first().tokenInKeychain);
    QVERIFY(loaded.first().bearerToken.isEmpty());
    m_model->removeServer(1);
    QCOMPARE(SavedServers::load().size(), 0);
}

void tst_ServerListModel::uniqueName_data()
{
    QTest::addColumn<QStringList>("existing");
    QTest::addColumn<QString>("wish");
    QTest::addColumn<QString>("name");
    QTest::addRow("free_name_kept") << QStringList{QStringLiteral("a")} << "b"
                                    << "b";
    QTest::addRow("taken_name_numbered") << QStringList{QStringLiteral("remote")} << "remote"
                                         << "remote 2";
    QTest::addRow("next_free_number")
        << QStringList{QStringLiteral("x"), QStringLiteral("x 2"), QStringLiteral("x 3")} << "x"
        << "x 4";
    QTest::addRow("wish_trimmed") << QStringList{} << "  spaced  "
                                  << "spaced";
    QTest::addRow("empty_wish") << QStringList{} << "   "
                                << "server";
}

void tst_ServerListModel::uniqueName()
{
    QFETCH(QStringList, existing);
    QFETCH(QString, wish);
    QFETCH(QString, name);
    for (const QString &n : existing)
        m_model->addServer(stdioServer(n), /*persist=*/false);
    QCOMPARE(m_model->uniqueName(wish), name);
}

void tst_ServerListModel::tokenGoesToTheKeychain()
{
    const QString token = QStringLiteral("tst-token-saved-0123456789");
    const int row = m_model->addServer(httpServer(QStringLiteral("remote"), token));
    QTRY_VERIFY(m_model->session(row)->config().tokenInKeychain);
    QCOMPARE(m_keychain->entries.value(QStringLiteral("server:remote")), token);
    // Read again at connect, not kept in memory; nothing to say about it.
    QVERIFY(m_model->session(row)->config().bearerToken.isEmpty());
    QVERIFY(m_model->index(row).data(ServerListModel::SecretNoteRole).toString().isEmpty());
    const QByteArray file = settingsFileBytes();
    QVERIFY(!file.isEmpty());
    QVERIFY(!file.contains(token.toUtf8()));
    QVERIFY(SavedServers::load().first().tokenInKeychain);
}

void tst_ServerListModel::refusedTokenIsHeldForTheSession()
{
    m_keychain->refuse = SecretStore::Failure::NoBackend;
    QSignalSpy refused(m_model, &ServerListModel::keychainRefused);
    const QString token = QStringLiteral("tst-token-refused-0123456789");
    const int row = m_model->addServer(httpServer(QStringLiteral("remote"), token));
    QVERIFY(refused.wait());
    QCOMPARE(refused.size(), 1);
    QCOMPARE(refused.first().at(0).toInt(), row);

    // Said plainly: what is kept where, and the keychain's own reason.
    const QString message = refused.first().at(1).toString();
    QVERIFY2(message.contains(QStringLiteral("token kept for this session only — the keychain refused it: "
                                             "No keychain is available")),
             qPrintable(message));
    QVERIFY2(!message.contains(token), "the message shows the token");
    const QString note = m_model->index(row).data(ServerListModel::SecretNoteRole).toString();
    QVERIFY2(note.startsWith(QStringLiteral("token kept for this session only")), qPrintable(note));
    QVERIFY(m_model->index(row).data(Qt::ToolTipRole).toString().contains(note));

    // Held for the session, and never claimed to be in the keychain.
    const ServerConfig held = m_model->session(row)->config();
    QVERIFY(held.tokenHeld());
    QCOMPARE(held.bearerToken, token);
    QVERIFY(!held.tokenInKeychain);
    const QByteArray file = settingsFileBytes();
    QVERIFY(!file.isEmpty());
    QVERIFY2(!file.contains(token.toUtf8()), file.constData());
    QVERIFY2(!file.contains("keychain"), file.constData());
    QVERIFY(!SavedServers::load().first().tokenInKeychain);
}

void tst_ServerListModel::refusedTokenIsSentAtConnect()
{
    // A real socket on loopback that takes the first request: the held token goes on it.
    QTcpServer http;
    QVERIFY(http.listen(QHostAddress::LocalHost));
    m_keychain->refuse = SecretStore::Failure::AccessDenied;
    QSignalSpy refused(m_model, &ServerListModel::keychainRefused);
    const QString token = QStringLiteral("tst-token-sent-0123456789");
    ServerConfig c = httpServer(QStringLiteral("remote"), token);
    c.url.setPort(http.serverPort());
    const int row = m_model->addServer(c);
    QVERIFY(refused.wait());

    m_model->session(row)->connectToServer();
    QTRY_VERIFY(http.hasPendingConnections());
    QTcpSocket *socket = http.nextPendingConnection();
    QVERIFY(socket);
    QByteArray request;
    connect(socket, &QTcpSocket::readyRead, this, [&] { request += socket->readAll(); });
    request += socket->readAll();
    QTRY_VERIFY(request.contains("\r\n\r\n"));
    QVERIFY2(request.toLower().contains("authorization: bearer " + token.toUtf8()), request.constData());
    socket->abort();
    m_model->session(row)->disconnectFromServer();
}

void tst_ServerListModel::refusedTokenIsSavedOnALaterTry()
{
    m_keychain->refuse = SecretStore::Failure::Other;
    QSignalSpy refused(m_model, &ServerListModel::keychainRefused);
    const QString token = QStringLiteral("tst-token-later-0123456789");
    const int row = m_model->addServer(httpServer(QStringLiteral("remote"), token));
    QVERIFY(refused.wait());

    // Saved again as the edit dialog hands it back untouched: the keychain is tried again.
    m_keychain->refuse.reset();
    m_model->updateServer(row, m_model->session(row)->config());
    QTRY_VERIFY(m_model->session(row)->config().tokenInKeychain);
    QCOMPARE(m_keychain->entries.value(QStringLiteral("server:remote")), token);
    QVERIFY(m_model->index(row).data(ServerListModel::SecretNoteRole).toString().isEmpty());
    QVERIFY(m_model->session(row)->config().keychainRefusal.isEmpty());
    QCOMPARE(refused.size(), 1);
}

void tst_ServerListModel::importMovesSecretsToTheKeychain()
{
    const ServerImport imported = ServerImport::parse(R"({"mcpServers":{
        "remote":{"url":"https://example.test/mcp",
                  "headers":{"Authorization":"Bearer tst-secret-bearer-0123456789","X-Team":"blue"}},
        "local":{"command":"npx","args":["-y","pkg"],
                 "env":{"GITHUB_TOKEN":"tst-secret-ghp-0123456789","openai_api_key":"tst-secret-sk-0123456789",
                        "DB_Password":"tst-secret-pw-0123456789","CLIENT_SECRET":"tst-secret-cs-0123456789",
                        "DEBUG":"verbose-1","REF_TOKEN":"${input:ref}"}}}})");
    QVERIFY2(imported.error.isEmpty(), qPrintable(imported.error));
    QCOMPARE(imported.entries.size(), 2);
    for (const ServerImport::Entry &e : imported.entries)
        m_model->addServer(e.config);
    QTRY_COMPARE(m_keychain->entries.size(), 5);
    QTRY_VERIFY(m_model->index(0).data(ServerListModel::SecretNoteRole).toString().isEmpty() &&
                m_model->index(1).data(ServerListModel::SecretNoteRole).toString().isEmpty());

    const QByteArray file = settingsFileBytes();
    QVERIFY(!file.isEmpty());
    QVERIFY2(!file.contains("tst-secret"), file.constData());
    QVERIFY(file.contains("GITHUB_TOKEN")); // the name stays, marked as in the keychain
    QVERIFY(file.contains("envInKeychain"));
    QVERIFY(file.contains("verbose-1"));    // not a secret
    QVERIFY(file.contains("${input:ref}")); // a reference, no secret itself
    QVERIFY(file.contains("X-Team"));

    const QList<ServerConfig> saved = SavedServers::load();
    const ServerConfig local = saved.at(0).name == QLatin1String("local") ? saved.at(0) : saved.at(1);
    const ServerConfig remote = saved.at(0).name == QLatin1String("remote") ? saved.at(0) : saved.at(1);
    QVERIFY(remote.tokenInKeychain);
    QCOMPARE(remote.headers.size(), 1); // no Authorization header left
    QCOMPARE(remote.headers.first().first, QByteArray("X-Team"));
    QStringList inKeychain = local.envInKeychain;
    inKeychain.sort();
    QCOMPARE(inKeychain, (QStringList{QStringLiteral("CLIENT_SECRET"), QStringLiteral("DB_Password"),
                                      QStringLiteral("GITHUB_TOKEN"), QStringLiteral("openai_api_key")}));
    QCOMPARE(m_keychain->entries.value(local.envSecretKey(QStringLiteral("GITHUB_TOKEN"))),
             QStringLiteral("tst-secret-ghp-0123456789"));
    QCOMPARE(m_keychain->entries.value(remote.secretKey()), QStringLiteral("tst-secret-bearer-0123456789"));

    // Not in memory either: filled back in at connect only.
    const int localRow = m_model->findByName(QStringLiteral("local"));
    QVERIFY(!m_model->session(localRow)->config().environment.contains(QStringLiteral("GITHUB_TOKEN")));
    ServerConfig atConnect;
    bool done = false;
    fillSecrets(m_keychain, m_model->session(localRow)->config(), this,
                [&](const ServerConfig &config, const QList<SecretGap> &gaps) {
                    QVERIFY2(gaps.isEmpty(), qPrintable(gaps.isEmpty() ? QString() : gaps.first().message));
                    atConnect = config;
                    done = true;
                });
    QTRY_VERIFY(done);
    QCOMPARE(atConnect.environment.value(QStringLiteral("GITHUB_TOKEN")),
             QStringLiteral("tst-secret-ghp-0123456789"));
    QCOMPARE(atConnect.environment.value(QStringLiteral("DEBUG")), QStringLiteral("verbose-1"));
    // Filled in, the config still saves none of them.
    QVERIFY(!QJsonDocument(atConnect.toJson()).toJson().contains("tst-secret"));
}

void tst_ServerListModel::importRefusedHoldsEnvironmentForTheSession()
{
    m_keychain->refuse = SecretStore::Failure::NoBackend;
    QSignalSpy refused(m_model, &ServerListModel::keychainRefused);
    const ServerImport imported = ServerImport::parse(
        R"({"mcpServers":{"local":{"command":"srv","env":{"API_KEY":"tst-secret-key-0123456789","DEBUG":"1"}}}})");
    const int row = m_model->addServer(imported.entries.first().config);
    QVERIFY(refused.wait());
    QVERIFY2(refused.first().at(1).toString().contains(
                 QStringLiteral("API_KEY kept for this session only — the keychain refused it")),
             qPrintable(refused.first().at(1).toString()));
    const ServerConfig held = m_model->session(row)->config();
    QCOMPARE(held.envHeld, QStringList{QStringLiteral("API_KEY")});
    QVERIFY(held.envInKeychain.isEmpty()); // never claimed
    QCOMPARE(held.environment.value(QStringLiteral("API_KEY")), QStringLiteral("tst-secret-key-0123456789"));
    const QByteArray file = settingsFileBytes();
    QVERIFY(!file.isEmpty());
    QVERIFY2(!file.contains("tst-secret"), file.constData());
    QVERIFY2(!file.contains("envInKeychain"), file.constData());
}

void tst_ServerListModel::heldEnvironmentReachesTheProcess()
{
    // The server is a shell that writes the variable it was given: the held value is used.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("seen"));
    m_keychain->refuse = SecretStore::Failure::NoBackend;
    QSignalSpy refused(m_model, &ServerListModel::keychainRefused);
    ServerConfig c = stdioServer(QStringLiteral("shell"), QStringLiteral("/bin/sh"));
    c.arguments = {QStringLiteral("-c"), QStringLiteral("printf %s \"$API_KEY\" > \"$OUT\"")};
    c.environment = {{QStringLiteral("API_KEY"), QStringLiteral("tst-secret-env-0123456789")},
                     {QStringLiteral("OUT"), out}};
    const int row = m_model->addServer(c);
    QVERIFY(refused.wait());
    m_model->session(row)->connectToServer();
    QTRY_VERIFY(QFile::exists(out) && QFile(out).size() > 0);
    QFile seen(out);
    QVERIFY(seen.open(QIODevice::ReadOnly));
    QCOMPARE(seen.readAll(), QByteArray("tst-secret-env-0123456789"));
    m_model->session(row)->disconnectFromServer();
}

void tst_ServerListModel::renameMovesSecrets()
{
    ServerConfig c = stdioServer(QStringLiteral("old"));
    c.environment.insert(QStringLiteral("API_KEY"), QStringLiteral("tst-secret-move-0123456789"));
    const int row = m_model->addServer(c);
    QTRY_COMPARE(m_model->session(row)->config().envInKeychain, QStringList{QStringLiteral("API_KEY")});
    ServerConfig renamed = m_model->session(row)->config();
    renamed.name = QStringLiteral("new");
    m_model->updateServer(row, renamed);
    const QString newKey = renamed.envSecretKey(QStringLiteral("API_KEY"));
    QTRY_COMPARE(m_keychain->entries.keys(), QStringList{newKey});
    QCOMPARE(m_keychain->entries.value(newKey), QStringLiteral("tst-secret-move-0123456789"));
    QTRY_VERIFY(m_model->index(row).data(ServerListModel::SecretNoteRole).toString().isEmpty());
    QCOMPARE(m_model->session(row)->config().envInKeychain, QStringList{QStringLiteral("API_KEY")});

    // A variable left out of the edit is gone from the keychain too.
    ServerConfig without = m_model->session(row)->config();
    without.envInKeychain.clear();
    m_model->updateServer(row, without);
    QTRY_VERIFY(m_keychain->entries.isEmpty());
}

void tst_ServerListModel::removeForgetsSecrets()
{
    m_model->addServer(httpServer(QStringLiteral("remote"), QStringLiteral("tst-token-remove-0123456789")));
    ServerConfig local = stdioServer(QStringLiteral("local"));
    local.environment.insert(QStringLiteral("SECRET"), QStringLiteral("tst-secret-remove-0123456789"));
    m_model->addServer(local);
    QTRY_COMPARE(m_keychain->entries.size(), 2);
    QTRY_VERIFY(m_model->session(0)->config().tokenInKeychain);
    QTRY_VERIFY(!m_model->session(1)->config().envInKeychain.isEmpty());
    m_model->removeServer(1);
    m_model->removeServer(0);
    QTRY_VERIFY(m_keychain->entries.isEmpty());
}

void tst_ServerListModel::fillSecretsSaysWhatIsMissing()
{
    ServerConfig c = stdioServer(QStringLiteral("local"));
    c.envInKeychain = {QStringLiteral("API_KEY")};
    QList<SecretGap> said;
    bool done = false;
    fillSecrets(m_keychain, c, this, [&](const ServerConfig &config, const QList<SecretGap> &gaps) {
        QVERIFY(!config.environment.contains(QStringLiteral("API_KEY")));
        said = gaps;
        done = true;
    });
    QTRY_VERIFY(done);
    QCOMPARE(said.size(), 1);
    QCOMPARE(said.first().variable, QStringLiteral("API_KEY"));
    QVERIFY(said.first().notFound);
    QVERIFY2(said.first().message.contains(QStringLiteral("API_KEY")) &&
                 said.first().message.contains(QStringLiteral("local")),
             qPrintable(said.first().message));

    // Nothing to read: answered at once.
    done = false;
    fillSecrets(m_keychain, stdioServer(QStringLiteral("plain")), this,
                [&](const ServerConfig &, const QList<SecretGap> &gaps) { done = gaps.isEmpty(); });
    QVERIFY(done);
}

QTEST_GUILESS_MAIN(tst_ServerListModel)
#include "tst_serverlistmodel.moc"
