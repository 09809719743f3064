#include "clientjudge.h"

#include "cachehints.h"
#include "counted.h"
#include "listsource.h"
#include "nextcursor.h"
#include "protocol.h"
#include "terminaltext.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <optional>

namespace folio {

namespace {

// What the judge keeps, at most (docs/findings.md, "Found by: client").
constexpr int MaxWalksPerList = 64;
constexpr int MaxPagesPerWalk = 10'000;
// Cursors a walk remembers for client-followed-repeated-cursor; past them the walk still counts
// pages and still knows its last cursors.
constexpr int MaxCursorsPerWalk = 10'000;
// Requests waiting for their answer; past it the oldest half are forgotten.
constexpr int MaxPendingRequests = 4'096;
// Answers with a running TTL remembered per list for client-refetched-fresh-page.
constexpr int MaxFreshPagesPerList = 1'024;
// List tools learned from tools/list answers.
constexpr int MaxListTools = 4'096;
// Methods counted for client-request-meta-missing.
constexpr int MaxMetaMethods = 256;
// client-polls-without-jitter: intervals within 2 % (or 20 ms, whichever is larger) of each other.
constexpr double PollingTolerance = 0.02;
constexpr qint64 PollingToleranceMinMs = 20;
constexpr int CursorErrorCode = -32602;

const QString MetaProtocolVersion = QStringLiteral("io.modelcontextprotocol/protocolVersion");
const QString MetaClientCapabilities = QStringLiteral("io.modelcontextprotocol/clientCapabilities");
const QString TasksList = QStringLiteral("tasks/list");

// A page count that reads as a cap a client chose rather than the end of a list.
bool isRoundCount(int pages)
{
    static const QList<int> caps{10, 16, 20, 25, 32, 50, 64, 128, 200, 250, 256, 500, 512, 1000, 1024};
    return caps.contains(pages) || (pages >= 100 && pages % 100 == 0);
}

std::optional<QString> idKey(const QJsonValue &id)
{
    if (id.isString())
        return QStringLiteral("s") + id.toString();
    if (id.isDouble())
        return QStringLiteral("n") + QString::number(id.toDouble(), 'g', 17);
    return std::nullopt;
}

// A cursor in a sentence: quoted, on one line, cut when long.
QString shown(const std::optional<QString> &cursor)
{
    if (!cursor)
        return QStringLiteral("(none: the first page)");
    return QLatin1Char('"') + elide(*cursor, 48) + QLatin1Char('"');
}

QJsonValue cursorJson(const std::optional<QString> &cursor)
{
    return cursor ? QJsonValue(*cursor) : QJsonValue(QJsonValue::Null);
}

QJsonValue nextJson(const NextCursor &next)
{
    switch (next.presence) {
    case NextCursor::Presence::Absent:
        return QJsonValue(QJsonValue::Undefined);
    case NextCursor::Presence::Null:
        return QJsonValue(QJsonValue::Null);
    case NextCursor::Presence::String:
        return QJsonValue(next.text);
    case NextCursor::Presence::WrongType:
        return detachedJson(next.raw);
    }
    return {};
}

QString pageNumber(int index)
{
    return QString::number(index + 1);
}

QStringList changedKeys(const QJsonObject &before, const QJsonObject &after, const QString &ignored)
{
    QStringList keys;
    for (auto it = before.begin(); it != before.end(); ++it) {
        if (it.key() != ignored && after.value(it.key()) != it.value())
            keys << it.key();
    }
    for (auto it = after.begin(); it != after.end(); ++it) {
        if (it.key() != ignored && !before.contains(it.key()))
            keys << it.key();
    }
    return keys;
}

} // namespace

struct ClientJudge::State
{
    Options options;
    bool finished = false;
    QString revision;
    bool modern = false;
    bool initializeSent = false; // a legacy session (a probe with server/discover may come first)

    QList<Finding> findings;

    // List tools, by name, as tools/list answers described them (cursor and page-token paging).
    QHash<QString, ListSource> listTools;

    struct Walk
    {
        quint64 serial = 0;
        bool open = true;
        WalkSeen seen;
        int pagesAsked = 0;
        QHash<QString, int> sent;          // cursor -> the page first asked with it
        QSet<QString> answered;            // cursors whose page came back as a page
        int repeats = 0;                   // cursors sent again after their page came back
        QString repeatCursor;              // the first of them
        int repeatPage = -1;               // where it was sent again first
        int lastOk = -1;                   // the last page answered with a page
        std::optional<QString> lastOkNext; // the cursor that page said to follow
        int lastRequest = -1;
        std::optional<QString> lastRequestCursor;
        enum class Outcome { Pending, Ok, Failed } lastOutcome = Outcome::Pending;
        int lastErrorCode = 0;
        QJsonObject lastOtherArguments;
        bool argumentsChanged = false;
    };

