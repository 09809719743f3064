#include "wraplabel.h"

#include <QEvent>

namespace folio {

WrapLabel::WrapLabel(QWidget *parent)
    : QLabel(parent)
{
    setWordWrap(true);
}

void WrapLabel::setText(const QString &text)
{
    if (text == QLabel::text())
        return;
    m_heights.clear();
    QLabel::setText(text);
}

int WrapLabel::heightForWidth(int width) const
{
    const auto it = m_heights.constFind(width);
    if (it != m_heights.constEnd())
        return *it;
    if (m_heights.size() > 32)
        m_heights.clear(); // a window being resized asks for many widths: keep only recent ones
    const int height = QLabel::heightForWidth(width);
    m_heights.insert(width, height);
    return height;
}

void WrapLabel::changeEvent(QEvent *event)
{
    switch (event->type()) {
    case QEvent::FontChange:
    case QEvent::StyleChange:
    case QEvent::ContentsRectChange:
        m_heights.clear();
        break;
    default:
        break;
    }
    QLabel::changeEvent(event);
}

} // namespace folio
