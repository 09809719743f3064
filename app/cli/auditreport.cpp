#include "auditreport.h"
#include "counted.h"
#include "findingsarif.h"
#include "handshake.h"

#include "clioutput.h"
#include "terminaltext.h"

#include <QDateTime>
#include <QJsonArray>
#include <QXmlStreamWriter>

namespace folio {

namespace AuditReport {

namespace {

QString serverLine(const AuditResult &r)
{
    const QString name = r.server.value(QStringLiteral("name")).toString();
    QStringList parts{name.isEmpty() ? QStringLiteral("(unnamed server)") : name};
    const QString version = r.server.value(QStringLiteral("version")).toString();
    if (!version.isEmpty())
        parts.last() += QLatin1Char(' ') + version;
    parts << r.server.value(QStringLiteral("revision")).toString()
          << r.server.value(QStringLiteral("transport")).toString();
    parts.removeAll(QString());
    return parts.join(QStringLiteral(" · "));
}

QString counts(int errors, int warnings, int infos)
{
    return QStringLiteral("%1, %2, %3 info")
        .arg(counted(errors, "error", "errors"), counted(warnings, "warning", "warnings"),
             QString::number(infos));
}

QString summaryLine(const AuditResult &r)
{
    const QJsonObject s = r.summary();
    QString line = QStringLiteral("%1 · %2 audited, %3 skipped · %4 · %5 s")
                       .arg(counts(r.count(Finding::Severity::Error), r.count(Finding::Severity::Warning),
                                   r.count(Finding::Severity::Info)),
                            counted(s.value(QStringLiteral("listsAudited")).toInt(), "list", "lists"),
                            QString::number(s.value(QStringLiteral("listsSkipped")).toInt()),
                            counted(r.requests(), "request", "requests"),
                            QString::number(double(r.elapsedMs) / 1000.0, 'f', 1));
    if (!r.aborted.isEmpty())
        line += QStringLiteral(" · ABORTED: ") + r.aborted;
    return line;
}

QString pageText(const Finding &f)
{
    return f.pages.isEmpty() ? QString() : QStringLiteral("page %1").arg(f.pages.first() + 1);
}

QString listShape(const AuditedList &l)
{
    if (l.id == QLatin1String("server/discover"))
        return QStringLiteral("handshake");
    return QStringLiteral("%1 page%2, %3 item%4, %5")
        .arg(QString::number(l.pages), l.pages == 1 ? QString() : QStringLiteral("s"),
             QString::number(l.items), l.items == 1 ? QString() : QStringLiteral("s"),
             l.complete ? QStringLiteral("complete") : QStringLiteral("incomplete"));
}

QString verdict(const AuditedList &l)
{
    if (!l.isAudited())
        return QStringLiteral("skipped");
    const int e = l.count(Finding::Severity::Error), w = l.count(Finding::Severity::Warning),
              i = l.count(Finding::Severity::Info);
    if (e + w + i == 0)
        return QStringLiteral("ok");
    QStringList parts;
    if (e)
        parts
            << QStringLiteral("%1 error%2").arg(QString::number(e), e == 1 ? QString() : QStringLiteral("s"));
    if (w)
        parts << QStringLiteral("%1 warning%2")
                     .arg(QString::number(w), w == 1 ? QString() : QStringLiteral("s"));
    if (i)
        parts << QStringLiteral("%1 info").arg(i);
    return parts.join(QStringLiteral(", "));
}

QString markdownEscape(QString text)
{
    text.replace(QLatin1Char('|'), QStringLiteral("\\|"));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

} // namespace

bool parseFormat(const QString &name, AuditReportFormat *format)
{
    if (name == QLatin1String("text"))
        *format = AuditReportFormat::Text;
    else if (name == QLatin1String("json"))
        *format = AuditReportFormat::Json;
    else if (name == QLatin1String("markdown") || name == QLatin1String("md"))
        *format = AuditReportFormat::Markdown;
    else if (name == QLatin1String("junit"))
        *format = AuditReportFormat::Junit;
    else if (name == QLatin1String("sarif"))
        *format = AuditReportFormat::Sarif;
    else
        return false;
    return true;
}

int exitCode(const AuditResult &result)
{
    return result.count(Finding::Severity::Error) > 0 ? 1 : 0;
}

QString render(const AuditResult &result, AuditReportFormat format)
{
    switch (format) {
    case AuditReportFormat::Text:
        return toText(result);
    case AuditReportFormat::Json:
        return toJson(result);
    case AuditReportFormat::Markdown:
        return toMarkdown(result);
    case AuditReportFormat::Junit:
        return toJunit(result);
    case AuditReportFormat::Sarif:
        return toSarif(result);
    }
    return {};
}

QString toJson(const AuditResult &result)
{
    return toJsonText(result.toJson());
}

QString toText(const AuditResult &result)
{
    int width = 8;
    for (const AuditedList &l : result.lists)
        width = qMax(width, int(l.id.size()));
    QString out = QStringLiteral("folio audit · %1\n\n").arg(serverLine(result));
    for (const AuditedList &l : result.lists) {
        if (!l.isAudited()) {
            out += QStringLiteral("%1  skipped: %2\n").arg(padded(l.id, width), l.skipped);
            continue;
        }
        out += QStringLiteral("%1  %2  %3\n").arg(padded(l.id, width), padded(listShape(l), 34), verdict(l));
        for (const Finding &f : l.findings) {
            const QString where = pageText(f);
            out += QStringLiteral("    %1 %2%3: %4\n")
                       .arg(padded(Finding::severityName(f.severity), 7), f.id,
                            where.isEmpty() ? QString() : QStringLiteral(" (") + where + QLatin1Char(')'),
                            f.message);
        }
        for (const QString &n : l.notes)
            out += QStringLiteral("    note    %1\n").arg(n);
    }
    out += QStringLiteral("\n%1\n").arg(summaryLine(result));
    return out;
}

QString toMarkdown(const AuditResult &result)
{
    QString out = QStringLiteral("# Folio audit: %1\n\n").arg(serverLine(result));
    out += QStringLiteral("**%1**\n\n").arg(summaryLine(result));
    out += QStringLiteral("| list | shape | verdict |\n|---|---|---|\n");
    for (const AuditedList &l : result.lists)
        out += QStringLiteral("| `%1` | %2 | %3 |\n")
                   .arg(l.id, l.isAudited() ? listShape(l) : markdownEscape(l.skipped), verdict(l));
    for (const AuditedList &l : result.lists) {
        if (!l.isAudited() || (l.findings.isEmpty() && l.notes.isEmpty()))
            continue;
        out += QStringLiteral("\n## `%1`\n\n").arg(l.id);
        for (const Finding &f : l.findings) {
            const QString where = pageText(f);
            out += QStringLiteral("- **%1** `%2`%3: %4\n")
                       .arg(Finding::severityName(f.severity), f.id,
                            where.isEmpty() ? QString() : QStringLiteral(" (") + where + QLatin1Char(')'),
                            f.message);
            if (!f.evidence.isEmpty())
                out +=
                    QStringLiteral("  <br>evidence: `%1`\n")
                        .arg(elide(toJsonLine(f.evidence), 400).replace(QLatin1Char('`'), QLatin1Char('\'')));
        }
        for (const QString &n : l.notes)
            out += QStringLiteral("- note: %1\n").arg(n);
    }
    out += QStringLiteral(
        "\n_Findings are Folio's catalogue ids; cursor decoding and probes are best effort._\n");
    return out;
}

QString toSarif(const AuditResult &result)
{
    QList<FindingSarif::Located> located;
    for (const AuditedList &l : result.lists) {
        for (const Finding &f : l.findings)
            located.append({f, l.id});
    }
    QJsonObject log = FindingSarif::log(result.server.value(QStringLiteral("name")).toString(), located,
                                        Handshake::clientInfo().value(QStringLiteral("version")).toString());
    if (!result.aborted.isEmpty()) {
        // A run that did not complete says so where SARIF readers look for it.
        QJsonArray runs = log.value(QStringLiteral("runs")).toArray();
        QJsonObject run = runs.at(0).toObject();
        run.insert(QStringLiteral("invocations"),
                   QJsonArray{QJsonObject{
                       {QStringLiteral("executionSuccessful"), false},
                       {QStringLiteral("exitCode"), 2},
                       {QStringLiteral("toolExecutionNotifications"),
                        QJsonArray{QJsonObject{{QStringLiteral("level"), QStringLiteral("error")},
                                               {QStringLiteral("message"),
                                                QJsonObject{{QStringLiteral("text"), result.aborted}}}}}}}});
        runs.replace(0, run);
        log.insert(QStringLiteral("runs"), runs);
    }
    return toJsonText(log);
}

QString toJunit(const AuditResult &result)
{
    int tests = 0, failures = 0, skipped = 0;
    for (const AuditedList &l : result.lists) {
        ++tests;
        if (!l.isAudited())
            ++skipped;
        else if (l.count(Finding::Severity::Error) > 0)
            ++failures;
    }
    if (!result.aborted.isEmpty())
        ++tests; // the "audit completed" testcase, in error
    const QString seconds = QString::number(double(result.elapsedMs) / 1000.0, 'f', 3);
    // Server text in attributes and elements, shown as terminalSafe() shows it before the writer
    // escapes it (a C0 control is no XML character: the writer would drop it): the report reads
    // the same on a terminal, in a file and in CI.
    const auto safe = [](const QString &text) { return terminalSafe(text); };
    QByteArray xml; // a byte sink makes the writer declare encoding="UTF-8"
    QXmlStreamWriter w(&xml);
    w.setAutoFormatting(true);
    // The same counts on the suites and on the one suite.
    const auto writeCounts = [&] {
        w.writeAttribute(QStringLiteral("tests"), QString::number(tests));
        w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
        w.writeAttribute(QStringLiteral("errors"),
                         result.aborted.isEmpty() ? QStringLiteral("0") : QStringLiteral("1"));
        w.writeAttribute(QStringLiteral("skipped"), QString::number(skipped));
        w.writeAttribute(QStringLiteral("time"), seconds);
    };
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("folio audit"));
    writeCounts();

