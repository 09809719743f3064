#include "pageledger.h"
#include "pagewalker.h"
#include "rowstore.h"
#include "scriptedlist.h"
#include "ttlclock.h"

#include <QJsonDocument>

#include <QSignalSpy>
#include <QTest>

using namespace folio;
using namespace scripted;

Q_DECLARE_METATYPE(QJsonArray)

// The walk engine driven headless, as the command line and the audit drive it (no table): cursors
// followed, every way a walk ends, cancel and restart, refetch and its diff, TTL expiry on an
// injected clock, list_changed, and a manual start.
class tst_PageWalker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void walksToTheEnd();
    void findings_data();
    void findings();
    void findingsQuoteServerTextIntact_data();
    void findingsQuoteServerTextIntact();
    void emptyStringCursorIsACursor();
    void cancelKeepsThePagesRead();
    void restartDiscardsTheWalk();
    void aRestartedWalkSaysWhereItParts_data();
    void aRestartedWalkSaysWhereItParts();
    void aWalkCutShortIsComparedOnlyWhereItWasRead();
    void retryAsksTheFailedPageAgain();
    void refetchReplacesRowsAndDiffs_data();
    void refetchReplacesRowsAndDiffs();
    void refusedRefetchRestarts();
    void expiry_data();
    void expiry();
    void listChanged_data();
    void listChanged();
    void restartCapStopsAListThatNeverHoldsStill();
    void completedWalkResetsTheRestartCap();
    void sizeCapStopsAWalkThatKeepsTooMuch();
    void manualStart_data();
    void manualStart();
    void legacyPagesCarryNoHintsByDesign();
    void listToolArgumentsAndLimit();
    void listToolWaitsForRequiredArguments_data();
    void listToolWaitsForRequiredArguments();
    void listToolRefusedWithoutArgumentsWaits_data();
    void listToolRefusedWithoutArgumentsWaits();
    void pagingStyles_data();
    void pagingStyles();
    void limitAndCursorAmongTheArguments();

private:
    PageWalker *makeWalker(const ListSource &source = ListSource::protocol(ListKind::Tools));
    static bool walkAll(PageWalker *walker);

    Server m_server;
    TtlClock *m_clock = nullptr;
    PageWalker *m_walker = nullptr;
    qint64 m_now = 1000;
};

void tst_PageWalker::init()
{
    m_now = 1000;
    m_clock = new TtlClock(this);
    m_clock->setTimeSource([this] { return m_now; });
}

void tst_PageWalker::cleanup()
{
    // The walker first: it cancels what it has in flight on the client's connection.
    delete m_walker;
    m_walker = nullptr;
    m_server.reset();
    delete m_clock;
    m_clock = nullptr;
}

PageWalker *tst_PageWalker::makeWalker(const ListSource &source)
{
    m_walker = new PageWalker(m_server.client.get(), source, m_clock);
    return m_walker;
}

bool tst_PageWalker::walkAll(PageWalker *walker)
{
    QSignalSpy finished(walker, &PageWalker::walkFinished);
    walker->fetchAll();
    return finished.wait(3000);
}

void tst_PageWalker::walksToTheEnd()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 10), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(10, 10), QStringLiteral("c2"), 30000)},
                                    {QStringLiteral("c2"), page(tools(20, 5), QJsonValue::Undefined)}}));
    PageWalker *walker = makeWalker();
    QSignalSpy accepted(walker, &PageWalker::pageAccepted);
    QSignalSpy finished(walker, &PageWalker::walkFinished);
    QSignalSpy progress(walker, &PageWalker::progress);
    QSignalSpy loading(walker, &PageWalker::loadingChanged);
    QVERIFY(!walker->isStarted());
    QCOMPARE(m_server.transport->requests, 0); // nothing until asked

    walker->fetchAll();
    QVERIFY(finished.wait(3000));
    QCOMPARE(accepted.size(), 3);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(accepted.at(i).at(0).toInt(), i); // ledger rows, in walk order
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.first().at(0).value<PageWalker::End>(), PageWalker::End::Complete);
    QVERIFY(!finished.wait(50)); // once: nothing else is in flight
    QCOMPARE(m_server.transport->requests, 3);

    QVERIFY(walker->isComplete());
    QVERIFY(!walker->isStopped());
    QVERIFY(!walker->isLoading());
    QVERIFY(!walker->canFetchNext());
    QCOMPARE(walker->pagesInWalk(), 3);
    QCOMPARE(walker->walkPageRows(), (QList<int>{0, 1, 2}));
    QCOMPARE(walker->rows()->rowCount(), 25);
    QCOMPARE(walker->rows()->item(0).value(QStringLiteral("name")).toString(), QStringLiteral("tool_000"));
    QCOMPARE(walker->rows()->item(24).value(QStringLiteral("name")).toString(), QStringLiteral("tool_024"));
    QCOMPARE(walker->rows()->pageIndexOf(15), 1);
    QVERIFY(walker->findings().isEmpty());

    // progress(pages, rows) as pages arrive: the pages read and their rows.
    QStringList reported;
    for (const QList<QVariant> &args : progress)
        reported << QStringLiteral("%1/%2").arg(args.at(0).toInt()).arg(args.at(1).toInt());
    QCOMPARE(reported.last(), QStringLiteral("3/25"));
    QCOMPARE(reported, (QStringList{QStringLiteral("0/0"), QStringLiteral("1/10"), QStringLiteral("2/20"),
                                    QStringLiteral("3/25")}));
    QVERIFY(loading.first().at(0).toBool());
    QVERIFY(!loading.last().at(0).toBool());

    const PageLedger *ledger = walker->ledger();
    QCOMPARE(ledger->rowCount(), 3);
    QVERIFY(!ledger->page(0).requestCursor.has_value());
    QCOMPARE(*ledger->page(1).requestCursor, QStringLiteral("c1"));
    QCOMPARE(ledger->page(1).effectiveTtlMs, qint64(30000));
    QCOMPARE(ledger->page(2).next.presence, NextCursor::Presence::Absent);
    for (int row = 0; row < 3; ++row)
        QCOMPARE(ledger->page(row).state, PageRecord::State::Fresh);
}

