#include "cursordecoder.h"
#include "mcpclient.h"
#include "pagedlistmodel.h"
#include "scriptedtransport.h"
#include "ttlclock.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

namespace {

const QString NoCursor = QStringLiteral("<none>");

// Pages keyed by the cursor that asks for them (NoCursor for the first request).
using Script = QMap<QString, QJsonObject>;

QJsonArray tools(int from, int count)
{
    QJsonArray a;
    for (int i = from; i < from + count; ++i)
        a.append(
            QJsonObject{{QStringLiteral("name"), QStringLiteral("tool_%1").arg(i, 3, 10, QLatin1Char('0'))},
                        {QStringLiteral("description"), QStringLiteral("Tool number %1").arg(i)}});
    return a;
}

QJsonObject page(const QJsonArray &items, const QJsonValue &next, const QJsonValue &ttl = 60000,
                 const QJsonValue &scope = QStringLiteral("public"))
{
    QJsonObject o{{QStringLiteral("tools"), items}};
    if (!next.isUndefined())
        o[QStringLiteral("nextCursor")] = next;
    if (!ttl.isUndefined())
        o[QStringLiteral("ttlMs")] = ttl;
    if (!scope.isUndefined())
        o[QStringLiteral("cacheScope")] = scope;
    return o;
}

QJsonObject rpcError(int code, const QString &message)
{
    return {{QStringLiteral("error"),
             QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}};
}

} // namespace

Q_DECLARE_METATYPE(Script)

// The paged table model against a scripted server: cursors followed, pages recorded as received,
// every passive finding, TTL transitions on an injected clock, refetch and restart.
class tst_PagedListModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void findings_data();
    void findings();
    void modelTester_data();
    void modelTester();
    void emptyStringCursorContinues();
    void fetchMoreIsLazyAndSingleFlight();
    void legacyPagesCarryNoHintsByDesign();
    void ttlExpiresOnTheInjectedClock();
    void autoRefetchUsesTheOwnCursorAndDiffs();
    void refusedRefetchDiscardsAndRestarts();
    void listChangedRestarts();
    void cancelKeepsPagesRead();
    void listToolPagesAndLimit();
    void maskedExportHidesCursors();

private:
    void connectTo(const Script &script, bool modern = true);
    bool walkAll(PagedListModel &model);

    McpClient *m_client = nullptr;
    TtlClock *m_clock = nullptr;
    ScriptedTransport *m_transport = nullptr;
    qint64 m_now = 1000;
    Script m_script;
};

void tst_PagedListModel::init()
{
    m_now = 1000;
    m_clock = new TtlClock(this);
    m_clock->setTimeSource([this] { return m_now; });
}

void tst_PagedListModel::cleanup()
{
    delete m_client;
    m_client = nullptr;
    delete m_clock;
}

void tst_PagedListModel::connectTo(const Script &script, bool modern)
{
    m_script = script;
    m_client = new McpClient;
    m_client->setTransportFactory([this, modern](QObject *) {
        m_transport = new ScriptedTransport(modern, [this](const QString &method, const QJsonObject &params) {
            if (method == QLatin1String("tools/call")) {
                const QJsonObject args = params.value(QStringLiteral("arguments")).toObject();
                const QString key = args.contains(QStringLiteral("cursor"))
                                        ? args.value(QStringLiteral("cursor")).toString()
                                        : NoCursor;
                return m_script.value(key);
            }
            const QString key = params.contains(QStringLiteral("cursor"))
                                    ? params.value(QStringLiteral("cursor")).toString()
                                    : NoCursor;
            return m_script.value(key);
        });
        return m_transport;
    });
    QSignalSpy connected(m_client, &McpClient::connected);
    m_client->connectToServer();
    QVERIFY(connected.wait(2000));
}

bool tst_PagedListModel::walkAll(PagedListModel &model)
{
    QSignalSpy finished(model.walker(), &PageWalker::walkFinished);
    model.walker()->fetchAll();
    if (!finished.wait(3000))
        return false;
    return true;
}

