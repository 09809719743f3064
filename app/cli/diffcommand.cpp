#include "diffcommand.h"

#include "auditcommand.h"
#include "clioutput.h"
#include "commandline.h"
#include "counted.h"
#include "definitionbaseline.h"
#include "snapshotdiff.h"
#include "targetsnapshotcommand.h"
#include "trafficexport.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace folio {

QString DiffCommand::helpText()
{
    return QStringLiteral(
               "Usage: folio diff [options] BEFORE AFTER\n"
               "       folio diff [options] BEFORE <target>\n"
               "       folio diff [options] - AFTER <target>\n"
               "       folio diff [options] --baseline NAME [<target>]\n"
               "       folio diff [options] URL URL\n"
               "       folio diff [options] server:NAME server:NAME\n"
               "\n"
               "Compares two snapshots of a server and says what changed, item by item (matched\n"
               "by name, uri or uriTemplate), each change in a class:\n"
               "  breaking  an item or argument removed, a required argument added, a type\n"
               "            narrowed or an enum value removed, an outputSchema that accepts\n"
               "            less, a prompt argument made required, a template's variables\n"
               "            changed, the revision or a capability changed for less\n"
               "  additive  an item, an optional argument or a capability added, a type widened\n"
               "  text      a title, description, annotation, the server's info or instructions\n"
               "            changed (shown word by word: this is what a rug pull looks like)\n"
               "  caching   a list's ttlMs or cacheScope changed, or its scope flipped to public\n"
               "  paging    a list's page size, number of pages, order or cursor format changed\n"
               "BEFORE and AFTER are snapshot files (folio snapshot), recordings (FILE.folio,\n"
               "replayed and walked as 'folio snapshot' does), HTTP servers by their URL\n"
               "(http://..., https://...: walked live) or saved servers (server:NAME, as\n"
               "--server NAME: walked live). A target given as folio list takes it\n"
               "(--url, --server or -- COMMAND, with --header, --token-env) is AFTER, or\n"
               "stands where '-' is.\n"
               "--baseline NAME compares the definitions (tools, prompts, templates) the window\n"
               "pinned for saved server NAME, at its first connect or when trusted, with the\n"
               "server now (--server NAME unless a target is given): drift, for CI.\n"
               "More: docs/diff.md.\n"
               "\n"
               "Options:\n"
               "  --format F           text (default), markdown, json, junit (JUnit XML: a\n"
               "                       testcase per class) or sarif (SARIF 2.1.0: a result per\n"
               "                       change)\n"
               "  --fail-on C          which changes make the exit status 1: breaking (default),\n"
               "                       text (breaking or text), any, or none\n"
               "  -o, --output FILE    write the report to FILE instead of stdout\n"
               "  --baseline NAME      BEFORE is saved server NAME's trusted definitions\n"
               "  --list, --allow-tool, --tool-args, --page-cap\n"
               "                       how a live side or a recording is walked ('folio audit')\n") +
           CommandLine::sharedOptionsHelp(
               23, QStringLiteral("progress of a live side, the server's stderr, each request on stderr")) +
           TargetOptions::helpText() +
           QStringLiteral("\n"
                          "Exit status:\n"
                          "  0  no change of the class --fail-on names (or --fail-on none)\n"
                          "  1  at least one such change\n"
                          "  2  bad usage, a file that cannot be read (or is no snapshot), a server\n"
                          "     that cannot be reached, a walk cut short, or a report not written\n"
                          "\n"
                          "Examples:\n"
                          "  folio diff v1.json v2.json\n"
                          "  folio diff --fail-on text --format sarif -o drift.sarif pinned.json \\\n"
                          "      --url https://mcp.example.com/mcp\n"
                          "  folio diff v1.json -- folio-demo-server --scenario drift-v2\n"
                          "  folio diff --baseline github --fail-on text\n");
}

