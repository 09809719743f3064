#include "statuscolors.h"

#include "terminaltext.h"

#include <QElapsedTimer>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QtMath>

namespace folio {

namespace {

// An accent of the given hue, light enough on a dark window and dark enough on a light one: the
// lightness moves away from the window's lightness, so text and thin bars keep their contrast.
QColor accent(qreal hueDegrees, qreal saturation, qreal windowLightness)
{
    const qreal lightness = windowLightness >= 0.5 ? 0.44 - (windowLightness - 0.5) * 0.12
                                                   : 0.60 + (0.5 - windowLightness) * 0.12;
    return QColor::fromHslF(hueDegrees / 360.0, saturation, qBound(0.2, lightness, 0.8));
}

} // namespace

StatusColors::StatusColors(const QPalette &palette)
    : m_palette(palette)
{
    const QColor window = palette.color(QPalette::Window);
    const qreal windowLightness = window.lightnessF();
    m_dark = windowLightness < 0.5;
    m_base = palette.color(QPalette::Base);
    m_text = palette.color(QPalette::Text);
    m_muted = mix(palette.color(QPalette::WindowText), window, 0.45);
    m_fresh = accent(136, 0.58, windowLightness);
    m_stale = accent(36, 0.92, windowLightness);
    m_failed = accent(2, 0.72, windowLightness);
    m_info = accent(212, 0.72, windowLightness);
    m_expired = mix(m_text, m_base, 0.55);
    m_discarded = mix(m_text, m_base, 0.62);
    m_loading = mix(palette.color(QPalette::Highlight), m_text, 0.15);
    m_legacy = mix(m_text, m_base, 0.5);
    m_highlight = palette.color(QPalette::Highlight);
    // A chip sits on the window colour; a touch towards the text colour makes it a card in both palettes.
    m_chipFill = m_dark ? mix(window, m_text, 0.08) : mix(m_base, window, 0.15);
    m_chipBorder = mix(window, m_text, m_dark ? 0.30 : 0.22);
    m_track = mix(m_base, m_text, m_dark ? 0.16 : 0.10);
}

QColor StatusColors::mix(const QColor &a, const QColor &b, qreal t)
{
    const QColor x = a.toRgb();
    const QColor y = b.toRgb();
    return QColor::fromRgbF(
        float(x.redF() * (1 - t) + y.redF() * t), float(x.greenF() * (1 - t) + y.greenF() * t),
        float(x.blueF() * (1 - t) + y.blueF() * t), float(x.alphaF() * (1 - t) + y.alphaF() * t));
}

QColor StatusColors::tint(const QColor &accentColor, qreal amount) const
{
    return mix(m_base, accentColor, m_dark ? amount * 1.5 : amount);
}

QColor StatusColors::forState(PageRecord::State state) const
{
    switch (state) {
    case PageRecord::State::Loading:
        return m_loading;
    case PageRecord::State::Fresh:
    case PageRecord::State::Refetching:
        return m_fresh;
    case PageRecord::State::Stale:
        return m_stale;
    case PageRecord::State::Expired:
        return m_expired;
    case PageRecord::State::Failed:
        return m_failed;
    case PageRecord::State::Discarded:
        return m_discarded;
    }
    return m_text;
}

QColor StatusColors::severity(Finding::Severity severity) const
{
    switch (severity) {
    case Finding::Severity::Error:
        return m_failed;
    case Finding::Severity::Warning:
        return m_stale;
    case Finding::Severity::Info:
        return m_info;
    }
    return m_info;
}

QColor StatusColors::scope(PageRecord::Scope scope) const
{
    switch (scope) {
    case PageRecord::Scope::Public:
    case PageRecord::Scope::Private:
        return mix(m_text, m_base, 0.2);
    case PageRecord::Scope::Missing:
    case PageRecord::Scope::NotApplicable:
        return m_muted;
    case PageRecord::Scope::Invalid:
        return m_failed;
    }
    return m_muted;
}

QString StatusColors::scopeName(PageRecord::Scope scope)
{
    switch (scope) {
    case PageRecord::Scope::Public:
        return QStringLiteral("public");
    case PageRecord::Scope::Private:
        return QStringLiteral("private");
    case PageRecord::Scope::Missing:
        return QStringLiteral("missing");
    case PageRecord::Scope::Invalid:
        return QStringLiteral("invalid");
    case PageRecord::Scope::NotApplicable:
        return QStringLiteral("no hints");
    }
    return {};
}

void StatusColors::drawScopeBadge(QPainter *painter, const QRectF &rect, PageRecord::Scope scope) const
{
    if (scope == PageRecord::Scope::NotApplicable)
        return;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const qreal side = qMin(rect.width(), rect.height());
    const QRectF box(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side);
    const qreal pen = qMax(1.0, side / 12.0);
    const QColor color = this->scope(scope);
    const QRectF inner = box.adjusted(pen, pen, -pen, -pen);

    switch (scope) {
    case PageRecord::Scope::Public: {
        // A globe: the outline, a meridian ellipse, the axis and two parallels.
        painter->setPen(QPen(color, pen));
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(inner);
        const qreal w = inner.width() * 0.42;
        painter->drawEllipse(QRectF(inner.center().x() - w / 2, inner.top(), w, inner.height()));
        painter->drawLine(QPointF(inner.center().x(), inner.top()),
                          QPointF(inner.center().x(), inner.bottom()));
        const qreal dy = inner.height() * 0.22;
        const qreal dx = qSqrt(qMax(0.0, (inner.height() / 2) * (inner.height() / 2) - dy * dy));
        painter->drawLine(QPointF(inner.left(), inner.center().y()),
                          QPointF(inner.right(), inner.center().y()));
        painter->drawLine(QPointF(inner.center().x() - dx, inner.center().y() - dy),
                          QPointF(inner.center().x() + dx, inner.center().y() - dy));
        painter->drawLine(QPointF(inner.center().x() - dx, inner.center().y() + dy),
                          QPointF(inner.center().x() + dx, inner.center().y() + dy));
        break;
    }
    case PageRecord::Scope::Private: {
        // A padlock: a filled body and an open-bottomed shackle.
        const QRectF body(inner.left() + inner.width() * 0.12, inner.top() + inner.height() * 0.44,
                          inner.width() * 0.76, inner.height() * 0.56);
        QPainterPath shackle;
        const qreal sw = body.width() * 0.62;
        const QRectF arc(body.center().x() - sw / 2, inner.top(), sw, inner.height() * 0.62);
        shackle.moveTo(arc.left(), body.top());
        shackle.lineTo(arc.left(), arc.center().y());
        shackle.arcTo(arc, 180, -180);
        shackle.lineTo(arc.right(), body.top());
        painter->setPen(QPen(color, pen * 1.3, Qt::SolidLine, Qt::FlatCap));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(shackle);
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawRoundedRect(body, side * 0.08, side * 0.08);
        painter->setBrush(m_base);
        const qreal hole = body.height() * 0.28;
        painter->drawEllipse(QPointF(body.center().x(), body.center().y()), hole / 2, hole / 2);
        break;
    }
    case PageRecord::Scope::Missing: {
        // Nothing was said: the place of a badge, dashed.
        QPen dashed(color, pen);
        dashed.setDashPattern({1.6, 1.6});
        painter->setPen(dashed);
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(inner);
        break;
    }
    case PageRecord::Scope::Invalid: {
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawEllipse(inner);
        QFont f = painter->font();
        f.setBold(true);
        f.setPixelSize(qMax(6, int(side * 0.8)));
        painter->setFont(f);
        painter->setPen(m_base);
        painter->drawText(inner, Qt::AlignCenter, QStringLiteral("?"));
        break;
    }
    case PageRecord::Scope::NotApplicable:
        break;
    }
    painter->restore();
}

void StatusColors::drawSeverityBadge(QPainter *painter, const QRectF &rect, Finding::Severity severity) const
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const qreal side = qMin(rect.width(), rect.height());
    const QRectF box(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side);
    const QColor color = this->severity(severity);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    QRectF glyphBox = box;
    if (severity == Finding::Severity::Warning) {
        QPainterPath triangle;
        triangle.moveTo(box.center().x(), box.top());
        triangle.lineTo(box.right(), box.bottom() - side * 0.04);
        triangle.lineTo(box.left(), box.bottom() - side * 0.04);
        triangle.closeSubpath();
        painter->drawPath(triangle);
        glyphBox = box.adjusted(0, side * 0.22, 0, 0);
    } else {
        painter->drawEllipse(box);
    }
    // The glyph is drawn, not typeset: a bar and a dot, so it is centred in every font.
    const QColor glyph = m_dark ? QColor(Qt::black) : m_base;
    painter->setBrush(glyph);
    const qreal bw = qMax(1.2, side * 0.14);
    const qreal cx = glyphBox.center().x();
    const qreal top = glyphBox.top() + glyphBox.height() * 0.2;
    const qreal bottom = glyphBox.bottom() - glyphBox.height() * 0.2;
    const qreal dot = bw;
    if (severity == Finding::Severity::Info) {
        painter->drawRect(QRectF(cx - bw / 2, top + dot * 1.8, bw, bottom - top - dot * 1.8));
        painter->drawEllipse(QPointF(cx, top + dot / 2), dot * 0.65, dot * 0.65);
    } else {
        painter->drawRect(QRectF(cx - bw / 2, top, bw, bottom - top - dot * 1.8));
        painter->drawEllipse(QPointF(cx, bottom - dot / 2), dot * 0.65, dot * 0.65);
    }
    painter->restore();
}

