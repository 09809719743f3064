#include "runslabel.h"

#include "copyaction.h"
#include "terminaltext.h"

#include <QEvent>
#include <QFontMetrics>
#include <QPainter>

namespace folio {

RunsLabel::RunsLabel(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    addCopyAction(this, [this] { return text(); });
}

void RunsLabel::setRuns(const QList<Run> &runs)
{
    // One line of text that may quote a server: its controls, bidi and zero-width characters are
    // shown (<U+XXXX>), never drawn as boxes or let reorder the line.
    m_runs = runs;
    for (Run &run : m_runs)
        run.text = oneLineSafe(run.text);
    m_width = -1;
    updateGeometry();
    updateToolTip();
    update();
}

QString RunsLabel::text() const
{
    QString t;
    for (const Run &run : m_runs)
        t += run.text;
    return t;
}

QFont RunsLabel::runFont(const Run &run) const
{
    QFont f = font();
    f.setBold(run.bold);
    return f;
}

int RunsLabel::textWidth() const
{
    if (m_width < 0) {
        m_width = 0;
        for (const Run &run : m_runs)
            m_width += QFontMetrics(runFont(run)).horizontalAdvance(run.text);
    }
    return m_width;
}

QSize RunsLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    return {textWidth() + m.left() + m.right(), fontMetrics().height() + m.top() + m.bottom()};
}

QSize RunsLabel::minimumSizeHint() const
{
    const QMargins m = contentsMargins();
    return {m.left() + m.right(), fontMetrics().height() + m.top() + m.bottom()};
}

void RunsLabel::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setPen(palette().color(foregroundRole()));
    const QRect r = contentsRect();
    int x = r.left();
    for (const Run &run : m_runs) {
        const QFontMetrics fm(runFont(run));
        const int room = r.right() + 1 - x;
        if (room <= 0)
            break;
        const int w = fm.horizontalAdvance(run.text);
        p.setFont(runFont(run));
        // The run that does not fit is elided and the line ends there.
        const QString shown = w <= room ? run.text : fm.elidedText(run.text, Qt::ElideRight, room);
        p.drawText(QRect(x, r.top(), room, r.height()), Qt::AlignLeft | Qt::AlignVCenter, shown);
        if (w > room)
            break;
        x += w;
    }
}

void RunsLabel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        m_width = -1;
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

void RunsLabel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateToolTip();
}

void RunsLabel::updateToolTip()
{
    setToolTip(textWidth() > contentsRect().width() ? text() : QString());
}

} // namespace folio
