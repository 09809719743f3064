// The bug report as Markdown, for an issue tracker: the same sections as the HTML, tables where a
// tracker renders them, raw messages in fenced blocks. No HTML of its own (trackers strip it), so
// the timeline is a line of pages per list instead of a drawing.

#include "bugreport.h"
#include "bugreportrender.h"
#include "counted.h"
#include "pagerecord.h"
#include "terminaltext.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace folio::BugReport {

using namespace Render;

namespace {

// Text in a table cell or a line: nothing the tracker would read as markup, nothing that breaks
// the row. HTML is written as text: a tracker that renders inline HTML meets only entities.
// Controls, bidi and zero-width characters read <U+XXXX> (terminalSafe()).
QString text(const QString &s)
{
    QString out;
    out.reserve(s.size());
    for (const QChar c : terminalSafe(s)) {
        switch (c.unicode()) {
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '|':
        case '#':
        case '~':
            out += QLatin1Char('\\');
            out += c;
            break;
        case '<':
            out += QStringLiteral("&lt;");
            break;
        case '>':
            out += QStringLiteral("&gt;");
            break;
        case '&':
            out += QStringLiteral("&amp;");
            break;
        case '\n':
        case '\r':
        case '\t':
            out += QLatin1Char(' ');
            break;
        default:
            out += c;
        }
    }
    return out;
}

// Inline code that holds any text: a backtick run longer than any inside it, and no line break.
QString code(const QString &s)
{
    QString one = s;
    one.replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QLatin1Char('\r'), QLatin1Char(' '));
    one = terminalSafe(one);
    one.replace(QLatin1Char('|'), QStringLiteral("\\|")); // a table cell ends at a bare |
    int longest = 0, run = 0;
    for (const QChar c : one) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = qMax(longest, run);
    }
    const QString fence(longest + 1, QLatin1Char('`'));
    const bool pad = one.startsWith(QLatin1Char('`')) || one.endsWith(QLatin1Char('`'));
    return pad ? fence + QLatin1Char(' ') + one + QLatin1Char(' ') + fence : fence + one + fence;
}

// A fenced block that holds any text: a fence longer than any backtick run at a line's start.
QString block(const QString &s, const QString &info)
{
    int longest = 2;
    for (const QString &line : s.split(QLatin1Char('\n'))) {
        int run = 0;
        while (run < line.size() && line.at(run) == QLatin1Char('`'))
            ++run;
        longest = qMax(longest, run);
    }
    const QString fence(longest + 1, QLatin1Char('`'));
    return fence + info + QLatin1Char('\n') + terminalSafe(s) + QLatin1Char('\n') + fence + QLatin1Char('\n');
}

QString cursorMd(const QJsonValue &cursor, bool present)
{
    const bool isText = present && cursor.isString() && !cursor.toString().isEmpty();
    return isText ? code(cursor.toString()) : text(cursorText(cursor, present));
}

QString raw(const QJsonValue &entry, const QString &what, const QJsonValue &requestId, qsizetype cap)
{
    QString s = QStringLiteral("%1\n\n").arg(text(rawCaption(entry, what, requestId)));
    bool cut = false;
    const QString body = rawText(entry, cap, &cut);
    if (body.isEmpty())
        return s;
    const QJsonValue message = entry.toObject().value(QStringLiteral("message"));
    s += block(body, message.isObject() || message.isArray() ? QStringLiteral("json") : QString());
    if (cut)
        s += QStringLiteral("\n*Cut at %1 for reading; the JSON report holds it whole.*\n")
                 .arg(bytesText(cap));
    return s + QLatin1Char('\n');
}

} // namespace

