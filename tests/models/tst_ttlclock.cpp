#include "ttlclock.h"

#include <QJsonObject>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <limits>

using namespace folio;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(QList<quint64>)

namespace {

constexpr qint64 Max = std::numeric_limits<qint64>::max();
constexpr qint64 Min = std::numeric_limits<qint64>::min();

QTimer *timerOf(TtlClock &clock)
{
    return clock.findChild<QTimer *>();
}

} // namespace

class tst_TtlClock : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void scenario_data();
    void scenario();
    void past_deadline_fires_async();
    void real_clock_never_fires_early();
    void handlers_may_reschedule();
    void ten_thousand_keys();
    void effectiveTtl_data();
    void effectiveTtl();
    void deadlineFor();

private:
    qint64 m_now = 0;
};

void tst_TtlClock::init()
{
    m_now = 0;
}

// Each step is one of:
//   now T            set the fake clock
//   schedule K T     schedule key K to expire at T
//   unschedule K | clear
//   advance D        move the fake clock by D, then processDue()
//   expect K,K | -   the last advance emitted expired() once with these keys, or not at all
//   next T | count N the earliest deadline (-1 for none), the number of keys scheduled
//   timer MS | idle  the one timer is armed for MS from now, or stopped
void tst_TtlClock::scenario_data()
{
    QTest::addColumn<QStringList>("steps");

    QTest::newRow("expires_exactly_at_deadline")
        << QStringList{u"schedule 1 1000"_s, u"advance 999"_s, u"expect -"_s, u"count 1"_s,
                       u"advance 1"_s,       u"expect 1"_s,    u"count 0"_s,  u"timer idle"_s};
    QTest::newRow("earlier_deadline_rearms")
        << QStringList{u"schedule 1 5000"_s, u"timer 5000"_s, u"schedule 2 100"_s, u"timer 100"_s,
                       u"advance 100"_s,     u"expect 2"_s,   u"timer 4900"_s};
    QTest::newRow("later_deadline_keeps_timer")
        << QStringList{u"schedule 1 100"_s, u"schedule 2 5000"_s, u"timer 100"_s, u"next 100"_s};
    QTest::newRow("idle_when_empty") << QStringList{
        u"timer idle"_s, u"next -1"_s,       u"schedule 1 100"_s, u"timer 100"_s, u"unschedule 1"_s,
        u"timer idle"_s, u"schedule 2 50"_s, u"schedule 3 60"_s,  u"clear"_s,     u"timer idle"_s,
        u"count 0"_s,    u"advance 1000"_s,  u"expect -"_s};
    QTest::newRow("idle_after_last_expiry")
        << QStringList{u"schedule 1 10"_s, u"advance 10"_s, u"expect 1"_s, u"timer idle"_s};
    QTest::newRow("batch_same_deadline") << QStringList{
        u"schedule 3 100"_s, u"schedule 1 100"_s, u"schedule 2 100"_s, u"advance 100"_s, u"expect 3,1,2"_s};
    QTest::newRow("batch_in_deadline_order")
        << QStringList{u"schedule 1 300"_s, u"schedule 2 100"_s, u"schedule 3 200"_s, u"schedule 4 900"_s,
                       u"advance 500"_s,    u"expect 2,3,1"_s,   u"count 1"_s,        u"timer 400"_s};
    QTest::newRow("reschedule_key") << QStringList{u"schedule 1 100"_s, u"schedule 1 500"_s, u"count 1"_s,
                                                   u"next 500"_s,       u"timer 500"_s,      u"advance 100"_s,
                                                   u"expect -"_s,       u"advance 400"_s,    u"expect 1"_s};
    QTest::newRow("reschedule_key_earlier") << QStringList{u"schedule 1 500"_s, u"schedule 1 100"_s,
                                                           u"timer 100"_s, u"advance 100"_s, u"expect 1"_s};
    QTest::newRow("unschedule_first_moves_timer_later")
        << QStringList{u"schedule 1 100"_s, u"schedule 2 200"_s, u"unschedule 1"_s, u"next 200"_s,
                       u"timer 200"_s,      u"advance 200"_s,    u"expect 2"_s};
    QTest::newRow("unschedule_unknown_key_is_harmless")
        << QStringList{u"schedule 1 100"_s, u"unschedule 7"_s, u"count 1"_s, u"timer 100"_s};
    QTest::newRow("far_future_deadline_clamps_interval") << QStringList{
        u"schedule 1 1000000000000"_s, u"timer 86400000"_s,    u"advance 86400000"_s, u"expect -"_s,
        u"timer 86400000"_s,           u"next 1000000000000"_s};
    QTest::newRow("largest_deadline") << QStringList{u"now -5000"_s, u"schedule 1 9223372036854775807"_s,
                                                     u"timer 86400000"_s, u"count 1"_s};
    QTest::newRow("smallest_deadline") << QStringList{u"now 1000"_s, u"schedule 1 -9223372036854775808"_s,
                                                      u"timer 0"_s, u"advance 0"_s, u"expect 1"_s};
    QTest::newRow("past_deadline_arms_zero_timer")
        << QStringList{u"now 1000"_s, u"schedule 1 500"_s, u"timer 0"_s, u"count 1"_s};
}

