// The judge of a client (models/clientjudge.h): for every rule, the smallest exchange that triggers
// it and one close to it, a well-behaved client's, that does not.

#include "clientjudge.h"
#include "counted.h"

#include <QJsonArray>
#include <QTest>

using namespace folio;

namespace {

const QString Tools = QStringLiteral("tools/list");
const QString MetaVersion = QStringLiteral("io.modelcontextprotocol/protocolVersion");
const QString MetaCapabilities = QStringLiteral("io.modelcontextprotocol/clientCapabilities");
const QJsonValue Absent = QJsonValue(QJsonValue::Undefined);

QJsonObject fullMeta()
{
    return {{MetaVersion, QStringLiteral("2026-07-28")}, {MetaCapabilities, QJsonObject{}}};
}

QJsonObject request(const QJsonValue &id, const QString &method, const QJsonObject &params = {})
{
    QJsonObject m{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                  {QStringLiteral("id"), id},
                  {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        m.insert(QStringLiteral("params"), params);
    return m;
}

QJsonObject result(const QJsonValue &id, const QJsonObject &result)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("result"), result}};
}

QJsonObject error(const QJsonValue &id, int code)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("error"),
             QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), QStringLiteral("no")}}}};
}

// A page of tools/list: items, and nextCursor and ttlMs unless Absent.
QJsonObject toolsPage(int items, const QJsonValue &next = Absent, const QJsonValue &ttl = Absent)
{
    QJsonArray tools;
    for (int i = 0; i < items; ++i)
        tools.append(QJsonObject{{QStringLiteral("name"), QStringLiteral("t%1").arg(i)}});
    QJsonObject page{{QStringLiteral("tools"), tools}};
    if (!next.isUndefined())
        page.insert(QStringLiteral("nextCursor"), next);
    if (!ttl.isUndefined()) {
        page.insert(QStringLiteral("ttlMs"), ttl);
        page.insert(QStringLiteral("cacheScope"), QStringLiteral("public"));
    }
    return page;
}

// What a tap sees: the client's and the server's messages, at a clock the test moves.
struct Tap
{
    explicit Tap(const ClientJudge::Options &options = {})
        : judge(options)
    {}
    ClientJudge judge;
    qint64 now = 0;
    int lastId = 0;
    bool withMeta = false;

    void client(const QJsonObject &m) { judge.observe(ClientJudge::From::Client, m, now); }
    void server(const QJsonObject &m) { judge.observe(ClientJudge::From::Server, m, now); }

    // The client asks a page of a protocol list (Absent: the first); the request's id.
    int ask(const QString &method = Tools, const QJsonValue &cursor = Absent)
    {
        QJsonObject params;
        if (!cursor.isUndefined())
            params.insert(QStringLiteral("cursor"), cursor);
        if (withMeta)
            params.insert(QStringLiteral("_meta"), fullMeta());
        client(request(++lastId, method, params));
        return lastId;
    }
    void answer(int id, const QJsonValue &next = Absent, const QJsonValue &ttl = Absent, int items = 2)
    {
        server(result(id, toolsPage(items, next, ttl)));
    }
    void fail(int id, int code) { server(error(id, code)); }
    void notify(const QString &method)
    {
        server({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), method}});
    }

    // A walk of tools/list: the client asks `asked` pages, each with the cursor the page before it
    // gave; the server answers page i with nexts[i], or the last with lastError when it is not 0.
    void walk(const QList<QJsonValue> &nexts, int asked, int lastError = 0)
    {
        for (int i = 0; i < asked; ++i) {
            const int id = ask(Tools, i == 0 ? Absent : nexts.at(i - 1));
            if (i == asked - 1 && lastError != 0)
                fail(id, lastError);
            else
                answer(id, nexts.value(i, Absent));
            now += 10;
        }
    }

    QList<Finding> findings(const QString &id) const
    {
        QList<Finding> out;
        for (const Finding &f : judge.findings()) {
            if (f.id == id)
                out << f;
        }
        return out;
    }
    QStringList ids() const
    {
        QStringList out;
        for (const Finding &f : judge.findings())
            out << f.id;
        return out;
    }
};

QList<QJsonValue> cursors(int pages)
{
    QList<QJsonValue> out;
    for (int i = 1; i <= pages; ++i)
        out << QJsonValue(QStringLiteral("c%1").arg(i));
    return out;
}

QJsonObject listTool()
{
    const QJsonObject schema{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("cursor"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
             {QStringLiteral("limit"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}}},
             {QStringLiteral("team"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}};
    return {{QStringLiteral("name"), QStringLiteral("list_users")}, {QStringLiteral("inputSchema"), schema}};
}

QJsonObject callTool(const QJsonObject &arguments)
{
    return {{QStringLiteral("name"), QStringLiteral("list_users")}, {QStringLiteral("arguments"), arguments}};
}

QJsonObject toolPage(const QJsonValue &next)
{
    QJsonObject content{{QStringLiteral("users"), QJsonArray{QStringLiteral("ann"), QStringLiteral("bob")}}};
    if (!next.isUndefined())
        content.insert(QStringLiteral("next_cursor"), next);
    return {{QStringLiteral("structuredContent"), content}};
}

} // namespace

