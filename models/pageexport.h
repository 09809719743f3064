#pragma once

#include <QJsonObject>

namespace folio {

class PageWalker;
struct PageRecord;

// A page as Folio exports it for a bug report ("Copy as JSON" in the page inspector).
namespace PageExport {

// PageRecord::toJson() of the walker's ledger row, its cursors decoded (non-normative) and, for a
// settled page of the current walk, its items as received. Masked, the cursors read as maskCursor()
// does and their decodings are left out: what a cursor decodes to is what masking hides.
QJsonObject pageJson(const PageWalker &walker, int ledgerRow, bool maskCursors);
// The same for a record alone, without its items (a bug report carries the raw response instead).
QJsonObject pageJson(const PageRecord &record, bool maskCursors);

} // namespace PageExport

} // namespace folio
