#pragma once

#include <QFont>

namespace folio {

// The window's type scale, derived from a widget's font: body text, small (chip indexes, ruler
// and secondary lines) and title (bold, a little larger: counts, page and state titles). Few sizes
// look calmer, and each distinct font costs a font engine and its glyphs when first drawn.
QFont smallFont(const QFont &base);
QFont titleFont(const QFont &base);

} // namespace folio