    struct Fresh
    {
        qint64 expiresAt = 0;
        qint64 answeredAt = 0;
        qint64 ttlMs = 0;
        quint64 walk = 0;
    };

    struct Refused
    {
        QString cursor;
        int page = 0;
        qint64 at = 0;
    };

    struct ListState
    {
        QString name;
        std::deque<Walk> walks; // oldest first
        QHash<QString, Fresh> fresh;
        QSet<QString> refetchReported;
        std::optional<Refused> refused;
        QList<qint64> firstPageTimes; // the last pollingRepeats + 1
        int pollFinding = -1;         // index in findings
        bool pollGoingOn = false;     // the fixed period still holds
        qint64 pollPeriod = 0;
    };
    QHash<QString, ListState> lists;
    QStringList listOrder;
    quint64 walkSerial = 0;

    struct Pending
    {
        quint64 seq = 0;
        QString method;
        QString list; // "" when no page request
        quint64 walk = 0;
        int page = -1;
        std::optional<QString> cursor;
        QString freshKey;
    };
    QHash<QString, Pending> pending;
    quint64 requestSeq = 0;

    struct ListChanged
    {
        QString notification;
        QStringList lists;
        qint64 at = 0;
    };
    QList<ListChanged> listChanged;

    struct MetaTally
    {
        QStringList missing;
        int count = 0;
        int finding = -1;
    };
    QHash<QString, MetaTally> meta;
    QStringList metaOrder;

    void add(const QString &id, const QList<int> &pages, const QString &message, const QJsonObject &evidence)
    {
        findings.append(Finding::make(id, pages, message, evidence, Finding::Source::Client));
    }

    ListState &listState(const QString &list)
    {
        auto it = lists.find(list);
        if (it == lists.end()) {
            it = lists.insert(list, ListState{});
            it->name = list;
            listOrder << list;
        }
        return *it;
    }

    static Walk *walkOf(ListState &ls, quint64 serial)
    {
        for (auto it = ls.walks.rbegin(); it != ls.walks.rend(); ++it) {
            if (it->serial == serial)
                return &*it;
        }
        return nullptr;
    }

    Walk &newWalk(ListState &ls, const QJsonObject &otherArguments)
    {
        if (int(ls.walks.size()) >= MaxWalksPerList) {
            closeWalk(ls, ls.walks.front());
            ls.walks.pop_front();
        }
        Walk w;
        w.serial = ++walkSerial;
        w.seen.list = ls.name;
        w.seen.otherArguments = otherArguments;
        w.lastOtherArguments = otherArguments;
        ls.walks.push_back(std::move(w));
        return ls.walks.back();
    }

    // The open walk a cursor continues: the one whose last page handed it out, else one with the
    // same other arguments, else the newest.
    static Walk *walkFor(ListState &ls, const QString &cursor, const QJsonObject &otherArguments)
    {
        for (auto it = ls.walks.rbegin(); it != ls.walks.rend(); ++it) {
            if (it->open && it->lastOkNext == cursor)
                return &*it;
        }
        for (auto it = ls.walks.rbegin(); it != ls.walks.rend(); ++it) {
            if (it->open && it->seen.otherArguments == otherArguments)
                return &*it;
        }
        for (auto it = ls.walks.rbegin(); it != ls.walks.rend(); ++it) {
            if (it->open)
                return &*it;
        }
        return nullptr;
    }

