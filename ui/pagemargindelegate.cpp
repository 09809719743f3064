#include "pagemargindelegate.h"

#include "pagedlistmodel.h"
#include "statuscolors.h"

#include <QPainter>

namespace folio {

void PageMarginDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                               const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    const bool first = index.column() == 0;
    if (first)
        opt.rect.adjust(marginWidth + 3, 0, 0, 0);
    QStyledItemDelegate::paint(painter, opt, index);

    const StatusColors colors(option.palette);
    painter->save();
    if (first) {
        const auto state = PageRecord::State(index.data(PagedListModel::PageStateRole).toInt());
        const bool hints = index.data(PagedListModel::PageHintsExpectedRole).toBool();
        QColor c = hints || state == PageRecord::State::Failed || state == PageRecord::State::Refetching
                       ? colors.forState(state)
                       : colors.legacy();
        // Alternate the margin's strength page by page so neighbouring pages stay apart.
        if (index.data(PagedListModel::PageIndexRole).toInt() % 2)
            c = StatusColors::mix(c, option.palette.color(QPalette::Base), 0.35);
        painter->fillRect(QRect(option.rect.left(), option.rect.top(), marginWidth, option.rect.height()), c);
    }
    if (index.data(PagedListModel::FirstRowOfPageRole).toBool() && index.row() > 0) {
        QPen pen(colors.chipBorder());
        pen.setWidth(1);
        painter->setPen(pen);
        painter->drawLine(option.rect.topLeft(), option.rect.topRight());
    }
    painter->restore();
}

} // namespace folio
