#include "pagedlistmodel.h"
#include "pageledger.h"
#include "scriptedlist.h"
#include "ttlclock.h"
#include "walkall.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace folio;
using namespace scripted;

// The table over a walk: its rows and columns, its roles, fetchMore() forwarded to the walker, the
// page roles of a page's rows changing with the page, and a list tool's columns taken from its
// first page. How a walk goes is tst_pagewalker's.
class tst_PagedListModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void modelTester_data();
    void modelTester();
    void rowsColumnsAndRoles();
    void fetchMoreIsLazyAndSingleFlight();
    void expiryChangesThePageRolesOfItsRows();
    void refetchInPlaceChangesItsRows();
    void listToolColumnsComeFromTheFirstPage();

private:
    bool walkAll(PagedListModel &model);

    Server m_server;
    TtlClock *m_clock = nullptr;
    qint64 m_now = 1000;
};

void tst_PagedListModel::init()
{
    m_now = 1000;
    m_clock = new TtlClock(this);
    m_clock->setTimeSource([this] { return m_now; });
}

void tst_PagedListModel::cleanup()
{
    m_server.reset();
    delete m_clock;
    m_clock = nullptr;
}

bool tst_PagedListModel::walkAll(PagedListModel &model)
{
    return testsupport::walkAll(model, 3000);
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
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 10), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(10, 10), QString())},
                                    {QString(), page(tools(20, 3), QJsonValue::Undefined, 1000)}}));
    PagedListModel model(m_server.client.get(), ListSource::protocol(ListKind::Tools), m_clock);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    tester.setUseFetchMore(useFetchMore);
    QVERIFY(walkAll(model));
    QCOMPARE(model.rowCount(), 23);
    // Every kind of change the table passes on: page roles on expiry, rows moved by a refetch that
    // shrank a page, a reset by restart.
    m_now += 1000;
    m_clock->processDue();
    m_server.script[QString()] = page(tools(20, 1), QJsonValue::Undefined);
    QSignalSpy accepted(model.walker(), &PageWalker::pageAccepted);
    model.walker()->refetchPage(2);
    QVERIFY(accepted.wait(2000));
    QCOMPARE(model.rowCount(), 21);
    model.walker()->restart(QStringLiteral("test"));
    QTRY_VERIFY(model.rowCount() >= 10); // the first page again (a tester with fetchMore reads on)
}

void tst_PagedListModel::rowsColumnsAndRoles()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 3), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(3, 2), QJsonValue::Undefined)}}));
    PagedListModel model(m_server.client.get(), ListSource::protocol(ListKind::Tools), m_clock);
    // A protocol list's columns are known before any page.
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Name"));
    QCOMPARE(model.headerData(2, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Description"));
    QVERIFY(!model.headerData(3, Qt::Horizontal, Qt::DisplayRole).isValid());
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(walkAll(model));
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.headerData(4, Qt::Vertical, Qt::DisplayRole).toInt(), 5); // rows count from 1

    const QModelIndex fourth = model.index(3, 0);
    QCOMPARE(fourth.data().toString(), QStringLiteral("tool_003"));
    QCOMPARE(model.index(3, 1).data().toString(), QString()); // no title: an empty cell, not "null"
    QCOMPARE(model.index(3, 2).data().toString(), QStringLiteral("Tool number 3"));
    QVERIFY(!model.index(3, 2).data(Qt::ToolTipRole).isValid()); // short text needs no tooltip
    QCOMPARE(QJsonDocument::fromJson(fourth.data(PagedListModel::ItemJsonRole).toByteArray()).object(),
             tools(3, 1).first().toObject());
    QCOMPARE(model.item(3), tools(3, 1).first().toObject());
    QCOMPARE(fourth.data(PagedListModel::IdentityRole).toString(), ListSource::identity(model.item(3)));
    QCOMPARE(fourth.data(PagedListModel::PageRowRole).toInt(), 1);
    QCOMPARE(fourth.data(PagedListModel::PageIndexRole).toInt(), 1);
    QVERIFY(fourth.data(PagedListModel::FirstRowOfPageRole).toBool());
    QVERIFY(!model.index(4, 0).data(PagedListModel::FirstRowOfPageRole).toBool());
    QCOMPARE(fourth.data(PagedListModel::PageStateRole).toInt(), int(PageRecord::State::Fresh));
    QCOMPARE(fourth.data(PagedListModel::PageTtlRole).toLongLong(), qint64(60000));
    QCOMPARE(fourth.data(PagedListModel::PageExpiresAtRole).toLongLong(), m_now + 60000);
    QCOMPARE(fourth.data(PagedListModel::PageScopeRole).toInt(), int(PageRecord::Scope::Public));
    QCOMPARE(fourth.data(PagedListModel::PageSeverityRole).toInt(), -1);
    QVERIFY(fourth.data(PagedListModel::PageHintsExpectedRole).toBool());
    QVERIFY(!model.index(5, 0).data().isValid());
}

