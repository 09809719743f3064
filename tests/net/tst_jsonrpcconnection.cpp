#include "faketransport.h"
#include "jsonrpcconnection.h"
#include "rpccall.h"
#include "trafficlog.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

class tst_JsonRpcConnection : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void responseIsCorrelatedById();
    void responsesOutOfOrder();
    void errorResponse();
    void errorMessageKeepsItsPercentSigns_data();
    void errorMessageKeepsItsPercentSigns();
    void resultThatIsNotAnObject();
    void timeoutFinishesCallAndCancelsOnServer();
    void cancelSendsNotification();
    void lateResponseAfterTimeoutIsIgnored();
    void notificationIsRouted();
    void pingIsAnswered();
    void unknownServerRequestGetsMethodNotFound();
    void malformedMessageKeepsConnection();
    void notJsonRpcIsReported();
    void frameThatIsNoMessageIsMalformed_data();
    void frameThatIsNoMessageIsMalformed();
    void batchAnswersEachRequest();
    void errorStatusBodyCountsOnlyAsJsonRpc();
    void unknownIdIsReported();
    void closeFailsPendingCalls();
    void trafficIsLogged();
    void deferredItemsAreCutNotParsed();
    void deferredItemsFallBackWhenNotPlain_data();
    void deferredItemsFallBackWhenNotPlain();

private:
    FakeTransport *m_transport = nullptr;
    TrafficLog *m_log = nullptr;
    JsonRpcConnection *m_conn = nullptr;
};

void tst_JsonRpcConnection::init()
{
    m_transport = new FakeTransport;
    m_log = new TrafficLog(this);
    m_conn = new JsonRpcConnection(m_transport, m_log, this);
}

void tst_JsonRpcConnection::cleanup()
{
    delete m_conn;
    delete m_log;
}

void tst_JsonRpcConnection::responseIsCorrelatedById()
{
    RpcCall *call = m_conn->request(QStringLiteral("tools/list"), {{QStringLiteral("cursor"), QString()}}, 0);
    QCOMPARE(m_transport->sent.size(), 1);
    const QJsonObject sent = m_transport->sent.first();
    QCOMPARE(sent.value(QStringLiteral("method")).toString(), QStringLiteral("tools/list"));
    QCOMPARE(sent.value(QStringLiteral("params")).toObject().value(QStringLiteral("cursor")).toString(),
             QString());
    QVERIFY(sent.value(QStringLiteral("params")).toObject().contains(QStringLiteral("cursor"))); // "" is sent
    QSignalSpy spy(call, &RpcCall::finished);
    m_transport->receive(
        rpc::result(sent.value(QStringLiteral("id")), {{QStringLiteral("tools"), QJsonArray()}}));
    QCOMPARE(spy.size(), 1);
    QVERIFY(!call->isError());
    QVERIFY(call->result().contains(QStringLiteral("tools")));
    QVERIFY(call->latencyMs() >= 0);
    QVERIFY(!call->rawResponse().isEmpty());
    QCOMPARE(m_conn->pendingCount(), 0);
}

void tst_JsonRpcConnection::responsesOutOfOrder()
{
    RpcCall *a = m_conn->request(QStringLiteral("a"), {}, 0);
    RpcCall *b = m_conn->request(QStringLiteral("b"), {}, 0);
    m_transport->receive(rpc::result(b->id(), {{QStringLiteral("who"), QStringLiteral("b")}}));
    m_transport->receive(rpc::result(a->id(), {{QStringLiteral("who"), QStringLiteral("a")}}));
    QCOMPARE(a->result().value(QStringLiteral("who")).toString(), QStringLiteral("a"));
    QCOMPARE(b->result().value(QStringLiteral("who")).toString(), QStringLiteral("b"));
}

void tst_JsonRpcConnection::errorResponse()
{
    RpcCall *call = m_conn->request(QStringLiteral("tools/list"), {}, 0);
    m_transport->receive(
        rpc::error(call->id(), -32602, QStringLiteral("Invalid cursor"), QStringLiteral("expired")));
    QVERIFY(call->isFinished());
    QCOMPARE(call->error().kind, McpError::Kind::Rpc);
    QCOMPARE(call->error().code, -32602);
    QCOMPARE(call->error().data.toString(), QStringLiteral("expired"));
    QCOMPARE(call->error().describe(), QStringLiteral("Invalid cursor (-32602 invalid params)"));
}

