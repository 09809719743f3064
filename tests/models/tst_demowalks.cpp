#include "mcpclient.h"
#include "pagedlistmodel.h"
#include "ttlclock.h"
#include "walkall.h"

#include <QSignalSpy>
#include <QTest>

using namespace folio;

// The engine walking the real demo server over stdio: each scenario's bug must surface as exactly
// the findings it stands for, and the healthy lists as none (docs/demo-server.md is the contract).
class tst_DemoWalks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void scenarios_data();
    void scenarios();
    void legacyEraHasNoHintsAndNoFindings();
    void expiredCursorRefetchDiscardsAndRestarts();
    void listToolWalk();
    void listChangedRestartsTheWalk_data();
    void listChangedRestartsTheWalk();

private:
    McpClient *connectDemo(const QStringList &args, const QString &revision = {});
    bool walk(PagedListModel &model);
};

McpClient *tst_DemoWalks::connectDemo(const QStringList &args, const QString &revision)
{
    auto *client = new McpClient(this);
    ServerConfig c;
    c.name = QStringLiteral("demo");
    c.command = QStringLiteral(FOLIO_DEMO_SERVER);
    c.arguments = args;
    c.pinnedRevision = revision;
    c.requestTimeoutMs = 10000;
    client->setConfig(c);
    QSignalSpy connected(client, &McpClient::connected);
    client->connectToServer();
    if (!connected.wait(10000))
        qWarning() << "could not connect:" << client->lastError().describe();
    return client;
}

bool tst_DemoWalks::walk(PagedListModel &model)
{
    return testsupport::walkAll(model, 30000);
}

void tst_DemoWalks::scenarios_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("list");
    QTest::addColumn<QStringList>("findings"); // distinct ids expected
    QTest::addColumn<bool>("completes");
    QTest::addColumn<int>("rows"); // -1: do not check

    QTest::addRow("healthy_tools") << "healthy"
                                   << "tools" << QStringList{} << true << 123;
    QTest::addRow("healthy_templates") << "healthy"
                                       << "templates" << QStringList{} << true << 20;
    QTest::addRow("tour_tools_ttl_varies") << "tour"
                                           << "tools" << QStringList{} << true << 123;
    QTest::addRow("tour_prompts_empty_string_cursor") << "tour"
                                                      << "prompts" << QStringList{} << true << 30;
    QTest::addRow("tour_templates_cursor_cycle")
        << "tour"
        << "templates" << QStringList{QStringLiteral("cursor-repeated")} << false << -1;
    QTest::addRow("empty_string_cursor") << "empty-string-cursor"
                                         << "tools" << QStringList{} << true << 123;
    QTest::addRow("cursor_cycle") << "cursor-cycle"
                                  << "tools" << QStringList{QStringLiteral("cursor-repeated")} << false << -1;
    QTest::addRow("cursor_never_advances")
        << "cursor-never-advances"
        << "tools" << QStringList{QStringLiteral("cursor-repeated")} << false << 40;
    QTest::addRow("empty_cursor_forever")
        << "empty-cursor-forever"
        << "tools" << QStringList{QStringLiteral("cursor-repeated")} << false << 40;
    QTest::addRow("duplicates") << "duplicates"
                                << "tools" << QStringList{QStringLiteral("duplicate-item")} << true << 144;
    QTest::addRow("scope_mismatch") << "scope-mismatch"
                                    << "tools" << QStringList{QStringLiteral("scope-mismatch")} << true
                                    << 123;
    QTest::addRow("hints_missing") << "hints-missing"
                                   << "tools" << QStringList{QStringLiteral("cache-hints-missing")} << true
                                   << 123;
    QTest::addRow("hints_invalid") << "hints-invalid"
                                   << "tools"
                                   << QStringList{QStringLiteral("scope-invalid"),
                                                  QStringLiteral("ttl-invalid")}
                                   << true << 123;
    QTest::addRow("error_mid_list") << "error-mid-list"
                                    << "tools" << QStringList{QStringLiteral("page-error")} << false << 40;
    QTest::addRow("bad_cursor_restarts_passes_a_plain_walk") << "bad-cursor-restarts"
                                                             << "tools" << QStringList{} << true << 123;
    QTest::addRow("scope_private") << "scope-private"
                                   << "prompts" << QStringList{} << true << 30;
}

void tst_DemoWalks::scenarios()
{
    QFETCH(QString, scenario);
    QFETCH(QString, list);
    QFETCH(QStringList, findings);
    QFETCH(bool, completes);
    QFETCH(int, rows);
    McpClient *client = connectDemo({QStringLiteral("--scenario"), scenario});
    QCOMPARE(client->state(), McpClient::State::Connected);
    QCOMPARE(client->protocolVersion(), QStringLiteral("2026-07-28"));
    TtlClock clock;
    PagedListModel model(client, ListSource::protocol(*listKindFromName(list)), &clock);
    QVERIFY(walk(model));
    QSet<QString> ids;
    for (const Finding &f : model.walker()->findings())
        ids.insert(f.id);
    QStringList got = ids.values();
    got.sort();
    findings.sort();
    QCOMPARE(got, findings);
    QCOMPARE(model.walker()->isComplete(), completes);
    if (rows >= 0)
        QCOMPARE(model.rowCount(), rows);
    // Every modern page was judged against its hints, as received.
    for (const PageRecord &p : model.ledger()->pages())
        QVERIFY(p.hintsExpected || p.state == PageRecord::State::Failed);
    client->disconnectFromServer();
}

