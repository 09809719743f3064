// Wire behaviour of every folio-demo-server scenario, over stdio and over HTTP, as documented in
// docs/demo-server.md.
#include "demopeer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <functional>

namespace {

struct Walk
{
    QList<PeerReply> pages;
    QList<QJsonValue> cursorsSent;
    QStringList names;
};

QString identity(const QJsonObject &item)
{
    for (const char *key : {"name", "uriTemplate", "uri", "id"}) {
        if (item.contains(QLatin1String(key)))
            return item.value(QLatin1String(key)).toString();
    }
    return {};
}

QString itemsKey(const QString &method)
{
    if (method == QStringLiteral("resources/templates/list"))
        return QStringLiteral("resourceTemplates");
    return method.section(QLatin1Char('/'), 0, 0);
}

PeerReply page(DemoPeer &peer, const QString &method, const QJsonValue &cursor = QJsonValue::Undefined,
               int timeoutMs = 5000)
{
    QJsonObject params;
    if (!cursor.isUndefined())
        params.insert(QStringLiteral("cursor"), cursor);
    return peer.call(method, params, timeoutMs);
}

// Follows nextCursor until it is absent, an error comes, or maxPages pages were read.
Walk walk(DemoPeer &peer, const QString &method, int maxPages = 200)
{
    Walk result;
    QJsonValue cursor = QJsonValue::Undefined;
    for (int i = 0; i < maxPages; ++i) {
        const PeerReply reply = page(peer, method, cursor);
        result.pages.append(reply);
        result.cursorsSent.append(cursor);
        const QJsonObject r = reply.result();
        for (const QJsonValue &item : r.value(itemsKey(method)).toArray())
            result.names.append(identity(item.toObject()));
        if (!reply.message.contains(QStringLiteral("result")) || !r.contains(QStringLiteral("nextCursor")))
            break;
        cursor = r.value(QStringLiteral("nextCursor"));
    }
    return result;
}

QJsonObject decodeCursor(const QString &cursor)
{
    return QJsonDocument::fromJson(QByteArray::fromBase64(cursor.toLatin1(), QByteArray::Base64UrlEncoding))
        .object();
}

PeerReply callTool(DemoPeer &peer, const QString &name, const QJsonObject &arguments)
{
    return peer.call(QStringLiteral("tools/call"),
                     QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}});
}

QJsonObject structured(const PeerReply &reply)
{
    return reply.result().value(QStringLiteral("structuredContent")).toObject();
}

QStringList names(const QJsonArray &items)
{
    QStringList result;
    for (const QJsonValue &item : items)
        result.append(identity(item.toObject()));
    return result;
}

constexpr int toolCount = 123;

} // namespace

class TestDemoServer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void scenario_data();
    void scenario();
    void listTools_data() { transports(); }
    void listTools();
    void eras_data() { transports(); }
    void eras();
    void badInput_data() { transports(); }
    void badInput();
    void legacyNotifications_data() { transports(); }
    void legacyNotifications();
    void stdinEofExits();

private:
    using Check = std::function<void(DemoPeer &)>;
    void transports();
    void addScenario(const char *name, const QStringList &arguments, const Check &check);

    QHash<QString, Check> m_checks;
    QHash<QString, QStringList> m_arguments;
};

void TestDemoServer::transports()
{
    QTest::addColumn<int>("transport");
    QTest::newRow("stdio") << int(DemoPeer::Transport::Stdio);
    QTest::newRow("http") << int(DemoPeer::Transport::Http);
}

void TestDemoServer::addScenario(const char *name, const QStringList &arguments, const Check &check)
{
    const QString key = QString::fromLatin1(name);
    m_checks.insert(key, check);
    m_arguments.insert(key, QStringList{QStringLiteral("--scenario"), key} + arguments);
}

