#pragma once

#include "cachehints.h"

#include "finding.h"
#include "listsource.h"
#include "mcperror.h"

#include <QJsonValue>
#include <QList>
#include <QString>
#include <optional>

namespace folio {

// Everything known about one page request and its answer, as received. Nothing is filled in:
// an absent ttlMs stays absent; the effective values sit next to the received ones.
struct PageRecord
{
    enum class State { Loading, Fresh, Stale, Expired, Refetching, Failed, Discarded };
    // cacheScope as judged: NotApplicable for legacy-era and tool pages (no hints by design).
    enum class Scope { Missing, Public, Private, Invalid, NotApplicable };

    // One request for this page: the first, then each refetch (for the timeline).
    struct Attempt
    {
        qint64 sentAtMs = 0; // wall clock
        qint64 latencyMs = -1;
        bool failed = false;
        bool refetch = false;
        // The request's JSON-RPC id as the traffic log writes it (TrafficLog::Entry::id): what
        // finds the attempt's raw request and response there. Empty when it is not known.
        QString requestId;
    };

    quint64 serial = 0; // unique for the model's lifetime (the TTL clock's key)
    int walk = 0;       // which walk (refresh generation) the page belongs to
    int index = 0;      // 0-based page index within its walk

    std::optional<QString> requestCursor; // absent, or the string sent ("" included)
    NextCursor next;                      // as received (with storage of its own)

    int itemCount = 0;
    std::optional<int> requestedLimit;
    qint64 requestBytes = 0;
    qint64 responseBytes = 0;
    qint64 sentAtMs = 0;        // wall clock
    qint64 receivedAtMs = 0;    // wall clock
    qint64 receivedMonoMs = -1; // on the TTL clock

    bool hintsExpected = false; // a 2026-07-28 protocol list: ttlMs/cacheScope are MUST
    bool legacyEra = false;
    CacheHints hints;          // as received, kept with storage of their own
    qint64 effectiveTtlMs = 0; // counts down from receivedMonoMs when > 0
    Scope scope = Scope::NotApplicable;
    QList<Attempt> attempts;

    State state = State::Loading;
    McpError error;
    QList<Finding> findings;
    QString discardReason;
    // Discarded because Folio asked a list tool without the arguments it wants: Folio's question,
    // not the server's failure (PageLedger::markAskedWithoutArguments()).
    bool askedWithoutArguments = false;

    int refetchCount = 0;
    // Where this walk parts from the walk before it (a restart: by the user, or on list_changed):
    // on the first page of this walk that differs from the earlier walk's page of the same number,
    // how it differs ("other items than walk 1's page 3"); empty on every other page.
    QString parting;
    int diffAdded = 0, diffRemoved = 0, diffChanged = 0;

    // The last answer's latency (the last attempt's), -1 before any.
    qint64 latencyMs() const { return attempts.isEmpty() ? -1 : attempts.constLast().latencyMs; }
    // When the page goes stale on the TTL clock; -1 when it does not count down.
    qint64 expiresAtMonoMs() const;
    bool isSettled() const { return state != State::Loading && state != State::Refetching; }
    Finding::Severity worstSeverity(bool *any) const;
    static Scope judgeScope(bool present, const QJsonValue &value);

    static QString stateName(State s);
    // A received value as a person reads it: absent, null, "text" (quoted: a string), 12, 1.5, {...}.
    static QString describeValue(bool present, const QJsonValue &value);
    // Its "page" is numbered from 1 (index + 1), as everywhere a person reads it.
    QJsonObject toJson() const;
    // The same with every occurrence of this page's cursors (values, evidence, messages) masked:
    // cursors can carry tenant data, and exports leave the machine.
    QJsonObject toMaskedJson() const;
    // A copy whose cursors (sent, next, in findings) read as maskCursor() does.
    PageRecord masked() const;
    // Replaces each of cursors wherever it occurs in a string of value, by maskCursor().
    static QJsonValue maskCursorsIn(const QJsonValue &value, const QStringList &cursors);
};

} // namespace folio
