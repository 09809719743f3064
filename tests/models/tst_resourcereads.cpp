// ResourceReads against a scripted server: hints kept exactly as received, the TTL counting down
// on the shared TtlClock (an injected time source here), the list pages' finding ids for missing or
// invalid hints naming the read, re-read on expiry, resources/updated, legacy reads, errors.
#include "mcpclient.h"
#include "resourcereads.h"
#include "scriptedtransport.h"
#include "ttlclock.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace folio;
using State = PageRecord::State;

namespace {

const QString uri = QStringLiteral("chat://channels/general");

QJsonObject textResult(const QString &text, const QJsonObject &hints)
{
    QJsonObject r{{QStringLiteral("contents"),
                   QJsonArray{QJsonObject{{QStringLiteral("uri"), uri},
                                          {QStringLiteral("mimeType"), QStringLiteral("text/plain")},
                                          {QStringLiteral("text"), text}}}}};
    for (auto it = hints.begin(); it != hints.end(); ++it)
        r.insert(it.key(), it.value());
    return r;
}

QJsonObject hints(const QJsonValue &ttl, const QJsonValue &scope = QStringLiteral("public"))
{
    QJsonObject h;
    if (!ttl.isUndefined())
        h.insert(QStringLiteral("ttlMs"), ttl);
    if (!scope.isUndefined())
        h.insert(QStringLiteral("cacheScope"), scope);
    return h;
}

} // namespace

class TestResourceReads : public QObject
{
    Q_OBJECT

    // The server's answer to the next resources/read.
    std::function<QJsonObject(const QString &uri)> m_answer;
    // The server's answer to any other request (empty: never answered); unknown method by default.
    std::function<QJsonObject(const QString &method, const QJsonObject &params)> m_other;
    // What initialize (2025) or server/discover (2026) advertise, when set.
    QJsonObject m_capabilities;
    ScriptedTransport *m_transport = nullptr;
    std::unique_ptr<McpClient> m_client;
    std::unique_ptr<TtlClock> m_clock;
    std::unique_ptr<ResourceReads> m_reads;
    qint64 m_now = 1000;