    // Rules 1, 2 and 3: judged when a walk ends (a new walk of the list from its first page, or
    // the end of the session).
    // changed: the client started the list again because the server said it changed, which ends a
    // walk rightly wherever it stood.
    void closeWalk(ListState &ls, Walk &w, bool changed = false)
    {
        if (!w.open)
            return;
        w.open = false;
        if (w.repeats > 0) {
            const int distinct = int(w.sent.size());
            QString message =
                QStringLiteral("The client sent the cursor %1 of %2 again on page %3, after its page had "
                               "come back already (%4 in all): it did not notice the server's cursor cycle")
                    .arg(shown(w.repeatCursor), oneLineSafe(ls.name), pageNumber(w.repeatPage),
                         counted(w.repeats, "repeat", "repeats"));
            if (w.pagesAsked > 2 * distinct)
                message += QStringLiteral(", and asked %1 over %2: it did not notice a list that never ends")
                               .arg(counted(w.pagesAsked, "page", "pages"),
                                    counted(distinct, "distinct cursor", "distinct cursors"));
            add(FindingId::ClientFollowedRepeatedCursor, {w.repeatPage}, message,
                {{QStringLiteral("list"), ls.name},
                 {QStringLiteral("cursor"), w.repeatCursor},
                 {QStringLiteral("times"), w.repeats},
                 {QStringLiteral("pagesAsked"), w.pagesAsked},
                 {QStringLiteral("distinctCursors"), distinct}});
        }

        if (changed || w.lastOk < 0 || !w.lastOkNext)
            return; // restarted for a change, no page, or the last page ended the list
        const QString next = *w.lastOkNext;
        const bool askedLast = w.lastRequest > w.lastOk && w.lastRequestCursor == next;
        const auto sentAt = w.sent.constFind(next);
        QString reason;
        if (askedLast) {
            // Asked and failed: a refused cursor is rule 4's; no answer yet says nothing.
            if (w.lastOutcome != Walk::Outcome::Failed || w.lastErrorCode == CursorErrorCode)
                return;
            reason = QStringLiteral("error");
        } else if (sentAt != w.sent.constEnd()) {
            // Sent before (a cycle: stopping is right), or sent later and not the last request.
            if (*sentAt <= w.lastOk || w.lastOutcome != Walk::Outcome::Failed ||
                w.lastErrorCode == CursorErrorCode)
                return;
            reason = QStringLiteral("error");
        } else if (next.isEmpty()) {
            reason = QStringLiteral("empty-cursor");
        } else if (isRoundCount(w.pagesAsked)) {
            reason = QStringLiteral("page-cap");
        } else if (w.lastOutcome == Walk::Outcome::Failed) {
            reason = QStringLiteral("error");
        } else {
            reason = QStringLiteral("unknown");
        }
        QJsonObject evidence{{QStringLiteral("list"), ls.name},
                             {QStringLiteral("pagesAsked"), w.pagesAsked},
                             {QStringLiteral("cursor"), next},
                             {QStringLiteral("reason"), reason}};
        if (!w.seen.otherArguments.isEmpty())
            evidence.insert(QStringLiteral("arguments"), w.seen.otherArguments);

        if (w.pagesAsked == 1) {
            add(FindingId::ClientNeverPaged, {w.lastOk},
                QStringLiteral("The client asked only the first page of %1, whose nextCursor %2 it never "
                               "followed%3: it never paged the list (PG-07)")
                    .arg(oneLineSafe(ls.name), shown(next),
                         next.isEmpty() ? QStringLiteral(" (\"\" is a cursor, not the end: PG-02)")
                                        : QString()),
                evidence);
            return;
        }
        QString why;
        if (reason == QLatin1String("empty-cursor"))
            why = QStringLiteral("it took \"\" for the end, but \"\" is a valid cursor that must not end a "
                                 "list; only an absent or null nextCursor does (PG-02)");
        else if (reason == QLatin1String("page-cap"))
            why = QStringLiteral("%1 is a round number: it looks like a page cap that truncates the list "
                                 "silently (PG-06)")
                      .arg(counted(w.pagesAsked, "page", "pages"));
        else if (reason == QLatin1String("error"))
            why = QStringLiteral("its last request got an error and it did not ask again");
        else
            why = QStringLiteral("nothing seen says why");
        add(FindingId::ClientStoppedEarly, {w.lastOk},
            QStringLiteral("The client stopped its walk of %1 after %2 without the page that page %3's "
                           "nextCursor %4 leads to: %5")
                .arg(oneLineSafe(ls.name), counted(w.pagesAsked, "page", "pages"), pageNumber(w.lastOk),
                     shown(next), why),
            evidence);
    }

    void dropFresh(const QStringList &names)
    {
        for (const QString &name : names) {
            auto it = lists.find(name);
            if (it != lists.end())
                it->fresh.clear();
        }
    }

    // Rule 6: list_changed notifications whose grace ran out by t.
    void expireListChanged(qint64 t)
    {
        for (qsizetype i = 0; i < listChanged.size();) {
            const ListChanged &c = listChanged.at(i);
            if (t <= c.at + options.listChangedGraceMs) {
                ++i;
                continue;
            }
            add(FindingId::ClientIgnoredListChanged, {},
                QStringLiteral(
                    "The server sent %1 at %2 ms and the client did not ask %3 again within %4 ms: "
                    "it kept a list the server said had changed")
                    .arg(c.notification, QString::number(c.at), c.lists.join(QStringLiteral(" or ")),
                         QString::number(options.listChangedGraceMs)),
                {{QStringLiteral("list"), c.lists.first()},
                 {QStringLiteral("notification"), c.notification},
                 {QStringLiteral("atMs"), c.at},
                 {QStringLiteral("graceMs"), options.listChangedGraceMs}});
            listChanged.removeAt(i);
        }
    }

