#pragma once

#include "clock.h"
#include "sessionrecording.h"
#include "transport.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>

namespace folio {

// A recording's time: milliseconds since the recording began, moving at the recorded pace (×1,
// ×4, paused) or as fast as the replay can go. Its wall clock is the recorded one. Work is
// scheduled on it at recorded times (callAt); at the fast pace time jumps to the next piece of
// work once the event loop has nothing else to do, so a replay that waited 30 s for a slow page
// takes no time, and yet each answer comes after the request it answers.
class ReplayClock : public QObject, public Clock
{
    Q_OBJECT
public:
    enum class Pace { Fast, Recorded };

    ReplayClock(qint64 recordedAtMs, qint64 durationMs, QObject *parent = nullptr);
    ~ReplayClock() override;

    qint64 wallMs() const override { return m_recordedAtMs + nowMs(); }
    qint64 monoMs() const override { return nowMs(); }
    qint64 nowMs() const;
    qint64 durationMs() const { return m_durationMs; }
    qint64 recordedAtMs() const { return m_recordedAtMs; }

    Pace pace() const { return m_pace; }
    void setPace(Pace pace);
    // At the recorded pace: 1 or 4 (any factor >= 1 works).
    int speed() const { return m_speed; }
    void setSpeed(int factor);
    // At the recorded pace, time moves while playing and stops at the end of the recording (once
    // the work scheduled before it has run).
    bool isPlaying() const { return m_playing; }
    void play();
    void pause();
    bool isSeeking() const { return m_seekTo >= 0; }
    // Moves time forward to t as fast as the work scheduled allows (never back: a replay starts
    // again to go back), then goes on at the pace it had.
    void seekForward(qint64 t);
    // Back to 0 with nothing scheduled; paused or playing as before.
    void reset();

    // Runs fn when time reaches t (at once, on a later turn of the event loop, when it has), unless
    // context is gone by then. Work at the same time runs in the order it was scheduled.
    void callAt(qint64 t, QObject *context, std::function<void()> fn);
    int scheduledCount() const { return int(m_queue.size()); }

Q_SIGNALS:
    // Time moved: every 100 ms while playing, and after every jump.
    void advanced(qint64 nowMs);
    void playingChanged(bool playing);
    void seekFinished();
    void reachedEnd();

private:
    struct Work
    {
        QPointer<QObject> context;
        std::function<void()> fn;
    };
    void setNow(qint64 t);
    void rearm();
    void runDue();
    void fastStep();
    bool runOne(qint64 limit);

    qint64 m_recordedAtMs;
    qint64 m_durationMs;
    Pace m_pace = Pace::Fast;
    int m_speed = 1;
    bool m_playing = false;
    qint64 m_base = 0; // the time when m_anchor started (or the time, when not moving)
    QElapsedTimer m_anchor;
    qint64 m_seekTo = -1;
    Pace m_paceBeforeSeek = Pace::Fast;
    bool m_idleOnce = false;
    std::multimap<qint64, Work> m_queue;
    QTimer m_timer; // the next due work at the recorded pace; fast steps at the fast pace
    QTimer m_tick;  // advanced() while playing
};

// A recording as a replay walks through it: which recorded request each request sent now is, and
// what answered it. The same for every transport one replayed connection makes (a Streamable
// HTTP refusal, then HTTP+SSE): a transport takes the next recorded transport's events.
class ReplayScript
{
public:
    explicit ReplayScript(std::shared_ptr<const SessionRecording> recording);

    const SessionRecording &recording() const { return *m_recording; }
    const SessionRecording::Event &event(int i) const { return m_recording->events.at(i); }

    // The next recorded transport (its Start event's segment), or -1 when there is none.
    int takeSegment();
    // What carried a segment when recording ("stdio", "streamable-http", "http+sse").
    QString transportOf(int segment) const;
    // The events of a segment that come at their own recorded time: opening, closing,
    // notifications and requests from the server, stderr, messages answering no recorded request.
    QList<int> unsolicited(int segment) const;
    // The first recorded request not replayed yet with this method and these params (_meta and
    // the id aside): its Send event, or -1. Preferring the given segment's.
    int takeRequest(int segment, const QString &method, const QJsonObject &params);
    // The events that answered the request recorded as this Send event: its response, or its failure.
    QList<int> answersOf(int sendEvent) const;

    static QString requestKey(const QString &method, const QJsonObject &params);

private:
    struct Segment
    {
        int first = 0, last = -1; // event indexes
        QString transport;
        QList<int> unsolicited;
    };
    std::shared_ptr<const SessionRecording> m_recording;
    QList<Segment> m_segments;
    QHash<int, QList<int>> m_answers;      // send event -> its answers
    QHash<QString, QList<int>> m_requests; // key -> send events, in order
    QHash<int, int> m_segmentOf;           // send event -> its segment
    QHash<int, bool> m_taken;              // send events replayed
    int m_nextSegment = 0;
};

// A transport that plays a recording back: each request is answered as it was recorded, after the
// latency it had; what came unasked comes at its recorded time. A request the recording does not
// hold fails, saying so. Nothing is spawned, nothing touches the network.
class ReplayTransport : public Transport
{
    Q_OBJECT
public:
    ReplayTransport(std::shared_ptr<ReplayScript> script, std::shared_ptr<ReplayClock> clock,
                    QObject *parent = nullptr);

    void open() override;
    void send(const QJsonObject &message, const QByteArray &encoded) override;
    void close() override;
    bool isOpen() const override { return m_open; }
    QString kindName() const override { return m_kind; }
    void abandon(const QJsonValue &id) override;

private:
    void play(int event, const QJsonValue &id = {});

    std::shared_ptr<ReplayScript> m_script;
    std::shared_ptr<ReplayClock> m_clock;
    int m_segment = -1;
    bool m_open = false;
    bool m_closed = false;
    QString m_kind = QStringLiteral("replay");
    QHash<QString, QObject *> m_pending; // a request's id -> the context its answers run in
};

} // namespace folio
