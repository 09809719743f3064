#include "listcommand.h"
#include "counted.h"

#include "clientview.h"
#include "clioutput.h"
#include "clisession.h"
#include "clitarget.h"
#include "commandline.h"
#include "cursordecoder.h"
#include "findingsarif.h"
#include "mcpclient.h"
#include "pageledger.h"
#include "pagewalker.h"
#include "rowstore.h"
#include "toolcatalog.h"
#include "ttlclock.h"

#include <QCommandLineParser>
#include <QJsonDocument>

#include <cstdio>

namespace folio {

namespace {

int terminalWidth()
{
    bool ok = false;
    const int columns = qEnvironmentVariableIntValue("COLUMNS", &ok);
    return ok && columns >= 40 ? columns : 160;
}

QJsonObject serverJson(const McpClient *client)
{
    const QJsonObject info = client->serverInfo();
    return {{QStringLiteral("name"), info.value(QStringLiteral("name"))},
            {QStringLiteral("version"), info.value(QStringLiteral("version"))},
            {QStringLiteral("revision"), client->protocolVersion()}};
}

} // namespace

QString ListCommand::helpText()
{
    return QStringLiteral(
               "Usage: folio list <list> [options] <target>\n"
               "\n"
               "Walks one list of an MCP server page by page, following its cursors, and prints the\n"
               "items with the page ledger (cursors, cache hints as received, errors, findings).\n"
               "\n"
               "<list>: tools, prompts, resources, templates, or tool:<name> for a list tool: a tool\n"
               "        that takes a cursor (cursor, after), a page token (page_token, pageToken), an\n"
               "        offset with a limit, or a page number with a page size (per_page, perPage,\n"
               "        page_size, pageSize); docs/findings.md, \"Paging styles\". Or tasks: the\n"
               "        2025-11-25 tasks/list (also 'folio tasks list'; the 2026-07-28 tasks\n"
               "        extension has none). Or skills: the skills extension's skills/list; or\n"
               "        directory:<uri>: its resources/directory/read of one directory (a skill's).\n"
               "\n"
               "Options:\n"
               "  --all            follow every cursor to the end of the list (the default)\n"
               "  --pages N        read at most N pages\n"
               "  --limit N        the page size to ask a list tool for (protocol lists: the server\n"
               "                   picks the page size, so --limit is refused there)\n"
               "  --args JSON      a list tool's other arguments, as a JSON object\n"
               "  --format F       table (default), json, ndjson, csv or sarif\n"
               "  --page-cap N     stop after N pages (default 1000; finding page-cap-reached)\n"
               "  --as-client NAME walk to the end, then print instead of the items what a client would\n"
               "                   end up with, simulated from its documented paging policy: pages it\n"
               "                   asks, items it gets and misses, and why (a \"\" it takes for the end,\n"
               "                   its page cap, the error it raises). NAME: a client's id (mcpx,\n"
               "                   opencode-v1, opencode-v2, ts-sdk, inspector-cli, python-idiom, folio)\n"
               "                   or all; protocol lists only; table or json\n"
               "                   (docs/client-policies.md)\n") +
           CommandLine::sharedOptionsHelp(19) + TargetOptions::helpText() +
           QStringLiteral(
               "\n"
               "Formats:\n"
               "  table   aligned columns; a line opens each page (its cursor, next cursor, item count,\n"
               "          latency, ttlMs and cacheScope exactly as received) followed by its findings\n"
               "  json    one object, written once the walk has ended:\n"
               "          {arguments (list tools), items:[...], list,\n"
               "           pages:[{page, cursor, nextCursor, itemCount, ttlMs, cacheScope, latencyMs,\n"
               "                   error: null|{code, message, kind}, findings:[{id, severity, message,\n"
               "                   page, evidence}], ...}],\n"
               "           server:{name, version, revision}, complete, stopReason}\n"
               "          cursor and nextCursor are null when absent; ttlMs and cacheScope are null when\n"
               "          absent (ttlMsPresent/cacheScopePresent say which); complete and stopReason come\n"
               "          last, once the walk has ended; pages are numbered from 1 (page, and a\n"
               "          finding's page, pages and the pages its evidence names)\n"
               "  ndjson  one item per line, exactly as received, and nothing else (the pages are in\n"
               "          --format json); a walk that did not complete is reported on stderr\n"
               "  A list_changed notification during the walk starts it again from the first page: every\n"
               "  format prints the final walk's items; json lists the pages thrown away with\n"
               "  \"state\": \"discarded\" and their discardReason, the table marks them DISCARDED.\n"
               "  csv     a header line \"page,<columns>\" then one row per item (RFC 4180 quoting;\n"
               "          nested values as compact JSON); protocol lists have fixed columns, list tools\n"
               "          the keys of their items\n"
               "  sarif   the walk's findings only, as SARIF 2.1.0: one rule per finding id (its\n"
               "          text from docs/findings.md), one result per finding located at the\n"
               "          server, the list, the page and the item\n"
               "  With --as-client, table prints one row per client (CLIENT, PAGES, ITEMS, MISSED,\n"
               "  OUTCOME, what it means; -v adds each policy's source) and json\n"
               "          {list, walk:{pages, items, complete, stopReason},\n"
               "           clients:[{id, name, source, pagesAsked, items, itemsWithDuplicates, missed,\n"
               "                     missedSample, outcome, error, message}]}\n"
               "          outcome: complete, stopped-on-empty-cursor, truncated-at-cap, error,\n"
               "          loop-error, error-swallowed, not-paged, stopped-on-repeated-page,\n"
               "          stopped-on-repeated-cursor, endless or beyond-walk\n"
               "\n"
               "Exit status:\n"
               "  0  the walk reached the end of the list (or read the N pages asked for); with\n"
               "     --as-client, the clients' table was printed\n"
               "  1  it stopped before: a failed page, a repeated cursor, the page cap, a timeout;\n"
               "     the pages read so far are still printed\n"
               "  2  bad usage, the server could not be reached, or it does not offer the list\n"
               "     (a protocol list answered -32601, a tool it does not list), or a list tool\n"
               "     needs arguments: its inputSchema requires some that --args lacks, or the server\n"
               "     refused its first page (isError, or -32602) when --args gave none\n"
               "\n"
               "Examples:\n"
               "  folio list tools -- npx -y @modelcontextprotocol/server-everything\n"
               "  folio list tools --as-client all -- folio-demo-server --scenario healthy \\\n"
               "      --list tools=empty-string-cursor\n"
               "  folio list tool:search_posts --args '{\"channel\":\"general\"}' --limit 50 --format json "
               "\\\n"
               "      --url http://127.0.0.1:8080/mcp --token-env MY_TOKEN\n");
}

int ListCommand::parse(const QStringList &arguments, Options *options)
{
    CommandLine line(QStringLiteral("list"), arguments, QStringLiteral("table"));
    const QCommandLineOption all(QStringLiteral("all"), QStringLiteral("every page"));
    const QCommandLineOption pages(QStringLiteral("pages"), QStringLiteral("pages"), QStringLiteral("N"));
    const QCommandLineOption limit(QStringLiteral("limit"), QStringLiteral("limit"), QStringLiteral("N"));
    const QCommandLineOption args(QStringLiteral("args"), QStringLiteral("arguments"),
                                  QStringLiteral("JSON"));
    const QCommandLineOption pageCap(QStringLiteral("page-cap"), QStringLiteral("cap"), QStringLiteral("N"),
                                     QString::number(PageWalker::DefaultPageCap));
    const QCommandLineOption mask(
        QStringLiteral("mask-cursors"),
        QStringLiteral("Print cursors masked (they can carry tenant data): first characters and length."));
    const QCommandLineOption asClient(QStringLiteral("as-client"), QStringLiteral("client"),
                                      QStringLiteral("NAME"));
    line.parser().addOptions({all, pages, limit, args, pageCap, mask, asClient});
    if (const int code = line.parse(helpText()); code != ParseOk)
        return code;
    QString problem;
    if (!line.onePositional(&options->list,
                            QStringLiteral("which list? tools, prompts, resources, templates or tool:<name>"),
                            QStringLiteral("list"), &problem))
        return line.usage(problem);
    const bool isTool = options->list.startsWith(QLatin1String("tool:"));
    const std::optional<ListSource> extension = ListSource::extension(options->list);
    if (isTool ? options->list.size() == 5 : !listKindFromName(options->list).has_value() && !extension)
        return line.usage(
            QStringLiteral(
                "unknown list '%1': tools, prompts, resources, templates, tasks, skills, directory:<uri> "
                "or tool:<name>")
                .arg(options->list));
    if (extension) // "tasks/list" too
        options->list = extension->id();
    else if (!isTool) // accept "tools/list" and "resourceTemplates" too, print the short name
        options->list = listName(*listKindFromName(options->list));

    if (line.parser().isSet(all) && line.parser().isSet(pages))
        return line.usage(QStringLiteral("--all and --pages exclude each other"));
    if (line.parser().isSet(pages) && !line.positiveInt(pages, &options->pages))
        return line.usage(QStringLiteral("--pages wants a number of at least 1"));
    if (!line.positiveInt(pageCap, &options->pageCap))
        return line.usage(QStringLiteral("--page-cap wants a number of at least 1"));
    if (line.parser().isSet(limit)) {
        int value = 0;
        if (!line.positiveInt(limit, &value))
            return line.usage(QStringLiteral("--limit wants a number of at least 1"));
        if (!isTool)
            return line.usage(
                QStringLiteral("--limit is for list tools; a protocol list's server picks its page "
                               "size"));
        options->limit = value;
    }
    if (line.parser().isSet(args)) {
        if (!isTool)
            return line.usage(QStringLiteral("--args is for list tools (tool:<name>)"));
        QJsonObject given;
        if (!line.jsonObject(args, QStringLiteral("{\"channel\":\"general\"}"), &given, &problem))
            return line.usage(problem);
        options->arguments = given;
    }
    if (!ListOutput::parseFormat(line.format(), &options->format))
        return line.usage(QStringLiteral("--format is table, json, ndjson, csv or sarif"));
    options->verbose = line.verbose();
    options->maskCursors = line.parser().isSet(mask);
    if (line.parser().isSet(asClient)) {
        const QString name = line.parser().value(asClient);
        QString error;
        const QList<ClientPolicy> policies = ClientPolicy::builtIn(&error);
        QStringList ids;
        for (const ClientPolicy &p : policies)
            ids << p.id;
        if (!error.isEmpty())
            return line.usage(
                QStringLiteral("--as-client: the clients' policies do not load: %1").arg(error));
        if (name != QLatin1String("all") && !ids.contains(name))
            return line.usage(QStringLiteral("--as-client: unknown client '%1': %2 or all")
                                  .arg(name, ids.join(QStringLiteral(", "))));
        if (isTool || extension)
            return line.usage(QStringLiteral("--as-client is for protocol lists (tools, prompts, resources, "
                                             "templates): clients page those themselves"));
        if (line.parser().isSet(pages))
            return line.usage(QStringLiteral("--as-client walks the whole list: --pages excludes it"));
        if (options->format != ListOutputFormat::Table && options->format != ListOutputFormat::Json)
            return line.usage(QStringLiteral("--as-client prints table or json"));
        options->asClient = name;
    }

    if (!line.readTarget(&options->server, &options->keychainToken, &problem))
        return line.usage(problem);
    return ParseOk;
}

ListCommand::ListCommand(const Options &options, QObject *parent)
    : SessionCommand(QStringLiteral("list"), options.server, options.keychainToken, parent)
    , m_options(options)
    , m_clock(new TtlClock(this))
{
    connect(m_session, &CliSession::watchdogFired, this, [this](const QString &message) {
        if (!m_walker) {
            fail(2, message);
            return;
        }
        m_walker->cancel();
        printErr(QStringLiteral("folio list: %1\n").arg(message));
        printResult(false, message);
        finish(1);
    });
    connect(m_session, &CliSession::ready, this, [this] {
        m_clock->followReplay(m_session->client());
        if (m_options.list.startsWith(QLatin1String("tool:")))
            findTool();
        else if (const std::optional<ListSource> extension = ListSource::extension(m_options.list))
            walkExtension(*extension);
        else
            walk(ListSource::protocol(*listKindFromName(m_options.list)));
    });
}

ListCommand::~ListCommand()
{
    // A walker unschedules its pages from the TTL clock when it goes: walkers before the clock.
    delete m_walker;
    delete m_finder;
}

void ListCommand::findTool()
{
    m_finder = new ToolCatalog(m_session->client(), m_clock, this);
    m_finder->setPageCap(m_options.pageCap);
    connect(m_finder->walker(), &PageWalker::pageAccepted, m_session, &CliSession::kick);
    connect(m_finder, &ToolCatalog::found, this, &ListCommand::handleToolsListed);
    m_finder->find();
}

void ListCommand::handleToolsListed()
{
    if (!m_finder || m_walker || m_done)
        return;
    const QString name = m_options.list.mid(5);
    if (const std::optional<QJsonObject> tool = m_finder->tool(name)) {
        std::optional<ListSource> source = ListSource::fromTool(*tool);
        if (!source) {
            fail(2, QStringLiteral("tool '%1' is not a list tool: its inputSchema has no cursor-like string "
                                   "argument (cursor, page_token, pageToken, after) and no position "
                                   "(offset with limit, page with per_page/perPage/page_size/pageSize)")
                        .arg(name));
            return;
        }
        if (m_options.arguments)
            source->setArguments(*m_options.arguments);
        if (m_options.limit) {
            if (source->limitArgument().isEmpty())
                printErr(
                    QStringLiteral("folio list: tool '%1' has no limit-like argument; --limit is ignored\n")
                        .arg(name));
            source->setLimit(m_options.limit);
        }
        if (const std::optional<QString> start = source->startCursor())
            printErr(QStringLiteral("folio list: the walk starts at the %1 given in --args: %2\n")
                         .arg(source->cursorArgument(), m_options.maskCursors ? maskCursor(*start) : *start));
        walk(*source);
        return;
    }
    fail(m_finder->isComplete() ? 2 : 1, m_finder->missingToolText(name));
}

void ListCommand::walkExtension(const ListSource &source)
{
    // An extension list exists only where the server offers it (tasks/list: 2025-11-25 core tasks;
    // skills/list: the skills extension).
    if (const QString why = source.unavailableOn(m_session->client()); !why.isEmpty()) {
        fail(2, why);
        return;
    }
    walk(source);
}

void ListCommand::walk(const ListSource &source)
{
    m_walker = new PageWalker(m_session->client(), source, m_clock, this);
    connect(m_walker, &PageWalker::pageAccepted, m_session, &CliSession::kick);
    connect(m_walker, &PageWalker::pageAccepted, this, &ListCommand::preparePage);
    connect(m_walker, &PageWalker::walkRestarted, this, [this] {
        m_prepared.clear(); // the pages thrown away are not printed
        m_preparedBytes = 0;
    });
    connect(m_walker, &PageWalker::pageAccepted, this, &ListCommand::scheduleEvaluate);
    connect(m_walker, &PageWalker::pageFailed, this, &ListCommand::scheduleEvaluate);
    connect(m_walker, &PageWalker::walkFinished, this, &ListCommand::scheduleEvaluate);
    if (m_options.pages > 0) {
        m_walker->setPageCap(qMin(m_options.pages, m_options.pageCap));
        m_walker->start();
    } else {
        m_walker->setPageCap(m_options.pageCap);
        m_walker->fetchAll();
    }
    // A protocol list that changes under the walk is walked again (list_changed), as in the window
    // and the audit: the notifications must reach the client (2026-07-28: subscriptions/listen;
    // 2025: the GET stream over HTTP). Asked after the first page, which goes first.
    if (source.kind() == ListSource::Kind::Protocol)
        m_session->client()->listenForListChanges();
}

void ListCommand::scheduleEvaluate()
{
    if (m_evaluateQueued)
        return;
    m_evaluateQueued = true;
    QMetaObject::invokeMethod(this, &ListCommand::evaluate, Qt::QueuedConnection);
}

void ListCommand::evaluate()
{
    m_evaluateQueued = false;
    if (!m_walker || m_done || m_walker->isLoading())
        return;
    if (m_walker->isStopped() && failIfNotOffered())
        return;
    if (m_walker->needsArguments()) {
        // Folio's question was incomplete, not the server's answer wrong: usage, as the audit
        // skips the list for it.
        fail(2,
             QStringLiteral("%1 %2; give them with --args JSON").arg(m_options.list, m_walker->stopReason()));
        return;
    }
    if (m_walker->isComplete() || m_walker->isStopped()) {
        printResult(m_walker->isComplete(), m_walker->stopReason());
        // --as-client: the table says what each client makes of where the walk ended.
        finish(m_walker->isComplete() || !m_options.asClient.isEmpty() ? 0 : 1);
        return;
    }
    if (m_options.pages > 0) {
        if (m_walker->pagesInWalk() >= m_options.pages) {
            printResult(false,
                        QStringLiteral("read the %1 asked for (--pages); the list goes on")
                            .arg(counted(m_options.pages, "page", "pages")),
                        true);
            finish(0);
            return;
        }
        if (m_walker->canFetchNext()) {
            m_walker->fetchNext();
            return;
        }
    }
    if (!m_walker->isFetchingAll()) {
        // A walk that started again after it had reached its end (list_changed) goes on to its end.
        if (m_options.pages == 0 && m_walker->canFetchNext()) {
            m_walker->fetchAll();
            return;
        }
        // Nothing in flight and nothing more to ask (the cap of a --pages walk).
        printResult(false, QStringLiteral("the page cap (%1) was reached").arg(m_walker->pageCap()));
        finish(1);
    }
}

// A protocol list the server does not have: its first request failed with -32601 (method not
// found). That is no failed page of a list but the list's absence, said as the audit says it.
bool ListCommand::failIfNotOffered()
{
    const ListSource &source = m_walker->source();
    const QList<int> rows = m_walker->walkPageRows();
    if (source.kind() == ListSource::Kind::Tool || rows.size() != 1)
        return false;
    const McpError &e = m_walker->ledger()->page(rows.first()).error;
    if (e.kind != McpError::Kind::Rpc || e.code != -32601)
        return false;
    if (source.kind() == ListSource::Kind::Extension) {
        fail(2, QStringLiteral("the server does not offer %1: it answered -32601 (method not found)")
                    .arg(source.requestTitle()));
        return true;
    }
    const ListKind kind = source.protocolKind();
    const QString capability =
        kind == ListKind::ResourceTemplates ? QStringLiteral("resources") : listName(kind);
    const bool advertised = m_session->client()->capabilities().contains(capability);
    fail(2,
         QStringLiteral("the server does not offer %1: %2 answered -32601 (method not found)%3")
             .arg(source.displayName(), listMethod(kind),
                  advertised ? QStringLiteral(", although its capabilities list %1").arg(capability)
                             : QStringLiteral("; its capabilities do not list %1 either").arg(capability)));
    return true;
}

QByteArray ListCommand::pageText(int ledgerRow) const
{
    // Each item's stored compact JSON, not parsed: ndjson prints it as it is; json indents it as
    // Qt would (ListOutput::appendJsonItem), every item after a comma (the first page written
    // drops its first one).
    const ItemTexts *items = m_walker->rows()->pageItems(ledgerRow);
    if (!items || items->count() == 0)
        return {};
    const bool json = m_options.format == ListOutputFormat::Json;
    QByteArray out;
    out.reserve((json ? 2 : 1) * items->text.size() + items->count() * 16);
    for (int i = 0; i < items->count(); ++i) {
        const QByteArrayView text = items->at(i);
        if (json) {
            ListOutput::appendJsonItem(&out, text, false);
        } else {
            out += text.startsWith('{') ? text : QByteArrayView("{}"); // item() is an object
            out += '\n';
        }
    }
    return out;
}

void ListCommand::preparePage(int ledgerRow)
{
    // Making a page's output (json's indenting, the masking and the terminal-safe pass of both)
    // is most of what printing costs: done as each page is accepted, it overlaps the server's
    // making of the next one, as it did when the pages were written as they came. Kept until the
    // end, within a budget (the walk's size cap does not count it); pages past it are made then.
    if ((m_options.format != ListOutputFormat::Json && m_options.format != ListOutputFormat::Ndjson) ||
        !m_options.asClient.isEmpty() || m_preparedBytes >= PreparedBudgetBytes ||
        m_prepared.contains(ledgerRow))
        return;
    QByteArray ready = jsonOutput(pageText(ledgerRow));
    m_preparedBytes += ready.size();
    m_prepared.insert(ledgerRow, std::move(ready));
}

void ListCommand::printWalkItems(const QList<int> &walkRows)
{
    // The final walk's pages only, a page at a time: no document is built.
    bool first = true;
    for (int row : walkRows) {
        QByteArray ready = m_prepared.take(row); // made as it came, or now (past the budget)
        if (ready.isNull())
            ready = jsonOutput(pageText(row));
        if (ready.isEmpty())
            continue;
        if (first && m_options.format == ListOutputFormat::Json)
            ready.remove(0, 1); // the comma before the first item (masking leaves it first)
        first = false;
        printReady(ready);
    }
}

void ListCommand::printResult(bool complete, const QString &stopReason, bool stoppedAsAsked)
{
    if (!m_options.asClient.isEmpty()) {
        printClientViews(complete, stopReason);
        return;
    }
    ListOutput out;
    out.list = m_options.list;
    out.server = serverJson(m_session->client());
    out.arguments = m_walker->source().arguments();
    out.complete = complete;
    out.stopReason = complete ? QString() : stopReason;
    // The pages in the order they came: those of walks thrown away (a list_changed, a restart) and
    // other discarded ones as discarded, then the final walk's, whose items alone are printed.
    const PageLedger *ledger = m_walker->ledger();
    const QList<int> walkRows = m_walker->walkPageRows();
    const bool wholeItems =
        m_options.format == ListOutputFormat::Table || m_options.format == ListOutputFormat::Csv;
    qsizetype nextWalkRow = 0; // walkRows ascend, as the ledger's rows do
    for (int row = 0; row < ledger->rowCount(); ++row) {
        const PageRecord &page = ledger->page(row);
        const bool inWalk = nextWalkRow < walkRows.size() && walkRows.at(nextWalkRow) == row;
        if (inWalk)
            ++nextWalkRow;
        else if (page.state != PageRecord::State::Discarded)
            continue;
        out.pages.append(m_options.maskCursors ? page.masked() : page);
        int first = 0, count = 0;
        if (!inWalk || !wholeItems || !m_walker->rows()->rowsOfPage(row, &first, &count))
            continue; // json and ndjson write the items from the row store below
        for (int r = first; r < first + count; ++r) {
            out.items.append(m_walker->rows()->item(r));
            out.itemPage.append(int(out.pages.size() - 1));
        }
    }
    out.columns = m_walker->source().columns();
    if (out.columns.isEmpty() && wholeItems)
        out.columns = ListSource::inferColumns(out.items);

    switch (m_options.format) {
    case ListOutputFormat::Table:
        printOut(out.toTable(terminalWidth()));
        return;
    case ListOutputFormat::Json:
        printJson(out.jsonHead());
        printWalkItems(walkRows);
        printJson(out.jsonTail());
        return;
    case ListOutputFormat::Ndjson:
        printWalkItems(walkRows);
        break;
    case ListOutputFormat::Csv:
        printOut(out.toCsv());
        break;
    case ListOutputFormat::Sarif: {
        QList<FindingSarif::Located> located;
        for (const Finding &f : m_walker->findings())
            located.append({f, m_options.list});
        printJson(
            toJsonText(FindingSarif::log(out.server.value(QStringLiteral("name")).toString(), located,
                                         McpClient::clientInfo().value(QStringLiteral("version")).toString()))
                .toUtf8());
        break;
    }
    }
    if (!complete && !stoppedAsAsked)
        printErr(QStringLiteral("folio list: incomplete after %1: %2\n")
                     .arg(counted(int(walkRows.size()), "page", "pages"), stopReason));
}

void ListCommand::printClientViews(bool complete, const QString &stopReason)
{
    const QList<int> walkRows = m_walker->walkPageRows();
    const QList<ClientWalkPage> walk =
        ClientSimulation::walkOf(*m_walker->ledger(), *m_walker->rows(), walkRows, m_options.maskCursors);
    ClientViewsOutput out;
    out.list = m_options.list;
    out.walkPages = int(walk.size());
    out.walkComplete = complete;
    out.stopReason = complete ? QString() : stopReason;
    for (const ClientPolicy &policy : ClientPolicy::builtIn()) { // it loaded when parsed
        if (m_options.asClient != QLatin1String("all") && policy.id != m_options.asClient)
            continue;
        out.views.append(
            ClientSimulation::simulate(policy, m_options.list, walk, complete, m_options.maskCursors));
        out.walkItems = out.views.constLast().total;
    }
    if (m_options.format == ListOutputFormat::Json)
        printJson(toJsonText(out.toJson()).toUtf8());
    else
        printOut(out.toTable(m_options.verbose));
    if (!complete)
        printErr(QStringLiteral("folio list: Folio's own walk is incomplete after %1: %2\n")
                     .arg(counted(int(walkRows.size()), "page", "pages"), stopReason));
}

} // namespace folio
