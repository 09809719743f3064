#include "framepacer.h"

#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace folio {

FramePacer::FramePacer(QWidget *window, int intervalMs)
    : QObject(window)
    , m_window(window)
    , m_intervalMs(intervalMs)
{
    m_clock.start();
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &FramePacer::release);
    window->installEventFilter(this);
}

bool FramePacer::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_window || event->type() != QEvent::UpdateRequest)
        return false;
    const qint64 now = m_clock.elapsed();
    if (m_releasing || m_lastFrameMs < 0 || now - m_lastFrameMs >= m_intervalMs) {
        m_lastFrameMs = now;
        m_timer.stop();
        return false; // painted now
    }
    // Held: Qt keeps what was asked (and asks no more until this request is served); the frame
    // goes out when the interval is up.
    ++m_held;
    if (!m_timer.isActive())
        m_timer.start(int(m_intervalMs - (now - m_lastFrameMs)));
    return true;
}

void FramePacer::release()
{
    QEvent request(QEvent::UpdateRequest);
    m_releasing = true;
    QCoreApplication::sendEvent(m_window, &request);
    m_releasing = false;
}

} // namespace folio
