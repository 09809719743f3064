#include "callcommand.h"

#include "clioutput.h"
#include "commandline.h"
#include "invocationrun.h"
#include "mcpclient.h"
#include "pagewalker.h"
#include "schemacheck.h"
#include "toolcatalog.h"
#include "toolresultcheck.h"
#include "ttlclock.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace folio {

namespace {

QString sizeOfBase64(const QJsonValue &data)
{
    return McpError::sizeText(QByteArray::fromBase64(data.toString().toLatin1()).size());
}

// A content block as text: text as is, the rest summarised on one line in brackets.
QString blockText(const QJsonObject &block)
{
    const QString type = block.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("text"))
        return block.value(QStringLiteral("text")).toString();
    if (type == QLatin1String("image") || type == QLatin1String("audio"))
        return QStringLiteral("[%1: %2, %3]")
            .arg(type, block.value(QStringLiteral("mimeType")).toString(QStringLiteral("no MIME type")),
                 sizeOfBase64(block.value(QStringLiteral("data"))));
    if (type == QLatin1String("resource")) {
        const QJsonObject r = block.value(QStringLiteral("resource")).toObject();
        const QString head =
            QStringLiteral("[resource %1, %2")
                .arg(r.value(QStringLiteral("uri")).toString(),
                     r.value(QStringLiteral("mimeType")).toString(QStringLiteral("no MIME type")));
        if (r.contains(QStringLiteral("blob")))
            return head + QStringLiteral(", %1]").arg(sizeOfBase64(r.value(QStringLiteral("blob"))));
        return head + QStringLiteral("]\n") + r.value(QStringLiteral("text")).toString();
    }
    if (type == QLatin1String("resource_link"))
        return QStringLiteral("[link %1: %2%3]")
            .arg(block.value(QStringLiteral("name")).toString(),
                 block.value(QStringLiteral("uri")).toString(),
                 block.contains(QStringLiteral("mimeType"))
                     ? QStringLiteral(", ") + block.value(QStringLiteral("mimeType")).toString()
                     : QString());
    return QStringLiteral("[a block of type %1] %2")
        .arg(type.isEmpty() ? QStringLiteral("(none)") : type, toJsonLine(block));
}

QString withNewline(const QString &text)
{
    return text.endsWith(QLatin1Char('\n')) ? text : text + QLatin1Char('\n');
}

} // namespace

QString CallCommand::helpText(Kind kind)
{
    if (kind == Kind::Prompt)
        return QStringLiteral(
                   "Usage: folio get-prompt NAME [--args JSON] [--format text|json] <target>\n"
                   "\n"
                   "Sends prompts/get for one prompt and prints the messages it answers with.\n"
                   "\n"
                   "Options:\n"
                   "  --args JSON      the prompt's arguments, a JSON object of strings:\n"
                   "                   '{\"city\":\"Oslo\"}' (folio list prompts shows their names; * marks\n"
                   "                   the required)\n"
                   "  --format F       text (default): each message's role, then its content (text as\n"
                   "                   is, other blocks summarised in brackets)\n"
                   "                   json: the result exactly as received\n") +
               CommandLine::sharedOptionsHelp(19) + TargetOptions::helpText() +
               QStringLiteral(
                   "\n"
                   "Exit status:\n"
                   "  0  the server answered with the messages\n"
                   "  1  the request failed at the server: a JSON-RPC error (an unknown prompt, a\n"
                   "     missing argument), a timeout, the connection closed\n"
                   "  2  bad usage, or the server could not be reached\n"
                   "\n"
                   "Example:\n"
                   "  folio get-prompt weather --args '{\"city\":\"Oslo\"}' -- folio-demo-server\n");
    return QStringLiteral(
               "Usage: folio call TOOL [--args JSON] [--format text|json] <target>\n"
               "\n"
               "Calls one tool once (tools/call) and prints its result. The tool is looked up in\n"
               "tools/list first (every page), for its inputSchema, outputSchema and annotations.\n"
               "A tool whose x-mcp-header declarations are invalid is not called. The command\n"
               "declares no elicitation, sampling or roots capability: it answers no questions.\n"
               "\n"
               "Options:\n"
               "  --args JSON      the tool's arguments, a JSON object (default {}); arguments that\n"
               "                   do not fit the inputSchema are said on stderr and sent anyway:\n"
               "                   the server judges them\n"
               "  --format F       text (default): the content blocks (text as is, images, audio and\n"
               "                   resources summarised in brackets), then structuredContent as JSON\n"
               "                   json: the result exactly as received\n"
               "  --page-cap N     tools/list pages read at most while looking the tool up (1000)\n") +
           CommandLine::sharedOptionsHelp(19) + TargetOptions::helpText() +
           QStringLiteral(
               "\n"
               "A structuredContent that does not match the tool's outputSchema (or is missing where\n"
               "one is declared) is said on stderr, path by path; the result is still printed.\n"
               "\n"
               "Exit status:\n"
               "  0  the tool answered, without isError, and its structuredContent fits its\n"
               "     outputSchema (when it declares one)\n"
               "  1  the server side failed: the result has isError: true (the tool's own error,\n"
               "     printed as received), its structuredContent does not match the outputSchema,\n"
               "     or the request failed (a JSON-RPC error, a timeout, the connection closed)\n"
               "  2  bad usage, the server could not be reached, it lists no such tool, or Folio\n"
               "     refuses the tool (invalid x-mcp-header declarations)\n"
               "\n"
               "Examples:\n"
               "  folio call list_users --args '{\"limit\":5}' -- folio-demo-server\n"
               "  folio call search --args '{\"q\":\"cats\"}' --format json --url "
               "http://127.0.0.1:8080/mcp\n");
}

