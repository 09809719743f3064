#include "faketransport.h"
#include "invocation.h"
#include "mcpclient.h"
#include "protocol.h"
#include "rpccall.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <functional>

using namespace folio;

namespace {

const QString Modern = QString::fromLatin1(Revision::Modern);

// A server behind a fake transport: answers the handshake in the chosen era, and hands every
// other request to the test's handler (which answers through receive(), now or later).
class FakeServer : public FakeTransport
{
public:
    using Handler = std::function<void(FakeServer &, const QJsonObject &message)>;
    FakeServer(bool modern, Handler handler)
        : m_modern(modern)
        , m_handler(std::move(handler))
    {}
    void send(const QJsonObject &message, const QByteArray &encoded) override
    {
        FakeTransport::send(message, encoded);
        headers.append(messageHeaders());
        // Answered from the event loop, as a real server's answer arrives.
        QTimer::singleShot(0, this, [this, message] { handle(message); });
    }
    void handle(const QJsonObject &message)
    {
        const QString method = message.value(QStringLiteral("method")).toString();
        const QJsonValue id = message.value(QStringLiteral("id"));
        if (method == QLatin1String("server/discover")) {
            if (!m_modern) {
                receive(rpc::error(id, -32601, QStringLiteral("no")));
                return;
            }
            receive(rpc::result(
                id, {{QStringLiteral("resultType"), QStringLiteral("complete")},
                     {QStringLiteral("supportedVersions"), QJsonArray{Modern}},
                     {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("tools"), QJsonObject()}}},
                     {QStringLiteral("ttlMs"), 0},
                     {QStringLiteral("cacheScope"), QStringLiteral("private")}}));
            return;
        }
        if (method == QLatin1String("initialize")) {
            initializeParams = message.value(QStringLiteral("params")).toObject();
            receive(rpc::result(
                id, {{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                     {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("tools"), QJsonObject()}}},
                     {QStringLiteral("serverInfo"),
                      QJsonObject{{QStringLiteral("name"), QStringLiteral("old")}}}}));
            return;
        }
        if (method == QLatin1String("notifications/initialized"))
            return;
        m_handler(*this, message);
    }
    // The requests the handler saw for a method, in order.
    QList<QJsonObject> requests(const QString &method) const
    {
        QList<QJsonObject> found;
        for (const QJsonObject &m : sent) {
            if (m.value(QStringLiteral("method")) == method && m.contains(QStringLiteral("id")))
                found.append(m);
        }
        return found;
    }
    QList<HeaderList> headers;
    QJsonObject initializeParams;

private:
    bool m_modern;
    Handler m_handler;
};

// Answers inputs the way a test wants and remembers what it was asked.
class ScriptedResponder : public InputResponder
{
public:
    bool elicitation = true;
    bool sampling = false;
    bool later = false; // keep the reply instead of answering
    QList<InputRequest> asked;
    QList<QPointer<InputReply>> kept;

    bool answers(InputRequest::Kind kind) const override
    {
        return kind == InputRequest::Kind::Elicitation ? elicitation
               : kind == InputRequest::Kind::Sampling  ? sampling
                                                       : false;
    }
    void respond(InputReply *r) override
    {
        asked.append(r->request());
        if (later) {
            kept.append(r);
            return;
        }
        r->answer({{QStringLiteral("action"), QStringLiteral("accept")},
                   {QStringLiteral("content"), QJsonObject{{QStringLiteral("confirmed"), true}}}});
    }
};

QJsonObject inputRequired(const QJsonValue &state = {})
{
    QJsonObject r{{QStringLiteral("resultType"), QStringLiteral("input_required")},
                  {QStringLiteral("inputRequests"),
                   QJsonObject{{QStringLiteral("confirm"),
                                QJsonObject{{QStringLiteral("method"), QStringLiteral("elicitation/create")},
                                            {QStringLiteral("params"),
                                             QJsonObject{{QStringLiteral("message"), QStringLiteral("Sure?")},
                                                         {QStringLiteral("requestedSchema"),
                                                          QJsonObject{{QStringLiteral("type"),
                                                                       QStringLiteral("object")}}}}}}}}}};
    if (!state.isUndefined())
        r.insert(QStringLiteral("requestState"), state);
    return r;
}