    void serverNotification(const QString &method, qint64 t)
    {
        static const QHash<QString, QStringList> affected{
            {QStringLiteral("notifications/tools/list_changed"), {QStringLiteral("tools/list")}},
            {QStringLiteral("notifications/prompts/list_changed"), {QStringLiteral("prompts/list")}},
            {QStringLiteral("notifications/resources/list_changed"),
             {QStringLiteral("resources/list"), QStringLiteral("resources/templates/list")}},
        };
        const auto it = affected.constFind(method);
        if (it == affected.constEnd())
            return;
        dropFresh(*it); // list_changed makes even fresh pages stale
        bool asked = false;
        for (const QString &list : *it)
            asked = asked || lists.contains(list);
        if (!asked)
            return; // a list the client never asked for: it holds nothing to refresh
        for (const ListChanged &c : std::as_const(listChanged)) {
            if (c.notification == method)
                return; // the earliest one counts
        }
        listChanged.append({method, *it, t});
    }

    // Whether a first-page request of list answers a list_changed still within its grace.
    bool answerListChanged(const QString &list)
    {
        bool answered = false;
        for (qsizetype i = 0; i < listChanged.size();) {
            if (listChanged.at(i).lists.contains(list)) {
                listChanged.removeAt(i);
                answered = true;
            } else {
                ++i;
            }
        }
        return answered;
    }

    // Rule 8.
    static QString pollMessage(const QString &list, int times, qint64 period)
    {
        return QStringLiteral("The client asked the first page of %1 %2 at a fixed period of %3 ms: a client "
                              "that polls must add jitter and back off (2026-07-28)")
            .arg(oneLineSafe(list), counted(times, "time", "times"), QString::number(period));
    }

    void notePoll(ListState &ls, qint64 t)
    {
        const int repeats = std::max(1, options.pollingRepeats);
        if (ls.pollFinding >= 0) {
            if (ls.pollGoingOn && !ls.firstPageTimes.isEmpty()) {
                const qint64 interval = t - ls.firstPageTimes.last();
                const double tolerance =
                    std::max(double(PollingToleranceMinMs), PollingTolerance * ls.pollPeriod);
                if (std::abs(double(interval - ls.pollPeriod)) <= tolerance) {
                    Finding &f = findings[ls.pollFinding];
                    const int times = f.evidence.value(QStringLiteral("times")).toInt() + 1;
                    f.evidence.insert(QStringLiteral("times"), times);
                    f.message = pollMessage(ls.name, times, ls.pollPeriod);
                } else {
                    ls.pollGoingOn = false;
                }
            }
            ls.firstPageTimes = {t};
            return;
        }
        ls.firstPageTimes.append(t);
        while (ls.firstPageTimes.size() > repeats + 1)
            ls.firstPageTimes.removeFirst();
        if (ls.firstPageTimes.size() < repeats + 1)
            return;
        qint64 least = std::numeric_limits<qint64>::max();
        qint64 most = 0;
        for (qsizetype i = 1; i < ls.firstPageTimes.size(); ++i) {
            const qint64 interval = ls.firstPageTimes.at(i) - ls.firstPageTimes.at(i - 1);
            least = std::min(least, interval);
            most = std::max(most, interval);
        }
        if (least <= 0 ||
            double(most - least) > std::max(double(PollingToleranceMinMs), PollingTolerance * least))
            return;
        const qint64 period =
            qRound64(double(ls.firstPageTimes.last() - ls.firstPageTimes.first()) / repeats);
        ls.pollPeriod = period;
        ls.pollGoingOn = true;
        ls.pollFinding = int(findings.size());
        add(FindingId::ClientPollsWithoutJitter, {}, pollMessage(ls.name, repeats + 1, period),
            {{QStringLiteral("list"), ls.name},
             {QStringLiteral("periodMs"), period},
             {QStringLiteral("times"), repeats + 1}});
        ls.firstPageTimes = {t};
    }

    // Rule 9.
    static QString metaMessage(const QString &method, const QStringList &missing, int count)
    {
        return QStringLiteral("The client sent %1 of %2 without %3 in params._meta, which every request "
                              "of a 2026-07-28 session must carry")
            .arg(counted(count, "request", "requests"), oneLineSafe(method),
                 missing.join(QStringLiteral(" and ")));
    }

