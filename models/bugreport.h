#pragma once

#include "auditresult.h"
#include "pagerecord.h"
#include "trafficlog.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVector>

#include <optional>

namespace folio {

class PageWalker;
class ServerSession;
struct ServerConfig;

// What a bug report is written as (`folio report --format`, the window's export by file suffix).
enum class BugReportFormat { Html, Markdown, Json };

// A bug report of one server in one file (docs/report-format.md): who the server is, every list's
// pages with their cursors raw and decoded, their hints as sent and as Folio took them, the
// findings of the walks and of the audit, and each page's raw request and response from the
// traffic log. Built headless from plain values, so that the window (its open lists) and
// `folio report` (the audit's walks) write the same report. The JSON is the report; Markdown and
// HTML are renderings of it, and nothing in them is not in it.
namespace BugReport {

// The report's "folioReport": raised when a field changes meaning or goes (new fields may come).
constexpr int FormatVersion = 1;

// Who the server is, as the report names it.
struct Server
{
    QString displayName; // what the window calls it (its config's name, or what it says it is)
    QJsonObject serverInfo;
    QString transport; // Transport::kindName(): "stdio", "streamable-http", "http+sse"
    QString revision;  // negotiated
    QString target;    // the command line or URL it was reached at (secrets masked with the rest)
    QString instructions;
    QString demoScenario; // when it is Folio's demo server: its scenario
    QString demoCaption;  // ... and the scenario's caption

    // Reads the demo scenario and its caption when serverInfo says the server is Folio's demo
    // server: the scenario from the stdio command's --scenario (the demo's default, tour, without
    // one; unknown over HTTP), the caption from the first of several lines of its instructions.
    void readDemo(const ServerConfig &config);
};

// One list as it was walked: every request of its ledger (discarded pages included), as kept.
struct List
{
    QString id;    // "tools", "tool:search_posts"
    QString title; // "Tools", "search_posts (tool)"
    QJsonObject arguments;
    QList<PageRecord> pages; // ledger order
    int items = 0;           // rows of the current walk
    bool complete = false;
    QString stopReason;

    static List fromWalker(const PageWalker &walker);
};

struct Input
{
    Server server;
    QList<List> lists;
    std::optional<AuditResult> audit;
    qint64 auditFinishedAtMs = 0; // wall clock; 0 when not known
    // The traffic the pages were asked and answered in, redacted as the log records it; each
    // attempt finds its request and response by its requestId.
    QVector<TrafficLog::Entry> traffic;
    // Redacts what the log redacts (its secrets, credentials): applied to the whole report.
    const TrafficLog *redactor = nullptr;
    bool maskCursors = false; // cursors read as maskCursor() does, and are not decoded
    QString generator;        // "Folio 0.4.0"
    qint64 generatedAtMs = 0; // wall clock; 0: now
    QString abortedReason;    // the report could not be completed (no connection, a cut-short audit)

    // A session as the window has it: who the server is, the lists it has open (each walker's
    // whole ledger) and its traffic log. No audit, cursors not masked: the caller says.
    static Input fromSession(const ServerSession &session);
};

// The report as JSON (docs/report-format.md), masked.
QJsonObject build(const Input &input);

// Renderings of build()'s JSON. A raw message longer than rawCapBytes is cut (said, with its size).
static constexpr qsizetype DefaultRawCapBytes = 32 * 1024;
QByteArray toHtml(const QJsonObject &report, qsizetype rawCapBytes = DefaultRawCapBytes);
QByteArray toMarkdown(const QJsonObject &report, qsizetype rawCapBytes = DefaultRawCapBytes);
QByteArray toJsonText(const QJsonObject &report); // indented
QByteArray render(const QJsonObject &report, BugReportFormat format);

// "html", "md"/"markdown", "json"; false for anything else.
bool parseFormat(const QString &name, BugReportFormat *format);
// By a file name's suffix (.html/.htm, .md/.markdown, .json); std::nullopt for another.
std::optional<BugReportFormat> formatForFile(const QString &fileName);
QString suffix(BugReportFormat format); // "html", "md", "json"

} // namespace BugReport

} // namespace folio
