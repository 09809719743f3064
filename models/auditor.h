#pragma once

#include "auditedwalk.h"
#include "auditprobes.h"
#include "auditresult.h"
#include "listsource.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <functional>
#include <optional>

namespace folio {

class McpClient;
class PageWalker;
class RpcCall;
class TtlClock;

// What to audit and how hard to push.
struct AuditOptions
{
    QStringList lists;        // "tools", "prompts", "resources", "templates", "tool:<name>"; empty: all
    QStringList allowedTools; // list tools to call although they are not annotated readOnlyHint: true
    // Tool name -> its other arguments; the required ones not given are filled from the schema.
    QHash<QString, QJsonObject> toolArguments;
    int pageCap = 1000;    // pages per walk
    int recheckPages = 20; // pages of each walk after the first (unstable-order and the like)
    int walks = 2;         // walks of each list in all: the first, then walks - 1 compared with it
    int walkPauseMs = 0;   // the pause before each walk after the first
    // false: only the passive walks (every list to its end and its findings), no probe and no second
    // walk: a snapshot asks the server nothing but its lists.
    bool probe = true;
};

// The audit engine, headless: walks every list and every list tool to its end (within the page cap),
// keeps the passive findings of each walk, then probes each list that pages — politely: one request at
// a time, a handful of probes per list, and list tools only when annotated readOnlyHint: true or named
// in allowedTools. A list tool's required arguments that toolArguments does not give are filled from
// its inputSchema (SchemaArgs), said in a note, and sent by its walks and every probe alike:
//  - a tampered cursor (the first cursor the server issued, reversed, with "!" appended) must be
//    refused with -32602 (invalid-cursor-accepted / invalid-cursor-wrong-code; a list tool may
//    also refuse with isError); a list that issued no cursor to tamper with (it fits one page)
//    gets a forged one (AuditProbes::forgedCursor), unless it pages by offset or page number;
//  - a cursor issued for another list, or (list tools) the list's own cursor with other arguments
//    (a filter added, else a value changed; the second only when the first is refused), must be
//    refused (foreign-cursor-accepted); skipped where the tampered cursor was accepted already;
//  - a "" the server issued but the walk never sent back (the cap) is sent once (empty-cursor-rejected);
//  - a second walk with the same arguments (up to recheckPages pages) must give the same items in the
//    same order on every page (unstable-order);
//  - 2026-07-28: the server/discover result carries cache hints, like every list page.
// A protocol list walked to its end is also linted (DefinitionLint: hidden characters, instructions
// to the model, unportable names and schemas, collisions, context cost), from what the walk
// stored; those findings say Finding::Source::Lint.
// It prints nothing; progress() and the result are for the command line and the window alike.
class Auditor : public QObject
{
    Q_OBJECT
public:
    Auditor(McpClient *client, const AuditOptions &options, QObject *parent = nullptr);
    ~Auditor() override;

    // The client must be connected.
    void start();
    // Stops where it is; the lists audited so far stay in result(). finished() follows.
    void cancel(const QString &reason);
    bool isRunning() const { return m_running; }
    const AuditResult &result() const { return m_result; }

Q_SIGNALS:
    // What the audit is doing now, for a status line.
    void progress(const QString &message);
    // A page or a probe answered (the command line's watchdog listens).
    void activity();
    // result().lists.at(index) is final.
    void listAudited(int index);
    // An audited list's first walk ended (before its probes): the walker as it stands, its ledger
    // and rows, for a report of its pages (`folio report`). The walker goes once the slots return.
    void listWalked(const QString &listId, folio::PageWalker *walker);
    void finished();

private:
    struct ListState
    {
        ListSource source;
        QString filledFromSchema; // a list tool's arguments filled from its schema, described; "" for none
        int report = -1;          // index into m_result.lists
        AuditedWalk first;
        bool tamperedAccepted = false; // the tampered (or forged) cursor was answered as if valid
        bool walked = false;           // the first walk ran and the list is to be probed
        bool changed = false;          // a list_changed arrived while it was audited
    };
    using Step = std::function<void()>;

    void next();
    void plan();
    void planAfterTools();
    void planExtensions();
    void walkFirst(int state);
    void recordFirstWalk(int state, PageWalker *walker);
    void probeTampered(int state);
    void probeForeignList(int state);
    void probeForeignArguments(int state);
    void probeWithArguments(int state, QList<QJsonObject> candidates);
    void probeEmptyCursor(int state);
    void walkSecond(int state);
    void walkAgain(int state, int walk);
    void pauseThen(int ms, const std::function<void()> &then);
    void compareWalks(int state, const AuditedWalk &second, int cap, int walk);
    void finishList(int state);
    void judgeDiscover();
    void finish();

    // Both account their requests and time to the state's list, and call done on a later turn of
    // the event loop (the walker or call is deleted after done returns).
    void runWalk(int state, const ListSource &source, int cap, std::function<void(PageWalker *)> done);
    void runProbe(int state, const ListSource &source, const std::optional<QString> &cursor,
                  std::function<void(const AuditProbes::ProbeAnswer &)> done);
    bool probeable(int state) const;
    void note(int state, const QString &text);
    AuditedList &report(int state) { return m_result.lists[m_states[state].report]; }
    int addReport(const QString &id, const QString &skipped = {});
    bool wanted(const QString &id) const;

    McpClient *m_client;
    AuditOptions m_options;
    TtlClock *m_clock;
    AuditResult m_result;
    QList<ListState> m_states;
    QList<QJsonObject> m_toolDefinitions; // what tools/list listed
    QList<ListSource> m_listTools;        // the list tools among them (ToolCatalog)
    bool m_toolsComplete = false;         // ... to its end
    QList<Step> m_steps;
    QPointer<PageWalker> m_walker;
    QPointer<RpcCall> m_call;
    QElapsedTimer m_elapsed;
    int m_toolsState = -1;
    bool m_running = false;
};

} // namespace folio