    void emitMeta(const QString &method)
    {
        MetaTally &m = meta[method];
        const QJsonObject evidence{{QStringLiteral("method"), method},
                                   {QStringLiteral("missing"), QJsonArray::fromStringList(m.missing)},
                                   {QStringLiteral("count"), m.count}};
        if (m.finding < 0) {
            m.finding = int(findings.size());
            add(FindingId::ClientRequestMetaMissing, {}, metaMessage(method, m.missing, m.count), evidence);
        } else {
            findings[m.finding].evidence = evidence;
            findings[m.finding].message = metaMessage(method, m.missing, m.count);
        }
    }

    void becomeModern()
    {
        if (modern)
            return;
        modern = true;
        for (const QString &method : std::as_const(metaOrder))
            emitMeta(method); // what was missing before the session showed its revision
    }

    void noteMeta(const QString &method, const QJsonObject &params)
    {
        const QJsonObject m = params.value(QStringLiteral("_meta")).toObject();
        const QJsonValue version = m.value(MetaProtocolVersion);
        if (version.isString() && !version.toString().isEmpty()) {
            revision = version.toString();
            if (version.toString() >= QLatin1String(Revision::Modern))
                becomeModern();
        }
        if (method == QLatin1String("initialize")) {
            initializeSent = true;
            const QJsonValue asked = params.value(QStringLiteral("protocolVersion"));
            if (asked.isString())
                revision = asked.toString();
            return; // the legacy handshake carries no _meta
        }
        if (method == QLatin1String("server/discover") && !initializeSent) {
            if (revision.isEmpty())
                revision = QLatin1String(Revision::Modern);
            becomeModern();
        }
        QStringList missing;
        if (!m.contains(MetaProtocolVersion))
            missing << MetaProtocolVersion;
        if (!m.contains(MetaClientCapabilities))
            missing << MetaClientCapabilities;
        if (missing.isEmpty())
            return;
        if (!meta.contains(method) && meta.size() >= MaxMetaMethods)
            return;
        if (!meta.contains(method))
            metaOrder << method;
        MetaTally &tally = meta[method];
        for (const QString &key : std::as_const(missing)) {
            if (!tally.missing.contains(key))
                tally.missing << key;
        }
        ++tally.count;
        if (modern)
            emitMeta(method);
    }

    void learnTools(const QJsonObject &result)
    {
        for (const QJsonValue &item : result.value(QStringLiteral("tools")).toArray()) {
            const QJsonObject tool = item.toObject();
            const QString name = tool.value(QStringLiteral("name")).toString();
            if (name.isEmpty() || (!listTools.contains(name) && listTools.size() >= MaxListTools))
                continue;
            std::optional<ListSource> source = ListSource::fromTool(tool);
            // Lists that page by cursor or token only: an offset or page number is the client's
            // own arithmetic, not a cursor the server handed out.
            if (source && (source->paging() == ListSource::Paging::Cursor ||
                           source->paging() == ListSource::Paging::PageToken))
                listTools.insert(name, *source);
            else
                listTools.remove(name);
        }
    }

