#pragma once

#include <QIcon>

namespace folio {

// Folio's action icons: bundled SVGs (resources/icons/actions/NAME.svg, drawn with
// stroke="currentColor" on a 24-unit grid) painted in the palette's button-text colour when
// drawn, so that one file serves light and dark, follows a theme switch without being made
// again, and looks disabled in the palette's disabled colour rather than a blurred grey. A name
// with no file gives a null icon (the button keeps its text).
QIcon actionIcon(const QString &name);

} // namespace folio