QJsonObject textResult(const QString &text)
{
    return {
        {QStringLiteral("resultType"), QStringLiteral("complete")},
        {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                           {QStringLiteral("text"), text}}}}};
}

// A server that answers every request with result.
FakeServer::Handler answerEvery(const QJsonObject &result)
{
    return [result](FakeServer &s, const QJsonObject &m) {
        s.receive(rpc::result(m.value(QStringLiteral("id")), result));
    };
}

bool waitFor(Invocation *invocation)
{
    QSignalSpy finished(invocation, &Invocation::finished);
    return invocation->isFinished() || finished.wait(5000);
}

} // namespace

// Invocation over a fake server: the 2026 multi-round-trip, progress, cancel, the 2025 server
// requests through the same responder, and the x-mcp-header rules.
class tst_Invocation : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void inputRequiredIsAnsweredAndStateEchoed();
    void noStateIsNoState();
    void roundsAreBounded();
    void unknownResultTypeFails();
    void refusedInputFailsTheCall();
    void cancelWhileWaitingForInput();
    void progressAndCancel();
    void deletingItCancelsQuietly();
    void capabilitiesFollowTheResponder();
    void legacyServerRequestsReachTheResponder();
    void toolHeaderProblems_data();
    void toolHeaderProblems();
    void paramHeaders();
    void invalidToolIsNotCalled();

private:
    FakeServer *connect(McpClient &client, bool modern, FakeServer::Handler handler);
};

FakeServer *tst_Invocation::connect(McpClient &client, bool modern, FakeServer::Handler handler)
{
    FakeServer *server = nullptr;
    client.setTransportFactory([&server, modern, handler](QObject *) {
        server = new FakeServer(modern, handler);
        return server;
    });
    ServerConfig config;
    config.name = QStringLiteral("fake");
    config.requestTimeoutMs = 3000;
    client.setConfig(config);
    QSignalSpy connected(&client, &McpClient::connected);
    client.connectToServer();
    if (!connected.wait(3000) && connected.isEmpty())
        return nullptr;
    return server;
}

