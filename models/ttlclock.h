#pragma once

#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>

namespace folio {

class McpClient;

// Pages go stale exactly at their own expiry (2026-07-28 caching rules); one timer armed for the
// earliest deadline serves every page, and nothing wakes up while nothing counts down.
class TtlClock : public QObject
{
    Q_OBJECT

public:
    using TimeSource = std::function<qint64()>;

    // The longest single timer interval; later deadlines are reached by re-arming.
    static constexpr qint64 MaxTimerIntervalMs = 24LL * 60 * 60 * 1000;

    explicit TtlClock(QObject *parent = nullptr);
    ~TtlClock() override;

    // Monotonic milliseconds; the default source is QElapsedTimer's clock, shared by every TtlClock.
    // An empty function restores the default. Tests inject a fake and call processDue().
    void setTimeSource(TimeSource source);
    qint64 nowMs() const;
    // A replayed client's pages count down on the recording's time (its ReplayClock), which may
    // run fast, ×4 or not at all: this clock then reads it, and looks for due pages whenever it
    // moves. A live client leaves the clock as it is.
    void followReplay(const McpClient *client);

    // (Re)schedules key to expire at expiresAtMs (on the nowMs() clock). A deadline already passed
    // fires on a later turn of the event loop, never inside schedule().
    void schedule(quint64 key, qint64 expiresAtMs);
    // A key no other user of this clock has: every model that shares the clock takes its keys here.
    quint64 allocateKey() { return m_nextKey++; }
    void unschedule(quint64 key);
    void clear();

    bool isScheduled(quint64 key) const { return m_index.contains(key); }
    qint64 deadlineMs(quint64 key) const; // -1 when not scheduled
    qint64 nextDeadlineMs() const;        // -1 when nothing is scheduled
    int scheduledCount() const { return int(m_index.size()); }

    // Emits expired() for every key whose deadline is <= nowMs(); the timer calls it, tests too.
    void processDue();

    // ttlMs as received -> milliseconds to keep a page fresh. Absent, null, not a number, negative or
    // NaN -> 0 (stale at once, as the caching rules say). A fraction is floored: a part of a millisecond
    // cannot be honoured, and rounding down never keeps a page fresh longer than the server allowed.
    // A value past qint64 saturates; the scheduling copes with any deadline.
    static qint64 effectiveTtlMs(const QJsonValue &ttlMsAsReceived);
    // What the schema allows: a number that is an integer >= 0.
    static bool isValidTtl(const QJsonValue &ttlMsAsReceived);
    // receivedAtMs + ttlMs without overflow (saturates at the largest qint64).
    static qint64 deadlineFor(qint64 receivedAtMs, qint64 ttlMs);

Q_SIGNALS:
    // Emitted once per processDue() that finds keys due, with all of them in deadline order (ties in
    // the order they were scheduled). The keys are no longer scheduled when this is emitted.
    void expired(const QList<quint64> &keys);

private:
    using Queue = std::multimap<qint64, quint64>;

    void rearm();

    Queue m_queue;
    QHash<quint64, Queue::iterator> m_index;
    TimeSource m_timeSource;
    QTimer m_timer;
    qint64 m_armedForMs = -1;
    quint64 m_nextKey = 1;
};

} // namespace folio
