#include "serverlistdelegate.h"

#include "clientstate.h"
#include "finding.h"
#include "fonts.h"
#include "serverlistmodel.h"
#include "statuscolors.h"

#include <QPainter>

namespace folio {

QSize ServerListDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const
{
    return {160, option.fontMetrics.height() * 2 + 14};
}

void ServerListDelegate::paint(QPainter *p, const QStyleOptionViewItem &option,
                               const QModelIndex &index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    option.widget->style()->drawControl(QStyle::CE_ItemViewItem, &opt, p, option.widget);
    const StatusColors colors(option.palette);
    const auto state = ClientState(index.data(ServerListModel::StateRole).toInt());
    // The dot says one thing, the connection: green connected, amber connecting, red when it
    // could not connect, grey otherwise. Findings wear their severity badge, as everywhere else.
    QColor dot = colors.mutedText();
    if (state == ClientState::Connected)
        dot = colors.fresh();
    else if (state == ClientState::Connecting)
        dot = colors.stale();
    else if (state == ClientState::Failed)
        dot = colors.failed();
    const int findingCount =
        state == ClientState::Connected ? index.data(ServerListModel::FindingCountRole).toInt() : 0;
    const auto worst = Finding::Severity(index.data(ServerListModel::SeverityRole).toInt());
    const bool selected = option.state & QStyle::State_Selected;
    const QColor text = option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    p->save();
    p->setRenderHint(QPainter::Antialiasing);
    const int line = option.fontMetrics.height();
    const QRect r = option.rect.adjusted(10, 6, -8, -6);
    p->setPen(Qt::NoPen);
    p->setBrush(dot);
    p->drawEllipse(QRectF(r.left(), r.top() + line / 2.0 - 4, 8, 8));
    QFont bold = option.font;
    bold.setBold(true);
    p->setFont(bold);
    p->setPen(text);
    const int badge = findingCount > 0 ? line - 2 : 0;
    if (badge > 0)
        colors.drawSeverityBadge(p, QRectF(r.right() - badge, r.top() + 1, badge, badge), worst);
    const QRect nameRect(r.left() + 16, r.top(), r.width() - 16 - (badge > 0 ? badge + 6 : 0), line);
    p->drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter,
                QFontMetrics(bold).elidedText(index.data().toString(), Qt::ElideRight, nameRect.width()));
    const QFont small = smallFont(option.font);
    p->setFont(small);
    QColor muted = text;
    muted.setAlphaF(0.65);
    p->setPen(muted);
    QString sub = state == ClientState::Connected ? index.data(ServerListModel::StateTextRole).toString()
                                                  : index.data(ServerListModel::TargetRole).toString();
    if (findingCount > 0)
        sub = (findingCount == 1 ? tr("1 finding") : tr("%1 findings").arg(findingCount)) +
              QStringLiteral(" · ") + sub;
    // Signed in, it says so first (who, scopes and expiry are in the tooltip and the Sign-in dock).
    if (index.data(ServerListModel::SignedInRole).toBool())
        sub = tr("signed in") + QStringLiteral(" · ") + sub;
    // A secret the keychain refused is the line's news: kept for this session only.
    if (const QString note = index.data(ServerListModel::SecretNoteRole).toString(); !note.isEmpty()) {
        sub = note;
        if (!selected)
            p->setPen(colors.stale());
    }
    const QRect subRect(r.left() + 16, r.top() + line + 2, r.width() - 16, line);
    // A state is read from its start ("4 findings · connected · 2026-…"); a target keeps its
    // program and its end ("npx -y …/server-filesystem").
    const Qt::TextElideMode elide = state == ClientState::Connected ? Qt::ElideRight : Qt::ElideMiddle;
    p->drawText(subRect, Qt::AlignLeft | Qt::AlignVCenter,
                QFontMetrics(small).elidedText(sub, elide, subRect.width()));
    p->restore();
}

} // namespace folio