    bool connectTo(bool modern)
    {
        m_reads.reset();
        m_client = std::make_unique<McpClient>();
        m_client->setTransportFactory([this, modern](QObject *) {
            m_transport =
                new ScriptedTransport(modern, [this](const QString &method, const QJsonObject &params) {
                    if (method != QLatin1String("resources/read") && m_other)
                        return m_other(method, params);
                    if (method != QLatin1String("resources/read"))
                        return QJsonObject{{QStringLiteral("error"),
                                            QJsonObject{{QStringLiteral("code"), -32601},
                                                        {QStringLiteral("message"), QStringLiteral("no")}}}};
                    return m_answer(params.value(QStringLiteral("uri")).toString());
                });
            if (!m_capabilities.isEmpty()) {
                m_transport->capabilities = m_capabilities;
                m_transport->legacyCapabilities = m_capabilities;
            }
            return m_transport;
        });
        QSignalSpy connected(m_client.get(), &McpClient::connected);
        m_client->connectToServer();
        if (!connected.wait(3000))
            return false;
        m_reads = std::make_unique<ResourceReads>(m_client.get(), m_clock.get());
        new QAbstractItemModelTester(m_reads.get(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                     m_reads.get());
        return true;
    }

    // Reads (or re-reads) uri and waits for the answer.
    int readNow(const QString &what = uri)
    {
        QSignalSpy finished(m_reads.get(), &ResourceReads::readFinished);
        const int row = m_reads->read(what);
        if (!finished.wait(3000))
            return -1;
        return row;
    }

    void advance(qint64 ms)
    {
        m_now += ms;
        m_clock->processDue();
    }

private Q_SLOTS:
    void init()
    {
        m_now = 1000;
        m_clock = std::make_unique<TtlClock>();
        m_clock->setTimeSource([this] { return m_now; });
    }
    void cleanup()
    {
        m_other = nullptr;
        m_capabilities = {};
        m_reads.reset();
        m_client.reset();
        m_clock.reset();
    }

    void fresh_read_expires_on_the_clock()
    {
        m_answer = [](const QString &) { return textResult(QStringLiteral("hello"), hints(5000)); };
        QVERIFY(connectTo(true));
        const int row = readNow();
        QCOMPARE(row, 0);
        const ReadRecord &r = m_reads->record(row);
        QCOMPARE(r.state, State::Fresh);
        QCOMPARE(r.effectiveTtlMs, 5000);
        QCOMPARE(r.scope, PageRecord::Scope::Public);
        QVERIFY(r.findings.isEmpty());
        QCOMPARE(r.hintsLine(), QStringLiteral("ttlMs 5000 · cacheScope public"));
        QCOMPARE(r.contents().size(), 1);
        QCOMPARE(r.contents().first().text, QStringLiteral("hello"));
        QCOMPARE(r.expiresAtMonoMs(), m_now + 5000);
        QCOMPARE(m_clock->deadlineMs(r.serial), m_now + 5000);

        QSignalSpy expired(m_reads.get(), &ResourceReads::expired);
        advance(4999);
        QCOMPARE(m_reads->record(row).state, State::Fresh);
        advance(1);
        QCOMPARE(expired.size(), 1);
        QCOMPARE(m_reads->record(row).state, State::Expired);
        QCOMPARE(m_transport->requests, 1); // not re-read unless asked
    }

    void hints_judged_like_pages_data()
    {
        QTest::addColumn<QJsonObject>("hintsSent");
        QTest::addColumn<QStringList>("ids");
        QTest::addColumn<qint64>("effective");
        QTest::addColumn<QString>("line");
        QTest::newRow("valid_private") << hints(15000, QStringLiteral("private")) << QStringList()
                                       << qint64(15000) << "ttlMs 15000 · cacheScope private";
        QTest::newRow("ttl_zero_is_stale_not_a_fault")
            << hints(0) << QStringList() << qint64(0) << "ttlMs 0 · cacheScope public";
        QTest::newRow("missing_ttl") << hints(QJsonValue::Undefined)
                                     << QStringList{QStringLiteral("cache-hints-missing")} << qint64(0)
                                     << "missing ttlMs · cacheScope public";
        QTest::newRow("missing_both") << QJsonObject() << QStringList{QStringLiteral("cache-hints-missing")}
                                      << qint64(0) << "missing ttlMs · missing cacheScope";
        QTest::newRow("negative_ttl") << hints(-5) << QStringList{QStringLiteral("ttl-invalid")} << qint64(0)
                                      << "ttlMs -5 · cacheScope public";
        QTest::newRow("fractional_ttl") << hints(1500.5) << QStringList{QStringLiteral("ttl-invalid")}
                                        << qint64(1500) << "ttlMs 1500.5 · cacheScope public";
        QTest::newRow("string_ttl") << hints(QStringLiteral("60000"))
                                    << QStringList{QStringLiteral("ttl-invalid")} << qint64(0)
                                    << "ttlMs \"60000\" · cacheScope public";
        QTest::newRow("invalid_scope")
            << hints(1000, QStringLiteral("shared")) << QStringList{QStringLiteral("scope-invalid")}
            << qint64(1000) << "ttlMs 1000 · cacheScope \"shared\"";
        QTest::newRow("missing_scope_and_null_ttl")
            << hints(QJsonValue::Null, QJsonValue::Undefined)
            << QStringList{QStringLiteral("cache-hints-missing"), QStringLiteral("ttl-invalid")} << qint64(0)
            << "ttlMs null · missing cacheScope";
    }
    void hints_judged_like_pages()
    {
        QFETCH(QJsonObject, hintsSent);
        QFETCH(QStringList, ids);
        QFETCH(qint64, effective);
        QFETCH(QString, line);
        m_answer = [hintsSent](const QString &) { return textResult(QStringLiteral("x"), hintsSent); };
        QVERIFY(connectTo(true));
        QSignalSpy findingsChanged(m_reads.get(), &ResourceReads::findingsChanged);
        const ReadRecord &r = m_reads->record(readNow());
        QStringList got;
        for (const Finding &f : r.findings) {
            got << f.id;
            QVERIFY2(f.message.contains(QStringLiteral("the read of ") + uri, Qt::CaseInsensitive),
                     qPrintable(f.message));
            QVERIFY(f.pages.isEmpty()); // a read is no page
            QCOMPARE(f.evidence.value(QStringLiteral("uri")).toString(), uri);
            QCOMPARE(f.toJson().value(QStringLiteral("page")), QJsonValue(QJsonValue::Null));
        }
        QCOMPARE(got, ids);
        QCOMPARE(findingsChanged.isEmpty(), ids.isEmpty());
        QCOMPARE(m_reads->findings().size(), ids.size());
        QCOMPARE(r.effectiveTtlMs, effective);
        QCOMPARE(r.state, effective > 0 ? State::Fresh : State::Stale);
        QCOMPARE(r.hintsLine(), line);
        // As received: absent stays absent, an invalid value stays what it was.
        QCOMPARE(r.hints.hasTtl, hintsSent.contains(QStringLiteral("ttlMs")));
        QCOMPARE(r.hints.ttlMs, hintsSent.value(QStringLiteral("ttlMs")));
        QCOMPARE(r.hints.hasScope, hintsSent.contains(QStringLiteral("cacheScope")));
        QCOMPARE(r.hints.cacheScope, hintsSent.value(QStringLiteral("cacheScope")));
    }

    void legacy_read_has_no_hints_and_no_findings()
    {
        m_answer = [](const QString &) { return textResult(QStringLiteral("old"), {}); };
        QVERIFY(connectTo(false));
        const ReadRecord &r = m_reads->record(readNow());
        QVERIFY(r.legacyEra);
        QCOMPARE(r.state, State::Stale);
        QCOMPARE(r.effectiveTtlMs, 0);
        QCOMPARE(r.scope, PageRecord::Scope::NotApplicable);
        QVERIFY(r.findings.isEmpty());
        QCOMPARE(r.hintsLine(), QStringLiteral("no cache hints (legacy)"));
        QVERIFY(!m_clock->isScheduled(r.serial));
    }

    void reread_on_expiry_replaces_and_restarts()
    {
        int n = 0;
        m_answer = [&n](const QString &) { return textResult(QStringLiteral("v%1").arg(++n), hints(2000)); };
        QVERIFY(connectTo(true));
        const int row = readNow();
        m_reads->setRereadOnExpiry(row, true);
        QVERIFY(m_reads->record(row).rereadOnExpiry);
        QSignalSpy finished(m_reads.get(), &ResourceReads::readFinished);
        advance(2000);
        QCOMPARE(m_reads->record(row).state, State::Refetching); // the old contents stay meanwhile
        QCOMPARE(m_reads->record(row).contents().first().text, QStringLiteral("v1"));
        QVERIFY(finished.wait(3000));
        const ReadRecord &r = m_reads->record(row);
        QCOMPARE(r.state, State::Fresh);
        QCOMPARE(r.answers, 2);
        QCOMPARE(r.contents().first().text, QStringLiteral("v2"));
        QCOMPARE(r.receivedMonoMs, m_now);
        QCOMPARE(m_clock->deadlineMs(r.serial), m_now + 2000);
        QCOMPARE(m_reads->count(), 1);
    }

    void read_again_uses_the_same_row()
    {
        m_answer = [](const QString &u) { return textResult(u, hints(1000)); };
        QVERIFY(connectTo(true));
        QCOMPARE(readNow(), 0);
        QCOMPARE(readNow(QStringLiteral("chat://users/ana")), 1);
        QCOMPARE(readNow(), 0);
        QCOMPARE(m_reads->count(), 2);
        QCOMPARE(m_reads->record(0).answers, 2);
        QCOMPARE(m_reads->rowForUri(QStringLiteral("chat://users/ana")), 1);
    }

    void resources_updated_marks_stale()
    {
        m_answer = [](const QString &) { return textResult(QStringLiteral("x"), hints(60000)); };
        QVERIFY(connectTo(true));
        const int row = readNow();
        QCOMPARE(m_reads->record(row).state, State::Fresh);
        const QJsonObject n{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                            {QStringLiteral("method"), QStringLiteral("notifications/resources/updated")},
                            {QStringLiteral("params"), QJsonObject{{QStringLiteral("uri"), uri}}}};
        QSignalSpy updated(m_client.get(), &McpClient::resourceUpdated);
        m_transport->receive(n);
        QTRY_COMPARE(updated.size(), 1);
        QCOMPARE(m_reads->record(row).state, State::Stale);
        QCOMPARE(m_reads->record(row).staleReason, QStringLiteral("the server says it changed"));
        QVERIFY(!m_clock->isScheduled(m_reads->record(row).serial));
    }

    void multi_round_read_is_not_cached()
    {
        m_answer = [](const QString &) { return QJsonObject(); }; // never answers: the answer is given below
        QVERIFY(connectTo(true));
        const int row = m_reads->read(uri);
        ResourceReads::ReadAnswer a;
        a.result = textResult(QStringLiteral("after input"), hints(30000));
        a.rounds = 2;
        a.cacheable = false;
        m_reads->applyAnswer(row, a);
        const ReadRecord &r = m_reads->record(row);
        QCOMPARE(r.state, State::Stale);
        QCOMPARE(r.effectiveTtlMs, 0);
        QCOMPARE(r.hintsLine(), QStringLiteral("ttlMs 30000 · cacheScope public")); // shown as received
        QVERIFY(r.notCachedReason().contains(QStringLiteral("2 rounds")));
        QVERIFY(!m_clock->isScheduled(r.serial));
    }

    // Through the client's Invocation: input_required (only state to carry back), then complete.
    void multi_round_read_through_the_client()
    {
        m_answer = [this](const QString &) {
            if (!m_transport->lastParams.contains(QStringLiteral("requestState")))
                return QJsonObject{{QStringLiteral("resultType"), QStringLiteral("input_required")},
                                   {QStringLiteral("requestState"), QStringLiteral("s1")}};
            QJsonObject r = textResult(QStringLiteral("after a round"), hints(30000));
            r.insert(QStringLiteral("resultType"), QStringLiteral("complete"));
            return r;
        };
        QVERIFY(connectTo(true));
        const ReadRecord &r = m_reads->record(readNow());
        QCOMPARE(r.rounds, 2);
        QVERIFY(!r.cacheable);
        QCOMPARE(r.state, State::Stale);
        QCOMPARE(r.effectiveTtlMs, 0);
        QCOMPARE(r.contents().first().text, QStringLiteral("after a round"));
        QCOMPARE(r.hintsLine(), QStringLiteral("ttlMs 30000 · cacheScope public"));
        QVERIFY(!r.notCachedReason().isEmpty());
        QCOMPARE(m_transport->lastParams.value(QStringLiteral("requestState")).toString(),
                 QStringLiteral("s1"));
    }

    void errors_shown_where_they_happened_data()
    {
        QTest::addColumn<bool>("modern");
        QTest::addColumn<int>("code");
        QTest::newRow("unknown_uri_2026") << true << -32602;
        QTest::newRow("unknown_uri_legacy") << false << -32002;
    }
    void errors_shown_where_they_happened()
    {
        QFETCH(bool, modern);
        QFETCH(int, code);
        bool fail = true;
        m_answer = [&fail, code](const QString &) {
            if (fail)
                return QJsonObject{
                    {QStringLiteral("error"),
                     QJsonObject{{QStringLiteral("code"), code},
                                 {QStringLiteral("message"), QStringLiteral("Resource not found")}}}};
            return textResult(QStringLiteral("there"), hints(1000));
        };
        QVERIFY(connectTo(modern));
        const int row = readNow(QStringLiteral("chat://nowhere"));
        QCOMPARE(m_reads->record(row).state, State::Failed);
        QCOMPARE(m_reads->record(row).error.code, code);
        QCOMPARE(m_reads->record(row).error.message, QStringLiteral("Resource not found"));
        QVERIFY(!m_reads->record(row).hasContents());
        QVERIFY(m_reads->record(row).findings.isEmpty());

        // A re-read that fails keeps the contents it had, and says the read is expired.
        fail = false;
        readNow(QStringLiteral("chat://nowhere"));
        QCOMPARE(m_reads->record(row).state, modern ? State::Fresh : State::Stale);
        fail = true;
        readNow(QStringLiteral("chat://nowhere"));
        QCOMPARE(m_reads->record(row).state, State::Expired);
        QCOMPARE(m_reads->record(row).contents().first().text, QStringLiteral("there"));
        QCOMPARE(m_reads->record(row).error.code, code);
    }

    void blobs_decoded_and_summarised()
    {
        const QByteArray png = QByteArray::fromHex("89504e470d0a1a0a0000");
        const QJsonObject result{
            {QStringLiteral("contents"),
             QJsonArray{QJsonObject{{QStringLiteral("uri"), uri},
                                    {QStringLiteral("mimeType"), QStringLiteral("image/png")},
                                    {QStringLiteral("blob"), QString::fromLatin1(png.toBase64())}},
                        QJsonObject{{QStringLiteral("uri"), uri},
                                    {QStringLiteral("blob"), QStringLiteral("not base64!")}},
                        QJsonObject{{QStringLiteral("uri"), uri}}}}};
        const QList<ReadContent> c = ReadContent::fromResult(result);
        QCOMPARE(c.size(), 3);
        QCOMPARE(c.at(0).kind, ReadContent::Kind::Blob);
        QVERIFY(c.at(0).isImage());
        QCOMPARE(c.at(0).data, png);
        QCOMPARE(c.at(0).summary(), QStringLiteral("image/png · 10 bytes"));
        QVERIFY(!c.at(1).blobValid);
        QCOMPARE(c.at(1).summary(), QStringLiteral("no mimeType · blob is not valid base64"));
        QCOMPARE(c.at(2).kind, ReadContent::Kind::Unknown);
    }

    void clear_forgets_and_unschedules()
    {
        m_answer = [](const QString &) { return textResult(QStringLiteral("x"), hints(60000)); };
        QVERIFY(connectTo(true));
        const quint64 serial = m_reads->record(readNow()).serial;
        QVERIFY(m_clock->isScheduled(serial));
        m_reads->clear();
        QCOMPARE(m_reads->count(), 0);
        QVERIFY(!m_clock->isScheduled(serial));
    }

    // --- subscriptions (McpClient::subscribeResource through ResourceReads::setSubscribes) ---

    void subscribes_only_when_asked()
    {
        m_capabilities = subscribable();
        m_answer = [](const QString &) { return textResult(QStringLiteral("x"), {}); };
        m_other = [](const QString &, const QJsonObject &) { return QJsonObject{}; };
        QVERIFY(connectTo(false));
        const int row = readNow(); // setSubscribes(false): a one-off read (folio read)
        QVERIFY(m_transport->sentWith(QStringLiteral("resources/subscribe")).isEmpty());
        QCOMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::None);
        QVERIFY(m_reads->record(row).subscriptionLine().isEmpty());
        QVERIFY(!m_reads->record(row).toJson().contains(QStringLiteral("subscription")));
    }