void TestDemoServer::initTestCase()
{
    const QString tools = QStringLiteral("tools/list");

    addScenario("healthy", {}, [=](DemoPeer &peer) {
        const Walk w = walk(peer, tools);
        QCOMPARE(w.pages.size(), 7);
        QCOMPARE(w.names.size(), toolCount);
        QCOMPARE(QSet<QString>(w.names.begin(), w.names.end()).size(), toolCount);
        for (const PeerReply &p : w.pages) {
            QCOMPARE(p.result().value(QStringLiteral("ttlMs")).toInt(), 300000);
            QCOMPARE(p.result().value(QStringLiteral("cacheScope")).toString(), QStringLiteral("public"));
            QCOMPARE(p.result().value(QStringLiteral("resultType")).toString(), QStringLiteral("complete"));
            QVERIFY(p.result()[QStringLiteral("_meta")][QStringLiteral("io.modelcontextprotocol/serverInfo")]
                        .isObject());
        }
        QCOMPARE(decodeCursor(w.pages.at(0).result().value(QStringLiteral("nextCursor")).toString()),
                 (QJsonObject{{QStringLiteral("l"), tools.left(5)},
                              {QStringLiteral("o"), 20},
                              {QStringLiteral("s"), 42}}));
        QCOMPARE(walk(peer, QStringLiteral("prompts/list")).names.size(), 30);
        const Walk templates = walk(peer, QStringLiteral("resources/templates/list"));
        QCOMPARE(templates.pages.size(), 3);
        QCOMPARE(templates.names.size(), 20);
        const PeerReply resources = page(peer, QStringLiteral("resources/list"));
        QCOMPARE(resources.result().value(QStringLiteral("resources")).toArray().size(), 100);
        QCOMPARE(resources.result().value(QStringLiteral("cacheScope")).toString(),
                 QStringLiteral("private"));
        QCOMPARE(resources.result().value(QStringLiteral("ttlMs")).toInt(), 60000);
        const QString uri =
            resources.result()[QStringLiteral("resources")][0][QStringLiteral("uri")].toString();
        const PeerReply read =
            peer.call(QStringLiteral("resources/read"), QJsonObject{{QStringLiteral("uri"), uri}});
        QCOMPARE(read.result().value(QStringLiteral("ttlMs")).toInt(), 60000);
        QCOMPARE(read.result().value(QStringLiteral("cacheScope")).toString(), QStringLiteral("private"));
        const PeerReply discover = peer.call(QStringLiteral("server/discover"));
        QCOMPARE(discover.result().value(QStringLiteral("ttlMs")).toInt(), 3600000);
        QCOMPARE(discover.result().value(QStringLiteral("cacheScope")).toString(), QStringLiteral("public"));
        const PeerReply bad = page(peer, tools, QStringLiteral("bm9wZQ"));
        QCOMPARE(bad.errorCode(), -32602);
        QCOMPARE(page(peer, tools, QString()).errorCode(), -32602);
    });

    addScenario("tour", {}, [=](DemoPeer &peer) {
        QList<int> ttls;
        for (const PeerReply &p : walk(peer, tools).pages)
            ttls.append(p.result().value(QStringLiteral("ttlMs")).toInt());
        QCOMPARE(ttls, (QList<int>{60000, 3000, 0, 30000, 120000, 60000, 3000}));
        const Walk prompts = walk(peer, QStringLiteral("prompts/list"));
        QCOMPARE(prompts.pages.size(), 3);
        QCOMPARE(prompts.cursorsSent.at(1).toString(), QString());
        QVERIFY(prompts.cursorsSent.at(1).isString());
        QCOMPARE(prompts.names.size(), 30);
        // Sized for a room: everything drains within a minute but the tools' long TTLs.
        QCOMPARE(prompts.pages.first().result().value(QStringLiteral("ttlMs")).toInt(), 40000);
        QCOMPARE(page(peer, QStringLiteral("resources/list")).result().value(QStringLiteral("ttlMs")).toInt(),
                 30000);
        // The caption leads the instructions, for an audience.
        const QString instructions = peer.call(QStringLiteral("server/discover"))
                                         .result()
                                         .value(QStringLiteral("instructions"))
                                         .toString();
        QVERIFY2(instructions.startsWith(QStringLiteral("A cursor loop on templates")),
                 qPrintable(instructions));
        QVERIFY(instructions.contains(QStringLiteral("\nFolio's demo server")));
        const Walk templates = walk(peer, QStringLiteral("resources/templates/list"), 5);
        QCOMPARE(templates.pages.first().result().value(QStringLiteral("ttlMs")).toInt(), 25000);
        QCOMPARE(templates.pages.size(), 5);
        QCOMPARE(templates.cursorsSent.at(3), templates.cursorsSent.at(1)); // page 3 answered page 2's cursor
        const PeerReply users = callTool(peer, QStringLiteral("list_users"), {});
        const QString foreign = structured(users).value(QStringLiteral("next_cursor")).toString();
        const PeerReply channels =
            callTool(peer, QStringLiteral("list_channels"), {{QStringLiteral("cursor"), foreign}});
        QVERIFY(!channels.result().value(QStringLiteral("isError")).toBool());
        QCOMPARE(structured(channels).value(QStringLiteral("channels")).toArray().size(), 20);
    });

    addScenario("conformance", {}, [=](DemoPeer &peer) {
        QVERIFY(walk(peer, tools).names.contains(QStringLiteral("test_missing_capability")));
        const PeerReply missing = callTool(peer, QStringLiteral("test_missing_capability"), {});
        QCOMPARE(missing.errorCode(), -32021);
        QVERIFY(missing
                    .error()[QStringLiteral("data")][QStringLiteral("requiredCapabilities")]
                            [QStringLiteral("sampling")]
                    .isObject());
        if (peer.transport() == DemoPeer::Transport::Http)
            QCOMPARE(missing.status, 400);
    });

    for (const char *scope : {"private", "public"}) {
        const QString name = QStringLiteral("scope-") + QLatin1String(scope);
        addScenario(name.toLatin1().constData(), {}, [=](DemoPeer &peer) {
            for (const QString &method :
                 {tools, QStringLiteral("prompts/list"), QStringLiteral("resources/list"),
                  QStringLiteral("resources/templates/list")}) {
                QCOMPARE(page(peer, method).result().value(QStringLiteral("cacheScope")).toString(),
                         QLatin1String(scope));
            }
        });
    }

    addScenario("ttl-varies", {}, [=](DemoPeer &peer) {
        QList<int> ttls;
        for (const PeerReply &p : walk(peer, tools).pages)
            ttls.append(p.result().value(QStringLiteral("ttlMs")).toInt());
        QCOMPARE(ttls, (QList<int>{60000, 3000, 0, 30000, 120000, 60000, 3000}));
    });

    addScenario("empty-string-cursor", {}, [=](DemoPeer &peer) {
        const Walk w = walk(peer, tools);
        QCOMPARE(w.pages.size(), 7);
        QVERIFY(w.cursorsSent.at(2).isString());
        QCOMPARE(w.cursorsSent.at(2).toString(), QString());
        QCOMPARE(w.names.size(), toolCount);
        QCOMPARE(QSet<QString>(w.names.begin(), w.names.end()).size(), toolCount);
        QVERIFY(!w.pages.at(2).result().value(QStringLiteral("nextCursor")).toString().isEmpty());
    });

    addScenario("expiring", {QStringLiteral("--list"), QStringLiteral("tools=expiring,expireAfterMs=400")},
                [=](DemoPeer &peer) {
                    const QJsonValue cursor = page(peer, tools).result().value(QStringLiteral("nextCursor"));
                    QVERIFY(decodeCursor(cursor.toString()).value(QStringLiteral("i")).isDouble());
                    const PeerReply fresh = page(peer, tools, cursor);
                    QVERIFY2(fresh.message.contains(QStringLiteral("result")), fresh.body.constData());
                    QTRY_COMPARE_WITH_TIMEOUT(page(peer, tools, cursor).errorCode(), -32602, 3000);
                    QCOMPARE(page(peer, tools, cursor).error().value(QStringLiteral("message")).toString(),
                             QStringLiteral("Invalid cursor: expired"));
                });

    addScenario("bad-cursor-restarts", {}, [=](DemoPeer &peer) {
        const PeerReply first = page(peer, tools);
        const PeerReply restarted = page(peer, tools, QStringLiteral("not-a-cursor"));
        QCOMPARE(restarted.result().value(QStringLiteral("tools")),
                 first.result().value(QStringLiteral("tools")));
        QCOMPARE(restarted.result().value(QStringLiteral("nextCursor")),
                 first.result().value(QStringLiteral("nextCursor")));
    });

    addScenario("bad-cursor-wrong-code", {}, [=](DemoPeer &peer) {
        QCOMPARE(page(peer, tools, QStringLiteral("not-a-cursor")).errorCode(), -32603);
        QVERIFY(page(peer, tools, page(peer, tools).result().value(QStringLiteral("nextCursor")))
                    .message.contains(QStringLiteral("result")));
    });

    addScenario("cursor-never-advances", {}, [=](DemoPeer &peer) {
        const QJsonValue first = page(peer, tools).result().value(QStringLiteral("nextCursor"));
        const PeerReply second = page(peer, tools, first);
        QCOMPARE(second.result().value(QStringLiteral("nextCursor")), first);
        QCOMPARE(identity(second.result()[QStringLiteral("tools")][0].toObject()),
                 identity(page(peer, tools, first).result()[QStringLiteral("tools")][0].toObject()));
    });

    addScenario("cursor-cycle", {}, [=](DemoPeer &peer) {
        const Walk w = walk(peer, tools, 6);
        QCOMPARE(w.pages.size(), 6);
        const QJsonValue a = w.cursorsSent.at(1);
        const QJsonValue b = w.cursorsSent.at(2);
        QVERIFY(a != b);
        QCOMPARE(w.cursorsSent.at(3), a);
        QCOMPARE(w.cursorsSent.at(4), b);
    });

    addScenario("empty-cursor-forever", {}, [=](DemoPeer &peer) {
        const Walk w = walk(peer, tools, 4);
        QCOMPARE(w.pages.size(), 4);
        for (int i = 1; i < 4; ++i) {
            QCOMPARE(w.cursorsSent.at(i), QJsonValue(QString()));
            QCOMPARE(w.pages.at(i).result().value(QStringLiteral("tools")),
                     w.pages.at(1).result().value(QStringLiteral("tools")));
        }
    });

    addScenario("duplicates", {}, [=](DemoPeer &peer) {
        const Walk w = walk(peer, tools);
        const QStringList one = names(w.pages.at(0).result().value(QStringLiteral("tools")).toArray());
        const QStringList two = names(w.pages.at(1).result().value(QStringLiteral("tools")).toArray());
        QCOMPARE(two.mid(0, 3), one.mid(17, 3));
        QCOMPARE(QSet<QString>(w.names.begin(), w.names.end()).size(), toolCount);
        QVERIFY(w.names.size() > toolCount);
    });

    addScenario("scope-mismatch", {}, [=](DemoPeer &peer) {
        QStringList scopes;
        for (const PeerReply &p : walk(peer, tools, 3).pages)
            scopes.append(p.result().value(QStringLiteral("cacheScope")).toString());
        QCOMPARE(scopes, (QStringList{QStringLiteral("public"), QStringLiteral("private"),
                                      QStringLiteral("public")}));
    });

    addScenario("hints-missing", {}, [=](DemoPeer &peer) {
        const Walk w = walk(peer, tools, 3);
        const QJsonObject one = w.pages.at(0).result(), two = w.pages.at(1).result(),
                          three = w.pages.at(2).result();
        QVERIFY(!one.contains(QStringLiteral("ttlMs")) && !one.contains(QStringLiteral("cacheScope")));
        QVERIFY(!two.contains(QStringLiteral("ttlMs")) && two.contains(QStringLiteral("cacheScope")));
        QVERIFY(three.contains(QStringLiteral("ttlMs")) && !three.contains(QStringLiteral("cacheScope")));
    });

    addScenario("hints-invalid", {}, [=](DemoPeer &peer) {
        const Walk w = walk(peer, tools, 4);
        QCOMPARE(w.pages.at(0).result().value(QStringLiteral("ttlMs")).toDouble(), -1000.0);
        QCOMPARE(w.pages.at(1).result().value(QStringLiteral("ttlMs")).toDouble(), 1500.5);
        QCOMPARE(w.pages.at(2).result().value(QStringLiteral("ttlMs")), QJsonValue(QStringLiteral("300000")));
        QCOMPARE(w.pages.at(3).result().value(QStringLiteral("cacheScope")).toString(),
                 QStringLiteral("shared"));
    });

    addScenario("foreign-cursor-accepted", {}, [=](DemoPeer &peer) {
        const QString usersCursor = structured(callTool(peer, QStringLiteral("list_users"), {}))
                                        .value(QStringLiteral("next_cursor"))
                                        .toString();
        const PeerReply channels =
            callTool(peer, QStringLiteral("list_channels"), {{QStringLiteral("cursor"), usersCursor}});
        QVERIFY(!channels.result().value(QStringLiteral("isError")).toBool());
        // Protocol lists stay healthy.
        QCOMPARE(page(peer, tools, QStringLiteral("bm9wZQ")).errorCode(), -32602);
    });

    addScenario("error-mid-list", {}, [=](DemoPeer &peer) {
        const Walk w = walk(peer, tools);
        QCOMPARE(w.pages.size(), 3);
        QCOMPARE(w.pages.at(2).errorCode(), -32603);
        QJsonObject args{{QStringLiteral("limit"), 10}};
        for (int n = 1; n <= 2; ++n) {
            const PeerReply reply = callTool(peer, QStringLiteral("list_users"), args);
            QVERIFY(!reply.result().value(QStringLiteral("isError")).toBool());
            args.insert(QStringLiteral("cursor"), structured(reply).value(QStringLiteral("next_cursor")));
        }
        QVERIFY(callTool(peer, QStringLiteral("list_users"), args)
                    .result()
                    .value(QStringLiteral("isError"))
                    .toBool());
    });

    addScenario("slow", {QStringLiteral("--list"), QStringLiteral("tools=slow,latencyMs=300")},
                [=](DemoPeer &peer) {
                    const PeerReply reply = page(peer, tools);
                    QVERIFY(reply.answered);
                    QVERIFY2(reply.elapsedMs >= 290, QByteArray::number(reply.elapsedMs).constData());
                });

    addScenario("page-never-answers", {}, [=](DemoPeer &peer) {
        const QJsonValue cursor = page(peer, tools).result().value(QStringLiteral("nextCursor"));
        QVERIFY(!page(peer, tools, cursor, 800).answered);
        QVERIFY(page(peer, QStringLiteral("prompts/list")).answered); // the server is alive
    });

    addScenario("list-changed",
                {QStringLiteral("--list"), QStringLiteral("tools=list-changed,intervalMs=300")},
                [=](DemoPeer &peer) {
                    peer.listen(QJsonObject{{QStringLiteral("toolsListChanged"), true}}, 77);
                    QVERIFY(peer.waitForNotification(QStringLiteral("notifications/tools/list_changed")));
                    const QJsonObject ack = peer.notifications().first();
                    QCOMPARE(ack.value(QStringLiteral("method")).toString(),
                             QStringLiteral("notifications/subscriptions/acknowledged"));
                    QCOMPARE(ack[QStringLiteral("params")][QStringLiteral("notifications")].toObject(),
                             (QJsonObject{{QStringLiteral("toolsListChanged"), true}}));
                    for (const QJsonObject &n : peer.notifications()) {
                        QCOMPARE(n[QStringLiteral("params")][QStringLiteral("_meta")]
                                  [QStringLiteral("io.modelcontextprotocol/subscriptionId")]
                                      .toInt(),
                                 77);
                        QVERIFY(n.value(QStringLiteral("method")).toString() !=
                                QStringLiteral("notifications/prompts/list_changed"));
                    }
                    const Walk w = walk(peer, tools);
                    QVERIFY(w.names.size() > toolCount);
                    QCOMPARE(w.names.at(toolCount), QStringLiteral("beta_tool_1"));
                });

    addScenario("unstable-order", {}, [=](DemoPeer &peer) {
        const Walk one = walk(peer, tools);
        const Walk two = walk(peer, tools);
        QCOMPARE(one.names.size(), toolCount);
        QCOMPARE(QSet<QString>(one.names.begin(), one.names.end()).size(), toolCount);
        QCOMPARE(QSet<QString>(two.names.begin(), two.names.end()).size(), toolCount);
        QVERIFY(one.names != two.names);
    });

    addScenario("huge-pages", {}, [=](DemoPeer &peer) {
        const Walk w = walk(peer, QStringLiteral("resources/list"));
        QCOMPARE(w.pages.size(), 4);
        QCOMPARE(w.pages.at(0).result().value(QStringLiteral("resources")).toArray().size(), 2500);
        QCOMPARE(w.names.size(), 10000);
    });
}

