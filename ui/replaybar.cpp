#include "replaybar.h"

#include "elidedlabel.h"
#include "replaytransport.h"
#include "serversession.h"
#include "sessionrecording.h"

#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

namespace folio {

ReplayBar::ReplayBar(ServerSession *session, QWidget *parent)
    : QFrame(parent)
    , m_session(session)
    , m_icon(new QLabel(this))
    , m_banner(new ElidedLabel(this))
    , m_play(new QToolButton(this))
    , m_fast(new QToolButton(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_time(new QLabel(this))
{
    setObjectName(QStringLiteral("replayBar"));
    setFrameShape(QFrame::NoFrame);
    setAccessibleName(tr("Replay"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 8, 4);
    row->setSpacing(6);
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MediaPlay).pixmap(16, 16));
    row->addWidget(m_icon);
    row->addWidget(m_banner, 1);
    m_play->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_play->setAutoRaise(true);
    row->addWidget(m_play);
    m_fast->setText(tr("×4"));
    m_fast->setCheckable(true);
    m_fast->setAutoRaise(true);
    m_fast->setToolTip(tr("Replay four times as fast as it was recorded"));
    row->addWidget(m_fast);
    m_slider->setAccessibleName(tr("Replay position"));
    m_slider->setMinimumWidth(120);
    row->addWidget(m_slider, 1);
    m_time->setAccessibleName(tr("Replay time"));
    row->addWidget(m_time);

    const auto clock = session->replayClock();
    const auto rec = session->replayRecording();
    if (!clock || !rec) {
        m_banner->setText(tr("Replay: %1").arg(session->client()->replayError()));
        m_play->setEnabled(false);
        m_fast->setEnabled(false);
        m_slider->setEnabled(false);
        return;
    }
    const QString when =
        QLocale().toString(QDateTime::fromMSecsSinceEpoch(rec->recordedAtMs), QLocale::ShortFormat);
    m_banner->setText(tr("Replay of %1, recorded %2 · no server is contacted").arg(rec->name, when));
    QString tip = tr("A recorded session, replayed from %1: every answer is the recorded one, at "
                     "the recorded time.")
                      .arg(session->config().replayFile);
    if (!rec->stripped.isEmpty())
        tip += QStringLiteral("\n\n") +
               tr("Left out when recording: %1.").arg(rec->stripped.join(QStringLiteral("; ")));
    if (rec->cut)
        tip += QStringLiteral("\n\n") + tr("The recording reached its size cap: later traffic is missing.");
    setToolTip(tip);
    m_slider->setRange(0, int(qMin<qint64>(rec->durationMs, std::numeric_limits<int>::max())));
    m_slider->setPageStep(qMax(1000, m_slider->maximum() / 10));

    connect(m_play, &QToolButton::clicked, this, &ReplayBar::togglePlaying);
    connect(m_fast, &QToolButton::toggled, this, [clock](bool fast) { clock->setSpeed(fast ? 4 : 1); });
    connect(m_slider, &QSlider::sliderPressed, this, [this] { m_dragging = true; });
    connect(m_slider, &QSlider::sliderMoved, this, [this](int v) {
        m_time->setText(clockText(v) + QStringLiteral(" / ") + clockText(m_slider->maximum()));
    });
    connect(m_slider, &QSlider::sliderReleased, this, [this] {
        m_dragging = false;
        seek(m_slider->value());
    });
    // Clicks on the groove and keys move the value without a drag.
    connect(m_slider, &QSlider::actionTriggered, this, [this](int action) {
        if (action != QAbstractSlider::SliderMove && !m_dragging)
            QMetaObject::invokeMethod(
                this, [this] { seek(m_slider->value()); }, Qt::QueuedConnection);
    });
    connect(clock.get(), &ReplayClock::advanced, this, &ReplayBar::refresh);
    connect(clock.get(), &ReplayClock::playingChanged, this, &ReplayBar::refresh);
    connect(clock.get(), &ReplayClock::reachedEnd, this, &ReplayBar::refresh);
    connect(clock.get(), &ReplayClock::seekFinished, this, &ReplayBar::refresh);
    refresh();
}

QString ReplayBar::clockText(qint64 ms)
{
    const qint64 s = qMax<qint64>(0, ms) / 1000;
    const QString seconds = QStringLiteral("%1").arg(s % 60, 2, 10, QLatin1Char('0'));
    return s >= 3600 ? QStringLiteral("%1:%2:%3")
                           .arg(QString::number(s / 3600),
                                QStringLiteral("%1").arg((s / 60) % 60, 2, 10, QLatin1Char('0')), seconds)
                     : QStringLiteral("%1:%2").arg(QString::number(s / 60), seconds);
}

QString ReplayBar::timeText() const
{
    return m_time->text();
}

QString ReplayBar::bannerText() const
{
    return m_banner->text();
}

void ReplayBar::togglePlaying()
{
    const auto clock = m_session ? m_session->replayClock() : nullptr;
    if (!clock)
        return;
    if (clock->isPlaying()) {
        clock->pause();
    } else if (clock->nowMs() >= clock->durationMs() || m_session->state() == ClientState::Disconnected ||
               m_session->state() == ClientState::Failed) {
        m_session->replayFrom(0); // at the end (or stopped): from the start
    } else {
        clock->play();
    }
}

void ReplayBar::seek(qint64 t)
{
    const auto clock = m_session ? m_session->replayClock() : nullptr;
    if (!clock)
        return;
    if (t >= clock->nowMs() && m_session->state() == ClientState::Connected)
        clock->seekForward(t);
    else
        m_session->replayFrom(t); // time only runs forward: go back by replaying up to t
    refresh();
}

void ReplayBar::refresh()
{
    const auto clock = m_session ? m_session->replayClock() : nullptr;
    if (!clock)
        return;
    const qint64 now = qMin(clock->nowMs(), clock->durationMs());
    const bool atEnd = now >= clock->durationMs() && !clock->isPlaying();
    m_play->setIcon(style()->standardIcon(clock->isPlaying() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_play->setText(clock->isPlaying() ? tr("Pause") : atEnd ? tr("Replay") : tr("Play"));
    m_play->setToolTip(clock->isPlaying() ? tr("Pause the replay: time stops, TTLs with it")
                       : atEnd            ? tr("Replay the recording from the start")
                                          : tr("Go on replaying at the recorded pace"));
    if (!m_dragging) {
        const QSignalBlocker blocker(m_slider);
        m_slider->setValue(int(now));
    }
    m_time->setText(clockText(now) + QStringLiteral(" / ") + clockText(clock->durationMs()));
}

void ReplayBar::paintEvent(QPaintEvent *event)
{
    // A tint of the highlight over the window colour, and a line of it below: plainly not a live
    // server, in light and dark (computed from the palette as painted, so a theme change follows).
    QPainter painter(this);
    const QColor base = palette().color(QPalette::Window);
    const QColor accent = palette().color(QPalette::Highlight);
    const qreal a = 0.16;
    painter.fillRect(rect(), QColor::fromRgbF(base.redF() * (1 - a) + accent.redF() * a,
                                              base.greenF() * (1 - a) + accent.greenF() * a,
                                              base.blueF() * (1 - a) + accent.blueF() * a));
    painter.fillRect(QRect(0, height() - 1, width(), 1), accent);
    QFrame::paintEvent(event);
}

} // namespace folio
