#include "tapcommand.h"

#include "clilogging.h"
#include "clioutput.h"
#include "commandline.h"
#include "counted.h"
#include "findingsarif.h"
#include "handshake.h"
#include "protocol.h"
#include "secretmask.h"
#include "sessionrecording.h"
#include "taprelay.h"
#include "trafficexport.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcessEnvironment>

#include <sys/resource.h>

namespace folio {

namespace {
const QString tapWord = QStringLiteral("tap");

QString idKey(const QJsonValue &id)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray{id}).toJson(QJsonDocument::Compact));
}

ClientJudge::Options judgeOptions(const TapCommand::Options &options)
{
    ClientJudge::Options o;
    o.listChangedGraceMs = options.relistGraceMs;
    return o;
}

QJsonValue orNull(const QJsonValue &v)
{
    return v.isUndefined() ? QJsonValue() : v;
}
} // namespace

QString TapCommand::helpText()
{
    return QStringLiteral(
               "Usage: folio tap [options] -- COMMAND [ARGS...]\n"
               "\n"
               "Stands between an MCP client and a stdio server, to watch how the client pages and\n"
               "caches. Put it in the client's configuration where the server's command was:\n"
               "  \"command\": \"folio\", \"args\": [\"tap\", \"--judge\", \"/tmp/judge.md\", \"--\",\n"
               "                                 \"npx\", \"-y\", \"my-server\"]\n"
               "Folio starts COMMAND and relays every byte unchanged in both directions: the\n"
               "client's stdin to the server, the server's stdout to the client, its stderr to\n"
               "Folio's stderr. When the client goes, the server is stopped as Folio stops\n"
               "servers; when the server exits, Folio exits with its status. Meanwhile Folio\n"
               "follows each list the client asks for, page by page, and judges the client:\n"
               "where it stopped before the end of a list and why it looks that way, repeated\n"
               "cursors, refused cursors, list_changed not followed, pages asked again while\n"
               "their TTL ran, polling with no jitter, 2026-07-28 requests without their _meta\n"
               "(docs/findings.md, \"Found by: client\").\n"
               "\n"
               "Options:\n"
               "  --judge FILE     write the judge's findings and the client's walks when the\n"
               "                   session ends: Markdown when FILE ends in .md, SARIF 2.1.0 (the\n"
               "                   findings only) when it ends in .sarif, else JSON\n"
               "  --record FILE    keep the session as a recording (FILE.folio, marked as a tap;\n"
               "                   secrets masked as in every recording): 'folio replay' and the\n"
               "                   window open it\n"
               "  --quiet          no summary of the findings on stderr at the end\n"
               "  --grace-ms N     how long the server has to exit once its stdin is closed,\n"
               "                   before SIGTERM, then as long again before SIGKILL (2000)\n"
               "  --relist-grace-ms N\n"
               "                   how long the client may take to list again after the server\n"
               "                   said the list changed (10000)\n") +
           CommandLine::sharedOptionsHelp(
               19, QStringLiteral("what Folio does on stderr (the relayed bytes are never logged)")) +
           QStringLiteral("\n"
                          "Exit status: the server's (128 + N when signal N ended it; 127 when it could\n"
                          "not be started). With --judge: as 'folio audit' (0 no error-severity finding,\n"
                          "1 at least one) once the server was started, 2 when the file cannot be\n"
                          "written.\n");
}

