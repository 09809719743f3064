// What each well-known client would see of a list (models/clientview.h): every built-in policy
// against small hand-made walks (a healthy list, a "" cursor mid-list, cursor cycles, a failed
// page, lists longer than 64 and than 100 pages), and the policies file itself.

#include "clientview.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTest>

using folio::ClientPolicy;
using folio::ClientView;
using folio::ClientWalkPage;
using folio::NextCursor;
namespace ClientSimulation = folio::ClientSimulation;

namespace {

struct Walk
{
    QList<ClientWalkPage> pages;
    bool complete = true;
};

QStringList items(int page, int perPage)
{
    QStringList out;
    for (int i = 0; i < perPage; ++i)
        out << QStringLiteral("name:t%1_%2").arg(page).arg(i);
    return out;
}

// pages pages of perPage items, cursors "c1", "c2", ...; emptyAfter > 0: that page (1-based)
// answers "" and the page after it is asked with "".
Walk linear(int pages, int perPage, int emptyAfter = 0)
{
    Walk w;
    std::optional<QString> asked;
    for (int i = 1; i <= pages; ++i) {
        ClientWalkPage p;
        p.cursor = asked;
        p.identities = items(i, perPage);
        if (i < pages)
            p.next = NextCursor::string(i == emptyAfter ? QString() : QStringLiteral("c%1").arg(i));
        asked = p.next.cursor();
        w.pages << p;
    }
    return w;
}

Walk named(const QString &name)
{
    if (name == QLatin1String("healthy"))
        return linear(5, 10);
    if (name == QLatin1String("empty-mid"))
        return linear(5, 10, 2);
    if (name == QLatin1String("empty-first"))
        return linear(3, 10, 1);
    if (name == QLatin1String("cycle")) {
        // 1 -> A -> B -> A: Folio stops at page 3, whose nextCursor A page 2 was asked with.
        Walk w = linear(3, 10);
        w.pages[0].next = NextCursor::string(QStringLiteral("A"));
        w.pages[1].cursor = QStringLiteral("A");
        w.pages[1].next = NextCursor::string(QStringLiteral("B"));
        w.pages[2].cursor = QStringLiteral("B");
        w.pages[2].next = NextCursor::string(QStringLiteral("A"));
        w.complete = false;
        return w;
    }
    if (name == QLatin1String("same-page")) {
        // Page 2 hands back its own cursor: asked again, it is the same page.
        Walk w = linear(2, 10);
        w.pages[0].next = NextCursor::string(QStringLiteral("A"));
        w.pages[1].cursor = QStringLiteral("A");
        w.pages[1].next = NextCursor::string(QStringLiteral("A"));
        w.complete = false;
        return w;
    }
    if (name == QLatin1String("error-page-3")) {
        Walk w = linear(3, 10);
        w.pages[2].identities.clear();
        w.pages[2].failed = true;
        w.pages[2].error = QStringLiteral("-32603 internal error");
        w.pages[2].next = {};
        w.complete = false;
        return w;
    }
    if (name == QLatin1String("pages-64"))
        return linear(64, 2);
    if (name == QLatin1String("pages-70"))
        return linear(70, 2);
    if (name == QLatin1String("pages-100"))
        return linear(100, 1);
    if (name == QLatin1String("pages-120"))
        return linear(120, 1);
    if (name == QLatin1String("folio-stopped")) {
        // Folio's walk stopped (its --page-cap) with a cursor it did not follow.
        Walk w = linear(4, 10);
        w.pages.removeLast();
        w.complete = false;
        return w;
    }
    if (name == QLatin1String("wrong-type")) {
        Walk w = linear(2, 10);
        w.pages[1].next = NextCursor::of(QJsonValue(7), true);
        w.complete = false;
        return w;
    }
    return {};
}

ClientPolicy builtIn(const QString &id)
{
    for (const ClientPolicy &p : ClientPolicy::builtIn()) {
        if (p.id == id)
            return p;
    }
    return {};
}

} // namespace

