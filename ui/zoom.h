#pragma once

#include <QtGlobal>

namespace folio {

// The window's zoom (View > Zoom In/Out/Actual Size, and presentation): 1 is actual size. Text
// follows the application font, which MainWindow scales; the views that draw at fixed sizes (the
// page strip's chips, the timeline's lanes) multiply their sizes by uiZoom() and lay out again on
// the font change that comes with it.
qreal uiZoom();
void setUiZoom(qreal zoom);
// A size in pixels at the current zoom.
inline int zoomed(int pixels)
{
    return qRound(pixels * uiZoom());
}

} // namespace folio
