#include "snapshotcommand.h"

#include "auditcommand.h"
#include "clioutput.h"
#include "commandline.h"
#include "mcpclient.h"
#include "pagewalker.h"
#include "trafficlog.h"

#include <QCommandLineParser>
#include <QDateTime>
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
        if (line.parser().isSet(QStringLiteral("recheck-pages")))
            return line.usage(
                QStringLiteral("--recheck-pages has no use here: a snapshot walks each list once"));
        options->audit.probe = false;
        if (!line.readTarget(&options->server, &options->keychainToken, &problem))
            return line.usage(problem);
        return ParseOk;
    }
}

SnapshotCommand::SnapshotCommand(const Options &options, QObject *parent)
    : SessionCommand(QStringLiteral("snapshot"), options.server, options.keychainToken, parent)
    , m_options(options)
{
    connect(m_session, &CliSession::watchdogFired, this, [this](const QString &message) {
        if (m_auditor && m_auditor->isRunning())
            m_auditor->cancel(message); // finished() says it and exits 2, writing nothing
        else
            fail(2, message);
    });
    connect(m_session, &CliSession::ready, this, [this] {
        m_snapshot.takenAtMs = QDateTime::currentMSecsSinceEpoch();
        m_auditor = new Auditor(m_session->client(), m_options.audit, this);
        connect(m_auditor, &Auditor::activity, m_session, &CliSession::kick);
        connect(m_auditor, &Auditor::listWalked, this, [this](const QString &, PageWalker *walker) {
            m_snapshot.lists.append(Snapshot::List::fromWalker(*walker));
        });
        if (m_options.verbose)
            connect(m_auditor, &Auditor::progress, this, [](const QString &message) {
                printErr(QStringLiteral("folio snapshot: %1\n").arg(message));
            });
        connect(m_auditor, &Auditor::finished, this, &SnapshotCommand::write);
        m_auditor->start();
    });
}

void SnapshotCommand::write()
{
    const AuditResult &result = m_auditor->result();
    if (!result.aborted.isEmpty()) {
        fail(2, result.aborted);
        return;
    }
    const McpClient *client = m_session->client();
    Snapshot &s = m_snapshot;
    s.takenFrom = m_options.server.displayTarget();
    s.revision = client->protocolVersion();
    s.transport = client->transportName();
    s.serverInfo = client->serverInfo();
    s.capabilities = client->capabilities();
    s.instructions = client->instructions();
    // In the audit's order of lists (protocol lists, then list tools); those not walked say why.
    QList<Snapshot::List> lists;
    bool complete = true;
    for (const AuditedList &audited : result.lists) {
        if (audited.id == QLatin1String("server/discover")) {
            s.findings = Finding::toJson(audited.findings);
            continue;
        }
        const auto walked = std::find_if(s.lists.cbegin(), s.lists.cend(),
                                         [&](const Snapshot::List &l) { return l.id == audited.id; });
        lists.append(walked != s.lists.cend() ? *walked : Snapshot::List::fromAudited(audited));
        complete = complete && (walked == s.lists.cend() || walked->complete);
    }
    s.lists = lists;
    const QStringList secrets = client->trafficLog()->secrets() + m_options.server.secrets();
    if (m_options.output == QLatin1String("-")) {
        printJson(s.toJson(secrets));
    } else if (QString error; !s.save(m_options.output, secrets, &error)) {
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
    finish(complete ? 0 : 1);
}

} // namespace folio