    void legacy_subscribe_update_close()
    {
        const int row = subscribedLegacyRead();
        QVERIFY(row >= 0);
        QCOMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::Pending);
        QCOMPARE(m_reads->record(row).subscriptionLine(), QStringLiteral("subscribing…"));
        QTRY_COMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::Active);
        QCOMPARE(m_reads->data(m_reads->index(row), ResourceReads::SubscriptionRole).toInt(),
                 int(ResourceSubscription::State::Active));
        const QList<QJsonObject> asked = m_transport->sentWith(QStringLiteral("resources/subscribe"));
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first()[QStringLiteral("params")][QStringLiteral("uri")].toString(), uri);
        QCOMPARE(m_reads->record(row).toJson()[QStringLiteral("subscription")][QStringLiteral("state")],
                 QStringLiteral("active"));
        QVERIFY(m_reads->data(m_reads->index(row), Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("subscribed")));

        // A re-read does not subscribe again.
        QCOMPARE(readNow(), row);
        QCOMPARE(m_transport->sentWith(QStringLiteral("resources/subscribe")).size(), 1);

        // The update the subscription brings: stale, the reason said.
        m_transport->receive(
            QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("method"), QStringLiteral("notifications/resources/updated")},
                        {QStringLiteral("params"), QJsonObject{{QStringLiteral("uri"), uri}}}});
        QTRY_COMPARE(m_reads->record(row).state, State::Stale);

        // Closing it unsubscribes and forgets it.
        m_reads->close(row);
        QCOMPARE(m_reads->count(), 0);
        const QList<QJsonObject> dropped = m_transport->sentWith(QStringLiteral("resources/unsubscribe"));
        QCOMPARE(dropped.size(), 1);
        QCOMPARE(dropped.first()[QStringLiteral("params")][QStringLiteral("uri")].toString(), uri);
        QCOMPARE(m_client->resourceSubscription(uri).state, ResourceSubscription::State::None);
    }

    void legacy_subscribe_refused()
    {
        m_capabilities = subscribable();
        m_answer = [](const QString &) { return textResult(QStringLiteral("x"), {}); };
        m_other = [](const QString &, const QJsonObject &) {
            return QJsonObject{{QStringLiteral("error"),
                                QJsonObject{{QStringLiteral("code"), -32602},
                                            {QStringLiteral("message"), QStringLiteral("not for you")}}}};
        };
        QVERIFY(connectTo(false));
        m_reads->setSubscribes(true);
        const int row = readNow();
        QTRY_COMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::Refused);
        QVERIFY2(m_reads->record(row).subscriptionLine().contains(QStringLiteral("not for you")),
                 qPrintable(m_reads->record(row).subscriptionLine()));
        // Nothing to undo at the server: closing sends no unsubscribe.
        m_reads->close(row);
        QVERIFY(m_transport->sentWith(QStringLiteral("resources/unsubscribe")).isEmpty());
    }

    void not_offered_asks_nothing_data()
    {
        QTest::addColumn<bool>("modern");
        QTest::newRow("2025") << false;
        QTest::newRow("2026-07-28") << true;
    }
    void not_offered_asks_nothing()
    {
        QFETCH(bool, modern);
        m_capabilities = QJsonObject{{QStringLiteral("resources"), QJsonObject{}}};
        m_answer = [](const QString &) { return textResult(QStringLiteral("x"), hints(60000)); };
        m_other = [](const QString &, const QJsonObject &) { return QJsonObject{}; };
        QVERIFY(connectTo(modern));
        m_reads->setSubscribes(true);
        const int row = readNow();
        QCOMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::NotOffered);
        QVERIFY(m_reads->record(row).subscriptionLine().contains(QStringLiteral("resources.subscribe")));
        QVERIFY(m_transport->sentWith(QStringLiteral("resources/subscribe")).isEmpty());
        QVERIFY(m_transport->sentWith(QStringLiteral("subscriptions/listen")).isEmpty());
        m_reads->close(row);
        QVERIFY(m_transport->sentWith(QStringLiteral("resources/unsubscribe")).isEmpty());
    }

    void modern_subscriptions_ride_the_listen_stream()
    {
        m_capabilities = subscribable();
        m_answer = [](const QString &) { return textResult(QStringLiteral("x"), hints(60000)); };
        m_other = [](const QString &, const QJsonObject &) { return QJsonObject{}; }; // listen: open
        QVERIFY(connectTo(true));
        m_client->listenForListChanges();
        QCOMPARE(m_transport->sentWith(QStringLiteral("subscriptions/listen")).size(), 1);
        m_reads->setSubscribes(true);
        const int row = readNow();
        QCOMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::Pending);

        // A new stream asks for the list changes and the resource; the old one is cancelled.
        QList<QJsonObject> listens = m_transport->sentWith(QStringLiteral("subscriptions/listen"));
        QCOMPARE(listens.size(), 2);
        const QJsonObject filter =
            listens.last()[QStringLiteral("params")][QStringLiteral("notifications")].toObject();
        QCOMPARE(filter[QStringLiteral("resourcesListChanged")], true);
        QCOMPARE(filter[QStringLiteral("resourceSubscriptions")].toArray(), QJsonArray{uri});
        const QList<QJsonObject> cancelled = m_transport->sentWith(QStringLiteral("notifications/cancelled"));
        QCOMPARE(cancelled.size(), 1);
        QCOMPARE(cancelled.first()[QStringLiteral("params")][QStringLiteral("requestId")],
                 listens.first()[QStringLiteral("id")]);

        // An acknowledgement for the old stream changes nothing; the new one's grants it.
        m_transport->receive(acknowledged(listens.first()[QStringLiteral("id")], QJsonArray{uri}));
        QCOMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::Pending);
        m_transport->receive(acknowledged(listens.last()[QStringLiteral("id")], QJsonArray{uri}));
        QCOMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::Active);

        // A second read: one stream for both; the server grants only the first.
        const QString other = QStringLiteral("chat://users/ana");
        const int row2 = readNow(other);
        listens = m_transport->sentWith(QStringLiteral("subscriptions/listen"));
        QCOMPARE(listens.size(), 3);
        QCOMPARE(listens
                     .last()[QStringLiteral("params")][QStringLiteral("notifications")]
                            [QStringLiteral("resourceSubscriptions")]
                     .toArray(),
                 (QJsonArray{uri, other}));
        m_transport->receive(acknowledged(listens.last()[QStringLiteral("id")], QJsonArray{uri}));
        QCOMPARE(m_reads->record(row2).subscription.state, ResourceSubscription::State::Refused);
        QVERIFY(m_reads->record(row2).subscriptionLine().contains(QStringLiteral("left it out")));

        // Closing the first: a stream without it (the refused one is not asked for again).
        m_reads->close(row);
        listens = m_transport->sentWith(QStringLiteral("subscriptions/listen"));
        QCOMPARE(listens.size(), 4);
        const QJsonObject last =
            listens.last()[QStringLiteral("params")][QStringLiteral("notifications")].toObject();
        QVERIFY(!last.contains(QStringLiteral("resourceSubscriptions")));
        QCOMPARE(last[QStringLiteral("resourcesListChanged")], true);
    }

    void modern_stream_that_ends_refuses_data()
    {
        QTest::addColumn<QJsonObject>("answer");
        QTest::addColumn<QString>("said");
        QTest::newRow("an error") << QJsonObject{{QStringLiteral("error"),
                                                  QJsonObject{{QStringLiteral("code"), -32603},
                                                              {QStringLiteral("message"),
                                                               QStringLiteral("overloaded")}}}}
                                  << QStringLiteral("overloaded");
        QTest::newRow("closed by the server")
            << QJsonObject{{QStringLiteral("resultType"), QStringLiteral("complete")}}
            << QStringLiteral("the server closed it");
    }
    void modern_stream_that_ends_refuses()
    {
        QFETCH(QJsonObject, answer);
        QFETCH(QString, said);
        m_capabilities = subscribable();
        m_answer = [](const QString &) { return textResult(QStringLiteral("x"), hints(60000)); };
        m_other = [answer](const QString &method, const QJsonObject &) {
            return method == QLatin1String("subscriptions/listen") ? answer : QJsonObject{};
        };
        QVERIFY(connectTo(true));
        m_reads->setSubscribes(true);
        const int row = readNow();
        QTRY_COMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::Refused);
        QVERIFY2(m_reads->record(row).subscriptionLine().contains(said),
                 qPrintable(m_reads->record(row).subscriptionLine()));
    }

    void disconnect_forgets_subscriptions()
    {
        const int row = subscribedLegacyRead();
        QVERIFY(row >= 0);
        QTRY_COMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::Active);
        m_client->disconnectFromServer();
        QCOMPARE(m_reads->record(row).subscription.state, ResourceSubscription::State::None);
        QCOMPARE(m_client->resourceSubscription(uri).state, ResourceSubscription::State::None);
    }

