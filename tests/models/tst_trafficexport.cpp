#include "trafficexport.h"
#include "trafficlog.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace folio;

namespace {

HttpExchange postExchange()
{
    HttpExchange ex;
    ex.startedMs = QDateTime::fromString(QStringLiteral("2026-07-28T10:00:00.250Z"), Qt::ISODateWithMs)
                       .toMSecsSinceEpoch();
    ex.firstByteMs = ex.startedMs + 40;
    ex.finishedMs = ex.startedMs + 55;
    ex.method = "POST";
    ex.url = QStringLiteral("https://mcp.example/mcp?tenant=acme");
    ex.requestHeaders = {{"Content-Type", "application/json"},
                         {"Authorization", "Bearer sk-live-123456"},
                         {"X-Api-Key", "k-998877"},
                         {"Mcp-Session-Id", "sess-42"},
                         {"Cookie", "sid=abc"}};
    ex.requestBody = R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})";
    ex.status = 200;
    ex.statusText = "OK";
    ex.responseHeaders = {{"Content-Type", "application/json"},
                          {"Set-Cookie", "sid=def; HttpOnly"},
                          {"X-Refresh-Token", "rt-1"}};
    ex.appendResponseBody(R"({"jsonrpc":"2.0","id":1,"result":{"tools":[],"access_token":"at-5"}})");
    return ex;
}

QString headerValue(const QJsonArray &headers, const QString &name)
{
    for (const QJsonValue &h : headers) {
        if (h.toObject().value(QStringLiteral("name")).toString().compare(name, Qt::CaseInsensitive) == 0)
            return h.toObject().value(QStringLiteral("value")).toString();
    }
    return QStringLiteral("(absent)");
}

} // namespace

// The traffic log as files: JSON Lines per message, HAR 1.2 per HTTP exchange, secrets masked.
class tst_TrafficExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void jsonLinesOneMessagePerLine();
    void jsonLinesKeepRedaction();
    void harHasWhatHar12Requires();
    void harMasksSecretHeaders();
    void writeFileFailsPlainly();
};

void tst_TrafficExport::jsonLinesOneMessagePerLine()
{
    TrafficLog log;
    log.setTransportName(QStringLiteral("stdio"));
    TrafficLog::Entry out;
    out.timestampMs = QDateTime::fromString(QStringLiteral("2026-07-28T10:00:00.007Z"), Qt::ISODateWithMs)
                          .toMSecsSinceEpoch();
    out.direction = TrafficLog::Direction::Outgoing;
    out.method = QStringLiteral("tools/list");
    out.id = QStringLiteral("1");
    out.text = R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})";
    out.bytes = out.text.size();
    log.append(out);
    TrafficLog::Entry in = out;
    in.direction = TrafficLog::Direction::Incoming;
    in.latencyMs = 12;
    in.text = R"({"jsonrpc":"2.0","id":1,"result":{"tools":[]}})";
    log.append(in);
    log.appendDiagnostic(QStringLiteral("stderr: line\twith tab"));

    const QByteArray jsonl = TrafficExport::toJsonLines(log.entries());
    QVERIFY(jsonl.endsWith('\n'));
    const QList<QByteArray> lines = jsonl.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    const QJsonObject first = QJsonDocument::fromJson(lines.at(0)).object();
    QCOMPARE(first.value(QStringLiteral("time")).toString(), QStringLiteral("2026-07-28T10:00:00.007Z"));
    QCOMPARE(first.value(QStringLiteral("direction")).toString(), QStringLiteral("sent"));
    QCOMPARE(first.value(QStringLiteral("transport")).toString(), QStringLiteral("stdio"));
    QCOMPARE(first.value(QStringLiteral("method")).toString(), QStringLiteral("tools/list"));
    QCOMPARE(first.value(QStringLiteral("id")).toString(), QStringLiteral("1"));
    QCOMPARE(first.value(QStringLiteral("size")).toInt(), int(out.bytes));
    QCOMPARE(first.value(QStringLiteral("message")).toObject().value(QStringLiteral("method")).toString(),
             QStringLiteral("tools/list"));
    const QJsonObject second = QJsonDocument::fromJson(lines.at(1)).object();
    QCOMPARE(second.value(QStringLiteral("direction")).toString(), QStringLiteral("received"));
    QCOMPARE(second.value(QStringLiteral("latencyMs")).toInt(), 12);
    const QJsonObject third = QJsonDocument::fromJson(lines.at(2)).object();
    QCOMPARE(third.value(QStringLiteral("direction")).toString(), QStringLiteral("diagnostic"));
    QCOMPARE(third.value(QStringLiteral("message")).toString(), QStringLiteral("stderr: line\twith tab"));
    QVERIFY(third.value(QStringLiteral("id")).isNull());
}

void tst_TrafficExport::jsonLinesKeepRedaction()
{
    TrafficLog log;
    log.addSecret(QStringLiteral("s3cr3t-value"));
    TrafficLog::Entry e;
    e.direction = TrafficLog::Direction::Outgoing;
    e.text = R"({"params":{"access_token":"abc","note":"s3cr3t-value"}})";
    log.append(e);
    const QByteArray jsonl = TrafficExport::toJsonLines(log.entries());
    QVERIFY(!jsonl.contains("s3cr3t-value"));
    QVERIFY(!jsonl.contains("\"abc\""));
    QVERIFY(jsonl.contains("[redacted]"));
}

