#pragma once

#include <QStyledItemDelegate>

namespace folio {

// Paints one page request of a ledger as a lane of the request timeline: a state dot and the page's
// label, then on the time axis each attempt as a bar from sent to answered (hatched for a refetch,
// red for a failure, with its code) and what the answer was worth afterwards (fresh until its TTL
// ran out, then expired; stale at once; a dotted line without hints). Everything about the page
// comes from the row's roles (PageLedger); the axis (where a time is, now, where a walk ended) from
// the view, a TimelineView (option.widget), as Hotspot's timeline delegate takes its time range.
class PageLaneDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit PageLaneDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace folio