// The server's message is text: a "%1" in it is not a placeholder for the code that follows.
void tst_JsonRpcConnection::errorMessageKeepsItsPercentSigns_data()
{
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("described");
    QTest::addRow("named code") << -32602 << QStringLiteral("%1 %2 %3")
                                << QStringLiteral("%1 %2 %3 (-32602 invalid params)");
    QTest::addRow("unnamed code") << 4242 << QStringLiteral("%1 %2 %3") << QStringLiteral("%1 %2 %3 (4242)");
    QTest::addRow("odd placeholders") << -32603 << QStringLiteral("100% of %L1, %99 and %")
                                      << QStringLiteral("100% of %L1, %99 and % (-32603 internal error)");
}

void tst_JsonRpcConnection::errorMessageKeepsItsPercentSigns()
{
    QFETCH(int, code);
    QFETCH(QString, message);
    QFETCH(QString, described);
    RpcCall *call = m_conn->request(QStringLiteral("tools/list"), {}, 0);
    m_transport->receive(rpc::error(call->id(), code, message));
    QVERIFY(call->isFinished());
    QCOMPARE(call->error().kind, McpError::Kind::Rpc);
    QCOMPARE(call->error().message, message);
    QCOMPARE(call->error().describe(), described);
}

void tst_JsonRpcConnection::resultThatIsNotAnObject()
{
    RpcCall *call = m_conn->request(QStringLiteral("x"), {}, 0);
    m_transport->receive({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                          {QStringLiteral("id"), call->id()},
                          {QStringLiteral("result"), 42}});
    QCOMPARE(call->error().kind, McpError::Kind::Protocol);
}

void tst_JsonRpcConnection::timeoutFinishesCallAndCancelsOnServer()
{
    RpcCall *call = m_conn->request(QStringLiteral("slow"), {}, 50);
    QSignalSpy spy(call, &RpcCall::finished);
    QVERIFY(spy.wait(2000));
    QCOMPARE(call->error().kind, McpError::Kind::Timeout);
    QCOMPARE(m_transport->sent.size(), 2);
    const QJsonObject cancel = m_transport->sent.last();
    QCOMPARE(cancel.value(QStringLiteral("method")).toString(), QStringLiteral("notifications/cancelled"));
    QCOMPARE(cancel.value(QStringLiteral("params")).toObject().value(QStringLiteral("requestId")),
             call->id());
    QVERIFY(!cancel.contains(QStringLiteral("id")));
}

void tst_JsonRpcConnection::cancelSendsNotification()
{
    RpcCall *call = m_conn->request(QStringLiteral("slow"), {}, 0);
    call->cancel();
    QCOMPARE(call->error().kind, McpError::Kind::Cancelled);
    QCOMPARE(m_transport->sent.last().value(QStringLiteral("method")).toString(),
             QStringLiteral("notifications/cancelled"));
    QCOMPARE(m_conn->pendingCount(), 0);
}

void tst_JsonRpcConnection::lateResponseAfterTimeoutIsIgnored()
{
    RpcCall *call = m_conn->request(QStringLiteral("slow"), {}, 20);
    QSignalSpy finished(call, &RpcCall::finished);
    QVERIFY(finished.wait(2000));
    QSignalSpy warnings(m_conn, &JsonRpcConnection::protocolWarning);
    m_transport->receive(rpc::result(call->id(), {}));
    QCOMPARE(finished.size(), 1); // finished exactly once
    QCOMPARE(warnings.size(), 1);
    QCOMPARE(call->error().kind, McpError::Kind::Timeout);
}

void tst_JsonRpcConnection::notificationIsRouted()
{
    QSignalSpy spy(m_conn, &JsonRpcConnection::notificationReceived);
    m_transport->receive({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                          {QStringLiteral("method"), QStringLiteral("notifications/tools/list_changed")}});
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.first().at(0).toString(), QStringLiteral("notifications/tools/list_changed"));
    QVERIFY(m_transport->sent.isEmpty()); // notifications are never answered
}

void tst_JsonRpcConnection::pingIsAnswered()
{
    m_transport->receive({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                          {QStringLiteral("id"), QStringLiteral("p1")},
                          {QStringLiteral("method"), QStringLiteral("ping")}});
    QCOMPARE(m_transport->sent.size(), 1);
    const QJsonObject reply = m_transport->sent.first();
    QCOMPARE(reply.value(QStringLiteral("id")).toString(), QStringLiteral("p1"));
    QVERIFY(reply.value(QStringLiteral("result")).isObject());
    QVERIFY(reply.value(QStringLiteral("result")).toObject().isEmpty());
}