void tst_PageWalker::findings_data()
{
    QTest::addColumn<Script>("script");
    QTest::addColumn<int>("cap");
    QTest::addColumn<QStringList>("expected"); // "id@page" (1-based page)
    QTest::addColumn<int>("rows");
    QTest::addColumn<bool>("completes"); // findings that do not stop the walk still let it end
    QTest::addColumn<QString>("stopReason");

    QTest::addRow("healthy") << Script{{NoCursor, page(tools(0, 10), QStringLiteral("c1"))},
                                       {QStringLiteral("c1"),
                                        page(tools(10, 10), QStringLiteral("c2"), 30000)},
                                       {QStringLiteral("c2"), page(tools(20, 5), QJsonValue::Undefined)}}
                             << 1000 << QStringList{} << 25 << true << QString();
    QTest::addRow("cursor_loop") << Script{{NoCursor, page(tools(0, 10), QStringLiteral("A"))},
                                           {QStringLiteral("A"), page(tools(10, 10), QStringLiteral("B"))},
                                           {QStringLiteral("B"), page(tools(20, 10), QStringLiteral("A"))}}
                                 << 1000 << QStringList{QStringLiteral("cursor-repeated@3")} << 30 << false
                                 << QStringLiteral("a cursor repeated");
    QTest::addRow("empty_cursor_forever")
        << Script{{NoCursor, page(tools(0, 10), QString())}, {QString(), page(tools(10, 10), QString())}}
        << 1000 << QStringList{QStringLiteral("cursor-repeated@2")} << 20 << false
        << QStringLiteral("a cursor repeated");
    QTest::addRow("cursor_never_advances")
        << Script{{NoCursor, page(tools(0, 10), QStringLiteral("same"))},
                  {QStringLiteral("same"), page(tools(0, 10), QStringLiteral("same"))}}
        << 1000 << QStringList{QStringLiteral("cursor-repeated@2"), QStringLiteral("duplicate-item@2")} << 20
        << false << QStringLiteral("a cursor repeated");
    QTest::addRow("cursor_not_a_string")
        << Script{{NoCursor, page(tools(0, 5), 42)}} << 1000 << QStringList{QStringLiteral("page-error@1")}
        << 5 << false << QStringLiteral("nextCursor is not a string");
    QTest::addRow("duplicates") << Script{{NoCursor, page(tools(0, 10), QStringLiteral("c1"))},
                                          {QStringLiteral("c1"), page(tools(8, 10), QJsonValue::Undefined)}}
                                << 1000 << QStringList{QStringLiteral("duplicate-item@2")} << 20 << true
                                << QString();
    QTest::addRow("scope_mismatch") << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                              {QStringLiteral("c1"), page(tools(5, 5), QStringLiteral("c2"),
                                                                          60000, QStringLiteral("private"))},
                                              {QStringLiteral("c2"),
                                               page(tools(10, 5), QJsonValue::Undefined)}}
                                    << 1000 << QStringList{QStringLiteral("scope-mismatch@2")} << 15 << true
                                    << QString();
    QTest::addRow("hints_missing")
        << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"), QJsonValue::Undefined)},
                  {QStringLiteral("c1"),
                   page(tools(5, 5), QJsonValue::Undefined, 1000, QJsonValue::Undefined)}}
        << 1000
        << QStringList{QStringLiteral("cache-hints-missing@1"), QStringLiteral("cache-hints-missing@2")} << 10
        << true << QString();
    QTest::addRow("ttl_invalid")
        << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"), -5)},
                  {QStringLiteral("c1"), page(tools(5, 5), QStringLiteral("c2"), 1.5)},
                  {QStringLiteral("c2"), page(tools(10, 5), QJsonValue::Undefined, QStringLiteral("30000"))}}
        << 1000
        << QStringList{QStringLiteral("ttl-invalid@1"), QStringLiteral("ttl-invalid@2"),
                       QStringLiteral("ttl-invalid@3")}
        << 15 << true << QString();
    QTest::addRow("scope_invalid") << Script{{NoCursor, page(tools(0, 5), QJsonValue::Undefined, 1000,
                                                             QStringLiteral("shared"))}}
                                   << 1000 << QStringList{QStringLiteral("scope-invalid@1")} << 5 << true
                                   << QString();
    QTest::addRow("page_error") << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                          {QStringLiteral("c1"),
                                           rpcError(-32602, QStringLiteral("Invalid cursor"))}}
                                << 1000 << QStringList{QStringLiteral("page-error@2")} << 5 << false
                                << QStringLiteral("page 2 failed");
    QTest::addRow("empty_cursor_rejected")
        << Script{{NoCursor, page(tools(0, 5), QString())},
                  {QString(), rpcError(-32602, QStringLiteral("Invalid cursor"))}}
        << 1000 << QStringList{QStringLiteral("empty-cursor-rejected@2")} << 5 << false
        << QStringLiteral("page 2 failed");
    QTest::addRow("page_cap_reached")
        << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                  {QStringLiteral("c1"), page(tools(5, 5), QStringLiteral("c2"))},
                  {QStringLiteral("c2"), page(tools(10, 5), QStringLiteral("c3"))},
                  {QStringLiteral("c3"), page(tools(15, 5), QJsonValue::Undefined)}}
        << 2 << QStringList{QStringLiteral("page-cap-reached@2")} << 10 << false
        << QStringLiteral("the page cap (2) was reached");
    QTest::addRow("null_cursor_ends") << Script{{NoCursor, page(tools(0, 5), QJsonValue::Null)}} << 1000
                                      << QStringList{} << 5 << true << QString();
}

void tst_PageWalker::findings()
{
    QFETCH(Script, script);
    QFETCH(int, cap);
    QFETCH(QStringList, expected);
    QFETCH(int, rows);
    QFETCH(bool, completes);
    QFETCH(QString, stopReason);
    QVERIFY(m_server.connect(script));
    PageWalker *walker = makeWalker();
    walker->setPageCap(cap);
    // What a listener connected directly sees when the walk ends: the pages accepted and their rows.
    int rowsAtFinish = -1;
    connect(walker, &PageWalker::walkFinished, walker, [&] { rowsAtFinish = walker->rows()->rowCount(); });
    QSignalSpy finished(walker, &PageWalker::walkFinished);
    QSignalSpy failed(walker, &PageWalker::pageFailed);
    QVERIFY(walkAll(walker));
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.first().at(0).value<PageWalker::End>(),
             completes ? PageWalker::End::Complete : PageWalker::End::Stopped);
    QCOMPARE(walker->rows()->rowCount(), rows);
    QStringList got;
    for (const Finding &f : walker->findings())
        got << QStringLiteral("%1@%2").arg(f.id).arg(f.pages.first() + 1);
    got.sort();
    expected.sort();
    QCOMPARE(got, expected);
    QCOMPARE(walker->isComplete(), completes);
    QCOMPARE(walker->isStopped(), !completes);
    QVERIFY2(walker->stopReason().startsWith(stopReason), qPrintable(walker->stopReason()));
    QCOMPARE(stopReason.isEmpty(), walker->stopReason().isEmpty());
    // A failed page is one finding: page-error, or empty-cursor-rejected when "" was refused.
    QCOMPARE(failed.isEmpty(), !expected.contains(QStringLiteral("page-error@2")) &&
                                   !expected.contains(QStringLiteral("empty-cursor-rejected@2")));
    QVERIFY(!walker->canFetchNext());
    // The walk ends after its last page's rows are in: a listener connected directly sees them
    // (at the cap too, where the stop once came from inside the last page's acceptance).
    QCOMPARE(rowsAtFinish, rows);
}

// What the server sent is quoted as sent: a "%1" in a cursor, a ttlMs or an error message is text,
// not a placeholder for the page number or ttlMs that follows it in the message.
void tst_PageWalker::findingsQuoteServerTextIntact_data()
{
    QTest::addColumn<Script>("script");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("quoted"); // part of the finding's message

    const QString hostile = QStringLiteral("%1 %2 %3");
    QTest::addRow("cursor-repeated") << Script{{NoCursor, page(tools(0, 5), hostile)},
                                               {hostile, page(tools(5, 5), hostile)}}
                                     << QStringLiteral("cursor-repeated")
                                     << QStringLiteral(
                                            "Page 2 returned the cursor %1 %2 %3 already sent for page 2");
    QTest::addRow("ttl-invalid") << Script{{NoCursor, page(tools(0, 5), QJsonValue::Undefined, hostile)}}
                                 << QStringLiteral("ttl-invalid")
                                 << QStringLiteral(
                                        "ttlMs on page 1 is \"%1 %2 %3\": it must be an integer ≥ 0 "
                                        "(treated as 0 ms)");
    QTest::addRow("page-error") << Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                          {QStringLiteral("c1"), rpcError(-32603, hostile)}}
                                << QStringLiteral("page-error")
                                << QStringLiteral("Page 2 failed: %1 %2 %3 (-32603 internal error)");
}

