#pragma once

#include "clisession.h"
#include "command.h"
#include "invocationrun.h"
#include "serverconfig.h"

#include <QJsonObject>
#include <QPointer>

namespace folio {

class PageWalker;
class ToolCatalog;
class TtlClock;

// `folio call TOOL` and `folio get-prompt NAME`: one tools/call or prompts/get, followed to its end
// with the same InvocationRun the window uses (progress on stderr, the 2026 multi-round trip answered
// by a DefaultInputResponder). A call first finds the tool in tools/list (every page) for its
// schemas and annotations, refuses a tool whose x-mcp-header declarations are invalid, and checks
// the result's structuredContent against its outputSchema.
class CallCommand : public SessionCommand
{
    Q_OBJECT
public:
    enum class Kind { Tool, Prompt };

    struct Options
    {
        Kind kind = Kind::Tool;
        QString name;
        QJsonObject arguments;
        bool json = false; // --format json
        int pageCap = 1000;
        bool verbose = false;
        ServerConfig server;
        CliSession::KeychainToken keychainToken = CliSession::KeychainToken::None;
    };

    // Parses the words after `folio call` or `folio get-prompt`. Returns ParseOk to go on, or an
    // exit code (0 after --help, 2 for bad usage, having said why on stderr).
    static int parse(Kind kind, const QStringList &arguments, Options *options);
    static QString helpText(Kind kind);
    // A tool's CallToolResult as the text format prints it: its content blocks (text as is, the
    // rest summarised in brackets), then structuredContent as JSON; "(no content)" when empty.
    // Also how `folio tasks` prints a task's result.
    static QString toolResultText(const QJsonObject &result);

    explicit CallCommand(const Options &options, QObject *parent = nullptr);
    ~CallCommand() override;

private:
    void findTool();
    void handleToolsListed();
    void invoke(const QJsonObject &tool);
    void handleFinished();
    void printText(const QJsonObject &result);
    QString word() const;

    Options m_options;
    TtlClock *m_clock;
    QPointer<ToolCatalog> m_finder;
    QPointer<InvocationRun> m_run;
    QJsonObject m_tool;
};

} // namespace folio