void TestDemoServer::scenario_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("transport");
    QStringList all = m_checks.keys();
    all.sort();
    for (const QString &name : std::as_const(all)) {
        QTest::addRow("%s/stdio", qPrintable(name)) << name << int(DemoPeer::Transport::Stdio);
        QTest::addRow("%s/http", qPrintable(name)) << name << int(DemoPeer::Transport::Http);
    }
}

void TestDemoServer::scenario()
{
    QFETCH(QString, name);
    QFETCH(int, transport);
    DemoPeer peer{DemoPeer::Transport(transport)};
    QVERIFY(peer.start(m_arguments.value(name)));
    m_checks.value(name)(peer);
}

void TestDemoServer::listTools()
{
    QFETCH(int, transport);
    DemoPeer peer{DemoPeer::Transport(transport)};
    QVERIFY(peer.start({QStringLiteral("--scenario"), QStringLiteral("healthy")}));

    // The three list tools advertise limit and cursor and are read-only.
    QHash<QString, QJsonObject> byName;
    for (const PeerReply &p : walk(peer, QStringLiteral("tools/list")).pages) {
        for (const QJsonValue &tool : p.result().value(QStringLiteral("tools")).toArray())
            byName.insert(tool[QStringLiteral("name")].toString(), tool.toObject());
    }
    for (const QString &name :
         {QStringLiteral("search_posts"), QStringLiteral("list_users"), QStringLiteral("list_channels")}) {
        const QJsonObject properties =
            byName.value(name)[QStringLiteral("inputSchema")][QStringLiteral("properties")].toObject();
        QCOMPARE(properties[QStringLiteral("cursor")][QStringLiteral("type")].toString(),
                 QStringLiteral("string"));
        QCOMPARE(properties[QStringLiteral("limit")][QStringLiteral("type")].toString(),
                 QStringLiteral("integer"));
        QVERIFY(byName.value(name)[QStringLiteral("annotations")][QStringLiteral("readOnlyHint")].toBool());
    }

    // town-square read whole with the millisecond rule: each post once, one page over the limit.
    QJsonObject args{{QStringLiteral("channel"), QStringLiteral("town-square")}};
    QStringList ids;
    bool oversized = false;
    double previousLastMs = -1;
    int pages = 0;
    for (;; ++pages) {
        const PeerReply reply = callTool(peer, QStringLiteral("search_posts"), args);
        const QJsonObject content = structured(reply);
        QCOMPARE(QJsonDocument::fromJson(
                     reply.result()[QStringLiteral("content")][0][QStringLiteral("text")].toString().toUtf8())
                     .object(),
                 content);
        const QJsonArray posts = content.value(QStringLiteral("posts")).toArray();
        QVERIFY(!posts.isEmpty());
        oversized = oversized || posts.size() > 20;
        // A page that more follow ends on a whole millisecond: the next page starts strictly earlier.
        if (previousLastMs >= 0)
            QVERIFY(posts.first()[QStringLiteral("create_at")].toDouble() < previousLastMs);
        previousLastMs = posts.last()[QStringLiteral("create_at")].toDouble();
        ids += names(posts);
        if (!content.contains(QStringLiteral("next_cursor")))
            break;
        args.insert(QStringLiteral("cursor"), content.value(QStringLiteral("next_cursor")));
        QVERIFY(pages < 100);
    }
    QVERIFY(oversized);
    QCOMPARE(QSet<QString>(ids.begin(), ids.end()).size(), ids.size());
    QVERIFY(ids.size() >= 400);

    // A cursor for other arguments or another tool is refused with isError.
    const QJsonValue cursor = args.value(QStringLiteral("cursor"));
    const PeerReply otherArgs = callTool(
        peer, QStringLiteral("search_posts"),
        {{QStringLiteral("channel"), QStringLiteral("off-topic")}, {QStringLiteral("cursor"), cursor}});
    QVERIFY(otherArgs.result().value(QStringLiteral("isError")).toBool());
    const PeerReply otherTool =
        callTool(peer, QStringLiteral("list_users"), {{QStringLiteral("cursor"), cursor}});
    QVERIFY(otherTool.result().value(QStringLiteral("isError")).toBool());

    // A search reaching Mattermost's cap is marked capped; limits clamp to the maximum.
    const PeerReply search =
        callTool(peer, QStringLiteral("search_posts"),
                 {{QStringLiteral("query"), QStringLiteral("the")}, {QStringLiteral("limit"), 1000}});
    QCOMPARE(structured(search).value(QStringLiteral("posts")).toArray().size(), 100);
    QVERIFY(structured(search).value(QStringLiteral("capped")).toBool());
    QVERIFY(!structured(search).contains(QStringLiteral("next_cursor")));

    // list_users walks all 1500 users.
    QJsonObject userArgs{{QStringLiteral("limit"), 200}};
    int users = 0;
    for (int i = 0; i < 20; ++i) {
        const QJsonObject content = structured(callTool(peer, QStringLiteral("list_users"), userArgs));
        users += content.value(QStringLiteral("users")).toArray().size();
        if (!content.contains(QStringLiteral("next_cursor")))
            break;
        userArgs.insert(QStringLiteral("cursor"), content.value(QStringLiteral("next_cursor")));
    }
    QCOMPARE(users, 1500);
    QCOMPARE(structured(callTool(peer, QStringLiteral("list_channels"), {}))
                 .value(QStringLiteral("channels"))
                 .toArray()
                 .size(),
             20);
}