void tst_PageWalker::findingsQuoteServerTextIntact()
{
    QFETCH(Script, script);
    QFETCH(QString, id);
    QFETCH(QString, quoted);
    QVERIFY(m_server.connect(script));
    PageWalker *walker = makeWalker();
    QVERIFY(walkAll(walker));
    QStringList messages;
    for (const Finding &f : walker->findings()) {
        if (f.id == id)
            messages << f.message;
    }
    QCOMPARE(messages.size(), 1);
    QVERIFY2(messages.first().contains(quoted), qPrintable(messages.first()));
}

void tst_PageWalker::emptyStringCursorIsACursor()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 10), QString())},
                                    {QString(), page(tools(10, 4), QJsonValue::Undefined)}}));
    PageWalker *walker = makeWalker();
    QVERIFY(walkAll(walker));
    QVERIFY(walker->isComplete());
    QCOMPARE(walker->rows()->rowCount(), 14);
    QCOMPARE(walker->ledger()->page(0).next.presence, NextCursor::Presence::String);
    const PageRecord &second = walker->ledger()->page(1);
    QVERIFY(second.requestCursor.has_value());
    QCOMPARE(*second.requestCursor, QString()); // "" was sent as a cursor
    QVERIFY(m_server.transport->lastParams.contains(QStringLiteral("cursor")));
}

void tst_PageWalker::cancelKeepsThePagesRead()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))}})); // c1: no answer
    PageWalker *walker = makeWalker();
    QSignalSpy accepted(walker, &PageWalker::pageAccepted);
    QSignalSpy finished(walker, &PageWalker::walkFinished);
    walker->fetchAll();
    QVERIFY(accepted.wait(2000));
    QTRY_VERIFY(walker->isLoading());
    walker->cancel();
    QVERIFY(!walker->isLoading());
    QVERIFY(!walker->isFetchingAll());
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.first().at(0).value<PageWalker::End>(), PageWalker::End::Cancelled);
    QVERIFY(!walker->isStopped());
    QVERIFY(!walker->isComplete());
    QCOMPARE(walker->rows()->rowCount(), 5);
    QCOMPARE(walker->pagesInWalk(), 1);
    const PageRecord &cancelled = walker->ledger()->page(1);
    QCOMPARE(cancelled.state, PageRecord::State::Discarded);
    QCOMPARE(cancelled.discardReason, QStringLiteral("cancelled"));
    QCOMPARE(cancelled.error.kind, McpError::Kind::Cancelled);

    // The next fetch asks for the same cursor again, as the next page of the same walk.
    QVERIFY(walker->canFetchNext());
    m_server.script[QStringLiteral("c1")] = page(tools(5, 5), QJsonValue::Undefined);
    walker->fetchNext();
    QCOMPARE(walker->ledger()->rowCount(), 3);
    const PageRecord &again = walker->ledger()->page(2);
    QCOMPARE(*again.requestCursor, QStringLiteral("c1"));
    QCOMPARE(again.index, 1);
    QCOMPARE(again.walk, 0);
    QVERIFY(accepted.wait(2000));
    QCOMPARE(m_server.transport->lastParams.value(QStringLiteral("cursor")).toString(), QStringLiteral("c1"));
    QCOMPARE(walker->rows()->rowCount(), 10);
    QCOMPARE(walker->walkPageRows(), (QList<int>{0, 2}));
    QVERIFY(walker->isComplete());
}

void tst_PageWalker::retryAsksTheFailedPageAgain()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), rpcError(-32603, QStringLiteral("busy"))}}));
    PageWalker *walker = makeWalker();
    QVERIFY(!walker->canRetry()); // nothing failed
    QVERIFY(walkAll(walker));
    QVERIFY(walker->isStopped());
    QVERIFY(walker->canRetry());
    QCOMPARE(walker->findings().size(), 1); // page-error on page 2

    // The server recovers: the same cursor is sent again, and the walk goes on to its end.
    m_server.script[QStringLiteral("c1")] = page(tools(5, 5), QStringLiteral("c2"));
    m_server.script[QStringLiteral("c2")] = page(tools(10, 2), QJsonValue::Undefined);
    QSignalSpy finished(walker, &PageWalker::walkFinished);
    walker->retryFailedPage();
    QVERIFY(!walker->isStopped());
    QVERIFY(walker->stopReason().isEmpty());
    QVERIFY(!walker->canRetry()); // in flight
    const PageRecord &again = walker->ledger()->page(2);
    QCOMPARE(*again.requestCursor, QStringLiteral("c1"));
    QCOMPARE(again.index, 1); // still page 2 of the same walk
    QCOMPARE(again.walk, 0);
    QTRY_COMPARE(walker->rows()->rowCount(), 10);
    QCOMPARE(m_server.transport->lastParams.value(QStringLiteral("cursor")).toString(), QStringLiteral("c1"));

    // The failed attempt stays in the history, out of the walk, with its error.
    const PageRecord &failed = walker->ledger()->page(1);
    QCOMPARE(failed.state, PageRecord::State::Discarded);
    QCOMPARE(failed.discardReason, QStringLiteral("retried"));
    QCOMPARE(failed.error.code, -32603);
    QCOMPARE(walker->walkPageRows(), (QList<int>{0, 2}));
    QVERIFY(walker->findings().isEmpty()); // the walk's pages are all good now

    // Only the walk's last page, only while stopped by it.
    walker->fetchAll();
    QTRY_VERIFY(walker->isComplete());
    QCOMPARE(walker->rows()->rowCount(), 12);
    QVERIFY(!walker->canRetry());
    walker->retryFailedPage(); // no-op
    QCOMPARE(walker->ledger()->rowCount(), 4);
}

void tst_PageWalker::restartDiscardsTheWalk()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(5, 5), QJsonValue::Undefined)}}));
    PageWalker *walker = makeWalker();
    QSignalSpy restarted(walker, &PageWalker::walkRestarted);
    walker->restart(QStringLiteral("too early")); // not started: nothing to discard, nothing asked
    QCOMPARE(restarted.size(), 1);
    QCOMPARE(walker->ledger()->rowCount(), 0);
    QVERIFY(!walker->isStarted());

    QVERIFY(walkAll(walker));
    QCOMPARE(m_clock->scheduledCount(), 2);
    const int walk = walker->currentWalk(); // each restart counts, even one before the start
    QSignalSpy accepted(walker, &PageWalker::pageAccepted);
    QSignalSpy reset(walker->rows(), &RowStore::wasReset);
    const QString reason = QStringLiteral("the user asked");
    walker->restart(reason);
    QCOMPARE(restarted.size(), 2);
    QCOMPARE(restarted.last().at(0).toString(), reason);
    QCOMPARE(reset.size(), 1);
    QCOMPARE(walker->currentWalk(), walk + 1);
    QVERIFY(!walker->isComplete());
    QCOMPARE(walker->rows()->rowCount(), 0); // until the new walk's first page arrives
    for (int row = 0; row < 2; ++row) {
        QCOMPARE(walker->ledger()->page(row).state, PageRecord::State::Discarded);
        QCOMPARE(walker->ledger()->page(row).discardReason, reason);
    }
    QCOMPARE(walker->ledger()->data(walker->ledger()->index(0, PageLedger::StateColumn)).toString(),
             QStringLiteral("discarded: ") + reason);

    // The new walk starts from the first page (one page: restart does not fetch all).
    QCOMPARE(walker->ledger()->rowCount(), 3);
    QCOMPARE(walker->ledger()->page(2).walk, walk + 1);
    QCOMPARE(walker->ledger()->page(2).index, 0);
    QVERIFY(!walker->ledger()->page(2).requestCursor.has_value());
    QVERIFY(accepted.wait(2000));
    QCOMPARE(walker->rows()->rowCount(), 5);
    QCOMPARE(walker->walkPageRows(), QList<int>{2});
    QCOMPARE(m_clock->scheduledCount(), 1); // the discarded pages no longer count down
    QVERIFY(walker->canFetchNext());
}

