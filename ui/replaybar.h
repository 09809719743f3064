#pragma once

#include <QFrame>
#include <QPointer>

class QLabel;
class QSlider;
class QToolButton;

namespace folio {

class ElidedLabel;
class ServerSession;

// Above a replayed session's lists: says plainly that this is a replay (of what, recorded when,
// what was left out) and drives its clock: play or pause, ×1 or ×4, and a scrub bar over the
// recording's time.
class ReplayBar : public QFrame
{
    Q_OBJECT
public:
    explicit ReplayBar(ServerSession *session, QWidget *parent = nullptr);

    QToolButton *playButton() const { return m_play; }
    QToolButton *fastButton() const { return m_fast; }
    QSlider *slider() const { return m_slider; }
    QString timeText() const;
    QString bannerText() const;
    // Where the scrub bar sends the replay (what releasing the slider at t does).
    void seek(qint64 t);
    void togglePlaying();

    static QString clockText(qint64 ms);

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void refresh();

    QPointer<ServerSession> m_session;
    QLabel *m_icon;
    ElidedLabel *m_banner;
    QToolButton *m_play;
    QToolButton *m_fast;
    QSlider *m_slider;
    QLabel *m_time;
    bool m_dragging = false;
};

} // namespace folio