void tst_TrafficExport::harHasWhatHar12Requires()
{
    TrafficLog log;
    log.appendHttp(postExchange());
    const QByteArray text = QJsonDocument(TrafficExport::toHar(log.httpExchanges(), QStringLiteral("1.2.3")))
                                .toJson(QJsonDocument::Indented);
    QJsonParseError error;
    const QJsonObject har = QJsonDocument::fromJson(text, &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonObject l = har.value(QStringLiteral("log")).toObject();
    QCOMPARE(l.value(QStringLiteral("version")).toString(), QStringLiteral("1.2"));
    QCOMPARE(l.value(QStringLiteral("creator")).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("folio"));
    QCOMPARE(l.value(QStringLiteral("creator")).toObject().value(QStringLiteral("version")).toString(),
             QStringLiteral("1.2.3"));
    const QJsonArray entries = l.value(QStringLiteral("entries")).toArray();
    QCOMPARE(entries.size(), 1);
    const QJsonObject e = entries.first().toObject();
    // HAR 1.2's required members, level by level.
    for (const char *key : {"startedDateTime", "time", "request", "response", "cache", "timings"})
        QVERIFY2(e.contains(QLatin1String(key)), key);
    QCOMPARE(e.value(QStringLiteral("startedDateTime")).toString(),
             QStringLiteral("2026-07-28T10:00:00.250Z"));
    QCOMPARE(e.value(QStringLiteral("time")).toInt(), 55);
    const QJsonObject req = e.value(QStringLiteral("request")).toObject();
    for (const char *key :
         {"method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"})
        QVERIFY2(req.contains(QLatin1String(key)), key);
    QCOMPARE(req.value(QStringLiteral("method")).toString(), QStringLiteral("POST"));
    QCOMPARE(req.value(QStringLiteral("url")).toString(),
             QStringLiteral("https://mcp.example/mcp?tenant=acme"));
    QCOMPARE(
        req.value(QStringLiteral("queryString")).toArray().first().toObject().value(QStringLiteral("value")),
        QJsonValue(QStringLiteral("acme")));
    const QJsonObject post = req.value(QStringLiteral("postData")).toObject();
    QCOMPARE(post.value(QStringLiteral("mimeType")).toString(), QStringLiteral("application/json"));
    QCOMPARE(post.value(QStringLiteral("text")).toString(),
             QStringLiteral(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"));
    const QJsonObject resp = e.value(QStringLiteral("response")).toObject();
    for (const char *key : {"status", "statusText", "httpVersion", "cookies", "headers", "content",
                            "redirectURL", "headersSize", "bodySize"})
        QVERIFY2(resp.contains(QLatin1String(key)), key);
    QCOMPARE(resp.value(QStringLiteral("status")).toInt(), 200);
    QCOMPARE(resp.value(QStringLiteral("statusText")).toString(), QStringLiteral("OK"));
    const QJsonObject content = resp.value(QStringLiteral("content")).toObject();
    for (const char *key : {"size", "mimeType"})
        QVERIFY2(content.contains(QLatin1String(key)), key);
    QVERIFY(content.value(QStringLiteral("size")).toInt() > 0);
    QVERIFY(content.value(QStringLiteral("text")).toString().contains(QLatin1String("\"tools\":[]")));
    const QJsonObject timings = e.value(QStringLiteral("timings")).toObject();
    for (const char *key : {"send", "wait", "receive"})
        QVERIFY2(timings.value(QLatin1String(key)).isDouble(), key);
    QCOMPARE(timings.value(QStringLiteral("wait")).toInt(), 40);
    QCOMPARE(timings.value(QStringLiteral("receive")).toInt(), 15);
}

void tst_TrafficExport::harMasksSecretHeaders()
{
    TrafficLog log;
    log.appendHttp(postExchange());
    const QJsonObject e = TrafficExport::toHar(log.httpExchanges(), QStringLiteral("1"))
                              .value(QStringLiteral("log"))
                              .toObject()
                              .value(QStringLiteral("entries"))
                              .toArray()
                              .first()
                              .toObject();
    const QJsonArray reqHeaders =
        e.value(QStringLiteral("request")).toObject().value(QStringLiteral("headers")).toArray();
    const QJsonObject resp = e.value(QStringLiteral("response")).toObject();
    const QJsonArray respHeaders = resp.value(QStringLiteral("headers")).toArray();
    QCOMPARE(headerValue(reqHeaders, QStringLiteral("Authorization")), QStringLiteral("[redacted]"));
    QCOMPARE(headerValue(reqHeaders, QStringLiteral("X-Api-Key")), QStringLiteral("[redacted]"));
    QCOMPARE(headerValue(reqHeaders, QStringLiteral("Cookie")), QStringLiteral("[redacted]"));
    QCOMPARE(headerValue(reqHeaders, QStringLiteral("Mcp-Session-Id")), QStringLiteral("sess-42"));
    QCOMPARE(headerValue(reqHeaders, QStringLiteral("Content-Type")), QStringLiteral("application/json"));
    QCOMPARE(headerValue(respHeaders, QStringLiteral("Set-Cookie")), QStringLiteral("[redacted]"));
    QCOMPARE(headerValue(respHeaders, QStringLiteral("X-Refresh-Token")), QStringLiteral("[redacted]"));
    const QByteArray all = QJsonDocument(e).toJson();
    for (const char *secret : {"sk-live-123456", "k-998877", "sid=abc", "sid=def", "rt-1", "at-5"})
        QVERIFY2(!all.contains(secret), secret);
}

void tst_TrafficExport::writeFileFailsPlainly()
{
    QTemporaryDir dir;
    QString error;
    const QString path = dir.filePath(QStringLiteral("t.jsonl"));
    QVERIFY(TrafficExport::writeFile(path, "{}\n", &error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("{}\n"));
    QVERIFY(!TrafficExport::writeFile(dir.filePath(QStringLiteral("missing/dir/t.jsonl")), "{}", &error));
    QVERIFY(!error.isEmpty());
}

QTEST_GUILESS_MAIN(tst_TrafficExport)
#include "tst_trafficexport.moc"
