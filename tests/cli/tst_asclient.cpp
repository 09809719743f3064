// `folio list --as-client` end to end with the real binaries: the demo server's tools list with a
// "" cursor on page 2 (10 per page) is whole to the clients that follow "" and cut after page 2 for
// those that take it for the end, in json and in the table; the option's usage errors.

#include "fixtureprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using fixtureprocess::demoServer;
using fixtureprocess::Run;

namespace {

const QStringList clientIds{QStringLiteral("mcpx"),          QStringLiteral("opencode-v1"),
                            QStringLiteral("opencode-v2"),   QStringLiteral("ts-sdk"),
                            QStringLiteral("inspector-cli"), QStringLiteral("python-idiom"),
                            QStringLiteral("folio")};

QStringList emptyStringCursor()
{
    return {QStringLiteral("--"),         demoServer,
            QStringLiteral("--scenario"), QStringLiteral("healthy"),
            QStringLiteral("--list"),     QStringLiteral("tools=empty-string-cursor,pageSize=10")};
}

Run asClient(const QString &name, const QString &format, const QStringList &target = emptyStringCursor())
{
    return fixtureprocess::folio(QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                             QStringLiteral("--as-client"), name, QStringLiteral("--format"),
                                             format} +
                                 target);
}

QJsonObject clientOf(const QJsonObject &doc, const QString &id)
{
    for (const QJsonValue &v : doc.value(QStringLiteral("clients")).toArray()) {
        if (v.toObject().value(QStringLiteral("id")).toString() == id)
            return v.toObject();
    }
    return {};
}

} // namespace

class TestAsClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void json()
    {
        const Run run = asClient(QStringLiteral("all"), QStringLiteral("json"));
        QVERIFY2(run.finished, qPrintable(run.describe()));
        QCOMPARE(run.exitCode, 0);
        const QJsonObject doc = run.json();
        QCOMPARE(doc.value(QStringLiteral("list")).toString(), QStringLiteral("tools"));
        const QJsonObject walk = doc.value(QStringLiteral("walk")).toObject();
        QCOMPARE(walk.value(QStringLiteral("complete")).toBool(), true);
        QCOMPARE(walk.value(QStringLiteral("items")).toInt(), 123);
        const QJsonArray clients = doc.value(QStringLiteral("clients")).toArray();
        QCOMPARE(clients.size(), clientIds.size());
        for (const QJsonValue &v : clients) {
            const QJsonObject c = v.toObject();
            for (const char *key : {"id", "name", "source", "pagesAsked", "items", "missed", "missedSample",
                                    "outcome", "message"})
                QVERIFY2(c.contains(QLatin1String(key)), key);
            QVERIFY(!c.value(QStringLiteral("source")).toString().isEmpty());
        }

        // mcpx takes page 2's "" for the end: the 20 tools of pages 1 and 2, the rest lost.
        const QJsonObject mcpx = clientOf(doc, QStringLiteral("mcpx"));
        QCOMPARE(mcpx.value(QStringLiteral("outcome")).toString(), QStringLiteral("stopped-on-empty-cursor"));
        QCOMPARE(mcpx.value(QStringLiteral("pagesAsked")).toInt(), 2);
        QCOMPARE(mcpx.value(QStringLiteral("items")).toInt(), 20);
        QCOMPARE(mcpx.value(QStringLiteral("missed")).toInt(), 103);
        QCOMPARE(mcpx.value(QStringLiteral("missedSample")).toArray().size(), 5);
        QCOMPARE(mcpx.value(QStringLiteral("message")).toString(),
                 QStringLiteral("loses 103 of 123 tools: takes the cursor \"\" on page 2 for the end"));

        // The TypeScript SDK follows "": all 123.
        const QJsonObject ts = clientOf(doc, QStringLiteral("ts-sdk"));
        QCOMPARE(ts.value(QStringLiteral("outcome")).toString(), QStringLiteral("complete"));
        QCOMPARE(ts.value(QStringLiteral("items")).toInt(), 123);
        QCOMPARE(ts.value(QStringLiteral("missed")).toInt(), 0);
        QCOMPARE(ts.value(QStringLiteral("pagesAsked")).toInt(), 13);
        QCOMPARE(clientOf(doc, QStringLiteral("python-idiom")).value(QStringLiteral("missed")).toInt(), 103);
        QCOMPARE(clientOf(doc, QStringLiteral("folio")).value(QStringLiteral("items")).toInt(), 123);
    }

    void table()
    {
        const Run run = asClient(QStringLiteral("all"), QStringLiteral("table"));
        QVERIFY2(run.finished, qPrintable(run.describe()));
        QCOMPARE(run.exitCode, 0);
        const QStringList lines = QString::fromUtf8(run.out).split(QLatin1Char('\n'));
        // One row per client, each once, in the policies' order.
        int previous = -1;
        for (const QString &id : clientIds) {
            QList<int> rows;
            for (int i = 0; i < lines.size(); ++i) {
                if (lines.at(i).section(QLatin1Char(' '), 0, 0) == id)
                    rows << i;
            }
            QCOMPARE(rows.size(), 1);
            QVERIFY2(rows.first() > previous, qPrintable(id));
            previous = rows.first();
        }
        const QString text = QString::fromUtf8(run.out);
        QVERIFY2(text.contains(
                     QLatin1String("loses 103 of 123 tools: takes the cursor \"\" on page 2 for the end")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("gets all 123 tools in 13 pages")), qPrintable(text));
        QVERIFY(!text.contains(QLatin1String("Sources:"))); // -v adds them
    }

    void oneClientVerbose()
    {
        const Run run = fixtureprocess::folio(QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                                          QStringLiteral("--as-client"),
                                                          QStringLiteral("mcpx"), QStringLiteral("-v")} +
                                              emptyStringCursor());
        QVERIFY2(run.finished, qPrintable(run.describe()));
        QCOMPARE(run.exitCode, 0);
        const QString text = QString::fromUtf8(run.out);
        QVERIFY2(text.contains(QLatin1String("\nmcpx ")), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("\nts-sdk ")), qPrintable(text));
        QVERIFY2(
            text.contains(QLatin1String("Sources:\n  mcpx (mcpx): pagination-and-caching-register PG-02")),
            qPrintable(text));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("said");
        const QStringList target = emptyStringCursor();
        QTest::newRow("unknown client")
            << (QStringList{QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--as-client"),
                            QStringLiteral("claude")} +
                target)
            << QStringLiteral("unknown client 'claude': mcpx, opencode-v1, "
                              "opencode-v2, ts-sdk, inspector-cli, python-idiom, "
                              "folio or all");
        QTest::newRow("a list tool") << (QStringList{QStringLiteral("list"),
                                                     QStringLiteral("tool:list_users"),
                                                     QStringLiteral("--as-client"), QStringLiteral("all")} +
                                         target)
                                     << QStringLiteral("protocol lists");
        QTest::newRow("with pages") << (QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                                    QStringLiteral("--as-client"), QStringLiteral("all"),
                                                    QStringLiteral("--pages"), QStringLiteral("2")} +
                                        target)
                                    << QStringLiteral("--pages");
        QTest::newRow("csv") << (QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                             QStringLiteral("--as-client"), QStringLiteral("all"),
                                             QStringLiteral("--format"), QStringLiteral("csv")} +
                                 target)
                             << QStringLiteral("table or json");
    }
    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, said);
        const Run run = fixtureprocess::folio(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY2(run.err.contains(said.toUtf8()), qPrintable(run.describe()));
    }

    void help()
    {
        const Run run = fixtureprocess::folio({QStringLiteral("list"), QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("--as-client NAME"));
        QVERIFY(run.out.contains("docs/client-policies.md"));
        for (const QByteArray &line : run.out.split('\n'))
            QVERIFY2(QString::fromUtf8(line).size() <= 100, line.constData());
    }
};

QTEST_GUILESS_MAIN(TestAsClient)
#include "tst_asclient.moc"