void tst_JsonRpcConnection::unknownServerRequestGetsMethodNotFound()
{
    m_transport->receive({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                          {QStringLiteral("id"), 9},
                          {QStringLiteral("method"), QStringLiteral("roots/list")}});
    const QJsonObject reply = m_transport->sent.first();
    QCOMPARE(reply.value(QStringLiteral("id")).toInt(), 9);
    QCOMPARE(reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32601);
}

void tst_JsonRpcConnection::malformedMessageKeepsConnection()
{
    QSignalSpy warnings(m_conn, &JsonRpcConnection::protocolWarning);
    RpcCall *call = m_conn->request(QStringLiteral("x"), {}, 0);
    m_transport->receiveRaw("{not json");
    QCOMPARE(warnings.size(), 1);
    QVERIFY(!call->isFinished());
    m_transport->receive(rpc::result(call->id(), {}));
    QVERIFY(call->isFinished());
    QVERIFY(!call->isError());
}

void tst_JsonRpcConnection::notJsonRpcIsReported()
{
    QSignalSpy warnings(m_conn, &JsonRpcConnection::protocolWarning);
    m_transport->receive({{QStringLiteral("hello"), QStringLiteral("world")}});
    QCOMPARE(warnings.size(), 1);
    QCOMPARE(warnings.first().at(0).value<McpError>().kind, McpError::Kind::MalformedMessage);
}

void tst_JsonRpcConnection::frameThatIsNoMessageIsMalformed_data()
{
    QTest::addColumn<QByteArray>("frame");
    QTest::addColumn<QString>("why");
    // Qt's parser itself takes only an object or an array at the top.
    QTest::newRow("scalar") << QByteArray("5") << QStringLiteral("Not JSON: ");
    QTest::newRow("string") << QByteArray("\"hi\"") << QStringLiteral("Not JSON: ");
    QTest::newRow("empty_batch") << QByteArray("[]") << QStringLiteral("Not a JSON-RPC message object");
    QTest::newRow("batch_of_numbers")
        << QByteArray("[1,2]") << QStringLiteral("A batch element is not a JSON object");
    QTest::newRow("cut_off") << QByteArray("{\"jsonrpc\":\"2.0\",") << QStringLiteral("Not JSON: ");
}

void tst_JsonRpcConnection::frameThatIsNoMessageIsMalformed()
{
    // Every transport hands frames up unparsed; the connection alone says what is wrong with one.
    QFETCH(QByteArray, frame);
    QFETCH(QString, why);
    QSignalSpy malformed(m_transport, &Transport::malformedMessage);
    QSignalSpy warnings(m_conn, &JsonRpcConnection::protocolWarning);
    const FrameReceipt receipt = m_transport->receiveRaw(frame);
    QVERIFY(!receipt.json);
    QVERIFY(!receipt.used);
    QVERIFY2(receipt.error.message.startsWith(why), qPrintable(receipt.error.message));
    QCOMPARE(malformed.size(), 1);
    QCOMPARE(warnings.size(), 1);
    QCOMPARE(m_log->entries().last().method, QStringLiteral("(malformed)"));
}

void tst_JsonRpcConnection::batchAnswersEachRequest()
{
    RpcCall *a = m_conn->request(QStringLiteral("a"), {}, 0);
    RpcCall *b = m_conn->request(QStringLiteral("b"), {}, 0);
    const QJsonArray batch{rpc::result(b->id(), {{QStringLiteral("n"), 2}}),
                           rpc::result(a->id(), {{QStringLiteral("n"), 1}})};
    const FrameReceipt receipt = m_transport->receiveRaw(QJsonDocument(batch).toJson(QJsonDocument::Compact));
    QVERIFY(receipt.used);
    QCOMPARE(receipt.answered, (QList<QJsonValue>{b->id(), a->id()}));
    QCOMPARE(a->result().value(QStringLiteral("n")).toInt(), 1);
    QCOMPARE(b->result().value(QStringLiteral("n")).toInt(), 2);
    // Each is logged, and kept, as its own message.
    QCOMPARE(a->rawResponse(), QJsonDocument(batch.at(1).toObject()).toJson(QJsonDocument::Compact));
}

