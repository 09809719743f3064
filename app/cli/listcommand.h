#pragma once

#include "clisession.h"
#include "command.h"
#include "listoutput.h"
#include "listsource.h"
#include "serverconfig.h"

#include <QJsonObject>
#include <QPointer>
#include <optional>

namespace folio {

class PageWalker;
class ToolCatalog;
class TtlClock;

// `folio list`: walks one list (a protocol list or a list tool) page by page with the same
// PageWalker the window uses and prints the items and the page ledger: json and ndjson as each
// page is accepted, table and csv (whose widths and columns need every row) at the end.
class ListCommand : public SessionCommand
{
    Q_OBJECT
public:
    struct Options
    {
        QString list;  // tools, prompts, resources, templates or tool:<name>
        int pages = 0; // 0: every page (within pageCap)
        std::optional<int> limit;
        std::optional<QJsonObject> arguments;
        ListOutputFormat format = ListOutputFormat::Table;
        int pageCap = 1000;
        bool verbose = false;
        bool maskCursors = false;
        ServerConfig server;
        CliSession::KeychainToken keychainToken = CliSession::KeychainToken::None;
    };

    // Parses the words after `folio list`. Returns ParseOk to go on, or an exit code (0 after
    // --help, 2 for bad usage, having said why on stderr).
    static int parse(const QStringList &arguments, Options *options);
    static QString helpText();

    explicit ListCommand(const Options &options, QObject *parent = nullptr);
    ~ListCommand() override;

private:
    void findTool();
    void handleToolsListed();
    void walk(const ListSource &source);
    void evaluate();
    void scheduleEvaluate();
    bool streams() const;    // json and ndjson: written as the pages arrive
    bool failIfNotOffered(); // the list is not the server's: said, exit 2
    void writePage(int ledgerRow);
    void handleWalkRestarted(const QString &reason);
    void printResult(bool complete, const QString &stopReason, bool stoppedAsAsked = false);
    void printResult(const QList<int> &pageRows, bool complete, const QString &stopReason,
                     bool stoppedAsAsked);

    Options m_options;
    TtlClock *m_clock;
    QPointer<ToolCatalog> m_finder; // tools/list, to find a list tool's definition
    QPointer<PageWalker> m_walker;
    bool m_evaluateQueued = false;
    QList<int> m_writtenPages; // ledger rows of the pages whose items are out (json, ndjson)
    bool m_jsonOpen = false;   // the json document's head is out
    bool m_jsonHasItems = false;
};

} // namespace folio
