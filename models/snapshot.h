#pragma once

#include "auditresult.h"
#include "cachehints.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace folio {

class PageWalker;

// A snapshot of one server (docs/snapshot-format.md): every list walked to its end, each page's
// items exactly as received (as JSON values), its cursors raw and its cache hints as sent, the
// server's info, capabilities and instructions, the revision and transport, when it was taken and
// the walks' findings. The same server gives the same file but for takenAt and takenFrom: nothing
// timed (latencies, clocks) is kept. Built headless from a walker (Snapshot::List::fromWalker) and
// the audit's result, by `folio snapshot`; written masked.
struct Snapshot
{
    // "version": raised when a field changes meaning or goes (new fields may come).
    static constexpr int FormatVersion = 1;
    static QString formatName() { return QStringLiteral("folio-snapshot"); }
    // Files larger than this are refused before they are read (a walk keeps at most 256 MiB).
    static constexpr qint64 MaxFileBytes = 512LL * 1024 * 1024;

    struct Page
    {
        std::optional<QString> cursor; // the cursor sent for it: absent on a first page, "" kept
        bool hasNextCursor = false;    // the result had a nextCursor member
        QJsonValue nextCursor;         // as received (a string, null or another type), when it had
        CacheHints hints;              // ttlMs and cacheScope as received
        QJsonArray items;              // as received, in order
        QJsonObject error;             // {code, message} when the page failed; empty otherwise
    };

    struct List
    {
        QString id;            // "tools", "prompts", "resources", "templates", "tool:<name>"
        QJsonObject arguments; // a list tool's arguments (besides the paging ones)
        QString skipped;       // not walked, and why ("" when walked)
        bool complete = false;
        QString stopReason;  // why the walk stopped short ("" when complete)
        QList<Page> pages;   // the last walk's pages, in order
        QJsonArray findings; // Finding::toJson() of the walk's findings

        int itemCount() const;
        // The walker's current walk: its pages, their items and its findings.
        static List fromWalker(const PageWalker &walker);
        // A list the audit reported as not walked (its skipped reason).
        static List fromAudited(const AuditedList &audited);
    };

    // Who the server is.
    QString revision;  // negotiated
    QString transport; // "stdio", "streamable-http", "http+sse"
    QJsonObject serverInfo;
    QJsonObject capabilities;
    QString instructions;
    QJsonArray findings; // the server's own (server/discover hints), Finding::toJson()
    QList<List> lists;   // tools, prompts, resources, templates, then list tools

    // The fields that differ between two takes of the same server.
    qint64 takenAtMs = 0; // wall clock
    QString takenFrom;    // the target (masked), or the recording it was replayed from

    // The file: indented JSON, object members in a fixed order, a final newline. Every string
    // (member names too) masked with SecretMask::maskMessage() and secrets.
    QByteArray toJson(const QStringList &secrets = {}) const;
    // A damaged, foreign or newer file, or one over MaxFileBytes, gets nullopt and, in *error,
    // what is wrong (and where). Never throws, never asserts, whatever the bytes.
    static std::optional<Snapshot> fromJson(const QByteArray &data, QString *error);

    bool save(const QString &path, const QStringList &secrets, QString *error) const;
    static std::optional<Snapshot> load(const QString &path, QString *error);

    // The members that differ between two takes of the same server ("takenAt", "takenFrom").
    static QStringList varyingFields();
};

} // namespace folio
