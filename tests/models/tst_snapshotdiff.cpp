// The snapshot diff (models/snapshotdiff.h): each class of change with the smallest pair of
// snapshots that shows it, identical snapshots giving none, the word diff, and its bounds.

#include "snapshotdiff.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace folio;
using Class = SnapshotChange::Class;

Q_DECLARE_METATYPE(folio::Snapshot)

namespace {

// JSON written with ' for " (moc misreads raw string literals).
QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text).replace('\'', '"')).object();
}

// A list of one page (or pages of pageSize) holding items, with hints.
Snapshot::List list(const QString &id, const QList<QJsonObject> &items, int pageSize = 0,
                    const QJsonValue &ttl = 60000, const QJsonValue &scope = QStringLiteral("private"))
{
    Snapshot::List l;
    l.id = id;
    l.complete = true;
    const int size = pageSize > 0 ? pageSize : int(qMax<qsizetype>(1, items.size()));
    for (qsizetype from = 0; from == 0 || from < items.size(); from += size) {
        Snapshot::Page p;
        if (from > 0)
            p.cursor = QStringLiteral("c%1").arg(from);
        for (qsizetype i = from; i < qMin<qsizetype>(items.size(), from + size); ++i)
            p.items.append(items.at(i));
        p.hints.hasTtl = true;
        p.hints.ttlMs = ttl;
        p.hints.hasScope = true;
        p.hints.cacheScope = scope;
        if (from + size < items.size()) {
            p.hasNextCursor = true;
            p.nextCursor = QStringLiteral("c%1").arg(from + size);
        }
        l.pages.append(p);
    }
    return l;
}

Snapshot server(const QList<Snapshot::List> &lists = {})
{
    Snapshot s;
    s.revision = QStringLiteral("2026-07-28");
    s.transport = QStringLiteral("stdio");
    s.serverInfo = json("{'name':'s','version':'1.0.0'}");
    s.capabilities = json("{'tools':{'listChanged':true},'prompts':{}}");
    s.lists = lists;
    return s;
}

Snapshot withTools(const QList<QJsonObject> &tools)
{
    return server({list(QStringLiteral("tools"), tools)});
}

QJsonObject tool(const char *name, const char *inputSchema, const char *extra = "{}")
{
    QJsonObject t = json(extra);
    t.insert(QStringLiteral("name"), QString::fromLatin1(name));
    t.insert(QStringLiteral("inputSchema"), json(inputSchema));
    return t;
}

