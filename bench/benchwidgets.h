#pragma once

#include "pagemargindelegate.h"

#include <QHeaderView>
#include <QTableView>

namespace bench {

// The widget benches draw offscreen unless QT_QPA_PLATFORM names a platform: call before the
// QApplication is made.
inline void offscreenUnlessSet()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

// A table set up as ListView sets up its own: the PageMarginDelegate (QStyledItemDelegate with
// marginDelegate false), whole rows selected, no word wrap, no grid, fixed rows of the font's
// height + 8, the last column stretched.
inline void setUpAsListView(QTableView *table, bool marginDelegate = true)
{
    if (marginDelegate)
        table->setItemDelegate(new folio::PageMarginDelegate(table));
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
    table->setShowGrid(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->horizontalHeader()->setStretchLastSection(true);
}

} // namespace bench