class tst_ClientJudge : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void walkEnd_data();
    void walkEnd();
    void stoppedEarlyJudgedAtNewWalk();
    void repeatedCursor_data();
    void repeatedCursor();
    void cursorError_data();
    void cursorError();
    void changedArguments_data();
    void changedArguments();
    void listChanged_data();
    void listChanged();
    void restartedForListChanged();
    void otherLists_data();
    void otherLists();
    void refetchedFreshPage_data();
    void refetchedFreshPage();
    void polling_data();
    void polling();
    void requestMeta_data();
    void requestMeta();
    void revision();
    void walksSeen();
    void idsMatchAnswers();
    void bounded();
    void ignoredAfterFinish();
    void catalogue();
};

// Rules 1 and 2: where a walk ends, and why it looks that way.
void tst_ClientJudge::walkEnd_data()
{
    QTest::addColumn<QList<QJsonValue>>("nexts"); // the server's nextCursor, page by page
    QTest::addColumn<int>("asked");               // pages the client asks
    QTest::addColumn<int>("lastError");           // the last page's error code, 0: answered
    QTest::addColumn<QString>("id");              // "": no finding
    QTest::addColumn<QString>("reason");
    QTest::addColumn<int>("page");

    const QString early = FindingId::ClientStoppedEarly;
    const QString never = FindingId::ClientNeverPaged;
    QTest::addRow("\"\" taken for the end") << QList<QJsonValue>{QStringLiteral("a"), QStringLiteral("")} << 2
                                            << 0 << early << QStringLiteral("empty-cursor") << 1;
    QTest::addRow("a round page count") << cursors(10) << 10 << 0 << early << QStringLiteral("page-cap") << 9;
    QTest::addRow("100 pages") << cursors(100) << 100 << 0 << early << QStringLiteral("page-cap") << 99;
    QTest::addRow("64 pages") << cursors(64) << 64 << 0 << early << QStringLiteral("page-cap") << 63;
    QTest::addRow("no reason seen") << cursors(3) << 3 << 0 << early << QStringLiteral("unknown") << 2;
    QTest::addRow("an error, not asked again")
        << cursors(3) << 3 << -32603 << early << QStringLiteral("error") << 1;
    QTest::addRow("only the first page") << cursors(1) << 1 << 0 << never << QStringLiteral("unknown") << 0;
    QTest::addRow("only the first page, \"\"")
        << QList<QJsonValue>{QStringLiteral("")} << 1 << 0 << never << QStringLiteral("empty-cursor") << 0;
    // A well-behaved client.
    QTest::addRow("follows \"\" to the end")
        << QList<QJsonValue>{QStringLiteral("a"), QStringLiteral(""), Absent} << 3 << 0 << QString()
        << QString() << 0;
    QTest::addRow("null ends") << QList<QJsonValue>{QStringLiteral("a"), QJsonValue(QJsonValue::Null)} << 2
                               << 0 << QString() << QString() << 0;
    QTest::addRow("one page") << QList<QJsonValue>{Absent} << 1 << 0 << QString() << QString() << 0;
    QTest::addRow("stops on a repeated cursor")
        << QList<QJsonValue>{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("a")} << 3 << 0
        << QString() << QString() << 0;
    QTest::addRow("100 pages to the end")
        << (cursors(99) << Absent) << 100 << 0 << QString() << QString() << 0;
    QTest::addRow("no such list") << QList<QJsonValue>{} << 1 << -32601 << QString() << QString() << 0;
    // A refused cursor is rule 4's, not this one's.
    QTest::addRow("a refused cursor")
        << cursors(2) << 2 << -32602 << FindingId::ClientGaveUpAfterCursorError << QString() << 0;
}