private:
    // A 2025 server that offers subscriptions and grants each; a read made through reads that
    // subscribe. Its row, -1 when the connection or the read failed.
    int subscribedLegacyRead()
    {
        m_capabilities = subscribable();
        m_answer = [](const QString &) { return textResult(QStringLiteral("x"), {}); };
        m_other = [](const QString &, const QJsonObject &) {
            return QJsonObject{{QStringLiteral("ok"), true}};
        };
        if (!connectTo(false))
            return -1;
        m_reads->setSubscribes(true);
        return readNow();
    }
    static QJsonObject subscribable()
    {
        return {{QStringLiteral("resources"),
                 QJsonObject{{QStringLiteral("subscribe"), true}, {QStringLiteral("listChanged"), true}}}};
    }
    static QJsonObject acknowledged(const QJsonValue &listenId, const QJsonArray &granted)
    {
        return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                {QStringLiteral("method"), QStringLiteral("notifications/subscriptions/acknowledged")},
                {QStringLiteral("params"),
                 QJsonObject{
                     {QStringLiteral("notifications"),
                      QJsonObject{{QStringLiteral("resourcesListChanged"), true},
                                  {QStringLiteral("resourceSubscriptions"), granted}}},
                     {QStringLiteral("_meta"),
                      QJsonObject{{QStringLiteral("io.modelcontextprotocol/subscriptionId"), listenId}}}}}};
    }
};

QTEST_GUILESS_MAIN(TestResourceReads)
#include "tst_resourcereads.moc"
