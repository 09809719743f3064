#include "replaytransport.h"

#include "netlogging.h"

#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace folio {

using Type = SessionRecording::Event::Type;

// --- ReplayClock ---------------------------------------------------------------------------------

ReplayClock::ReplayClock(qint64 recordedAtMs, qint64 durationMs, QObject *parent)
    : QObject(parent)
    , m_recordedAtMs(recordedAtMs)
    , m_durationMs(qMax<qint64>(0, durationMs))
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (m_pace == Pace::Fast || isSeeking())
            fastStep();
        else
            runDue();
    });
    m_tick.setInterval(100);
    connect(&m_tick, &QTimer::timeout, this, [this] {
        // The end of the recording, once nothing scheduled is left: a replay's own work (painting,
        // storing rows) can take longer than the recording's did, and its last answers still come.
        if (m_pace == Pace::Recorded && m_playing && nowMs() >= m_durationMs && m_queue.empty()) {
            runDue();
            pause();
            Q_EMIT reachedEnd();
            return;
        }
        Q_EMIT advanced(nowMs());
    });
}

ReplayClock::~ReplayClock() = default;

qint64 ReplayClock::nowMs() const
{
    if (m_pace == Pace::Recorded && m_playing && !isSeeking() && m_anchor.isValid())
        return m_base + m_anchor.elapsed() * m_speed;
    return m_base;
}

void ReplayClock::setNow(qint64 t)
{
    m_base = t;
    m_anchor.start();
}

void ReplayClock::setPace(Pace pace)
{
    if (m_pace == pace)
        return;
    setNow(nowMs());
    m_pace = pace;
    if (pace == Pace::Fast)
        m_tick.stop();
    else if (m_playing)
        m_tick.start();
    rearm();
}

void ReplayClock::setSpeed(int factor)
{
    setNow(nowMs());
    m_speed = qMax(1, factor);
    rearm();
}

void ReplayClock::play()
{
    if (m_playing)
        return;
    setNow(nowMs());
    m_playing = true;
    if (m_pace == Pace::Recorded)
        m_tick.start();
    rearm();
    Q_EMIT playingChanged(true);
}

void ReplayClock::pause()
{
    if (!m_playing)
        return;
    setNow(nowMs());
    m_playing = false;
    m_tick.stop();
    rearm();
    Q_EMIT playingChanged(false);
}

void ReplayClock::seekForward(qint64 t)
{
    const qint64 now = nowMs();
    setNow(now);
    m_seekTo = qMax(now, t);
    m_idleOnce = false;
    rearm();
}

void ReplayClock::reset()
{
    m_queue.clear();
    m_seekTo = -1;
    m_idleOnce = false;
    setNow(0);
    rearm();
    Q_EMIT advanced(0);
}

void ReplayClock::callAt(qint64 t, QObject *context, std::function<void()> fn)
{
    m_queue.emplace(t, Work{context, std::move(fn)});
    m_idleOnce = false;
    rearm();
}

void ReplayClock::rearm()
{
    if (m_pace == Pace::Fast || isSeeking()) {
        m_timer.start(0);
        return;
    }
    m_timer.stop();
    if (!m_playing || m_queue.empty())
        return;
    const qint64 wait = m_queue.begin()->first - nowMs();
    m_timer.start(int(qBound<qint64>(0, (wait + m_speed - 1) / m_speed, 24LL * 3600 * 1000)));
}

bool ReplayClock::runOne(qint64 limit)
{
    if (m_queue.empty() || m_queue.begin()->first > limit)
        return false;
    Work work = std::move(m_queue.begin()->second);
    m_queue.erase(m_queue.begin());
    if (work.context)
        work.fn();
    return true;
}

void ReplayClock::runDue()
{
    // One at a time: what a piece of work schedules at the same time runs after it, in order.
    while (runOne(nowMs())) {
    }
    rearm();
}

void ReplayClock::fastStep()
{
    const qint64 limit = isSeeking() ? m_seekTo : std::numeric_limits<qint64>::max();
    if (runOne(m_base)) { // due now
        m_idleOnce = false;
        m_timer.start(0);
        return;
    }
    // Nothing due: jump to the next work only once the event loop has gone round with nothing
    // new scheduled, so that a request the last answer causes is sent before time moves on.
    if (!m_idleOnce && !m_queue.empty() && m_queue.begin()->first <= limit) {
        m_idleOnce = true;
        m_timer.start(0);
        return;
    }
    m_idleOnce = false;
    if (!m_queue.empty() && m_queue.begin()->first <= limit) {
        setNow(m_queue.begin()->first);
        Q_EMIT advanced(m_base);
        m_timer.start(0);
        return;
    }
    if (isSeeking()) { // nothing more before the seek's target: be there, and go on as before
        setNow(m_seekTo);
        m_seekTo = -1;
        if (m_pace == Pace::Recorded && m_playing)
            m_tick.start();
        Q_EMIT advanced(m_base);
        Q_EMIT seekFinished();
        rearm();
    }
}

