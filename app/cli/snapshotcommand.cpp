#include "snapshotcommand.h"

#include "auditcommand.h"
#include "clioutput.h"
#include "commandline.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace folio {

QString SnapshotCommand::helpText()
{
    return QStringLiteral("Usage: folio snapshot -o FILE [options] <target | FILE.folio>\n"
                          "\n"
                          "Walks every list (tools, prompts, resources, templates) and every list tool of\n"
                          "a server to its end and writes what it holds to FILE: each page's items exactly\n"
                          "as received, its cursors raw and its cache hints (ttlMs, cacheScope) as sent,\n"
                          "the server's info, capabilities and instructions, the revision and transport,\n"
                          "and the walks' findings. Only list requests are sent: no probe, no second walk.\n"
                          "A recording (folio record) stands in for a server: give FILE.folio as the\n"
                          "target and it is replayed, with no server and no network. The same server gives\n"
                          "the same file but for \"takenAt\" and \"takenFrom\"; no secrets are kept.\n"
                          "The format: docs/snapshot-format.md.\n"
                          "\n"
                          "Options:\n"
                          "  -o, --output FILE    where the snapshot goes (required; - for stdout)\n"
                          "  --list, --allow-tool, --tool-args, --page-cap\n"
                          "                       as 'folio audit' (see 'folio audit --help')\n") +
           CommandLine::sharedOptionsHelp(
               23,
               QStringLiteral("progress, the server's stderr, each request and transport events on stderr")) +
           TargetOptions::helpText() +
           QStringLiteral("\n"
                          "Exit status:\n"
                          "  0  the snapshot is written and every list was walked to its end\n"
                          "  1  the snapshot is written, but a list stopped short (a failed page, a cap):\n"
                          "     its \"complete\" is false and \"stopReason\" says why\n"
                          "  2  bad usage, the server could not be reached (or the recording read),\n"
                          "     the walk was cut short, or the file could not be written\n"
                          "\n"
                          "Examples:\n"
                          "  folio snapshot -o demo.json -- folio-demo-server\n"
                          "  folio snapshot -o demo.json demo.folio\n");
}

int SnapshotCommand::parse(const QStringList &arguments, Options *options)
{
    const QCommandLineOption output({QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("output"),
                                    QStringLiteral("FILE"));
    const AuditArguments audit;
    QStringList words = arguments;
    // A recording as the target (the one positional argument) is read as folio replay reads it.
    for (int pass = 0;; ++pass) {
        CommandLine line(QStringLiteral("snapshot"), words, QString());
        line.parser().addOption(output);
        audit.addTo(line.parser());
        if (const int code = line.parse(helpText()); code != ParseOk)
            return code;
        QString problem;
        const QStringList positional = line.positional();
        if (pass == 0 && positional.size() == 1) {
            QStringList options, rest;
            TargetOptions::splitStdioCommand(words, &options, &rest);
            options.removeAt(options.lastIndexOf(positional.constFirst()));
            words = QStringList{QStringLiteral("--replay"), positional.constFirst()} + options +
                    (rest.isEmpty() && !words.contains(QStringLiteral("--"))
                         ? QStringList()
                         : QStringList{QStringLiteral("--")} + rest);
            continue;
        }
        if (!positional.isEmpty())
            return line.usage(
                QStringLiteral("one target: a recording FILE.folio, --url, --server or -- COMMAND"));
        options->output = line.parser().value(output);
        if (options->output.isEmpty())
            return line.usage(QStringLiteral("where to? -o FILE (or -o - for stdout)"));
        if (line.formatGiven() && line.format() != QLatin1String("json"))
            return line.usage(QStringLiteral("a snapshot is JSON: --format json or none"));
        options->verbose = line.verbose();
        if (!audit.read(line.parser(), &options->audit, &problem))
            return line.usage(problem);
        for (const QString &once :
             {QStringLiteral("recheck-pages"), QStringLiteral("walks"), QStringLiteral("walk-pause-ms")}) {
            if (line.parser().isSet(once))
                return line.usage(
                    QStringLiteral("--%1 has no use here: a snapshot walks each list once").arg(once));
        }
        options->audit.probe = false;
        if (!line.readTarget(&options->server, &options->keychainToken, &problem))
            return line.usage(problem);
        return ParseOk;
    }
}

SnapshotCommand::SnapshotCommand(const Options &options, QObject *parent)
    : TargetSnapshotCommand(QStringLiteral("snapshot"), options.audit, options.verbose, options.server,
                            options.keychainToken, parent)
    , m_options(options)
{}

void SnapshotCommand::taken()
{
    const Snapshot &s = snapshot();
    if (m_options.output == QLatin1String("-")) {
        printJson(s.toJson(secrets()));
    } else if (QString error; !s.save(m_options.output, secrets(), &error)) {
        fail(2, QStringLiteral("cannot write %1: %2").arg(m_options.output, error));
        return;
    } else {
        int items = 0;
        for (const Snapshot::List &l : s.lists)
            items += l.itemCount();
        printErr(QStringLiteral("folio snapshot: wrote %1 (lists: %2, items: %3)\n")
                     .arg(QFileInfo(m_options.output).absoluteFilePath(), QString::number(s.lists.size()),
                          QString::number(items)));
    }
    finish(isComplete() ? 0 : 1);
}

} // namespace folio