void tst_PagedListModel::findings_data()
{
    QTest::addColumn<Script>("script");
    QTest::addColumn<int>("cap");
    QTest::addColumn<QStringList>("expected"); // "id@page" (1-based page)
    QTest::addColumn<int>("rows");
    QTest::addColumn<bool>("completes"); // findings that do not stop the walk still let it end

    QTest::addRow("healthy") << Script{{NoCursor, page(tools(0, 10), QStringLiteral("c1"))},
                                       {QStringLiteral("c1"),
                                        page(tools(10, 10), QStringLiteral("c2"), 30000)},
                                       {QStringLiteral("c2"), page(tools(20, 5), QJsonValue::Undefined)}}
                             << 1000 << QStringList{} << 25 << true;
    QTest::addRow("cursor_loop") << Script{{NoCursor, page(tools(0, 10), QStringLiteral("A"))},
                                           {QStringLiteral("A"), page(tools(10, 10), QStringLiteral("B"))},
                                           {QStringLiteral("B"), page(tools(20, 10), QStringLiteral("A"))}}
                                 << 1000 << QStringList{QStringLiteral("cursor-repeated@3")} << 30 << false;
    QTest::addRow("empty_cursor_forever")
        << Script{{NoCursor, page(tools(0, 10), QString())}, {QString(), page(tools(10, 10), QString())}}
        << 1000 << QStringList{QStringLiteral("cursor-repeated@2")} << 20 << false;
    QTest::addRow("cursor_never_advances")
        << Script{{NoCursor, page(tools(0, 10), QStringLiteral("same"))},
                  {QStringLiteral("same"), page(tools(0, 10), QStringLiteral("same"))}}
        << 1000 << QStringList{QStringLiteral("cursor-repeated@2"), QStringLiteral("duplicate-item@2")} << 20
        << false;
    QTest::addRow("duplicates") << Script{{NoCursor, page(tools(0, 10), QStringLiteral("c1"))},
                                          {QStringLiteral("c1"), page(tools(8, 10), QJsonValue::Undefined)}}
                                << 1000 << QStringList{QStringLiteral("duplicate-item@2")} << 20 << true;
    QTest::addRow("scope_mismatch") << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                              {QStringLiteral("c1"), page(tools(5, 5), QStringLiteral("c2"),
                                                                          60000, QStringLiteral("private"))},
                                              {QStringLiteral("c2"),
                                               page(tools(10, 5), QJsonValue::Undefined)}}
                                    << 1000 << QStringList{QStringLiteral("scope-mismatch@2")} << 15 << true;
    QTest::addRow("hints_missing")
        << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"), QJsonValue::Undefined)},
                  {QStringLiteral("c1"),
                   page(tools(5, 5), QJsonValue::Undefined, 1000, QJsonValue::Undefined)}}
        << 1000
        << QStringList{QStringLiteral("cache-hints-missing@1"), QStringLiteral("cache-hints-missing@2")} << 10
        << true;
    QTest::addRow("ttl_invalid")
        << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"), -5)},
                  {QStringLiteral("c1"), page(tools(5, 5), QStringLiteral("c2"), 1.5)},
                  {QStringLiteral("c2"), page(tools(10, 5), QJsonValue::Undefined, QStringLiteral("30000"))}}
        << 1000
        << QStringList{QStringLiteral("ttl-invalid@1"), QStringLiteral("ttl-invalid@2"),
                       QStringLiteral("ttl-invalid@3")}
        << 15 << true;
    QTest::addRow("scope_invalid") << Script{{NoCursor, page(tools(0, 5), QJsonValue::Undefined, 1000,
                                                             QStringLiteral("shared"))}}
                                   << 1000 << QStringList{QStringLiteral("scope-invalid@1")} << 5 << true;
    QTest::addRow("page_error") << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                          {QStringLiteral("c1"),
                                           rpcError(-32602, QStringLiteral("Invalid cursor"))}}
                                << 1000 << QStringList{QStringLiteral("page-error@2")} << 5 << false;
    QTest::addRow("empty_cursor_rejected")
        << Script{{NoCursor, page(tools(0, 5), QString())},
                  {QString(), rpcError(-32602, QStringLiteral("Invalid cursor"))}}
        << 1000 << QStringList{QStringLiteral("page-error@2"), QStringLiteral("empty-cursor-rejected@2")} << 5
        << false;
    QTest::addRow("page_cap_reached")
        << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                  {QStringLiteral("c1"), page(tools(5, 5), QStringLiteral("c2"))},
                  {QStringLiteral("c2"), page(tools(10, 5), QStringLiteral("c3"))},
                  {QStringLiteral("c3"), page(tools(15, 5), QJsonValue::Undefined)}}
        << 2 << QStringList{QStringLiteral("page-cap-reached@2")} << 10 << false;
    QTest::addRow("null_cursor_ends")
        << Script{{NoCursor, page(tools(0, 5), QJsonValue::Null)}} << 1000 << QStringList{} << 5 << true;
}

