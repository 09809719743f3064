#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class QWidget;

namespace folio {

// Paints a window at most once per interval (16 ms: 60 frames a second).
//
// Qt paints a widget window once per event-loop turn in which something asked for it. A list
// walked page by page asks on every page (a row count, a chip, a lane, the summary), so a thousand
// pages were a thousand frames, and painting, not the walk, set the walk's pace: Load all of
// 100,000 items took 14 times as long in the window as on the command line. Compositors pace a
// window's frames to the display; this does the same on every platform: an update request that
// comes sooner than the interval after the last frame is held, and sent when the interval is up,
// with everything asked meanwhile painted in that one frame. A lone request after a quiet spell
// goes at once, and expose events (a window shown or uncovered) are never held. A repaint() within
// the interval is held like any request (Qt serves it with the same event): it is painted at most
// one interval later, never lost.
class FramePacer : public QObject
{
    Q_OBJECT
public:
    explicit FramePacer(QWidget *window, int intervalMs = 16);

    int intervalMs() const { return m_intervalMs; }
    // Update requests held so far (for tests and curiosity).
    int heldCount() const { return m_held; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void release();

    QWidget *m_window;
    int m_intervalMs;
    QElapsedTimer m_clock;
    qint64 m_lastFrameMs = -1;
    QTimer m_timer;
    bool m_releasing = false;
    int m_held = 0;
};

} // namespace folio