QByteArray toMarkdown(const QJsonObject &report, qsizetype rawCapBytes)
{
    const auto &[server, summary, lists, findings, name] = Parts(report);
    const QString aborted = summary.value(QStringLiteral("aborted")).toString();

    QString m = QStringLiteral("# Folio bug report: %1\n\n").arg(text(name));
    m +=
        QStringLiteral("**%1** in %2 · %3 · %4 · %5%6\n\n")
            .arg(countsText(summary),
                 counted(summary.value(QStringLiteral("lists")).toInt(), "list", "lists"),
                 counted(summary.value(QStringLiteral("pages")).toInt(), "page request", "page requests"),
                 counted(summary.value(QStringLiteral("failedPages")).toInt(), "failed page", "failed pages"),
                 summary.value(QStringLiteral("audited")).toBool() ? QStringLiteral("audited")
                                                                   : QStringLiteral("not audited"),
                 aborted.isEmpty() ? QString() : QStringLiteral(" · cut short: ") + text(aborted));
    if (!server.value(QStringLiteral("demoCaption")).toString().isEmpty())
        m += QStringLiteral("*%1*\n\n").arg(text(server.value(QStringLiteral("demoCaption")).toString()));

    m += QStringLiteral("## Server\n\n| | |\n|---|---|\n");
    for (const Render::Fact &fact : Render::serverFacts(report, server))
        m += QStringLiteral("| %1 | %2 |\n").arg(fact.label, fact.code ? code(fact.text) : text(fact.text));

    m += QStringLiteral(
        "\n## Lists\n\n| List | Requests | Items | Ended | Findings |\n|---|--:|--:|---|---|\n");
    for (const QJsonValue &v : lists) {
        const QJsonObject l = v.toObject();
        const QString ended = endedText(l);
        m += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                 .arg(code(l.value(QStringLiteral("list")).toString()),
                      QString::number(l.value(QStringLiteral("requests")).toInt()),
                      QString::number(l.value(QStringLiteral("items")).toInt()), text(ended),
                      countsText(l.value(QStringLiteral("findingCounts")).toObject()));
    }

    m += QStringLiteral("\n## Findings\n\n");
    if (findings.isEmpty()) {
        m += QStringLiteral("None.\n");
    } else {
        m += QStringLiteral(
            "| Severity | Finding | List | Page | What happened | From |\n|---|---|---|--:|---|---|\n");
        for (const QJsonValue &v : findings) {
            const QJsonObject f = v.toObject();
            m += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                     .arg(severityName(f), code(f.value(QStringLiteral("id")).toString()),
                          code(f.value(QStringLiteral("list")).toString()),
                          f.value(QStringLiteral("page")).isDouble()
                              ? QString::number(f.value(QStringLiteral("page")).toInt())
                              : QStringLiteral("—"),
                          text(f.value(QStringLiteral("message")).toString()),
                          f.value(QStringLiteral("source")).toString());
        }
    }

    // The timeline, as text: each list's requests in order, from the first request sent.
    const qint64 start =
        report.value(QStringLiteral("timeline")).toObject().value(QStringLiteral("startMs")).toInteger();
    m += QStringLiteral(
        "\n## Timeline\n\nEach request: page, state, when it was sent (from the first request of the "
        "report) and how long its answer took.\n\n");
    for (const QJsonValue &v : lists) {
        const QJsonObject l = v.toObject();
        QStringList steps;
        for (const QJsonValue &pv : l.value(QStringLiteral("pages")).toArray()) {
            const QJsonObject p = pv.toObject();
            const QJsonArray attempts = p.value(QStringLiteral("attempts")).toArray();
            for (qsizetype a = 0; a < attempts.size(); ++a) {
                const QJsonObject at = attempts.at(a).toObject();
                const bool last = a == attempts.size() - 1;
                const QString state = at.value(QStringLiteral("failed")).toBool() ? QStringLiteral("failed")
                                      : last ? p.value(QStringLiteral("state")).toString()
                                             : QStringLiteral("replaced");
                const QJsonValue latency = at.value(QStringLiteral("latencyMs"));
                steps << QStringLiteral("%1%2 %3 +%4 (%5)")
                             .arg(QString::number(p.value(QStringLiteral("page")).toInt()),
                                  at.value(QStringLiteral("refetch")).toBool() ? QStringLiteral("↻")
                                                                               : QString(),
                                  state,
                                  durationText(at.value(QStringLiteral("sentAtMs")).toInteger() - start),
                                  latency.isDouble() ? durationText(latency.toInteger())
                                                     : QStringLiteral("no answer"));
            }
        }
        m += QStringLiteral("- %1: %2\n")
                 .arg(code(l.value(QStringLiteral("list")).toString()),
                      steps.isEmpty() ? QStringLiteral("no request") : steps.join(QStringLiteral(" → ")));
    }

    for (const QJsonValue &v : lists) {
        const QJsonObject l = v.toObject();
        const QString listId = l.value(QStringLiteral("list")).toString();
        const QJsonArray pages = l.value(QStringLiteral("pages")).toArray();
        m += QStringLiteral("\n## %1\n\n").arg(text(l.value(QStringLiteral("title")).toString()));
        m += QStringLiteral("%1 · %2 · %3\n\n")
                 .arg(counted(int(pages.size()), "request", "requests"),
                      counted(l.value(QStringLiteral("items")).toInt(), "item", "items"), text(endedText(l)));
        if (l.contains(QStringLiteral("arguments")))
            m +=
                QStringLiteral("Arguments: %1\n\n")
                    .arg(code(QString::fromUtf8(QJsonDocument(l.value(QStringLiteral("arguments")).toObject())
                                                    .toJson(QJsonDocument::Compact))));
        m += QStringLiteral(
            "| Page | State | Cursor sent | nextCursor | Items | ttlMs sent → effective | cacheScope sent → "
            "effective | Latency |\n|---|---|---|---|--:|---|---|--:|\n");
        for (const QJsonValue &pv : pages) {
            const QJsonObject p = pv.toObject();
            const bool failed = !p.value(QStringLiteral("error")).isNull();
            const qint64 latency = p.value(QStringLiteral("latencyMs")).toInteger();
            m += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 |\n")
                     .arg(text(pageLabel(p).mid(5)), text(p.value(QStringLiteral("state")).toString()),
                          cursorMd(p.value(QStringLiteral("cursor")), true),
                          failed ? text(errorText(p))
                                 : cursorMd(p.value(QStringLiteral("nextCursor")),
                                            p.value(QStringLiteral("nextCursorPresent")).toBool()),
                          failed ? QString() : QString::number(p.value(QStringLiteral("itemCount")).toInt()),
                          failed ? QString() : text(ttlSent(p) + QStringLiteral(" → ") + ttlEffective(p)),
                          failed ? QString() : text(scopeSent(p) + QStringLiteral(" → ") + scopeEffective(p)),
                          latency >= 0 ? durationText(latency) : QString());
        }
        for (int pageIndex = 0; pageIndex < pages.size(); ++pageIndex) {
            const QJsonObject p = pages.at(pageIndex).toObject();
            m +=
                QStringLiteral("\n### %1 of %2: %3\n\n")
                    .arg(text(pageLabel(p)), code(listId), text(p.value(QStringLiteral("state")).toString()));
            const QString cursorDecoded = decodedText(p.value(QStringLiteral("cursorDecoded")));
            const QString nextDecoded = decodedText(p.value(QStringLiteral("nextCursorDecoded")));
            m += QStringLiteral("- cursor sent: %1%2\n")
                     .arg(cursorMd(p.value(QStringLiteral("cursor")), true),
                          cursorDecoded.isEmpty() ? QString()
                                                  : QStringLiteral(" → decodes to ") + code(cursorDecoded));
            if (p.value(QStringLiteral("error")).isNull()) {
                m += QStringLiteral("- nextCursor: %1%2\n")
                         .arg(cursorMd(p.value(QStringLiteral("nextCursor")),
                                       p.value(QStringLiteral("nextCursorPresent")).toBool()),
                              nextDecoded.isEmpty() ? QString()
                                                    : QStringLiteral(" → decodes to ") + code(nextDecoded));
                m += QStringLiteral(
                         "- ttlMs: %1 as sent, %2 effective\n- cacheScope: %3 as sent, %4 effective\n")
                         .arg(code(ttlSent(p)), text(ttlEffective(p)), code(scopeSent(p)),
                              text(scopeEffective(p)));
            } else {
                m += QStringLiteral("- error: %1\n").arg(text(errorText(p)));
            }
            if (p.contains(QStringLiteral("discardReason")))
                m += QStringLiteral("- discarded: %1\n")
                         .arg(text(p.value(QStringLiteral("discardReason")).toString()));
            if (p.contains(QStringLiteral("parting")))
                m += QStringLiteral("- parts from the walk before: %1\n")
                         .arg(text(p.value(QStringLiteral("parting")).toString()));
            for (const QJsonValue &fv : findings) {
                const QJsonObject f = fv.toObject();
                if (f.value(QStringLiteral("list")).toString() == listId &&
                    pageOfFinding(pages, f) == pageIndex)
                    m += QStringLiteral("- **%1** %2: %3 (%4)\n")
                             .arg(severityName(f), code(f.value(QStringLiteral("id")).toString()),
                                  text(f.value(QStringLiteral("message")).toString()),
                                  f.value(QStringLiteral("source")).toString());
            }
            m += QLatin1Char('\n');
            const QJsonArray attempts = p.value(QStringLiteral("attempts")).toArray();
            for (qsizetype a = 0; a < attempts.size(); ++a) {
                const QJsonObject at = attempts.at(a).toObject();
                const QString what =
                    attempts.size() > 1
                        ? QStringLiteral("Attempt %1%2, ")
                              .arg(QString::number(a + 1), at.value(QStringLiteral("refetch")).toBool()
                                                               ? QStringLiteral(" (refetch)")
                                                               : QString())
                        : QString();
                m += raw(at.value(QStringLiteral("request")), what + QStringLiteral("raw request"),
                         at.value(QStringLiteral("requestId")), rawCapBytes);
                m += raw(at.value(QStringLiteral("response")), what + QStringLiteral("raw response"),
                         at.value(QStringLiteral("requestId")), rawCapBytes);
            }
        }
    }

    const QJsonObject audit = report.value(QStringLiteral("audit")).toObject();
    m += QStringLiteral("\n## Audit\n\n");
    if (audit.isEmpty()) {
        m += QStringLiteral("No audit was run for this report.\n");
    } else {
        m += QStringLiteral("| List | Status | Findings | Requests | Notes |\n|---|---|---|--:|---|\n");
        for (const QJsonValue &v : audit.value(QStringLiteral("lists")).toArray()) {
            const QJsonObject l = v.toObject();
            QStringList ids, notes;
            for (const QJsonValue &f : l.value(QStringLiteral("findings")).toArray())
                ids << code(f.toObject().value(QStringLiteral("id")).toString());
            if (l.contains(QStringLiteral("skipped")))
                notes << QStringLiteral("skipped: ") + l.value(QStringLiteral("skipped")).toString();
            for (const QJsonValue &note : l.value(QStringLiteral("notes")).toArray())
                notes << note.toString();
            m += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                     .arg(code(l.value(QStringLiteral("list")).toString()),
                          l.value(QStringLiteral("status")).toString(),
                          ids.isEmpty() ? QStringLiteral("none") : ids.join(QStringLiteral(", ")),
                          QString::number(l.value(QStringLiteral("requests")).toInt()),
                          text(notes.join(QStringLiteral("; "))));
        }
    }
    m += QStringLiteral(
             "\n---\n\nSecrets are masked: bearer tokens, secret headers and credential-like members read "
             "`[redacted]`.%1 Cursor decodings are best effort and non-normative. Times are UTC. Written by "
             "%2, report format %3 (docs/report-format.md).\n")
             .arg(report.value(QStringLiteral("masking")).toObject().value(QStringLiteral("cursors")).toBool()
                      ? QStringLiteral(" Cursors are masked too, and not decoded.")
                      : QString(),
                  text(report.value(QStringLiteral("generator")).toString()),
                  QString::number(report.value(QStringLiteral("folioReport")).toInt()));
    return m.toUtf8();
}

} // namespace folio::BugReport
