#include "invocationrun.h"
#include "mcpclient.h"
#include "scriptedtransport.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using folio::InvocationRun;
using folio::McpClient;
using Outcome = folio::InvocationRun::Outcome;

// InvocationRun: how the window's Call and Get Prompt panes and `folio call` read a tools/call or
// prompts/get, against a scripted server: the outcome, the result to show, the timing and the
// transcript of every round.
class tst_InvocationRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void done();
    void toolError();
    void failed();
    void refusedBeforeSending();
    void cancelled();
    void prompt();

private:
    static QJsonObject tool(const QString &name) { return {{QStringLiteral("name"), name}}; }
    static bool finish(InvocationRun *run);
};

bool tst_InvocationRun::finish(InvocationRun *run)
{
    if (run->isFinished())
        return true;
    QSignalSpy finished(run, &InvocationRun::finished);
    return finished.wait(5000);
}

void tst_InvocationRun::done()
{
    McpClient *client = connectedToScripted(this, [](const QString &method, const QJsonObject &) {
        if (method != QLatin1String("tools/call"))
            return QJsonObject();
        return QJsonObject{{QStringLiteral("resultType"), QStringLiteral("complete")},
                           {QStringLiteral("content"),
                            QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                   {QStringLiteral("text"), QStringLiteral("5")}}}}};
    });
    QVERIFY(client);
    InvocationRun *run = InvocationRun::callTool(client, tool(QStringLiteral("add")),
                                                 {{QStringLiteral("a"), 2}, {QStringLiteral("b"), 3}}, this);
    QCOMPARE(run->outcome(), Outcome::Running);
    QVERIFY(finish(run));
    QCOMPARE(run->outcome(), Outcome::Done);
    QCOMPARE(run->title(), QStringLiteral("tools/call add"));
    QCOMPARE(run->params().value(QStringLiteral("arguments")).toObject().value(QStringLiteral("b")).toInt(),
             3);
    QCOMPARE(run->result().value(QStringLiteral("content")).toArray().size(), 1);
    QCOMPARE(run->roundCount(), 1);
    QVERIFY(run->totalMs() >= 0);
    QVERIFY2(run->timing().startsWith(QStringLiteral("1 round trip, ")), qPrintable(run->timing()));
    const QString transcript = run->transcript();
    QVERIFY2(transcript.startsWith(QStringLiteral("── Round 1 · id ")), qPrintable(transcript));
    QVERIFY(transcript.contains(QStringLiteral("Request params:\n")));
    QVERIFY(transcript.contains(QStringLiteral("Response:\n")));
    QVERIFY(transcript.contains(QStringLiteral("\"text\": \"5\"")));
    QVERIFY(!transcript.contains(QStringLiteral("Error:")));
}

void tst_InvocationRun::toolError()
{
    McpClient *client = connectedToScripted(this, [](const QString &method, const QJsonObject &) {
        if (method != QLatin1String("tools/call"))
            return QJsonObject();
        return QJsonObject{
            {QStringLiteral("resultType"), QStringLiteral("complete")},
            {QStringLiteral("isError"), true},
            {QStringLiteral("content"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                    {QStringLiteral("text"), QStringLiteral("no such city")}}}}};
    });
    QVERIFY(client);
    InvocationRun *run = InvocationRun::callTool(client, tool(QStringLiteral("weather")), {}, this);
    QVERIFY(finish(run));
    QCOMPARE(run->outcome(), Outcome::ToolError);
    // The result that said so is what is shown, whatever the invocation made of it.
    QVERIFY(run->result().value(QStringLiteral("isError")).toBool());
    QCOMPARE(run->result().value(QStringLiteral("content")).toArray().size(), 1);
}

void tst_InvocationRun::failed()
{
    McpClient *client = connectedToScripted(this, [](const QString &method, const QJsonObject &) {
        if (method != QLatin1String("tools/call"))
            return QJsonObject();
        return QJsonObject{
            {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), -32602},
                                                  {QStringLiteral("message"), QStringLiteral("bad b")}}}};
    });
    QVERIFY(client);
    InvocationRun *run = InvocationRun::callTool(client, tool(QStringLiteral("add")), {}, this);
    QVERIFY(finish(run));
    QCOMPARE(run->outcome(), Outcome::Failed);
    QVERIFY(run->result().isEmpty());
    QCOMPARE(run->error().code, -32602);
    QVERIFY2(run->transcript().contains(QStringLiteral("Error: ")), qPrintable(run->transcript()));
    QVERIFY(run->transcript().contains(QStringLiteral("bad b")));
}

void tst_InvocationRun::refusedBeforeSending()
{
    int calls = 0;
    McpClient *client = connectedToScripted(this, [&calls](const QString &, const QJsonObject &) {
        ++calls;
        return QJsonObject();
    });
    QVERIFY(client);
    // An x-mcp-header that is no header name: Folio does not call the tool.
    const QJsonObject bad{
        {QStringLiteral("name"), QStringLiteral("route")},
        {QStringLiteral("inputSchema"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                     {QStringLiteral("properties"),
                      QJsonObject{{QStringLiteral("region"),
                                   QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                               {QStringLiteral("x-mcp-header"), QStringLiteral("a b")}}}}}}}};
    InvocationRun *run =
        InvocationRun::callTool(client, bad, {{QStringLiteral("region"), QStringLiteral("eu")}}, this);
    QVERIFY(finish(run));
    QCOMPARE(run->outcome(), Outcome::Failed);
    QCOMPARE(calls, 0);
    QCOMPARE(run->roundCount(), 0);
    QCOMPARE(run->totalMs(), -1);
    QCOMPARE(run->timing(), QStringLiteral("0 round trips."));
    QVERIFY2(run->transcript().startsWith(QStringLiteral("Nothing was sent: Folio does not call route")),
             qPrintable(run->transcript()));
}

void tst_InvocationRun::cancelled()
{
    int calls = 0;
    McpClient *client = connectedToScripted(this, [&calls](const QString &method, const QJsonObject &) {
        calls += method == QLatin1String("tools/call");
        return QJsonObject(); // never answers
    });
    QVERIFY(client);
    InvocationRun *run = InvocationRun::callTool(client, tool(QStringLiteral("slow")), {}, this);
    QTRY_COMPARE(calls, 1);
    run->cancel();
    QVERIFY(finish(run));
    QCOMPARE(run->outcome(), Outcome::Cancelled);
    run->cancel(); // after the end: nothing
    QCOMPARE(run->outcome(), Outcome::Cancelled);
}

void tst_InvocationRun::prompt()
{
    QJsonObject asked;
    McpClient *client = connectedToScripted(this, [&asked](const QString &method, const QJsonObject &params) {
        if (method != QLatin1String("prompts/get"))
            return QJsonObject();
        asked = params;
        return QJsonObject{{QStringLiteral("resultType"), QStringLiteral("complete")},
                           {QStringLiteral("messages"), QJsonArray{}}};
    });
    QVERIFY(client);
    InvocationRun *run = InvocationRun::getPrompt(client, QStringLiteral("greet"),
                                                  {{QStringLiteral("name"), QStringLiteral("Ada")}}, this);
    QVERIFY(finish(run));
    QCOMPARE(run->outcome(), Outcome::Done);
    QCOMPARE(run->title(), QStringLiteral("prompts/get greet"));
    QCOMPARE(asked.value(QStringLiteral("name")).toString(), QStringLiteral("greet"));
    QVERIFY(run->result().contains(QStringLiteral("messages")));
}

QTEST_GUILESS_MAIN(tst_InvocationRun)
#include "tst_invocationrun.moc"
