#include "elidedlabel.h"

#include "copyaction.h"

#include <QEvent>
#include <QPainter>
#include <QStyle>
#include <QStyleOption>

namespace folio {

ElidedLabel::ElidedLabel(QWidget *parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    addCopyAction(this, [this] { return m_text; });
}

void ElidedLabel::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    updateToolTip();
    updateGeometry();
    update();
}

void ElidedLabel::setElideMode(Qt::TextElideMode mode)
{
    m_mode = mode;
    update();
}

QString ElidedLabel::firstLine() const
{
    return m_text.section(QLatin1Char('\n'), 0, 0);
}

bool ElidedLabel::isElided() const
{
    const QString line = firstLine();
    return line != m_text || fontMetrics().horizontalAdvance(line) > contentsRect().width();
}

QSize ElidedLabel::sizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    // As wide as the first line, within reason: the layout shrinks it from there.
    return {qMin(fm.horizontalAdvance(firstLine()), fm.averageCharWidth() * 80) + 2, fm.height() + 2};
}

QSize ElidedLabel::minimumSizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    return {fm.horizontalAdvance(QStringLiteral("…")) * 3, fm.height() + 2};
}

void ElidedLabel::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QRect r = contentsRect();
    const QString shown = fontMetrics().elidedText(firstLine(), m_mode, r.width());
    style()->drawItemText(&p, r, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, palette(),
                          isEnabled(), shown, foregroundRole());
}

void ElidedLabel::updateToolTip()
{
    // The whole text on hover when not all of it is drawn.
    // As rich text, so that the tooltip wraps (a plain one is one line as wide as the text).
    setToolTip(isElided()
                   ? QStringLiteral("<p style='white-space:pre-wrap'>%1</p>").arg(m_text.toHtmlEscaped())
                   : QString());
}

void ElidedLabel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateToolTip();
}

void ElidedLabel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        updateGeometry();
        updateToolTip();
    }
}

} // namespace folio
