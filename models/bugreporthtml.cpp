// The bug report as one HTML file: inline CSS (light, dark, print), an inline SVG timeline, no
// script and nothing fetched. Everything the server sent is hostile text: every string goes
// through esc(), and the only links are to the report's own anchors.

#include "bugreport.h"
#include "bugreportrender.h"
#include "counted.h"
#include "pagerecord.h"
#include "terminaltext.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <map>
#include <set>

namespace folio::BugReport {

using namespace Render;

namespace {

// A server's text in HTML: its controls, bidi and zero-width characters shown as <U+XXXX>
// (terminalSafe(): a control character is not text, and some are not allowed in HTML), escaped.
QString esc(const QString &s)
{
    QString out = terminalSafe(s).toHtmlEscaped();
    out.replace(QLatin1Char('\''), QStringLiteral("&#39;"));
    return out;
}

// A long cursor in a table cell: its start and end, the whole of it in the cell's title.
QString elideMiddle(const QString &s, int width)
{
    if (s.size() <= width)
        return s;
    const int half = (width - 1) / 2;
    return s.left(half) + QChar(0x2026) + s.right(width - 1 - half);
}

QString anchorOf(int list, int page)
{
    return QStringLiteral("l%1-p%2").arg(QString::number(list), QString::number(page));
}

// Numbers for the one-pass QString::arg(a, b, ...): a chained .arg() would read a "%1" in the
// server's text, put in by the .arg() before, as a placeholder of its own.
QString n(qint64 v)
{
    return QString::number(v);
}
QString n1(double v)
{
    return QString::number(v, 'f', 1);
}

const char *const Css = R"css(
:root { color-scheme: light dark;
  --bg: #ffffff; --fg: #1d1f23; --muted: #5c636d; --card: #f6f7f9; --border: #d3d8de; --code: #f1f3f5;
  --fresh: #2f8a52; --stale: #c47d08; --expired: #8f959c; --failed: #c8362c; --discarded: #b5bac0;
  --loading: #5e7fb8; --info: #2d6fc4; --track: #e6e9ed; }
@media (prefers-color-scheme: dark) { :root {
  --bg: #16181b; --fg: #e3e5e8; --muted: #9aa1ab; --card: #1f2226; --border: #3a3f46; --code: #1b1e22;
  --fresh: #58c27d; --stale: #eea53a; --expired: #7a8088; --failed: #f0695e; --discarded: #5a5f66;
  --loading: #86a6e0; --info: #71a9ff; --track: #2a2e34; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1.5rem 1.5rem 3rem; background: var(--bg); color: var(--fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
h1 { font-size: 1.7rem; margin: .1rem 0 .4rem; } h2 { font-size: 1.25rem; margin: 2rem 0 .6rem;
  padding-bottom: .25rem; border-bottom: 1px solid var(--border); } h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
.kicker { margin: 0; color: var(--muted); text-transform: uppercase; letter-spacing: .08em; font-size: .78rem; }
.muted { color: var(--muted); } .small { font-size: .85rem; }
code, pre, .mono { font-family: ui-monospace, "SF Mono", "Cascadia Mono", "DejaVu Sans Mono", Menlo, monospace; font-size: .84rem; }
code { overflow-wrap: anywhere; } code.id { white-space: nowrap; overflow-wrap: normal; }
pre { background: var(--code); border: 1px solid var(--border); border-radius: 6px; padding: .6rem .75rem; margin: .3rem 0 .6rem;
  white-space: pre-wrap; overflow-wrap: anywhere; max-height: 28rem; overflow: auto; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0 .8rem; }
th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; border-bottom: 1px solid var(--border); }
th { font-weight: 600; } table.grid th { background: var(--card); font-size: .85rem; white-space: nowrap; }
table.kv th { width: 11rem; color: var(--muted); font-weight: 500; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
a { color: var(--info); text-decoration: none; } a:hover { text-decoration: underline; }
.verdict { font-size: 1.05rem; margin: .3rem 0 0; padding: .55rem .8rem; border-radius: 6px; border-left: 4px solid var(--fresh);
  background: var(--card); } .verdict.bad { border-left-color: var(--failed); } .verdict.warn { border-left-color: var(--stale); }
.caption { font-style: italic; }
.sev, .state { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .78rem; font-weight: 600;
  border: 1px solid currentColor; white-space: nowrap; }
.sev-error, .st-failed { color: var(--failed); } .sev-warning, .st-stale { color: var(--stale); } .sev-info { color: var(--info); }
.st-fresh, .st-refetching { color: var(--fresh); } .st-expired { color: var(--expired); }
.st-discarded { color: var(--discarded); text-decoration: line-through; } .st-loading { color: var(--loading); }
.src { font-size: .75rem; color: var(--muted); }
article.page { border: 1px solid var(--border); border-radius: 8px; padding: .3rem .9rem .5rem; margin: .8rem 0; background: var(--card); }
article.page.failed { border-left: 4px solid var(--failed); } article.page.flagged { border-left: 4px solid var(--stale); }
article.page.discarded { opacity: .8; }
article.page h3 { display: flex; gap: .6rem; align-items: baseline; flex-wrap: wrap; }
article.page table.kv { margin: .2rem 0 .4rem; } article.page table.kv th { width: 9rem; }
.decoded { color: var(--muted); font-size: .85rem; } .decoded code { color: var(--fg); }
details { margin: .2rem 0; } summary { cursor: pointer; color: var(--muted); font-size: .88rem; }
details[open] > summary { color: var(--fg); }
ul.findings { margin: .1rem 0; padding-left: 1.1rem; }
.scroll { overflow-x: auto; border: 1px solid var(--border); border-radius: 8px; background: var(--card); padding: .4rem; }
svg.timeline { display: block; font-family: system-ui, sans-serif; }
svg .lane { fill: var(--track); } svg .label { fill: var(--fg); font-size: 12px; } svg .num { fill: #fff; font-size: 10px; font-weight: 600; }
svg .axis { fill: var(--muted); font-size: 10px; } svg .tick { stroke: var(--border); } svg .gap { stroke: var(--muted); stroke-dasharray: 2 2; }
svg .b-fresh, svg .b-refetching { fill: var(--fresh); } svg .b-stale { fill: var(--stale); } svg .b-expired, svg .b-replaced { fill: var(--expired); }
svg .b-failed { fill: var(--failed); } svg .b-discarded { fill: var(--discarded); } svg .b-loading { fill: var(--loading); }
svg .strike { stroke: var(--fg); stroke-width: 1.2; } svg .m-error { fill: var(--failed); } svg .m-warning { fill: var(--stale); }
svg .m-info { fill: var(--info); } svg .marker { stroke: var(--bg); stroke-width: 1.2; }
.legend { display: flex; flex-wrap: wrap; gap: .4rem 1rem; font-size: .82rem; color: var(--muted); margin: .5rem 0 0; padding: 0; list-style: none; }
.legend i { display: inline-block; width: .9rem; height: .6rem; border-radius: 2px; margin-right: .3rem; vertical-align: baseline; }
.legend .dot { width: .6rem; height: .6rem; border-radius: 50%; }
footer { margin-top: 2.5rem; padding-top: .6rem; border-top: 1px solid var(--border); color: var(--muted); font-size: .85rem; }
@media print {
  :root { --bg: #fff; --fg: #000; --muted: #444; --card: #fff; --border: #bbb; --code: #f7f7f7; --track: #eee; }
  body { max-width: none; padding: 0; font-size: 10pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  h2 { break-after: avoid; } article.page, table.kv, .scroll, tr { break-inside: avoid; }
  pre { max-height: none; overflow: visible; font-size: 8pt; }
  .scroll { overflow: visible; border: none; padding: 0; } svg.timeline { max-width: 100%; height: auto; }
  table.grid { font-size: 8.5pt; } table.grid code { font-size: 7.5pt; }
  details:not([open]) { display: none; } a { color: inherit; }
}
)css";

QString sevBadge(const QString &severity)
{
    return QStringLiteral("<span class=\"sev sev-%1\">%1</span>").arg(esc(severity));
}

QString stateBadge(const QString &state)
{
    return QStringLiteral("<span class=\"state st-%1\">%1</span>").arg(esc(state));
}

QString code(const QString &s)
{
    return QStringLiteral("<code>%1</code>").arg(esc(s));
}

QString cursorCell(const QJsonValue &cursor, bool present)
{
    const QString full = cursorText(cursor, present);
    const bool isText = present && cursor.isString() && !cursor.toString().isEmpty();
    if (!isText)
        return QStringLiteral("<span class=\"muted\">%1</span>").arg(esc(full));
    return QStringLiteral("<code title=\"%1\">%2</code>").arg(esc(full), esc(elideMiddle(full, 28)));
}

QString cursorDetail(const QJsonValue &cursor, bool present, const QJsonValue &decoding)
{
    QString s = cursorCell(cursor, present);
    if (present && cursor.isString() && !cursor.toString().isEmpty())
        s = code(cursor.toString());
    const QString decoded = decodedText(decoding);
    if (!decoded.isEmpty())
        s += QStringLiteral(
                 "<div class=\"decoded\">decodes to <code>%1</code> <span class=\"src\">(best effort, "
                 "non-normative)</span></div>")
                 .arg(esc(decoded));
    return s;
}

// Every finding of the report, by list and page (index into the list's pages): the timeline's
// markers and each page's list of findings, from the walk and the audit alike.
using PageFindings = QHash<QString, QHash<int, QList<QJsonObject>>>;

PageFindings findingsByPage(const QJsonArray &lists, const QJsonArray &findings)
{
    QHash<QString, QJsonArray> pagesOf;
    for (const QJsonValue &l : lists)
        pagesOf.insert(l.toObject().value(QStringLiteral("list")).toString(),
                       l.toObject().value(QStringLiteral("pages")).toArray());
    PageFindings out;
    for (const QJsonValue &v : findings) {
        const QJsonObject f = v.toObject();
        const QString list = f.value(QStringLiteral("list")).toString();
        const int page = pageOfFinding(pagesOf.value(list), f);
        out[list][page].append(f);
    }
    return out;
}

// The timeline: one lane per list, one bar per request from sent to answered, on a time axis
// whose idle stretches are shortened (a walk takes milliseconds, a refetch comes a TTL later),
// so that every bar is wide enough for its page number; the real times are in each bar's title.
QString timelineSvg(const QJsonArray &lists, const PageFindings &byPage)
{
    struct Bar
    {
        int lane;
        int page;          // index into the list's pages
        qint64 start, end; // µs
        QString cls, label, title;
        bool strike;
        bool last; // the page's last attempt: where its findings are marked
    };
    QList<Bar> bars;
    std::set<qint64> bounds;
    for (int lane = 0; lane < lists.size(); ++lane) {
        const QJsonObject list = lists.at(lane).toObject();
        const QJsonArray pages = list.value(QStringLiteral("pages")).toArray();
        for (int i = 0; i < pages.size(); ++i) {
            const QJsonObject p = pages.at(i).toObject();
            const QString state = p.value(QStringLiteral("state")).toString();
            const QJsonArray attempts = p.value(QStringLiteral("attempts")).toArray();
            for (int a = 0; a < attempts.size(); ++a) {
                const QJsonObject at = attempts.at(a).toObject();
                const qint64 start = at.value(QStringLiteral("sentAtMs")).toInteger();
                const QJsonValue latency = at.value(QStringLiteral("latencyMs"));
                const qint64 end = start + qMax<qint64>(0, latency.isDouble() ? latency.toInteger() : 0);
                const bool last = a == attempts.size() - 1;
                QString cls = last ? state : QStringLiteral("replaced");
                if (at.value(QStringLiteral("failed")).toBool() &&
                    (!last || state != QLatin1String("discarded")))
                    cls = QStringLiteral("failed");
                const QString what = at.value(QStringLiteral("refetch")).toBool() ? QStringLiteral("refetch")
                                                                                  : QStringLiteral("request");
                QString title = QStringLiteral("%1 · %2 · %3 · sent %4 UTC")
                                    .arg(list.value(QStringLiteral("list")).toString(), pageLabel(p), what,
                                         clockTime(start));
                title += latency.isDouble()
                             ? QStringLiteral(" · answered in ") + durationText(latency.toInteger())
                             : QStringLiteral(" · no answer");
                title += QStringLiteral(" · ") + (last ? state : QStringLiteral("replaced by a refetch"));
                bars.append({lane, i, start * 1000, end * 1000, cls,
                             QString::number(p.value(QStringLiteral("page")).toInt()), title,
                             last && state == QLatin1String("discarded"), last});
            }
        }
    }
    // In microseconds, each lane's requests one after the other: times are kept in milliseconds,
    // and a walk asks and is answered several times within one.
    std::stable_sort(bars.begin(), bars.end(), [](const Bar &a, const Bar &b) {
        return a.lane != b.lane ? a.lane < b.lane : a.start < b.start;
    });
    for (qsizetype i = 0; i < bars.size(); ++i) {
        Bar &bar = bars[i];
        if (i > 0 && bars.at(i - 1).lane == bar.lane)
            bar.start = qMax(bar.start, bars.at(i - 1).end);
        bar.end = qMax(bar.end, bar.start + 1);
        bounds.insert(bar.start);
        bounds.insert(bar.end);
    }
    if (bars.isEmpty())
        return QStringLiteral("<p class=\"muted\">No page was requested.</p>");

    // Piecewise-linear time: a stretch some request spans gets at least MinBar pixels, an idle
    // one at most MaxGap; both are capped, and a shortened stretch is drawn as a dashed gap.
    constexpr double PxPerMs = 0.5, MinBar = 20, MaxBusy = 240, MaxGap = 36;
    constexpr int LabelWidth = 170, LaneHeight = 30, Top = 12, AxisHeight = 30, Right = 16;
    const std::vector<qint64> b(bounds.begin(), bounds.end());
    std::vector<double> x(b.size(), LabelWidth);
    std::vector<bool> shortened(b.size(), false);
    for (size_t i = 1; i < b.size(); ++i) {
        const qint64 from = b[i - 1], to = b[i];
        const bool busy = std::any_of(bars.begin(), bars.end(),
                                      [&](const Bar &bar) { return bar.start < to && bar.end > from; });
        const double natural = double(to - from) / 1000 * PxPerMs;
        const double w = busy ? qBound(MinBar, natural, MaxBusy) : qMin(natural, MaxGap);
        shortened[i] = natural > (busy ? MaxBusy : MaxGap);
        x[i] = x[i - 1] + w;
    }
    auto xOf = [&](qint64 t) {
        const auto it = std::lower_bound(b.begin(), b.end(), t);
        return x[size_t(it - b.begin())];
    };
    const int lanes = int(lists.size());
    const double width = x.back() + Right;
    const double height = Top + lanes * LaneHeight + AxisHeight;

    // Inline SVG in HTML needs no namespace: the file names no URL of its own at all.
    QString s =
        QStringLiteral("<svg class=\"timeline\" role=\"img\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 "
                       "%2\" aria-label=\"Timeline of every page request, one lane per list\">\n")
            .arg(n(qint64(width)), n(qint64(height)));
    for (int lane = 0; lane < lanes; ++lane) {
        const QString name = lists.at(lane).toObject().value(QStringLiteral("list")).toString();
        const int y = Top + lane * LaneHeight;
        s += QStringLiteral("<rect class=\"lane\" x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" rx=\"3\"/>")
                 .arg(n(LabelWidth - 4), n(y + 3), n(qint64(width) - LabelWidth - Right + 8),
                      n(LaneHeight - 6));
        s += QStringLiteral("<text class=\"label\" x=\"4\" y=\"%1\"><title>%2</title>%3</text>\n")
                 .arg(n(y + LaneHeight / 2 + 4), esc(name), esc(elideMiddle(name, 24)));
    }
    // Axis: the elapsed time at the start, after each shortened stretch and at the end.
    const int axisY = Top + lanes * LaneHeight;
    double lastLabel = -1e9;
    for (size_t i = 0; i < b.size(); ++i) {
        if (shortened[i]) {
            const double gx = (x[i - 1] + x[i]) / 2;
            s += QStringLiteral("<line class=\"gap\" x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/>")
                     .arg(n1(gx), n(Top), n(axisY + 4));
        }
        const bool want = i == 0 || i + 1 == b.size() || shortened[i];
        if (!want || x[i] - lastLabel < 64)
            continue;
        lastLabel = x[i];
        s += QStringLiteral(
                 "<line class=\"tick\" x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/><text class=\"axis\" "
                 "x=\"%1\" y=\"%4\" text-anchor=\"%5\">%6</text>\n")
                 .arg(n1(x[i]), n(axisY), n(axisY + 5), n(axisY + 17),
                      i == 0              ? QStringLiteral("start")
                      : i + 1 == b.size() ? QStringLiteral("end")
                                          : QStringLiteral("middle"),
                      i == 0 ? QStringLiteral("0 ms")
                             : QStringLiteral("+") + durationText((b[i] - b[0]) / 1000));
    }
    for (const Bar &bar : bars) {
        const double x0 = xOf(bar.start) + 1, x1 = xOf(bar.end) - 1;
        const int y = Top + bar.lane * LaneHeight + 6;
        const int h = LaneHeight - 12;
        s += QStringLiteral(
                 "<g><title>%1</title><rect class=\"b-%2\" x=\"%3\" y=\"%4\" width=\"%5\" height=\"%6\" "
                 "rx=\"3\"/>")
                 .arg(esc(bar.title), esc(bar.cls), n1(x0), n(y), n1(qMax(2.0, x1 - x0)), n(h));
        if (x1 - x0 >= 12)
            s += QStringLiteral("<text class=\"num\" x=\"%1\" y=\"%2\" text-anchor=\"middle\">%3</text>")
                     .arg(n1((x0 + x1) / 2), n(y + h / 2 + 4), esc(bar.label));
        if (bar.strike)
            s += QStringLiteral("<line class=\"strike\" x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\"/>")
                     .arg(n1(x0 + 1), n(y + h / 2), n1(x1 - 1));
        s += QStringLiteral("</g>");
        const QString list = lists.at(bar.lane).toObject().value(QStringLiteral("list")).toString();
        const QList<QJsonObject> marks = bar.last ? byPage.value(list).value(bar.page) : QList<QJsonObject>();
        if (!marks.isEmpty()) {
            QString worst = QStringLiteral("info");
            QStringList lines;
            for (const QJsonObject &f : marks) {
                const QString sev = severityName(f);
                if (sev == QLatin1String("error") ||
                    (sev == QLatin1String("warning") && worst == QLatin1String("info")))
                    worst = sev;
                lines << QStringLiteral("%1 (%2): %3")
                             .arg(f.value(QStringLiteral("id")).toString(), sev,
                                  f.value(QStringLiteral("message")).toString());
            }
            s += QStringLiteral(
                     "<circle class=\"marker m-%1\" cx=\"%2\" cy=\"%3\" r=\"4.5\"><title>%4</title></circle>")
                     .arg(esc(worst), n1(x1 - 1), n(y - 1), esc(lines.join(QLatin1Char('\n'))));
        }
        s += QLatin1Char('\n');
    }
    s += QStringLiteral("</svg>");
    return s;
}

QString legend()
{
    QString s = QStringLiteral("<ul class=\"legend\">");
    const std::pair<const char *, const char *> states[] = {{"fresh", "fresh (TTL running)"},
                                                            {"stale", "stale (TTL 0 or absent)"},
                                                            {"expired", "expired, or replaced by a refetch"},
                                                            {"failed", "failed"},
                                                            {"discarded", "discarded (struck through)"},
                                                            {"loading", "no answer"}};
    for (const auto &[cls, text] : states)
        s += QStringLiteral("<li><i style=\"background: var(--%1)\"></i>%2</li>")
                 .arg(QLatin1String(cls), QLatin1String(text));
    for (const char *sev : {"error", "warning", "info"})
        s += QStringLiteral("<li><i class=\"dot\" style=\"background: var(--%1)\"></i>%2 finding</li>")
                 .arg(QLatin1String(qstrcmp(sev, "error") == 0     ? "failed"
                                    : qstrcmp(sev, "warning") == 0 ? "stale"
                                                                   : "info"),
                      QLatin1String(sev));
    s += QStringLiteral("<li>Idle stretches are shortened (dashed); hover a bar for its times.</li></ul>");
    return s;
}

QString rawBlock(const QJsonValue &entry, const QString &what, const QJsonValue &requestId, bool open,
                 qsizetype cap)
{
    const QString caption = rawCaption(entry, what, requestId);
    bool cut = false;
    const QString text = rawText(entry, cap, &cut);
    if (!entry.isObject() || text.isEmpty())
        return QStringLiteral("<p class=\"small muted\">%1</p>").arg(esc(caption));
    QString s = QStringLiteral("<details%1><summary>%2</summary><pre>%3</pre>")
                    .arg(open ? QStringLiteral(" open") : QString(), esc(caption), esc(text));
    if (cut)
        s += QStringLiteral(
                 "<p class=\"small muted\">Cut at %1 for reading; the JSON report holds it whole.</p>")
                 .arg(bytesText(cap));
    return s + QStringLiteral("</details>");
}

QString findingLine(const QJsonObject &f)
{
    return QStringLiteral("<li>%1 <code>%2</code> %3 <span class=\"src\">%4</span></li>")
        .arg(sevBadge(severityName(f)), esc(f.value(QStringLiteral("id")).toString()),
             esc(f.value(QStringLiteral("message")).toString()),
             esc(f.value(QStringLiteral("source")).toString().isEmpty()
                     ? QStringLiteral("walk")
                     : f.value(QStringLiteral("source")).toString())); // audit, baseline, lint
}

QString pageArticle(int listIndex, int pageIndex, const QJsonObject &p, const QList<QJsonObject> &findings,
                    qsizetype cap)
{
    const QString state = p.value(QStringLiteral("state")).toString();
    const bool failed = state == QLatin1String("failed") || !p.value(QStringLiteral("error")).isNull();
    const bool flagged = !findings.isEmpty();
    QString cls = QStringLiteral("page");
    if (failed)
        cls += QStringLiteral(" failed");
    else if (flagged)
        cls += QStringLiteral(" flagged");
    if (state == QLatin1String("discarded"))
        cls += QStringLiteral(" discarded");
    QString s = QStringLiteral("<article class=\"%1\" id=\"%2\"><h3>%3 %4")
                    .arg(cls, anchorOf(listIndex, pageIndex), esc(pageLabel(p)), stateBadge(state));
    if (p.contains(QStringLiteral("discardReason")))
        s += QStringLiteral("<span class=\"small muted\">%1</span>")
                 .arg(esc(p.value(QStringLiteral("discardReason")).toString()));
    if (p.contains(QStringLiteral("parting")))
        s += QStringLiteral("<span class=\"small muted\">parts from the walk before: %1</span>")
                 .arg(esc(p.value(QStringLiteral("parting")).toString()));
    s += QStringLiteral("</h3><table class=\"kv\">");
    auto row = [&s](const QString &name, const QString &html) {
        s += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(esc(name), html);
    };
    row(QStringLiteral("cursor sent"),
        cursorDetail(p.value(QStringLiteral("cursor")), true, p.value(QStringLiteral("cursorDecoded"))));
    if (!failed || p.value(QStringLiteral("nextCursorPresent")).toBool())
        row(QStringLiteral("nextCursor"), cursorDetail(p.value(QStringLiteral("nextCursor")),
                                                       p.value(QStringLiteral("nextCursorPresent")).toBool(),
                                                       p.value(QStringLiteral("nextCursorDecoded"))));
    if (!failed) {
        QString items = QString::number(p.value(QStringLiteral("itemCount")).toInt());
        if (p.value(QStringLiteral("limit")).isDouble())
            items += QStringLiteral(" (limit %1)").arg(p.value(QStringLiteral("limit")).toInt());
        row(QStringLiteral("items"), esc(items));
        row(QStringLiteral("ttlMs"),
            QStringLiteral("%1 as sent · %2 effective").arg(code(ttlSent(p)), esc(ttlEffective(p))));
        row(QStringLiteral("cacheScope"),
            QStringLiteral("%1 as sent · %2 effective").arg(code(scopeSent(p)), esc(scopeEffective(p))));
    }
    if (failed)
        row(QStringLiteral("error"),
            QStringLiteral("<span class=\"sev-error\">%1</span>").arg(esc(errorText(p))));
    const qint64 latency = p.value(QStringLiteral("latencyMs")).toInteger();
    QString timing = QStringLiteral("answered at %1 UTC")
                         .arg(clockTime(p.value(QStringLiteral("receivedAtMs")).toInteger()));
    if (latency >= 0)
        timing += QStringLiteral(" · %1").arg(durationText(latency));
    timing += QStringLiteral(" · %1").arg(bytesText(p.value(QStringLiteral("bytes")).toInteger()));
    if (p.value(QStringLiteral("receivedAtMs")).toInteger() > 0)
        row(QStringLiteral("timing"), esc(timing));
    if (p.contains(QStringLiteral("refetchCount"))) {
        const QJsonObject d = p.value(QStringLiteral("diff")).toObject();
        row(QStringLiteral("refetched"),
            esc(QStringLiteral("%1 × · last copy: %2 added, %3 removed, %4 changed")
                    .arg(n(p.value(QStringLiteral("refetchCount")).toInt()),
                         n(d.value(QStringLiteral("added")).toInt()),
                         n(d.value(QStringLiteral("removed")).toInt()),
                         n(d.value(QStringLiteral("changed")).toInt()))));
    }
    if (!findings.isEmpty()) {
        QString list = QStringLiteral("<ul class=\"findings\">");
        for (const QJsonObject &f : findings)
            list += findingLine(f);
        row(QStringLiteral("findings"), list + QStringLiteral("</ul>"));
    }
    s += QStringLiteral("</table>");
    // The pages that say something print their raw messages; the others fold them away.
    const bool open = failed || flagged;
    const QJsonArray attempts = p.value(QStringLiteral("attempts")).toArray();
    for (int a = 0; a < attempts.size(); ++a) {
        const QJsonObject at = attempts.at(a).toObject();
        const QString what = attempts.size() > 1
                                 ? QStringLiteral("attempt %1%2: ")
                                       .arg(n(a + 1), at.value(QStringLiteral("refetch")).toBool()
                                                          ? QStringLiteral(" (refetch)")
                                                          : QString())
                                 : QString();
        s += rawBlock(at.value(QStringLiteral("request")), what + QStringLiteral("Raw request"),
                      at.value(QStringLiteral("requestId")), open, cap);
        s += rawBlock(at.value(QStringLiteral("response")), what + QStringLiteral("Raw response"),
                      at.value(QStringLiteral("requestId")), open, cap);
    }
    return s + QStringLiteral("</article>\n");
}

} // namespace

QByteArray toHtml(const QJsonObject &report, qsizetype rawCapBytes)
{
    const auto &[server, summary, lists, findings, name] = Parts(report);
    const PageFindings byPage = findingsByPage(lists, findings);

    QString h = QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                               "<meta name=\"color-scheme\" content=\"light dark\">\n"
                               "<meta name=\"generator\" content=\"%1\">\n<title>Folio report: %2</title>\n"
                               "<style>%3</style>\n</head>\n<body>\n")
                    .arg(esc(report.value(QStringLiteral("generator")).toString()), esc(name),
                         QString::fromUtf8(Css));

    // Header and verdict.
    const int errors = summary.value(QStringLiteral("errors")).toInt();
    const int warnings = summary.value(QStringLiteral("warnings")).toInt();
    const QString aborted = summary.value(QStringLiteral("aborted")).toString();
    QString verdict =
        QStringLiteral("%1 in %2 · %3 · %4")
            .arg(
                countsText(summary), counted(summary.value(QStringLiteral("lists")).toInt(), "list", "lists"),
                counted(summary.value(QStringLiteral("pages")).toInt(), "page request", "page requests"),
                counted(summary.value(QStringLiteral("failedPages")).toInt(), "failed page", "failed pages"));
    verdict += summary.value(QStringLiteral("audited")).toBool() ? QStringLiteral(" · audited")
                                                                 : QStringLiteral(" · not audited");
    if (!aborted.isEmpty())
        verdict += QStringLiteral(" · cut short: ") + aborted;
    const QString verdictClass = errors > 0 || !aborted.isEmpty() ? QStringLiteral("verdict bad")
                                 : warnings > 0                   ? QStringLiteral("verdict warn")
                                                                  : QStringLiteral("verdict");
    h += QStringLiteral("<header><p class=\"kicker\">Folio bug report</p><h1>%1</h1><p class=\"%2\">%3</p>")
             .arg(esc(name), verdictClass, esc(verdict));
    if (!server.value(QStringLiteral("demoCaption")).toString().isEmpty())
        h += QStringLiteral("<p class=\"caption\">%1</p>")
                 .arg(esc(server.value(QStringLiteral("demoCaption")).toString()));
    h += QStringLiteral("</header>\n");

    // The server.
    h += QStringLiteral("<section id=\"server\"><h2>Server</h2><table class=\"kv\">");
    for (const Render::Fact &fact : Render::serverFacts(report, server))
        h += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>")
                 .arg(esc(fact.label), fact.code ? code(fact.text) : esc(fact.text));
    h += QStringLiteral("</table></section>\n");

    // The lists at a glance.
    h += QStringLiteral(
        "<section id=\"lists\"><h2>Lists</h2><table class=\"grid\"><tr><th>List</th><th>Requests</th>"
        "<th>Items</th><th>Ended</th><th>Findings</th></tr>");
    for (int i = 0; i < lists.size(); ++i) {
        const QJsonObject l = lists.at(i).toObject();
        const QString ended = endedText(l);
        h += QStringLiteral(
                 "<tr><td><a href=\"#l%1\">%2</a></td><td class=\"num\">%3</td><td class=\"num\">%4</td>"
                 "<td>%5</td><td>%6</td></tr>")
                 .arg(n(i), esc(l.value(QStringLiteral("list")).toString()),
                      n(l.value(QStringLiteral("requests")).toInt()),
                      n(l.value(QStringLiteral("items")).toInt()), esc(ended),
                      esc(countsText(l.value(QStringLiteral("findingCounts")).toObject())));
    }
    h += QStringLiteral("</table></section>\n");

    // Findings.
    h += QStringLiteral("<section id=\"findings\"><h2>Findings</h2>");
    if (findings.isEmpty()) {
        h += QStringLiteral("<p class=\"muted\">None.</p>");
    } else {
        h += QStringLiteral(
            "<table class=\"grid\"><tr><th>Severity</th><th>Finding</th><th>List</th><th>Page</th>"
            "<th>What happened</th><th>From</th></tr>");
        for (const QJsonValue &v : findings) {
            const QJsonObject f = v.toObject();
            const QString list = f.value(QStringLiteral("list")).toString();
            int listIndex = -1;
            for (int i = 0; i < lists.size() && listIndex < 0; ++i)
                listIndex = lists.at(i).toObject().value(QStringLiteral("list")).toString() == list ? i : -1;
            const int page =
                listIndex >= 0
                    ? pageOfFinding(lists.at(listIndex).toObject().value(QStringLiteral("pages")).toArray(),
                                    f)
                    : -1;
            QString pageCell = f.value(QStringLiteral("page")).isDouble()
                                   ? QString::number(f.value(QStringLiteral("page")).toInt())
                                   : QStringLiteral("—");
            if (page >= 0)
                pageCell = QStringLiteral("<a href=\"#%1\">%2</a>").arg(anchorOf(listIndex, page), pageCell);
            h += QStringLiteral("<tr><td>%1</td><td><code class=\"id\">%2</code></td><td>%3</td><td "
                                "class=\"num\">%4</td><td>%5</td>"
                                "<td class=\"src\">%6</td></tr>")
                     .arg(sevBadge(severityName(f)), esc(f.value(QStringLiteral("id")).toString()), esc(list),
                          pageCell, esc(f.value(QStringLiteral("message")).toString()),
                          esc(f.value(QStringLiteral("source")).toString()));
        }
        h += QStringLiteral("</table>");
    }
    h += QStringLiteral("</section>\n");

    // Timeline.
    h += QStringLiteral(
             "<section id=\"timeline\"><h2>Timeline</h2><div class=\"scroll\">%1</div>%2</section>\n")
             .arg(timelineSvg(lists, byPage), legend());

    // Every list, every page.
    for (int i = 0; i < lists.size(); ++i) {
        const QJsonObject l = lists.at(i).toObject();
        const QJsonArray pages = l.value(QStringLiteral("pages")).toArray();
        h += QStringLiteral("<section class=\"list\" id=\"l%1\"><h2>%2</h2><p class=\"muted\">%3 · %4 · %5")
                 .arg(n(i), esc(l.value(QStringLiteral("title")).toString()),
                      esc(counted(int(pages.size()), "request", "requests")),
                      esc(counted(l.value(QStringLiteral("items")).toInt(), "item", "items")),
                      esc(endedText(l)));
        h += QStringLiteral("</p>");
        if (l.contains(QStringLiteral("arguments")))
            h +=
                QStringLiteral("<p class=\"small\">Arguments: %1</p>")
                    .arg(code(QString::fromUtf8(QJsonDocument(l.value(QStringLiteral("arguments")).toObject())
                                                    .toJson(QJsonDocument::Compact))));
        h += QStringLiteral(
            "<table class=\"grid\"><tr><th>Page</th><th>State</th><th>Cursor sent</th><th>nextCursor</th>"
            "<th>Items</th><th>ttlMs sent → effective</th><th>cacheScope sent → effective</th>"
            "<th>Latency</th><th>Findings</th></tr>");
        for (int p = 0; p < pages.size(); ++p) {
            const QJsonObject page = pages.at(p).toObject();
            const QList<QJsonObject> fs = byPage.value(l.value(QStringLiteral("list")).toString()).value(p);
            QStringList ids;
            for (const QJsonObject &f : fs)
                ids << QStringLiteral("<span class=\"sev-%1\">%2</span>")
                           .arg(esc(severityName(f)), esc(f.value(QStringLiteral("id")).toString()));
            const bool failed = !page.value(QStringLiteral("error")).isNull();
            const qint64 latency = page.value(QStringLiteral("latencyMs")).toInteger();
            h +=
                QStringLiteral(
                    "<tr><td><a href=\"#%1\">%2</a></td><td>%3</td><td>%4</td><td>%5</td><td class=\"num\">%6"
                    "</td><td>%7</td><td>%8</td><td class=\"num\">%9</td><td>%10</td></tr>")
                    .arg(anchorOf(i, p), esc(pageLabel(page).mid(5)),
                         stateBadge(page.value(QStringLiteral("state")).toString()),
                         cursorCell(page.value(QStringLiteral("cursor")), true),
                         failed
                             ? QStringLiteral("<span class=\"sev-error\">%1</span>").arg(esc(errorText(page)))
                             : cursorCell(page.value(QStringLiteral("nextCursor")),
                                          page.value(QStringLiteral("nextCursorPresent")).toBool()),
                         failed ? QString()
                                : QString::number(page.value(QStringLiteral("itemCount")).toInt()),
                         failed ? QString() : esc(ttlSent(page) + QStringLiteral(" → ") + ttlEffective(page)),
                         failed ? QString()
                                : esc(scopeSent(page) + QStringLiteral(" → ") + scopeEffective(page)),
                         latency >= 0 ? esc(durationText(latency)) : QString(),
                         ids.join(QStringLiteral(", ")));
        }
        h += QStringLiteral("</table>");
        for (int p = 0; p < pages.size(); ++p)
            h += pageArticle(i, p, pages.at(p).toObject(),
                             byPage.value(l.value(QStringLiteral("list")).toString()).value(p), rawCapBytes);
        h += QStringLiteral("</section>\n");
    }

    // What the audit did beyond the walks.
    const QJsonObject audit = report.value(QStringLiteral("audit")).toObject();
    h += QStringLiteral("<section id=\"audit\"><h2>Audit</h2>");
    if (audit.isEmpty()) {
        h += QStringLiteral(
            "<p class=\"muted\">No audit was run for this report (in the window: Server → Audit "
            "Paging… before exporting; on the command line, folio report runs it).</p>");
    } else {
        h += QStringLiteral(
            "<table class=\"grid\"><tr><th>List</th><th>Status</th><th>Findings</th><th>Requests</th>"
            "<th>Notes</th></tr>");
        for (const QJsonValue &v : audit.value(QStringLiteral("lists")).toArray()) {
            const QJsonObject l = v.toObject();
            QStringList notes;
            if (l.contains(QStringLiteral("skipped")))
                notes << QStringLiteral("skipped: ") + l.value(QStringLiteral("skipped")).toString();
            for (const QJsonValue &note : l.value(QStringLiteral("notes")).toArray())
                notes << note.toString();
            QStringList ids;
            for (const QJsonValue &f : l.value(QStringLiteral("findings")).toArray())
                ids << QStringLiteral("<span class=\"sev-%1\">%2</span>")
                           .arg(esc(severityName(f.toObject())),
                                esc(f.toObject().value(QStringLiteral("id")).toString()));
            QString noteHtml;
            for (const QString &note : notes)
                noteHtml += QStringLiteral("<div class=\"small\">%1</div>").arg(esc(note));
            h += QStringLiteral(
                     "<tr><td>%1</td><td>%2</td><td>%3</td><td class=\"num\">%4</td><td>%5</td></tr>")
                     .arg(esc(l.value(QStringLiteral("list")).toString()),
                          esc(l.value(QStringLiteral("status")).toString()),
                          ids.isEmpty() ? QStringLiteral("<span class=\"muted\">none</span>")
                                        : ids.join(QStringLiteral(", ")),
                          n(l.value(QStringLiteral("requests")).toInt()), noteHtml);
        }
        h += QStringLiteral("</table>");
    }
    h += QStringLiteral("</section>\n");

    const bool cursorsMasked =
        report.value(QStringLiteral("masking")).toObject().value(QStringLiteral("cursors")).toBool();
    h += QStringLiteral(
             "<footer><p>Secrets are masked: bearer tokens, secret headers and credential-like members read "
             "<code>[redacted]</code>, here and in the raw messages.%1 Cursor decodings are best effort and "
             "non-normative: cursors are opaque by protocol. Times are UTC. Raw messages are shown indented; "
             "the JSON report (folio report --format json) holds them as parsed.</p>"
             "<p>Written by %2, format %3 (docs/report-format.md). This file loads nothing from the "
             "network and runs no script.</p></footer>\n</body>\n</html>\n")
             .arg(cursorsMasked ? QStringLiteral(" Cursors are masked too, and not decoded.") : QString(),
                  esc(report.value(QStringLiteral("generator")).toString()),
                  n(report.value(QStringLiteral("folioReport")).toInt()));
    return h.toUtf8();
}

} // namespace folio::BugReport
