#pragma once

#include <QStyledItemDelegate>

namespace folio {

// A server in the sidebar (ServerListModel): a state dot (rolled up from its lists' findings when
// connected), the name, and below it, smaller, its findings, sign-in, state or target.
class ServerListDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    void paint(QPainter *p, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace folio
