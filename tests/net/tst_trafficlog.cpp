#include "secretmask.h"
#include "trafficlog.h"

#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

class tst_TrafficLog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void redaction_data();
    void redaction();
    void secretsNeverStored();
    void capacityDropsOldestInBatches();
    void hugeMessageIsCut();
    void withoutTextKeepsMetadata();
    void prefilterPassesOrdinaryPages();
    void prefilterNeverHidesACredential();
};

void tst_TrafficLog::redaction_data()
{
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("expected");
    QTest::addRow("authorization_header")
        << QByteArray("Authorization: Bearer abc.def") << QByteArray("Authorization: [redacted]");
    QTest::addRow("header_case_insensitive")
        << QByteArray("authorization: Basic Zm9v") << QByteArray("authorization: [redacted]");
    QTest::addRow("cookie_header") << QByteArray("Cookie: sid=1") << QByteArray("Cookie: [redacted]");
    QTest::addRow("bearer_in_text") << QByteArray("{\"x\":\"use Bearer tok123 please\"}")
                                    << QByteArray("{\"x\":\"use Bearer [redacted] please\"}");
    QTest::addRow("json_access_token") << QByteArray("{\"access_token\":\"s3cr3t\",\"n\":1}")
                                       << QByteArray("{\"access_token\":\"[redacted]\",\"n\":1}");
    QTest::addRow("json_password_escaped")
        << QByteArray("{\"password\":\"a\\\"b\"}") << QByteArray("{\"password\":\"[redacted]\"}");
    QTest::addRow("known_secret_value")
        << QByteArray("{\"echo\":\"tok-SECRET-42\"}") << QByteArray("{\"echo\":\"[redacted]\"}");
    QTest::addRow("cursor_untouched")
        << QByteArray("{\"cursor\":\"eyJvIjo0MH0\"}") << QByteArray("{\"cursor\":\"eyJvIjo0MH0\"}");
}

void tst_TrafficLog::redaction()
{
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, expected);
    QCOMPARE(SecretMask::maskMessage(input, {QStringLiteral("tok-SECRET-42")}), expected);
}

void tst_TrafficLog::secretsNeverStored()
{
    TrafficLog log;
    log.addSecret(QStringLiteral("hunter2-token"));
    TrafficLog::Entry e;
    e.text = "{\"params\":{\"arguments\":{\"q\":\"hunter2-token\"}}}";
    log.append(e);
    log.appendDiagnostic(QStringLiteral("stderr: token is hunter2-token"));
    for (const auto &entry : log.entries())
        QVERIFY2(!entry.text.contains("hunter2-token"), entry.text.constData());
}

void tst_TrafficLog::capacityDropsOldestInBatches()
{
    TrafficLog log;
    log.setCapacity(100);
    QSignalSpy dropped(&log, &TrafficLog::entriesDropped);
    for (int i = 0; i < 101; ++i) {
        TrafficLog::Entry e;
        e.text = QByteArray::number(i);
        log.append(e);
    }
    QCOMPARE(dropped.size(), 1);
    QVERIFY(log.entries().size() <= 91);
    QCOMPARE(log.entries().last().text, QByteArray("100"));
    QCOMPARE(log.entries().last().sequence, 101);
}

void tst_TrafficLog::hugeMessageIsCut()
{
    TrafficLog log;
    TrafficLog::Entry e;
    e.text = QByteArray(TrafficLog::maxEntryBytes + 10, 'a');
    e.bytes = e.text.size();
    e.direction = TrafficLog::Direction::Incoming;
    log.append(e);
    QVERIFY(log.entries().first().truncated);
    QCOMPARE(log.entries().first().text.size(), TrafficLog::maxEntryBytes);
    QCOMPARE(log.totalBytesIn(), TrafficLog::maxEntryBytes + 10);
}