void tst_PageWalker::refetchReplacesRowsAndDiffs_data()
{
    QTest::addColumn<QJsonArray>("fresh"); // page 2 on the server at refetch time (was tool_005..009)
    QTest::addColumn<int>("added");
    QTest::addColumn<int>("removed");
    QTest::addColumn<int>("changed");
    QTest::addColumn<bool>("inPlace"); // as many items as before: rows replaced, not removed and inserted

    QTest::addRow("unchanged_page") << tools(5, 5) << 0 << 0 << 0 << true;
    QJsonArray shifted = tools(6, 5);
    QJsonObject t = shifted[0].toObject();
    t[QStringLiteral("description")] = QStringLiteral("changed");
    shifted[0] = t;
    QTest::addRow("one_added_one_removed_one_changed") << shifted << 1 << 1 << 1 << true;
    QTest::addRow("page_grew") << tools(5, 7) << 2 << 0 << 0 << false;
    QTest::addRow("page_emptied") << QJsonArray{} << 0 << 5 << 0 << false;
}

void tst_PageWalker::refetchReplacesRowsAndDiffs()
{
    QFETCH(QJsonArray, fresh);
    QFETCH(int, added);
    QFETCH(int, removed);
    QFETCH(int, changed);
    QFETCH(bool, inPlace);
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(5, 5), QStringLiteral("c2"))},
                                    {QStringLiteral("c2"), page(tools(10, 5), QJsonValue::Undefined)}}));
    PageWalker *walker = makeWalker();
    QVERIFY(walkAll(walker));
    m_server.script[QStringLiteral("c1")] = page(fresh, QStringLiteral("c2"));
    QSignalSpy accepted(walker, &PageWalker::pageAccepted);
    QSignalSpy replaced(walker->rows(), &RowStore::rowsReplaced);
    QSignalSpy inserted(walker->rows(), &RowStore::rowsInserted);
    walker->refetchPage(1);
    QCOMPARE(walker->ledger()->page(1).state, PageRecord::State::Refetching);
    QVERIFY(accepted.wait(2000));
    QCOMPARE(accepted.last().at(0).toInt(), 1);
    QCOMPARE(m_server.transport->lastParams.value(QStringLiteral("cursor")).toString(), QStringLiteral("c1"));

    const PageRecord &rec = walker->ledger()->page(1);
    QCOMPARE(rec.state, PageRecord::State::Fresh);
    QCOMPARE(rec.refetchCount, 1);
    QCOMPARE(rec.diffAdded, added);
    QCOMPARE(rec.diffRemoved, removed);
    QCOMPARE(rec.diffChanged, changed);
    QCOMPARE(rec.itemCount, int(fresh.size()));
    QCOMPARE(rec.attempts.size(), 2);
    QVERIFY(rec.attempts.last().refetch);
    QCOMPARE(walker->ledger()->rowCount(), 3); // a refetch is the same page, not a new request row
    QCOMPARE(replaced.size(), inPlace && !fresh.isEmpty() ? 1 : 0);
    QCOMPARE(inserted.size(), inPlace || fresh.isEmpty() ? 0 : 1);

    // The page's rows are the new copy, in place between its neighbours.
    QCOMPARE(walker->rows()->rowCount(), 10 + int(fresh.size()));
    int first = -1, count = -1;
    QVERIFY(walker->rows()->rowsOfPage(1, &first, &count));
    QCOMPARE(first, 5);
    QCOMPARE(count, int(fresh.size()));
    for (int i = 0; i < count; ++i)
        QCOMPARE(walker->rows()->item(first + i), fresh.at(i).toObject());
    QCOMPARE(walker->rows()->item(first + count).value(QStringLiteral("name")).toString(),
             QStringLiteral("tool_010"));
}

void tst_PageWalker::aRestartedWalkSaysWhereItParts_data()
{
    // The first walk: tools 0-4, 5-9, 10-14. The second walk's script, and the page (0-based,
    // -1 for none) marked where it parts, with a word of how.
    QTest::addColumn<QJsonArray>("second1");
    QTest::addColumn<QJsonArray>("second2");
    QTest::addColumn<QJsonArray>("second3"); // empty: the walk ends at its second page
    QTest::addColumn<int>("parts");
    QTest::addColumn<QString>("how");
    auto reversed = [](const QJsonArray &a) {
        QJsonArray r;
        for (auto it = a.end(); it != a.begin();)
            r.append(*--it);
        return r;
    };
    QTest::newRow("the same list") << tools(0, 5) << tools(5, 5) << tools(10, 5) << -1 << QString();
    QTest::newRow("an item gone from page 2")
        << tools(0, 5) << tools(6, 4) << tools(10, 5) << 1
        << QStringLiteral("other items than walk 1's page 2 (4 here, 5 there)");
    QTest::newRow("page 2 in another order")
        << tools(0, 5) << reversed(tools(5, 5)) << tools(10, 5) << 1 << QStringLiteral("in another order");
    QTest::newRow("the same count, another item") << tools(0, 5) << tools(5, 5) << tools(20, 5) << 2
                                                  << QStringLiteral("other items than walk 1's page 3");
    QTest::newRow("it ends sooner") << tools(0, 5) << tools(5, 5) << QJsonArray() << 1
                                    << QStringLiteral("the list ends here; walk 1 went on to page 3");
}

