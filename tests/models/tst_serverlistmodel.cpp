#include "serverlistmodel.h"
#include "serversession.h"
#include "ttlclock.h"

#include <QAbstractItemModelTester>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace folio;

namespace {

ServerConfig stdioServer(const QString &name, const QString &command = QStringLiteral("srv"))
{
    ServerConfig c;
    c.name = name;
    c.kind = ServerConfig::Kind::Stdio;
    c.command = command;
    c.arguments = {QStringLiteral("--flag")};
    return c;
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

private:
    TtlClock *m_clock = nullptr;
    ServerListModel *m_model = nullptr;
    QAbstractItemModelTester *m_tester = nullptr;
};

void tst_ServerListModel::initTestCase()
{
    // The settings of a test profile, never the user's.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_serverlistmodel"));
}

void tst_ServerListModel::init()
{
    QSettings().clear();
    m_clock = new TtlClock(this);
    m_model = new ServerListModel(m_clock, nullptr, this);
    m_tester =
        new QAbstractItemModelTester(m_model, QAbstractItemModelTester::FailureReportingMode::QtTest, this);
}

void tst_ServerListModel::cleanup()
{
    delete m_tester;
    delete m_model;
    delete m_clock;
    m_tester = nullptr;
    m_model = nullptr;
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
    QCOMPARE(names(ServerListModel::loadSaved()), QStringList{QStringLiteral("mine")});

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
    QCOMPARE(names(ServerListModel::loadSaved()),
             (QStringList{QStringLiteral("first"), QStringLiteral("second")}));

    // Renamed: the row says so and the settings follow at once.
    QSignalSpy changed(m_model, &QAbstractItemModel::dataChanged);
    m_model->updateServer(0, stdioServer(QStringLiteral("renamed")));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.first().at(0).value<QModelIndex>(), m_model->index(0));
    QCOMPARE(m_model->index(0).data().toString(), QStringLiteral("renamed"));
    QCOMPARE(m_model->findByName(QStringLiteral("first")), -1);
    QCOMPARE(names(ServerListModel::loadSaved()),
             (QStringList{QStringLiteral("renamed"), QStringLiteral("second")}));
    m_model->updateServer(5, stdioServer(QStringLiteral("nowhere"))); // no such row: nothing
    QCOMPARE(changed.size(), 1);

    // Removed: gone from the list and from the settings; its session goes later.
    QPointer<ServerSession> session = m_model->session(0);
    m_model->removeServer(0);
    QCOMPARE(m_model->rowCount(), 1);
    QCOMPARE(m_model->index(0).data().toString(), QStringLiteral("second"));
    QCOMPARE(names(ServerListModel::loadSaved()), QStringList{QStringLiteral("second")});
    QTRY_VERIFY(session.isNull());
    m_model->removeServer(3); // no such row: nothing
    QCOMPARE(m_model->rowCount(), 1);
}

void tst_ServerListModel::savedServersLoadBackInOrder()
{
    m_model->addServer(stdioServer(QStringLiteral("one")));
    ServerConfig http;
    http.name = QStringLiteral("two");
    http.kind = ServerConfig::Kind::Http;
    http.url = QUrl(QStringLiteral("https://example.test/mcp"));
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
    QCOMPARE(again.session(2)->config().kind, ServerConfig::Kind::Http);
    QCOMPARE(again.session(2)->config().url, http.url);
    QCOMPARE(again.index(3).data().toString(), QStringLiteral("three"));
    QVERIFY(again.session(3)->config().nameFromServer);
    QVERIFY(!again.session(1)->config().nameFromServer);
    QCOMPARE(again.session(1)->config().arguments, QStringList{QStringLiteral("--flag")});
}

void tst_ServerListModel::savedServersKeepNoSecret()
{
    m_model->setDemoServer(QStringLiteral("/bin/true"), {});
    ServerConfig http;
    http.name = QStringLiteral("remote");
    http.kind = ServerConfig::Kind::Http;
    http.url = QUrl(QStringLiteral("https://example.test/mcp"));
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
    const QList<ServerConfig> loaded = ServerListModel::loadSaved();
    QCOMPARE(loaded.size(), 1);
    QVERIFY(loaded.first().tokenInKeychain);
    QVERIFY(loaded.first().bearerToken.isEmpty());
    m_model->removeServer(1);
    QCOMPARE(ServerListModel::loadSaved().size(), 0);
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

QTEST_GUILESS_MAIN(tst_ServerListModel)
#include "tst_serverlistmodel.moc"
