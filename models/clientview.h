#pragma once

#include "nextcursor.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace folio {

class PageLedger;
class RowStore;

// How a well-known MCP client pages a list, as documented: a row of
// resources/clients/paging-policies.json (whose "description" says what each parameter means).
// Data, not code: adding a client is adding a row.
struct ClientPolicy
{
    enum class OnCap { Truncate, Error, Report };
    enum class LoopCheck { None, ErrorOnRepeatedCursor, StopOnRepeatedCursor, StopOnRepeatedPage };
    enum class OnError { Error, Swallow, Report };

    QString id;
    QString name;
    QString version;
    QString source; // where the policy comes from: never empty in a loaded row
    QString notes;
    bool followsEmptyCursor = true;
    std::optional<int> maxPages; // none: no cap
    OnCap onCap = OnCap::Truncate;
    QString capError; // what it raises at the cap (onCap Error)
    LoopCheck loopCheck = LoopCheck::None;
    OnError onError = OnError::Error;
    std::optional<QStringList> pagesLists; // none: it pages every list
    QHash<QString, QJsonObject> overrides; // per list id ("tools", ...), parameters as in a row

    // The policy for one list ("tools", "prompts", "resources", "templates"): its overrides
    // applied; pages() says whether it pages that list at all.
    ClientPolicy forList(const QString &list) const;
    bool pages(const QString &list) const { return !pagesLists || pagesLists->contains(list); }

    // Reads a policies document ({"policies": [...]}). Empty, with *error set, when it does not
    // parse or a row lacks an id, a name or a source, or holds a value it does not know.
    static QList<ClientPolicy> fromJson(const QByteArray &json, QString *error = nullptr);
    // The policies compiled in (:/clients/paging-policies.json).
    static QList<ClientPolicy> builtIn(QString *error = nullptr);
    static QString resourcePath() { return QStringLiteral(":/clients/paging-policies.json"); }
};

// One page of Folio's walk of a list, as a client simulation needs it.
struct ClientWalkPage
{
    std::optional<QString> cursor; // the cursor it was asked with; none: the first page
    NextCursor next;               // as received
    QStringList identities;        // its items' (ListSource::identity), in order
    bool failed = false;
    QString error; // why it failed, as a person reads it
};

// What one client would end up with on a list, simulated from Folio's walk of it.
struct ClientView
{
    enum class Outcome {
        Complete,                // it reached the end of the list
        TruncatedAtCap,          // its page cap, with a cursor still to follow; it returns what it read
        StoppedOnEmptyCursor,    // it took the cursor "" for the end
        Error,                   // it raises an error and returns no list (error says which)
        LoopError,               // it raises an error on a repeated cursor and returns no list
        NotPaged,                // it never pages this list: page 1 only
        StoppedOnRepeatedPage,   // a page repeated the previous one (items and cursor): it stopped
        StoppedOnRepeatedCursor, // a cursor came again: it stopped, keeping what it read
        Swallowed,               // a page failed; it returns what it had as if the list ended
        Endless,                 // no cap and no loop check: it would ask forever (bounded here)
        BeyondWalk,              // it would ask a cursor Folio's walk never asked: unknown past there
    };

    QString policyId;
    QString name;
    QString source;
    QString list;
    Outcome outcome = Outcome::Complete;
    int pagesAsked = 0;
    int items = 0; // distinct items it ends up with
    int itemsWithDuplicates = 0;
    int total = 0;                  // distinct items of Folio's walk
    bool totalIsLowerBound = false; // Folio's walk did not reach the end either
    int missed = 0;                 // of Folio's items, those it would not have
    QStringList missedSample;       // the first few of them, in walk order
    QString error;                  // what it raises (Error, LoopError), or the failure it hid
    QString message;                // one sentence a person reads

    static QString outcomeName(Outcome outcome);
    // {id, name, source, pagesAsked, items, itemsWithDuplicates, missed, missedSample, outcome,
    // error (null when none), message}
    QJsonObject toJson() const;
};

// The simulation. Pages are taken as deterministic per cursor: a client asking a cursor Folio asked
// gets the page Folio got, so a client without a loop check that meets a cursor cycle goes round it
// up to its cap. list_changed, caching and timing are not simulated. At most the policy's cap or
// MaxSimulatedPages pages are simulated.
namespace ClientSimulation {

inline constexpr int MaxSimulatedPages = 10'000;
inline constexpr int MissedSampleSize = 5;

// walk: Folio's walk of the list, in order; walkComplete: it reached the end of the list;
// maskCursors: the messages show cursors as maskCursor() does (they can carry tenant data).
ClientView simulate(const ClientPolicy &policy, const QString &list, const QList<ClientWalkPage> &walk,
                    bool walkComplete, bool maskCursors = false);
// The walk's pages (ledger rows, in order) as the simulation reads them. An item without an
// identity is known by its text. maskCursors: a failed page's error shows its cursor masked.
QList<ClientWalkPage> walkOf(const PageLedger &ledger, const RowStore &rows, const QList<int> &walkRows,
                             bool maskCursors = false);

} // namespace ClientSimulation

} // namespace folio