void tst_ClientJudge::walkEnd()
{
    QFETCH(QList<QJsonValue>, nexts);
    QFETCH(int, asked);
    QFETCH(int, lastError);
    QFETCH(QString, id);
    QFETCH(QString, reason);
    QFETCH(int, page);

    Tap tap;
    tap.walk(nexts, asked, lastError);
    tap.judge.finish(tap.now + 60'000);
    const QList<Finding> findings = tap.judge.findings();
    if (id.isEmpty()) {
        QVERIFY2(findings.isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
        return;
    }
    QCOMPARE(tap.ids(), QStringList{id});
    const Finding &f = findings.first();
    QCOMPARE(f.source, Finding::Source::Client);
    if (reason.isEmpty())
        return;
    QCOMPARE(f.severity, Finding::Severity::Warning);
    QCOMPARE(f.pages, QList<int>{page});
    QCOMPARE(f.evidence.value(QStringLiteral("reason")).toString(), reason);
    QCOMPARE(f.evidence.value(QStringLiteral("list")).toString(), Tools);
    QCOMPARE(f.evidence.value(QStringLiteral("pagesAsked")).toInt(), asked);
    QCOMPARE(f.evidence.value(QStringLiteral("cursor")), nexts.at(page));
    if (reason == QLatin1String("empty-cursor") && id == FindingId::ClientStoppedEarly)
        QVERIFY2(f.message.contains(QLatin1String("PG-02")), qPrintable(f.message));
    if (reason == QLatin1String("page-cap"))
        QVERIFY2(f.message.contains(QLatin1String("PG-06")), qPrintable(f.message));
}

void tst_ClientJudge::stoppedEarlyJudgedAtNewWalk()
{
    Tap tap;
    tap.walk({QStringLiteral("a"), QStringLiteral("b")}, 2);
    QVERIFY(tap.judge.findings().isEmpty()); // the walk may go on yet
    tap.walk({Absent}, 1);                   // a new walk from the first page: the last one ended
    QCOMPARE(tap.ids(), QStringList{FindingId::ClientStoppedEarly});
    tap.judge.finish(tap.now);
    QCOMPARE(tap.ids(), QStringList{FindingId::ClientStoppedEarly}); // the second walk reached its end
    QCOMPARE(tap.judge.walks().size(), 2);
}

// Rule 3.
void tst_ClientJudge::repeatedCursor_data()
{
    QTest::addColumn<int>("cycle");    // the server's cursors go round c1..cN
    QTest::addColumn<int>("asked");    // pages the client asks
    QTest::addColumn<int>("times");    // 0: no finding
    QTest::addColumn<bool>("endless"); // the message says the list never ends

    QTest::addRow("followed once") << 2 << 4 << 1 << false;
    QTest::addRow("never noticed") << 2 << 30 << 27 << true;
    QTest::addRow("a cycle of one") << 1 << 5 << 3 << true;
    QTest::addRow("stopped at the cycle") << 2 << 3 << 0 << false;
}

void tst_ClientJudge::repeatedCursor()
{
    QFETCH(int, cycle);
    QFETCH(int, asked);
    QFETCH(int, times);
    QFETCH(bool, endless);

    QList<QJsonValue> nexts;
    for (int i = 0; i < asked; ++i)
        nexts << QJsonValue(QStringLiteral("c%1").arg(i % cycle + 1));
    Tap tap;
    tap.walk(nexts, asked);
    tap.judge.finish(tap.now);
    if (times == 0) {
        QVERIFY2(tap.judge.findings().isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
        return;
    }
    QCOMPARE(tap.ids(), QStringList{FindingId::ClientFollowedRepeatedCursor});
    const Finding f = tap.judge.findings().first();
    QCOMPARE(f.severity, Finding::Severity::Warning);
    QCOMPARE(f.pages, QList<int>{cycle + 1});
    QCOMPARE(f.evidence.value(QStringLiteral("cursor")).toString(), QStringLiteral("c1"));
    QCOMPARE(f.evidence.value(QStringLiteral("times")).toInt(), times);
    QCOMPARE(f.evidence.value(QStringLiteral("pagesAsked")).toInt(), asked);
    QCOMPARE(f.message.contains(QLatin1String("never ends")), endless);
}

// Rule 4: what the client did after a refused cursor.
void tst_ClientJudge::cursorError_data()
{
    QTest::addColumn<int>("code");     // the answer to the cursor
    QTest::addColumn<QString>("then"); // "restart", "retry", "other" or "nothing"
    QTest::addColumn<QStringList>("ids");

    QTest::addRow("restarted") << -32602 << QStringLiteral("restart")
                               << QStringList{FindingId::ClientRestartedAfterCursorError};
    QTest::addRow("retried") << -32602 << QStringLiteral("retry")
                             << QStringList{FindingId::ClientRetriedRefusedCursor};
    QTest::addRow("gave up") << -32602 << QStringLiteral("nothing")
                             << QStringList{FindingId::ClientGaveUpAfterCursorError};
    QTest::addRow("another list only")
        << -32602 << QStringLiteral("other") << QStringList{FindingId::ClientGaveUpAfterCursorError};
    // Not a refused cursor: a server's trouble, which a retry of the same cursor answers well.
    QTest::addRow("internal error, retried") << -32603 << QStringLiteral("retry") << QStringList{};
}

void tst_ClientJudge::cursorError()
{
    QFETCH(int, code);
    QFETCH(QString, then);
    QFETCH(QStringList, ids);

    Tap tap;
    tap.answer(tap.ask(), QStringLiteral("a"));
    tap.now = 100;
    tap.fail(tap.ask(Tools, QStringLiteral("a")), code);
    tap.now = 200;
    if (then == QLatin1String("restart"))
        tap.answer(tap.ask());
    else if (then == QLatin1String("retry"))
        tap.answer(tap.ask(Tools, QStringLiteral("a")));
    else if (then == QLatin1String("other"))
        tap.answer(tap.ask(QStringLiteral("prompts/list")));
    tap.judge.finish(1000);
    QCOMPARE(tap.ids(), ids);
    if (ids.isEmpty())
        return;
    const Finding f = tap.judge.findings().first();
    QCOMPARE(f.severity, Finding::defaultSeverity(f.id));
    QCOMPARE(f.severity,
             then == QLatin1String("restart") ? Finding::Severity::Info : Finding::Severity::Warning);
    QCOMPARE(f.pages, QList<int>{1});
    QCOMPARE(f.evidence.value(QStringLiteral("cursor")).toString(), QStringLiteral("a"));
    QCOMPARE(f.evidence.value(QStringLiteral("list")).toString(), Tools);
    QCOMPARE(f.evidence.value(QStringLiteral("code")).toInt(), -32602);
}

// Rule 5: a list tool's cursor followed with other arguments.
void tst_ClientJudge::changedArguments_data()
{
    QTest::addColumn<QJsonObject>("second");  // the second page's arguments
    QTest::addColumn<QStringList>("changed"); // empty: no finding

    const QString c1 = QStringLiteral("c1");
    QTest::addRow("same") << QJsonObject{{QStringLiteral("team"), QStringLiteral("a")},
                                         {QStringLiteral("limit"), 10},
                                         {QStringLiteral("cursor"), c1}}
                          << QStringList{};
    QTest::addRow("another limit (ADR-032: fine)")
        << QJsonObject{{QStringLiteral("team"), QStringLiteral("a")}, {QStringLiteral("cursor"), c1}}
        << QStringList{};
    QTest::addRow("with _meta") << QJsonObject{{QStringLiteral("team"), QStringLiteral("a")},
                                               {QStringLiteral("limit"), 10},
                                               {QStringLiteral("_meta"),
                                                QJsonObject{{QStringLiteral("x"), 1}}},
                                               {QStringLiteral("cursor"), c1}}
                                << QStringList{};
    QTest::addRow("another team") << QJsonObject{{QStringLiteral("team"), QStringLiteral("b")},
                                                 {QStringLiteral("limit"), 10},
                                                 {QStringLiteral("cursor"), c1}}
                                  << QStringList{QStringLiteral("team")};
    QTest::addRow("team dropped") << QJsonObject{{QStringLiteral("limit"), 10},
                                                 {QStringLiteral("cursor"), c1}}
                                  << QStringList{QStringLiteral("team")};
    QTest::addRow("one added") << QJsonObject{{QStringLiteral("team"), QStringLiteral("a")},
                                              {QStringLiteral("limit"), 10},
                                              {QStringLiteral("state"), QStringLiteral("open")},
                                              {QStringLiteral("cursor"), c1}}
                               << QStringList{QStringLiteral("state")};
}

void tst_ClientJudge::changedArguments()
{
    QFETCH(QJsonObject, second);
    QFETCH(QStringList, changed);

    Tap tap;
    const int list = tap.ask();
    tap.server(result(list, {{QStringLiteral("tools"), QJsonArray{listTool()}}}));
    const QJsonObject first{{QStringLiteral("team"), QStringLiteral("a")}, {QStringLiteral("limit"), 10}};
    tap.client(request(10, QStringLiteral("tools/call"), callTool(first)));
    tap.server(result(10, toolPage(QStringLiteral("c1"))));
    tap.client(request(11, QStringLiteral("tools/call"), callTool(second)));
    tap.server(result(11, toolPage(Absent)));
    tap.judge.finish(100);

    QList<ClientJudge::WalkSeen> walks = tap.judge.walks();
    QCOMPARE(walks.size(), 2);
    QCOMPARE(walks.at(1).list, QStringLiteral("tool:list_users"));
    QCOMPARE(walks.at(1).otherArguments, first);
    QCOMPARE(walks.at(1).pages.size(), 2);
    QCOMPARE(walks.at(1).pages.at(0).items, 2);
    QCOMPARE(walks.at(1).pages.at(0).nextCursor, QJsonValue(QStringLiteral("c1")));
    QCOMPARE(walks.at(1).pages.at(1).cursor, QJsonValue(QStringLiteral("c1")));

    if (changed.isEmpty()) {
        QVERIFY2(tap.judge.findings().isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
        return;
    }
    QCOMPARE(tap.ids(), QStringList{FindingId::ClientChangedArguments});
    const Finding f = tap.judge.findings().first();
    QCOMPARE(f.severity, Finding::Severity::Warning);
    QCOMPARE(f.pages, QList<int>{1});
    QCOMPARE(f.evidence.value(QStringLiteral("list")).toString(), QStringLiteral("tool:list_users"));
    QCOMPARE(f.evidence.value(QStringLiteral("changed")).toArray(), QJsonArray::fromStringList(changed));
    QCOMPARE(f.evidence.value(QStringLiteral("before")).toObject(), first);
}

// Rule 6.
void tst_ClientJudge::listChanged_data()
{
    QTest::addColumn<QString>("notification");
    QTest::addColumn<QString>("relist"); // the list the client asks again ("": none)
    QTest::addColumn<qint64>("relistAt");
    QTest::addColumn<qint64>("endAt");
    QTest::addColumn<bool>("found");

    const QString tools = QStringLiteral("notifications/tools/list_changed");
    // The client listed tools at 0 and the server said list_changed at 1,000; grace 10,000 ms.
    QTest::addRow("re-listed in time") << tools << Tools << qint64(5'000) << qint64(60'000) << false;
    QTest::addRow("re-listed as the grace ends")
        << tools << Tools << qint64(11'000) << qint64(60'000) << false;
    QTest::addRow("re-listed late") << tools << Tools << qint64(11'001) << qint64(60'000) << true;
    QTest::addRow("another list re-listed")
        << tools << QStringLiteral("prompts/list") << qint64(2'000) << qint64(60'000) << true;
    QTest::addRow("never, the session went on") << tools << QString() << qint64(0) << qint64(20'000) << true;
    QTest::addRow("never, the session ended first")
        << tools << QString() << qint64(0) << qint64(5'000) << false;
    QTest::addRow("a list the client never asked") << QStringLiteral("notifications/prompts/list_changed")
                                                   << QString() << qint64(0) << qint64(60'000) << false;
}

void tst_ClientJudge::listChanged()
{
    QFETCH(QString, notification);
    QFETCH(QString, relist);
    QFETCH(qint64, relistAt);
    QFETCH(qint64, endAt);
    QFETCH(bool, found);

    Tap tap;
    tap.answer(tap.ask());
    tap.now = 1'000;
    tap.notify(notification);
    if (!relist.isEmpty()) {
        tap.now = relistAt;
        tap.answer(tap.ask(relist));
        // Judged as the grace runs out, not at the end.
        QCOMPARE(tap.findings(FindingId::ClientIgnoredListChanged).size(), relistAt > 11'000 ? 1 : 0);
    }
    tap.judge.finish(endAt);
    const QList<Finding> findings = tap.findings(FindingId::ClientIgnoredListChanged);
    QCOMPARE(tap.ids().size(), findings.size());
    if (!found) {
        QVERIFY(findings.isEmpty());
        return;
    }
    QCOMPARE(findings.size(), 1);
    const Finding &f = findings.first();
    QCOMPARE(f.severity, Finding::Severity::Warning);
    QCOMPARE(f.evidence.value(QStringLiteral("list")).toString(), Tools);
    QCOMPARE(f.evidence.value(QStringLiteral("notification")).toString(), notification);
    QCOMPARE(f.evidence.value(QStringLiteral("atMs")).toInteger(), 1'000);
}

// A walk left for a new one because the server said the list changed ended rightly.
void tst_ClientJudge::restartedForListChanged()
{
    Tap tap;
    tap.answer(tap.ask(), QStringLiteral("a"));
    tap.now = 100;
    tap.notify(QStringLiteral("notifications/tools/list_changed"));
    tap.now = 200;
    tap.walk({QStringLiteral("b"), Absent}, 2);
    tap.judge.finish(60'000);
    QVERIFY2(tap.judge.findings().isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
    QCOMPARE(tap.judge.walks().size(), 2);
}

// Lists other than tools/list, each read where it keeps its items and its next cursor: a walk whose
// first page's cursor is not followed, and one that reaches its end.
void tst_ClientJudge::otherLists_data()
{
    QTest::addColumn<QJsonObject>("tool"); // a list tool's definition; empty: a protocol list
    QTest::addColumn<QString>("method");
    QTest::addColumn<QJsonObject>("page");  // the first page's result
    QTest::addColumn<QString>("list");      // "": no finding
    QTest::addColumn<QJsonValue>("cursor"); // the cursor not followed

    const QJsonObject tokenTool{
        {QStringLiteral("name"), QStringLiteral("list_files")},
        {QStringLiteral("inputSchema"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                     {QStringLiteral("properties"),
                      QJsonObject{{QStringLiteral("page_token"),
                                   QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}}}};
    auto token = [](const QString &next) {
        return QJsonObject{{QStringLiteral("content"),
                            QJsonArray{QJsonObject{
                                {QStringLiteral("type"), QStringLiteral("text")},
                                {QStringLiteral("text"),
                                 QStringLiteral(R"({"files":[1,2],"next_page_token":"%1"})").arg(next)}}}}};
    };
    auto templates = [](const QJsonValue &next) {
        QJsonObject page{{QStringLiteral("resourceTemplates"), QJsonArray{QJsonObject{}}}};
        if (!next.isUndefined())
            page.insert(QStringLiteral("nextCursor"), next);
        return page;
    };
    const QString templatesList = QStringLiteral("resources/templates/list");
    QTest::addRow("templates never paged (PG-07)")
        << QJsonObject{} << templatesList << templates(QStringLiteral("t2")) << templatesList
        << QJsonValue(QStringLiteral("t2"));
    QTest::addRow("templates, one page")
        << QJsonObject{} << templatesList << templates(Absent) << QString() << QJsonValue();
    QTest::addRow("tasks, "
                  " not followed")
        << QJsonObject{} << QStringLiteral("tasks/list")
        << QJsonObject{{QStringLiteral("tasks"), QJsonArray{}},
                       {QStringLiteral("nextCursor"), QStringLiteral("")}}
        << QStringLiteral("tasks/list") << QJsonValue(QStringLiteral(""));
    QTest::addRow("page-token tool never paged")
        << tokenTool << QStringLiteral("tools/call") << token(QStringLiteral("p2"))
        << QStringLiteral("tool:list_files") << QJsonValue(QStringLiteral("p2"));
    // AIP-158: an empty page token ends the list.
    QTest::addRow("page-token tool, empty token")
        << tokenTool << QStringLiteral("tools/call") << token(QString()) << QString() << QJsonValue();
}

void tst_ClientJudge::otherLists()
{
    QFETCH(QJsonObject, tool);
    QFETCH(QString, method);
    QFETCH(QJsonObject, page);
    QFETCH(QString, list);
    QFETCH(QJsonValue, cursor);

    Tap tap;
    if (!tool.isEmpty()) {
        // The client learns the tool from tools/list, and so does the judge.
        tap.server(result(tap.ask(), {{QStringLiteral("tools"), QJsonArray{tool}}}));
        tap.client(request(++tap.lastId, method,
                           {{QStringLiteral("name"), tool.value(QStringLiteral("name"))},
                            {QStringLiteral("arguments"), QJsonObject{}}}));
    } else {
        tap.ask(method);
    }
    tap.server(result(tap.lastId, page));
    tap.judge.finish(1'000);
    if (list.isEmpty()) {
        QVERIFY2(tap.judge.findings().isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
        return;
    }
    QCOMPARE(tap.ids(), QStringList{FindingId::ClientNeverPaged});
    const Finding f = tap.judge.findings().first();
    QCOMPARE(f.evidence.value(QStringLiteral("list")).toString(), list);
    QCOMPARE(f.evidence.value(QStringLiteral("cursor")), cursor);
    QCOMPARE(tap.judge.walks().last().list, list);
    QCOMPARE(tap.judge.walks().last().pages.first().nextCursor, cursor);
}

// Rule 7.
void tst_ClientJudge::refetchedFreshPage_data()
{
    QTest::addColumn<QJsonValue>("ttl");
    QTest::addColumn<qint64>("againAt");   // the answer came at 0
    QTest::addColumn<bool>("listChanged"); // the server said list_changed in between
    QTest::addColumn<bool>("found");

    QTest::addRow("while fresh") << QJsonValue(60'000) << qint64(1'000) << false << true;
    QTest::addRow("as it expires") << QJsonValue(60'000) << qint64(60'000) << false << false;
    QTest::addRow("ttl 0") << QJsonValue(0) << qint64(1'000) << false << false;
    QTest::addRow("no ttl") << Absent << qint64(1'000) << false << false;
    QTest::addRow("after list_changed") << QJsonValue(60'000) << qint64(1'000) << true << false;
}

void tst_ClientJudge::refetchedFreshPage()
{
    QFETCH(QJsonValue, ttl);
    QFETCH(qint64, againAt);
    QFETCH(bool, listChanged);
    QFETCH(bool, found);

    Tap tap;
    tap.answer(tap.ask(), Absent, ttl);
    if (listChanged)
        tap.notify(QStringLiteral("notifications/tools/list_changed"));
    tap.now = againAt;
    tap.answer(tap.ask(), Absent, ttl);
    tap.judge.finish(againAt);
    if (!found) {
        QVERIFY2(tap.judge.findings().isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
        return;
    }
    QCOMPARE(tap.ids(), QStringList{FindingId::ClientRefetchedFreshPage});
    const Finding f = tap.judge.findings().first();
    QCOMPARE(f.severity, Finding::Severity::Info);
    QCOMPARE(f.pages, QList<int>{0});
    QCOMPARE(f.evidence.value(QStringLiteral("ttlMs")).toInteger(), ttl.toInteger());
    QCOMPARE(f.evidence.value(QStringLiteral("ageMs")).toInteger(), againAt);
    QVERIFY(f.evidence.value(QStringLiteral("cursor")).isNull());
}

// Rule 8.
void tst_ClientJudge::polling_data()
{
    QTest::addColumn<QList<qint64>>("times"); // when the client asks the first page
    QTest::addColumn<qint64>("period");       // 0: no finding
    QTest::addColumn<int>("count");

    QTest::addRow("fixed period") << QList<qint64>{0, 60'000, 120'000, 180'000} << qint64(60'000) << 4;
    QTest::addRow("within 20 ms") << QList<qint64>{0, 1'000, 2'015, 3'010} << qint64(1'003) << 4;
    QTest::addRow("within 2 percent") << QList<qint64>{0, 60'000, 121'000, 181'500} << qint64(60'500) << 4;
    QTest::addRow("and on") << QList<qint64>{0, 60'000, 120'000, 180'000, 240'000, 300'000} << qint64(60'000)
                            << 6;
    QTest::addRow("jitter") << QList<qint64>{0, 60'000, 121'500, 179'000, 242'000} << qint64(0) << 0;
    QTest::addRow("backoff") << QList<qint64>{0, 1'000, 2'000, 4'000, 8'000, 16'000} << qint64(0) << 0;
    QTest::addRow("three times") << QList<qint64>{0, 60'000, 120'000} << qint64(0) << 0;
}

void tst_ClientJudge::polling()
{
    QFETCH(QList<qint64>, times);
    QFETCH(qint64, period);
    QFETCH(int, count);

    Tap tap;
    for (qint64 t : times) {
        tap.now = t;
        tap.answer(tap.ask());
    }
    tap.judge.finish(tap.now);
    if (period == 0) {
        QVERIFY2(tap.judge.findings().isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
        return;
    }
    QCOMPARE(tap.ids(), QStringList{FindingId::ClientPollsWithoutJitter});
    const Finding f = tap.judge.findings().first();
    QCOMPARE(f.severity, Finding::Severity::Warning);
    QCOMPARE(f.evidence.value(QStringLiteral("periodMs")).toInteger(), period);
    QCOMPARE(f.evidence.value(QStringLiteral("times")).toInt(), count);
    QCOMPARE(f.evidence.value(QStringLiteral("list")).toString(), Tools);
    QVERIFY2(f.message.contains(counted(count, "time", "times")), qPrintable(f.message));
}

// Rule 9. A script: "method:meta" requests in order, meta one of full, none, version (only the
// protocol version), capabilities (only the client capabilities).
void tst_ClientJudge::requestMeta_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("method"); // "": no finding
    QTest::addColumn<QStringList>("missing");
    QTest::addColumn<int>("count");

    QTest::addRow("capabilities missing") << QStringLiteral("server/discover:full tools/list:version")
                                          << Tools << QStringList{MetaCapabilities} << 1;
    QTest::addRow("both, twice") << QStringLiteral("tools/list:full prompts/list:none prompts/list:none")
                                 << QStringLiteral("prompts/list")
                                 << QStringList{MetaVersion, MetaCapabilities} << 2;
    QTest::addRow("before the revision showed")
        << QStringLiteral("tools/list:capabilities server/discover:full") << Tools << QStringList{MetaVersion}
        << 1;
    QTest::addRow("discover without")
        << QStringLiteral("server/discover:none") << QStringLiteral("server/discover")
        << QStringList{MetaVersion, MetaCapabilities} << 1;
    QTest::addRow("full _meta") << QStringLiteral("server/discover:full tools/list:full resources/read:full")
                                << QString() << QStringList{} << 0;
    QTest::addRow("legacy session") << QStringLiteral("initialize:none tools/list:none") << QString()
                                    << QStringList{} << 0;
}

void tst_ClientJudge::requestMeta()
{
    QFETCH(QString, script);
    QFETCH(QString, method);
    QFETCH(QStringList, missing);
    QFETCH(int, count);

    Tap tap;
    int id = 0;
    for (const QString &step : script.split(QLatin1Char(' '))) {
        const QStringList parts = step.split(QLatin1Char(':'));
        QJsonObject meta = fullMeta();
        if (parts.at(1) == QLatin1String("none"))
            meta = {};
        else if (parts.at(1) == QLatin1String("version"))
            meta.remove(MetaCapabilities);
        else if (parts.at(1) == QLatin1String("capabilities"))
            meta.remove(MetaVersion);
        QJsonObject params;
        if (!meta.isEmpty())
            params.insert(QStringLiteral("_meta"), meta);
        if (parts.at(0) == QLatin1String("initialize"))
            params.insert(QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25"));
        tap.client(request(++id, parts.at(0), params));
    }
    tap.judge.finish(0);
    const QList<Finding> findings = tap.findings(FindingId::ClientRequestMetaMissing);
    if (method.isEmpty()) {
        QVERIFY2(findings.isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
        return;
    }
    QCOMPARE(findings.size(), 1);
    const Finding &f = findings.first();
    QCOMPARE(f.severity, Finding::Severity::Error);
    QCOMPARE(f.evidence.value(QStringLiteral("method")).toString(), method);
    QCOMPARE(f.evidence.value(QStringLiteral("missing")).toArray(), QJsonArray::fromStringList(missing));
    QCOMPARE(f.evidence.value(QStringLiteral("count")).toInt(), count);
    QVERIFY2(f.message.contains(counted(count, "request", "requests")), qPrintable(f.message));
}

void tst_ClientJudge::revision()
{
    {
        Tap tap;
        QCOMPARE(tap.judge.revision(), QString());
        tap.client(request(1, QStringLiteral("initialize"),
                           {{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")}}));
        QCOMPARE(tap.judge.revision(), QStringLiteral("2025-11-25"));
        tap.server(result(1, {{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")}}));
        QCOMPARE(tap.judge.revision(), QStringLiteral("2025-06-18"));
    }
    {
        Tap tap;
        tap.withMeta = true;
        tap.ask();
        QCOMPARE(tap.judge.revision(), QStringLiteral("2026-07-28"));
    }
}

void tst_ClientJudge::walksSeen()
{
    Tap tap;
    const int first = tap.ask();
    tap.now = 5;
    tap.server(result(first, toolsPage(3, QStringLiteral(""), 60'000)));
    tap.now = 10;
    const int second = tap.ask(Tools, QStringLiteral(""));
    tap.now = 12;
    tap.fail(second, -32603);
    tap.now = 20;
    tap.answer(tap.ask(Tools, QStringLiteral("")), QJsonValue(QJsonValue::Null));

    const QList<ClientJudge::WalkSeen> walks = tap.judge.walks();
    QCOMPARE(walks.size(), 1);
    QCOMPARE(walks.first().list, Tools);
    QVERIFY(walks.first().otherArguments.isEmpty());
    const QList<ClientJudge::PageSeen> pages = walks.first().pages;
    QCOMPARE(pages.size(), 3);
    QCOMPARE(pages.at(0).requestedAtMs, 0);
    QCOMPARE(pages.at(0).answeredAtMs, 5);
    QVERIFY(pages.at(0).cursor.isUndefined());
    QCOMPARE(pages.at(0).nextCursor, QJsonValue(QStringLiteral("")));
    QCOMPARE(pages.at(0).items, 3);
    QCOMPARE(pages.at(0).errorCode, 0);
    QCOMPARE(pages.at(0).ttlMs, QJsonValue(60'000));
    QCOMPARE(pages.at(0).cacheScope, QStringLiteral("public"));
    QCOMPARE(pages.at(1).cursor, QJsonValue(QStringLiteral("")));
    QCOMPARE(pages.at(1).errorCode, -32603);
    QCOMPARE(pages.at(1).items, -1);
    QCOMPARE(pages.at(1).answeredAtMs, 12);
    QVERIFY(pages.at(2).nextCursor.isNull());
    QVERIFY(pages.at(2).ttlMs.isUndefined());
    QCOMPARE(pages.at(2).cacheScope, QString());
    // A retry after an error is no repeated cursor, and the list reached its end.
    tap.judge.finish(100);
    QVERIFY2(tap.judge.findings().isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
}

// Requests and answers meet by id: a string and a number are two ids, an id may come again after
// its answer, and an answer nothing asked for is ignored.
void tst_ClientJudge::idsMatchAnswers()
{
    Tap tap;
    tap.server(result(7, toolsPage(2, QStringLiteral("x")))); // nothing asked: ignored
    tap.client(request(QStringLiteral("1"), Tools));
    tap.client(request(1, QStringLiteral("prompts/list")));
    tap.server(result(1, toolsPage(1)));                                        // the prompts' answer
    tap.server(result(QStringLiteral("1"), toolsPage(2, QStringLiteral("a")))); // the tools'
    tap.client(request(QStringLiteral("1"), Tools, {{QStringLiteral("cursor"), QStringLiteral("a")}}));
    tap.server(result(QStringLiteral("1"), toolsPage(2)));
    // A request from the server and the client's answer to it are not pages.
    tap.server(request(1, QStringLiteral("roots/list")));
    tap.client(result(1, toolsPage(2, QStringLiteral("y"))));
    tap.judge.finish(100);

    QVERIFY2(tap.judge.findings().isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
    const QList<ClientJudge::WalkSeen> walks = tap.judge.walks();
    QCOMPARE(walks.size(), 2);
    QCOMPARE(walks.at(0).list, Tools);
    QCOMPARE(walks.at(0).pages.size(), 2);
    QCOMPARE(walks.at(0).pages.at(0).nextCursor, QJsonValue(QStringLiteral("a")));
    QVERIFY(walks.at(0).pages.at(1).nextCursor.isUndefined());
    QCOMPARE(walks.at(1).list, QStringLiteral("prompts/list"));
}

// An endless walk costs a bounded amount, and is still judged.
void tst_ClientJudge::bounded()
{
    constexpr int Pages = 50'000;
    {
        // Cursors without end, every one new: the client stops after 50,000 pages.
        Tap tap;
        for (int i = 0; i < Pages; ++i) {
            const int id = tap.ask(Tools, i == 0 ? Absent : QJsonValue(QStringLiteral("c%1").arg(i)));
            tap.answer(id, QStringLiteral("c%1").arg(i + 1), Absent, 1);
            ++tap.now;
        }
        tap.judge.finish(tap.now);
        const QList<ClientJudge::WalkSeen> walks = tap.judge.walks();
        QCOMPARE(walks.size(), 1);
        QCOMPARE(walks.first().pages.size(), 10'000);
        QCOMPARE(tap.ids(), QStringList{FindingId::ClientStoppedEarly});
        const Finding f = tap.judge.findings().first();
        QCOMPARE(f.pages, QList<int>{Pages - 1});
        QCOMPARE(f.evidence.value(QStringLiteral("pagesAsked")).toInt(), Pages);
        QCOMPARE(f.evidence.value(QStringLiteral("reason")).toString(), QStringLiteral("page-cap"));
        QCOMPARE(f.evidence.value(QStringLiteral("cursor")).toString(), QStringLiteral("c%1").arg(Pages));
    }
    {
        // A cycle of three cursors, followed 50,000 times.
        Tap tap;
        for (int i = 0; i < Pages; ++i) {
            const int id = tap.ask(Tools, i == 0 ? Absent : QJsonValue(QStringLiteral("c%1").arg(i % 3)));
            tap.answer(id, QStringLiteral("c%1").arg((i + 1) % 3), Absent, 1);
            ++tap.now;
        }
        tap.judge.finish(tap.now);
        QCOMPARE(tap.judge.walks().first().pages.size(), 10'000);
        QCOMPARE(tap.ids(), QStringList{FindingId::ClientFollowedRepeatedCursor});
        const Finding f = tap.judge.findings().first();
        QCOMPARE(f.evidence.value(QStringLiteral("times")).toInt(), Pages - 4);
        QVERIFY2(f.message.contains(QLatin1String("never ends")), qPrintable(f.message));
    }
    {
        // Walks without end: the oldest go.
        ClientJudge::Options options;
        options.pollingRepeats = 1'000; // not judged here
        Tap tap(options);
        for (int i = 0; i < 100; ++i) {
            tap.now = i * 1'000;
            tap.answer(tap.ask());
        }
        tap.judge.finish(tap.now);
        const QList<ClientJudge::WalkSeen> walks = tap.judge.walks();
        QCOMPARE(walks.size(), 64);
        QCOMPARE(walks.first().pages.first().requestedAtMs, qint64(36'000));
        QVERIFY2(tap.judge.findings().isEmpty(), qPrintable(tap.ids().join(QLatin1Char(' '))));
    }
}

void tst_ClientJudge::ignoredAfterFinish()
{
    Tap tap;
    tap.walk({QStringLiteral("a"), QStringLiteral("b")}, 2);
    tap.judge.finish(tap.now);
    const QStringList before = tap.ids();
    QCOMPARE(before, QStringList{FindingId::ClientStoppedEarly});
    tap.walk({QStringLiteral("")}, 1);
    tap.notify(QStringLiteral("notifications/tools/list_changed"));
    tap.now += 100'000;
    tap.client(request(99, QStringLiteral("server/discover")));
    tap.judge.finish(tap.now);
    QCOMPARE(tap.ids(), before);
    QCOMPARE(tap.judge.walks().size(), 1);
    QCOMPARE(tap.judge.revision(), QString());
}

void tst_ClientJudge::catalogue()
{
    const QList<QPair<QString, Finding::Severity>> ids{
        {FindingId::ClientStoppedEarly, Finding::Severity::Warning},
        {FindingId::ClientNeverPaged, Finding::Severity::Warning},
        {FindingId::ClientFollowedRepeatedCursor, Finding::Severity::Warning},
        {FindingId::ClientRestartedAfterCursorError, Finding::Severity::Info},
        {FindingId::ClientRetriedRefusedCursor, Finding::Severity::Warning},
        {FindingId::ClientGaveUpAfterCursorError, Finding::Severity::Warning},
        {FindingId::ClientChangedArguments, Finding::Severity::Warning},
        {FindingId::ClientIgnoredListChanged, Finding::Severity::Warning},
        {FindingId::ClientRefetchedFreshPage, Finding::Severity::Info},
        {FindingId::ClientPollsWithoutJitter, Finding::Severity::Warning},
        {FindingId::ClientRequestMetaMissing, Finding::Severity::Error},
    };
    for (const auto &[id, severity] : ids) {
        QVERIFY2(Finding::catalogue().contains(id), qPrintable(id));
        QCOMPARE(Finding::defaultSeverity(id), severity);
    }
    Tap tap;
    tap.walk({QStringLiteral("a"), QStringLiteral("b")}, 2);
    tap.judge.finish(tap.now);
    const QJsonObject json = tap.judge.findings().first().toJson();
    QCOMPARE(json.value(QStringLiteral("source")).toString(), QStringLiteral("client"));
    QCOMPARE(json.value(QStringLiteral("page")).toInt(), 2); // numbered from 1 in JSON
}

QTEST_GUILESS_MAIN(tst_ClientJudge)
#include "tst_clientjudge.moc"