void tst_PageWalker::aRestartedWalkSaysWhereItParts()
{
    QFETCH(QJsonArray, second1);
    QFETCH(QJsonArray, second2);
    QFETCH(QJsonArray, second3);
    QFETCH(int, parts);
    QFETCH(QString, how);
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(5, 5), QStringLiteral("c2"))},
                                    {QStringLiteral("c2"), page(tools(10, 5), QJsonValue::Undefined)}}));
    PageWalker *walker = makeWalker();
    QVERIFY(walkAll(walker));
    for (const PageRecord &p : walker->ledger()->pages())
        QVERIFY(p.parting.isEmpty()); // a first walk parts from nothing

    m_server.script =
        Script{{NoCursor, page(second1, QStringLiteral("d1"))},
               {QStringLiteral("d1"), page(second2, second3.isEmpty() ? QJsonValue(QJsonValue::Undefined)
                                                                      : QJsonValue(QStringLiteral("d2")))},
               {QStringLiteral("d2"), page(second3, QJsonValue::Undefined)}};
    walker->restart(QStringLiteral("the user asked"));
    QVERIFY(walkAll(walker));
    int marked = -1;
    for (int row : walker->walkPageRows()) {
        const PageRecord &p = walker->ledger()->page(row);
        if (!p.parting.isEmpty()) {
            QCOMPARE(marked, -1); // only the first page that parts
            marked = p.index;
            QVERIFY2(p.parting.contains(how), qPrintable(p.parting));
            QCOMPARE(p.toJson().value(QStringLiteral("parting")).toString(), p.parting); // reports, pages
            QCOMPARE(
                walker->ledger()->data(walker->ledger()->index(row, 0), PageLedger::PartingRole).toString(),
                p.parting);
        }
    }
    QCOMPARE(marked, parts);

    // A third walk compares with the second, not the first.
    walker->restart(QStringLiteral("again"));
    QVERIFY(walkAll(walker));
    for (int row : walker->walkPageRows())
        QVERIFY2(walker->ledger()->page(row).parting.isEmpty(),
                 qPrintable(walker->ledger()->page(row).parting));
}

void tst_PageWalker::aWalkCutShortIsComparedOnlyWhereItWasRead()
{
    // Walk 1 reads two pages; the third is asked for and never answered (no "c2" in the script).
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(5, 5), QStringLiteral("c2"))}}));
    PageWalker *walker = makeWalker();
    QSignalSpy accepted(walker, &PageWalker::pageAccepted);
    walker->fetchAll();
    QTRY_COMPARE(accepted.size(), 2);
    QTRY_VERIFY(walker->isLoading()); // page 3 in flight
    // The list as it is now: the same two pages, then a third the first walk never read.
    m_server.script.insert(QStringLiteral("c2"), page(tools(10, 5), QJsonValue::Undefined));
    walker->restart(QStringLiteral("list_changed"));
    QVERIFY(walkAll(walker));
    for (int row : walker->walkPageRows())
        QVERIFY2(walker->ledger()->page(row).parting.isEmpty(),
                 qPrintable(walker->ledger()->page(row).parting));

    // Other arguments are another query: its walk is compared with nothing.
    ListSource other = walker->source();
    walker->setSource(other);
    QVERIFY(walkAll(walker));
    m_server.script.insert(NoCursor, page(tools(1, 5), QStringLiteral("c1")));
    other.setLimit(5);
    walker->setSource(other);
    QVERIFY(walkAll(walker));
    for (int row : walker->walkPageRows())
        QVERIFY2(walker->ledger()->page(row).parting.isEmpty(),
                 qPrintable(walker->ledger()->page(row).parting));
}

void tst_PageWalker::refusedRefetchRestarts()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"), 100000)},
                                    {QStringLiteral("c1"), page(tools(5, 5), QJsonValue::Undefined, 1000)}}));
    PageWalker *walker = makeWalker();
    QVERIFY(walkAll(walker));
    m_server.script[QStringLiteral("c1")] = rpcError(-32602, QStringLiteral("Cursor expired"));
    QSignalSpy restarted(walker, &PageWalker::walkRestarted);
    walker->refetchPage(1);
    QVERIFY(restarted.wait(2000));
    QVERIFY(restarted.first().at(0).toString().contains(QStringLiteral("-32602")));
    QCOMPARE(walker->ledger()->page(0).state, PageRecord::State::Discarded);
    QCOMPARE(walker->ledger()->page(1).state, PageRecord::State::Discarded);
    QCOMPARE(walker->ledger()->page(1).discardReason, restarted.first().at(0).toString());
    QCOMPARE(walker->ledger()->page(1).findings.first().id, FindingId::PageError);
    QCOMPARE(walker->currentWalk(), 1);
    QTRY_COMPARE(walker->ledger()->rowCount(), 3); // the new walk started from the first page
    QCOMPARE(walker->ledger()->page(2).walk, 1);
    QVERIFY(!walker->ledger()->page(2).requestCursor.has_value());
}

void tst_PageWalker::expiry_data()
{
    QTest::addColumn<bool>("autoBefore"); // setAutoRefetch(true) before the page expires
    QTest::addColumn<bool>("autoAfter");  // ... or once it has expired
    QTest::addRow("expired_page") << false << false;
    QTest::addRow("expired_page_refetched") << true << false;
    QTest::addRow("expired_page_refetched_when_auto_turned_on") << false << true;
}

void tst_PageWalker::expiry()
{
    QFETCH(bool, autoBefore);
    QFETCH(bool, autoAfter);
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"), 100000)},
                                    {QStringLiteral("c1"), page(tools(5, 5), QJsonValue::Undefined, 5000)}}));
    PageWalker *walker = makeWalker();
    walker->setAutoRefetch(autoBefore);
    QVERIFY(walkAll(walker));
    const qint64 received = m_now;
    QCOMPARE(walker->ledger()->page(1).expiresAtMonoMs(), received + 5000);
    const int requests = m_server.transport->requests;

    m_now = received + 4999;
    m_clock->processDue();
    QCOMPARE(walker->ledger()->page(1).state, PageRecord::State::Fresh);
    m_now = received + 5000;
    m_clock->processDue();
    QCOMPARE(walker->ledger()->page(0).state, PageRecord::State::Fresh); // its own TTL is longer
    if (!autoBefore) {
        QCOMPARE(walker->ledger()->page(1).state, PageRecord::State::Expired);
        QCOMPARE(walker->rows()->rowCount(), 10); // an expired page's rows stay
        QCOMPARE(m_server.transport->requests, requests);
    }
    if (!autoBefore && !autoAfter)
        return;
    QSignalSpy accepted(walker, &PageWalker::pageAccepted);
    if (autoAfter)
        walker->setAutoRefetch(true);
    QCOMPARE(walker->ledger()->page(1).state, PageRecord::State::Refetching);
    QVERIFY(accepted.wait(2000));
    QCOMPARE(m_server.transport->requests, requests + 1);
    QCOMPARE(m_server.transport->lastParams.value(QStringLiteral("cursor")).toString(), QStringLiteral("c1"));
    QCOMPARE(walker->ledger()->page(1).state, PageRecord::State::Fresh);
    QCOMPARE(walker->ledger()->page(1).expiresAtMonoMs(), m_now + 5000); // counts down again
}

void tst_PageWalker::listChanged_data()
{
    QTest::addColumn<bool>("started");
    QTest::addColumn<QString>("notification");
    QTest::addColumn<bool>("restarts");
    QTest::addRow("list_changed_restarts")
        << true << QStringLiteral("notifications/tools/list_changed") << true;
    QTest::addRow("other_list_ignored")
        << true << QStringLiteral("notifications/prompts/list_changed") << false;
    QTest::addRow("not_started_ignored")
        << false << QStringLiteral("notifications/tools/list_changed") << false;
}

