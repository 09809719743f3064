#include "cli.h"

#include "auditcommand.h"
#include "authcommand.h"
#include "callcommand.h"
#include "clilogging.h"
#include "clioutput.h"
#include "clitarget.h"
#include "command.h"
#include "commandline.h"
#include "cursordecoder.h"
#include "diffcommand.h"
#include "listcommand.h"
#include "readcommand.h"
#include "reportcommand.h"
#include "snapshotcommand.h"
#include "tapcommand.h"
#include "taskscommand.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>

#include <algorithm>
#include <memory>

namespace folio {

namespace {

const QString listWord = QStringLiteral("list");
const QString readWord = QStringLiteral("read");
const QString decodeWord = QStringLiteral("decode-cursor");
const QString auditWord = QStringLiteral("audit");
const QString recordWord = QStringLiteral("record");
const QString replayWord = QStringLiteral("replay");
const QString reportWord = QStringLiteral("report");
const QString snapshotWord = QStringLiteral("snapshot");
const QString diffWord = QStringLiteral("diff");
const QString callWord = QStringLiteral("call");
const QString getPromptWord = QStringLiteral("get-prompt");
const QString helpWord = QStringLiteral("help");
const QString authWord = QStringLiteral("auth");
const QString tapWord = QStringLiteral("tap");
const QString tasksWord = QStringLiteral("tasks");

// A subcommand: its word, its line in 'folio --help' (the synopsis, then what it does, one
// entry a line) and how it runs. The one list that the help, isCliCommand() and runCli() read;
// the man page is written from the help.
struct Subcommand
{
    QString word;
    QString synopsis;
    QStringList summary;
    int (*run)(const QStringList &arguments);
};

const QList<Subcommand> &subcommands();

// The Commands section of 'folio --help': a synopsis of up to 22 characters shares its line with
// the summary; a longer one has a line of its own.
QString commandsHelp()
{
    constexpr qsizetype column = 25;
    QString out;
    for (const Subcommand &c : subcommands()) {
        QString line = QStringLiteral("  ") + c.synopsis;
        for (qsizetype i = 0; i < c.summary.size(); ++i) {
            if (line.size() >= column) {
                out += line + QLatin1Char('\n');
                line.clear();
            }
            out += line.leftJustified(column) + c.summary.at(i) + QLatin1Char('\n');
            line.clear();
        }
    }
    return out;
}

QString mainHelp()
{
    return QStringLiteral("Usage: folio                      open the window\n"
                          "       folio <command> [options] <target>\n"
                          "\n"
                          "Folio inspects how an MCP server pages its lists: cursors, the 2026-07-28 cache\n"
                          "hints (ttlMs, cacheScope), cursor errors, and findings. The commands below run\n"
                          "without a display.\n"
                          "\n"
                          "Commands:\n") +
           commandsHelp() + QStringLiteral("\n") + TargetOptions::helpText() +
           QStringLiteral(
               "\n"
               "Logging:\n"
               "  -v, --verbose      (the window and every command) log what Folio does on\n"
               "                     stderr: every level of the folio.* categories, e.g.\n"
               "                     folio.net.stdio, folio.net.http, folio.net.rpc, folio.net.mcp\n"
               "  QT_LOGGING_RULES   picks categories and levels, with or without -v, and wins\n"
               "                     where it names one: QT_LOGGING_RULES='folio.net.rpc.debug=true'\n"
               "\n"
               "Run 'folio <command> --help' for a command's options, output formats and exit\n"
               "status. Exit status 2 always means bad usage or no connection.\n");
}

QString decodeHelp()
{
    return QStringLiteral(
               "Usage: folio decode-cursor [--format text|json] [-v] <cursor>\n"
               "\n"
               "Shows what a cursor holds, layer by layer: base64 / base64url (with or without padding),\n"
               "hex, percent-encoding, UTF-8 text, JSON (string members decoded again), JWT-like dotted\n"
               "parts and printable prefixes such as o:123. Best effort and non-normative: cursors are\n"
               "opaque by protocol, and a cursor that does not decode is \"opaque\", not a fault. Give '-' "
               "to\n"
               "read the cursor from stdin (one line). No server is contacted.\n"
               "\n"
               "Options:\n"
               "  --format F   text (default): an indented tree, or where and why decoding stopped\n"
               "               json: {verdict, nonNormative, summary, layers:[{kind, path, text, json,\n"
               "                      children}], error}\n") +
           CommandLine::sharedOptionsHelp(
               15, QStringLiteral("log what Folio does on stderr (see 'folio --help')")) +
           QStringLiteral("Exit status: 0 decoded (or the empty cursor \"\"), 1 opaque, 2 bad usage.\n");
}

void renderLayer(const CursorLayer &layer, int depth, QString *out)
{
    QString line = QString(depth * 2, QLatin1Char(' '));
    if (!layer.path.isEmpty())
        line += layer.path + QStringLiteral("  ");
    line += layer.kindName();
    // Structured layers show what they parsed; encodings show the text they decoded to.
    const bool structured = layer.kind == CursorLayer::Kind::Json ||
                            layer.kind == CursorLayer::Kind::JwtLike ||
                            layer.kind == CursorLayer::Kind::Prefixed;
    if (structured && !layer.json.isUndefined() && !layer.json.isNull())
        line += QStringLiteral(": ") + toJsonLine(layer.json);
    else
        line += QStringLiteral(": ") + toJsonLine(layer.text);
    *out += elide(line, 400) + QLatin1Char('\n');
    for (const CursorLayer &child : layer.children)
        renderLayer(child, depth + 1, out);
}

int runDecodeCursor(const QStringList &arguments)
{
    // A cursor may start with '-': everything after "--" is the cursor.
    CommandLine line(QStringLiteral("decode-cursor"), arguments, QStringLiteral("text"),
                     CommandLine::Target::None);
    if (const int code = line.parse(decodeHelp()); code != ParseOk)
        return code;
    if (line.verbose())
        enableVerboseLogging();
    const QStringList rest = line.rest();
    const QStringList cursors = line.positional() + rest;
    if (cursors.size() != 1)
        return line.usage(cursors.isEmpty() ? QStringLiteral("which cursor?")
                                            : QStringLiteral("one cursor at a time (quote it)"));
    bool json = false;
    if (QString problem; !line.textOrJson(&json, &problem))
        return line.usage(problem);

    QString cursor = cursors.constFirst();
    if (cursor == QLatin1String("-") && rest.isEmpty()) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            return line.usage(QStringLiteral("cannot read stdin"));
        cursor = QString::fromUtf8(in.readLine()).remove(QLatin1Char('\n')).remove(QLatin1Char('\r'));
    }

