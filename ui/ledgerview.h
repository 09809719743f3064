#pragma once

#include "pagedlistmodel.h"

#include <QAbstractItemView>
#include <QItemSelectionModel>
#include <QPointer>
#include <QTimer>
#include <QVector>

namespace folio {

class PageLedger;
class StatusColors;

// What the page strip and the timeline share: an item view over one list's ledger (a row per page
// request; column 0 stands for the row) that follows the rows as pages are asked for, shares the
// current page through a selection model over the ledger (with the table and the inspector, so no
// view has to tell the others), moves by keys through moveCursor(), opens a page on Enter or a
// double click (activated()), tells a page in a tooltip and to a screen reader (a list of its rows,
// the current one focused) and animates with one timer. Subclasses lay the rows out; a delegate
// paints each row (PageChipDelegate, PageLaneDelegate) and the view what lies between them.
class LedgerView : public QAbstractItemView
{
    Q_OBJECT
public:
    ~LedgerView() override;

    // The list whose ledger the view shows: the view's model is listModel()->ledger().
    void setListModel(PagedListModel *model);
    PagedListModel *listModel() const { return m_model; }
    // Refused (a warning) unless it is the list model's ledger: a view is given a list, not a model.
    void setModel(QAbstractItemModel *model) override;
    // The selection over listModel()->ledger() that every view of the list shares; the view
    // makes its own with setListModel(), and null goes back to that one. One over another model
    // is refused.
    void setSelectionModel(QItemSelectionModel *selection) override;

    // The current page by ledger row, -1 for none: the selection's current row.
    int currentPage() const;
    void setCurrentPage(int ledgerRow);

    // The ledger rows the view has taken in (its layout covers exactly these).
    int rowCount() const { return m_count; }
    // Geometry in viewport coordinates: the area a ledger row is drawn in (empty when it is not
    // laid out) and the row drawn at a point (-1 for none).
    virtual QRect rowRect(int ledgerRow) const = 0;
    virtual int rowAt(const QPoint &viewportPos) const = 0;
    // Rows in the order the view shows them (the strip: ledger order; the timeline: newest walk
    // on top), for keys, for visible-only work and for a screen reader's list.
    virtual int positionOfRow(int ledgerRow) const { return ledgerRow; }
    virtual int rowAtPosition(int position) const { return position; }
    // The item view's geometry, by the rows above.
    QRect visualRect(const QModelIndex &index) const override;
    QModelIndex indexAt(const QPoint &viewportPos) const override;
    void scrollTo(const QModelIndex &index, ScrollHint hint = EnsureVisible) override;

    // Now on the list's TTL clock (what a delegate counts down against); 0 without a list.
    qint64 nowMs() const;

    // What a screen reader says of a row (ui/ledgerviewaccessible.h), empty out of range: by
    // default the page, "Page 3 of 7" (", walk 2" after a restart), and its page in one line
    // ("20 items, fresh, expires in 12 s, private, cursor-repeated").
    virtual QString pageAccessibleName(int ledgerRow) const;
    virtual QString pageAccessibleDescription(int ledgerRow) const;

    // The number of paint events and which rows the last one drew (test hooks for repaints).
    int paintCount() const { return m_paintCount; }
    QPair<int, int> lastPaintedRange() const { return m_lastPainted; }
    bool isAnimating() const { return m_tick.isActive(); }
    int animationIntervalMs() const { return m_tick.isActive() ? m_tick.interval() : 0; }

Q_SIGNALS:
    // The current page changed, by click, keyboard, setCurrentPage() or another view sharing the
    // selection; -1 when nothing is current.
    void currentPageChanged(int ledgerRow);
    // Enter/Return on the current page or a double click (the item view's activated()): open the
    // page (the inspector, its rows).
    void pageActivated(int ledgerRow);

protected:
    LedgerView(Qt::Orientation orientation, QWidget *parent);