void tst_PageWalker::listChanged()
{
    QFETCH(bool, started);
    QFETCH(QString, notification);
    QFETCH(bool, restarts);
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QJsonValue::Undefined)}}));
    PageWalker *walker = makeWalker();
    if (started)
        QVERIFY(walkAll(walker));
    QSignalSpy restarted(walker, &PageWalker::walkRestarted);
    m_server.transport->notify(notification);
    QCOMPARE(restarted.size(), restarts ? 1 : 0);
    QCOMPARE(walker->currentWalk(), restarts ? 1 : 0);
    if (!restarts) {
        QCOMPARE(walker->ledger()->rowCount(), started ? 1 : 0);
        return;
    }
    QVERIFY(restarted.first().at(0).toString().contains(QStringLiteral("tools/list_changed")));
    QCOMPARE(walker->ledger()->page(0).state, PageRecord::State::Discarded);
    QCOMPARE(walker->ledger()->rowCount(), 2); // walk 1 asks for its first page at once
    QCOMPARE(walker->ledger()->page(1).walk, 1);
}

// A server that says list_changed after every page: the walk starts again DefaultRestartCap
// times, then stops with what the last walk read and says why, instead of walking for ever.
void tst_PageWalker::restartCapStopsAListThatNeverHoldsStill()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(5, 5), QStringLiteral("c2"))},
                                    {QStringLiteral("c2"), page(tools(10, 5), QJsonValue::Undefined)}}));
    PageWalker *walker = makeWalker();
    walker->setRestartCap(3);
    QSignalSpy restarted(walker, &PageWalker::walkRestarted);
    QSignalSpy finished(walker, &PageWalker::walkFinished);
    QSignalSpy accepted(walker, &PageWalker::pageAccepted);
    connect(walker, &PageWalker::pageAccepted, this, [this, walker](int row) {
        if (walker->ledger()->page(row).index == 0) // the second page is in flight
            m_server.transport->notify(QStringLiteral("notifications/tools/list_changed"));
    });
    walker->fetchAll();
    QTRY_VERIFY(walker->isStopped());
    QCOMPARE(restarted.size(), 3);
    QCOMPARE(walker->currentWalk(), 3);
    QVERIFY(!walker->isComplete());
    QVERIFY(walker->stopReason().contains(QStringLiteral("restart cap")));
    QVERIFY(walker->stopReason().contains(QStringLiteral("tools/list_changed")));
    // The last walk keeps what it read: its first page, and the one in flight at the cap.
    QCOMPARE(walker->pagesInWalk(), 2);
    QCOMPARE(walker->rows()->rowCount(), 10);
    const QList<Finding> findings = walker->findings();
    QCOMPARE(findings.size(), 1);
    QCOMPARE(findings.first().id, FindingId::RestartCapReached);
    QCOMPARE(findings.first().severity, Finding::Severity::Warning);
    QCOMPARE(findings.first().evidence.value(QStringLiteral("restarts")).toInt(), 3);
    QCOMPARE(findings.first().pages, QList<int>{1});
    QCOMPARE(finished.last().at(0).value<PageWalker::End>(), PageWalker::End::Stopped);
    QVERIFY(!walker->isLoading());

    // More notifications change nothing now; the user's restart walks again.
    const int requests = m_server.transport->requests;
    m_server.transport->notify(QStringLiteral("notifications/tools/list_changed"));
    QCOMPARE(restarted.size(), 3);
    QCOMPARE(m_server.transport->requests, requests);
    walker->disconnect(this);
    walker->restart(QStringLiteral("restarted by the user"));
    walker->fetchAll();
    QTRY_VERIFY(walker->isComplete());
    QCOMPARE(walker->rows()->rowCount(), 15);
}

// A list that changes now and then, between walks that reach their end, is walked again each time.
void tst_PageWalker::completedWalkResetsTheRestartCap()
{
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QJsonValue::Undefined)}}));
    PageWalker *walker = makeWalker();
    walker->setRestartCap(2);
    QVERIFY(walkAll(walker));
    for (int i = 0; i < 5; ++i) {
        m_server.transport->notify(QStringLiteral("notifications/tools/list_changed"));
        walker->fetchAll();
        QTRY_VERIFY(walker->isComplete());
    }
    QCOMPARE(walker->currentWalk(), 5);
    QVERIFY(!walker->isStopped());
    QVERIFY(walker->findings().isEmpty());
}

// Pages without end: the walk stops once it keeps its size cap, with the finding on the last page.
void tst_PageWalker::sizeCapStopsAWalkThatKeepsTooMuch()
{
    Script script;
    for (int p = 0; p < 50; ++p)
        script.insert(p == 0 ? NoCursor : QStringLiteral("c%1").arg(p),
                      page(tools(p * 10, 10), QStringLiteral("c%1").arg(p + 1)));
    QVERIFY(m_server.connect(script));
    PageWalker *walker = makeWalker();
    QCOMPARE(walker->sizeCap(), DefaultMaxWalkBytes); // the client's config: its default
    const qint64 onePage = [] {
        qint64 n = 0;
        for (const QJsonValue &v : tools(0, 10))
            n += QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact).size() + 4;
        return n;
    }();
    walker->setSizeCap(onePage * 7 / 2); // three pages fit under it, the fourth passes it
    QVERIFY(walkAll(walker));
    QVERIFY(walker->isStopped());
    QCOMPARE(walker->pagesInWalk(), 4);
    QVERIFY(walker->keptBytes() >= walker->sizeCap());
    QVERIFY(walker->stopReason().contains(QStringLiteral("size cap")));
    const QList<Finding> findings = walker->findings();
    QCOMPARE(findings.size(), 1);
    QCOMPARE(findings.first().id, FindingId::WalkSizeCapReached);
    QCOMPARE(findings.first().pages, QList<int>{3});
    QCOMPARE(findings.first().evidence.value(QStringLiteral("nextCursor")).toString(), QStringLiteral("c4"));
    QCOMPARE(m_server.transport->requests, 4);

    // A restart starts counting again.
    walker->restart(QStringLiteral("restarted by the user"));
    QCOMPARE(walker->keptBytes(), qint64(0));
}

void tst_PageWalker::manualStart_data()
{
    QTest::addColumn<bool>("byFetchAll");
    QTest::addRow("started_by_start") << false;
    QTest::addRow("started_by_fetch_all") << true;
}

void tst_PageWalker::manualStart()
{
    QFETCH(bool, byFetchAll);
    QVERIFY(m_server.connect(Script{{NoCursor, page(tools(0, 5), QStringLiteral("c1"))},
                                    {QStringLiteral("c1"), page(tools(5, 5), QJsonValue::Undefined)}}));
    PageWalker *walker = makeWalker();
    walker->setManualStart(true);
    QVERIFY(!walker->canFetchNext());
    walker->fetchNext(); // a view scrolling: ignored until the user starts
    QCOMPARE(walker->ledger()->rowCount(), 0);
    QVERIFY(!walker->isStarted());

    QSignalSpy accepted(walker, &PageWalker::pageAccepted);
    if (byFetchAll) {
        QVERIFY(walkAll(walker));
        QCOMPARE(walker->pagesInWalk(), 2);
        return;
    }
    walker->start();
    QVERIFY(walker->isStarted());
    QCOMPARE(walker->ledger()->rowCount(), 1);
    QVERIFY(accepted.wait(2000));
    walker->start(); // started already: asks nothing more
    QCOMPARE(walker->ledger()->rowCount(), 1);
    QVERIFY(walker->canFetchNext());
    walker->fetchNext();
    QCOMPARE(walker->ledger()->rowCount(), 2);
}

