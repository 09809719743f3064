#pragma once

#include "pagedlistmodel.h"
#include "pagerecord.h"

#include <QAbstractScrollArea>
#include <QItemSelectionModel>
#include <QFont>
#include <QPointer>
#include <QTimer>
#include <QVector>

namespace folio {

class PageLedger;
class StatusColors;

// Folio's signature view: one chip per page request, in order, so the health of a paged list
// (counts, live TTLs, scope, errors, findings, earlier walks) reads at a glance. Geometry is
// arithmetic and only visible chips are painted, so ten thousand pages cost what twenty do; one
// timer animates the visible chips that count down, spin or refetch, and sleeps otherwise.
class PageStrip : public QAbstractScrollArea
{
    Q_OBJECT
public:
    // What a chip shows, computed from the page record by the same code that paints it (tests and
    // accessibility read it; the paint event draws it).
    enum class Bar { None, Loading, Fresh, Stale, Expired, Refetching, Failed, Legacy };
    struct ChipLook
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
    };

    explicit PageStrip(QWidget *parent = nullptr);
    ~PageStrip() override;

    void setListModel(PagedListModel *model);
    PagedListModel *listModel() const { return m_model; }
    // The selection over listModel()->ledger() shared by the views of one list (the strip makes
    // its own with setListModel(); null goes back to that one).
    void setSelectionModel(QItemSelectionModel *selection);
    QItemSelectionModel *selectionModel() const { return m_selection; }

    // The selected chip by ledger row, -1 for none: the selection's current row.
    int currentPage() const;
    void setCurrentPage(int ledgerRow);
    void scrollToPage(int ledgerRow);

    int chipCount() const { return m_count; }
    ChipLook chipLook(int ledgerRow) const;
    // Geometry in viewport coordinates (for tests and for tooltips); empty when out of range.
    QRect chipRect(int ledgerRow) const;
    int chipAt(const QPoint &viewportPos) const; // -1 between chips
    // The number of paint events and which chips the last one drew (a test hook for repaints).
    int paintCount() const { return m_paintCount; }
    QPair<int, int> lastPaintedRange() const { return m_lastPainted; }
    bool isAnimating() const { return m_tick.isActive(); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    // The selected chip changed, by click, keyboard or setCurrentPage(); -1 when nothing is selected.
    void currentPageChanged(int ledgerRow);
    // Enter/Return on the current chip or a double click: open the page (the inspector, its rows).
    void pageActivated(int ledgerRow);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    void rebuild();
    void handleRowsInserted(int first, int last);
    void handleDataChanged(int first, int last);
    void updateScrollRange();
    void updateTimer();
    void tick();
    void updateChip(int ledgerRow);
    int contentX(int ledgerRow) const; // the chip's left edge in content coordinates
    int contentWidth() const;
    int indexAtContentX(int x, bool *onChip) const;
    QPair<int, int> visibleRange() const;
    int walkBreaksBefore(int ledgerRow) const;
    int separatorAt(const QPoint &viewportPos) const; // the walk start row whose gap is there, -1
    QString chipToolTip(int ledgerRow) const;
    QString separatorToolTip(int walkStartRow) const;
    void paintChip(QPainter *painter, const QRect &rect, const ChipLook &look, const StatusColors &colors,
                   bool current);
    void paintSeparator(QPainter *painter, int walkStartRow, const StatusColors &colors);
    void updateMetrics();
    int chipHeight() const;
    QRect barRect(const QRect &chip) const;
    QRect countRect(const QRect &chip) const;
    void moveCurrent(int delta);
    void handleCurrentRowChanged(const QModelIndex &current);

    QPointer<PagedListModel> m_model;
    PageLedger *m_ledger = nullptr;
    QVector<int> m_walkStarts; // ledger rows (after row 0) where a new walk begins, ascending
    int m_count = 0;
    QPointer<QItemSelectionModel> m_selection;
    QItemSelectionModel *m_ownSelection = nullptr;
    int m_current = -1;      // the current chip last drawn and told, to repaint it when it moves
    bool m_followEnd = true; // new chips scroll into view while the view shows the end
    QTimer m_tick;
    qint64 m_phaseMs = 0; // animation time for spinners and stripes
    QFont m_smallFont;    // fonts and heights, made on font changes, not per paint
    QFont m_countFont;
    QFont m_codeFont;
    int m_smallHeight = 0;
    int m_countHeight = 0;
    int m_paintCount = 0;
    QPair<int, int> m_lastPainted{-1, -1};
};

} // namespace folio
