#include "pagechipdelegate.h"

#include "fonts.h"
#include "ledgerview.h"
#include "mcperror.h"
#include "pageledger.h"
#include "zoom.h"

#include <QPainter>

#include <algorithm>

namespace folio {

namespace {

// Sizes at zoom 1, in pixels; zoomed() where they are used.
constexpr int Pad = 7;
constexpr int BarHeight = 5;
constexpr int BadgeSize = 11;
constexpr int ScopeBadgeSize = 14;

} // namespace

PageChipDelegate::PageChipDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
    setFont(QFont());
}

void PageChipDelegate::setFont(const QFont &font)
{
    m_smallFont = smallFont(font);
    // The count is the chip's headline, read from across a room: larger than a title.
    m_countFont = titleFont(font);
    m_countFont.setPointSizeF(font.pointSizeF() > 0 ? font.pointSizeF() * 1.45 : m_countFont.pointSizeF());
    if (font.pointSizeF() <= 0 && font.pixelSize() > 0)
        m_countFont.setPixelSize(qRound(font.pixelSize() * 1.45));
    m_codeFont = font;
    m_codeFont.setBold(true);
    m_smallHeight = QFontMetrics(m_smallFont).height();
    m_countHeight = QFontMetrics(m_countFont).height();
}

int PageChipDelegate::chipWidth()
{
    return zoomed(80);
}

int PageChipDelegate::chipHeight() const
{
    return zoomed(Pad) + m_smallHeight + 2 + m_countHeight + 4 + zoomed(BarHeight) + zoomed(Pad);
}

QRect PageChipDelegate::barRect(const QRect &chip) const
{
    return QRect(chip.left() + zoomed(Pad), chip.bottom() - zoomed(Pad) - zoomed(BarHeight) + 1,
                 chip.width() - 2 * zoomed(Pad), zoomed(BarHeight));
}

QRect PageChipDelegate::countRect(const QRect &chip) const
{
    return QRect(chip.left() + zoomed(Pad), chip.top() + zoomed(Pad) + m_smallHeight + 2,
                 chip.width() - 2 * zoomed(Pad), m_countHeight);
}

QSize PageChipDelegate::sizeHint(const QStyleOptionViewItem &, const QModelIndex &) const
{
    return QSize(chipWidth(), chipHeight());
}

void PageChipDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                             const QModelIndex &index) const
{
    const auto *view = qobject_cast<const LedgerView *>(option.widget);
    const Look look = lookOf(index, view ? view->nowMs() : 0);
    paintChip(painter, option.rect, look, StatusColors(option.palette), option.state & QStyle::State_Selected,
              option.state & QStyle::State_HasFocus);
}

PageChipDelegate::Look PageChipDelegate::lookOf(const QModelIndex &index, qint64 now)
{
    Look look;
    if (!index.isValid())
        return look;
    const auto value = [&index](int role) { return index.data(role); };
    using State = PageRecord::State;
    const State state = State(value(PageLedger::StateRole).toInt());
    look.ledgerRow = index.row();
    look.pageNumber = value(PageLedger::PageIndexRole).toInt() + 1;
    look.walk = value(PageLedger::WalkRole).toInt();
    look.state = state;
    look.scope = PageRecord::Scope(value(PageLedger::ScopeRole).toInt());
    const bool received = value(PageLedger::AnsweredRole).toBool();
    look.legacy = received && value(PageLedger::LegacyRole).toBool();
    look.struck = state == State::Discarded;
    switch (state) {
    case State::Loading:
        look.bar = Bar::Loading;
        break;
    case State::Fresh: {
        look.bar = Bar::Fresh;
        const qint64 ttl = value(PageLedger::EffectiveTtlRole).toLongLong();
        const qint64 expiresAt = value(PageLedger::ExpiresAtRole).toLongLong();
        look.remaining =
            ttl > 0 && expiresAt >= 0 ? qBound(0.0, qreal(expiresAt - now) / qreal(ttl), 1.0) : 0.0;
        break;
    }
    case State::Stale:
        look.bar = look.legacy ? Bar::Legacy : Bar::Stale;
        break;
    case State::Expired:
        look.bar = Bar::Expired;
        break;
    case State::Refetching:
        look.bar = Bar::Refetching;
        break;
    case State::Failed:
        look.bar = Bar::Failed;
        break;
    case State::Discarded:
        look.bar = !received ? Bar::None : look.legacy ? Bar::Legacy : Bar::Expired;
        break;
    }
    const auto error = McpError::Kind(value(PageLedger::ErrorKindRole).toInt());
    if (value(PageLedger::AskedWithoutArgumentsRole).toBool()) {
        look.countText = tr("args?"); // Folio's question (it asked without), not the server's error
    } else if (error != McpError::Kind::None && (state == State::Failed || !received)) {
        const int httpStatus = value(PageLedger::HttpStatusRole).toInt();
        if (error == McpError::Kind::Rpc)
            look.countText = QString::number(value(PageLedger::ErrorCodeRole).toInt());
        else if (httpStatus > 0)
            look.countText = QStringLiteral("HTTP %1").arg(httpStatus);
        else if (error == McpError::Kind::Timeout)
            look.countText = tr("timeout");
        else if (error == McpError::Kind::Cancelled)
            look.countText = QStringLiteral("\u2014");
        else
            look.countText = tr("error");
    } else if (received || state == State::Refetching) {
        look.countText = QString::number(value(PageLedger::ItemCountRole).toInt());
    } else if (state == State::Discarded) {
        look.countText = QStringLiteral("\u2014");
    }
    look.parts = !value(PageLedger::PartingRole).toString().isEmpty();
    for (int severity : value(PageLedger::SeveritiesRole).value<QList<int>>())
        look.badges.append(Finding::Severity(severity));
    std::stable_sort(look.badges.begin(), look.badges.end(), std::greater<>());
    return look;
}

