// The Auditor engine against a scripted server: politeness (which tools it calls), bounded probes,
// the result, and cancelling. How the result is rendered is tst_auditreport's (tests/cli).

#include "auditor.h"
#include "auditprobes.h"
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
    // Starts the audit and waits until it has finished.
    static bool auditToEnd(Auditor &auditor)
    {
        QSignalSpy finished(&auditor, &Auditor::finished);
        auditor.start();
        return finished.wait(10000);
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
        McpClient *client = connectedToScriptedServer(this, &server);
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
        // another list (read_repo_issues') and other arguments (one string argument to add).
        QCOMPARE(server->calls.count(QStringLiteral("read_things")), 3 + 3 + 1 + 1 + 1);
        QCOMPARE(read->requests, 9);
        QVERIFY(result.toJson()
                    .value(QStringLiteral("summary"))
                    .toObject()
                    .value(QStringLiteral("passed"))
                    .toBool());
    }

    // Without probes (a snapshot's walks): each list is walked once to its end and nothing else
    // is asked; each walk is still handed out, and its findings kept.
    void withoutProbesOnlyTheWalks()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedToScriptedServer(this, &server);
        QVERIFY(client);
        AuditOptions options;
        options.probe = false;
        Auditor auditor(client, options);
        QSignalSpy walked(&auditor, &Auditor::listWalked);
        QVERIFY(auditToEnd(auditor));
        QVERIFY(server);
        QCOMPARE(server->calls.count(QStringLiteral("read_things")), 3); // one walk of 3 pages
        const AuditedList *read = find(auditor.result(), QStringLiteral("tool:read_things"));
        QVERIFY(read && read->complete);
        QCOMPARE(read->requests, 3);
        QVERIFY(read->notes.isEmpty()); // no probe ran, none was said to be skipped
        QVERIFY(walked.size() >= 2);    // tools/list and the list tools at least
    }

    // A read-only list tool that requires arguments is walked with values from its schema, says
    // which, and gets every probe with them.
    void requiredArgumentsFilledFromSchema()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedToScriptedServer(this, &server);
        QVERIFY(client);
        Auditor auditor(client, AuditOptions{});
        QVERIFY(auditToEnd(auditor));

        const AuditedList *repo = find(auditor.result(), QStringLiteral("tool:read_repo_issues"));
        QVERIFY(repo);
        QVERIFY2(repo->isAudited(), qPrintable(repo->skipped));
        QVERIFY(repo->findings.isEmpty());
        QCOMPARE(repo->pages, 2);
        QCOMPARE(repo->items, 6);
        QVERIFY(repo->complete);
        const QJsonObject filled{{QStringLiteral("repo"), QStringLiteral("octo/demo")},
                                 {QStringLiteral("state"), QStringLiteral("open")}};
        QCOMPARE(repo->arguments, filled); // what was sent
        QVERIFY2(
            repo->notes.contains(QStringLiteral(
                "arguments filled from the schema: repo=\"octo/demo\" (examples), state=\"open\" (enum)")),
            qPrintable(repo->notes.join(u'|')));

        // Every request carried them: two walks of two pages, a tampered cursor, read_things'
        // cursor, then the own cursor with a label added (refused) and with another repo.
        const QList<QJsonObject> sent = server->argumentsOf(QStringLiteral("read_repo_issues"));
        QCOMPARE(sent.size(), 2 + 2 + 1 + 1 + 2);
        QCOMPARE(repo->requests, 8);
        QStringList probes;
        for (const QJsonObject &a : sent) {
            QCOMPARE(a.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
            const QString cursor = a.value(QStringLiteral("cursor")).toString();
            if (a.value(QStringLiteral("repo")).toString() != QLatin1String("octo/demo"))
                probes << QStringLiteral("other repo ") + a.value(QStringLiteral("repo")).toString();
            else if (a.contains(QStringLiteral("label")))
                probes << QStringLiteral("label");
            else if (cursor.endsWith(QLatin1Char('!')))
                probes << QStringLiteral("tampered");
            else if (cursor.startsWith(QLatin1String("read_things:")))
                probes << QStringLiteral("foreign");
        }
        QCOMPARE(probes, (QStringList{QStringLiteral("tampered"), QStringLiteral("foreign"),
                                      QStringLiteral("label"), QStringLiteral("other repo octo/demoa")}));
    }

    // --tool-args wins; only what it lacks is filled.
    void toolArgsOverrideFilledValues()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedToScriptedServer(this, &server);
        QVERIFY(client);
        AuditOptions options;
        options.lists = {QStringLiteral("tool:read_repo_issues")};
        options.toolArguments.insert(QStringLiteral("read_repo_issues"),
                                     QJsonObject{{QStringLiteral("repo"), QStringLiteral("acme/widgets")}});
        Auditor auditor(client, options);
        QVERIFY(auditToEnd(auditor));
        QCOMPARE(auditor.result().lists.size(), 1);
        const AuditedList &repo = auditor.result().lists.first();
        QVERIFY2(repo.isAudited(), qPrintable(repo.skipped));
        QVERIFY(repo.findings.isEmpty());
        QCOMPARE(repo.arguments, (QJsonObject{{QStringLiteral("repo"), QStringLiteral("acme/widgets")},
                                              {QStringLiteral("state"), QStringLiteral("open")}}));
        QVERIFY2(
            repo.notes.contains(QStringLiteral("arguments filled from the schema: state=\"open\" (enum)")),
            qPrintable(repo.notes.join(u'|')));
        for (const QJsonObject &a : server->argumentsOf(QStringLiteral("read_repo_issues")))
            QVERIFY(a.value(QStringLiteral("repo")).toString().startsWith(QLatin1String("acme/widgets")));

        // Given in full: nothing filled, nothing said.
        QPointer<ScriptedServer> second;
        McpClient *again = connectedToScriptedServer(this, &second);
        QVERIFY(again);
        options.toolArguments.insert(QStringLiteral("read_repo_issues"),
                                     QJsonObject{{QStringLiteral("repo"), QStringLiteral("acme/widgets")},
                                                 {QStringLiteral("state"), QStringLiteral("closed")}});
        Auditor full(again, options);
        QVERIFY(auditToEnd(full));
        const AuditedList &given = full.result().lists.first();
        QVERIFY(given.isAudited());
        QCOMPARE(given.arguments.value(QStringLiteral("state")).toString(), QStringLiteral("closed"));
        QVERIFY(!given.notes.join(u'|').contains(QLatin1String("filled")));
    }

    // A tool that refuses the filled values is skipped, and the reason names them.
    void stillFailingToolSkippedWithFilledValues()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedToScriptedServer(this, &server);
        QVERIFY(client);
        AuditOptions options;
        options.lists = {QStringLiteral("tool:read_private_things")};
        Auditor auditor(client, options);
        QVERIFY(auditToEnd(auditor));
        const AuditedList &l = auditor.result().lists.first();
        QVERIFY(!l.isAudited());
        QCOMPARE(l.skipped,
                 QStringLiteral("its first page failed (The tool answered isError: wrong token) with "
                                "arguments filled from its schema: token=\"example\" (placeholder); "
                                "give them with --tool-args read_private_things=JSON"));
        const QList<QJsonObject> tried{QJsonObject{{QStringLiteral("token"), QStringLiteral("example")}}};
        QCOMPARE(server->argumentsOf(QStringLiteral("read_private_things")), tried);
        QVERIFY(auditor.result()
                    .toJson()
                    .value(QStringLiteral("summary"))
                    .toObject()
                    .value(QStringLiteral("passed"))
                    .toBool());
    }

    // A list that fits one page issues no cursor: a forged one stands in for the tampered one.
    void forgedCursorOnOnePage_data()
    {
        QTest::addColumn<bool>("ignoresCursors");
        QTest::addColumn<int>("code");        // tools/list's refusal
        QTest::addColumn<QString>("tools");   // the finding on tools/list, if any
        QTest::addColumn<QString>("onePage"); // ... on read_one_page (refuses with isError)
        QTest::newRow("refused_with_invalid_params") << false << -32602 << QString() << QString();
        QTest::newRow("refused_with_another_code")
            << false << -32603 << FindingId::InvalidCursorWrongCode << QString();
        QTest::newRow("answered_as_if_valid")
            << true << -32602 << FindingId::InvalidCursorAccepted << FindingId::InvalidCursorAccepted;
    }

    void forgedCursorOnOnePage()
    {
        QFETCH(bool, ignoresCursors);
        QFETCH(int, code);
        QFETCH(QString, tools);
        QFETCH(QString, onePage);
        QPointer<ScriptedServer> server;
        McpClient *client = connectedToScriptedServer(this, &server);
        QVERIFY(client);
        server->ignoresCursors = ignoresCursors;
        server->cursorErrorCode = code;
        AuditOptions options;
        options.lists = {QStringLiteral("tools"), QStringLiteral("tool:read_one_page")};
        Auditor auditor(client, options);
        QVERIFY(auditToEnd(auditor));

        const QString forged = AuditProbes::forgedCursor();
        QVERIFY(!forged.isEmpty());
        const auto judged = [](const AuditedList *l) {
            QStringList ids;
            for (const Finding &f : l->findings)
                ids << f.id;
            return ids.join(u',');
        };
        const AuditedList *toolsList = find(auditor.result(), QStringLiteral("tools"));
        const AuditedList *onePageList = find(auditor.result(), QStringLiteral("tool:read_one_page"));
        QVERIFY(toolsList && onePageList);
        QCOMPARE(judged(toolsList), tools);
        QCOMPARE(judged(onePageList), onePage);
        for (const AuditedList *l : {toolsList, onePageList}) {
            QCOMPARE(l->pages, 1);
            QVERIFY2(
                l->notes.join(u'|').contains(QLatin1String("fits one page (no cursor issued), so a forged "
                                                           "cursor stands in for a tampered one")),
                qPrintable(l->notes.join(u'|')));
            for (const Finding &f : l->findings) {
                QCOMPARE(f.severity, Finding::defaultSeverity(f.id));
                QVERIFY(f.pages.isEmpty()); // about the list, not one page
                QCOMPARE(f.evidence.value(QStringLiteral("probe")).toString(),
                         QStringLiteral("forged-cursor"));
                QCOMPARE(f.evidence.value(QStringLiteral("cursor")).toString(), forged);
                QVERIFY2(f.message.startsWith(QLatin1String("The list fits one page (it issued no cursor)")),
                         qPrintable(f.message));
            }
        }
        // The forged cursor went to each list once: walk, forged cursor, second walk.
        QCOMPARE(server->toolsListParams.size(), 3);
        QCOMPARE(server->toolsListParams.at(1).value(QStringLiteral("cursor")).toString(), forged);
        QList<QJsonObject> calls = server->argumentsOf(QStringLiteral("read_one_page"));
        QCOMPARE(calls.size(), 3);
        QCOMPARE(calls.at(1), (QJsonObject{{QStringLiteral("cursor"), forged}}));
    }

    // An offset (or page-number) list has no cursor to forge in place of: no cursor probe at all.
    void noForgedCursorForOffsetLists()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedToScriptedServer(this, &server);
        QVERIFY(client);
        AuditOptions options;
        options.lists = {QStringLiteral("tool:read_rows")};
        Auditor auditor(client, options);
        QVERIFY(auditToEnd(auditor));
        const AuditedList &rows = auditor.result().lists.first();
        QVERIFY(rows.isAudited());
        QCOMPARE(rows.pages, 2); // two rows, then an empty page
        const QList<QJsonObject> calls = server->argumentsOf(QStringLiteral("read_rows"));
        QCOMPARE(calls.size(), 2 + 2); // the walks only
        for (const QJsonObject &a : calls)
            QVERIFY(!a.value(QStringLiteral("offset")).isString());
        QVERIFY(rows.notes.join(u'|').contains(QLatin1String("pages by offset (offset)")));
        QVERIFY(!rows.notes.join(u'|').contains(QLatin1String("forged")));
        QStringList ids;
        for (const Finding &f : rows.findings)
            ids << f.id;
        QCOMPARE(ids, QStringList{FindingId::TransparentPaging});
    }

    void allowToolOptsIn()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedToScriptedServer(this, &server);
        QVERIFY(client);
        AuditOptions options;
        options.allowedTools = {QStringLiteral("sync_things")};
        options.lists = {QStringLiteral("tool:sync_things")};
        Auditor auditor(client, options);
        QVERIFY(auditToEnd(auditor));
        QVERIFY(server->calls.contains(QStringLiteral("sync_things")));
        QVERIFY(!server->calls.contains(QStringLiteral("read_things"))); // not asked for
        QCOMPARE(auditor.result().lists.size(), 1);
        QVERIFY(auditor.result().lists.first().isAudited());
    }

    void cancelStopsAndReports()
    {
        QPointer<ScriptedServer> server;
        McpClient *client = connectedToScriptedServer(this, &server);
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