void tst_PageWalker::legacyPagesCarryNoHintsByDesign()
{
    const QJsonObject p =
        page(tools(0, 3), QJsonValue::Undefined, QJsonValue::Undefined, QJsonValue::Undefined);
    QVERIFY(m_server.connect(Script{{NoCursor, p}}, /*modern=*/false));
    QCOMPARE(m_server.client->protocolVersion(), QStringLiteral("2025-11-25"));
    PageWalker *walker = makeWalker();
    QVERIFY(walkAll(walker));
    QVERIFY(walker->findings().isEmpty()); // not a fault
    const PageRecord &rec = walker->ledger()->page(0);
    QVERIFY(rec.legacyEra);
    QVERIFY(!rec.hintsExpected);
    QCOMPARE(rec.state, PageRecord::State::Stale);
    QCOMPARE(rec.scope, PageRecord::Scope::NotApplicable);
    QCOMPARE(m_clock->scheduledCount(), 0);
    QCOMPARE(walker->ledger()->data(walker->ledger()->index(0, PageLedger::TtlColumn)).toString(),
             QStringLiteral("no hints (legacy era)"));
}

void tst_PageWalker::listToolArgumentsAndLimit()
{
    QVERIFY(m_server.connect(scripted::postsPages()));
    ListSource source = *ListSource::fromTool(
        QJsonDocument::fromJson(
            R"({"name":"search_posts","inputSchema":{"properties":{"cursor":{"type":"string"},"limit":{"type":"integer"},"channel":{"type":"string"}}}})")
            .object());
    source.setArguments({{QStringLiteral("channel"), QStringLiteral("town-square")}});
    source.setLimit(2);
    PageWalker *walker = makeWalker(source);
    QVERIFY(walkAll(walker));
    QCOMPARE(walker->rows()->rowCount(), 3);
    const QJsonObject args = m_server.transport->lastParams.value(QStringLiteral("arguments")).toObject();
    QCOMPARE(m_server.transport->lastParams.value(QStringLiteral("name")).toString(),
             QStringLiteral("search_posts"));
    QCOMPARE(args.value(QStringLiteral("channel")).toString(), QStringLiteral("town-square"));
    QCOMPARE(args.value(QStringLiteral("limit")).toInt(), 2);
    QCOMPARE(args.value(QStringLiteral("cursor")).toString(), QStringLiteral("n1"));
    QCOMPARE(walker->ledger()->page(0).requestedLimit.value_or(-1), 2);
    QCOMPARE(walker->findings().size(), 1);
    QCOMPARE(walker->findings().first().id, FindingId::PageOverLimit);
    QCOMPARE(walker->ledger()->page(0).scope, PageRecord::Scope::NotApplicable);
}

// A list tool whose inputSchema requires arguments the user has not given asks for nothing and
// says what it needs; given them, it walks.
void tst_PageWalker::listToolWaitsForRequiredArguments_data()
{
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("needs");
    QTest::addRow("required") << R"({"required":["cursor","repo","owner"]})"
                              << QStringLiteral("needs repo and owner");
    QTest::addRow("one of two") << R"({"anyOf":[{"required":["channel"]},{"required":["query","channel"]}]})"
                                << QStringLiteral("needs channel or query");
    QTest::addRow("oneOf of three")
        << R"({"oneOf":[{"required":["a"]},{"required":["b"]},{"required":["c"]}]})"
        << QStringLiteral("needs a, b or c");
    QTest::addRow("alternatives that say more are not read")
        << R"({"anyOf":[{"required":["a"],"properties":{}}]})" << QString();
}

void tst_PageWalker::listToolWaitsForRequiredArguments()
{
    QFETCH(QString, schema);
    QFETCH(QString, needs);
    QVERIFY(m_server.connect(scripted::postsPages()));
    QJsonObject inputSchema = QJsonDocument::fromJson(schema.toUtf8()).object();
    inputSchema.insert(QStringLiteral("properties"),
                       QJsonObject{{QStringLiteral("cursor"),
                                    QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}});
    const QJsonObject tool{{QStringLiteral("name"), QStringLiteral("search_posts")},
                           {QStringLiteral("inputSchema"), inputSchema}};
    ListSource source = *ListSource::fromTool(tool);
    QCOMPARE(source.argumentsNeeded(), needs.mid(6)); // without "needs "
    PageWalker *walker = makeWalker(source);
    walker->start();
    if (needs.isEmpty()) {
        QCOMPARE(walker->ledger()->rowCount(), 1);
        QVERIFY(!walker->needsArguments());
        return;
    }
    QCOMPARE(walker->ledger()->rowCount(), 0); // nothing asked
    QVERIFY(walker->needsArguments());
    QVERIFY(walker->isStopped());
    QCOMPARE(walker->stopReason(), needs);
    QVERIFY(walker->findings().isEmpty());

    // Given every name any alternative asks for, the walk goes.
    QJsonObject given;
    for (const QString &name : {QStringLiteral("repo"), QStringLiteral("owner"), QStringLiteral("channel"),
                                QStringLiteral("query"), QStringLiteral("a")})
        given.insert(name, QStringLiteral("x"));
    source.setArguments(given);
    QCOMPARE(source.argumentsNeeded(), QString());
    walker->setSource(source);
    walker->start();
    QVERIFY(!walker->needsArguments());
    QVERIFY(walkAll(walker));
    QCOMPARE(walker->rows()->rowCount(), 3);
}

// A first page refused for want of arguments the user did not give is Folio's question, not the
// server's fault: no finding, the page struck out, the walk waiting. With arguments the user chose,
// the same refusal is a failed page as any other.
void tst_PageWalker::listToolRefusedWithoutArgumentsWaits_data()
{
    QTest::addColumn<QJsonObject>("refusal");
    QTest::addColumn<bool>("chosen");
    const QJsonObject isError{
        {QStringLiteral("content"),
         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                {QStringLiteral("text"), QStringLiteral("give a channel")}}}},
        {QStringLiteral("isError"), true}};
    QTest::addRow("isError") << isError << false;
    QTest::addRow("-32602") << rpcError(-32602, QStringLiteral("give a channel")) << false;
    QTest::addRow("isError with arguments chosen") << isError << true;
}

void tst_PageWalker::listToolRefusedWithoutArgumentsWaits()
{
    QFETCH(QJsonObject, refusal);
    QFETCH(bool, chosen);
    QVERIFY(m_server.connect(Script{{NoCursor, refusal}}));
    ListSource source = *ListSource::fromTool(
        QJsonDocument::fromJson(
            R"({"name":"search_posts","inputSchema":{"properties":{"cursor":{"type":"string"},"limit":{"type":"integer"},"channel":{"type":"string"}}}})")
            .object());
    source.setLimit(5); // a paging argument: not a choice of what to list
    if (chosen)
        source.setArguments({{QStringLiteral("channel"), QStringLiteral("nowhere")}});
    PageWalker *walker = makeWalker(source);
    QSignalSpy finished(walker, &PageWalker::walkFinished);
    walker->start();
    QVERIFY(finished.wait(2000));
    QVERIFY(walker->isStopped());
    QCOMPARE(walker->needsArguments(), !chosen);
    const PageRecord &rec = walker->ledger()->page(0);
    QVERIFY(rec.error.isError()); // the answer stays as received
    if (chosen) {
        QCOMPARE(rec.state, PageRecord::State::Failed);
        QVERIFY(!rec.askedWithoutArguments);
        QCOMPARE(walker->findings().size(), 1);
        QCOMPARE(walker->findings().first().id, FindingId::PageError);
        return;
    }
    QCOMPARE(rec.state, PageRecord::State::Discarded);
    QVERIFY(rec.askedWithoutArguments);
    QVERIFY(walker->findings().isEmpty());
    QVERIFY(rec.findings.isEmpty());
    QCOMPARE(walker->stopReason(), QStringLiteral("needs arguments: give a channel"));
    QVERIFY(!walker->canRetry());
}

