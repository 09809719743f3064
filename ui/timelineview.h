#pragma once

#include "pagedlistmodel.h"

#include <QAbstractScrollArea>
#include <QItemSelectionModel>
#include <QPointer>
#include <QTimer>
#include <QVector>

namespace folio {

class StatusColors;
struct PageRecord;

// A waterfall of page requests, drawn rather than listed, so timing problems show as shapes: when
// each page was asked for, how long it took, how long it stays fresh, refetches and failures. One
// lane per page (the current walk on top, discarded walks dimmed below); x is wall-clock time. The
// wheel zooms around the pointer, a drag pans, a double click fits everything again.
class TimelineView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    void setListModel(PagedListModel *model);
    PagedListModel *listModel() const { return m_model; }
    // The selection over listModel()->ledger() shared by the views of one list (the timeline
    // makes its own with setListModel(); null goes back to that one).
    void setSelectionModel(QItemSelectionModel *selection);
    QItemSelectionModel *selectionModel() const { return m_selection; }

    // The highlighted lane, by ledger row (-1 for none): the selection's current row.
    int currentPage() const;
    void setCurrentPage(int ledgerRow);

    // The x axis, in wall-clock milliseconds since the epoch.
    qint64 rangeStartMs() const { return m_start; }
    qint64 rangeEndMs() const { return m_end; }
    // Shows exactly this range and stops following new requests.
    void setTimeRange(qint64 startMs, qint64 endMs);
    bool isAutoFit() const { return m_autoFit; }
    // Fits every request and fresh band (and now), and keeps fitting as pages arrive.
    void fitAll();

    int laneCount() const { return m_laneCount; }
    int ledgerRowForLane(int lane) const;
    int laneForLedgerRow(int ledgerRow) const;
    QRect laneRect(int ledgerRow) const; // viewport coordinates; empty when unknown
    int laneAt(const QPoint &viewportPos) const;
    int xForTime(qint64 wallMs) const;
    // Now on the wall clock, as the model's TTL clock sees it (tests move that clock).
    qint64 nowWallMs() const;

    bool isAnimating() const { return m_tick.isActive(); }
    int paintCount() const { return m_paintCount; }

    QSize sizeHint() const override;

Q_SIGNALS:
    // A lane was clicked (or Enter pressed on the current lane): show that page.
    void pageActivated(int ledgerRow);
    // The current lane changed (click, Up/Down, setCurrentPage).
    void currentPageChanged(int ledgerRow);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    struct Group
    {
        int first = 0; // ledger rows [first, end) share one walk
        int end = 0;
        int walk = 0;
        qint64 firstSentMs = 0; // 0 until a request of the walk was sent
    };

    void rebuild();
    void handleRowsInserted(int first, int last);
    void handleDataChanged(int first, int last);
    void noteRow(int row);
    void updateScrollRange();
    void updateTimer();
    void tick();
    void refit();
    int groupOf(int ledgerRow) const;
    qint64 walkEndMs(int group) const; // when the next walk began; max when none did
    QRect plotRect() const;
    qint64 timeForX(int x) const;
    void paintRuler(QPainter *painter, const StatusColors &colors);
    void paintLane(QPainter *painter, int ledgerRow, const QRect &lane, const StatusColors &colors,
                   qint64 now);
    QString laneToolTip(int ledgerRow) const;
    void zoomAround(int x, qreal factor);
    void handleCurrentRowChanged(const QModelIndex &current);

    QPointer<PagedListModel> m_model;
    PageLedger *m_ledger = nullptr;
    QVector<Group> m_groups;   // walks in ledger order; lanes list them newest walk first
    QVector<quint8> m_active;  // per ledger row: loading, refetching or fresh
    qint64 m_wallOffsetMs = 0; // wall clock minus the model's TTL clock, learnt from received pages
    bool m_hasWallOffset = false;
    int m_activeCount = 0;
    int m_laneCount = 0;
    QPointer<QItemSelectionModel> m_selection;
    QItemSelectionModel *m_ownSelection = nullptr;
    int m_current = -1; // the current lane last drawn and told
    qint64 m_minSent = 0;
    qint64 m_maxEnd = 0;
    qint64 m_start = 0;
    qint64 m_end = 1000;
    bool m_autoFit = true;
    QTimer m_tick;
    int m_paintCount = 0;
    QPoint m_pressPos;
    qint64 m_pressStart = 0;
    bool m_dragging = false;
    bool m_pressed = false;
};

} // namespace folio
