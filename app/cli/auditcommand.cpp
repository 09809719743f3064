#include "auditcommand.h"

#include "sessionrecording.h"

#include "clioutput.h"
#include "clisession.h"
#include "commandline.h"
#include "mcpclient.h"

#include <QCommandLineParser>
#include <QJsonDocument>

namespace folio {

namespace {

// The report on stdout: JSON exact (jsonTerminalSafe), the other formats as terminal-safe text.
void printReport(const AuditResult &result, AuditReportFormat format)
{
    const QString report = AuditReport::render(result, format);
    if (format == AuditReportFormat::Json)
        printJson(report.toUtf8());
    else
        printOut(report);
}

} // namespace

QString AuditCommand::helpText()
{
    return QStringLiteral(
               "Usage: folio audit [options] <target>\n"
               "\n"
               "Walks every list (tools, prompts, resources, templates) and every list tool of a server to\n"
               "its end (within the page cap), judges every page (the passive findings), then probes how\n"
               "the server treats cursors, and reports the findings by list.\n"
               "\n"
               "Probes, per list that pages (one request at a time, at most 5 probe requests per list\n"
               "plus --walks - 1 more walks of at most --recheck-pages pages each):\n"
               "  tampered cursor     the first cursor the server issued, reversed, with '!' appended, must\n"
               "                      be refused with -32602 (a list tool may also answer isError):\n"
               "                      invalid-cursor-accepted (error), invalid-cursor-wrong-code (warning);\n"
               "                      a list that issued no cursor (it fits one page) gets a forged one\n"
               "                      instead, judged the same, unless it pages by offset or page number\n"
               "  foreign cursor      a cursor issued by another list, and (list tools) the list's own\n"
               "                      cursor with other arguments (a string filter added, else one "
               "changed),\n"
               "                      must be refused: foreign-cursor-accepted (error); not tried where a\n"
               "                      tampered cursor was accepted already\n"
               "  empty cursor        a \"\" the server issued is sent back once if the walk did not:\n"
               "                      empty-cursor-rejected (error)\n"
               "  more walks          (--walks, default 2) each walk with the same arguments must repeat\n"
               "                      the first: the same items (unstable-items), in the same order\n"
               "                      (unstable-order), cut into the same pages and ending where it\n"
               "                      ended (unstable-pages), with the same hints (unstable-hints), each\n"
               "                      page reached with the same cursor (unstable-cursors); warnings,\n"
               "                      one per kind, the first difference as evidence; not judged if\n"
               "                      the server said the list changed\n"
               "  cache hints         2026-07-28: every list page (both walks) and the server/discover\n"
               "                      result carry ttlMs and cacheScope: cache-hints-missing, ttl-invalid,\n"
               "                      scope-invalid, scope-mismatch (errors)\n"
               "A list that fits one page issues no cursor: it gets the forged cursor and the second walk.\n"
               "Lint, no request: each protocol list walked to its end is read for what its definitions say\n"
               "to a model: hidden-characters, model-instructions, tool-name-unportable, schema-unportable,\n"
               "default-rejected, tool-name-collision (warnings), context-cost (info); --format json gives\n"
               "each such list its estimated context cost (docs/findings.md, \"The definitions lint\").\n"
               "Politeness: only list methods, and list tools annotated readOnlyHint: true or named with\n"
               "--allow-tool, are ever called. A list tool's required arguments that --tool-args does not\n"
               "give are filled from its inputSchema (const, default, examples, enum, else a placeholder\n"
               "of the type), said in a note and sent by every walk and probe. A list tool whose first\n"
               "page fails without arguments, or with the filled ones, is reported as skipped (give it\n"
               "arguments with --tool-args).\n"
               "\n"
               "Options:\n") +
           AuditArguments::helpText() +
           QStringLiteral("  --format F           text (default), json, markdown, junit or sarif\n") +
           CommandLine::sharedOptionsHelp(
               23,
               QStringLiteral("progress, the server's stderr, each request and transport events on stderr "
                              "(every folio.* logging category; see 'folio --help')")) +
           TargetOptions::helpText() +
           QStringLiteral(
               "\n"
               "Formats:\n"
               "  text      one line per list, its findings and notes below it, a summary line\n"
               "  json      {server:{name, version, revision, transport},\n"
               "             lists:[{list, status: audited|skipped, skipped?, findings:[{id, severity,\n"
               "                     page, pages, message, evidence}], notes:[...], pages, items, complete,\n"
               "                     stopReason, arguments (list tools), requests, elapsedMs}],\n"
               "             summary:{errors, warnings, infos, listsAudited, listsSkipped, requests,\n"
               "                      elapsedMs, aborted, passed}}\n"
               "            pages are numbered from 1: page (null when a finding is about no one page),\n"
               "            pages, and those its evidence names; a 2026-07-28\n"
               "            server also gets a \"server/discover\" entry for its handshake's hints\n"
               "  markdown  a readable report (summary table, then findings with evidence per list)\n"
               "  junit     JUnit XML: one testcase per list; error findings make a <failure>, skipped\n"
               "            lists <skipped>, warnings and notes go to <system-out>\n"
               "  sarif     SARIF 2.1.0: one rule per finding id (its text from docs/findings.md), one\n"
               "            result per finding, located at the server, the list, the page and the item\n"
               "\n"
               "Exit status:\n"
               "  0  no error-severity finding (warnings and info do not fail)\n"
               "  1  at least one error-severity finding\n"
               "  2  bad usage (also a --list tool:NAME the server does not list), the server could not\n"
               "     be reached, or the audit was cut short; json, junit, markdown and sarif reports are\n"
               "     written then too, saying why\n"
               "\n"
               "Example (CI):\n"
               "  folio audit --format junit -- ./my-server --stdio > folio-audit.xml\n");
}

AuditArguments::AuditArguments()
    : m_list(QStringLiteral("list"), QStringLiteral("list"), QStringLiteral("L"))
    , m_allowTool(QStringLiteral("allow-tool"), QStringLiteral("tool"), QStringLiteral("NAME"))
    , m_toolArgs(QStringLiteral("tool-args"), QStringLiteral("args"), QStringLiteral("NAME=JSON"))
    , m_pageCap(QStringLiteral("page-cap"), QStringLiteral("cap"), QStringLiteral("N"),
                QStringLiteral("1000"))
    , m_recheck(QStringLiteral("recheck-pages"), QStringLiteral("recheck"), QStringLiteral("N"),
                QStringLiteral("20"))
    , m_walks(QStringLiteral("walks"), QStringLiteral("walks"), QStringLiteral("N"), QStringLiteral("2"))
    , m_walkPause(QStringLiteral("walk-pause-ms"), QStringLiteral("pause"), QStringLiteral("MS"),
                  QStringLiteral("0"))
{}

QString AuditArguments::helpText()
{
    return QStringLiteral(
        "  --list L             audit only this list (repeatable): tools, prompts, resources,\n"
        "                       templates, tasks, skills or tool:<name>; default: every list the\n"
        "                       server offers\n"
        "  --allow-tool NAME    also call this list tool although it is not annotated\n"
        "                       readOnlyHint: true (repeatable)\n"
        "  --tool-args NAME=JSON  the other arguments for list tool NAME, a JSON object (repeatable);\n"
        "                       they win over the values filled from the schema\n"
        "  --page-cap N         pages per walk (default 1000; finding page-cap-reached)\n"
        "  --recheck-pages N    pages of each walk after the first (default 20)\n"
        "  --walks N            walk each list N times in all and compare each walk with the\n"
        "                       first (default 2; 1: no comparison)\n"
        "  --walk-pause-ms MS   the pause before each walk after the first (default 0)\n");
}

void AuditArguments::addTo(QCommandLineParser &parser) const
{
    parser.addOptions({m_list, m_allowTool, m_toolArgs, m_pageCap, m_recheck, m_walks, m_walkPause});
}

bool AuditArguments::read(const QCommandLineParser &parser, AuditOptions *options, QString *error) const
{
    for (const QString &l : parser.values(m_list)) {
        if (const std::optional<ListSource> extension = ListSource::extension(l)) {
            if (!options->lists.contains(extension->id()))
                options->lists << extension->id();
        } else if (l.startsWith(QLatin1String("tool:")) ? l.size() > 5 : listKindFromName(l).has_value()) {
            const QString id = l.startsWith(QLatin1String("tool:")) ? l : listName(*listKindFromName(l));
            if (!options->lists.contains(id))
                options->lists << id;
        } else {
            *error =
                QStringLiteral(
                    "unknown list '%1': tools, prompts, resources, templates, tasks, skills or tool:<name>")
                    .arg(l);
            return false;
        }
    }
    options->allowedTools = parser.values(m_allowTool);
    for (const QString &spec : parser.values(m_toolArgs)) {
        const qsizetype eq = spec.indexOf(QLatin1Char('='));
        QJsonParseError parseError;
        const QJsonDocument doc =
            eq > 0 ? QJsonDocument::fromJson(spec.mid(eq + 1).toUtf8(), &parseError) : QJsonDocument();
        if (eq <= 0 || parseError.error != QJsonParseError::NoError || !doc.isObject()) {
            *error = QStringLiteral("--tool-args wants NAME=JSON with a JSON object, e.g. "
                                    "search_posts='{\"channel\":\"general\"}'");
            return false;
        }
        QString name = spec.left(eq);
        if (name.startsWith(QLatin1String("tool:")))
            name = name.mid(5);
        options->toolArguments.insert(name, doc.object());
    }
    bool ok = false;
    options->pageCap = parser.value(m_pageCap).toInt(&ok);
    if (!ok || options->pageCap < 1) {
        *error = QStringLiteral("--page-cap wants a number of at least 1");
        return false;
    }
    options->recheckPages = parser.value(m_recheck).toInt(&ok);
    if (!ok || options->recheckPages < 1) {
        *error = QStringLiteral("--recheck-pages wants a number of at least 1");
        return false;
    }
    options->walks = parser.value(m_walks).toInt(&ok);
    if (!ok || options->walks < 1 || options->walks > 100) {
        *error = QStringLiteral("--walks wants a number from 1 to 100");
        return false;
    }
    options->walkPauseMs = parser.value(m_walkPause).toInt(&ok);
    if (!ok || options->walkPauseMs < 0) {
        *error = QStringLiteral("--walk-pause-ms wants a number of milliseconds");
        return false;
    }
    return true;
}

QString AuditCommand::recordHelpText()
{
    return QStringLiteral(
               "Usage: folio record -o FILE.folio [audit options] <target>\n"
               "\n"
               "Records a session: connects, walks every list and list tool and audits them as 'folio\n"
               "audit' does (its report goes to stdout, in --format), and saves everything that was sent\n"
               "and received, with its timings and the server's description, to FILE. The file opens in\n"
               "the window (folio FILE.folio, File > Open Session) and replays with no server:\n"
               "  folio replay FILE.folio list tools --format json\n"
               "  folio replay FILE.folio audit\n"
               "No secrets are kept: HTTP headers are not recorded (so no Authorization, cookies or\n"
               "session ids), environment values and secret-looking command-line values are left out,\n"
               "and secret-looking values in messages are masked; the file's header lists what was.\n"
               "The format: docs/session-format.md.\n"
               "\n"
               "Options:\n"
               "  -o, --output FILE    where the session goes (required)\n"
               "  every option of 'folio audit' (see 'folio audit --help')\n"
               "\n") +
           TargetOptions::helpText() +
           QStringLiteral("\nExit status: as 'folio audit', and 2 when the file cannot be written.\n");
}

int AuditCommand::parse(const QStringList &arguments, Options *options, bool record)
{
    CommandLine line(record ? QStringLiteral("record") : QStringLiteral("audit"), arguments,
                     QStringLiteral("text"));
    const AuditArguments audit;
    audit.addTo(line.parser());
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("output"),
                                    QStringLiteral("FILE"));
    if (record)
        line.parser().addOption(output);
    if (const int code = line.parse(record ? recordHelpText() : helpText()); code != ParseOk)
        return code;
    if (record) {
        options->recordPath = line.parser().value(output);
        if (options->recordPath.isEmpty())
            return line.usage(QStringLiteral("-o FILE.folio says where the session goes"));
    }
    QString problem;
    if (!line.noPositional(&problem) || !audit.read(line.parser(), &options->audit, &problem))
        return line.usage(problem);
    if (!AuditReport::parseFormat(line.format(), &options->format))
        return line.usage(QStringLiteral("--format is text, json, markdown, junit or sarif"));
    options->verbose = line.verbose();
    if (!line.readTarget(&options->server, &options->keychainToken, &problem))
        return line.usage(problem);
    return ParseOk;
}