void tst_TtlClock::scenario()
{
    QFETCH(QStringList, steps);

    TtlClock clock;
    clock.setTimeSource([this] { return m_now; });
    QSignalSpy spy(&clock, &TtlClock::expired);
    for (const QString &step : std::as_const(steps)) {
        const QStringList words = step.split(QLatin1Char(' '));
        const QString &op = words.at(0);
        const QString arg = words.value(1);
        if (op == u"now"_s) {
            m_now = arg.toLongLong();
        } else if (op == u"schedule"_s) {
            clock.schedule(arg.toULongLong(), words.at(2).toLongLong());
        } else if (op == u"unschedule"_s) {
            clock.unschedule(arg.toULongLong());
        } else if (op == u"clear"_s) {
            clock.clear();
        } else if (op == u"advance"_s) {
            spy.clear();
            m_now += arg.toLongLong();
            clock.processDue();
        } else if (op == u"expect"_s) {
            if (arg == u"-"_s) {
                QVERIFY2(spy.isEmpty(), qPrintable(step));
            } else {
                QList<quint64> keys;
                for (const QString &key : arg.split(QLatin1Char(',')))
                    keys.append(key.toULongLong());
                QCOMPARE(spy.size(), 1);
                QCOMPARE(spy.at(0).at(0).value<QList<quint64>>(), keys);
            }
        } else if (op == u"next"_s) {
            QCOMPARE(clock.nextDeadlineMs(), arg.toLongLong());
        } else if (op == u"count"_s) {
            QCOMPARE(clock.scheduledCount(), arg.toInt());
        } else if (op == u"timer"_s) {
            if (arg == u"idle"_s) {
                QVERIFY2(!timerOf(clock)->isActive(), qPrintable(step));
            } else {
                QVERIFY2(timerOf(clock)->isActive(), qPrintable(step));
                QCOMPARE(timerOf(clock)->interval(), arg.toInt());
            }
        } else {
            QFAIL(qPrintable(u"unknown step: "_s + step));
        }
    }
}

void tst_TtlClock::past_deadline_fires_async()
{
    m_now = 1000;
    TtlClock clock;
    clock.setTimeSource([this] { return m_now; });
    QSignalSpy spy(&clock, &TtlClock::expired);

    clock.schedule(1, 500);
    clock.schedule(2, 1000);
    QCOMPARE(spy.size(), 0); // never inside schedule()
    QTRY_COMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).value<QList<quint64>>(), (QList<quint64>{1, 2}));
    QCOMPARE(clock.scheduledCount(), 0);
    QVERIFY(!timerOf(clock)->isActive());
}

void tst_TtlClock::real_clock_never_fires_early()
{
    TtlClock clock;
    QList<qint64> firedAt;
    connect(&clock, &TtlClock::expired, this, [&clock, &firedAt] { firedAt.append(clock.nowMs()); });

    const qint64 deadline = clock.nowMs() + 30;
    clock.schedule(7, deadline);
    QTRY_COMPARE(firedAt.size(), 1);
    QVERIFY2(firedAt.constFirst() >= deadline,
             qPrintable(u"fired %1 ms early"_s.arg(deadline - firedAt.constFirst())));
    QVERIFY(!timerOf(clock)->isActive());
}

void tst_TtlClock::handlers_may_reschedule()
{
    TtlClock clock;
    clock.setTimeSource([this] { return m_now; });
    int calls = 0;
    connect(&clock, &TtlClock::expired, this, [&](const QList<quint64> &keys) {
        ++calls;
        for (quint64 key : keys)
            clock.schedule(key, m_now + 100); // as an auto-refetch would
        clock.unschedule(2);
    });
    clock.schedule(1, 10);
    clock.schedule(2, 50);
    m_now = 10;
    clock.processDue();
    QCOMPARE(calls, 1);
    QCOMPARE(clock.scheduledCount(), 1);
    QCOMPARE(clock.deadlineMs(1), 110);
    QCOMPARE(clock.deadlineMs(2), -1);
    QCOMPARE(timerOf(clock)->interval(), 100);
}