// Each paging style walks to its end: a page-token list on an empty token, an offset list on a
// short page, a page-number list on an empty page; positions are sent as numbers, and a list that
// pages by position says so once (transparent-paging, info).
void tst_PageWalker::pagingStyles_data()
{
    QTest::addColumn<QByteArray>("tool");
    QTest::addColumn<int>("limit");
    QTest::addColumn<Script>("script");
    QTest::addColumn<QStringList>("sent"); // what each request carried ("<none>" for the first)
    QTest::addColumn<int>("rows");
    QTest::addColumn<QStringList>("findings");
    auto items = [](int from, int n) {
        QJsonArray a;
        for (int i = from; i < from + n; ++i)
            a.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("r%1").arg(i)}});
        return a;
    };
    auto tokenPage = [&](int from, int n, const QString &token) {
        return QJsonObject{
            {QStringLiteral("structuredContent"), QJsonObject{{QStringLiteral("records"), items(from, n)},
                                                              {QStringLiteral("next_page_token"), token}}}};
    };
    QTest::addRow("page_token_ends_on_empty")
        << QByteArray(R"({"name":"list_logs","inputSchema":{"properties":{"page_token":{"type":"string"}}}})")
        << -1
        << Script{{NoCursor, tokenPage(0, 3, QStringLiteral("t2"))},
                  {QStringLiteral("t2"), tokenPage(3, 3, QString())},
                  {QString(), rpcError(-32602, QStringLiteral("empty token"))}}
        << QStringList{NoCursor, QStringLiteral("t2")} << 6 << QStringList{};
    auto offsetPage = [&](int from, int n) {
        return QJsonObject{
            {QStringLiteral("structuredContent"), QJsonObject{{QStringLiteral("rows"), items(from, n)}}}};
    };
    QTest::addRow("offset_ends_on_short_page")
        << QByteArray(
               R"({"name":"read_records","inputSchema":{"properties":{"table":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}}}})")
        << 2
        << Script{{NoCursor, offsetPage(0, 2)},
                  {QStringLiteral("2"), offsetPage(2, 2)},
                  {QStringLiteral("4"), offsetPage(4, 1)}}
        << QStringList{NoCursor, QStringLiteral("2"), QStringLiteral("4")} << 5
        << QStringList{QStringLiteral("transparent-paging@1")};
    QTest::addRow("page_number_ends_on_empty_page")
        << QByteArray(
               R"({"name":"list_issues","inputSchema":{"properties":{"page":{"type":"integer"},"per_page":{"type":"integer"}}}})")
        << -1
        << Script{{NoCursor, offsetPage(0, 3)},
                  {QStringLiteral("2"), offsetPage(3, 3)},
                  {QStringLiteral("3"), offsetPage(6, 0)}}
        << QStringList{NoCursor, QStringLiteral("2"), QStringLiteral("3")} << 6
        << QStringList{QStringLiteral("transparent-paging@1")};
}

void tst_PageWalker::pagingStyles()
{
    QFETCH(QByteArray, tool);
    QFETCH(int, limit);
    QFETCH(Script, script);
    QFETCH(QStringList, sent);
    QFETCH(int, rows);
    QFETCH(QStringList, findings);
    QVERIFY(m_server.connect(script));
    ListSource source = *ListSource::fromTool(QJsonDocument::fromJson(tool).object());
    if (limit > 0)
        source.setLimit(limit);
    PageWalker *walker = makeWalker(source);
    QVERIFY(walkAll(walker));
    QVERIFY(walker->isComplete());
    QCOMPARE(walker->rows()->rowCount(), rows);
    QStringList asked;
    for (int row : walker->walkPageRows())
        asked << walker->ledger()->page(row).requestCursor.value_or(NoCursor);
    QCOMPARE(asked, sent);
    if (source.pagesByPosition()) { // positions go out as numbers
        const QJsonObject args = m_server.transport->lastParams.value(QStringLiteral("arguments")).toObject();
        QVERIFY(args.value(source.cursorArgument()).isDouble());
    }
    QStringList got;
    for (const Finding &f : walker->findings())
        got << QStringLiteral("%1@%2").arg(f.id).arg(f.pages.first() + 1);
    QCOMPARE(got, findings);
}

// A limit among the arguments is the page size judged, as --limit is; a cursor among them is where
// the walk starts (and where it starts again after a restart).
void tst_PageWalker::limitAndCursorAmongTheArguments()
{
    QVERIFY(m_server.connect(scripted::postsPages()));
    const QJsonObject tool =
        QJsonDocument::fromJson(
            R"({"name":"search_posts","inputSchema":{"properties":{"cursor":{"type":"string"},"limit":{"type":"integer"}}}})")
            .object();
    {
        ListSource source = *ListSource::fromTool(tool);
        source.setArguments({{QStringLiteral("limit"), 2}});
        QCOMPARE(source.pageSizeSent().value_or(-1), 2);
        QVERIFY(!source.startCursor());
        PageWalker *walker = makeWalker(source);
        QVERIFY(walkAll(walker));
        QCOMPARE(walker->ledger()->page(0).requestedLimit.value_or(-1), 2);
        QCOMPARE(walker->findings().size(), 1);
        QCOMPARE(walker->findings().first().id, FindingId::PageOverLimit); // 3 posts for a limit of 2
        delete m_walker;
        m_walker = nullptr;
    }
    ListSource source = *ListSource::fromTool(tool);
    source.setArguments({{QStringLiteral("cursor"), QStringLiteral("n1")}, {QStringLiteral("limit"), 2.5}});
    QVERIFY(!source.pageSizeSent()); // not a whole number: no page size to judge against
    source.setLimit(7);
    QCOMPARE(source.pageSizeSent().value_or(-1), 7); // --limit wins
    QCOMPARE(source.startCursor().value_or(QString()), QStringLiteral("n1"));
    const int before = m_server.transport->requests;
    PageWalker *walker = makeWalker(source);
    QVERIFY(walkAll(walker));
    QCOMPARE(walker->pagesInWalk(), 1);
    QCOMPARE(walker->ledger()->page(0).requestCursor.value_or(QString()), QStringLiteral("n1"));
    QCOMPARE(m_server.transport->requests - before, 1);
    QCOMPARE(m_server.transport->lastParams.value(QStringLiteral("arguments"))
                 .toObject()
                 .value(QStringLiteral("limit"))
                 .toInt(),
             7);
    QSignalSpy finished(walker, &PageWalker::walkFinished);
    walker->restart(QStringLiteral("again"));
    QVERIFY(finished.wait(3000));
    QCOMPARE(walker->ledger()->page(walker->walkPageRows().first()).requestCursor.value_or(QString()),
             QStringLiteral("n1"));
}

QTEST_GUILESS_MAIN(tst_PageWalker)
#include "tst_pagewalker.moc"
