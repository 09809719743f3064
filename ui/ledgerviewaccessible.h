#pragma once

namespace folio {

// A LedgerView (the page strip, the timeline) for screen readers: a list whose items are its rows
// in the order it shows them, each named and described by the view (pageAccessibleName(),
// pageAccessibleDescription()); the current row is selected and, while the view has the focus,
// focused. Installed once, by the first LedgerView; it answers for every subclass, as Qt asks a
// factory for each class of an object from the most derived up.
void installLedgerViewAccessibility();

} // namespace folio
