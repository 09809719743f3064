#include "reportcommand.h"

#include "auditcommand.h"
#include "auditreport.h"
#include "clioutput.h"
#include "commandline.h"
#include "mcpclient.h"
#include "pagewalker.h"
#include "terminaltext.h"
#include "trafficexport.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFileInfo>

#include <algorithm>

namespace folio {

QString ReportCommand::helpText()
{
    return QStringLiteral(
               "Usage: folio report [--format html|md|json] -o FILE [options] <target>\n"
               "\n"
               "Writes a bug report of a server in one file: the server (name, version, transport,\n"
               "protocol revision, the demo scenario when it is Folio's demo server), every list's\n"
               "pages numbered from 1 with their cursors raw and decoded, the cache hints as sent and as\n"
               "Folio took them, the findings of the walks and of the audit, a timeline, and each page's\n"
               "raw request and response. Secrets read [redacted]: bearer tokens, secret headers,\n"
               "credential-like members, the values of secret flags and variables in the server's\n"
               "command line (--token X, env GITHUB_TOKEN=X), secret URL query values, and every\n"
               "secret Folio was given wherever the server echoes it. It runs the same audit as\n"
               "'folio audit' (see 'folio audit --help'): the audit's first walk of each list is the\n"
               "report's walk of it.\n"
               "\n"
               "Options:\n"
               "  -o, --output FILE    where to write the report; '-' for stdout (required)\n"
               "  --format F           html (default, or the suffix of FILE: .html, .md, .json), md\n"
               "                       (markdown) or json\n"
               "  --mask-cursors       cursors read as their first characters and their length, and are\n"
               "                       not decoded (cursors can carry tenant data)\n") +
           AuditArguments::helpText() +
           CommandLine::sharedOptionsHelp(
               23, QStringLiteral("progress and each request on stderr (see 'folio --help')")) +
           TargetOptions::helpText() +
           QStringLiteral(
               "\n"
               "Formats (docs/report-format.md):\n"
               "  html  one self-contained file: inline CSS (light, dark, print), an inline SVG timeline,\n"
               "        no script and nothing loaded from the network; raw messages cut at 32 KiB each\n"
               "  md    the same for an issue tracker (the timeline as text)\n"
               "  json  {folioReport, generator, generatedAt, server, masking, summary, timeline,\n"
               "         lists:[{list, title, pages:[{page, walk, state, cursor, cursorDecoded,\n"
               "                 nextCursor, nextCursorDecoded, ttlMs, cacheScope, effectiveTtlMs,\n"
               "                 effectiveCacheScope, findings, error, attempts:[{requestId,\n"
               "                 request, response, ...}], ...}], ...}], findings, audit}\n"
               "        pages are numbered from 1; raw messages are whole\n"
               "\n"
               "Exit status (as 'folio audit'):\n"
               "  0  no error-severity finding (warnings and info do not fail)\n"
               "  1  at least one error-severity finding\n"
               "  2  bad usage, the server could not be reached, the audit was cut short, or the file\n"
               "     could not be written; the report is written then too when it can be, saying why\n"
               "\n"
               "Example:\n"
               "  folio report -o demo-report.html -- folio-demo-server --scenario tour\n");
}

int ReportCommand::parse(const QStringList &arguments, Options *options)
{
    CommandLine line(QStringLiteral("report"), arguments, QString());
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("output"),
                                    QStringLiteral("FILE"));
    const QCommandLineOption mask(QStringLiteral("mask-cursors"), QStringLiteral("mask"));
    line.parser().addOptions({output, mask});
    const AuditArguments audit;
    audit.addTo(line.parser());
    if (const int code = line.parse(helpText()); code != ParseOk)
        return code;
    QString problem;
    if (!line.noPositional(&problem))
        return line.usage(problem);
    options->output = line.parser().value(output);
    if (options->output.isEmpty())
        return line.usage(QStringLiteral("where to? -o FILE (or -o - for stdout)"));
    if (line.formatGiven()) {
        if (!BugReport::parseFormat(line.format(), &options->format))
            return line.usage(QStringLiteral("--format is html, md or json"));
    } else if (const auto byName = BugReport::formatForFile(options->output)) {
        options->format = *byName;
    }
    options->maskCursors = line.parser().isSet(mask);
    options->verbose = line.verbose();
    if (!audit.read(line.parser(), &options->audit, &problem))
        return line.usage(problem);
    if (!line.readTarget(&options->server, &options->keychainToken, &problem))
        return line.usage(problem);
    return ParseOk;
}

void ReportCommand::connectFailed(const QString &reason)
{
    printErr(QStringLiteral("folio report: %1\n").arg(reason));
    writeUnreached(reason);
    finish(2);
}

