#include "fonts.h"

#include <QtGlobal>

namespace folio {

namespace {

QFont scaled(QFont f, qreal factor)
{
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * factor);
    else
        f.setPixelSize(qMax(8, qRound(f.pixelSize() * factor)));
    return f;
}

} // namespace

QFont smallFont(const QFont &base)
{
    return scaled(base, 0.85);
}

QFont titleFont(const QFont &base)
{
    QFont f = scaled(base, 1.15);
    f.setBold(true);
    return f;
}

} // namespace folio