int TapCommand::parse(const QStringList &arguments, Options *options)
{
    CommandLine line(tapWord, arguments, QString(), CommandLine::Target::None);
    const QCommandLineOption judge(QStringLiteral("judge"), QStringLiteral("judge"), QStringLiteral("FILE"));
    const QCommandLineOption record(QStringLiteral("record"), QStringLiteral("record"),
                                    QStringLiteral("FILE"));
    const QCommandLineOption quiet(QStringLiteral("quiet"), QStringLiteral("quiet"));
    const QCommandLineOption grace(QStringLiteral("grace-ms"), QStringLiteral("grace"), QStringLiteral("N"));
    const QCommandLineOption relist(QStringLiteral("relist-grace-ms"), QStringLiteral("relist"),
                                    QStringLiteral("N"));
    line.parser().addOptions({judge, record, quiet, grace, relist});
    if (const int code = line.parse(helpText()); code != ParseOk)
        return code;
    if (line.formatGiven())
        return line.usage(QStringLiteral("--format has no use here: --judge FILE picks it by the name"));
    if (!line.positional().isEmpty())
        return line.usage(QStringLiteral("give the server's command after \"--\""));
    options->command = line.rest();
    if (options->command.isEmpty())
        return line.usage(QStringLiteral("which server? Give its command after \"--\""));
    options->judgeFile = line.parser().value(judge);
    options->recordFile = line.parser().value(record);
    options->quiet = line.parser().isSet(quiet);
    options->verbose = line.verbose();
    if (line.parser().isSet(grace)) {
        bool ok = false;
        options->graceMs = line.parser().value(grace).toInt(&ok);
        if (!ok || options->graceMs < 0)
            return line.usage(QStringLiteral("--grace-ms takes a number of milliseconds"));
    }
    if (line.parser().isSet(relist)) {
        bool ok = false;
        options->relistGraceMs = line.parser().value(relist).toLongLong(&ok);
        if (!ok || options->relistGraceMs < 0)
            return line.usage(QStringLiteral("--relist-grace-ms takes a number of milliseconds"));
    }
    return ParseOk;
}

TapCommand::TapCommand(const Options &options, QObject *parent)
    : Command(parent)
    , m_options(options)
    , m_relay(new TapRelay(this))
    , m_judge(judgeOptions(options))
{
    // What must not reach a file: secret-looking values of the command line and of the
    // environment the client gave (a token for the server), and whatever looks like a credential.
    m_secrets = SecretMask::secretsInCommandLine(options.command);
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &name : env.keys()) {
        if (SecretMask::isSecretVariable(name) && !env.value(name).isEmpty())
            m_secrets.append(env.value(name));
    }
    // And never on stderr either: the summary quotes what the server sent (a cursor, a name).
    SecretMask::remember(m_secrets);
}

TapCommand::~TapCommand() = default;

void TapCommand::start()
{
    m_startedAtMs = QDateTime::currentMSecsSinceEpoch();
    m_relay->setProgram(m_options.command.constFirst(), m_options.command.mid(1));
    m_relay->setShutdownGraceMs(m_options.graceMs);
    if (!m_options.recordFile.isEmpty()) {
        m_recorder = new SessionRecorder(this);
        m_relay->setRecorder(m_recorder);
    }
    connect(m_relay, &TapRelay::framePassed, this,
            [this](TapRelay::From from, const QByteArray &frame, qint64 t) { onFrame(int(from), frame, t); });
    connect(m_relay, &TapRelay::clientGone, this,
            [](qint64 t) { qCInfo(lcCli) << "tap: the client went at" << t << "ms; stopping the server"; });
    connect(m_relay, &TapRelay::finished, this, &TapCommand::onFinished);
    qCInfo(lcCli).noquote() << "tap: starting" << SecretMask::maskCommandLine(m_options.command).join(u' ');
    m_relay->start();
}

