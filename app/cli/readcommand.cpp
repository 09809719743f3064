#include "readcommand.h"

#include "clioutput.h"
#include "command.h"
#include "commandline.h"
#include "mcpclient.h"
#include "resourcereads.h"
#include "ttlclock.h"

#include <QCommandLineParser>
#include <QJsonDocument>

#include <cstdio>

namespace folio {

QString ReadCommand::helpText()
{
    return QStringLiteral("Usage: folio read <uri> [options] <target>\n"
                          "\n"
                          "Reads one resource (resources/read) and prints its contents and its cache hints\n"
                          "(2026-07-28: ttlMs and cacheScope, exactly as received) with their findings.\n"
                          "\n"
                          "Options:\n"
                          "  --format F       text (default) or json\n") +
           CommandLine::sharedOptionsHelp(19) + TargetOptions::helpText() +
           QStringLiteral(
               "\n"
               "Formats:\n"
               "  text    each content item: a text printed as it is, a blob summarised (its MIME type\n"
               "          and decoded size); then one line of hints, 'ttlMs 15000 · cacheScope public'\n"
               "          (values as received: 'ttlMs -5', 'cacheScope \"shared\"', 'missing ttlMs'),\n"
               "          or 'no cache hints (legacy)' for a server of the 2025 era or earlier; then\n"
               "          the findings about them (cache-hints-missing, ttl-invalid, scope-invalid,\n"
               "          as for list pages: docs/findings.md), one a line\n"
               "  json    the result exactly as received (contents, ttlMs, cacheScope, _meta, ...)\n"
               "\n"
               "Exit status:\n"
               "  0  the resource was read (findings about its hints do not change this)\n"
               "  1  the read failed: an error answer (an unknown URI: -32602 in 2026-07-28, -32002\n"
               "     before), a timeout, the connection lost; the error is said on stderr\n"
               "  2  bad usage, the server could not be reached, or it does not offer\n"
               "     resources/read (-32601)\n"
               "\n"
               "Examples:\n"
               "  folio read chat://channels/general -- folio-demo-server\n"
               "  folio read file:///etc/hosts --format json -- npx -y "
               "@modelcontextprotocol/server-everything\n");
}

int ReadCommand::parse(const QStringList &arguments, Options *options)
{
    CommandLine line(QStringLiteral("read"), arguments, QStringLiteral("text"));
    if (const int code = line.parse(helpText()); code != ParseOk)
        return code;
    QString problem;
    if (!line.onePositional(&options->uri,
                            QStringLiteral("which resource? give its URI, e.g. chat://channels/general"),
                            QStringLiteral("URI"), &problem))
        return line.usage(problem);
    if (!line.textOrJson(&options->json, &problem))
        return line.usage(problem);
    options->verbose = line.verbose();
    if (!line.readTarget(&options->server, &options->keychainToken, &problem))
        return line.usage(problem);
    return ParseOk;
}

ReadCommand::ReadCommand(const Options &options, QObject *parent)
    : SessionCommand(QStringLiteral("read"), options.server, options.keychainToken, parent)
    , m_options(options)
    , m_clock(new TtlClock(this))
{
    connect(m_session, &CliSession::watchdogFired, this,
            [this](const QString &message) { fail(1, message); });
    connect(m_session, &CliSession::ready, this, [this] {
        m_clock->followReplay(m_session->client());
        m_reads = new ResourceReads(m_session->client(), m_clock, this);
        connect(m_reads, &ResourceReads::readFinished, this, &ReadCommand::handleRead);
        m_reads->read(m_options.uri);
    });
}

ReadCommand::~ReadCommand()
{
    delete m_reads; // unschedules its read from the clock, before the clock goes
}

void ReadCommand::handleRead(int row)
{
    if (m_done)
        return;
    const ReadRecord &r = m_reads->record(row);
    if (r.error.isError()) {
        const bool notOffered = r.error.kind == McpError::Kind::Rpc && r.error.code == -32601;
        fail(notOffered ? 2 : 1,
             notOffered
                 ? QStringLiteral("the server does not offer resources/read: %1").arg(r.error.describe())
                 : QStringLiteral("reading %1 failed: %2").arg(r.uri, r.error.describe()));
        return;
    }
    if (m_options.json) {
        printJson(QJsonDocument(r.result).toJson(QJsonDocument::Indented));
        finish(0);
        return;
    }
    QString out;
    for (const ReadContent &c : r.contents()) {
        if (c.kind == ReadContent::Kind::Text) {
            out += c.text;
            if (!c.text.endsWith(QLatin1Char('\n')))
                out += QLatin1Char('\n');
        } else {
            const QString where =
                c.uri.isEmpty() || c.uri == r.uri ? QString() : QStringLiteral(" · ") + c.uri;
            out +=
                QStringLiteral("[%1 %2%3]\n")
                    .arg(c.kind == ReadContent::Kind::Blob ? QStringLiteral("blob") : QStringLiteral("item"),
                         c.summary(), where);
        }
    }
    if (r.contents().isEmpty())
        out += QStringLiteral("(no contents)\n");
    out += r.hintsLine() + QLatin1Char('\n');
    if (!r.notCachedReason().isEmpty())
        out += QStringLiteral("not cached: %1\n").arg(r.notCachedReason());
    for (const Finding &f : r.findings)
        out += QStringLiteral("%1 %2: %3\n").arg(Finding::severityName(f.severity), f.id, f.message);
    printOut(out);
    finish(0);
}

} // namespace folio