void PageChipDelegate::paintChip(QPainter *painter, const QRect &rect, const Look &look,
                                 const StatusColors &colors, bool current, bool focused) const
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    if (look.struck)
        painter->setOpacity(0.55);

    // The card.
    const QRectF card = QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5);
    QColor border = colors.chipBorder();
    qreal borderWidth = 1;
    if (look.bar == Bar::Failed) {
        border = colors.failed();
        borderWidth = 2;
    }
    QColor fill = look.bar == Bar::Failed ? colors.tint(colors.failed(), 0.10) : colors.chipFill();
    if (current) {
        fill = colors.tint(colors.highlight(), 0.16);
        if (look.bar != Bar::Failed) {
            border = colors.highlight();
            borderWidth = focused ? 2 : 1.5;
        }
    }
    painter->setPen(QPen(border, borderWidth));
    painter->setBrush(fill);
    painter->drawRoundedRect(card.adjusted(borderWidth / 2 - 0.5, borderWidth / 2 - 0.5,
                                           0.5 - borderWidth / 2, 0.5 - borderWidth / 2),
                             5, 5);
    if (current && look.bar == Bar::Failed) {
        // Selected and failed: the red outline stays, the selection shows inside it.
        painter->setPen(QPen(colors.highlight(), 1.5));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(card.adjusted(3, 3, -3, -3), 3, 3);
    }

    if (look.parts) {
        // Where this walk parts from the walk before (PageRecord::parting): a bar down the card's
        // left edge, in the info colour, as the tooltip and the inspector say in words.
        const qreal w = qMax(3, zoomed(3));
        painter->setPen(Qt::NoPen);
        painter->setBrush(colors.info());
        painter->drawRoundedRect(
            QRectF(card.left() + 2.5, card.top() + zoomed(Pad), w, card.height() - 2 * zoomed(Pad)), w / 2,
            w / 2);
    }

    // Header: the page number, the findings.
    const QRect header(rect.left() + zoomed(Pad), rect.top() + zoomed(Pad) - 1,
                       rect.width() - 2 * zoomed(Pad), m_smallHeight);
    painter->setFont(m_smallFont);
    painter->setPen(colors.mutedText());
    painter->drawText(header, Qt::AlignLeft | Qt::AlignVCenter, QString::number(look.pageNumber));
    const int shown = int(qMin<qsizetype>(look.badges.size(), 3));
    for (int i = 0; i < shown; ++i) {
        const QRectF badge(header.right() + 1 - (i + 1) * zoomed(BadgeSize) - i * 2,
                           header.center().y() - zoomed(BadgeSize) / 2.0 + 0.5, zoomed(BadgeSize),
                           zoomed(BadgeSize));
        colors.drawSeverityBadge(painter, badge, look.badges.at(i));
    }
    if (look.badges.size() > shown) {
        painter->setPen(colors.mutedText());
        painter->drawText(QRect(header.left(), header.top(),
                                header.width() - shown * (zoomed(BadgeSize) + 2) - 1, header.height()),
                          Qt::AlignRight | Qt::AlignVCenter,
                          QStringLiteral("+%1").arg(look.badges.size() - shown));
    }

    // Middle: the item count (or the error code), the scope badge.
    const QRect count = countRect(rect);
    if (look.bar == Bar::Loading) {
        const qreal phase = (StatusColors::animationMs() % 1000) / 1000.0;
        StatusColors::drawSpinner(painter, QRectF(count.left(), count.center().y() - 7, 14, 14),
                                  colors.loading(), phase);
    } else if (!look.countText.isEmpty()) {
        const bool failed =
            look.bar == Bar::Failed || (look.struck && look.countText.startsWith(QLatin1Char('-')));
        // A word ("timeout", "args?") in the headline size would not fit beside the scope badge.
        const bool word = look.countText.at(0).isLetter();
        const QFont &f = failed || word ? m_codeFont : m_countFont;
        painter->setFont(f);
        painter->setPen(failed ? colors.failed() : colors.text());
        const int scopeSpace = failed ? 0 : zoomed(ScopeBadgeSize) + 2;
        const QString text =
            QFontMetrics(f).elidedText(look.countText, Qt::ElideRight, count.width() - scopeSpace);
        painter->drawText(count.adjusted(0, 0, -scopeSpace, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
    }
    if (look.bar != Bar::Failed && look.bar != Bar::Loading && !look.legacy) {
        const QRectF badge(count.right() + 1 - zoomed(ScopeBadgeSize),
                           count.center().y() - zoomed(ScopeBadgeSize) / 2.0 + 0.5, zoomed(ScopeBadgeSize),
                           zoomed(ScopeBadgeSize));
        colors.drawScopeBadge(painter, badge, look.scope);
    }

    // Bottom: the TTL bar.
    const QRectF bar = barRect(rect);
    colors.drawTtlBar(painter, bar, look.bar, look.remaining, (StatusColors::animationMs() % 800) / 800.0);

    if (look.struck) {
        // Through the count (or the word in its place), whatever size it is set in.
        painter->setOpacity(0.9);
        painter->setPen(QPen(colors.text(), 1.5));
        painter->drawLine(QPointF(rect.left() + 3, count.center().y() + 0.5),
                          QPointF(rect.right() - 3, count.center().y() + 0.5));
    }
    painter->restore();
}

} // namespace folio
