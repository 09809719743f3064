// ToolCatalog: which tools a server has, and which are list tools (models/toolcatalog.h), against
// the scripted server the audit tests use.

#include "mcpclient.h"
#include "pagewalker.h"
#include "rowstore.h"
#include "scriptedserver.h"
#include "toolcatalog.h"
#include "ttlclock.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

class tst_ToolCatalog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void findsToolsAndListTools()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedToScriptedServer(this, &server);
        QVERIFY(client);
        TtlClock clock;
        ToolCatalog catalog(client, &clock);
        QSignalSpy found(&catalog, &ToolCatalog::found);
        catalog.find();
        QVERIFY(found.wait(5000));
        QVERIFY(catalog.isFound());
        QVERIFY(catalog.isComplete());

        QCOMPARE(catalog.tools().size(), 7); // the scripted server's seven tools
        const std::optional<QJsonObject> del = catalog.tool(QStringLiteral("delete_thing"));
        QVERIFY(del);
        QCOMPARE(del->value(QStringLiteral("name")).toString(), QStringLiteral("delete_thing"));
        QVERIFY(!catalog.tool(QStringLiteral("no_such_tool")));
        QCOMPARE(catalog.missingToolText(QStringLiteral("no_such_tool")),
                 QStringLiteral("the server has no tool named 'no_such_tool'"));

        // The list tools, in tools/list order; delete_thing is not one.
        QStringList ids;
        for (const ListSource &s : catalog.listTools())
            ids << s.id();
        QVERIFY2(ids.contains(QStringLiteral("tool:read_things")), qPrintable(ids.join(QLatin1Char(' '))));
        QVERIFY(ids.contains(QStringLiteral("tool:read_rows")));
        QVERIFY(!ids.contains(QStringLiteral("tool:delete_thing")));
        QCOMPARE(ids, [&] {
            QStringList viaStatic;
            for (const ListSource &s : ToolCatalog::listToolsIn(*catalog.walker()->rows()))
                viaStatic << s.id();
            return viaStatic;
        }());
        // Every list tool found is one ListSource::fromTool takes, and none it takes is missed.
        int fromTool = 0;
        for (const QJsonObject &tool : catalog.tools())
            fromTool += ListSource::fromTool(tool) ? 1 : 0;
        QCOMPARE(ids.size(), fromTool);
    }

    void saysWhenTheListDidNotEnd()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedToScriptedServer(this, &server);
        QVERIFY(client);
        server->setHandler([](const QString &method, const QJsonObject &) -> QJsonObject {
            if (method == QLatin1String("tools/list"))
                return {{QStringLiteral("error"),
                         QJsonObject{{QStringLiteral("code"), -32603},
                                     {QStringLiteral("message"), QStringLiteral("down")}}}};
            return {};
        });
        TtlClock clock;
        ToolCatalog catalog(client, &clock);
        QSignalSpy found(&catalog, &ToolCatalog::found);
        catalog.find();
        QVERIFY(found.wait(5000));
        QVERIFY(!catalog.isComplete());
        QVERIFY(!catalog.tool(QStringLiteral("read_things")));
        QVERIFY2(
            catalog.missingToolText(QStringLiteral("read_things"))
                .startsWith(QStringLiteral("tool 'read_things' not found, and tools/list did not complete")),
            qPrintable(catalog.missingToolText(QStringLiteral("read_things"))));
    }
};

QTEST_GUILESS_MAIN(tst_ToolCatalog)
#include "tst_toolcatalog.moc"