void TestDemoServer::eras()
{
    QFETCH(int, transport);
    const bool http = DemoPeer::Transport(transport) == DemoPeer::Transport::Http;
    {
        DemoPeer both{DemoPeer::Transport(transport)};
        QVERIFY(both.start({QStringLiteral("--scenario"), QStringLiteral("healthy")}));
        QCOMPARE(both.call(QStringLiteral("server/discover"))
                     .result()
                     .value(QStringLiteral("supportedVersions"))
                     .toArray(),
                 QJsonArray{QStringLiteral("2026-07-28")});
        const PeerReply init = both.initialize(QStringLiteral("2099-01-01"));
        QCOMPARE(init.result().value(QStringLiteral("protocolVersion")).toString(),
                 QStringLiteral("2025-11-25"));
        QCOMPARE(init.sessionId.isEmpty(), !http);
        const PeerReply legacy = both.legacyCall(QStringLiteral("tools/list"));
        QCOMPARE(legacy.result().value(QStringLiteral("tools")).toArray().size(), 20);
        QVERIFY(!legacy.result().contains(QStringLiteral("ttlMs")));
        QVERIFY(!legacy.result().contains(QStringLiteral("resultType")));
        QCOMPARE(both.legacyCall(QStringLiteral("ping")).result(), QJsonObject());
    }
    {
        DemoPeer legacyOnly{DemoPeer::Transport(transport)};
        QVERIFY(legacyOnly.start({QStringLiteral("--era"), QStringLiteral("legacy")}));
        const PeerReply discover = legacyOnly.call(QStringLiteral("server/discover"));
        QCOMPARE(discover.errorCode(), -32601);
        if (http)
            QCOMPARE(discover.status, 400);
        QCOMPARE(legacyOnly.initialize(QStringLiteral("2025-06-18"))
                     .result()
                     .value(QStringLiteral("protocolVersion"))
                     .toString(),
                 QStringLiteral("2025-06-18"));
    }
    {
        DemoPeer modernOnly{DemoPeer::Transport(transport)};
        QVERIFY(modernOnly.start({QStringLiteral("--era"), QStringLiteral("modern")}));
        const PeerReply init = modernOnly.initialize();
        QCOMPARE(init.errorCode(), -32601);
        if (http)
            QCOMPARE(init.status, 404);
    }
}

