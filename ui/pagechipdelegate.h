#pragma once

#include "statuscolors.h"

#include "finding.h"
#include "pagerecord.h"

#include <QFont>
#include <QStyledItemDelegate>

namespace folio {

// Paints one page of a ledger as a chip, the page strip's item: the page number and its findings'
// badges, the item count (or the error: a JSON-RPC code, "HTTP 500", "timeout"), the cache scope,
// and the TTL bar that drains while the page is fresh. Everything comes from the row's roles
// (PageLedger), so a chip looks the same wherever it is drawn; "now" comes from the view, a
// LedgerView (option.widget). A selected chip is the current page, drawn stronger with the focus.
class PageChipDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using Bar = StatusColors::TtlBar;
    // What a chip shows, computed from the page's roles by the same code that paints it (tests
    // and accessibility read it; paint() draws it).
    struct Look
    {
        int ledgerRow = -1;
        int pageNumber = 0; // 1-based, within its walk
        int walk = 0;
        PageRecord::State state = PageRecord::State::Loading;
        Bar bar = Bar::None;
        qreal remaining = 0; // the fresh bar's length, 0..1
        bool struck = false; // discarded: drawn struck through
        bool legacy = false; // no hints by design
        PageRecord::Scope scope = PageRecord::Scope::NotApplicable;
        QString countText; // "20", or the JSON-RPC code of a failed page ("-32602")
        QList<Finding::Severity> badges;
        bool parts = false; // the first page where this walk parts from the walk before
    };

    explicit PageChipDelegate(QObject *parent = nullptr);

    // The look of a ledger row's chip at nowMs on the list's TTL clock; the default look for an
    // invalid index.
    static Look lookOf(const QModelIndex &index, qint64 nowMs);

    // Metrics follow the view's font: the fonts are made here once per change, not per paint.
    void setFont(const QFont &font);
    const QFont &labelFont() const { return m_smallFont; }
    int labelHeight() const { return m_smallHeight; }
    static int chipWidth();
    int chipHeight() const;
    // The parts that move, within a chip's rectangle: the TTL bar and the count (a spinner).
    QRect barRect(const QRect &chip) const;
    QRect countRect(const QRect &chip) const;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    void paintChip(QPainter *painter, const QRect &rect, const Look &look, const StatusColors &colors,
                   bool current, bool focused) const;

    QFont m_smallFont;
    QFont m_countFont;
    QFont m_codeFont;
    int m_smallHeight = 0;
    int m_countHeight = 0;
};

} // namespace folio