void StatusColors::drawTtlBar(QPainter *painter, const QRectF &bar, TtlBar kind, qreal remaining, qreal phase,
                              bool outlineFailed) const
{
    // Below this fraction of its TTL left, a fresh bar turns towards amber.
    constexpr qreal warnFraction = 0.2;
    const qreal radius = bar.height() / 2;
    painter->save();
    painter->setPen(Qt::NoPen);
    switch (kind) {
    case TtlBar::Failed:
        if (outlineFailed) {
            painter->setBrush(tint(failed(), 0.10));
            painter->setPen(QPen(failed(), 1.5));
            painter->drawRoundedRect(bar, radius, radius);
            break;
        }
        [[fallthrough]];
    case TtlBar::None:
    case TtlBar::Loading:
        painter->setBrush(track());
        painter->drawRoundedRect(bar, radius, radius);
        break;
    case TtlBar::Fresh: {
        painter->setBrush(tint(fresh(), 0.22));
        painter->drawRoundedRect(bar, radius, radius);
        QColor color = fresh();
        if (remaining < warnFraction)
            color = mix(stale(), fresh(), remaining / warnFraction);
        painter->setBrush(color);
        const qreal w = bar.width() * remaining;
        if (w > 0.5)
            painter->drawRoundedRect(QRectF(bar.left(), bar.top(), qMax(w, bar.height()), bar.height()),
                                     radius, radius);
        break;
    }
    case TtlBar::Stale:
        painter->setBrush(stale());
        painter->drawRoundedRect(bar, radius, radius);
        break;
    case TtlBar::Expired:
        painter->setBrush(expired());
        painter->drawRoundedRect(bar, radius, radius);
        break;
    case TtlBar::Refetching: {
        QPainterPath clip;
        clip.addRoundedRect(bar, radius, radius);
        painter->setClipPath(clip, Qt::IntersectClip);
        drawStripes(painter, bar, fresh(), phase);
        break;
    }
    case TtlBar::Legacy:
        // No hints by design: a quiet dotted track, not a warning.
        painter->setPen(QPen(legacy(), 1.2, Qt::DotLine, Qt::RoundCap));
        painter->drawLine(QPointF(bar.left() + 1, bar.center().y()),
                          QPointF(bar.right() - 1, bar.center().y()));
        break;
    }
    painter->restore();
}

