#pragma once

#include "finding.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <memory>

namespace folio {

// Judges an MCP *client* from the messages it exchanged with a server, as `folio tap` sees them
// pass (docs/findings.md, "found by: client"). It sends nothing and knows only what went by: each
// message in order, in both directions, with its time. It follows every list the client asked
// for — the protocol lists (tools/list, prompts/list, resources/list, resources/templates/list,
// tasks/list) and list tools (ADR-032: a tools/call of a tool whose tools/list entry has a cursor
// argument, ListSource::fromTool) — page by page, and says where the client paged or cached
// wrongly: it stopped before the end, followed a repeated cursor, mishandled a refused cursor,
// never paged a list, changed a list tool's other arguments mid-walk, did not list again after
// list_changed, asked a page again while its TTL ran, polled with no jitter, or sent a 2026-07-28
// request without the required _meta. Every finding has Finding::Source::Client.
//
// Bounded: it keeps per list at most a fixed number of walks and pages (the oldest go), and per
// request only what judging needs (never a result's items), so an endless session costs little.
//
// Fixed thresholds (clientjudge.cpp; docs/findings.md lists each rule): 64 walks a list and 10,000
// pages a walk kept (pages beyond are counted and judged, not kept); a walk that stopped after 10,
// 16, 20, 25, 32, 50, 64, 128, 200, 250, 256, 500, 512, 1,000, 1,024 or a multiple of 100 pages
// stopped at a cap ("page-cap"); polling is a first page asked at intervals within 2 % (or 20 ms,
// whichever is larger) of each other; a list tool's page size may change between pages (ADR-032).
class ClientJudge
{
public:
    enum class From { Client, Server };

    struct Options
    {
        // How long a client may take to ask a list again after the server said list_changed.
        qint64 listChangedGraceMs = 10'000;
        // Re-listings of a list's first page needed before a fixed period is called polling.
        int pollingRepeats = 3;
    };

    // What the judge saw of one walk of one list by the client: for a view of the client's side.
    struct PageSeen
    {
        qint64 requestedAtMs = 0;
        qint64 answeredAtMs = -1; // -1: no answer (yet)
        QJsonValue cursor;        // the cursor the client sent (undefined: the first page)
        QJsonValue nextCursor;    // what the answer said (undefined: none, the end)
        int items = -1;           // items in the answer (-1: no answer or an error)
        int errorCode = 0;        // the JSON-RPC error code of the answer, 0 when none
        QJsonValue ttlMs;         // as the answer sent it (undefined: absent)
        QString cacheScope;       // as sent, "" when absent
    };
    struct WalkSeen
    {
        QString list;               // "tools/list", ..., or "tool:NAME" for a list tool
        QJsonObject otherArguments; // a list tool's arguments besides its cursor
        QList<PageSeen> pages;
    };

    explicit ClientJudge(const Options &options);
    ClientJudge();
    ~ClientJudge();
    ClientJudge(const ClientJudge &) = delete;
    ClientJudge &operator=(const ClientJudge &) = delete;

    // One JSON-RPC message as it passed, in order; t: ms since the session began (never going
    // back). A batch (an array) is given element by element by the caller; anything that is not a
    // JSON-RPC request, notification or response is ignored.
    void observe(From from, const QJsonObject &message, qint64 t);
    // The session ended at t (the client went, or the server exited): judges what needs the end
    // (a walk left unfinished, a list_changed never followed). Later observe() calls are ignored.
    void finish(qint64 t);

    // Every finding so far, in the order found (those that need the end only after finish()).
    QList<Finding> findings() const;
    // The client's walks, oldest first, per list in the order the lists were first asked.
    QList<WalkSeen> walks() const;
    // The protocol revision the client spoke, as far as seen ("" until known).
    QString revision() const;

private:
    struct State;
    std::unique_ptr<State> d;
};

} // namespace folio
