#pragma once

#include "ledgerview.h"
#include "pagechipdelegate.h"
#include "pagerecord.h"

#include <QHash>
#include <QMap>

class QPainterPath;

namespace folio {

// Folio's signature view: one chip per page request, in order, so the health of a paged list
// (counts, live TTLs, scope, errors, findings, earlier walks) reads at a glance. An item view over
// the ledger: PageChipDelegate paints each chip, the strip lays them out and draws what lies
// between them (walk separators, the links below). Geometry is
// arithmetic and only visible chips are painted, so ten thousand pages cost what twenty do; one
// timer animates the visible chips that count down, spin or refetch, and sleeps otherwise. The
// cursor chain is drawn too: an arc above the chips for each repeated cursor, so a loop reads as a
// loop, and a dashed link below them between pages that hold the same items.
class PageStrip : public LedgerView
{
    Q_OBJECT
public:
    // What a chip shows (the delegate's look of the row: tests and accessibility read it).
    using Bar = PageChipDelegate::Bar;
    using ChipLook = PageChipDelegate::Look;

    // A link between two chips of one walk, from the findings on their pages (computed when the
    // ledger changes, drawn from this): a repeated cursor's arc from the page that returned it back
    // to the page first asked with it (the same page when the cursor never advanced), and a
    // duplicate's link from the page that held items again to a page that held them first.
    struct Arc
    {
        enum class Kind { Loop, Duplicate };
        Kind kind = Kind::Loop;
        int fromRow = -1; // ledger rows
        int toRow = -1;
        int fromPage = 0; // numbered from 1, within the walk
        int toPage = 0;
        QString detail; // the repeated cursor (Loop); an identity both pages hold (Duplicate)
        bool operator==(const Arc &) const = default;
    };
    // At most this many duplicate links are drawn (the first, in ledger order); the tooltip says
    // how many more there are. Every loop is drawn.
    static constexpr int MaxDuplicateLinks = 50;

    explicit PageStrip(QWidget *parent = nullptr);
    ~PageStrip() override;

    void scrollToPage(int ledgerRow);

    // A screen reader hears a chip as LedgerView tells a page: "Page 3 of 7" and its page in one line.
    int chipCount() const { return rowCount(); }
    ChipLook chipLook(int ledgerRow) const;
    // Geometry in viewport coordinates (for tests and for tooltips); empty when out of range.
    QRect chipRect(int ledgerRow) const;
    int chipAt(const QPoint &viewportPos) const; // -1 between chips
    // Every link found so far, in ledger order of the page it starts from.
    QList<Arc> arcs() const;
    // The area an arc is drawn in, in viewport coordinates.
    QRect arcRect(const Arc &arc) const;
    QRect rowRect(int ledgerRow) const override { return chipRect(ledgerRow); }
    int rowAt(const QPoint &viewportPos) const override { return chipAt(viewportPos); }

    // Earlier walks fold into one block before the live walk (after F5 the struck chips of the
    // walks before would push the live page off-screen): a click on the block, or moving onto one
    // of their pages, shows them; a second click folds them again. Folded, their chips are not
    // laid out (chipRect() is empty).
    bool earlierWalksShown() const { return m_earlierWalksShown; }
    void setEarlierWalksShown(bool shown);
    // The block's area in viewport coordinates: empty while the list has a single walk.
    QRect foldRect() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void rowsReset() override;
    void rowsAppended(int first, int last) override;
    void rowsChanged(int first, int last) override;
    bool drawsRoles(const QList<int> &roles) const override;
    QPair<int, int> visiblePositions() const override { return visibleRange(); }
    void scrollToRow(int ledgerRow) override { scrollToPage(ledgerRow); }
    void paint(QPainter *painter, const StatusColors &colors, const QRect &exposed) override;
    QString toolTipAt(const QPoint &viewportPos, QRect *area) const override;
    void updateTimer() override;
    void tick() override;
    void metricsChanged() override;
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    void updateScrollRange();
    int contentX(int ledgerRow) const; // the chip's left edge in content coordinates
    int contentWidth() const;
    int indexAtContentX(int x, bool *onChip) const;
    QPair<int, int> visibleRange() const;
    int separatorAt(const QPoint &viewportPos) const; // the walk start row whose gap is there, -1
    QString separatorToolTip(int walkStartRow) const;
    void paintSeparator(QPainter *painter, int walkStartRow, const StatusColors &colors);
    void updateMetrics();
    // Arcs: the pages of each walk by number, and the links from the findings of rows first..last.
    void notePageRows(int first, int last);
    void updateArcs(int first, int last);
    QList<Arc> arcsOf(int ledgerRow) const;
    QPainterPath arcPath(const Arc &arc) const;
    void paintArcs(QPainter *painter, const StatusColors &colors, const QRect &exposed);
    const Arc *arcAt(const QPoint &viewportPos) const;
    QString arcToolTip(const Arc &arc) const;
    int chipHeight() const;
    // The fold: the first row of the live (last) walk, 0 with one walk; the first row laid out.
    int foldEnd() const { return walkStarts().isEmpty() ? 0 : walkStarts().last(); }
    bool folded() const { return foldEnd() > 0 && !m_earlierWalksShown; }
    int firstShownRow() const { return folded() ? foldEnd() : 0; }
    int leadWidth() const; // the block and its gap before the first chip laid out
    void paintFold(QPainter *painter, const StatusColors &colors);
    QString foldToolTip() const;

    PageChipDelegate *m_chips = nullptr; // paints each chip; its metrics lay them out
    QHash<quint64, int> m_pageRows;      // (walk << 32 | page index) -> ledger row (the last asked)
    QMap<int, QList<Arc>> m_arcs;        // by the ledger row they start from
    int m_duplicateLinks = 0;            // in m_arcs, drawn or not
    bool m_earlierWalksShown = false;
    int m_foldWidth = 0;   // the fold block's, by updateMetrics()
    int m_lastFoldEnd = 0; // the fold when rows last came: a new walk moves it
};

} // namespace folio