void tst_PagedListModel::findings()
{
    QFETCH(Script, script);
    QFETCH(int, cap);
    QFETCH(QStringList, expected);
    QFETCH(int, rows);
    QFETCH(bool, completes);
    connectTo(script);
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    model.walker()->setPageCap(cap);
    QVERIFY(walkAll(model));
    QCOMPARE(model.rowCount(), rows);
    QStringList got;
    for (const Finding &f : model.walker()->findings())
        got << QStringLiteral("%1@%2").arg(f.id).arg(f.pages.first() + 1);
    got.sort();
    expected.sort();
    QCOMPARE(got, expected);
    QCOMPARE(model.walker()->isComplete(), completes);
    QCOMPARE(model.walker()->isStopped(), !completes);
}

void tst_PagedListModel::modelTester_data()
{
    QTest::addColumn<bool>("useFetchMore");
    QTest::addRow("plain") << false;
    QTest::addRow("with_fetch_more") << true;
}

void tst_PagedListModel::modelTester()
{
    QFETCH(bool, useFetchMore);
    connectTo(Script{{NoCursor, page(tools(0, 10), QStringLiteral("c1"))},
                     {QStringLiteral("c1"), page(tools(10, 10), QString())},
                     {QString(), page(tools(20, 3), QJsonValue::Undefined)}});
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    tester.setUseFetchMore(useFetchMore);
    QAbstractItemModelTester ledgerTester(model.ledger(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(walkAll(model));
    QCOMPARE(model.rowCount(), 23);
    model.walker()->restart(QStringLiteral("test"));
    QTRY_VERIFY(model.rowCount() >= 10); // the first page again (a tester with fetchMore reads on)
}

void tst_PagedListModel::emptyStringCursorContinues()
{
    connectTo(Script{{NoCursor, page(tools(0, 10), QString())},
                     {QString(), page(tools(10, 4), QJsonValue::Undefined)}});
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    QVERIFY(walkAll(model));
    QVERIFY(model.walker()->isComplete());
    QCOMPARE(model.rowCount(), 14);
    const PageRecord &second = model.ledger()->page(1);
    QVERIFY(second.requestCursor.has_value());
    QCOMPARE(*second.requestCursor, QString()); // "" was sent as a cursor
    QCOMPARE(model.ledger()->page(0).next, ListSource::CursorPresence::String);
}

void tst_PagedListModel::fetchMoreIsLazyAndSingleFlight()
{
    connectTo(Script{{NoCursor, page(tools(0, 10), QStringLiteral("c1"))},
                     {QStringLiteral("c1"), page(tools(10, 10), QJsonValue::Undefined)}});
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    QCOMPARE(m_transport->requests, 0); // nothing until asked
    QVERIFY(model.canFetchMore({}));
    model.fetchMore({});
    QVERIFY(!model.canFetchMore({})); // one request in flight
    model.fetchMore({});
    QSignalSpy received(model.walker(), &PageWalker::pageAccepted);
    QVERIFY(received.wait(2000));
    QCOMPARE(m_transport->requests, 1);
    QCOMPARE(model.rowCount(), 10);
    QCOMPARE(model.data(model.index(3, 0)).toString(), QStringLiteral("tool_003"));
    QCOMPARE(model.data(model.index(3, 0), PagedListModel::PageIndexRole).toInt(), 0);
    QVERIFY(model.data(model.index(0, 0), PagedListModel::FirstRowOfPageRole).toBool());
    QVERIFY(model.canFetchMore({}));
    model.fetchMore({});
    QVERIFY(received.wait(2000));
    QCOMPARE(model.rowCount(), 20);
    QCOMPARE(model.data(model.index(15, 0), PagedListModel::PageIndexRole).toInt(), 1);
    QVERIFY(!model.canFetchMore({}));
    QVERIFY(model.walker()->isComplete());
}

void tst_PagedListModel::legacyPagesCarryNoHintsByDesign()
{
    QJsonObject p = page(tools(0, 3), QJsonValue::Undefined, QJsonValue::Undefined, QJsonValue::Undefined);
    connectTo(Script{{NoCursor, p}}, /*modern=*/false);
    QCOMPARE(m_client->protocolVersion(), QStringLiteral("2025-11-25"));
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    QVERIFY(walkAll(model));
    QVERIFY(model.walker()->findings().isEmpty()); // not a fault
    const PageRecord &rec = model.ledger()->page(0);
    QVERIFY(rec.legacyEra);
    QVERIFY(!rec.hintsExpected);
    QCOMPARE(rec.state, PageRecord::State::Stale);
    QCOMPARE(rec.scope, PageRecord::Scope::NotApplicable);
    QCOMPARE(model.ledger()->data(model.ledger()->index(0, PageLedger::TtlColumn)).toString(),
             QStringLiteral("no hints (legacy era)"));
}

void tst_PagedListModel::ttlExpiresOnTheInjectedClock()
{
    connectTo(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"), 5000)},
                     {QStringLiteral("c1"), page(tools(5, 5), QJsonValue::Undefined, 0)}});
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    QVERIFY(walkAll(model));
    const PageRecord &first = model.ledger()->page(0);
    QCOMPARE(first.state, PageRecord::State::Fresh);
    QCOMPARE(first.expiresAtMonoMs(), m_now + 5000);
    QCOMPARE(model.ledger()->page(1).state, PageRecord::State::Stale); // ttlMs 0: stale at once
    QCOMPARE(m_clock->scheduledCount(), 1);

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    m_now += 4999;
    m_clock->processDue();
    QCOMPARE(model.ledger()->page(0).state, PageRecord::State::Fresh);
    m_now += 1;
    m_clock->processDue();
    QCOMPARE(model.ledger()->page(0).state, PageRecord::State::Expired);
    QCOMPARE(changed.size(), 1);
    const QList<int> roles = changed.first().at(2).value<QList<int>>();
    QCOMPARE(roles, QList<int>{PagedListModel::PageStateRole});
    QCOMPARE(changed.first().at(0).value<QModelIndex>().row(), 0);
    QCOMPARE(changed.first().at(1).value<QModelIndex>().row(), 4);
    QCOMPARE(model.data(model.index(2, 0), PagedListModel::PageStateRole).toInt(),
             int(PageRecord::State::Expired));
    QCOMPARE(m_clock->scheduledCount(), 0); // idle now
}

void tst_PagedListModel::autoRefetchUsesTheOwnCursorAndDiffs()
{
    connectTo(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"), 100000)},
                     {QStringLiteral("c1"), page(tools(5, 5), QJsonValue::Undefined, 1000)}});
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    model.walker()->setAutoRefetch(true);
    QVERIFY(walkAll(model));
    // Page 2 changes on the server: one tool gone, one added, one changed.
    QJsonArray changedItems = tools(6, 5);
    QJsonObject t = changedItems[0].toObject();
    t[QStringLiteral("description")] = QStringLiteral("changed");
    changedItems[0] = t;
    m_script[QStringLiteral("c1")] = page(changedItems, QJsonValue::Undefined, 1000);
    QSignalSpy received(model.walker(), &PageWalker::pageAccepted);
    m_now += 1000;
    m_clock->processDue();
    QCOMPARE(model.ledger()->page(1).state, PageRecord::State::Refetching);
    QVERIFY(received.wait(2000));
    const PageRecord &rec = model.ledger()->page(1);
    QCOMPARE(m_transport->lastParams.value(QStringLiteral("cursor")).toString(), QStringLiteral("c1"));
    QCOMPARE(rec.refetchCount, 1);
    QCOMPARE(rec.diffAdded, 1);
    QCOMPARE(rec.diffRemoved, 1);
    QCOMPARE(rec.diffChanged, 1);
    QCOMPARE(rec.state, PageRecord::State::Fresh);
    QCOMPARE(model.rowCount(), 10);
    QCOMPARE(model.data(model.index(5, 0)).toString(), QStringLiteral("tool_006"));
    QCOMPARE(rec.attempts.size(), 2);
    QVERIFY(rec.attempts.last().refetch);
}