    qCDebug(lcCli) << "decoding a cursor of" << cursor.size() << "characters";
    const CursorDecoding decoding = decodeCursor(cursor);
    if (json) {
        printJson(toJsonText(cursorDecodingToJson(decoding)).toUtf8());
    } else {
        QString out;
        switch (decoding.verdict) {
        case CursorDecoding::Verdict::Empty:
            out = QStringLiteral("\"\": the empty cursor. Under 2026-07-28 it is a valid cursor and does not "
                                 "end the list.\n");
            break;
        case CursorDecoding::Verdict::Opaque:
            out = QStringLiteral(
                      "opaque (%1 chars): %2\n(Cursors are opaque by protocol; not decoding is not a "
                      "fault.)\n")
                      .arg(QString::number(cursor.size()), decoding.error);
            break;
        case CursorDecoding::Verdict::Decoded:
            out = QStringLiteral("%1 chars, decoded (best effort, non-normative):\n").arg(cursor.size());
            for (const CursorLayer &layer : decoding.layers)
                renderLayer(layer, 1, &out);
            out += QStringLiteral("summary: %1\n").arg(decoding.summary());
            break;
        }
        printOut(out);
    }
    return decoding.verdict == CursorDecoding::Verdict::Opaque ? 1 : 0;
}

// Runs a parsed command under the application's event loop until it finishes.
int runCommand(std::unique_ptr<Command> command)
{
    int exitCode = 2;
    QObject::connect(command.get(), &Command::finished, QCoreApplication::instance(), [&exitCode](int code) {
        exitCode = code;
        QCoreApplication::exit(code);
    });
    QMetaObject::invokeMethod(command.get(), &Command::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    return exitCode;
}

QString replayHelp()
{
    return QStringLiteral(
        "Usage: folio replay FILE.folio <command> [options]\n"
        "\n"
        "Runs a command on a recorded session (folio record, File > Save Session) instead of a\n"
        "server: each request is answered as it was when recorded, after the latency it had, and\n"
        "the pages' TTLs count down on the recorded time, as fast as the replay goes. No server is\n"
        "started and nothing touches the network. The commands:\n"
        "  list <list> [options]   as 'folio list' (folio replay s.folio list tools --format json\n"
        "                          prints what 'folio list tools --format json' printed)\n"
        "  audit [options]         as 'folio audit', on what the recording holds\n"
        "  snapshot -o FILE        as 'folio snapshot' (the same as 'folio snapshot -o FILE\n"
        "                          FILE.folio')\n"
        "A request the recording does not hold (another list, other arguments, more pages) fails\n"
        "with \"the recording holds no answer to this request\".\n"
        "\n"
        "Exit status: the command's; 2 also when the file cannot be read (damaged, cut short, not a\n"
        "session, or from a newer Folio: the message says which, and where).\n");
}

int runReplay(const QStringList &arguments)
{
    if (arguments.isEmpty() || arguments.constFirst() == QLatin1String("--help") ||
        arguments.constFirst() == QLatin1String("-h")) {
        if (arguments.isEmpty()) {
            printErr(QStringLiteral(
                "folio replay: give a session file and a command\nTry 'folio replay --help'.\n"));
            return 2;
        }
        printOut(replayHelp());
        return 0;
    }
    const QString file = arguments.at(0);
    const QString command = arguments.value(1);
    if (command != listWord && command != auditWord && command != reportWord && command != snapshotWord) {
        printErr(
            QStringLiteral("folio replay: %1\nTry 'folio replay --help'.\n")
                .arg(command.isEmpty()
                         ? QStringLiteral("give a command after the file: list, audit, report or snapshot")
                         : QStringLiteral("'%1' cannot be replayed: list, audit, report or snapshot")
                               .arg(command)));
        return 2;
    }
    // First: a "--" the user gave must not swallow it as a stdio command's words.
    return runCli(command, QStringList{QStringLiteral("--replay"), file} + arguments.mid(2));
}

// Parses a command's words into its Options, then runs it (with -v, logging everything).
template<typename C, typename Parse> int runParsed(Parse parse)
{
    typename C::Options options;
    if (const int parsed = parse(&options); parsed != ParseOk)
        return parsed;
    if (options.verbose)
        enableVerboseLogging();
    return runCommand(std::make_unique<C>(options));
}

const QList<Subcommand> &subcommands()
{
    using Args = const QStringList &;
    static const QList<Subcommand> table{
        {listWord,
         QStringLiteral("list <list>"),
         {QStringLiteral("walk one list page by page and print items and pages")},
         [](Args a) { return runParsed<ListCommand>([&](auto *o) { return ListCommand::parse(a, o); }); }},
        {readWord,
         QStringLiteral("read <uri>"),
         {QStringLiteral("read one resource: its contents, its cache hints as"),
          QStringLiteral("received and their findings")},
         [](Args a) { return runParsed<ReadCommand>([&](auto *o) { return ReadCommand::parse(a, o); }); }},
        {callWord,
         QStringLiteral("call TOOL --args JSON"),
         {QStringLiteral("call one tool once and print its result (structuredContent"),
          QStringLiteral("checked against the tool's outputSchema)")},
         [](Args a) {
             return runParsed<CallCommand>(
                 [&](auto *o) { return CallCommand::parse(CallCommand::Kind::Tool, a, o); });
         }},
        {getPromptWord,
         QStringLiteral("get-prompt NAME --args JSON"),
         {QStringLiteral("get one prompt and print its messages")},
         [](Args a) {
             return runParsed<CallCommand>(
                 [&](auto *o) { return CallCommand::parse(CallCommand::Kind::Prompt, a, o); });
         }},
        {tasksWord,
         QStringLiteral("tasks run|get|result|cancel|list"),
         {QStringLiteral("run a tool as a task, follow it to its end; get,"),
          QStringLiteral("fetch the result of, cancel or list a server's tasks")},
         [](Args a) {
             // 'folio tasks list' is 'folio list tasks': the walk, its options and formats.
             if (!a.isEmpty() && a.constFirst() == QLatin1String("list"))
                 return runParsed<ListCommand>(
                     [&](auto *o) { return ListCommand::parse(QStringList{tasksWord} + a.mid(1), o); });
             return runParsed<TasksCommand>([&](auto *o) { return TasksCommand::parse(a, o); });
         }},
        {authWord,
         QStringLiteral("auth login|status|logout --url URL"),
         {QStringLiteral("sign in to an HTTP server (OAuth), show or forget it")},
         [](Args a) { return runParsed<AuthCommand>([&](auto *o) { return AuthCommand::parse(a, o); }); }},
        {auditWord,
         QStringLiteral("audit"),
         {QStringLiteral("walk every list and list tool, probe the cursors, report"),
          QStringLiteral("the findings (JUnit XML, SARIF, JSON, Markdown, text)")},
         [](Args a) { return runParsed<AuditCommand>([&](auto *o) { return AuditCommand::parse(a, o); }); }},
        {recordWord,
         QStringLiteral("record -o FILE.folio"),
         {QStringLiteral("walk and audit every list as 'audit' does, and save the"),
          QStringLiteral("session (every message, with timings) to replay it anywhere")},
         [](Args a) {
             return runParsed<AuditCommand>(
                 [&](auto *o) { return AuditCommand::parse(a, o, /*record=*/true); });
         }},
        {replayWord,
         QStringLiteral("replay FILE.folio <command> [options]"),
         {QStringLiteral("run list, audit, report or snapshot on a recorded session:"),
          QStringLiteral("no server, no network (folio replay s.folio list tools)")},
         [](Args a) { return runReplay(a); }},
        {reportWord,
         QStringLiteral("report -o FILE"),
         {QStringLiteral("the audit, written as a bug report: every page with its raw"),
          QStringLiteral("request and response, cursors, hints, findings, a timeline"),
          QStringLiteral("(HTML that works offline, Markdown or JSON)")},
         [](Args a) {
             return runParsed<ReportCommand>([&](auto *o) { return ReportCommand::parse(a, o); });
         }},
        {snapshotWord,
         QStringLiteral("snapshot -o FILE"),
         {QStringLiteral("walk every list and list tool to its end and save what the"),
          QStringLiteral("server holds (items, pages, cursors, hints, findings) as"),
          QStringLiteral("JSON; a recording FILE.folio stands in for a server")},
         [](Args a) {
             return runParsed<SnapshotCommand>([&](auto *o) { return SnapshotCommand::parse(a, o); });
         }},
        {diffWord,
         QStringLiteral("diff A B"),
         {QStringLiteral("compare two snapshots, recordings or a live server:"),
          QStringLiteral("what changed, each change in a class (breaking,"),
          QStringLiteral("additive, text, caching, paging); text, Markdown,"),
          QStringLiteral("JSON, JUnit or SARIF, and --fail-on for CI")},
         [](Args a) { return runParsed<DiffCommand>([&](auto *o) { return DiffCommand::parse(a, o); }); }},
        {tapWord,
         QStringLiteral("tap -- COMMAND ARGS..."),
         {QStringLiteral("stand between a client and a stdio server: relay every"),
          QStringLiteral("byte unchanged, follow the client's walks and judge how"),
          QStringLiteral("it pages and caches (--judge FILE, --record FILE.folio)")},
         [](Args a) { return runParsed<TapCommand>([&](auto *o) { return TapCommand::parse(a, o); }); }},
        {decodeWord,
         QStringLiteral("decode-cursor <cursor>"),
         {QStringLiteral("show what a cursor holds (best effort, non-normative)")},
         [](Args a) { return runDecodeCursor(a); }},
        {helpWord,
         QStringLiteral("help [command]"),
         {QStringLiteral("this help, or a command's")},
         [](Args a) {
             if (!a.isEmpty() && isCliCommand(a.constFirst()) && a.constFirst() != helpWord &&
                 !a.constFirst().startsWith(QLatin1Char('-')))
                 return runCli(a.constFirst(), {QStringLiteral("--help")});
             printOut(mainHelp());
             return 0;
         }},
    };
    return table;
}

} // namespace

bool isCliCommand(const QString &word)
{
    if (word == QLatin1String("--help") || word == QLatin1String("-h"))
        return true;
    const QList<Subcommand> &table = subcommands();
    return std::any_of(table.begin(), table.end(), [&](const Subcommand &c) { return c.word == word; });
}

int runCli(const QString &command, const QStringList &arguments)
{
    const QString word =
        command == QLatin1String("--help") || command == QLatin1String("-h") ? helpWord : command;
    for (const Subcommand &c : subcommands()) {
        if (c.word == word)
            return c.run(arguments);
    }
    printErr(QStringLiteral("folio: unknown command '%1'\n").arg(command));
    return 2;
}

} // namespace folio