    w.writeStartElement(QStringLiteral("testsuite"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("folio audit: ") + safe(serverLine(result)));
    writeCounts();
    w.writeAttribute(QStringLiteral("timestamp"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    w.writeStartElement(QStringLiteral("properties"));
    for (const QString &key : {QStringLiteral("name"), QStringLiteral("version"), QStringLiteral("revision"),
                               QStringLiteral("transport")}) {
        w.writeEmptyElement(QStringLiteral("property"));
        w.writeAttribute(QStringLiteral("name"), QStringLiteral("server.") + key);
        w.writeAttribute(QStringLiteral("value"), safe(result.server.value(key).toString()));
    }
    w.writeEndElement(); // properties

    for (const AuditedList &l : result.lists) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), QStringLiteral("folio.audit"));
        w.writeAttribute(QStringLiteral("name"), l.id);
        w.writeAttribute(QStringLiteral("time"), QString::number(double(l.elapsedMs) / 1000.0, 'f', 3));
        if (!l.isAudited()) {
            w.writeEmptyElement(QStringLiteral("skipped"));
            w.writeAttribute(QStringLiteral("message"), safe(l.skipped));
        } else {
            QList<Finding> errors;
            QString other;
            for (const Finding &f : l.findings) {
                if (f.severity == Finding::Severity::Error)
                    errors.append(f);
                else
                    other += QStringLiteral("%1 %2 (%3): %4\n")
                                 .arg(Finding::severityName(f.severity), f.id, pageText(f), f.message);
            }
            if (!errors.isEmpty()) {
                QStringList ids;
                QString body;
                for (const Finding &f : std::as_const(errors)) {
                    if (!ids.contains(f.id))
                        ids << f.id;
                    body += QStringLiteral("%1 (%2): %3\n  evidence: %4\n")
                                .arg(f.id, pageText(f), f.message, elide(toJsonLine(f.evidence), 1000));
                }
                w.writeStartElement(QStringLiteral("failure"));
                w.writeAttribute(QStringLiteral("type"), ids.join(QLatin1Char(' ')));
                w.writeAttribute(QStringLiteral("message"), errors.size() == 1
                                                                ? safe(errors.first().message)
                                                                : QStringLiteral("%1 error findings: %2")
                                                                      .arg(QString::number(errors.size()),
                                                                           ids.join(QStringLiteral(", "))));
                w.writeCharacters(safe(body));
                w.writeEndElement();
            }
            for (const QString &n : l.notes)
                other += QStringLiteral("note: %1\n").arg(n);
            other += QStringLiteral("%1\n").arg(listShape(l));
            w.writeTextElement(QStringLiteral("system-out"), safe(other));
        }
        w.writeEndElement(); // testcase
    }
    if (!result.aborted.isEmpty()) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), QStringLiteral("folio.audit"));
        w.writeAttribute(QStringLiteral("name"), QStringLiteral("audit completed"));
        w.writeStartElement(QStringLiteral("error"));
        w.writeAttribute(QStringLiteral("message"), safe(result.aborted));
        w.writeEndElement();
        w.writeEndElement();
    }
    w.writeEndElement(); // testsuite
    w.writeEndElement(); // testsuites
    w.writeEndDocument();
    return QString::fromUtf8(xml);
}

} // namespace AuditReport

} // namespace folio
