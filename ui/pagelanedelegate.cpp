#include "pagelanedelegate.h"

#include "fonts.h"
#include "mcperror.h"
#include "pageledger.h"
#include "statuscolors.h"
#include "timelineview.h"
#include "ttlclock.h"

#include <QPainter>

#include <limits>

namespace folio {

namespace {
constexpr qint64 Never = std::numeric_limits<qint64>::max();
} // namespace

PageLaneDelegate::PageLaneDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{}

QSize PageLaneDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    const auto *view = qobject_cast<const TimelineView *>(option.widget);
    return QSize(view ? view->viewport()->width() : 640, TimelineView::laneHeight());
}

void PageLaneDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                             const QModelIndex &index) const
{
    const auto *view = qobject_cast<const TimelineView *>(option.widget);
    if (!view || !index.isValid())
        return;
    const QRect &lane = option.rect;
    const StatusColors colors(option.palette);
    const qint64 now = view->nowWallMs();
    using State = PageRecord::State;
    const auto value = [&index](int role) { return index.data(role); };
    const State state = State(value(PageLedger::StateRole).toInt());
    const int walk = value(PageLedger::WalkRole).toInt();
    const int page = value(PageLedger::PageIndexRole).toInt();
    const bool hintsExpected = !value(PageLedger::LegacyRole).toBool();
    const qint64 effectiveTtlMs = value(PageLedger::EffectiveTtlRole).toLongLong();
    const auto attempts = value(PageLedger::AttemptsRole).value<QList<PageRecord::Attempt>>();
    const auto errorKind = McpError::Kind(value(PageLedger::ErrorKindRole).toInt());
    const bool dimmed = !view->isCurrentWalk(walk);
    painter->save();
    if (dimmed)
        painter->setOpacity(0.5);

    // The label: a state dot and the page number (with its walk when it is not the current one).
    const QColor stateColor =
        value(PageLedger::AnsweredRole).toBool() && !hintsExpected && state == State::Stale
            ? colors.legacy()
            : colors.forState(state);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(stateColor);
    painter->drawEllipse(QPointF(10, lane.center().y() + 0.5), 3.5, 3.5);
    painter->setPen(state == State::Failed ? colors.failed() : colors.text());
    const QString label = dimmed
                              ? tr("w%1 \u00b7 %2").arg(QString::number(walk + 1), QString::number(page + 1))
                              : tr("page %1").arg(page + 1);
    const QRect plot = view->plotRect();
    painter->drawText(QRect(19, lane.top(), plot.left() - 21, lane.height()),
                      Qt::AlignLeft | Qt::AlignVCenter, label);

    painter->setClipRect(QRect(plot.left(), lane.top(), lane.right() - plot.left() + 1, lane.height()),
                         Qt::IntersectClip);
    const qreal barTop = lane.top() + 4;
    const qreal barHeight = lane.height() - 8;
    const qreal bandHeight = 6;
    const qreal bandTop = lane.center().y() + 0.5 - bandHeight / 2;
    const qint64 walkEnd = dimmed ? view->walkEndMs(index.row()) : Never;

    int lastOk = -1;
    for (int i = 0; i < attempts.size(); ++i) {
        if (!attempts[i].failed && attempts[i].latencyMs >= 0)
            lastOk = i;
    }
    auto band = [&](qint64 from, qint64 to, const QColor &color) {
        if (to <= from)
            return;
        const qreal x0 = view->xForTime(from);
        const qreal x1 = qMax(x0 + 1, qreal(view->xForTime(to)));
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawRoundedRect(QRectF(x0, bandTop, x1 - x0, bandHeight), 2, 2);
    };

    for (int i = 0; i < attempts.size(); ++i) {
        const PageRecord::Attempt &a = attempts[i];
        if (a.sentAtMs <= 0)
            continue;
        const qint64 nextSent = i + 1 < attempts.size() ? attempts[i + 1].sentAtMs : Never;
        const qint64 stop = qMin(nextSent, walkEnd);
        const bool inFlight = a.latencyMs < 0;
        const qint64 answered = inFlight ? now : a.sentAtMs + a.latencyMs;

        // What the answer was worth afterwards: fresh until expiry, then expired; stale at once; no hints.
        if (!inFlight && !a.failed) {
            if (!hintsExpected) {
                QPen dotted(colors.legacy(), 1.5, Qt::DotLine);
                painter->setPen(dotted);
                const int y = lane.center().y();
                painter->drawLine(view->xForTime(answered), y, view->xForTime(qMin(stop, now)), y);
            } else if (i == lastOk && effectiveTtlMs > 0) {
                const qint64 expiry = TtlClock::deadlineFor(answered, effectiveTtlMs);
                const qint64 freshEnd = qMin(expiry, stop);
                band(answered, qMin(freshEnd, now), colors.fresh());
                QColor ahead = colors.fresh();
                ahead.setAlphaF(0.35f);
                band(qMax(answered, now), freshEnd, ahead); // what is left of the TTL
                if (expiry < stop)
                    band(expiry, qMin(stop, qMax(now, expiry)), colors.expired());
            } else if (i == lastOk) {
                band(answered, qMin(stop, now), colors.stale());
            } else {
                band(answered, qMin(stop, now), colors.tint(colors.expired(), 0.5));
            }
        }

        // The request itself: sent -> answered.
        const qreal x0 = view->xForTime(a.sentAtMs);
        const qreal x1 = qMax(x0 + 3, qreal(view->xForTime(answered)));
        const QRectF bar(x0, barTop, x1 - x0, barHeight);
        const QColor color = a.failed ? colors.failed() : colors.loading();
        painter->setPen(Qt::NoPen);
        if (a.refetch) {
            painter->setBrush(colors.tint(color, 0.35));
            painter->drawRoundedRect(bar, 2, 2);
            painter->setBrush(QBrush(color, Qt::BDiagPattern));
            painter->drawRoundedRect(bar, 2, 2);
            painter->setPen(QPen(color, 1));
            painter->setBrush(Qt::NoBrush);
            painter->drawRoundedRect(bar.adjusted(0.5, 0.5, -0.5, -0.5), 2, 2);
        } else {
            QColor fill = color;
            if (inFlight)
                fill.setAlphaF(0.6f);
            painter->setBrush(fill);
            painter->drawRoundedRect(bar, 2, 2);
        }
        if (a.failed && i == attempts.size() - 1 && errorKind != McpError::Kind::None) {
            QFont small = smallFont(option.font);
            small.setBold(true);
            painter->setFont(small);
            painter->setPen(colors.failed());
            const QString code = errorKind == McpError::Kind::Rpc
                                     ? QString::number(value(PageLedger::ErrorCodeRole).toInt())
                                     : McpError::kindName(errorKind);
            painter->drawText(QRectF(bar.right() + 4, lane.top(), 120, lane.height()),
                              Qt::AlignLeft | Qt::AlignVCenter, code);
        }
    }

    if (state == State::Discarded) {
        painter->setOpacity(0.8);
        painter->setPen(QPen(colors.discarded(), 1));
        const int y = lane.center().y();
        painter->drawLine(4, y, plot.left() - 4, y);
    }
    painter->restore();
}

} // namespace folio
