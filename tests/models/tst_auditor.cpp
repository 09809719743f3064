// The Auditor engine against a scripted server: politeness (which tools it calls), bounded probes,
// the result, and cancelling. How the result is rendered is tst_auditreport's (tests/cli).

#include "auditor.h"
#include "mcpclient.h"
#include "scriptedserver.h"

#include <QPointer>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

class tst_Auditor : public QObject
{
    Q_OBJECT

private:
    // A client connected to a fresh ScriptedServer; server receives the transport.
    McpClient *connectedClient(QPointer<ScriptedServer> *server)
    {
        auto *client = new McpClient(this);
        client->setTransportFactory([server](QObject *parent) {
            auto *t = new ScriptedServer(parent);
            *server = t;
            return t;
        });
        QSignalSpy connected(client, &McpClient::connected);
        client->connectToServer();
        if (!connected.wait(5000))
            return nullptr;
        return client;
    }

    static const AuditedList *find(const AuditResult &result, const QString &id)
    {
        for (const AuditedList &l : result.lists) {
            if (l.id == id)
                return &l;
        }
        return nullptr;
    }

private Q_SLOTS:
    void onlyReadOnlyListToolsAreCalled()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedClient(&server);
        QVERIFY(client);
        Auditor auditor(client, AuditOptions{});
        QSignalSpy finished(&auditor, &Auditor::finished);
        QSignalSpy audited(&auditor, &Auditor::listAudited);
        auditor.start();
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.size(), 1);
        QVERIFY(!auditor.isRunning());

        QVERIFY(server);
        QVERIFY(!server->calls.isEmpty());
        QVERIFY2(!server->calls.contains(QStringLiteral("sync_things")),
                 "called a tool not marked read-only");
        QVERIFY(!server->calls.contains(QStringLiteral("delete_thing")));

        const AuditResult &result = auditor.result();
        QCOMPARE(audited.size(), int(result.lists.size())); // every list is announced once
        const AuditedList *read = find(result, QStringLiteral("tool:read_things"));
        const AuditedList *sync = find(result, QStringLiteral("tool:sync_things"));
        QVERIFY(read && sync);
        QVERIFY(read->isAudited());
        QVERIFY(read->findings.isEmpty());
        QCOMPARE(read->pages, 3);
        QVERIFY(read->complete);
        QVERIFY(!sync->isAudited());
        QVERIFY(sync->skipped.contains(QStringLiteral("readOnlyHint")));
        QVERIFY(!find(result, QStringLiteral("tool:delete_thing"))); // not a list tool: not a list

        // Bounded: one walk of 3 pages, a second walk of 3, a tampered cursor, a cursor from
        // another list (none issued one) and other arguments (one string argument to add).
        QCOMPARE(server->calls.count(QStringLiteral("read_things")), 3 + 3 + 1 + 1);
        QCOMPARE(read->requests, 8);
        QVERIFY(result.toJson()
                    .value(QStringLiteral("summary"))
                    .toObject()
                    .value(QStringLiteral("passed"))
                    .toBool());
    }

    void allowToolOptsIn()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedClient(&server);
        QVERIFY(client);
        AuditOptions options;
        options.allowedTools = {QStringLiteral("sync_things")};
        options.lists = {QStringLiteral("tool:sync_things")};
        Auditor auditor(client, options);
        QSignalSpy finished(&auditor, &Auditor::finished);
        auditor.start();
        QVERIFY(finished.wait(10000));
        QVERIFY(server->calls.contains(QStringLiteral("sync_things")));
        QVERIFY(!server->calls.contains(QStringLiteral("read_things"))); // not asked for
        QCOMPARE(auditor.result().lists.size(), 1);
        QVERIFY(auditor.result().lists.first().isAudited());
    }

    void cancelStopsAndReports()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedClient(&server);
        QVERIFY(client);
        Auditor auditor(client, AuditOptions{});
        QSignalSpy finished(&auditor, &Auditor::finished);
        QSignalSpy progress(&auditor, &Auditor::progress);
        auditor.start();
        QVERIFY(progress.wait(5000));
        auditor.cancel(QStringLiteral("test"));
        QCOMPARE(finished.size(), 1);
        QCOMPARE(auditor.result().aborted, QStringLiteral("test"));
        QVERIFY(!finished.wait(50)); // nothing arrives after a cancel
    }
};

QTEST_GUILESS_MAIN(tst_Auditor)
#include "tst_auditor.moc"
