#include "trafficlog.h"

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
    QCOMPARE(redactSecrets(input, {QStringLiteral("tok-SECRET-42")}), expected);
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

QTEST_GUILESS_MAIN(tst_TrafficLog)
#include "tst_trafficlog.moc"