void StatusColors::drawStripes(QPainter *painter, const QRectF &rect, const QColor &color, qreal phase)
{
    painter->save();
    painter->setClipRect(rect, Qt::IntersectClip);
    painter->setRenderHint(QPainter::Antialiasing);
    const qreal period = qMax(4.0, rect.height() * 1.6);
    const qreal offset = (phase - std::floor(phase)) * period;
    QColor faint = color;
    faint.setAlphaF(0.35f);
    painter->fillRect(rect, faint);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    for (qreal x = rect.left() - rect.height() - period + offset; x < rect.right() + period; x += period) {
        QPainterPath stripe;
        stripe.moveTo(x, rect.bottom());
        stripe.lineTo(x + period / 2, rect.bottom());
        stripe.lineTo(x + period / 2 + rect.height(), rect.top());
        stripe.lineTo(x + rect.height(), rect.top());
        stripe.closeSubpath();
        painter->drawPath(stripe);
    }
    painter->restore();
}

qint64 StatusColors::animationMs()
{
    static QElapsedTimer timer;
    if (!timer.isValid())
        timer.start();
    return timer.elapsed();
}

void StatusColors::drawSpinner(QPainter *painter, const QRectF &rect, const QColor &color, qreal phase)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const qreal side = qMin(rect.width(), rect.height());
    const qreal pen = qMax(1.5, side / 8);
    const QRectF box(rect.center().x() - side / 2 + pen / 2, rect.center().y() - side / 2 + pen / 2,
                     side - pen, side - pen);
    QColor faint = color;
    faint.setAlphaF(0.25f);
    painter->setPen(QPen(faint, pen));
    painter->drawEllipse(box);
    painter->setPen(QPen(color, pen, Qt::SolidLine, Qt::RoundCap));
    const int start = int(-(phase - std::floor(phase)) * 360 * 16);
    painter->drawArc(box, start, 100 * 16);
    painter->restore();
}