// --- ReplayScript --------------------------------------------------------------------------------

namespace {

struct Parsed
{
    QString method;
    QJsonValue id;
    bool isResponse = false;
    QJsonObject params;
};

Parsed parse(const QByteArray &text)
{
    Parsed p;
    const QJsonObject o = QJsonDocument::fromJson(text).object();
    p.method = o.value(QStringLiteral("method")).toString();
    p.id = o.value(QStringLiteral("id"));
    p.isResponse =
        p.method.isEmpty() && (o.contains(QStringLiteral("result")) || o.contains(QStringLiteral("error")));
    p.params = o.value(QStringLiteral("params")).toObject();
    return p;
}

QString idKey(const QJsonValue &id)
{
    return id.isString() ? QStringLiteral("s:") + id.toString()
                         : QStringLiteral("n:") + QString::number(id.toDouble(), 'g', 17);
}

} // namespace

ReplayScript::ReplayScript(std::shared_ptr<const SessionRecording> recording)
    : m_recording(std::move(recording))
{
    const QList<SessionRecording::Event> &events = m_recording->events;
    QHash<QString, int> sentIds; // within the current segment: id -> send event
    for (int i = 0; i < events.size(); ++i) {
        const SessionRecording::Event &e = events.at(i);
        if (e.type == Type::Start) {
            if (!m_segments.isEmpty())
                m_segments.last().last = i - 1;
            m_segments.append(Segment{i, int(events.size()) - 1, QString::fromUtf8(e.text), {}});
            sentIds.clear();
            continue;
        }
        if (m_segments.isEmpty())
            continue; // a valid file starts with Start
        Segment &segment = m_segments.last();
        switch (e.type) {
        case Type::Send: {
            const Parsed p = parse(e.text);
            if (!p.method.isEmpty() && !p.id.isUndefined() && !p.id.isNull()) {
                sentIds.insert(idKey(p.id), i);
                m_requests[requestKey(p.method, p.params)].append(i);
                m_segmentOf.insert(i, int(m_segments.size()) - 1);
            }
            break; // notifications and our answers to the server need no answer
        }
        case Type::Receive: {
            const Parsed p = parse(e.text);
            const int sent = p.isResponse ? sentIds.value(idKey(p.id), -1) : -1;
            if (sent >= 0)
                m_answers[sent].append(i);
            else
                segment.unsolicited.append(i);
            break;
        }
        case Type::Fail: {
            const int sent = sentIds.value(idKey(e.id), -1);
            if (sent >= 0)
                m_answers[sent].append(i);
            else
                segment.unsolicited.append(i);
            break;
        }
        case Type::Start:
        case Type::Open:
        case Type::Malformed:
        case Type::Close:
        case Type::Diagnostic:
            segment.unsolicited.append(i);
            break;
        }
    }
}

int ReplayScript::takeSegment()
{
    return m_nextSegment < m_segments.size() ? m_nextSegment++ : -1;
}

QString ReplayScript::transportOf(int segment) const
{
    return segment >= 0 && segment < m_segments.size() ? m_segments.at(segment).transport : QString();
}

QList<int> ReplayScript::unsolicited(int segment) const
{
    return segment >= 0 && segment < m_segments.size() ? m_segments.at(segment).unsolicited : QList<int>();
}

QString ReplayScript::requestKey(const QString &method, const QJsonObject &params)
{
    QJsonObject p = params;
    p.remove(QStringLiteral("_meta"));
    return method + QLatin1Char('\n') + QString::fromUtf8(QJsonDocument(p).toJson(QJsonDocument::Compact));
}

int ReplayScript::takeRequest(int segment, const QString &method, const QJsonObject &params)
{
    QList<int> candidates = m_requests.value(requestKey(method, params));
    if (candidates.isEmpty() &&
        (method == QLatin1String("initialize") || method == QLatin1String("server/discover"))) {
        // A handshake says who the client is (its name, version, capabilities): one recorded by
        // another client (`folio tap`) or another Folio answers this one all the same.
        const QString prefix = method + QLatin1Char('\n');
        for (auto it = m_requests.cbegin(); it != m_requests.cend(); ++it) {
            if (it.key().startsWith(prefix))
                candidates += it.value();
        }
        std::sort(candidates.begin(), candidates.end());
    }
    int fallback = -1;
    for (int i : candidates) {
        if (m_taken.value(i))
            continue;
        if (m_segmentOf.value(i) == segment) {
            m_taken.insert(i, true);
            return i;
        }
        if (fallback < 0)
            fallback = i;
    }
    if (fallback >= 0)
        m_taken.insert(fallback, true);
    return fallback;
}