int DiffCommand::parse(const QStringList &arguments, Options *options)
{
    CommandLine line(QStringLiteral("diff"), arguments, QStringLiteral("text"));
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("output"),
                                    QStringLiteral("FILE"));
    const QCommandLineOption failOn(QStringLiteral("fail-on"), QStringLiteral("fail-on"),
                                    QStringLiteral("C"));
    const QCommandLineOption baseline(QStringLiteral("baseline"), QStringLiteral("baseline"),
                                      QStringLiteral("NAME"));
    line.parser().addOptions({output, failOn, baseline});
    const AuditArguments audit;
    audit.addTo(line.parser());
    if (const int code = line.parse(helpText()); code != ParseOk)
        return code;
    if (!DiffReport::parseFormat(line.format(), &options->format))
        return line.usage(QStringLiteral("--format is text, markdown, json, junit or sarif"));
    if (line.parser().isSet(failOn) &&
        !DiffReport::parseFailOn(line.parser().value(failOn), &options->failOn))
        return line.usage(QStringLiteral("--fail-on is breaking, text, any or none"));
    options->output = line.parser().value(output);
    options->verbose = line.verbose();
    QString problem;
    if (!audit.read(line.parser(), &options->audit, &problem))
        return line.usage(problem);
    for (const QString &once :
         {QStringLiteral("recheck-pages"), QStringLiteral("walks"), QStringLiteral("walk-pause-ms")}) {
        if (line.parser().isSet(once))
            return line.usage(
                QStringLiteral("--%1 has no use here: a snapshot walks each list once").arg(once));
    }
    options->audit.probe = false;

    QStringList sides = line.positional();
    if (line.parser().isSet(baseline)) {
        options->baseline = line.parser().value(baseline);
        if (!sides.isEmpty())
            return line.usage(QStringLiteral("--baseline is BEFORE: give no file, only a target (or none)"));
        const QString file = DefinitionBaseline::path(options->baseline);
        if (!QFileInfo::exists(file))
            return line.usage(QStringLiteral("no trusted definitions of '%1': the window pins them at its "
                                             "first connect (%2)")
                                  .arg(options->baseline, file));
        sides = {file, QStringLiteral("-")};
        if (!line.parser().isSet(QStringLiteral("url")) && !line.parser().isSet(QStringLiteral("server")) &&
            line.rest().isEmpty()) {
            CommandLine server(QStringLiteral("diff"), {QStringLiteral("--server"), options->baseline},
                               QString());
            if (const int code = server.parse(helpText()); code != ParseOk)
                return code;
            Side &now = options->sides[1];
            if (!server.readTarget(&now.server, &now.keychainToken, &problem))
                return line.usage(problem);
            now.label = now.server.displayTarget();
            options->sides[0].file = file;
            options->sides[0].label = QStringLiteral("trusted definitions of %1").arg(options->baseline);
            return ParseOk;
        }
    }
    const bool live = line.parser().isSet(QStringLiteral("url")) ||
                      line.parser().isSet(QStringLiteral("server")) || !line.rest().isEmpty() ||
                      line.parser().isSet(QStringLiteral("replay"));
    if (live && sides.size() == 1)
        sides << QStringLiteral("-");
    if (sides.size() != 2 || (live && !sides.contains(QStringLiteral("-"))))
        return line.usage(
            live ? QStringLiteral("give one file to compare the target with (or '-' where it stands)")
                 : QStringLiteral("give two snapshots, recordings or URLs, or one and a target "
                                  "(--url, --server or -- COMMAND)"));
    if (sides.count(QStringLiteral("-")) > 1 || (!live && sides.contains(QStringLiteral("-"))))
        return line.usage(
            QStringLiteral("'-' stands for the target (--url, --server or -- COMMAND): give one"));
    for (int i = 0; i < 2; ++i) {
        Side &side = options->sides[size_t(i)];
        const QString word = sides.at(i);
        if (word == QLatin1String("-")) {
            if (!line.readTarget(&side.server, &side.keychainToken, &problem))
                return line.usage(problem);
            side.label = side.server.displayTarget();
        } else if (const bool recording = word.endsWith(QLatin1String(".folio")),
                   saved = word.startsWith(QLatin1String("server:"));
                   recording || saved || word.startsWith(QLatin1String("http://")) ||
                   word.startsWith(QLatin1String("https://"))) {
            // A recording, replayed as folio snapshot FILE.folio replays it; a saved server, as
            // --server NAME reaches it; or an HTTP server by its URL, as --url alone reaches it
            // (--header and --token-env go with the target).
            CommandLine own(QStringLiteral("diff"),
                            {recording ? QStringLiteral("--replay")
                             : saved   ? QStringLiteral("--server")
                                       : QStringLiteral("--url"),
                             saved ? word.mid(7) : word},
                            QString());
            if (const int code = own.parse(helpText()); code != ParseOk)
                return code;
            if (!own.readTarget(&side.server, &side.keychainToken, &problem))
                return line.usage(problem);
            side.label = recording ? word : side.server.displayTarget();
        } else {
            side.file = word;
            side.label = options->baseline.isEmpty()
                             ? word
                             : QStringLiteral("trusted definitions of %1").arg(options->baseline);
        }
    }
    return ParseOk;
}

