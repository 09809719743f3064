#include "ttlclock.h"

#include "mcpclient.h"
#include "replaytransport.h"

#include <QElapsedTimer>
#include <QtNumeric>

#include <cmath>
#include <limits>

namespace folio {

namespace {

qint64 monotonicNowMs()
{
    QElapsedTimer timer;
    timer.start();
    return timer.msecsSinceReference();
}

} // namespace

TtlClock::TtlClock(QObject *parent)
    : QObject(parent)
    , m_timer(this)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &TtlClock::processDue);
}

TtlClock::~TtlClock() = default;

void TtlClock::setTimeSource(TimeSource source)
{
    m_timeSource = std::move(source);
    m_armedForMs = -1;
    rearm();
}

void TtlClock::followReplay(const McpClient *client)
{
    const std::shared_ptr<ReplayClock> replay = client ? client->replayClock() : nullptr;
    if (!replay)
        return;
    setTimeSource([replay] { return replay->nowMs(); });
    connect(replay.get(), &ReplayClock::advanced, this, &TtlClock::processDue);
}

qint64 TtlClock::nowMs() const
{
    return m_timeSource ? m_timeSource() : monotonicNowMs();
}

void TtlClock::schedule(quint64 key, qint64 expiresAtMs)
{
    const auto found = m_index.find(key);
    if (found != m_index.end()) {
        if (found.value()->first == expiresAtMs)
            return;
        m_queue.erase(found.value());
        found.value() = m_queue.emplace(expiresAtMs, key);
    } else {
        m_index.insert(key, m_queue.emplace(expiresAtMs, key));
    }
    rearm();
}

void TtlClock::unschedule(quint64 key)
{
    const auto found = m_index.find(key);
    if (found == m_index.end())
        return;
    m_queue.erase(found.value());
    m_index.erase(found);
    rearm();
}

void TtlClock::clear()
{
    m_queue.clear();
    m_index.clear();
    rearm();
}

qint64 TtlClock::deadlineMs(quint64 key) const
{
    const auto found = m_index.constFind(key);
    return found == m_index.constEnd() ? -1 : found.value()->first;
}

qint64 TtlClock::nextDeadlineMs() const
{
    return m_queue.empty() ? -1 : m_queue.begin()->first;
}

void TtlClock::processDue()
{
    const qint64 now = nowMs();
    QList<quint64> due;
    auto it = m_queue.begin();
    while (it != m_queue.end() && it->first <= now) {
        due.append(it->second);
        m_index.remove(it->second);
        it = m_queue.erase(it);
    }
    // Re-arm before telling anyone, so that handlers that schedule or unschedule find a consistent clock.
    m_armedForMs = -1;
    rearm();
    if (!due.isEmpty())
        Q_EMIT expired(due);
}

// Keeps the single timer armed for the earliest deadline, or stopped when nothing counts down. Only
// an earlier deadline (or none) moves the timer; a later one leaves it alone.
void TtlClock::rearm()
{
    if (m_queue.empty()) {
        m_timer.stop();
        m_armedForMs = -1;
        return;
    }
    const qint64 next = m_queue.begin()->first;
    if (m_timer.isActive() && next == m_armedForMs)
        return;
    qint64 remaining = 0;
    if (qSubOverflow(next, nowMs(), &remaining))
        remaining = next > 0 ? MaxTimerIntervalMs : 0;
    remaining = qBound<qint64>(0, remaining, MaxTimerIntervalMs);
    m_armedForMs = next;
    m_timer.start(int(remaining));
}

qint64 TtlClock::effectiveTtlMs(const QJsonValue &ttlMsAsReceived)
{
    if (!ttlMsAsReceived.isDouble())
        return 0;
    const double value = ttlMsAsReceived.toDouble();
    if (std::isnan(value) || value <= 0)
        return 0;
    const qint64 integer = ttlMsAsReceived.toInteger(-1);
    if (integer >= 0)
        return integer;
    // 2^63 as a double; anything at or past it does not fit.
    if (value >= 9223372036854775808.0)
        return std::numeric_limits<qint64>::max();
    return qint64(std::floor(value));
}

bool TtlClock::isValidTtl(const QJsonValue &ttlMsAsReceived)
{
    if (!ttlMsAsReceived.isDouble())
        return false;
    const double value = ttlMsAsReceived.toDouble();
    return std::isfinite(value) && value >= 0 && std::floor(value) == value;
}

qint64 TtlClock::deadlineFor(qint64 receivedAtMs, qint64 ttlMs)
{
    qint64 deadline = 0;
    if (qAddOverflow(receivedAtMs, qMax<qint64>(0, ttlMs), &deadline))
        return std::numeric_limits<qint64>::max();
    return deadline;
}

} // namespace folio