int CallCommand::parse(Kind kind, const QStringList &arguments, Options *options)
{
    options->kind = kind;
    CommandLine line(kind == Kind::Tool ? QStringLiteral("call") : QStringLiteral("get-prompt"), arguments,
                     QStringLiteral("text"));
    const QCommandLineOption args(QStringLiteral("args"), QStringLiteral("arguments"),
                                  QStringLiteral("JSON"));
    const QCommandLineOption pageCap(QStringLiteral("page-cap"), QStringLiteral("cap"), QStringLiteral("N"),
                                     QString::number(PageWalker::DefaultPageCap));
    line.parser().addOption(args);
    if (kind == Kind::Tool)
        line.parser().addOption(pageCap);
    if (const int code = line.parse(helpText(kind)); code != ParseOk)
        return code;
    QString problem;
    if (!line.onePositional(&options->name,
                            kind == Kind::Tool
                                ? QStringLiteral("which tool? (folio list tools shows them)")
                                : QStringLiteral("which prompt? (folio list prompts shows them)"),
                            QStringLiteral("name"), &problem))
        return line.usage(problem);
    if (line.parser().isSet(args)) {
        if (!line.jsonObject(args, QStringLiteral("{\"city\":\"Oslo\"}"), &options->arguments, &problem))
            return line.usage(problem);
        if (kind == Kind::Prompt) {
            for (auto it = options->arguments.begin(); it != options->arguments.end(); ++it) {
                if (!it.value().isString())
                    return line.usage(QStringLiteral("a prompt's arguments are strings: '%1' is %2")
                                          .arg(it.key(), toJsonLine(it.value())));
            }
        }
    }
    if (!line.textOrJson(&options->json, &problem))
        return line.usage(problem);
    if (kind == Kind::Tool && !line.positiveInt(pageCap, &options->pageCap))
        return line.usage(QStringLiteral("--page-cap wants a number of at least 1"));
    options->verbose = line.verbose();
    if (!line.readTarget(&options->server, &options->keychainToken, &problem))
        return line.usage(problem);
    return ParseOk;
}

CallCommand::CallCommand(const Options &options, QObject *parent)
    : SessionCommand(options.kind == Kind::Tool ? QStringLiteral("call") : QStringLiteral("get-prompt"),
                     options.server, options.keychainToken, parent)
    , m_options(options)
    , m_clock(new TtlClock(this))
{
    connect(m_session, &CliSession::watchdogFired, this, [this](const QString &message) {
        if (m_run)
            m_run->cancel();
        fail(m_run ? 1 : 2, message);
    });
    connect(m_session, &CliSession::ready, this, [this] {
        if (m_options.kind == Kind::Tool)
            findTool();
        else
            invoke({});
    });
}

CallCommand::~CallCommand()
{
    delete m_finder; // before the clock it is scheduled on
}

QString CallCommand::word() const
{
    return m_options.kind == Kind::Tool ? QStringLiteral("call") : QStringLiteral("get-prompt");
}

void CallCommand::findTool()
{
    m_finder = new ToolCatalog(m_session->client(), m_clock, this);
    m_finder->setPageCap(m_options.pageCap);
    connect(m_finder->walker(), &PageWalker::pageAccepted, m_session, &CliSession::kick);
    connect(m_finder, &ToolCatalog::found, this, &CallCommand::handleToolsListed);
    m_finder->find();
}

void CallCommand::handleToolsListed()
{
    if (!m_finder || m_run || m_done)
        return;
    if (const std::optional<QJsonObject> tool = m_finder->tool(m_options.name)) {
        const QString problem = McpClient::toolHeaderProblem(*tool);
        if (!problem.isEmpty()) {
            fail(2, QStringLiteral("Folio does not call '%1': %2").arg(m_options.name, problem));
            return;
        }
        invoke(*tool);
        return;
    }
    fail(m_finder->isComplete() ? 2 : 1, m_finder->missingToolText(m_options.name));
}

