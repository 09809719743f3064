#include "zoom.h"

namespace folio {

namespace {
qreal g_zoom = 1.0;
} // namespace

qreal uiZoom()
{
    return g_zoom;
}

void setUiZoom(qreal zoom)
{
    g_zoom = qBound(0.5, zoom, 3.0);
}

} // namespace folio