void tst_PagedListModel::fetchMoreIsLazyAndSingleFlight()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 10), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(10, 10), QJsonValue::Undefined)}}));
    PagedListModel model(m_server.client.get(), ListSource::protocol(ListKind::Tools), m_clock);
    QCOMPARE(m_server.transport->requests, 0); // nothing until asked
    QVERIFY(model.canFetchMore({}));
    model.fetchMore({});
    QVERIFY(!model.canFetchMore({})); // one request in flight
    model.fetchMore({});
    QSignalSpy received(model.walker(), &PageWalker::pageAccepted);
    QVERIFY(received.wait(2000));
    QCOMPARE(m_server.transport->requests, 1);
    QCOMPARE(model.rowCount(), 10);
    QCOMPARE(model.data(model.index(3, 0)).toString(), QStringLiteral("tool_003"));
    QCOMPARE(model.data(model.index(3, 0), PagedListModel::PageIndexRole).toInt(), 0);
    QVERIFY(model.data(model.index(0, 0), PagedListModel::FirstRowOfPageRole).toBool());
    QVERIFY(!model.canFetchMore(model.index(0, 0))); // a flat table: no children to fetch
    QVERIFY(model.canFetchMore({}));
    model.fetchMore({});
    QVERIFY(received.wait(2000));
    QCOMPARE(model.rowCount(), 20);
    QCOMPARE(model.data(model.index(15, 0), PagedListModel::PageIndexRole).toInt(), 1);
    QVERIFY(!model.canFetchMore({}));
    QVERIFY(model.walker()->isComplete());
}

void tst_PagedListModel::expiryChangesThePageRolesOfItsRows()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"), 5000)},
                                    {QStringLiteral("c1"), page(tools(5, 5), QJsonValue::Undefined, 0)}}));
    PagedListModel model(m_server.client.get(), ListSource::protocol(ListKind::Tools), m_clock);
    QVERIFY(walkAll(model));
    QCOMPARE(model.ledger()->page(1).state, PageRecord::State::Stale); // ttlMs 0: stale at once
    QCOMPARE(m_clock->scheduledCount(), 1);

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    m_now += 4999;
    m_clock->processDue();
    QCOMPARE(changed.size(), 0);
    m_now += 1;
    m_clock->processDue();
    // One dataChanged over the page's rows only, for the one role that changed.
    QCOMPARE(changed.size(), 1);
    const QList<int> roles = changed.first().at(2).value<QList<int>>();
    QCOMPARE(roles, QList<int>{PagedListModel::PageStateRole});
    QCOMPARE(changed.first().at(0).value<QModelIndex>(), model.index(0, 0));
    QCOMPARE(changed.first().at(1).value<QModelIndex>(), model.index(4, model.columnCount() - 1));
    QCOMPARE(model.data(model.index(2, 0), PagedListModel::PageStateRole).toInt(),
             int(PageRecord::State::Expired));
    QCOMPARE(model.data(model.index(7, 0), PagedListModel::PageStateRole).toInt(),
             int(PageRecord::State::Stale));
    QCOMPARE(m_clock->scheduledCount(), 0); // idle now
}

void tst_PagedListModel::refetchInPlaceChangesItsRows()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(5, 5), QJsonValue::Undefined)}}));
    PagedListModel model(m_server.client.get(), ListSource::protocol(ListKind::Tools), m_clock);
    QVERIFY(walkAll(model));
    m_server.script[QStringLiteral("c1")] = page(tools(6, 5), QJsonValue::Undefined);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy accepted(model.walker(), &PageWalker::pageAccepted);
    model.walker()->refetchPage(1);
    QVERIFY(accepted.wait(2000));
    // As many items as before: the rows change in place (all roles), none move.
    QCOMPARE(inserted.size(), 0);
    QCOMPARE(removed.size(), 0);
    bool rowsChanged = false;
    for (const QList<QVariant> &args : changed) {
        if (args.at(0).value<QModelIndex>() == model.index(5, 0) &&
            args.at(1).value<QModelIndex>() == model.index(9, model.columnCount() - 1))
            rowsChanged = rowsChanged || args.at(2).value<QList<int>>().isEmpty();
    }
    QVERIFY(rowsChanged);
    QCOMPARE(model.index(5, 0).data().toString(), QStringLiteral("tool_006")); // not a cached text
}

void tst_PagedListModel::listToolColumnsComeFromTheFirstPage()
{
    QVERIFY(m_server.connect(scripted::postsPages()));
    const ListSource source = *ListSource::fromTool(
        QJsonDocument::fromJson(
            R"({"name":"search_posts","inputSchema":{"properties":{"cursor":{"type":"string"},"limit":{"type":"integer"}}}})")
            .object());
    PagedListModel model(m_server.client.get(), source, m_clock);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.columnCount(), 0); // unknown until items arrive
    QSignalSpy columnsChanged(&model, &PagedListModel::columnsChanged);
    QSignalSpy columnsInserted(&model, &QAbstractItemModel::columnsInserted);
    QVERIFY(walkAll(model));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 2);
    QCOMPARE(columnsChanged.size(), 1); // once, from the first page; the empty second page adds none
    QCOMPARE(columnsInserted.size(), 1);
    QCOMPARE(model.headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("id"));
    QCOMPARE(model.headerData(1, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("message"));
    QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("p2"));
    QCOMPARE(model.index(2, 1).data().toString(), QStringLiteral("hello"));
}

QTEST_GUILESS_MAIN(tst_PagedListModel)
#include "tst_pagedlistmodel.moc"