class TestClientView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void resourceParses()
    {
        QString error;
        const QList<ClientPolicy> policies = ClientPolicy::builtIn(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSet<QString> ids;
        for (const ClientPolicy &p : policies) {
            QVERIFY2(!p.source.trimmed().isEmpty(), qPrintable(p.id));
            QVERIFY2(!p.name.isEmpty(), qPrintable(p.id));
            QVERIFY2(!p.version.isEmpty(), qPrintable(p.id));
            ids.insert(p.id);
        }
        QCOMPARE(ids.size(), policies.size());
        for (const char *id :
             {"mcpx", "opencode-v1", "opencode-v2", "ts-sdk", "inspector-cli", "python-idiom", "folio"})
            QVERIFY2(ids.contains(QLatin1String(id)), id);

        // The file is the one in the source tree.
        QFile file(QStringLiteral(FOLIO_SOURCE_DIR "/resources/clients/paging-policies.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(ClientPolicy::fromJson(file.readAll()).size(), policies.size());
    }

    void policiesFromJson()
    {
        QString error;
        const QList<ClientPolicy> policies = ClientPolicy::fromJson(R"({"policies": [
            {"id": "mine", "name": "Mine", "source": "my docs", "followsEmptyCursor": false, "maxPages": 3,
             "onCap": "error", "capError": "TooMany", "loopCheck": "stop-on-repeated-page", "onError": "swallow",
             "pagesLists": ["tools", "prompts"], "overrides": {"tools": {"maxPages": null}}}]})",
                                                                    &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(policies.size(), 1);
        const ClientPolicy &p = policies.first();
        QCOMPARE(p.followsEmptyCursor, false);
        QCOMPARE(p.maxPages, std::optional<int>(3));
        QCOMPARE(p.onCap, ClientPolicy::OnCap::Error);
        QCOMPARE(p.capError, QStringLiteral("TooMany"));
        QCOMPARE(p.loopCheck, ClientPolicy::LoopCheck::StopOnRepeatedPage);
        QCOMPARE(p.onError, ClientPolicy::OnError::Swallow);
        QVERIFY(p.pages(QStringLiteral("tools")));
        QVERIFY(!p.pages(QStringLiteral("templates")));
        QCOMPARE(p.forList(QStringLiteral("tools")).maxPages, std::nullopt);
        QCOMPARE(p.forList(QStringLiteral("prompts")).maxPages, std::optional<int>(3));

        // A policy Folio tests against: its own JSON, simulated as any other.
        const ClientView v = ClientSimulation::simulate(p, QStringLiteral("prompts"),
                                                        named(QStringLiteral("pages-70")).pages, true);
        QCOMPARE(v.outcome, ClientView::Outcome::Error);
        QCOMPARE(v.pagesAsked, 3);
        QVERIFY2(v.message.contains(QLatin1String("TooMany")), qPrintable(v.message));
    }

    void policiesRejected_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("problem");
        QTest::newRow("not json") << QByteArray("{") << QStringLiteral("not JSON");
        QTest::newRow("no policies") << QByteArray("{}") << QStringLiteral("policies");
        QTest::newRow("no source") << QByteArray(R"({"policies": [{"id": "a", "name": "A"}]})")
                                   << QStringLiteral("source");
        QTest::newRow("unknown onCap")
            << QByteArray(R"({"policies": [{"id": "a", "name": "A", "source": "s", "onCap": "explode"}]})")
            << QStringLiteral("onCap");
        QTest::newRow("bad maxPages")
            << QByteArray(R"({"policies": [{"id": "a", "name": "A", "source": "s", "maxPages": 0}]})")
            << QStringLiteral("maxPages");
        QTest::newRow("bad override")
            << QByteArray(
                   R"({"policies": [{"id": "a", "name": "A", "source": "s", "overrides": {"tools": {"loopCheck": "x"}}}]})")
            << QStringLiteral("override tools");
        QTest::newRow("id twice")
            << QByteArray(
                   R"({"policies": [{"id": "a", "name": "A", "source": "s"}, {"id": "a", "name": "B", "source": "s"}]})")
            << QStringLiteral("twice");
    }
    void policiesRejected()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, problem);
        QString error;
        QVERIFY(ClientPolicy::fromJson(json, &error).isEmpty());
        QVERIFY2(error.contains(problem), qPrintable(error));
    }

    void simulate_data()
    {
        QTest::addColumn<QString>("walk");
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("list");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<int>("pagesAsked");
        QTest::addColumn<int>("items");
        QTest::addColumn<int>("withDuplicates");
        QTest::addColumn<int>("missed");

        const QString tools = QStringLiteral("tools");
        const QStringList all{QStringLiteral("mcpx"),          QStringLiteral("opencode-v1"),
                              QStringLiteral("opencode-v2"),   QStringLiteral("ts-sdk"),
                              QStringLiteral("inspector-cli"), QStringLiteral("python-idiom"),
                              QStringLiteral("folio")};
        auto row = [&](const char *walk, const QString &policy, const QString &list, const char *outcome,
                       int pages, int got, int withDuplicates, int missed) {
            QTest::addRow("%s %s %s", walk, qPrintable(policy), qPrintable(list))
                << QString::fromLatin1(walk) << policy << list << QString::fromLatin1(outcome) << pages << got
                << withDuplicates << missed;
        };

        // A healthy list of 5 pages: everyone gets all 50; mcpx never pages templates.
        for (const QString &p : all)
            row("healthy", p, tools, "complete", 5, 50, 50, 0);
        row("healthy", QStringLiteral("mcpx"), QStringLiteral("templates"), "not-paged", 1, 10, 10, 40);
        row("healthy", QStringLiteral("mcpx"), QStringLiteral("prompts"), "complete", 5, 50, 50, 0);

        // "" on page 2: those that take it for the end keep 20 of 50.
        for (const char *p : {"mcpx", "python-idiom"})
            row("empty-mid", QLatin1String(p), tools, "stopped-on-empty-cursor", 2, 20, 20, 30);
        for (const char *p : {"opencode-v1", "opencode-v2", "ts-sdk", "inspector-cli", "folio"})
            row("empty-mid", QLatin1String(p), tools, "complete", 5, 50, 50, 0);
        row("empty-first", QStringLiteral("mcpx"), tools, "stopped-on-empty-cursor", 1, 10, 10, 20);

        // 1 -> A -> B -> A: each client's loop handling (or its cap).
        row("cycle", QStringLiteral("mcpx"), tools, "truncated-at-cap", 100, 30, 1000, 0);
        row("cycle", QStringLiteral("opencode-v1"), tools, "loop-error", 3, 0, 0, 30);
        row("cycle", QStringLiteral("opencode-v2"), tools, "error", 64, 0, 0, 30);
        row("cycle", QStringLiteral("ts-sdk"), tools, "error", 64, 0, 0, 30);
        row("cycle", QStringLiteral("inspector-cli"), tools, "truncated-at-cap", 64, 30, 640, 0);
        row("cycle", QStringLiteral("python-idiom"), tools, "endless", ClientSimulation::MaxSimulatedPages,
            30, ClientSimulation::MaxSimulatedPages * 10, 0);
        row("cycle", QStringLiteral("folio"), tools, "stopped-on-repeated-cursor", 3, 30, 30, 0);

        // A page that hands back its own cursor: the TypeScript SDK sees the page repeat.
        row("same-page", QStringLiteral("ts-sdk"), tools, "stopped-on-repeated-page", 3, 20, 20, 0);
        row("same-page", QStringLiteral("opencode-v1"), tools, "loop-error", 2, 0, 0, 20);
        row("same-page", QStringLiteral("mcpx"), tools, "truncated-at-cap", 100, 20, 1000, 0);
        row("same-page", QStringLiteral("folio"), tools, "stopped-on-repeated-cursor", 2, 20, 20, 0);

        // Page 3 fails: raised (the list is lost), swallowed (mcpx's prompts), or kept and said (Folio).
        for (const char *p :
             {"mcpx", "opencode-v1", "opencode-v2", "ts-sdk", "inspector-cli", "python-idiom"})
            row("error-page-3", QLatin1String(p), tools, "error", 3, 0, 0, 20);
        row("error-page-3", QStringLiteral("mcpx"), QStringLiteral("prompts"), "error-swallowed", 3, 20, 20,
            0);
        row("error-page-3", QStringLiteral("mcpx"), QStringLiteral("templates"), "not-paged", 1, 10, 10, 10);
        row("error-page-3", QStringLiteral("folio"), tools, "error", 3, 20, 20, 0);

        // Longer than 64 pages: the TypeScript SDK throws, the Inspector truncates; 64 itself fits.
        for (const char *p : {"opencode-v2", "ts-sdk"}) {
            row("pages-70", QLatin1String(p), tools, "error", 64, 0, 0, 140);
            row("pages-64", QLatin1String(p), tools, "complete", 64, 128, 128, 0);
        }
        row("pages-70", QStringLiteral("inspector-cli"), tools, "truncated-at-cap", 64, 128, 128, 12);
        row("pages-64", QStringLiteral("inspector-cli"), tools, "complete", 64, 128, 128, 0);
        for (const char *p : {"mcpx", "opencode-v1", "python-idiom", "folio"})
            row("pages-70", QLatin1String(p), tools, "complete", 70, 140, 140, 0);

        // Longer than 100 pages: mcpx stops silently; 100 itself fits.
        row("pages-120", QStringLiteral("mcpx"), tools, "truncated-at-cap", 100, 100, 100, 20);
        row("pages-100", QStringLiteral("mcpx"), tools, "complete", 100, 100, 100, 0);
        for (const char *p : {"opencode-v1", "python-idiom", "folio"})
            row("pages-120", QLatin1String(p), tools, "complete", 120, 120, 120, 0);
        row("pages-120", QStringLiteral("ts-sdk"), tools, "error", 64, 0, 0, 120);

        // Folio's walk stopped short: past its last page nothing is known.
        row("folio-stopped", QStringLiteral("opencode-v1"), tools, "beyond-walk", 3, 30, 30, 0);

        // A nextCursor that is not a string.
        row("wrong-type", QStringLiteral("ts-sdk"), tools, "error", 2, 0, 0, 20);
        row("wrong-type", QStringLiteral("folio"), tools, "error", 2, 20, 20, 0);
    }
    void simulate()
    {
        QFETCH(QString, walk);
        QFETCH(QString, policy);
        QFETCH(QString, list);
        QFETCH(QString, outcome);
        QFETCH(int, pagesAsked);
        QFETCH(int, items);
        QFETCH(int, withDuplicates);
        QFETCH(int, missed);

        const ClientPolicy p = builtIn(policy);
        QVERIFY2(!p.id.isEmpty(), qPrintable(policy));
        const Walk w = named(walk);
        QVERIFY(!w.pages.isEmpty());
        const ClientView v = ClientSimulation::simulate(p, list, w.pages, w.complete);
        const QString said = v.message;
        QCOMPARE(ClientView::outcomeName(v.outcome), outcome);
        QCOMPARE(v.pagesAsked, pagesAsked);
        QCOMPARE(v.items, items);
        QCOMPARE(v.itemsWithDuplicates, withDuplicates);
        QCOMPARE(v.missed, missed);
        QCOMPARE(v.missedSample.size(), qMin(missed, ClientSimulation::MissedSampleSize));
        QVERIFY2(!said.isEmpty(), qPrintable(said));
        QCOMPARE(v.policyId, policy);
        QCOMPARE(v.source, p.source);
        if (missed > 0)
            QVERIFY2(said.startsWith(QLatin1String("loses ")), qPrintable(said));
        else
            QVERIFY2(said.startsWith(QLatin1String("gets all ")), qPrintable(said));
    }

    void messages()
    {
        // What a person reads: the counts, and why.
        const Walk w = named(QStringLiteral("empty-mid"));
        const ClientView mcpx = ClientSimulation::simulate(builtIn(QStringLiteral("mcpx")),
                                                           QStringLiteral("tools"), w.pages, w.complete);
        QCOMPARE(mcpx.message,
                 QStringLiteral("loses 30 of 50 tools: takes the cursor \"\" on page 2 for the end"));
        QCOMPARE(mcpx.missedSample.first(), QStringLiteral("name:t3_0"));
        const ClientView ts = ClientSimulation::simulate(builtIn(QStringLiteral("ts-sdk")),
                                                         QStringLiteral("tools"), w.pages, w.complete);
        QCOMPARE(ts.message, QStringLiteral("gets all 50 tools in 5 pages"));

        const Walk cycle = named(QStringLiteral("cycle"));
        const ClientView v2 = ClientSimulation::simulate(
            builtIn(QStringLiteral("ts-sdk")), QStringLiteral("tools"), cycle.pages, cycle.complete);
        QCOMPARE(v2.message,
                 QStringLiteral("loses all 30 tools Folio read: raises ListPaginationExceeded after 64 "
                                "pages (its cap), so no list is returned"));
        QCOMPARE(v2.error, QStringLiteral("ListPaginationExceeded after 64 pages (its cap)"));
        const QJsonObject json = v2.toJson();
        for (const char *key :
             {"id", "name", "source", "pagesAsked", "items", "missed", "missedSample", "outcome", "message"})
            QVERIFY2(json.contains(QLatin1String(key)), key);
        QCOMPARE(json.value(QStringLiteral("outcome")).toString(), QStringLiteral("error"));
        QCOMPARE(json.value(QStringLiteral("missedSample")).toArray().size(), 5);

        // Cursors can carry tenant data: masked, a message shows them as maskCursor() does.
        const ClientView plain = ClientSimulation::simulate(
            builtIn(QStringLiteral("folio")), QStringLiteral("tools"), cycle.pages, cycle.complete);
        QVERIFY2(plain.message.contains(QLatin1String("nextCursor \"A\"")), qPrintable(plain.message));
        const ClientView masked = ClientSimulation::simulate(
            builtIn(QStringLiteral("folio")), QStringLiteral("tools"), cycle.pages, cycle.complete, true);
        QVERIFY2(!masked.message.contains(QLatin1String("\"A\"")), qPrintable(masked.message));
        QVERIFY2(masked.message.contains(QLatin1String("(1 char)")), qPrintable(masked.message));
    }
};

QTEST_GUILESS_MAIN(TestClientView)
#include "tst_clientview.moc"