void AuditCommand::connectFailed(const QString &reason)
{
    printErr(QStringLiteral("folio audit: %1\n").arg(reason));
    if (!m_options.recordPath.isEmpty())
        saveRecording(); // what a failed connect looks like is worth a replay too
    printUnreached(reason);
    finish(2);
}

AuditCommand::AuditCommand(const Options &options, QObject *parent)
    : SessionCommand(QStringLiteral("audit"), options.server, options.keychainToken, parent)
    , m_options(options)
{
    if (!m_options.recordPath.isEmpty())
        m_session->client()->setRecording(true);
    connect(m_session, &CliSession::watchdogFired, this, [this](const QString &message) {
        printErr(QStringLiteral("folio audit: %1\n").arg(message));
        if (m_auditor && m_auditor->isRunning()) {
            m_auditor->cancel(message); // finished() prints what was audited, then exits 2
            return;
        }
        printUnreached(message);
        finish(2);
    });
    connect(m_session, &CliSession::ready, this, [this] {
        m_auditor = new Auditor(m_session->client(), m_options.audit, this);
        connect(m_auditor, &Auditor::activity, m_session, &CliSession::kick);
        if (m_options.verbose)
            connect(m_auditor, &Auditor::progress, this, [](const QString &message) {
                printErr(QStringLiteral("folio audit: %1\n").arg(message));
            });
        connect(m_auditor, &Auditor::finished, this, [this] {
            const AuditResult &result = m_auditor->result();
            if (!result.usageError.isEmpty())
                printErr(QStringLiteral("folio audit: %1\n").arg(result.usageError));
            printReport(result, m_options.format);
            if (!m_options.recordPath.isEmpty() && !saveRecording()) {
                finish(2);
                return;
            }
            finish(result.aborted.isEmpty() ? AuditReport::exitCode(result) : 2);
        });
        m_auditor->start();
    });
}