void tst_TtlClock::ten_thousand_keys()
{
    constexpr int Keys = 10'000;
    TtlClock clock;
    clock.setTimeSource([this] { return m_now; });
    QList<quint64> emitted;
    connect(&clock, &TtlClock::expired, this,
            [&emitted](const QList<quint64> &keys) { emitted.append(keys); });

    QRandomGenerator random(4242);
    QHash<quint64, qint64> deadlines;
    for (quint64 key = 0; key < Keys; ++key) {
        const qint64 deadline = 1 + random.bounded(0, 60'000); // many share a millisecond
        deadlines.insert(key, deadline);
        clock.schedule(key, deadline);
    }
    for (quint64 key = 0; key < Keys; key += 2) { // half of them move
        const qint64 deadline = 1 + random.bounded(0, 60'000);
        deadlines.insert(key, deadline);
        clock.schedule(key, deadline);
    }
    for (quint64 key = 1; key < Keys; key += 4) { // a quarter go away
        deadlines.remove(key);
        clock.unschedule(key);
    }
    QCOMPARE(clock.scheduledCount(), int(deadlines.size()));
    QCOMPARE(clock.nextDeadlineMs(), *std::min_element(deadlines.cbegin(), deadlines.cend()));

    for (int step = 0; step < 700; ++step) {
        m_now += 100;
        clock.processDue();
    }
    QCOMPARE(clock.scheduledCount(), 0);
    QVERIFY(!timerOf(clock)->isActive());
    QCOMPARE(emitted.size(), deadlines.size());
    QSet<quint64> seen;
    for (qsizetype i = 0; i < emitted.size(); ++i) {
        QVERIFY(deadlines.contains(emitted.at(i)));
        QVERIFY(!seen.contains(emitted.at(i)));
        seen.insert(emitted.at(i));
        if (i > 0)
            QVERIFY(deadlines.value(emitted.at(i - 1)) <= deadlines.value(emitted.at(i)));
    }
}

void tst_TtlClock::effectiveTtl_data()
{
    QTest::addColumn<QJsonValue>("received");
    QTest::addColumn<qint64>("effective");
    QTest::addColumn<bool>("valid");

    QTest::newRow("absent_is_zero") << QJsonValue(QJsonValue::Undefined) << qint64(0) << false;
    QTest::newRow("null_is_zero") << QJsonValue(QJsonValue::Null) << qint64(0) << false;
    QTest::newRow("string_is_zero") << QJsonValue(u"60000"_s) << qint64(0) << false;
    QTest::newRow("bool_is_zero") << QJsonValue(true) << qint64(0) << false;
    QTest::newRow("object_is_zero") << QJsonValue(QJsonObject()) << qint64(0) << false;
    QTest::newRow("negative_is_zero") << QJsonValue(-5) << qint64(0) << false;
    QTest::newRow("negative_fraction_is_zero") << QJsonValue(-0.5) << qint64(0) << false;
    QTest::newRow("zero") << QJsonValue(0) << qint64(0) << true;
    QTest::newRow("integer") << QJsonValue(60000) << qint64(60000) << true;
    QTest::newRow("integer_as_double") << QJsonValue(60000.0) << qint64(60000) << true;
    QTest::newRow("fraction_is_floored") << QJsonValue(1500.7) << qint64(1500) << false;
    QTest::newRow("fraction_below_one_is_zero") << QJsonValue(0.5) << qint64(0) << false;
    QTest::newRow("large_integer") << QJsonValue(qint64(1) << 53) << (qint64(1) << 53) << true;
    QTest::newRow("huge_saturates") << QJsonValue(1e20) << Max << true;
    QTest::newRow("nan_is_zero") << QJsonValue(qQNaN()) << qint64(0) << false;
    QTest::newRow("infinity_saturates") << QJsonValue(qInf()) << Max << false;
}

void tst_TtlClock::effectiveTtl()
{
    QFETCH(QJsonValue, received);
    QFETCH(qint64, effective);
    QFETCH(bool, valid);

    QCOMPARE(TtlClock::effectiveTtlMs(received), effective);
    QCOMPARE(TtlClock::isValidTtl(received), valid);
}

void tst_TtlClock::deadlineFor()
{
    QCOMPARE(TtlClock::deadlineFor(1000, 500), qint64(1500));
    QCOMPARE(TtlClock::deadlineFor(1000, 0), qint64(1000));
    QCOMPARE(TtlClock::deadlineFor(1000, -5), qint64(1000));
    QCOMPARE(TtlClock::deadlineFor(1000, Max), Max);
    QCOMPARE(TtlClock::deadlineFor(Min, Max), qint64(-1));
}

QTEST_GUILESS_MAIN(tst_TtlClock)
#include "tst_ttlclock.moc"