DiffCommand::DiffCommand(const Options &options, QObject *parent)
    : Command(parent)
    , m_options(options)
{}

void DiffCommand::start()
{
    next();
}

void DiffCommand::fail(const QString &message)
{
    printErr(QStringLiteral("folio diff: %1\n").arg(message));
    Q_EMIT finished(2);
}

void DiffCommand::next()
{
    for (size_t i = 0; i < m_snapshots.size(); ++i) {
        if (m_snapshots[i])
            continue;
        const Side &side = m_options.sides[i];
        if (!side.file.isEmpty()) {
            QString error;
            m_snapshots[i] = Snapshot::load(side.file, &error);
            if (!m_snapshots[i]) {
                fail(QStringLiteral("cannot read %1: %2").arg(side.file, error));
                return;
            }
            continue;
        }
        // Taken: the session ends (finished) before the next side starts.
        m_taker = new TargetSnapshotCommand(QStringLiteral("diff"), m_options.audit, m_options.verbose,
                                            side.server, side.keychainToken, this);
        connect(m_taker, &Command::finished, this, [this, i](int code) {
            TargetSnapshotCommand *taker = m_taker;
            m_taker = nullptr;
            taker->deleteLater();
            if (code == 2) { // said by the taker
                Q_EMIT finished(2);
                return;
            }
            if (!taker->isComplete())
                printErr(QStringLiteral("folio diff: %1: a list stopped short; what it did not reach is "
                                        "not counted as added or removed\n")
                             .arg(m_options.sides[i].label));
            QString error;
            m_snapshots[i] = taker->masked(&error);
            if (!m_snapshots[i]) {
                fail(QStringLiteral("%1: %2").arg(m_options.sides[i].label, error));
                return;
            }
            next();
        });
        m_taker->start();
        return;
    }
    compare();
}

void DiffCommand::compare()
{
    DiffReport::Input input;
    input.before = m_options.sides[0].label;
    input.after = m_options.sides[1].label;
    input.a = &*m_snapshots[0];
    input.b = &*m_snapshots[1];
    input.changes = m_options.baseline.isEmpty()
                        ? SnapshotDiff::compare(*m_snapshots[0], *m_snapshots[1])
                        : DefinitionBaseline::compare(*m_snapshots[0], *m_snapshots[1]);
    input.failOn = m_options.failOn;
    const QString report = DiffReport::render(input, m_options.format);
    const bool json =
        m_options.format == DiffReport::Format::Json || m_options.format == DiffReport::Format::Sarif;
    if (m_options.output.isEmpty() || m_options.output == QLatin1String("-")) {
        if (json)
            printJson(report.toUtf8());
        else
            printOut(report);
    } else if (QString error; !TrafficExport::writeFile(m_options.output, report.toUtf8(), &error)) {
        fail(QStringLiteral("cannot write %1: %2").arg(m_options.output, error));
        return;
    } else {
        printErr(QStringLiteral("folio diff: wrote %1 (%2)\n")
                     .arg(QFileInfo(m_options.output).absoluteFilePath(),
                          counted(input.changes.size(), "change", "changes")));
    }
    Q_EMIT finished(DiffReport::exitCode(input));
}

} // namespace folio