// The server was never audited: a report file all the same for the formats CI reads (json, junit,
// markdown), saying why, so that a pipeline never gets an empty file. The text format has said it
// on stderr.
void AuditCommand::printUnreached(const QString &reason)
{
    if (m_done || m_options.format == AuditReportFormat::Text)
        return;
    AuditResult result;
    result.server = {{QStringLiteral("name"), m_options.server.name},
                     {QStringLiteral("version"), QString()},
                     {QStringLiteral("revision"), QString()},
                     {QStringLiteral("transport"), m_options.server.transportWord()}};
    result.aborted = reason;
    printReport(result, m_options.format);
}

bool AuditCommand::saveRecording()
{
    const SessionRecording rec = m_session->client()->recording();
    QString error;
    if (!rec.save(m_options.recordPath, &error)) {
        printErr(QStringLiteral("folio record: cannot write %1: %2\n").arg(m_options.recordPath, error));
        return false;
    }
    printErr(QStringLiteral("folio record: %1 events over %2 s saved to %3%4\n")
                 .arg(QString::number(rec.events.size()), QString::number(rec.durationMs / 1000.0, 'f', 1),
                      m_options.recordPath,
                      rec.stripped.isEmpty()
                          ? QString()
                          : QStringLiteral("; left out: ") + rec.stripped.join(QStringLiteral("; "))));
    if (rec.cut)
        printErr(
            QStringLiteral("folio record: the recording reached its size cap; later traffic is missing\n"));
    return true;
}

} // namespace folio
