#pragma once

#include <QIcon>

#include <functional>

namespace folio {

// An icon made by make() when it is first drawn, measured or asked its sizes; until then nothing
// is read. For icons that may never be drawn: a window icon the platform never asks for (Wayland
// and offscreen take none; reading it loaded the SVG plugin and Qt SVG at start-up), a bar's
// overflow arrow.
QIcon deferredIcon(std::function<QIcon()> make);

} // namespace folio