void tst_Invocation::inputRequiredIsAnsweredAndStateEchoed()
{
    McpClient client;
    ScriptedResponder responder;
    client.setInputResponder(&responder);
    FakeServer *server = connect(client, true, [](FakeServer &s, const QJsonObject &m) {
        const QJsonObject params = m.value(QStringLiteral("params")).toObject();
        if (!params.contains(QStringLiteral("inputResponses")))
            s.receive(
                rpc::result(m.value(QStringLiteral("id")), inputRequired(QStringLiteral("opaque\"state"))));
        else
            s.receive(rpc::result(m.value(QStringLiteral("id")), textResult(QStringLiteral("done"))));
    });
    QVERIFY(server);
    Invocation *call = client.invokeTool({{QStringLiteral("name"), QStringLiteral("deploy")}}, {}, this);
    QVERIFY(waitFor(call));
    QVERIFY2(!call->isError(), qPrintable(call->error().describe()));
    QCOMPARE(call->rounds().size(), 2);
    QCOMPARE(call->result()
                 .value(QStringLiteral("content"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("text")),
             QStringLiteral("done"));
    QVERIFY(!call->isCacheable()); // a retried result is never cached
    QCOMPARE(responder.asked.size(), 1);
    QCOMPARE(responder.asked.first().key, QStringLiteral("confirm"));
    QCOMPARE(responder.asked.first().askedFor, QStringLiteral("tools/call deploy"));

    const QList<QJsonObject> sent = server->requests(QStringLiteral("tools/call"));
    QCOMPARE(sent.size(), 2);
    QVERIFY(sent[0].value(QStringLiteral("id")) != sent[1].value(QStringLiteral("id")));
    const QJsonObject retry = sent[1].value(QStringLiteral("params")).toObject();
    QCOMPARE(retry.value(QStringLiteral("requestState")).toString(), QStringLiteral("opaque\"state"));
    QCOMPARE(retry.value(QStringLiteral("name")).toString(), QStringLiteral("deploy"));
    const QJsonObject answer =
        retry.value(QStringLiteral("inputResponses")).toObject().value(QStringLiteral("confirm")).toObject();
    QCOMPARE(answer.value(QStringLiteral("action")).toString(), QStringLiteral("accept"));
    // The retry still carries the 2026 envelope.
    QVERIFY(retry.value(QStringLiteral("_meta"))
                .toObject()
                .contains(QStringLiteral("io.modelcontextprotocol/protocolVersion")));
}

void tst_Invocation::noStateIsNoState()
{
    McpClient client;
    ScriptedResponder responder;
    client.setInputResponder(&responder);
    FakeServer *server = connect(client, true, [](FakeServer &s, const QJsonObject &m) {
        const QJsonObject params = m.value(QStringLiteral("params")).toObject();
        s.receive(rpc::result(m.value(QStringLiteral("id")), params.contains(QStringLiteral("inputResponses"))
                                                                 ? textResult(QStringLiteral("ok"))
                                                                 : inputRequired()));
    });
    QVERIFY(server);
    Invocation *call = client.getPrompt(QStringLiteral("greet"), {}, this);
    QVERIFY(waitFor(call));
    QVERIFY(!call->isError());
    const QList<QJsonObject> sent = server->requests(QStringLiteral("prompts/get"));
    QCOMPARE(sent.size(), 2);
    QVERIFY(!sent[1].value(QStringLiteral("params")).toObject().contains(QStringLiteral("requestState")));
    // A later, unrelated request carries nothing of that exchange.
    Invocation *other = client.read(QStringLiteral("demo://x"), this);
    QVERIFY(waitFor(other));
    const QJsonObject params =
        server->requests(QStringLiteral("resources/read")).first().value(QStringLiteral("params")).toObject();
    QVERIFY(!params.contains(QStringLiteral("inputResponses")));
    QVERIFY(!params.contains(QStringLiteral("requestState")));
}

void tst_Invocation::roundsAreBounded()
{
    McpClient client;
    ScriptedResponder responder;
    client.setInputResponder(&responder);
    FakeServer *server = connect(client, true, answerEvery(inputRequired(QStringLiteral("again"))));
    QVERIFY(server);
    Invocation *call =
        client.invoke(QStringLiteral("tools/call"), {{QStringLiteral("name"), QStringLiteral("loop")}}, this);
    QVERIFY(waitFor(call));
    QVERIFY(call->isError());
    QCOMPARE(call->rounds().size(), Invocation::defaultMaxRounds);
    QVERIFY2(call->error().message.contains(QStringLiteral("rounds")), qPrintable(call->error().message));
}

void tst_Invocation::unknownResultTypeFails()
{
    McpClient client;
    FakeServer *server =
        connect(client, true, answerEvery({{QStringLiteral("resultType"), QStringLiteral("later")}}));
    QVERIFY(server);
    Invocation *call = client.read(QStringLiteral("demo://x"), this);
    QVERIFY(waitFor(call));
    QCOMPARE(call->error().kind, McpError::Kind::Protocol);
    QVERIFY(call->error().message.contains(QStringLiteral("later")));
}

void tst_Invocation::refusedInputFailsTheCall()
{
    McpClient client;
    ScriptedResponder responder;
    responder.elicitation = false; // nobody answers elicitations
    client.setInputResponder(&responder);
    FakeServer *server = connect(client, true, answerEvery(inputRequired()));
    QVERIFY(server);
    Invocation *call =
        client.invoke(QStringLiteral("tools/call"), {{QStringLiteral("name"), QStringLiteral("x")}}, this);
    QVERIFY(waitFor(call));
    QVERIFY(call->isError());
    QCOMPARE(server->requests(QStringLiteral("tools/call")).size(), 1); // no retry without the answer
    QVERIFY2(call->error().message.contains(QStringLiteral("elicitation")),
             qPrintable(call->error().message));
}

void tst_Invocation::cancelWhileWaitingForInput()
{
    McpClient client;
    ScriptedResponder responder;
    responder.later = true;
    client.setInputResponder(&responder);
    FakeServer *server = connect(client, true, answerEvery(inputRequired()));
    QVERIFY(server);
    Invocation *call =
        client.invoke(QStringLiteral("tools/call"), {{QStringLiteral("name"), QStringLiteral("x")}}, this);
    QTRY_COMPARE(responder.kept.size(), 1);
    QSignalSpy withdrawn(responder.kept.first().data(), &InputReply::withdrawn);
    call->cancel();
    QVERIFY(call->isFinished());
    QVERIFY(call->isCancelled());
    QCOMPARE(withdrawn.size(), 1);
    QCOMPARE(server->requests(QStringLiteral("tools/call")).size(), 1);
}

void tst_Invocation::progressAndCancel()
{
    McpClient client;
    FakeServer *server = connect(client, true, [](FakeServer &s, const QJsonObject &m) {
        if (m.value(QStringLiteral("method")) != QLatin1String("tools/call"))
            return;
        const QJsonValue token = m.value(QStringLiteral("params"))
                                     .toObject()
                                     .value(QStringLiteral("_meta"))
                                     .toObject()
                                     .value(QStringLiteral("progressToken"));
        QTimer::singleShot(0, &s, [&s, token] {
            s.receive({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                       {QStringLiteral("method"), QStringLiteral("notifications/progress")},
                       {QStringLiteral("params"),
                        QJsonObject{{QStringLiteral("progressToken"), token},
                                    {QStringLiteral("progress"), 2},
                                    {QStringLiteral("total"), 5},
                                    {QStringLiteral("message"), QStringLiteral("two")}}}});
        });
    });
    QVERIFY(server);
    Invocation *call =
        client.invoke(QStringLiteral("tools/call"), {{QStringLiteral("name"), QStringLiteral("slow")}}, this);
    QSignalSpy progressed(call, &Invocation::progressed);
    QVERIFY(progressed.wait(3000));
    QCOMPARE(call->progress(), 2.0);
    QCOMPARE(call->progressTotal(), 5.0);
    QCOMPARE(call->progressMessage(), QStringLiteral("two"));
    call->cancel();
    QVERIFY(call->isCancelled());
    const QJsonObject last = server->sent.last();
    QCOMPARE(last.value(QStringLiteral("method")).toString(), QStringLiteral("notifications/cancelled"));
    QCOMPARE(last.value(QStringLiteral("params")).toObject().value(QStringLiteral("requestId")),
             server->requests(QStringLiteral("tools/call")).first().value(QStringLiteral("id")));
}

void tst_Invocation::deletingItCancelsQuietly()
{
    McpClient client;
    FakeServer *server = connect(client, true, [](FakeServer &, const QJsonObject &) {});
    QVERIFY(server);
    auto *owner = new QObject;
    Invocation *call = client.invoke(QStringLiteral("tools/call"),
                                     {{QStringLiteral("name"), QStringLiteral("slow")}}, owner);
    QTRY_COMPARE(server->requests(QStringLiteral("tools/call")).size(), 1);
    bool heard = false;
    QObject::connect(call, &Invocation::finished, this, [&heard] { heard = true; });
    delete owner; // a view closed while its call ran
    QVERIFY(!heard);
    QCOMPARE(server->sent.last().value(QStringLiteral("method")).toString(),
             QStringLiteral("notifications/cancelled"));
}

void tst_Invocation::capabilitiesFollowTheResponder()
{
    {
        McpClient client;
        FakeServer *server = connect(client, true, [](FakeServer &, const QJsonObject &) {});
        QVERIFY(server);
        const QJsonObject meta = server->sent.first()
                                     .value(QStringLiteral("params"))
                                     .toObject()
                                     .value(QStringLiteral("_meta"))
                                     .toObject();
        QCOMPARE(meta.value(QStringLiteral("io.modelcontextprotocol/clientCapabilities")).toObject(),
                 QJsonObject());
    }
    {
        McpClient client;
        DefaultInputResponder responder; // elicitation and roots, no sampling
        client.setInputResponder(&responder);
        FakeServer *server = connect(client, false, [](FakeServer &, const QJsonObject &) {});
        QVERIFY(server);
        const QJsonObject caps = server->initializeParams.value(QStringLiteral("capabilities")).toObject();
        QVERIFY(caps.contains(QStringLiteral("elicitation")));
        QVERIFY(caps.contains(QStringLiteral("roots")));
        QVERIFY(!caps.contains(QStringLiteral("sampling")));
    }
}

void tst_Invocation::legacyServerRequestsReachTheResponder()
{
    McpClient client;
    ScriptedResponder responder;
    responder.later = true;
    client.setInputResponder(&responder);
    FakeServer *server = connect(client, false, [](FakeServer &, const QJsonObject &) {});
    QVERIFY(server);
    QSignalSpy asked(&client, &McpClient::inputRequested);
    server->receive(
        {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
         {QStringLiteral("id"), QStringLiteral("srv-7")},
         {QStringLiteral("method"), QStringLiteral("elicitation/create")},
         {QStringLiteral("params"), QJsonObject{{QStringLiteral("message"), QStringLiteral("Name?")}}}});
    QCOMPARE(asked.size(), 1);
    QCOMPARE(responder.kept.size(), 1);
    const qsizetype before = server->sent.size();
    // Answered later, as a dialog would.
    responder.kept.first()->answer({{QStringLiteral("action"), QStringLiteral("decline")}});
    QCOMPARE(server->sent.size(), before + 1);
    const QJsonObject answer = server->sent.last();
    QCOMPARE(answer.value(QStringLiteral("id")).toString(), QStringLiteral("srv-7"));
    QCOMPARE(answer.value(QStringLiteral("result")).toObject().value(QStringLiteral("action")).toString(),
             QStringLiteral("decline"));

    // Sampling is not answered by this responder: the server hears -32601 at once.
    server->receive({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                     {QStringLiteral("id"), 8},
                     {QStringLiteral("method"), QStringLiteral("sampling/createMessage")},
                     {QStringLiteral("params"), QJsonObject()}});
    QCOMPARE(
        server->sent.last().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
        -32601);
}

void tst_Invocation::toolHeaderProblems_data()
{
    QTest::addColumn<QJsonObject>("properties");
    QTest::addColumn<QString>("problem"); // a word of the reason; empty: valid
    auto prop = [](const char *type, const QJsonValue &header) {
        return QJsonObject{{QStringLiteral("type"), QLatin1String(type)},
                           {QStringLiteral("x-mcp-header"), header}};
    };
    QTest::newRow("valid") << QJsonObject{{QStringLiteral("region"),
                                           prop("string", QStringLiteral("Region"))},
                                          {QStringLiteral("n"), prop("integer", QStringLiteral("N"))},
                                          {QStringLiteral("b"), prop("boolean", QStringLiteral("Flag"))},
                                          {QStringLiteral("plain"),
                                           QJsonObject{{QStringLiteral("type"), QStringLiteral("number")}}}}
                           << QString();
    QTest::newRow("empty") << QJsonObject{{QStringLiteral("v"), prop("string", QString())}}
                           << QStringLiteral("empty");
    QTest::newRow("object") << QJsonObject{{QStringLiteral("v"), prop("object", QStringLiteral("V"))}}
                            << QStringLiteral("type");
    QTest::newRow("number") << QJsonObject{{QStringLiteral("v"), prop("number", QStringLiteral("V"))}}
                            << QStringLiteral("type");
    QTest::newRow("null") << QJsonObject{{QStringLiteral("v"), prop("null", QStringLiteral("V"))}}
                          << QStringLiteral("type");
    QTest::newRow("space") << QJsonObject{{QStringLiteral("v"), prop("string", QStringLiteral("My Region"))}}
                           << QStringLiteral("character");
    QTest::newRow("colon") << QJsonObject{{QStringLiteral("v"), prop("string", QStringLiteral("A:B"))}}
                           << QStringLiteral("character");
    QTest::newRow("non-ascii") << QJsonObject{{QStringLiteral("v"),
                                               prop("string", QStringLiteral("R\u00e9gion"))}}
                               << QStringLiteral("character");
    QTest::newRow("tab") << QJsonObject{{QStringLiteral("v"), prop("string", QStringLiteral("R\t1"))}}
                         << QStringLiteral("character");
    QTest::newRow("duplicate, other case")
        << QJsonObject{{QStringLiteral("a"), prop("string", QStringLiteral("MyField"))},
                       {QStringLiteral("b"), prop("string", QStringLiteral("myfield"))}}
        << QStringLiteral("both");
    QTest::newRow("not a string") << QJsonObject{{QStringLiteral("v"), prop("string", 7)}}
                                  << QStringLiteral("not a string");
}

void tst_Invocation::toolHeaderProblems()
{
    QFETCH(QJsonObject, properties);
    QFETCH(QString, problem);
    const QJsonObject tool{
        {QStringLiteral("name"), QStringLiteral("t")},
        {QStringLiteral("inputSchema"), QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                                    {QStringLiteral("properties"), properties}}}};
    const QString found = McpClient::toolHeaderProblem(tool);
    if (problem.isEmpty())
        QVERIFY2(found.isEmpty(), qPrintable(found));
    else
        QVERIFY2(found.contains(problem), qPrintable(found));
}

