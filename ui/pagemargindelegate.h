#pragma once

#include <QStyledItemDelegate>

namespace folio {

// Draws a thin page-coloured margin at the left of the first column and a rule above the first
// row of each page, so page boundaries and freshness stay visible while scrolling the table.
class PageMarginDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    static constexpr int marginWidth = 5;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
};

} // namespace folio
