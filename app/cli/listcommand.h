#pragma once

#include "clisession.h"
#include "command.h"
#include "listoutput.h"
#include "listsource.h"
#include "serverconfig.h"

#include <QHash>
#include <QJsonObject>
#include <QPointer>
#include <optional>

namespace folio {

class PageWalker;
class ToolCatalog;
class TtlClock;

// `folio list`: walks one list (a protocol list or a list tool) page by page with the same
// PageWalker the window uses and prints, once the walk has ended, the final walk's items and the
// page ledger. A list that changes under the walk (list_changed) is walked again, and the walk
// that reached the end is the one printed, in every format; the pages thrown away are listed as
// discarded.
class ListCommand : public SessionCommand
{
    Q_OBJECT
public:
    struct Options
    {
        QString list;  // tools, prompts, resources, templates, tasks or tool:<name>
        int pages = 0; // 0: every page (within pageCap)
        std::optional<int> limit;
        std::optional<QJsonObject> arguments;
        ListOutputFormat format = ListOutputFormat::Table;
        int pageCap = 1000;
        bool verbose = false;
        bool maskCursors = false;
        // --as-client: "" for none, a policy's id or "all" (models/clientview.h): walks to the end,
        // then prints what each client would see instead of the items.
        QString asClient;
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
    // An extension list (tasks): said and exit 2 where the server cannot have it, else walked.
    void walkExtension(const ListSource &source);
    void evaluate();
    void scheduleEvaluate();
    bool failIfNotOffered(); // the list is not the server's: said, exit 2
    void printResult(bool complete, const QString &stopReason, bool stoppedAsAsked = false);
    // A page's items as json or ndjson writes them.
    QByteArray pageText(int ledgerRow) const;
    void preparePage(int ledgerRow);
    // Prints the final walk's items as json or ndjson writes them.
    void printWalkItems(const QList<int> &walkRows);
    // --as-client: what each chosen client would see of the final walk.
    void printClientViews(bool complete, const QString &stopReason);

    Options m_options;
    TtlClock *m_clock;
    QPointer<ToolCatalog> m_finder; // tools/list, to find a list tool's definition
    QPointer<PageWalker> m_walker;
    bool m_evaluateQueued = false;
    // json, ndjson: each page's output made as it was accepted (ledger row -> the bytes to write),
    // up to PreparedBudgetBytes.
    static constexpr qsizetype PreparedBudgetBytes = 64 * 1024 * 1024;
    QHash<int, QByteArray> m_prepared;
    qsizetype m_preparedBytes = 0;
};

} // namespace folio