void tst_Invocation::paramHeaders()
{
    auto prop = [](const char *type, const char *header) {
        return QJsonObject{{QStringLiteral("type"), QLatin1String(type)},
                           {QStringLiteral("x-mcp-header"), QLatin1String(header)}};
    };
    const QJsonObject tool{
        {QStringLiteral("name"), QStringLiteral("t")},
        {QStringLiteral("inputSchema"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                     {QStringLiteral("properties"),
                      QJsonObject{{QStringLiteral("region"), prop("string", "Region")},
                                  {QStringLiteral("priority"), prop("integer", "Priority")},
                                  {QStringLiteral("debug"), prop("boolean", "Debug")},
                                  {QStringLiteral("verbose"), prop("boolean", "Verbose")},
                                  {QStringLiteral("greeting"), prop("string", "Greeting")},
                                  {QStringLiteral("padded"), prop("string", "Padded")},
                                  {QStringLiteral("query"),
                                   QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}}}};
    const QJsonObject arguments{{QStringLiteral("region"), QStringLiteral("us-west1")},
                                {QStringLiteral("priority"), 42},
                                {QStringLiteral("debug"), true},
                                {QStringLiteral("verbose"), QJsonValue::Null},
                                {QStringLiteral("greeting"), QStringLiteral("Hello, \u4e16\u754c")},
                                {QStringLiteral("padded"), QStringLiteral(" x ")},
                                {QStringLiteral("query"), QStringLiteral("SELECT 1")}};
    QHash<QByteArray, QByteArray> headers;
    for (const auto &[name, value] : McpClient::toolParamHeaders(tool, arguments))
        headers.insert(name, value);
    QCOMPARE(headers.value("Mcp-Param-Region"), QByteArray("us-west1"));
    QCOMPARE(headers.value("Mcp-Param-Priority"), QByteArray("42"));
    QCOMPARE(headers.value("Mcp-Param-Debug"), QByteArray("true"));
    QVERIFY(!headers.contains("Mcp-Param-Verbose")); // null: no header
    QCOMPARE(headers.value("Mcp-Param-Greeting"),
             "=?base64?" + QStringLiteral("Hello, \u4e16\u754c").toUtf8().toBase64() + "?=");
    QCOMPARE(headers.value("Mcp-Param-Padded"), "=?base64?" + QByteArray(" x ").toBase64() + "?=");
    QCOMPARE(headers.size(), 5); // query is not marked
}

void tst_Invocation::invalidToolIsNotCalled()
{
    McpClient client;
    FakeServer *server = connect(client, true, [](FakeServer &, const QJsonObject &) {});
    QVERIFY(server);
    const QJsonObject tool{
        {QStringLiteral("name"), QStringLiteral("bad")},
        {QStringLiteral("inputSchema"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                     {QStringLiteral("properties"),
                      QJsonObject{{QStringLiteral("v"),
                                   QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                               {QStringLiteral("x-mcp-header"), QStringLiteral("V")}}}}}}}};
    Invocation *call = client.invokeTool(tool, {}, this);
    QVERIFY(waitFor(call));
    QVERIFY(call->isError());
    QVERIFY(call->error().message.contains(QStringLiteral("does not call bad")));
    QVERIFY(server->requests(QStringLiteral("tools/call")).isEmpty());
}

QTEST_GUILESS_MAIN(tst_Invocation)
#include "tst_invocation.moc"
