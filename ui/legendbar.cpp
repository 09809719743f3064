#include "legendbar.h"

#include "statuscolors.h"

#include <QPainter>

namespace folio {

namespace {

enum class Kind { Bar, Stripes, Scope, Severity };

struct Entry
{
    Kind kind;
    const char *name;
    int value; // the state, scope or severity drawn
};

// Page states (bars, as in the strip and the timeline), scopes (badges), severities (badges).
const Entry entries[] = {
    {Kind::Bar, QT_TRANSLATE_NOOP("folio::LegendBar", "fresh"), 0},
    {Kind::Bar, QT_TRANSLATE_NOOP("folio::LegendBar", "stale"), 1},
    {Kind::Bar, QT_TRANSLATE_NOOP("folio::LegendBar", "expired"), 2},
    {Kind::Stripes, QT_TRANSLATE_NOOP("folio::LegendBar", "refetching"), 0},
    {Kind::Bar, QT_TRANSLATE_NOOP("folio::LegendBar", "failed"), 3},
    {Kind::Bar, QT_TRANSLATE_NOOP("folio::LegendBar", "discarded"), 4},
    {Kind::Scope, QT_TRANSLATE_NOOP("folio::LegendBar", "public"), int(PageRecord::Scope::Public)},
    {Kind::Scope, QT_TRANSLATE_NOOP("folio::LegendBar", "private"), int(PageRecord::Scope::Private)},
    {Kind::Scope, QT_TRANSLATE_NOOP("folio::LegendBar", "missing"), int(PageRecord::Scope::Missing)},
    {Kind::Scope, QT_TRANSLATE_NOOP("folio::LegendBar", "invalid"), int(PageRecord::Scope::Invalid)},
    {Kind::Severity, QT_TRANSLATE_NOOP("folio::LegendBar", "error"), int(Finding::Severity::Error)},
    {Kind::Severity, QT_TRANSLATE_NOOP("folio::LegendBar", "warning"), int(Finding::Severity::Warning)},
    {Kind::Severity, QT_TRANSLATE_NOOP("folio::LegendBar", "info"), int(Finding::Severity::Info)},
};

constexpr int Gap = 12;

int swatchWidth(const QFontMetrics &fm)
{
    return fm.height() + 4;
}

} // namespace

LegendBar::LegendBar(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("legend"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setToolTip(tr("What the colours and badges mean"));
}

QStringList LegendBar::entryNames()
{
    QStringList names;
    for (const Entry &e : entries)
        names << tr(e.name);
    return names;
}

QSize LegendBar::sizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    int width = 0;
    for (const Entry &e : entries)
        width += swatchWidth(fm) + 4 + fm.horizontalAdvance(tr(e.name)) + Gap;
    return {width, fm.height() + 6};
}

QSize LegendBar::minimumSizeHint() const
{
    return {0, fontMetrics().height() + 6};
}

void LegendBar::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const StatusColors colors(palette());
    const QFontMetrics fm = fontMetrics();
    const int h = fm.height();
    const int top = (height() - h) / 2;
    int x = 2;
    for (const Entry &e : entries) {
        const QString name = tr(e.name);
        const int w = swatchWidth(fm);
        if (x + w + 4 + fm.horizontalAdvance(name) > width())
            break; // what does not fit is left out whole, never cut
        const QRectF box(x, top, w, h);
        switch (e.kind) {
        case Kind::Bar: {
            const QColor c = e.value == 0   ? colors.fresh()
                             : e.value == 1 ? colors.stale()
                             : e.value == 2 ? colors.expired()
                             : e.value == 3 ? colors.failed()
                                            : colors.discarded();
            const QRectF bar(box.left(), box.center().y() - 3, box.width(), 6);
            p.setPen(Qt::NoPen);
            p.setBrush(c);
            p.drawRoundedRect(bar, 3, 3);
            break;
        }
        case Kind::Stripes:
            StatusColors::drawStripes(&p, QRectF(box.left(), box.center().y() - 3, box.width(), 6),
                                      colors.refetching(), 0);
            break;
        case Kind::Scope:
            colors.drawScopeBadge(&p, QRectF(box.center().x() - h / 2.0, box.top(), h, h),
                                  PageRecord::Scope(e.value));
            break;
        case Kind::Severity:
            colors.drawSeverityBadge(&p, QRectF(box.center().x() - h / 2.0, box.top(), h, h),
                                     Finding::Severity(e.value));
            break;
        }
        x += w + 4;
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(x, 0, fm.horizontalAdvance(name) + 1, height()), Qt::AlignLeft | Qt::AlignVCenter,
                   name);
        x += fm.horizontalAdvance(name) + Gap;
    }
}

} // namespace folio