    // A page request of list: rules 3, 4, 5, 6, 7 and 8 as it goes out. Fills p's walk and page.
    void pageRequest(Pending &p, const QString &list, const std::optional<QString> &cursor,
                     const QJsonObject &otherArguments, const QString &limitArgument, qint64 t)
    {
        ListState &ls = listState(list);
        bool restarted = false;
        if (ls.refused) {
            const Refused r = *ls.refused;
            ls.refused.reset();
            const QJsonObject evidence{{QStringLiteral("list"), list},
                                       {QStringLiteral("cursor"), r.cursor},
                                       {QStringLiteral("code"), CursorErrorCode},
                                       {QStringLiteral("afterMs"), t - r.at}};
            if (!cursor) {
                restarted = true;
                add(FindingId::ClientRestartedAfterCursorError, {r.page},
                    QStringLiteral("The server refused the cursor %1 of %2 (-32602, page %3) and the client "
                                   "asked the first page again, as a refused cursor asks")
                        .arg(shown(r.cursor), oneLineSafe(list), pageNumber(r.page)),
                    evidence);
            } else if (*cursor == r.cursor) {
                add(FindingId::ClientRetriedRefusedCursor, {r.page},
                    QStringLiteral("The server refused the cursor %1 of %2 (-32602, page %3) and the client "
                                   "sent it again: it should drop the list's pages and start from the first")
                        .arg(shown(r.cursor), oneLineSafe(list), pageNumber(r.page)),
                    evidence);
            }
        }

        Walk *w = nullptr;
        if (!cursor) {
            const bool answersListChanged = answerListChanged(list);
            for (Walk &open : ls.walks) {
                if (open.open && open.seen.otherArguments == otherArguments)
                    closeWalk(ls, open, answersListChanged);
            }
            if (answersListChanged || restarted)
                ls.firstPageTimes.clear(); // asked for a reason: not polling
            else
                notePoll(ls, t);
            w = &newWalk(ls, otherArguments);
        } else {
            w = walkFor(ls, *cursor, otherArguments);
            if (!w)
                w = &newWalk(ls, otherArguments); // the tap began in the middle of a walk
            if (w->answered.contains(*cursor)) {
                if (w->repeats++ == 0) {
                    w->repeatCursor = *cursor;
                    w->repeatPage = w->pagesAsked;
                }
            }
            if (!w->sent.contains(*cursor) && w->sent.size() < MaxCursorsPerWalk)
                w->sent.insert(*cursor, w->pagesAsked);
            if (list.startsWith(QLatin1String("tool:")) && !w->argumentsChanged && w->pagesAsked > 0) {
                const QStringList keys = changedKeys(w->lastOtherArguments, otherArguments, limitArgument);
                if (!keys.isEmpty()) {
                    w->argumentsChanged = true;
                    add(FindingId::ClientChangedArguments, {w->pagesAsked},
                        QStringLiteral(
                            "The client followed a cursor of %1 on page %2 with other arguments than "
                            "page %3's (%4): a list tool's cursor continues the list its arguments "
                            "chose (ADR-032: \"the same other arguments\")")
                            .arg(oneLineSafe(list), pageNumber(w->pagesAsked), pageNumber(w->pagesAsked - 1),
                                 oneLineSafe(keys.join(QStringLiteral(", ")))),
                        {{QStringLiteral("list"), list},
                         {QStringLiteral("cursor"), *cursor},
                         {QStringLiteral("changed"), QJsonArray::fromStringList(keys)},
                         {QStringLiteral("before"), w->lastOtherArguments},
                         {QStringLiteral("after"), otherArguments}});
                }
            }
        }

        // Rule 7: the same page asked again while an earlier walk's answer is fresh.
        QJsonObject keyed = otherArguments;
        keyed.remove(limitArgument);
        p.freshKey = (cursor ? QStringLiteral("c") + *cursor : QStringLiteral("f")) + QChar(0x1f) +
                     QString::fromUtf8(QJsonDocument(keyed).toJson(QJsonDocument::Compact));
        const auto fresh = ls.fresh.constFind(p.freshKey);
        if (fresh != ls.fresh.constEnd() && fresh->walk != w->serial && t < fresh->expiresAt &&
            !ls.refetchReported.contains(p.freshKey) && ls.refetchReported.size() < MaxFreshPagesPerList) {
            ls.refetchReported.insert(p.freshKey);
            add(FindingId::ClientRefetchedFreshPage, {w->pagesAsked},
                QStringLiteral(
                    "The client asked %1 again %2 ms after its answer, whose ttlMs of %3 had not run "
                    "out: a wasted request")
                    .arg(cursor ? QStringLiteral("the page of cursor %1 of %2")
                                      .arg(shown(cursor), oneLineSafe(list))
                                : QStringLiteral("the first page of %1").arg(oneLineSafe(list)),
                         QString::number(t - fresh->answeredAt), QString::number(fresh->ttlMs)),
                {{QStringLiteral("list"), list},
                 {QStringLiteral("cursor"), cursorJson(cursor)},
                 {QStringLiteral("ttlMs"), fresh->ttlMs},
                 {QStringLiteral("ageMs"), t - fresh->answeredAt}});
        }

        p.list = list;
        p.walk = w->serial;
        p.page = w->pagesAsked;
        p.cursor = cursor;
        if (w->pagesAsked < MaxPagesPerWalk) {
            PageSeen seen;
            seen.requestedAtMs = t;
            seen.cursor = cursor ? QJsonValue(*cursor) : QJsonValue(QJsonValue::Undefined);
            w->seen.pages.append(seen);
        }
        w->lastRequest = w->pagesAsked;
        w->lastRequestCursor = cursor;
        w->lastOutcome = Walk::Outcome::Pending;
        w->lastErrorCode = 0;
        w->lastOtherArguments = otherArguments;
        ++w->pagesAsked;
    }

