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

namespace {

int entryWidth(const QFontMetrics &fm, const QString &name)
{
    return swatchWidth(fm) + 4 + fm.horizontalAdvance(name);
}

// Each entry's left edge and line, for a width: entries wrap whole onto the next line.
QList<QPoint> layoutEntries(const QFontMetrics &fm, int width)
{
    QList<QPoint> at;
    int x = 2, line = 0;
    for (const Entry &e : entries) {
        const int w = entryWidth(fm, LegendBar::tr(e.name));
        if (x > 2 && x + w > width) {
            x = 2;
            ++line;
        }
        at.append({x, line});
        x += w + Gap;
    }
    return at;
}

int lineHeight(const QFontMetrics &fm)
{
    return fm.height() + 6;
}

} // namespace

QSize LegendBar::sizeHint() const
{
    const QFontMetrics fm = fontMetrics();
    int width = 0;
    for (const Entry &e : entries)
        width += entryWidth(fm, tr(e.name)) + Gap;
    return {width, lineHeight(fm)};
}

QSize LegendBar::minimumSizeHint() const
{
    return {0, lineHeight(fontMetrics())};
}

bool LegendBar::hasHeightForWidth() const
{
    return true;
}

int LegendBar::heightForWidth(int width) const
{
    const QFontMetrics fm = fontMetrics();
    const QList<QPoint> at = layoutEntries(fm, width);
    return (at.isEmpty() ? 1 : at.constLast().y() + 1) * lineHeight(fm);
}

void LegendBar::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // A narrower bar wraps onto more lines: its height follows its width.
    if (const int h = heightForWidth(width()); h != height() && h != minimumHeight()) {
        setMinimumHeight(h);
        setMaximumHeight(h);
    }
}

void LegendBar::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const StatusColors colors(palette());
    const QFontMetrics fm = fontMetrics();
    const int h = fm.height();
    const QList<QPoint> at = layoutEntries(fm, width());
    for (qsizetype i = 0; i < at.size(); ++i) {
        const Entry &e = entries[i];
        const QString name = tr(e.name);
        const int w = swatchWidth(fm);
        const int lineTop = at.at(i).y() * lineHeight(fm);
        const int top = lineTop + 3;
        int x = at.at(i).x();
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
        p.drawText(QRect(x, lineTop, fm.horizontalAdvance(name) + 1, lineHeight(fm)),
                   Qt::AlignLeft | Qt::AlignVCenter, name);
    }
}

} // namespace folio