QIcon StatusColors::scopeIcon(PageRecord::Scope scope) const
{
    QIcon icon;
    for (int size : {16, 32}) {
        QPixmap pm(size, size);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        drawScopeBadge(&p, QRectF(0, 0, size, size), scope);
        p.end();
        icon.addPixmap(pm);
    }
    return icon;
}

QIcon StatusColors::severityIcon(Finding::Severity severity) const
{
    QIcon icon;
    for (int size : {16, 32}) {
        QPixmap pm(size, size);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        const qreal m = size / 16.0;
        drawSeverityBadge(&p, QRectF(m, m, size - 2 * m, size - 2 * m), severity);
        p.end();
        icon.addPixmap(pm);
    }
    return icon;
}

} // namespace folio

#include "cursordecoder.h"

#include <QCoreApplication>

namespace folio {

QString formatDuration(qint64 ms)
{
    if (ms < 0)
        ms = 0;
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    const qint64 s = ms / 1000;
    if (s < 60)
        return QStringLiteral("%1 s").arg(s);
    if (s < 3600)
        return QStringLiteral("%1 min %2 s")
            .arg(QString::number(s / 60), QStringLiteral("%1").arg(s % 60, 2, 10, QLatin1Char('0')));
    if (s < 86400)
        return QStringLiteral("%1 h %2 min")
            .arg(QString::number(s / 3600),
                 QStringLiteral("%1").arg((s % 3600) / 60, 2, 10, QLatin1Char('0')));
    return QStringLiteral("%1 d %2 h").arg(QString::number(s / 86400), QString::number((s % 86400) / 3600));
}

QString displayCursor(const QString &cursor, bool mask, int maxChars)
{
    if (cursor.isEmpty())
        return QStringLiteral("\"\" (empty string)");
    if (mask)
        return maskCursor(cursor);
    if (cursor.size() <= maxChars)
        return cursor;
    const int half = (maxChars - 1) / 2;
    return cursor.left(half) + QChar(0x2026) + cursor.right(half);
}

namespace {

QString pageTr(const char *text)
{
    return QCoreApplication::translate("folio::PageStrip", text);
}

// The facts a tooltip and a screen reader both say of a page, in the same words.
QString itemsFact(const PageRecord &p)
{
    return p.itemCount == 1 ? pageTr("1 item") : pageTr("%1 items").arg(p.itemCount);
}

QString freshFact(const PageRecord &p, qint64 nowMonoMs)
{
    return pageTr("fresh, expires in %1").arg(formatDuration(p.expiresAtMonoMs() - nowMonoMs));
}

QString latencyFact(const PageRecord &p)
{
    return QStringLiteral("%1 ms").arg(p.latencyMs());
}

QString refetchFact(const PageRecord &p)
{
    return pageTr("refetched %1\u00d7").arg(p.refetchCount);
}

// What the page holds and how it stands, for one line: items, state (or the failure), scope,
// findings. A failed page holds nothing, so it says no count.
QStringList briefFacts(const PageRecord &p, qint64 nowMonoMs)
{
    QStringList parts;
    if ((p.receivedAtMs > 0 || p.isSettled()) && p.state != PageRecord::State::Failed)
        parts << itemsFact(p);
    if (p.state == PageRecord::State::Fresh && p.expiresAtMonoMs() >= 0)
        parts << freshFact(p, nowMonoMs);
    else if (p.state == PageRecord::State::Failed && p.error.isError())
        parts << pageTr("failed: %1").arg(p.error.describe());
    else
        parts << PageRecord::stateName(p.state);
    if (p.scope == PageRecord::Scope::Public)
        parts << pageTr("public");
    else if (p.scope == PageRecord::Scope::Private)
        parts << pageTr("private");
    if (!p.parting.isEmpty())
        parts << pageTr("parts from the walk before");
    for (const Finding &f : p.findings)
        parts << f.id;
    return parts;
}

} // namespace

QString describePage(const PageRecord &p, qint64 nowMonoMs, bool maskCursors)
{
    auto tr = [](const char *text, const char *disambiguation = nullptr, int n = -1) {
        return QCoreApplication::translate("folio::PageStrip", text, disambiguation, n);
    };
    QStringList lines;
    QString head = tr("Page %1").arg(p.index + 1);
    if (p.walk > 0)
        head += tr(" (walk %1)").arg(p.walk + 1);
    QString state = PageRecord::stateName(p.state);
    if (p.state == PageRecord::State::Fresh && p.expiresAtMonoMs() >= 0)
        state = freshFact(p, nowMonoMs);
    else if (p.state == PageRecord::State::Stale && !p.hintsExpected)
        state = p.legacyEra ? tr("no hints (legacy era)") : tr("no hints (tool result)");
    else if (p.state == PageRecord::State::Discarded && !p.discardReason.isEmpty())
        state = tr("discarded: %1").arg(p.discardReason);
    lines << head + QStringLiteral(" \u2014 ") + state;

    if (p.receivedAtMs > 0 || p.isSettled()) {
        QStringList facts;
        facts << itemsFact(p);
        if (p.latencyMs() >= 0)
            facts << latencyFact(p);
        if (p.responseBytes > 0)
            facts << QStringLiteral("%1 bytes").arg(p.responseBytes);
        if (p.refetchCount > 0)
            facts << refetchFact(p);
        lines << facts.join(QStringLiteral(" \u00b7 "));
    }
    if (p.hintsExpected && p.isSettled() && p.state != PageRecord::State::Failed)
        lines << tr("ttlMs %1 \u00b7 cacheScope %2").arg(p.hints.ttlText(), p.hints.scopeText());
    lines << tr("cursor %1")
                 .arg(p.requestCursor ? displayCursor(*p.requestCursor, maskCursors, 40)
                                      : tr("(none: the first page)"));
    if (p.next.isString())
        lines << tr("next %1").arg(displayCursor(p.next.text, maskCursors, 40));
    else if (p.isSettled() && p.state != PageRecord::State::Failed)
        lines << tr("next %1 (the end)")
                     .arg(p.next.presence == NextCursor::Presence::Null ? QStringLiteral("null")
                                                                        : tr("absent"));
    if (p.error.isError())
        lines << tr("error: %1").arg(p.error.describe());
    if (!p.parting.isEmpty())
        lines << tr("parts from the walk before: %1").arg(p.parting);
    for (const Finding &f : p.findings)
        lines << QStringLiteral("%1 %2: %3").arg(Finding::severityName(f.severity), f.id, f.message);
    // Errors, reasons and findings quote the server: shown, never acted on.
    return terminalSafe(lines.join(QLatin1Char('\n')));
}

QString describePageBriefly(const PageRecord &p, qint64 nowMonoMs)
{
    return oneLineSafe(briefFacts(p, nowMonoMs).join(QStringLiteral(", ")));
}

QString describeRequestBriefly(const PageRecord &p, qint64 nowMonoMs)
{
    QStringList parts;
    if (p.latencyMs() >= 0)
        parts << latencyFact(p);
    if (p.refetchCount > 0)
        parts << refetchFact(p);
    parts << briefFacts(p, nowMonoMs);
    return oneLineSafe(parts.join(QStringLiteral(", ")));
}

} // namespace folio