    void clientRequest(const QString &method, const QJsonValue &id, const QJsonObject &params, qint64 t)
    {
        const std::optional<QString> key = idKey(id);
        if (!key)
            return;
        noteMeta(method, params);

        Pending p;
        p.seq = ++requestSeq;
        p.method = method;
        const std::optional<ListKind> kind = [&]() -> std::optional<ListKind> {
            for (ListKind k :
                 {ListKind::Tools, ListKind::Prompts, ListKind::Resources, ListKind::ResourceTemplates}) {
                if (listMethod(k) == method)
                    return k;
            }
            return std::nullopt;
        }();
        if (kind || method == TasksList) {
            const QJsonValue c = params.value(QStringLiteral("cursor"));
            std::optional<QString> cursor;
            if (c.isString())
                cursor = c.toString();
            else if (c.isDouble())
                cursor = QString::number(c.toDouble(), 'g', 17);
            pageRequest(p, method, cursor, {}, {}, t);
        } else if (method == QLatin1String("tools/call")) {
            const QString name = params.value(QStringLiteral("name")).toString();
            const auto tool = listTools.constFind(name);
            if (tool != listTools.constEnd()) {
                QJsonObject arguments = params.value(QStringLiteral("arguments")).toObject();
                arguments.remove(QStringLiteral("_meta"));
                const QString argument = tool->cursorArgument();
                const QJsonValue c = arguments.value(argument);
                arguments.remove(argument);
                std::optional<QString> cursor;
                if (c.isString() &&
                    !(c.toString().isEmpty() && tool->paging() == ListSource::Paging::PageToken))
                    cursor = c.toString(); // an empty page token asks the first page (AIP-158)
                else if (c.isDouble())
                    cursor = QString::number(c.toDouble(), 'g', 17);
                pageRequest(p, QStringLiteral("tool:") + name, cursor, arguments, tool->limitArgument(), t);
            }
        } else if (method != QLatin1String("initialize")) {
            return; // nothing waits for this answer
        }

        if (pending.size() >= MaxPendingRequests) {
            // The client does not wait for these any more, or never will: forget the oldest half.
            const quint64 keepFrom = requestSeq - MaxPendingRequests / 2;
            for (auto it = pending.begin(); it != pending.end();)
                it = it->seq < keepFrom ? pending.erase(it) : std::next(it);
        }
        pending.insert(*key, p);
    }