void tst_PagedListModel::refusedRefetchDiscardsAndRestarts()
{
    connectTo(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"), 100000)},
                     {QStringLiteral("c1"), page(tools(5, 5), QJsonValue::Undefined, 1000)}});
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    QVERIFY(walkAll(model));
    m_script[QStringLiteral("c1")] = rpcError(-32602, QStringLiteral("Cursor expired"));
    QSignalSpy restarted(model.walker(), &PageWalker::walkRestarted);
    model.walker()->refetchPage(1);
    QVERIFY(restarted.wait(2000));
    QVERIFY(restarted.first().at(0).toString().contains(QStringLiteral("-32602")));
    QCOMPARE(model.ledger()->page(0).state, PageRecord::State::Discarded);
    QCOMPARE(model.ledger()->page(1).state, PageRecord::State::Discarded);
    QVERIFY(!model.ledger()->page(1).discardReason.isEmpty());
    QCOMPARE(model.ledger()->page(1).findings.first().id, FindingId::PageError);
    QTRY_COMPARE(model.ledger()->rowCount(), 3); // the new walk started from the first page
    QCOMPARE(model.ledger()->page(2).walk, 1);
    QVERIFY(!model.ledger()->page(2).requestCursor.has_value());
}

void tst_PagedListModel::listChangedRestarts()
{
    connectTo(Script{{NoCursor, page(tools(0, 5), QJsonValue::Undefined)}});
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    QVERIFY(walkAll(model));
    QSignalSpy restarted(model.walker(), &PageWalker::walkRestarted);
    m_transport->notify(QStringLiteral("notifications/tools/list_changed"));
    QCOMPARE(restarted.size(), 1);
    QVERIFY(restarted.first().at(0).toString().contains(QStringLiteral("list_changed")));
    QCOMPARE(model.ledger()->page(0).state, PageRecord::State::Discarded);
    m_transport->notify(QStringLiteral("notifications/prompts/list_changed")); // another list: ignored
    QCOMPARE(restarted.size(), 1);
}