    PageLedger *ledger() const { return m_ledger; }
    // Walks: ledger rows (after row 0) where a new walk begins, ascending.
    const QVector<int> &walkStarts() const { return m_walkStarts; }
    int walkBreaksBefore(int ledgerRow) const; // the walk group of a row, 0 for the first
    int walkGroupCount() const { return m_count == 0 ? 0 : int(m_walkStarts.size()) + 1; }
    int walkGroupFirst(int group) const;
    int walkGroupEnd(int group) const;
    // Reading a page fact through the ledger's roles.
    QVariant pageData(int ledgerRow, int role) const;

    // Layout hooks: every row anew (attach, reset) and rows appended at the end.
    virtual void rowsReset() {}
    virtual void rowsAppended(int first, int last)
    {
        Q_UNUSED(first)
        Q_UNUSED(last)
    }
    // Whether a dataChanged with these roles changes what the view draws (empty: everything).
    virtual bool drawsRoles(const QList<int> &roles) const;
    // Rows whose drawn facts changed: by default their areas are repainted if visible.
    virtual void rowsChanged(int first, int last);
    virtual QPair<int, int> visiblePositions() const = 0; // first, last; last < first when none
    virtual void scrollToRow(int ledgerRow) = 0;
    // Paints what is exposed: the rows through paintRow() (the delegate), and what lies between.
    virtual void paint(QPainter *painter, const StatusColors &colors, const QRect &exposed) = 0;
    void paintRow(QPainter *painter, int ledgerRow, const QRect &rect);
    // What a tooltip says at a point and the area it holds for; the default tells the page there.
    virtual QString toolTipAt(const QPoint &viewportPos, QRect *area) const;
    QString pageToolTip(int ledgerRow) const;
    // The animation: updateTimer() decides from what is visible, tick() repaints what moves.
    virtual void updateTimer() {}
    virtual void tick() {}
    void animate(int intervalMs);
    void stopAnimating() { m_tick.stop(); }
    virtual void metricsChanged() {} // font or style changed

    void updateRow(int ledgerRow);
    void notePainted(int ledgerRow);
    QModelIndex indexOfRow(int ledgerRow) const;

    // The item view's moves and selection, by the rows above: arrows along the view's orientation,
    // pages and ends; the other arrows and Tab leave the current page where it is.
    QModelIndex moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers) override;
    int horizontalOffset() const override;
    int verticalOffset() const override;
    bool isIndexHidden(const QModelIndex &) const override { return false; }
    void setSelection(const QRect &rect, QItemSelectionModel::SelectionFlags command) override;
    QRegion visualRegionForSelection(const QItemSelection &selection) const override;

    // The model's changes, taken as rows appended at the end or anything else (a reset).
    void reset() override;
    void rowsInserted(const QModelIndex &parent, int first, int last) override;
    void dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                     const QList<int> &roles = QList<int>()) override;
    void currentChanged(const QModelIndex &current, const QModelIndex &previous) override;

    void paintEvent(QPaintEvent *event) override;
    // Copy (Ctrl+C) puts the current page as its tooltip tells it on the clipboard (cursors masked
    // where the ledger masks them), to hand on; the item view would copy one cell.
    void keyPressEvent(QKeyEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void takeModel(QAbstractItemModel *ledger);
    void relayout();
    void handleCurrentRowChanged(const QModelIndex &current);
    void announceCurrent(int ledgerRow);
    void noteWalkStarts(int first, int last);

    Qt::Orientation m_orientation;
    QPointer<PagedListModel> m_model;
    PageLedger *m_ledger = nullptr;
    QPointer<QItemSelectionModel> m_ownSelection; // made with each list; used until one is shared
    QVector<int> m_walkStarts;
    int m_count = 0;
    int m_current = -1; // the current row last shown and told, to repaint it when it moves
    QTimer m_tick;
    int m_paintCount = 0;
    QPair<int, int> m_lastPainted{-1, -1};
};

} // namespace folio