void TestDemoServer::badInput()
{
    QFETCH(int, transport);
    const bool http = DemoPeer::Transport(transport) == DemoPeer::Transport::Http;
    DemoPeer peer{DemoPeer::Transport(transport)};
    QVERIFY(peer.start({QStringLiteral("--scenario"), QStringLiteral("healthy")}));

    const PeerReply garbage = peer.sendRaw("{not json", QJsonValue::Null);
    QCOMPARE(garbage.errorCode(), -32700);
    QVERIFY(garbage.message.value(QStringLiteral("id")).isNull());

    const PeerReply unknown = peer.call(QStringLiteral("no/such/method"));
    QCOMPARE(unknown.errorCode(), -32601);
    if (http)
        QCOMPARE(unknown.status, 404);

    const QJsonObject notObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                {QStringLiteral("id"), 5},
                                {QStringLiteral("method"), QStringLiteral("tools/list")},
                                {QStringLiteral("params"), 7}};
    QCOMPARE(peer.send(notObject, DemoPeer::modernHeaders(QStringLiteral("tools/list"), {})).errorCode(),
             -32602);

    QJsonObject meta = DemoPeer::meta();
    meta.remove(QStringLiteral("io.modelcontextprotocol/clientCapabilities"));
    const PeerReply noCaps = peer.call(QStringLiteral("tools/list"), {{QStringLiteral("_meta"), meta}});
    QCOMPARE(noCaps.errorCode(), -32602);
    QVERIFY(noCaps.message.value(QStringLiteral("id")).isDouble());
    if (http)
        QCOMPARE(noCaps.status, 400);

    meta = DemoPeer::meta();
    meta.insert(QStringLiteral("io.modelcontextprotocol/protocolVersion"), QStringLiteral("2030-01-01"));
    const QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                              {QStringLiteral("id"), 9},
                              {QStringLiteral("method"), QStringLiteral("tools/list")},
                              {QStringLiteral("params"), QJsonObject{{QStringLiteral("_meta"), meta}}}};
    const PeerReply unsupported =
        peer.send(message, {{"MCP-Protocol-Version", "2030-01-01"}, {"Mcp-Method", "tools/list"}});
    QCOMPARE(unsupported.errorCode(), -32022);
    QCOMPARE(unsupported.error().value(QStringLiteral("data")).toObject(),
             (QJsonObject{{QStringLiteral("supported"), QJsonArray{QStringLiteral("2026-07-28")}},
                          {QStringLiteral("requested"), QStringLiteral("2030-01-01")}}));

    QCOMPARE(peer.call(QStringLiteral("tools/call"), {{QStringLiteral("name"), QStringLiteral("list_users")},
                                                      {QStringLiteral("arguments"), 5}})
                 .errorCode(),
             -32602);
    QCOMPARE(
        peer.call(QStringLiteral("resources/read"), {{QStringLiteral("uri"), QStringLiteral("chat://nope")}})
            .errorCode(),
        -32602);

    if (http) {
        QJsonObject params{{QStringLiteral("_meta"), DemoPeer::meta()}};
        const QJsonObject list{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                               {QStringLiteral("id"), 11},
                               {QStringLiteral("method"), QStringLiteral("tools/list")},
                               {QStringLiteral("params"), params}};
        const PeerReply mismatch =
            peer.send(list, {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "prompts/list"}});
        QCOMPARE(mismatch.status, 400);
        QCOMPARE(mismatch.errorCode(), -32020);
        const PeerReply noMethod = peer.send(list, {{"MCP-Protocol-Version", "2026-07-28"}});
        QCOMPARE(noMethod.errorCode(), -32020);
        const PeerReply badName =
            peer.call(QStringLiteral("tools/call"), {{QStringLiteral("name"), QStringLiteral("list_users")}});
        QVERIFY(badName.message.contains(QStringLiteral("result")));
    }
    QVERIFY(
        peer.call(QStringLiteral("prompts/list")).message.contains(QStringLiteral("result"))); // still alive
}

void TestDemoServer::legacyNotifications()
{
    QFETCH(int, transport);
    DemoPeer peer{DemoPeer::Transport(transport)};
    QVERIFY(peer.start({QStringLiteral("--scenario"), QStringLiteral("healthy"), QStringLiteral("--list"),
                        QStringLiteral("prompts=list-changed,intervalMs=200")}));
    QVERIFY(peer.initialize().message.contains(QStringLiteral("result")));
    peer.openLegacyStream();
    QVERIFY(peer.waitForNotification(QStringLiteral("notifications/prompts/list_changed")));
    QVERIFY(peer.legacyCall(QStringLiteral("prompts/list")).message.contains(QStringLiteral("result")));
}

void TestDemoServer::stdinEofExits()
{
    DemoPeer peer(DemoPeer::Transport::Stdio);
    QVERIFY(peer.start({}));
    QVERIFY(peer.call(QStringLiteral("server/discover")).answered);
    QSignalSpy finished(&peer.process(), &QProcess::finished);
    peer.process().closeWriteChannel();
    QVERIFY(finished.wait(2000));
    QCOMPARE(peer.process().exitStatus(), QProcess::NormalExit);
    QCOMPARE(peer.process().exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestDemoServer)
#include "tst_demoserver.moc"