    void serverResponse(const QJsonObject &message, qint64 t)
    {
        const std::optional<QString> key = idKey(message.value(QStringLiteral("id")));
        if (!key)
            return;
        const auto found = pending.find(*key);
        if (found == pending.end())
            return;
        const Pending p = *found;
        pending.erase(found);

        const bool isError = message.contains(QStringLiteral("error"));
        const QJsonObject result = message.value(QStringLiteral("result")).toObject();
        if (!isError && p.method == QLatin1String("initialize")) {
            const QJsonValue version = result.value(QStringLiteral("protocolVersion"));
            if (version.isString())
                revision = version.toString();
        }
        if (!isError && p.method == QLatin1String("tools/list"))
            learnTools(result);
        if (p.list.isEmpty())
            return;

        ListState &ls = listState(p.list);
        Walk *w = walkOf(ls, p.walk);
        PageSeen *seen = w && p.page < w->seen.pages.size() ? &w->seen.pages[p.page] : nullptr;
        if (seen)
            seen->answeredAtMs = t;

        if (isError) {
            const int code =
                message.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt();
            if (seen)
                seen->errorCode = code;
            if (w && p.page == w->lastRequest) {
                w->lastOutcome = Walk::Outcome::Failed;
                w->lastErrorCode = code;
            }
            if (code == CursorErrorCode && p.cursor) {
                ls.refused = Refused{*p.cursor, p.page, t};
                ls.fresh.clear(); // a refused cursor: the list's pages are all stale
            }
            return;
        }

        // The page, read as Folio reads its own (ListSource::readPage), items counted, not kept.
        ListSource::Page page;
        std::optional<QString> next;
        if (p.list.startsWith(QLatin1String("tool:"))) {
            const auto tool = listTools.constFind(p.list.mid(5));
            if (tool == listTools.constEnd())
                return;
            page = tool->readPage(result);
            next = tool->nextRequest(page, p.cursor);
        } else {
            std::optional<ListKind> kind;
            for (ListKind k :
                 {ListKind::Tools, ListKind::Prompts, ListKind::Resources, ListKind::ResourceTemplates}) {
                if (listMethod(k) == p.list)
                    kind = k;
            }
            if (kind) {
                page = ListSource::protocol(*kind).readPage(result);
            } else { // tasks/list: not one of ListSource's, read the same way
                page.items = result.value(QStringLiteral("tasks")).toArray();
                page.next = NextCursor::of(result.value(QStringLiteral("nextCursor")),
                                           result.contains(QStringLiteral("nextCursor")));
                page.hints = CacheHints::of(result);
            }
            next = page.next.cursor();
        }
        const int items = page.itemCount();

        if (page.toolError) {
            if (w && p.page == w->lastRequest) {
                w->lastOutcome = Walk::Outcome::Failed;
                w->lastErrorCode = 0;
            }
            return;
        }
        if (seen) {
            seen->items = items;
            seen->nextCursor = nextJson(page.next);
            seen->ttlMs =
                page.hints.hasTtl ? detachedJson(page.hints.ttlMs) : QJsonValue(QJsonValue::Undefined);
            seen->cacheScope = page.hints.cacheScope.toString();
        }
        if (w) {
            if (p.page > w->lastOk) {
                w->lastOk = p.page;
                w->lastOkNext = next;
            }
            if (p.cursor && w->answered.size() < MaxCursorsPerWalk)
                w->answered.insert(*p.cursor);
            if (p.page == w->lastRequest)
                w->lastOutcome = Walk::Outcome::Ok;
        }
        const QJsonValue ttl = page.hints.ttlMs;
        if (ttl.isDouble() && ttl.toDouble() >= 1) {
            if (ls.fresh.size() >= MaxFreshPagesPerList && !ls.fresh.contains(p.freshKey)) {
                for (auto it = ls.fresh.begin(); it != ls.fresh.end();)
                    it = it->expiresAt <= t ? ls.fresh.erase(it) : std::next(it);
                if (ls.fresh.size() >= MaxFreshPagesPerList)
                    ls.fresh.clear();
            }
            const qint64 ttlMs = qint64(std::min(ttl.toDouble(), 1e15));
            ls.fresh.insert(p.freshKey, Fresh{t + ttlMs, t, ttlMs, p.walk});
        }
    }
};

ClientJudge::ClientJudge(const Options &options)
    : d(std::make_unique<State>())
{
    d->options = options;
}

ClientJudge::ClientJudge()
    : ClientJudge(Options{})
{}

ClientJudge::~ClientJudge() = default;

void ClientJudge::observe(From from, const QJsonObject &message, qint64 t)
{
    if (d->finished)
        return;
    d->expireListChanged(t); // deadlines that passed before this message
    const QJsonValue method = message.value(QStringLiteral("method"));
    const bool hasId = message.contains(QStringLiteral("id"));
    if (method.isString()) {
        if (from == From::Client && hasId)
            d->clientRequest(method.toString(), message.value(QStringLiteral("id")),
                             message.value(QStringLiteral("params")).toObject(), t);
        else if (from == From::Server && !hasId)
            d->serverNotification(method.toString(), t);
        return;
    }
    if (from == From::Server && hasId &&
        (message.contains(QStringLiteral("result")) || message.contains(QStringLiteral("error"))))
        d->serverResponse(message, t);
}

void ClientJudge::finish(qint64 t)
{
    if (d->finished)
        return;
    // A list_changed is judged only when the session outlived its grace: otherwise it cannot be told.
    d->expireListChanged(t);
    d->listChanged.clear();
    for (const QString &name : std::as_const(d->listOrder)) {
        State::ListState &ls = d->lists[name];
        for (State::Walk &w : ls.walks)
            d->closeWalk(ls, w);
        if (ls.refused) {
            const State::Refused r = *ls.refused;
            ls.refused.reset();
            d->add(FindingId::ClientGaveUpAfterCursorError, {r.page},
                   QStringLiteral(
                       "The server refused the cursor %1 of %2 (-32602, page %3) and the client never "
                       "asked the list again: it kept part of the list, and should have started again "
                       "from the first page")
                       .arg(shown(r.cursor), oneLineSafe(name), pageNumber(r.page)),
                   {{QStringLiteral("list"), name},
                    {QStringLiteral("cursor"), r.cursor},
                    {QStringLiteral("code"), CursorErrorCode}});
        }
    }
    d->pending.clear();
    d->finished = true;
}

QList<Finding> ClientJudge::findings() const
{
    return d->findings;
}

QList<ClientJudge::WalkSeen> ClientJudge::walks() const
{
    QList<WalkSeen> out;
    for (const QString &name : std::as_const(d->listOrder)) {
        const auto ls = d->lists.constFind(name);
        for (const State::Walk &w : ls->walks)
            out.append(w.seen);
    }
    return out;
}

QString ClientJudge::revision() const
{
    return d->revision;
}

} // namespace folio