void tst_JsonRpcConnection::errorStatusBodyCountsOnlyAsJsonRpc()
{
    RpcCall *call = m_conn->request(QStringLiteral("tools/list"), {}, 0);
    FrameOrigin origin;
    origin.exchangeId = call->id();
    origin.errorStatus = true;
    origin.reportNotJson = false;
    QSignalSpy warnings(m_conn, &JsonRpcConnection::protocolWarning);
    const qsizetype logged = m_log->entries().size();
    // A proxy's JSON error page, and one that is not JSON: no message, nothing said (the HTTP
    // transport fails the request with the status).
    FrameReceipt receipt = m_transport->receiveRaw(R"({"error":"Bad Gateway"})", origin);
    QVERIFY(receipt.json);
    QVERIFY(!receipt.used);
    receipt = m_transport->receiveRaw("<html>502</html>", origin);
    QVERIFY(!receipt.json);
    QCOMPARE(warnings.size(), 0);
    QCOMPARE(m_log->entries().size(), logged);
    QVERIFY(!call->isFinished());
    // A JSON-RPC error without an id answers the request its exchange carried.
    receipt = m_transport->receiveRaw(
        R"({"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}})", origin);
    QVERIFY(receipt.used);
    QCOMPARE(receipt.answered, QList<QJsonValue>{call->id()});
    QVERIFY(call->isError());
    QCOMPARE(call->error().code, -32001);
}

void tst_JsonRpcConnection::unknownIdIsReported()
{
    QSignalSpy warnings(m_conn, &JsonRpcConnection::protocolWarning);
    m_transport->receive(rpc::result(12345, {}));
    QCOMPARE(warnings.size(), 1);
}

void tst_JsonRpcConnection::closeFailsPendingCalls()
{
    RpcCall *a = m_conn->request(QStringLiteral("a"), {}, 0);
    RpcCall *b = m_conn->request(QStringLiteral("b"), {}, 0);
    QSignalSpy closed(m_conn, &JsonRpcConnection::connectionClosed);
    m_transport->drop(
        McpError::make(McpError::Kind::ProcessExited, QStringLiteral("The server process crashed")));
    QCOMPARE(closed.size(), 1);
    QCOMPARE(a->error().kind, McpError::Kind::ProcessExited);
    QCOMPARE(b->error().kind, McpError::Kind::ProcessExited);
    QCOMPARE(m_conn->pendingCount(), 0);
}

void tst_JsonRpcConnection::trafficIsLogged()
{
    RpcCall *call = m_conn->request(QStringLiteral("tools/list"), {}, 0);
    m_transport->receive(rpc::result(call->id(), {}));
    QCOMPARE(m_log->entries().size(), 2);
    const TrafficLog::Entry out = m_log->entries().at(0);
    const TrafficLog::Entry in = m_log->entries().at(1);
    QCOMPARE(out.direction, TrafficLog::Direction::Outgoing);
    QCOMPARE(out.method, QStringLiteral("tools/list"));
    QVERIFY(out.bytes > 0);
    QCOMPARE(in.direction, TrafficLog::Direction::Incoming);
    QCOMPARE(in.method, QStringLiteral("tools/list")); // the answered request's method
    QVERIFY(in.latencyMs >= 0);
    QCOMPARE(in.id, out.id);
}

namespace {

// A tools/list answer of n items, written with spaces so that the cut has whitespace to remove.
QByteArray bigPage(const QJsonValue &id, int n)
{
    QJsonArray tools;
    for (int i = 0; i < n; ++i)
        tools.append(QJsonObject{
            {QStringLiteral("name"), QStringLiteral("tool_%1").arg(i)},
            {QStringLiteral("description"), QStringLiteral("A \"quoted\" tool, caf\u00e9 %1").arg(i)}});
    const QJsonObject message{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("id"), id},
        {QStringLiteral("result"), QJsonObject{{QStringLiteral("tools"), tools},
                                               {QStringLiteral("nextCursor"), QStringLiteral("c2")},
                                               {QStringLiteral("ttlMs"), 1000}}}};
    return QJsonDocument(message).toJson(QJsonDocument::Indented);
}

} // namespace