QString describe(const QList<SnapshotChange> &changes)
{
    QStringList lines;
    for (const SnapshotChange &c : changes)
        lines << QStringLiteral("%1 %2 %3: %4")
                     .arg(SnapshotChange::className(c.cls), c.list, c.item.value_or(QStringLiteral("-")),
                          c.summary);
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class tst_SnapshotDiff : public QObject
{
    Q_OBJECT

    // The one change a pair gives: its class, and words its summary holds.
    static void expectOne(const Snapshot &a, const Snapshot &b, Class cls, const QString &words)
    {
        const QList<SnapshotChange> changes = SnapshotDiff::compare(a, b);
        QVERIFY2(changes.size() == 1, qPrintable(describe(changes)));
        QVERIFY2(changes.constFirst().cls == cls, qPrintable(describe(changes)));
        QVERIFY2(changes.constFirst().summary.contains(words), qPrintable(describe(changes)));
    }

    // The columns of a table of pairs (breaking, additive, text): a, b, and the words the one
    // change's summary holds.
    static void pairColumns()
    {
        QTest::addColumn<Snapshot>("a");
        QTest::addColumn<Snapshot>("b");
        QTest::addColumn<QString>("words");
    }
    // The current row of such a table gives one change, of class cls.
    static void expectOneOfRow(Class cls)
    {
        QFETCH(Snapshot, a);
        QFETCH(Snapshot, b);
        QFETCH(QString, words);
        expectOne(a, b, cls, words);
    }

private Q_SLOTS:
    void identicalSnapshotsHaveNoChange()
    {
        const Snapshot a = withTools({tool("a", "{'type':'object'}"), tool("b", "{'type':'object'}")});
        Snapshot b = a;
        b.takenAtMs = 42;
        b.takenFrom = QStringLiteral("elsewhere");
        QVERIFY(SnapshotDiff::compare(a, b).isEmpty());
        QVERIFY(SnapshotDiff::compare(Snapshot(), Snapshot()).isEmpty());
    }

    void breaking_data()
    {
        pairColumns();
        const char *object = "{'type':'object'}";
        QTest::newRow("item removed") << withTools({tool("a", object), tool("b", object)})
                                      << withTools({tool("a", object)}) << QStringLiteral("removed");
        QTest::newRow("required argument added")
            << withTools({tool("a", "{'type':'object','properties':{'x':{'type':'string'}}}")})
            << withTools({tool("a", "{'type':'object','properties':{'x':{'type':'string'},'y':{'type':'"
                                    "string'}}, 'required':['y']}")})
            << QStringLiteral("required argument \"y\" added");
        QTest::newRow("type narrowed")
            << withTools({tool("a", "{'type':'object','properties':{'n':{'type':'number'}}}")})
            << withTools({tool("a", "{'type':'object','properties':{'n':{'type':'integer'}}}")})
            << QStringLiteral("narrowed, number → integer");
        QTest::newRow("type narrowed through a $ref")
            << withTools({tool("a", "{'type':'object','properties':{'n':{'$ref':'#/$defs/n'}}, "
                                    "'$defs':{'n':{'type':['string','null']}}}")})
            << withTools({tool("a", "{'type':'object','properties':{'n':{'$ref':'#/$defs/n'}}, "
                                    "'$defs':{'n':{'type':'string'}}}")})
            << QStringLiteral("narrowed");
        QTest::newRow("enum value removed")
            << withTools(
                   {tool("a", "{'type':'object','properties':{'e':{'type':'string','enum':['x','y']}}}")})
            << withTools({tool("a", "{'type':'object','properties':{'e':{'type':'string','enum':['x']}}}")})
            << QStringLiteral("enum value removed: \"y\"");
        QTest::newRow("outputSchema accepts less")
            << withTools({tool("a", object,
                               "{'outputSchema':{'type':'object','properties':{'k':{'type':'string'}}}}")})
            << withTools({tool("a", object,
                               "{'outputSchema':{'type':'object','properties':{'k':{'type':'string'}}, "
                               "'required':['k']}}")})
            << QStringLiteral("output field \"k\" made required");
        QTest::newRow("prompt argument made required")
            << server({list(QStringLiteral("prompts"),
                            {json("{'name':'p','arguments':[{'name':'x','required':false}]}")})})
            << server({list(QStringLiteral("prompts"),
                            {json("{'name':'p','arguments':[{'name':'x','required':true}]}")})})
            << QStringLiteral("argument \"x\" made required");
        QTest::newRow("template variables changed")
            << server({list(QStringLiteral("templates"), {json("{'name':'t','uriTemplate':'a://{x}'}")})})
            << server({list(QStringLiteral("templates"), {json("{'name':'t','uriTemplate':'a://{x}/{y}'}")})})
            << QStringLiteral("variables changed, {x} → {x,y}");
    }

    void schemaKeywords_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<int>("cls");
        QTest::newRow("maximum lowered")
            << QStringLiteral("{'maximum':10}") << QStringLiteral("{'maximum':5}") << int(Class::Breaking);
        QTest::newRow("maximum raised")
            << QStringLiteral("{'maximum':5}") << QStringLiteral("{'maximum':10}") << int(Class::Additive);
        QTest::newRow("minLength added")
            << QStringLiteral("{}") << QStringLiteral("{'minLength':1}") << int(Class::Breaking);
        QTest::newRow("minLength dropped")
            << QStringLiteral("{'minLength':1}") << QStringLiteral("{}") << int(Class::Additive);
        QTest::newRow("pattern added")
            << QStringLiteral("{}") << QStringLiteral("{'pattern':'^a'}") << int(Class::Breaking);
        QTest::newRow("pattern dropped")
            << QStringLiteral("{'pattern':'^a'}") << QStringLiteral("{}") << int(Class::Additive);
        QTest::newRow("default") << QStringLiteral("{'default':1}") << QStringLiteral("{'default':2}")
                                 << int(Class::Text);
        QTest::newRow("enum reordered") << QStringLiteral("{'enum':['a','b']}")
                                        << QStringLiteral("{'enum':['b','a']}") << int(Class::Text);
    }

    // A keyword of one argument's schema: {'type':'string'} with these members too.
    void schemaKeywords()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(int, cls);
        const auto withArgument = [](const QString &extra) {
            QJsonObject property = json(qPrintable(extra));
            property.insert(QStringLiteral("type"), QStringLiteral("string"));
            QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")},
                               {QStringLiteral("properties"), QJsonObject{{QStringLiteral("x"), property}}}};
            QJsonObject t{{QStringLiteral("name"), QStringLiteral("a")},
                          {QStringLiteral("inputSchema"), schema}};
            return withTools({t});
        };
        const QList<SnapshotChange> changes =
            SnapshotDiff::compare(withArgument(before), withArgument(after));
        QVERIFY2(changes.size() == 1, qPrintable(describe(changes)));
        QVERIFY2(int(changes.constFirst().cls) == cls, qPrintable(describe(changes)));
        QVERIFY2(changes.constFirst().field.startsWith(QLatin1String("inputSchema.x.")),
                 qPrintable(describe(changes)));
    }

    void breaking() { expectOneOfRow(Class::Breaking); }

    void additive_data()
    {
        pairColumns();
        const char *object = "{'type':'object'}";
        QTest::newRow("item added") << withTools({tool("a", object)})
                                    << withTools({tool("a", object), tool("b", object)})
                                    << QStringLiteral("added");
        QTest::newRow("optional argument added")
            << withTools({tool("a", object)})
            << withTools({tool("a", "{'type':'object','properties':{'o':{'type':'string'}}}")})
            << QStringLiteral("optional argument \"o\" added");
        QTest::newRow("type widened")
            << withTools({tool("a", "{'type':'object','properties':{'n':{'type':'integer'}}}")})
            << withTools({tool("a", "{'type':'object','properties':{'n':{'type':['number','null']}}}")})
            << QStringLiteral("widened");
    }

    void additive() { expectOneOfRow(Class::Additive); }

    void text_data()
    {
        pairColumns();
        const char *object = "{'type':'object'}";
        QTest::newRow("description") << withTools({tool("a", object, "{'description':'Reads a file.'}")})
                                     << withTools(
                                            {tool("a", object, "{'description':'Reads a secret file.'}")})
                                     << QStringLiteral("description changed");
        QTest::newRow("title") << withTools({tool("a", object, "{'title':'A'}")})
                               << withTools({tool("a", object, "{'title':'B'}")})
                               << QStringLiteral("title changed");
        QTest::newRow("annotation") << withTools({tool("a", object, "{'annotations':{'readOnlyHint':true}}")})
                                    << withTools(
                                           {tool("a", object, "{'annotations':{'readOnlyHint':false}}")})
                                    << QStringLiteral("annotation readOnlyHint changed: true → false");
        QTest::newRow("argument description")
            << withTools(
                   {tool("a", "{'type':'object','properties':{'x':{'type':'string','description':'one'}}}")})
            << withTools(
                   {tool("a", "{'type':'object','properties':{'x':{'type':'string','description':'two'}}}")})
            << QStringLiteral("argument \"x\": description changed");
    }

    void text() { expectOneOfRow(Class::Text); }

    void textShowsTheWordsChanged()
    {
        const QList<SnapshotChange> changes = SnapshotDiff::compare(
            withTools({tool("a", "{}", "{'description':'Reads a file from disk.'}")}),
            withTools({tool("a", "{}", "{'description':'Reads a secret file from disk.'}")}));
        QCOMPARE(changes.size(), 1);
        QVERIFY(changes.constFirst().words);
        const WordDiff &w = *changes.constFirst().words;
        QVERIFY(!w.whole);
        QStringList added;
        for (const WordDiff::Part &p : w.parts) {
            QVERIFY(p.op != WordDiff::Op::Removed);
            if (p.op == WordDiff::Op::Added)
                added << p.text;
        }
        QCOMPARE(added, QStringList{QStringLiteral("secret ")});
    }

    void wordDiff()
    {
        const WordDiff d = WordDiff::of(QStringLiteral("a b c d"), QStringLiteral("a x c d e"));
        QStringList parts;
        for (const WordDiff::Part &p : d.parts)
            parts << QStringLiteral("%1[%2]").arg(int(p.op)).arg(p.text);
        QCOMPARE(parts.join(QLatin1Char(' ')), QStringLiteral("0[a ] 1[b] 2[x] 0[ c d] 2[ e]"));
        QVERIFY(!d.whole);
        // Joined, the kept and removed parts give the first text back, kept and added the second.
        QString before, after;
        for (const WordDiff::Part &p : d.parts) {
            if (p.op != WordDiff::Op::Added)
                before += p.text;
            if (p.op != WordDiff::Op::Removed)
                after += p.text;
        }
        QCOMPARE(before, QStringLiteral("a b c d"));
        QCOMPARE(after, QStringLiteral("a x c d e"));
        QVERIFY(WordDiff::of(QStringLiteral("same"), QStringLiteral("same")).parts.size() == 1);
    }

    // A hostile description: a megabyte, or thousands of words changed throughout, stands whole
    // instead of costing a quadratic table.
    void wordDiffIsBounded()
    {
        QString big;
        for (int i = 0; i < 4000; ++i)
            big += QStringLiteral("w%1 ").arg(i);
        QString other;
        for (int i = 0; i < 4000; ++i)
            other += QStringLiteral("v%1 ").arg(i);
        const WordDiff many = WordDiff::of(QStringLiteral("x ") + big, QStringLiteral("y ") + other);
        QVERIFY(many.whole);
        QCOMPARE(many.parts.size(), 2);

        // A budget spent stands whole too, and one left is spent by what is compared.
        qint64 budget = 10;
        QVERIFY(WordDiff::of(QStringLiteral("a b c"), QStringLiteral("x y z"), &budget).whole);
        budget = 1000;
        QVERIFY(!WordDiff::of(QStringLiteral("a b c"), QStringLiteral("x y z"), &budget).whole);
        QVERIFY(budget < 1000);

        const QString huge(WordDiff::MaxTextChars + 10, QLatin1Char('a'));
        const WordDiff tooLong = WordDiff::of(huge, huge + QStringLiteral(" more"));
        QVERIFY(tooLong.whole);

        // A megabyte of description that gains a sentence at its end is still cheap: word by word.
        QString prose;
        while (prose.size() < 900 * 1024)
            prose += QStringLiteral("lorem ipsum dolor ");
        const QList<SnapshotChange> changes = SnapshotDiff::compare(
            withTools({tool(
                "a", "{}",
                QJsonDocument(QJsonObject{{QStringLiteral("description"), prose}}).toJson().constData())}),
            withTools({tool(
                "a", "{}",
                QJsonDocument(QJsonObject{{QStringLiteral("description"), prose + QStringLiteral("Obey.")}})
                    .toJson()
                    .constData())}));
        QCOMPARE(changes.size(), 1);
        QVERIFY(changes.constFirst().words);
        QVERIFY(!changes.constFirst().words->whole);
        QCOMPARE(changes.constFirst().words->parts.constLast().text, QStringLiteral("Obey."));
    }

    void caching()
    {
        const QList<QJsonObject> items{json("{'name':'a'}")};
        expectOne(server({list(QStringLiteral("tools"), items, 0, 60000)}),
                  server({list(QStringLiteral("tools"), items, 0, 1000)}), Class::Caching,
                  QStringLiteral("ttlMs 60000 → 1000"));
        expectOne(server({list(QStringLiteral("tools"), items, 0, 60000, QStringLiteral("private"))}),
                  server({list(QStringLiteral("tools"), items, 0, 60000, QStringLiteral("public"))}),
                  Class::Caching, QStringLiteral("flipped to public"));
        const QList<SnapshotChange> back = SnapshotDiff::compare(
            server({list(QStringLiteral("tools"), items, 0, 60000, QStringLiteral("public"))}),
            server({list(QStringLiteral("tools"), items, 0, 60000, QStringLiteral("private"))}));
        QCOMPARE(back.size(), 1);
        QVERIFY(!back.constFirst().summary.contains(QLatin1String("flipped")));
    }

    void paging()
    {
        QList<QJsonObject> items;
        for (int i = 0; i < 10; ++i)
            items << QJsonObject{{QStringLiteral("name"), QStringLiteral("t%1").arg(i)}};
        // Page size 5 → 2 (two pages → five).
        const QList<SnapshotChange> sized =
            SnapshotDiff::compare(server({list(QStringLiteral("tools"), items, 5)}),
                                  server({list(QStringLiteral("tools"), items, 2)}));
        QCOMPARE(sized.size(), 2);
        QVERIFY(sized.at(0).cls == Class::Paging && sized.at(0).summary == QStringLiteral("page size 5 → 2"));
        QVERIFY(sized.at(1).cls == Class::Paging && sized.at(1).summary == QStringLiteral("pages 2 → 5"));

        QList<QJsonObject> reversed = items;
        std::reverse(reversed.begin(), reversed.end());
        expectOne(server({list(QStringLiteral("tools"), items)}),
                  server({list(QStringLiteral("tools"), reversed)}), Class::Paging,
                  QStringLiteral("another order"));
        // An item added at the end is no change of order.
        QList<QJsonObject> more = items;
        more << json("{'name':'z'}");
        expectOne(server({list(QStringLiteral("tools"), items)}),
                  server({list(QStringLiteral("tools"), more)}), Class::Additive, QStringLiteral("added"));

        // Cursor format: base64 JSON with an offset, then something opaque.
        Snapshot::List a = list(QStringLiteral("tools"), items, 5);
        Snapshot::List b = a;
        a.pages[0].nextCursor = QStringLiteral("eyJvZmZzZXQiOjV9"); // {"offset":5}
        b.pages[0].nextCursor = QStringLiteral("\x01\x02");
        QVERIFY(
            SnapshotDiff::cursorShape(a.pages[0].nextCursor.toString()).contains(QLatin1String("{offset}")));
        expectOne(server({a}), server({b}), Class::Paging, QStringLiteral("cursor format"));
    }

    void serverLevel()
    {
        Snapshot a = server(), b = server();
        b.revision = QStringLiteral("2025-11-25");
        expectOne(a, b, Class::Breaking, QStringLiteral("protocol revision 2026-07-28 → 2025-11-25"));
        b = server();
        b.serverInfo.insert(QStringLiteral("version"), QStringLiteral("1.1.0"));
        expectOne(a, b, Class::Text, QStringLiteral("serverInfo version changed"));
        b = server();
        b.capabilities.insert(QStringLiteral("resources"), QJsonObject());
        expectOne(a, b, Class::Additive, QStringLiteral("capability resources added"));
        b = server();
        b.capabilities.insert(QStringLiteral("tools"), QJsonObject());
        expectOne(a, b, Class::Breaking, QStringLiteral("capability tools changed"));
        b = server();
        b.capabilities.remove(QStringLiteral("prompts"));
        expectOne(a, b, Class::Breaking, QStringLiteral("capability prompts removed"));
    }

    void listsAddedRemovedAndStoppedShort()
    {
        const QList<QJsonObject> items{json("{'name':'a'}"), json("{'name':'b'}")};
        expectOne(server({list(QStringLiteral("tools"), items)}), server(), Class::Breaking,
                  QStringLiteral("list removed (it held 2 items)"));
        expectOne(server(), server({list(QStringLiteral("tools"), items)}), Class::Additive,
                  QStringLiteral("list added (2 items)"));
        // The second walk stopped short: what it did not reach is not "removed".
        Snapshot::List shorter = list(QStringLiteral("tools"), {items.at(0)});
        shorter.complete = false;
        shorter.stopReason = QStringLiteral("a page failed");
        expectOne(server({list(QStringLiteral("tools"), items)}), server({shorter}), Class::Paging,
                  QStringLiteral("stopped short after"));
        // Two takes that stop at the same place are the same.
        QVERIFY(SnapshotDiff::compare(server({shorter}), server({shorter})).isEmpty());
        Snapshot::List otherwise = shorter;
        otherwise.stopReason = QStringLiteral("a cap");
        expectOne(server({shorter}), server({otherwise}), Class::Paging,
                  QStringLiteral("both walks stopped short"));
    }

    // Found by fuzz_snapshot: a file that repeats a list id compares each id's first list on both
    // sides; a number too large for an integer is said, not cast.
    void repeatedListIdsAndHugeNumbers()
    {
        const QList<QJsonObject> one{json("{'name':'a'}")}, other{json("{'name':'b'}")};
        const Snapshot s = server({list(QStringLiteral("tools"), one), list(QStringLiteral("tools"), other)});
        QVERIFY(SnapshotDiff::compare(s, s).isEmpty());
        const QList<SnapshotChange> changes =
            SnapshotDiff::compare(server({list(QStringLiteral("tools"), one, 0, 2.2e51)}),
                                  server({list(QStringLiteral("tools"), one, 0, -1e300)}));
        QCOMPARE(changes.size(), 1);
        QVERIFY2(changes.constFirst().summary.contains(QLatin1String("2.2e+51")),
                 qPrintable(describe(changes)));
    }

    // Many items, matched by identity in linear time; a change in the middle is found.
    void manyItems()
    {
        QList<QJsonObject> items;
        constexpr int n = 200000;
        items.reserve(n);
        for (int i = 0; i < n; ++i)
            items << QJsonObject{{QStringLiteral("uri"), QStringLiteral("r://%1").arg(i)},
                                 {QStringLiteral("description"), QStringLiteral("item %1").arg(i)}};
        const Snapshot a = server({list(QStringLiteral("resources"), items, 1000)});
        items[n / 2].insert(QStringLiteral("description"), QStringLiteral("changed"));
        items.removeLast();
        const Snapshot b = server({list(QStringLiteral("resources"), items, 1000)});
        const QList<SnapshotChange> changes = SnapshotDiff::compare(a, b);
        QCOMPARE(changes.size(), 2);
        QCOMPARE(changes.at(0).item.value_or(QString()), QStringLiteral("uri:r://%1").arg(n / 2));
        QVERIFY(changes.at(0).cls == Class::Text);
        QCOMPARE(changes.at(1).summary, QStringLiteral("removed"));
    }

    // Many long descriptions, each rewritten throughout: the word diffs share one budget, so the
    // last ones stand whole and the diff stays linear.
    void manyRewrittenDescriptionsShareABudget()
    {
        QList<QJsonObject> before, after;
        for (int i = 0; i < 1500; ++i) {
            QString a, b;
            for (int w = 0; w < 300; ++w) {
                a += QStringLiteral("a%1 ").arg(w);
                b += QStringLiteral("b%1 ").arg(w);
            }
            const QString name = QStringLiteral("t%1").arg(i);
            before << QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("description"), a}};
            after << QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("description"), b}};
        }
        const QList<SnapshotChange> changes = SnapshotDiff::compare(withTools(before), withTools(after));
        QCOMPARE(changes.size(), 1500);
        QVERIFY(changes.constFirst().words && !changes.constFirst().words->whole);
        QVERIFY(changes.constLast().words && changes.constLast().words->whole);
    }

    void changeAsJson()
    {
        const QList<SnapshotChange> changes =
            SnapshotDiff::compare(withTools({tool("a", "{}", "{'description':'x'}")}),
                                  withTools({tool("a", "{}", "{'description':'y'}")}));
        QCOMPARE(changes.size(), 1);
        const QJsonObject o = changes.constFirst().toJson();
        QCOMPARE(o.value(QStringLiteral("class")).toString(), QStringLiteral("text"));
        QCOMPARE(o.value(QStringLiteral("list")).toString(), QStringLiteral("tools"));
        QCOMPARE(o.value(QStringLiteral("item")).toString(), QStringLiteral("name:a"));
        QCOMPARE(o.value(QStringLiteral("before")).toString(), QStringLiteral("x"));
        QCOMPARE(o.value(QStringLiteral("after")).toString(), QStringLiteral("y"));
        QCOMPARE(o.value(QStringLiteral("words")).toArray().size(), 2);
        QCOMPARE(SnapshotChange::classNamed(QStringLiteral("paging")), Class::Paging);
        QVERIFY(!SnapshotChange::classNamed(QStringLiteral("nope")));
    }
};

QTEST_GUILESS_MAIN(tst_SnapshotDiff)
#include "tst_snapshotdiff.moc"