QList<int> ReplayScript::answersOf(int sendEvent) const
{
    return m_answers.value(sendEvent);
}

// --- ReplayTransport -----------------------------------------------------------------------------

ReplayTransport::ReplayTransport(std::shared_ptr<ReplayScript> script, std::shared_ptr<ReplayClock> clock,
                                 QObject *parent)
    : Transport(parent)
    , m_script(std::move(script))
    , m_clock(std::move(clock))
{
    setClock(m_clock);
    m_segment = m_script->takeSegment();
    if (const QString kind = m_script->transportOf(m_segment); !kind.isEmpty())
        m_kind = kind; // what carried it when recording
}

void ReplayTransport::open()
{
    if (m_segment < 0) {
        QTimer::singleShot(0, this, [this] {
            Q_EMIT closed(
                McpError::make(McpError::Kind::ConnectionFailed,
                               QStringLiteral("the recording holds no more connections to replay")));
        });
        return;
    }
    for (int i : m_script->unsolicited(m_segment)) {
        const SessionRecording::Event &e = m_script->event(i);
        // The recorded client's own close: this replay's client closes when it decides to.
        if (e.type == Type::Start || (e.type == Type::Close && e.byClient))
            continue;
        m_clock->callAt(m_script->event(i).t, this, [this, i] { play(i); });
    }
}

void ReplayTransport::send(const QJsonObject &message, const QByteArray &encoded)
{
    Q_UNUSED(encoded)
    const QString method = message.value(QStringLiteral("method")).toString();
    const QJsonValue id = message.value(QStringLiteral("id"));
    if (method.isEmpty() || id.isUndefined() || id.isNull())
        return; // a notification, or our answer to the server: nothing comes back
    const int sent =
        m_script->takeRequest(m_segment, method, message.value(QStringLiteral("params")).toObject());
    auto *context = new QObject(this);
    m_pending.insert(idKey(id), context);
    if (sent < 0) {
        qCInfo(lcMcp).noquote() << "replay: no recorded request" << method << "with these params";
        m_clock->callAt(m_clock->nowMs(), context, [this, id] {
            // A failed page that says why: the recording stops short of this (a list walked
            // further, or another list, than when recording).
            Q_EMIT requestFailed(id,
                                 McpError::make(McpError::Kind::Protocol,
                                                QStringLiteral("the recording holds no answer to this "
                                                               "request (it was not sent when recording)")));
        });
        return;
    }
    const qint64 sentAt = m_script->event(sent).t;
    for (int answer : m_script->answersOf(sent)) {
        const qint64 latency = m_script->event(answer).t - sentAt;
        m_clock->callAt(m_clock->nowMs() + latency, context, [this, answer, id] { play(answer, id); });
    }
}

void ReplayTransport::abandon(const QJsonValue &id)
{
    delete m_pending.take(idKey(id));
}

void ReplayTransport::close()
{
    qDeleteAll(m_pending);
    m_pending.clear();
    m_open = false;
    QTimer::singleShot(0, this, [this] {
        if (m_closed)
            return;
        m_closed = true;
        Q_EMIT closed({});
    });
}

void ReplayTransport::play(int index, const QJsonValue &id)
{
    if (m_closed)
        return;
    const SessionRecording::Event &e = m_script->event(index);
    switch (e.type) {
    case Type::Start:
        break;
    case Type::Open:
        m_open = true;
        Q_EMIT opened();
        break;
    case Type::Send:
        break;
    case Type::Receive: {
        if (id.isUndefined()) {
            handUp(e.text);
            break;
        }
        if (QObject *context = m_pending.take(idKey(id)))
            context->deleteLater();
        // The answer as recorded, under the id it is answering now (the same, unless the replay
        // asked in another order than the recording did).
        QJsonObject message = QJsonDocument::fromJson(e.text).object();
        if (message.value(QStringLiteral("id")) == id) {
            handUp(e.text);
        } else {
            message.insert(QStringLiteral("id"), id);
            handUp(QJsonDocument(message).toJson(QJsonDocument::Compact));
        }
        break;
    }
    case Type::Malformed: {
        // Said with the error recorded (a size cap, say, that the bytes kept cannot show).
        FrameOrigin origin;
        origin.reportNotJson = false;
        if (e.text.isEmpty() || !handUp(e.text, origin).json)
            Q_EMIT malformedMessage(e.text, e.error);
        break;
    }
    case Type::Fail:
        Q_EMIT requestFailed(id.isUndefined() ? e.id : id, e.error);
        break;
    case Type::Close:
        m_open = false;
        m_closed = true;
        Q_EMIT closed(e.error);
        break;
    case Type::Diagnostic:
        Q_EMIT diagnostic(QString::fromUtf8(e.text));
        break;
    }
}

} // namespace folio