ReportCommand::ReportCommand(const Options &options, QObject *parent)
    : SessionCommand(QStringLiteral("report"), options.server, options.keychainToken, parent)
    , m_options(options)
{
    // The report shows each page's raw request and response: the log keeps their text here.
    m_session->client()->trafficLog()->setKeepText(true);
    connect(m_session, &CliSession::watchdogFired, this, [this](const QString &message) {
        printErr(QStringLiteral("folio report: %1\n").arg(message));
        if (m_auditor && m_auditor->isRunning()) {
            m_auditor->cancel(message); // finished() writes what was walked, then exits 2
            return;
        }
        writeUnreached(message);
        finish(2);
    });
    connect(m_session, &CliSession::ready, this, [this] {
        m_auditor = new Auditor(m_session->client(), m_options.audit, this);
        connect(m_auditor, &Auditor::activity, m_session, &CliSession::kick);
        connect(m_auditor, &Auditor::listWalked, this, [this](const QString &, PageWalker *walker) {
            m_lists.append(BugReport::List::fromWalker(*walker));
        });
        if (m_options.verbose)
            connect(m_auditor, &Auditor::progress, this, [](const QString &message) {
                printErr(QStringLiteral("folio report: %1\n").arg(message));
            });
        connect(m_auditor, &Auditor::finished, this, [this] {
            const AuditResult &result = m_auditor->result();
            if (!result.usageError.isEmpty())
                printErr(QStringLiteral("folio report: %1\n").arg(result.usageError));
            // In the audit's order of lists (protocol lists, then list tools), not the order walked.
            QStringList order;
            for (const AuditedList &l : result.lists)
                order << l.id;
            std::stable_sort(m_lists.begin(), m_lists.end(),
                             [&order](const BugReport::List &a, const BugReport::List &b) {
                                 return order.indexOf(a.id) < order.indexOf(b.id);
                             });
            BugReport::Input input;
            input.server = serverFacts();
            input.lists = m_lists;
            input.audit = result;
            input.auditFinishedAtMs = QDateTime::currentMSecsSinceEpoch();
            input.traffic = m_session->client()->trafficLog()->entries();
            input.redactor = m_session->client()->trafficLog();
            input.maskCursors = m_options.maskCursors;
            const bool written = write(input);
            finish(!written || !result.aborted.isEmpty() ? 2 : AuditReport::exitCode(result));
        });
        m_auditor->start();
    });
}

BugReport::Server ReportCommand::serverFacts() const
{
    const McpClient *client = m_session->client();
    BugReport::Server s;
    s.serverInfo = client->serverInfo();
    const ServerConfig &config = m_options.server;
    s.displayName = config.name;
    // Named after its command line or host ("-- COMMAND", --url): by what it says it is, as the
    // window shows a server added without a name. A saved server (--server NAME) keeps its name.
    const bool unnamed = config.nameFromServer || config.name == config.command ||
                         (config.hasUrl() && config.name == config.url.host());
    if (unnamed) {
        s.displayName = config.fallbackName();
        for (const char *key : {"title", "name"}) {
            const QString said = s.serverInfo.value(QLatin1String(key)).toString().simplified();
            if (!said.isEmpty()) {
                s.displayName = said.left(80);
                break;
            }
        }
    }
    s.transport = client->transportName();
    s.revision = client->protocolVersion();
    s.target = m_options.server.displayTarget();
    s.instructions = client->instructions();
    s.readDemo(m_options.server);
    return s;
}

bool ReportCommand::write(const BugReport::Input &input)
{
    const QByteArray data = BugReport::render(BugReport::build(input), m_options.format);
    if (m_options.output == QLatin1String("-")) {
        // JSON stays exact (escaped where a terminal would act); HTML stays well-formed.
        if (m_options.format == BugReportFormat::Json)
            printJson(data);
        else if (m_options.format == BugReportFormat::Html)
            printOut(markupTerminalSafe(QString::fromUtf8(data)));
        else
            printOut(QString::fromUtf8(data));
        return true;
    }
    QString error;
    if (!TrafficExport::writeFile(m_options.output, data, &error)) {
        printErr(QStringLiteral("folio report: cannot write %1: %2\n").arg(m_options.output, error));
        return false;
    }
    printErr(QStringLiteral("folio report: wrote %1 (%2 lists, %3 bytes)\n")
                 .arg(QFileInfo(m_options.output).absoluteFilePath(), QString::number(input.lists.size()),
                      QString::number(data.size())));
    return true;
}

// The server was never reached (or never answered): a report all the same, saying why, so that a
// pipeline that attaches the file always has one.
void ReportCommand::writeUnreached(const QString &reason)
{
    if (m_done)
        return;
    BugReport::Input input;
    input.server.displayName = m_options.server.name;
    input.server.target = m_options.server.displayTarget();
    input.server.transport = m_options.server.transportWord();
    input.lists = m_lists;
    input.traffic = m_session->client()->trafficLog()->entries();
    input.redactor = m_session->client()->trafficLog();
    input.maskCursors = m_options.maskCursors;
    input.abortedReason = reason;
    write(input);
}

} // namespace folio