void tst_JsonRpcConnection::deferredItemsAreCutNotParsed()
{
    RpcCall *call = m_conn->request(QStringLiteral("tools/list"), {}, 0);
    call->deferItems(QStringLiteral("tools"));
    const QJsonValue id = m_transport->sent.last().value(QStringLiteral("id"));
    QSignalSpy spy(call, &RpcCall::finished);
    const QByteArray raw = bigPage(id, 200);
    m_transport->receiveRaw(raw);
    QCOMPARE(spy.size(), 1);
    QCOMPARE(m_transport->lastAnswered, QList<QJsonValue>{id});
    QVERIFY(!call->isError());
    QVERIFY(call->itemsDeferred());
    // Everything but the items is parsed as usual; the items array is there, empty.
    QCOMPARE(call->result().value(QStringLiteral("nextCursor")).toString(), QStringLiteral("c2"));
    QCOMPARE(call->result().value(QStringLiteral("ttlMs")).toInt(), 1000);
    QVERIFY(call->result().value(QStringLiteral("tools")).isArray());
    QVERIFY(call->result().value(QStringLiteral("tools")).toArray().isEmpty());
    QCOMPARE(call->rawResponse(), raw);
    // Each item's text is its compact JSON, equal to what a full parse reads.
    const QJsonArray parsed = QJsonDocument::fromJson(raw)
                                  .object()
                                  .value(QStringLiteral("result"))
                                  .toObject()
                                  .value(QStringLiteral("tools"))
                                  .toArray();
    QCOMPARE(call->deferredItems().count(), parsed.size());
    for (int i = 0; i < parsed.size(); ++i) {
        const QByteArray text = call->deferredItems().at(i).toByteArray();
        QVERIFY(!text.contains('\n'));
        QCOMPARE(QJsonDocument::fromJson(text).object(), parsed.at(i).toObject());
    }
    QCOMPARE(m_conn->pendingCount(), 0);
    QCOMPARE(m_log->entries().last().bytes, raw.size()); // logged like any answer
}

void tst_JsonRpcConnection::deferredItemsFallBackWhenNotPlain_data()
{
    QTest::addColumn<QString>("deferKey");
    QTest::addColumn<QByteArray>("tamper"); // replaces the first "tool_1\"" in the page
    QTest::addColumn<bool>("malformed");
    QTest::newRow("not deferred") << QString() << QByteArray() << false;
    QTest::newRow("other key") << QStringLiteral("prompts") << QByteArray() << false;
    QTest::newRow("not JSON") << QStringLiteral("tools") << QByteArray("tool_1\" ]") << true;
    // Qt's parser takes an unknown escape as the character; the strict check does not, so such
    // a page goes the usual way and reads as Qt reads it.
    QTest::newRow("unknown escape") << QStringLiteral("tools") << QByteArray("tool_1\\q\"") << false;
    QTest::newRow("bad UTF-8") << QStringLiteral("tools") << QByteArray("tool_1\xc3\"") << true;
}

void tst_JsonRpcConnection::deferredItemsFallBackWhenNotPlain()
{
    QFETCH(QString, deferKey);
    QFETCH(QByteArray, tamper);
    QFETCH(bool, malformed);
    RpcCall *call = m_conn->request(QStringLiteral("tools/list"), {}, 0);
    if (!deferKey.isEmpty())
        call->deferItems(deferKey);
    const QJsonValue id = m_transport->sent.last().value(QStringLiteral("id"));
    QByteArray raw = bigPage(id, 200);
    if (!tamper.isEmpty()) {
        const qsizetype at = raw.indexOf("tool_1\"");
        raw.replace(at, 7, tamper);
    }
    QSignalSpy finished(call, &RpcCall::finished);
    QSignalSpy warnings(m_conn, &JsonRpcConnection::protocolWarning);
    m_transport->receiveRaw(raw);
    if (malformed) {
        // The usual path reports it, and the call it names fails at once with the parser's
        // reason (it used to wait for its timeout); nothing is half-read.
        QCOMPARE(finished.size(), 1);
        QVERIFY(call->isError());
        QCOMPARE(call->error().kind, McpError::Kind::MalformedMessage);
        QCOMPARE(warnings.size(), 1);
    } else {
        QCOMPARE(finished.size(), 1);
        QVERIFY(!call->itemsDeferred());
        QCOMPARE(call->result().value(QStringLiteral("tools")).toArray().size(), 200);
    }
}

QTEST_GUILESS_MAIN(tst_JsonRpcConnection)
#include "tst_jsonrpcconnection.moc"