void TapCommand::onFrame(int fromInt, const QByteArray &frame, qint64 t)
{
    const auto from = TapRelay::From(fromInt);
    QJsonArray messages;
    if (!decodePage(fromInt, frame, &messages)) {
        const QJsonDocument doc = QJsonDocument::fromJson(frame);
        if (doc.isObject())
            messages.append(doc.object());
        else if (doc.isArray())
            messages = doc.array();
    }
    const auto judgeFrom =
        from == TapRelay::From::Client ? ClientJudge::From::Client : ClientJudge::From::Server;
    for (const QJsonValue &v : std::as_const(messages)) {
        const QJsonObject m = v.toObject();
        if (m.isEmpty())
            continue;
        const QString method = m.value(QStringLiteral("method")).toString();
        const QJsonObject params = m.value(QStringLiteral("params")).toObject();
        if (from == TapRelay::From::Client && m.contains(QStringLiteral("id")) &&
            m_listRequests.size() < 4096) {
            // A protocol list's answer is read by the page decoder (decodePage()).
            for (ListKind kind :
                 {ListKind::Tools, ListKind::Prompts, ListKind::Resources, ListKind::ResourceTemplates}) {
                if (method == listMethod(kind))
                    m_listRequests.insert(idKey(m.value(QStringLiteral("id"))), listItemsKey(kind).toUtf8());
            }
        }
        if (from == TapRelay::From::Client) {
            // Who the client is: initialize's clientInfo, or a 2026-07-28 request's _meta.
            QJsonObject info = params.value(QStringLiteral("clientInfo")).toObject();
            if (info.isEmpty())
                info = params.value(QStringLiteral("_meta"))
                           .toObject()
                           .value(QStringLiteral("io.modelcontextprotocol/clientInfo"))
                           .toObject();
            if (!info.isEmpty() && m_clientInfo.isEmpty())
                m_clientInfo = info;
            if ((method == QLatin1String("initialize") || method == QLatin1String("server/discover")) &&
                m.contains(QStringLiteral("id")) && m_handshakes.size() < 16)
                m_handshakes.insert(idKey(m.value(QStringLiteral("id"))), method);
        } else if (method.isEmpty() && !m_listRequests.isEmpty()) {
            m_listRequests.remove(idKey(m.value(QStringLiteral("id")))); // answered, if it was a list's
        }
        if (from == TapRelay::From::Server && method.isEmpty() &&
            m_handshakes.contains(idKey(m.value(QStringLiteral("id"))))) {
            // What the server said it is, for the recording's header.
            const QJsonObject result = m.value(QStringLiteral("result")).toObject();
            m_handshakes.remove(idKey(m.value(QStringLiteral("id"))));
            QJsonObject info = result.value(QStringLiteral("serverInfo")).toObject();
            if (info.isEmpty())
                info = result.value(QStringLiteral("_meta"))
                           .toObject()
                           .value(QStringLiteral("io.modelcontextprotocol/serverInfo"))
                           .toObject();
            if (!info.isEmpty())
                m_serverInfo = info;
            if (result.contains(QStringLiteral("capabilities")))
                m_capabilities = result.value(QStringLiteral("capabilities")).toObject();
            if (result.contains(QStringLiteral("instructions")))
                m_instructions = result.value(QStringLiteral("instructions")).toString();
        }
        m_judge.observe(judgeFrom, m, t);
    }
}

bool TapCommand::decodePage(int fromInt, const QByteArray &frame, QJsonArray *messages)
{
    // The answer to a protocol list request: the judge counts its items and reads its envelope,
    // cursor and hints, so simdjson cuts the items out and only the rest is parsed (a page is
    // most of what passes; parsing its items whole was most of the tap's own work).
    if (TapRelay::From(fromInt) != TapRelay::From::Server || m_listRequests.isEmpty() ||
        !frame.startsWith('{'))
        return false;
    QByteArray key;
    QJsonValue answered;
    DecodedReply reply;
    const bool decoded = m_pageDecoder.decode(
        frame,
        [&](const QJsonValue &id) {
            answered = id;
            key = m_listRequests.value(idKey(id));
            return key;
        },
        &reply);
    if (!decoded || key.isEmpty())
        return false;
    m_listRequests.remove(idKey(answered));
    QJsonObject result = reply.message.value(QStringLiteral("result")).toObject();
    // As many (empty) items as the page held: what the judge reads of them is their number.
    QJsonArray items;
    for (int i = 0; i < reply.items.count(); ++i)
        items.append(QJsonObject());
    result.insert(QString::fromUtf8(key), items);
    QJsonObject message = reply.message;
    message.insert(QStringLiteral("result"), result);
    messages->append(message);
    return true;
}