void CallCommand::invoke(const QJsonObject &tool)
{
    m_tool = tool;
    McpClient *client = m_session->client();
    if (m_options.kind == Kind::Tool) {
        const QJsonObject inputSchema = tool.value(QStringLiteral("inputSchema")).toObject();
        for (const SchemaViolation &v : checkAgainstSchema(m_options.arguments, inputSchema))
            printErr(QStringLiteral(
                         "folio call: the arguments do not fit the inputSchema at %1: %2 (sent anyway)\n")
                         .arg(readablePath(v.path), v.message));
        m_run = InvocationRun::callTool(client, tool, m_options.arguments, this);
    } else {
        m_run = InvocationRun::getPrompt(client, m_options.name, m_options.arguments, this);
    }
    connect(m_run, &InvocationRun::progressed, this,
            [this](double progress, double total, const QString &message) {
                m_session->kick();
                printErr(QStringLiteral("folio %1: progress %2%3%4\n")
                             .arg(word(), QString::number(progress),
                                  total > 0 ? QStringLiteral(" of ") + QString::number(total) : QString(),
                                  message.isEmpty() ? QString() : QStringLiteral(": ") + message));
            });
    connect(m_run, &InvocationRun::finished, this, &CallCommand::handleFinished);
    if (m_run->isFinished())
        handleFinished();
}

void CallCommand::handleFinished()
{
    if (!m_run || m_done)
        return;
    const McpError error = m_run->error();
    // A result with isError: the tool's own error, printed as it came (whether or not the
    // invocation counts it as a failure).
    const QJsonObject result = m_run->result();
    if (result.isEmpty() && error.isError()) {
        if (m_options.json) {
            QJsonObject e{{QStringLiteral("code"), error.code},
                          {QStringLiteral("message"), error.message},
                          {QStringLiteral("kind"), McpError::kindName(error.kind)}};
            if (!error.data.isUndefined())
                e.insert(QStringLiteral("data"), error.data);
            printJson(toJsonText(QJsonObject{{QStringLiteral("error"), e}}).toUtf8());
        }
        fail(error.kind == McpError::Kind::Closed || error.kind == McpError::Kind::Timeout ||
                     error.kind == McpError::Kind::Rpc || error.kind == McpError::Kind::Cancelled
                 ? 1
                 : 2,
             QStringLiteral("%1 failed: %2").arg(m_run->title(), error.describe()));
        return;
    }
    if (m_options.json)
        printJson(toJsonText(result).toUtf8());
    else
        printText(result);

    int exitCode = 0;
    if (m_options.kind == Kind::Tool) {
        const bool isError = result.value(QStringLiteral("isError")).toBool(false);
        if (isError) {
            printErr(QStringLiteral("folio call: the tool reported an error (isError: true)\n"));
            exitCode = 1;
        } else if (const ToolResultCheck check = ToolResultCheck::of(m_tool, result); check.failed()) {
            if (check.verdict == ToolResultCheck::Verdict::Missing)
                printErr(
                    QStringLiteral("folio call: the tool declares an outputSchema, and the result has no "
                                   "structuredContent\n"));
            for (const QString &line : check.violationLines())
                printErr(
                    QStringLiteral("folio call: structuredContent does not match the outputSchema at %1\n")
                        .arg(line));
            exitCode = 1;
        }
    }
    finish(exitCode);
}

void CallCommand::printText(const QJsonObject &result)
{
    QString out;
    if (m_options.kind == Kind::Prompt) {
        const QString description = result.value(QStringLiteral("description")).toString();
        if (!description.isEmpty())
            out += description + QStringLiteral("\n\n");
        const QJsonArray messages = result.value(QStringLiteral("messages")).toArray();
        for (qsizetype i = 0; i < messages.size(); ++i) {
            const QJsonObject m = messages.at(i).toObject();
            out += QStringLiteral("── %1 ──\n")
                       .arg(m.value(QStringLiteral("role")).toString(QStringLiteral("(no role)")));
            const QJsonValue content = m.value(QStringLiteral("content"));
            const QJsonArray blocks = content.isArray() ? content.toArray() : QJsonArray{content};
            for (const QJsonValue &b : blocks)
                out += withNewline(blockText(b.toObject()));
            if (i + 1 < messages.size())
                out += QLatin1Char('\n');
        }
        if (messages.isEmpty())
            out += QStringLiteral("(no messages)\n");
        printOut(out);
        return;
    }
    printOut(toolResultText(result));
}

QString CallCommand::toolResultText(const QJsonObject &result)
{
    QString out;
    const QJsonArray content = result.value(QStringLiteral("content")).toArray();
    for (const QJsonValue &b : content)
        out += withNewline(blockText(b.toObject()));
    if (result.contains(QStringLiteral("structuredContent"))) {
        if (!content.isEmpty())
            out += QLatin1Char('\n');
        const QJsonValue s = result.value(QStringLiteral("structuredContent"));
        out += QStringLiteral("structuredContent:\n") +
               (s.isObject() ? toJsonText(s.toObject()) : withNewline(toJsonLine(s)));
    }
    if (content.isEmpty() && !result.contains(QStringLiteral("structuredContent")))
        out += QStringLiteral("(no content)\n");
    return out;
}

} // namespace folio
