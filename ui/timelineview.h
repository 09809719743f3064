#pragma once

#include "ledgerview.h"

namespace folio {

// A waterfall of page requests, drawn rather than listed, so timing problems show as shapes: when
// each page was asked for, how long it took, how long it stays fresh, refetches and failures. One
// lane per page (the current walk on top, discarded walks dimmed below); x is wall-clock time. An
// item view over the ledger: PageLaneDelegate paints each lane, the view the ruler, the grid and now. The
// wheel zooms around the pointer, a drag pans, a double click fits everything again.
class TimelineView : public LedgerView
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    // The x axis, in wall-clock milliseconds since the epoch.
    qint64 rangeStartMs() const { return m_start; }
    qint64 rangeEndMs() const { return m_end; }
    // Shows exactly this range and stops following new requests.
    void setTimeRange(qint64 startMs, qint64 endMs);
    bool isAutoFit() const { return m_autoFit; }
    // Fits every request and fresh band (and now), and keeps fitting as pages arrive.
    void fitAll();

    int laneCount() const { return rowCount(); }
    int ledgerRowForLane(int lane) const;
    int laneForLedgerRow(int ledgerRow) const;
    QRect laneRect(int ledgerRow) const; // viewport coordinates; empty when unknown
    int laneAt(const QPoint &viewportPos) const;
    QRect rowRect(int ledgerRow) const override { return laneRect(ledgerRow); }
    int rowAt(const QPoint &viewportPos) const override { return laneAt(viewportPos); }
    int xForTime(qint64 wallMs) const;
    // The axis as the lanes' delegate (PageLaneDelegate) reads it: the plot's area (the labels to
    // its left), whether a walk is the list's current one (others are dimmed), when the walk of a
    // row ended (the next walk's first request; max while it is current), a lane's height.
    QRect plotRect() const;
    bool isCurrentWalk(int walk) const;
    qint64 walkEndMs(int ledgerRow) const;
    static int laneHeight();
    // Now on the wall clock, as the model's TTL clock sees it (tests move that clock).
    qint64 nowWallMs() const;

    // A lane for a screen reader, as a request: "Request 3 of 7: tools/list page 3" (", walk 2"
    // for an earlier walk; numbered in request order across walks) and "120 ms, 20 items, stale,
    // cursor-repeated" or "failed: …".
    QString pageAccessibleName(int ledgerRow) const override;
    QString pageAccessibleDescription(int ledgerRow) const override;

    QSize sizeHint() const override;

protected:
    void rowsReset() override;
    void rowsAppended(int first, int last) override;
    bool drawsRoles(const QList<int> &roles) const override;
    void rowsChanged(int first, int last) override;
    int positionOfRow(int ledgerRow) const override { return laneForLedgerRow(ledgerRow); }
    int rowAtPosition(int lane) const override { return ledgerRowForLane(lane); }
    QPair<int, int> visiblePositions() const override;
    void scrollToRow(int ledgerRow) override;
    void paint(QPainter *painter, const StatusColors &colors, const QRect &exposed) override;
    QString toolTipAt(const QPoint &viewportPos, QRect *area) const override;
    void updateTimer() override;
    void tick() override;

    void metricsChanged() override; // the font or the zoom: lanes and ruler follow
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void noteRow(int row);
    void updateScrollRange();
    void refit();
    qint64 timeForX(int x) const;
    void paintRuler(QPainter *painter, const StatusColors &colors);
    void zoomAround(int x, qreal factor);

    QVector<qint64> m_walkFirstSent; // per walk group: its first request, 0 until one was sent
    QVector<quint8> m_active;        // per ledger row: loading, refetching or fresh
    qint64 m_wallOffsetMs = 0;       // wall clock minus the model's TTL clock, learnt from received pages
    bool m_hasWallOffset = false;
    int m_activeCount = 0;
    qint64 m_minSent = 0;
    qint64 m_maxEnd = 0;
    qint64 m_start = 0;
    qint64 m_end = 1000;
    bool m_autoFit = true;
    QPoint m_pressPos;
    qint64 m_pressStart = 0;
    bool m_dragging = false;
    bool m_pressed = false;
    QPointer<PagedListModel> m_fitted; // the list the range was fitted to
};

} // namespace folio
