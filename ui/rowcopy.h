#pragma once

#include <QJsonValue>
#include <QModelIndex>
#include <QString>

#include <functional>

class QAbstractItemView;
class QAction;

namespace folio {

// Copy and Copy as JSON for the selected rows of a table or tree, in its context menu (the
// traffic, findings and audit views).
struct RowCopyActions
{
    QAction *copy = nullptr;     // the rows' cells, tab-separated, one line per row
    QAction *copyJson = nullptr; // the row's JSON; several rows: a JSON array of them
};

// What a row is as JSON; the index is the row's first column.
using RowJson = std::function<QJsonValue(const QModelIndex &row)>;

// Adds both actions to the view (Qt::ActionsContextMenu) and returns them, so that a test can
// trigger them without a menu.
RowCopyActions addRowCopyActions(QAbstractItemView *view, RowJson json);

// The selected rows, in the view's order, each by its first column.
QModelIndexList selectedRows(const QAbstractItemView *view);
QString rowsText(const QAbstractItemView *view);
QString rowsJson(const QAbstractItemView *view, const RowJson &json);

} // namespace folio