void tst_TrafficLog::withoutTextKeepsMetadata()
{
    TrafficLog log;
    log.setKeepText(false);
    QSignalSpy appended(&log, &TrafficLog::entryAppended);
    TrafficLog::Entry e;
    e.text = R"({"jsonrpc":"2.0","id":3,"result":{}})";
    e.bytes = e.text.size();
    e.direction = TrafficLog::Direction::Incoming;
    e.method = QStringLiteral("tools/list");
    e.latencyMs = 4;
    log.append(e);
    QCOMPARE(appended.size(), 1);
    QCOMPARE(log.entries().size(), 1);
    QVERIFY(log.entries().first().text.isEmpty());
    QCOMPARE(log.entries().first().method, QStringLiteral("tools/list"));
    QCOMPARE(log.entries().first().latencyMs, 4);
    QCOMPARE(log.totalBytesIn(), e.bytes);
    // Diagnostics are lines, not messages: they keep their text.
    log.appendDiagnostic(QStringLiteral("server exited"));
    QCOMPARE(log.entries().last().text, QByteArray("server exited"));
}

void tst_TrafficLog::prefilterPassesOrdinaryPages()
{
    // Words of the patterns, outside the places the patterns look for them.
    for (const QByteArray &text :
         {QByteArray(R"({"name":"regenerate_webhook_token","title":"Regenerate webhook token"})"),
          QByteArray(R"({"description":"Pass the page token and a password-free cookie recipe"})"),
          QByteArray(R"({"text":"Bearers of news","tokens":3,"x":"Authorization pending"})"),
          QByteArray("{\"text\":\"caf\xc3\xa9 \xe2\x80\xa6 token\"}")}) {
        QVERIFY2(!SecretMask::mayCarryCredentials(text), text.constData());
        QCOMPARE(SecretMask::maskMessage(text, {}), text);
    }
    for (const QByteArray &text : {QByteArray(R"({"Token":"x"})"), QByteArray("GET /\r\nCookie : a=1"),
                                   QByteArray("(bearer\tq)"), QByteArray("Proxy-Authorization:\n Basic x"),
                                   QByteArray("{\"to\xe2\x84\xaa"
                                              "en\":\"x\"}")})
        QVERIFY2(SecretMask::mayCarryCredentials(text), text.constData());
}

// Whatever the scan lets through, the regular expressions find nothing in: random texts made
// of the patterns' words, their neighbours and near misses.
void tst_TrafficLog::prefilterNeverHidesACredential()
{
    const QList<QByteArray> parts{"authorization",
                                  "AUTHORIZATION",
                                  "cookie",
                                  "set-cookie",
                                  "api-key",
                                  "x-api-key",
                                  "api_key",
                                  "apikey",
                                  "token",
                                  "access_token",
                                  "refresh_token",
                                  "id_token",
                                  "client_secret",
                                  "password",
                                  "bearer",
                                  "Bearer",
                                  "proxy-",
                                  "\"",
                                  "\"",
                                  ":",
                                  " : ",
                                  " ",
                                  "\t",
                                  "\n",
                                  "\r\n",
                                  "-",
                                  "_",
                                  "x",
                                  "abc",
                                  "q1",
                                  "{",
                                  "}",
                                  ",",
                                  "\\",
                                  "\xc3\xa9",
                                  "\xe2\x84\xaa",
                                  "\xc5\xbf",
                                  "to",
                                  "ken",
                                  "coo",
                                  "kie",
                                  "=",
                                  "/",
                                  "."};
    QRandomGenerator rng(20261130);
    int flagged = 0;
    for (int i = 0; i < 20000; ++i) {
        QByteArray text;
        const int n = 1 + int(rng.bounded(8));
        for (int k = 0; k < n; ++k)
            text += parts.at(int(rng.bounded(parts.size())));
        if (SecretMask::mayCarryCredentials(text))
            ++flagged;
        else
            QVERIFY2(SecretMask::maskCredentials(text) == text, text.constData());
    }
    QVERIFY(flagged > 1000); // the texts do reach the patterns
}

QTEST_GUILESS_MAIN(tst_TrafficLog)
#include "tst_trafficlog.moc"