void tst_PagedListModel::cancelKeepsPagesRead()
{
    connectTo(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))}}); // c1 never answers
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    QSignalSpy received(model.walker(), &PageWalker::pageAccepted);
    model.walker()->fetchAll();
    QVERIFY(received.wait(2000));
    QTRY_VERIFY(model.walker()->isLoading());
    model.walker()->cancel();
    QVERIFY(!model.walker()->isLoading());
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.walker()->pagesInWalk(), 1);
    QCOMPARE(model.ledger()->page(1).state, PageRecord::State::Discarded);
    QVERIFY(model.canFetchMore({})); // the same cursor can be asked again
}

void tst_PagedListModel::listToolPagesAndLimit()
{
    auto toolPage = [](const QJsonArray &items, const QJsonValue &next) {
        QJsonObject sc{{QStringLiteral("posts"), items}};
        if (!next.isUndefined())
            sc[QStringLiteral("next_cursor")] = next;
        return QJsonObject{{QStringLiteral("content"), QJsonArray{}},
                           {QStringLiteral("structuredContent"), sc}};
    };
    QJsonArray posts;
    for (int i = 0; i < 3; ++i)
        posts.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("p%1").arg(i)},
                                 {QStringLiteral("message"), QStringLiteral("hello")}});
    connectTo(Script{{NoCursor, toolPage(posts, QStringLiteral("n1"))},
                     {QStringLiteral("n1"), toolPage(QJsonArray{}, QJsonValue::Undefined)}});
    ListSource source = *ListSource::fromTool(
        QJsonDocument::fromJson(
            R"({"name":"search_posts","inputSchema":{"properties":{"cursor":{"type":"string"},"limit":{"type":"integer"},"channel":{"type":"string"}}}})")
            .object());
    source.setArguments({{QStringLiteral("channel"), QStringLiteral("town-square")}});
    source.setLimit(2);
    PagedListModel model(m_client, source, m_clock);
    QVERIFY(walkAll(model));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 2);
    QCOMPARE(model.headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("id"));
    QCOMPARE(m_transport->lastParams.value(QStringLiteral("arguments"))
                 .toObject()
                 .value(QStringLiteral("channel"))
                 .toString(),
             QStringLiteral("town-square"));
    QCOMPARE(m_transport->lastParams.value(QStringLiteral("arguments"))
                 .toObject()
                 .value(QStringLiteral("limit"))
                 .toInt(),
             2);
    QCOMPARE(model.walker()->findings().size(), 1);
    QCOMPARE(model.walker()->findings().first().id, FindingId::PageOverLimit);
    QCOMPARE(model.ledger()->page(0).scope, PageRecord::Scope::NotApplicable);
}

void tst_PagedListModel::maskedExportHidesCursors()
{
    const QString secretA = QStringLiteral("tenant-4711-cursor-AAAAAAAA");
    const QString secretB = QStringLiteral("tenant-4711-cursor-BBBBBBBB");
    connectTo(Script{{NoCursor, page(tools(0, 5), secretA)},
                     {secretA, page(tools(5, 5), secretB)},
                     {secretB, page(tools(10, 5), secretA)}});
    PagedListModel model(m_client, ListSource::protocol(ListKind::Tools), m_clock);
    QVERIFY(walkAll(model));
    const PageRecord &loop = model.ledger()->page(2);
    QCOMPARE(loop.findings.first().id, FindingId::CursorRepeated);
    const QByteArray plain = QJsonDocument(loop.toJson()).toJson();
    QVERIFY(plain.contains(secretA.toUtf8()));
    const QByteArray masked = QJsonDocument(loop.toMaskedJson()).toJson();
    QVERIFY2(!masked.contains("tenant-4711"), masked.constData()); // values, evidence and messages
    QVERIFY(masked.contains(maskCursor(secretA).toUtf8()));
}

QTEST_GUILESS_MAIN(tst_PagedListModel)
#include "tst_pagedlistmodel.moc"
