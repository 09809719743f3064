#pragma once

#include "finding.h"
#include "pagerecord.h"

#include <QColor>
#include <QIcon>
#include <QPalette>

class QPainter;
class QRectF;

namespace folio {

// The visual language of docs/product.md in one place, so the strip, the inspector, the timeline
// and the table margin agree: every semantic colour is derived from the widget's palette (light or
// dark), never picked against a white background.
class StatusColors
{
public:
    explicit StatusColors(const QPalette &palette);

    const QPalette &palette() const { return m_palette; }
    // The palette's window is dark: accents are lighter, tints stronger.
    bool isDark() const { return m_dark; }

    // Page states.
    QColor fresh() const { return m_fresh; }
    QColor stale() const { return m_stale; }
    QColor expired() const { return m_expired; }
    QColor refetching() const { return m_fresh; }
    QColor failed() const { return m_failed; }
    QColor discarded() const { return m_discarded; }
    QColor loading() const { return m_loading; }
    // Legacy era and tool results: no hints by design, not a fault.
    QColor legacy() const { return m_legacy; }
    QColor forState(PageRecord::State state) const;

    // Findings.
    QColor severity(Finding::Severity severity) const;
    QColor info() const { return m_info; }

    // cacheScope badges: public and private in the text colour (they are not faults), missing muted,
    // invalid in the error colour.
    QColor scope(PageRecord::Scope scope) const;

    // Neutral parts of a chip or a lane.
    QColor text() const { return m_text; }
    QColor mutedText() const { return m_muted; }
    QColor chipFill() const { return m_chipFill; }
    QColor chipBorder() const { return m_chipBorder; }
    QColor track() const { return m_track; }
    QColor highlight() const { return m_highlight; }
    // The page strip's links: a repeated cursor's arc (a loop is an error) and the lighter link
    // between pages that hold the same items (a warning).
    QColor loopArc() const { return m_failed; }
    QColor duplicateLink() const { return mix(m_stale, m_muted, 0.35); }
    // A faint version of an accent over the base colour, for fills behind text.
    QColor tint(const QColor &accent, qreal amount = 0.18) const;

    // a * (1 - t) + b * t, per channel, alpha included.
    static QColor mix(const QColor &a, const QColor &b, qreal t);

    // Drawing helpers (vector shapes: crisp at any device pixel ratio). rect is the badge's box.
    void drawScopeBadge(QPainter *painter, const QRectF &rect, PageRecord::Scope scope) const;
    // Error: a disc with "!"; warning: a triangle with "!"; info: a disc with "i".
    void drawSeverityBadge(QPainter *painter, const QRectF &rect, Finding::Severity severity) const;
    // Diagonal stripes moving with phase (0..1), for bars of pages being refetched.
    static void drawStripes(QPainter *painter, const QRectF &rect, const QColor &color, qreal phase);
    // A spinner arc for requests in flight; phase 0..1 turns it.
    // One clock for every spinner and stripe (ms since the first asked), so that what is painted
    // at different times moves together.
    static qint64 animationMs();
    static void drawSpinner(QPainter *painter, const QRectF &rect, const QColor &color, qreal phase);

    // A TTL bar, as a page's chip and a read draw it: green and draining while fresh (turning
    // towards amber in its last fifth), amber when stale, grey once expired, striped while fetched
    // again (phase 0..1 moves the stripes), a dotted "no hints" track for the legacy era, an empty
    // track while loading. Failed: a red outline when outlineFailed, else an empty track.
    enum class TtlBar { None, Loading, Fresh, Stale, Expired, Refetching, Failed, Legacy };
    void drawTtlBar(QPainter *painter, const QRectF &bar, TtlBar kind, qreal remaining, qreal phase,
                    bool outlineFailed = false) const;

    // The same shapes as icons (for item views and labels), at 16 px and its 2x.
    QIcon scopeIcon(PageRecord::Scope scope) const;
    QIcon severityIcon(Finding::Severity severity) const;

    static QString scopeName(PageRecord::Scope scope);

private:
    QPalette m_palette;
    bool m_dark = false;
    QColor m_base;
    QColor m_text;
    QColor m_muted;
    QColor m_fresh;
    QColor m_stale;
    QColor m_expired;
    QColor m_failed;
    QColor m_discarded;
    QColor m_loading;
    QColor m_legacy;
    QColor m_info;
    QColor m_chipFill;
    QColor m_chipBorder;
    QColor m_track;
    QColor m_highlight;
};

} // namespace folio

namespace folio {

// How a span of time reads on a chip or a tooltip: "850 ms", "12 s", "4 min 05 s", "2 h 03 min".
QString formatDuration(qint64 ms);
// A cursor for one line of text: masked when asked, elided in the middle when long, "" spelled out.
QString displayCursor(const QString &cursor, bool mask, int maxChars = 48);
// A page in a few lines for tooltips: state and countdown, items, hints as sent, cursors, error,
// findings, discard reason. nowMonoMs is on the model's TTL clock.
QString describePage(const PageRecord &page, qint64 nowMonoMs, bool maskCursors);
// The same page in one line for a screen reader: "20 items, fresh, expires in 12 s, private,
// cursor-repeated"; a failed one says its error ("failed: …") and no count.
QString describePageBriefly(const PageRecord &page, qint64 nowMonoMs);
// The page as a request, in one line for a screen reader: its last answer's latency and refetches
// before what describePageBriefly() says ("120 ms, 20 items, stale, cursor-repeated").
QString describeRequestBriefly(const PageRecord &page, qint64 nowMonoMs);

} // namespace folio
