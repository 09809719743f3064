#pragma once

namespace folio {

// The page strip for screen readers: a list whose items are its chips, each named "Page 3 of 7"
// and described in one line ("20 items, fresh, expires in 12 s, private, cursor-repeated"); the
// current page takes the accessible focus. Installed once, by the first PageStrip.
void installPageStripAccessibility();

} // namespace folio