void tst_DemoWalks::legacyEraHasNoHintsAndNoFindings()
{
    McpClient *client = connectDemo({QStringLiteral("--scenario"), QStringLiteral("healthy"),
                                     QStringLiteral("--era"), QStringLiteral("legacy")});
    QCOMPARE(client->protocolVersion(), QStringLiteral("2025-11-25"));
    TtlClock clock;
    PagedListModel model(client, ListSource::protocol(ListKind::Tools), &clock);
    QVERIFY(walk(model));
    QVERIFY(model.walker()->isComplete());
    QCOMPARE(model.rowCount(), 123);
    QVERIFY(model.walker()->findings().isEmpty());
    for (const PageRecord &p : model.ledger()->pages()) {
        QVERIFY(p.legacyEra);
        QVERIFY(!p.hints.hasTtl);
        QCOMPARE(p.state, PageRecord::State::Stale);
    }
    client->disconnectFromServer();
}

void tst_DemoWalks::expiredCursorRefetchDiscardsAndRestarts()
{
    McpClient *client =
        connectDemo({QStringLiteral("--scenario"), QStringLiteral("healthy"), QStringLiteral("--list"),
                     QStringLiteral("tools=expiring,expireAfterMs=300")});
    TtlClock clock;
    PagedListModel model(client, ListSource::protocol(ListKind::Tools), &clock);
    QVERIFY(walk(model));
    const QList<int> pages = model.walker()->walkPageRows();
    QVERIFY(pages.size() > 2);
    QTest::qSleep(400); // let the server-side cursor lifetime pass (the server's clock, not ours)
    QSignalSpy restarted(model.walker(), &PageWalker::walkRestarted);
    model.walker()->refetchPage(pages.at(2));
    QVERIFY(restarted.wait(10000));
    QVERIFY(restarted.first().at(0).toString().contains(QStringLiteral("-32602")));
    const PageRecord &refused = model.ledger()->page(pages.at(2));
    QCOMPARE(refused.state, PageRecord::State::Discarded);
    QCOMPARE(refused.error.code, -32602);
    QVERIFY(!refused.discardReason.isEmpty());
    client->disconnectFromServer();
}

void tst_DemoWalks::listToolWalk()
{
    McpClient *client = connectDemo({QStringLiteral("--scenario"), QStringLiteral("healthy")});
    TtlClock clock;
    PagedListModel tools(client, ListSource::protocol(ListKind::Tools), &clock);
    QVERIFY(walk(tools));
    std::optional<ListSource> users;
    for (int row = 0; row < tools.rowCount() && !users; ++row) {
        const QJsonObject tool = tools.item(row);
        if (tool.value(QStringLiteral("name")).toString() == QLatin1String("list_users"))
            users = ListSource::fromTool(tool);
    }
    QVERIFY(users.has_value());
    QCOMPARE(users->cursorArgument(), QStringLiteral("cursor"));
    QCOMPARE(users->limitArgument(), QStringLiteral("limit"));
    QVERIFY(users->isReadOnly());
    users->setLimit(200);
    PagedListModel model(client, *users, &clock);
    QVERIFY(walk(model));
    QVERIFY(model.walker()->isComplete());
    QCOMPARE(model.rowCount(), 1500);
    QVERIFY(model.walker()->findings().isEmpty());
    QVERIFY(model.columnCount() > 1);
    client->disconnectFromServer();
}

void tst_DemoWalks::listChangedRestartsTheWalk_data()
{
    QTest::addColumn<QString>("era");
    QTest::addColumn<QString>("revision");
    QTest::addRow("modern_subscriptions_listen") << "modern"
                                                 << "2026-07-28";
    QTest::addRow("legacy_notification") << "legacy"
                                         << "2025-11-25";
}

void tst_DemoWalks::listChangedRestartsTheWalk()
{
    QFETCH(QString, era);
    QFETCH(QString, revision);
    McpClient *client =
        connectDemo({QStringLiteral("--scenario"), QStringLiteral("healthy"), QStringLiteral("--era"), era,
                     QStringLiteral("--list"), QStringLiteral("tools=list-changed,intervalMs=300")});
    QCOMPARE(client->protocolVersion(), revision);
    TtlClock clock;
    PagedListModel model(client, ListSource::protocol(ListKind::Tools), &clock);
    QVERIFY(walk(model));
    QCOMPARE(model.rowCount(), 123);
    QSignalSpy restarted(model.walker(), &PageWalker::walkRestarted);
    client->listenForListChanges(); // 2026: subscriptions/listen; 2025: notifications on stdout
    QVERIFY(restarted.wait(5000));
    QVERIFY(restarted.first().at(0).toString().contains(QStringLiteral("notifications/tools/list_changed")));
    QCOMPARE(model.ledger()->page(0).state, PageRecord::State::Discarded);
    model.walker()->fetchAll();
    QTRY_VERIFY_WITH_TIMEOUT(model.rowCount() > 123, 10000); // the new walk sees the added tool
    client->disconnectFromServer();
}

QTEST_GUILESS_MAIN(tst_DemoWalks)
#include "tst_demowalks.moc"