QJsonObject TapCommand::sessionJson() const
{
    auto masked = [this](const QJsonObject &o) {
        return SecretMask::maskMessage(QJsonValue(o), m_secrets).toObject();
    };
    return QJsonObject{
        {QStringLiteral("server"), SecretMask::maskCommandLine(m_options.command).join(u' ')},
        {QStringLiteral("serverInfo"), masked(m_serverInfo)},
        {QStringLiteral("client"), masked(m_clientInfo)},
        {QStringLiteral("revision"), m_judge.revision()},
        {QStringLiteral("startedAt"),
         QDateTime::fromMSecsSinceEpoch(m_startedAtMs, Qt::UTC).toString(Qt::ISODateWithMs)},
        {QStringLiteral("durationMs"), m_durationMs},
        {QStringLiteral("serverExit"), m_serverExit},
        {QStringLiteral("tapCost"), m_cost},
        // Messages over the 64 MiB cap: relayed, but not judged or recorded.
        {QStringLiteral("untoldMessages"),
         QJsonObject{{QStringLiteral("client"), m_relay->untoldLines(TapRelay::From::Client)},
                     {QStringLiteral("server"), m_relay->untoldLines(TapRelay::From::Server)}}},
    };
}

void TapCommand::onFinished(int exitStatus, const QString &why)
{
    m_serverExit = exitStatus;
    m_serverWhy = why;
    m_durationMs = m_relay->elapsedMs();
    m_judge.finish(m_durationMs);
    {
        // What the tap itself cost (not the server, its child): for -v and scripts/bench-tap.
        struct rusage self = {};
        ::getrusage(RUSAGE_SELF, &self);
        const qint64 cpuMs = (qint64(self.ru_utime.tv_sec) + self.ru_stime.tv_sec) * 1000 +
                             (self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1000;
        qCInfo(lcCli).noquote() << QStringLiteral("tap: own CPU %1 ms, peak RSS %2 KiB, %3 ms")
                                       .arg(cpuMs)
                                       .arg(self.ru_maxrss)
                                       .arg(m_durationMs);
        m_cost = QJsonObject{{QStringLiteral("cpuMs"), cpuMs},
                             {QStringLiteral("peakRssKiB"), qint64(self.ru_maxrss)}};
    }
    if (exitStatus == 127 && !why.isEmpty())
        printErr(QStringLiteral("folio tap: %1\n").arg(why));
    const QList<Finding> findings = m_judge.findings();
    if (!m_options.quiet) {
        QString out = QStringLiteral("folio tap: the client: %1\n")
                          .arg(findings.isEmpty() ? QStringLiteral("no findings")
                                                  : counted(findings.size(), "finding", "findings"));
        for (const Finding &f : findings)
            out += QStringLiteral("  %1 %2: %3\n").arg(Finding::severityName(f.severity), f.id, f.message);
        const qint64 untold =
            m_relay->untoldLines(TapRelay::From::Client) + m_relay->untoldLines(TapRelay::From::Server);
        if (untold > 0)
            out += QStringLiteral("  (%1 over the 64 MiB message cap: relayed, not judged)\n")
                       .arg(counted(untold, "message", "messages"));
        printErr(out);
    }
    int code = exitStatus;
    QString error;
    if (!m_options.recordFile.isEmpty() && !writeRecording(&error)) {
        printErr(QStringLiteral("folio tap: cannot write the recording: %1\n").arg(error));
        code = 2;
    }
    if (!m_options.judgeFile.isEmpty()) {
        if (!writeJudge(&error)) {
            printErr(QStringLiteral("folio tap: cannot write the judge's findings: %1\n").arg(error));
            code = 2;
        } else if (exitStatus != 127 && code != 2) {
            const bool anyError = std::any_of(findings.begin(), findings.end(), [](const Finding &f) {
                return f.severity == Finding::Severity::Error;
            });
            code = anyError ? 1 : 0;
        }
    }
    Q_EMIT finished(code);
}

bool TapCommand::writeRecording(QString *error) const
{
    SessionRecording rec;
    rec.name = m_serverInfo.value(QStringLiteral("name")).toString();
    if (rec.name.isEmpty())
        rec.name = m_options.command.constFirst().section(u'/', -1);
    rec.kind = QStringLiteral("stdio");
    rec.transport = QStringLiteral("stdio");
    rec.target = SecretMask::maskCommandLine(m_options.command).join(u' ');
    rec.revision = m_judge.revision();
    rec.serverInfo = SecretMask::maskMessage(QJsonValue(m_serverInfo), m_secrets).toObject();
    rec.capabilities = SecretMask::maskMessage(QJsonValue(m_capabilities), m_secrets).toObject();
    rec.instructions = SecretMask::maskMessage(QJsonValue(m_instructions), m_secrets).toString();
    rec.folioVersion = Handshake::clientInfo().value(QStringLiteral("version")).toString();
    rec.tap = QJsonObject{
        {QStringLiteral("client"), SecretMask::maskMessage(QJsonValue(m_clientInfo), m_secrets).toObject()}};
    rec.recordedAtMs = m_recorder->startedAtMs();
    rec.durationMs = m_recorder->elapsedMs();
    rec.cut = m_recorder->isCut();
    rec.events = m_recorder->events();
    int masked = 0;
    for (SessionRecording::Event &e : rec.events) {
        if (e.text.isEmpty() || e.type == SessionRecording::Event::Type::Start)
            continue;
        const QByteArray clean = SecretMask::maskMessage(e.text, m_secrets);
        if (clean != e.text) {
            e.text = clean;
            ++masked;
        }
    }
    rec.stripped << QStringLiteral("the server's environment (only the messages are recorded)");
    if (masked > 0)
        rec.stripped << QStringLiteral("secrets and credentials in ") +
                            counted(masked, "message", "messages");
    return rec.save(m_options.recordFile, error);
}

bool TapCommand::writeJudge(QString *error) const
{
    const QJsonObject session = sessionJson();
    QByteArray data;
    if (m_options.judgeFile.endsWith(QLatin1String(".md"), Qt::CaseInsensitive)) {
        data = judgeMarkdown(m_judge, session).toUtf8();
    } else if (m_options.judgeFile.endsWith(QLatin1String(".sarif"), Qt::CaseInsensitive)) {
        QList<FindingSarif::Located> located;
        for (const Finding &f : m_judge.findings())
            located.append({f, f.evidence.value(QStringLiteral("list"))
                                   .toString(f.evidence.value(QStringLiteral("method")).toString())});
        data = QJsonDocument(
                   FindingSarif::log(session.value(QStringLiteral("server")).toString(), located,
                                     Handshake::clientInfo().value(QStringLiteral("version")).toString()))
                   .toJson(QJsonDocument::Indented);
    } else {
        data = QJsonDocument(judgeJson(m_judge, session)).toJson(QJsonDocument::Indented);
    }
    return TrafficExport::writeFile(m_options.judgeFile, SecretMask::maskMessage(data, m_secrets), error);
}

QJsonObject TapCommand::judgeJson(const ClientJudge &judge, const QJsonObject &session)
{
    const QList<Finding> findings = judge.findings();
    int counts[3] = {0, 0, 0};
    for (const Finding &f : findings)
        ++counts[int(f.severity)];
    QJsonArray walks;
    for (const ClientJudge::WalkSeen &walk : judge.walks()) {
        QJsonArray pages;
        for (const ClientJudge::PageSeen &p : walk.pages) {
            QJsonObject page{
                {QStringLiteral("requestedAtMs"), p.requestedAtMs},
                {QStringLiteral("cursor"), orNull(p.cursor)},
                {QStringLiteral("answeredAtMs"), p.answeredAtMs < 0 ? QJsonValue() : p.answeredAtMs},
                {QStringLiteral("items"), p.items < 0 ? QJsonValue() : p.items},
                {QStringLiteral("nextCursor"), orNull(p.nextCursor)}};
            if (p.errorCode != 0)
                page.insert(QStringLiteral("errorCode"), p.errorCode);
            if (!p.ttlMs.isUndefined())
                page.insert(QStringLiteral("ttlMs"), p.ttlMs);
            if (!p.cacheScope.isEmpty())
                page.insert(QStringLiteral("cacheScope"), p.cacheScope);
            pages.append(page);
        }
        QJsonObject w{{QStringLiteral("list"), walk.list}, {QStringLiteral("pages"), pages}};
        if (!walk.otherArguments.isEmpty())
            w.insert(QStringLiteral("arguments"), walk.otherArguments);
        walks.append(w);
    }
    return QJsonObject{
        {QStringLiteral("format"), QStringLiteral("folio-tap-judge")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("session"), session},
        {QStringLiteral("summary"),
         QJsonObject{{QStringLiteral("findings"), qint64(findings.size())},
                     {QStringLiteral("error"), counts[int(Finding::Severity::Error)]},
                     {QStringLiteral("warning"), counts[int(Finding::Severity::Warning)]},
                     {QStringLiteral("info"), counts[int(Finding::Severity::Info)]},
                     {QStringLiteral("walks"), qint64(walks.size())}}},
        {QStringLiteral("findings"), Finding::toJson(findings)},
        {QStringLiteral("walks"), walks},
    };
}

QString TapCommand::judgeMarkdown(const ClientJudge &judge, const QJsonObject &session)
{
    auto cell = [](QString text) {
        text.replace(u'|', QStringLiteral("\\|")).replace(u'\n', u' ');
        return text;
    };
    const QJsonObject client = session.value(QStringLiteral("client")).toObject();
    const QString clientName = client.value(QStringLiteral("name")).toString();
    QString out = QStringLiteral("# The client, as seen through `folio tap`\n\n");
    out += QStringLiteral("- Client: %1\n")
               .arg(clientName.isEmpty()
                        ? QStringLiteral("(it gave no name)")
                        : cell(clientName + u' ' + client.value(QStringLiteral("version")).toString()));
    out += QStringLiteral("- Server: `%1`\n").arg(cell(session.value(QStringLiteral("server")).toString()));
    out += QStringLiteral("- Revision: %1\n")
               .arg(judge.revision().isEmpty() ? QStringLiteral("(not seen)") : judge.revision());
    out += QStringLiteral("- Started: %1, for %2 ms\n\n")
               .arg(session.value(QStringLiteral("startedAt")).toString())
               .arg(session.value(QStringLiteral("durationMs")).toInteger());
    const QList<Finding> findings = judge.findings();
    out += QStringLiteral("## Findings (%1)\n\n").arg(findings.size());
    if (findings.isEmpty())
        out += QStringLiteral("None: the client paged and cached as far as Folio can tell.\n");
    for (const Finding &f : findings)
        out += QStringLiteral("- **%1** `%2`: %3\n")
                   .arg(Finding::severityName(f.severity), f.id, cell(f.message));
    out += QStringLiteral("\n## The client's walks\n\n");
    const QList<ClientJudge::WalkSeen> walks = judge.walks();
    if (walks.isEmpty())
        out += QStringLiteral("The client asked for no list.\n");
    else
        out += QStringLiteral("| list | pages asked | items | last next cursor |\n|---|---|---|---|\n");
    for (const ClientJudge::WalkSeen &walk : walks) {
        qint64 items = 0;
        for (const ClientJudge::PageSeen &p : walk.pages)
            items += qMax(0, p.items);
        const QJsonValue last = walk.pages.isEmpty() ? QJsonValue() : walk.pages.constLast().nextCursor;
        out += QStringLiteral("| %1 | %2 | %3 | %4 |\n")
                   .arg(cell(walk.list))
                   .arg(walk.pages.size())
                   .arg(items)
                   .arg(last.isString() ? QStringLiteral("`\"%1\"`").arg(cell(last.toString()))
                                        : QStringLiteral("(none: the end)"));
    }
    return out;
}

} // namespace folio
