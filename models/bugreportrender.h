#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

// What the HTML and Markdown renderings of a bug report (bugreport.h) say alike, read from its
// JSON: they differ in markup, not in what they say.
namespace folio::BugReport::Render {

// One row of the server's facts: its label, its text, and whether the text is code (monospace).
struct Fact
{
    QString label;
    QString text;
    bool code = false;
};
// The server's facts as both renderings table them, in order, the empty ones left out: its name,
// title, version, transport, revision, how it was started, the demo scenario, its instructions, and
// when and by what the report was written.
QList<Fact> serverFacts(const QJsonObject &report, const QJsonObject &server);

// A report's top-level parts, read once.
struct Parts
{
    explicit Parts(const QJsonObject &report);
    QJsonObject server;
    QJsonObject summary;
    QJsonArray lists;
    QJsonArray findings;
    QString serverName; // its display name, else its name
};

// "Page 3", "Page 3 (walk 2)": as the window's ledger says it.
QString pageLabel(const QJsonObject &page);
// A cursor as sent or received: "(none)", "\"\" (empty string)", the text, or a wrong-typed value.
QString cursorText(const QJsonValue &cursor, bool present = true);
// What a decoded cursor holds, in one line ("" when it did not decode).
QString decodedText(const QJsonValue &decoding);
// ttlMs / cacheScope as the server sent them, and as Folio took them.
QString ttlSent(const QJsonObject &page);
QString ttlEffective(const QJsonObject &page);
QString scopeSent(const QJsonObject &page);
QString scopeEffective(const QJsonObject &page);
QString errorText(const QJsonObject &page);
QString bytesText(qint64 bytes);
QString durationText(qint64 ms);
QString clockTime(qint64 wallMs); // HH:mm:ss.zzz, UTC
// A logged message as a person reads it: JSON indented, else its text; cut at capBytes (at a
// character's boundary), *cut saying so. Empty when the entry is null (not in the log).
QString rawText(const QJsonValue &entry, qsizetype capBytes, bool *cut);
// "request id 7 · 118 B" for an entry; what is missing when it is null.
QString rawCaption(const QJsonValue &entry, const QString &what, const QJsonValue &requestId);
// The page of a list that a finding is shown on: the walk's page of that walk, else the page of
// that number in the latest walk; -1 when none.
int pageOfFinding(const QJsonArray &pages, const QJsonObject &finding);
QString severityName(const QJsonObject &finding); // "error", "warning", "info"
// How a list's walk ended: "complete", "stopped: <why>", or "not walked to its end".
QString endedText(const QJsonObject &list);
// "2 errors, 1 warning, no info".
QString countsText(const QJsonObject &counts);

} // namespace folio::BugReport::Render
