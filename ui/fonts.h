#pragma once

#include <QFont>

class QTableView;

namespace folio {

// The window's type scale, derived from a widget's font: body text, small (chip indexes, ruler
// and secondary lines) and title (bold, a little larger: counts, page and state titles). Few sizes
// look calmer, and each distinct font costs a font engine and its glyphs when first drawn.
QFont smallFont(const QFont &base);
QFont titleFont(const QFont &base);
// The fixed-width face for cursors, JSON, URIs and raw text. Only its family is set: its size is
// the widget's own, so it follows View > Zoom and presentation like the text around it (the
// system's fixed font, set whole, kept its size at every zoom).
QFont fixedFont();

// A table's rows as tall as a line of its font plus padding, now and each time its font changes
// (View > Zoom, presentation): a row of fixed height would clip descenders ("get_post") when
// zoomed in and stay tall after Ctrl+0.
void keepRowsFitted(QTableView *table, int padding);

} // namespace folio
