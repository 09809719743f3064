#include "auditor.h"
#include "counted.h"
#include "definitionlint.h"

#include "mcpclient.h"
#include "pagewalker.h"
#include "rowstore.h"
#include "rpccall.h"
#include "schemaargs.h"
#include "toolcatalog.h"
#include "ttlclock.h"

#include <QTimer>

#include <algorithm>

namespace folio {

using AuditProbes::ProbeAnswer;

namespace {

// The definitions lint of a protocol list walked to its end, and its context cost: its items as
// the walk stored them (parsed already for tools/list, whose definitions the audit keeps), their
// sizes as received.
void lintRows(ListKind kind, const RowStore &rows, const QList<QJsonObject> *parsed, AuditedList *report)
{
    QList<QJsonObject> items;
    QList<qint64> bytes;
    items.reserve(rows.rowCount());
    bytes.reserve(rows.rowCount());
    for (int row = 0; row < rows.rowCount(); ++row) {
        bytes.append(rows.itemText(row).size());
        if (!parsed)
            items.append(rows.item(row));
    }
    const QList<QJsonObject> &definitions = parsed ? *parsed : items;
    report->findings += DefinitionLint::lint(kind, definitions, bytes);
    report->contextTokens = DefinitionLint::listCost(definitions, bytes);
    const QList<DefinitionLint::ItemCost> costs = DefinitionLint::itemCosts(kind, definitions, bytes);
    for (int i = 0; i < qMin<qsizetype>(5, costs.size()); ++i)
        report->costliest.append(QJsonObject{{QStringLiteral("item"), costs.at(i).item},
                                             {QStringLiteral("tokens"), costs.at(i).tokens}});
}

} // namespace

Auditor::Auditor(McpClient *client, const AuditOptions &options, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_options(options)
    , m_clock(new TtlClock(this))
{
    m_clock->followReplay(client);
    m_options.pageCap = qMax(1, m_options.pageCap);
    m_options.recheckPages = qMax(1, m_options.recheckPages);
    m_options.walks = qMax(1, m_options.walks);
    m_options.walkPauseMs = qMax(0, m_options.walkPauseMs);
    connect(m_client, &McpClient::listChanged, this, [this](ListKind kind) {
        for (ListState &s : m_states) {
            if (s.source.kind() == ListSource::Kind::Protocol &&
                (s.source.protocolKind() == kind ||
                 (kind == ListKind::Resources && s.source.protocolKind() == ListKind::ResourceTemplates)))
                s.changed = true;
        }
    });
}

Auditor::~Auditor()
{
    if (m_call) {
        m_call->disconnect(this);
        m_call->cancel();
    }
    // A walker unschedules its pages from the TTL clock when it goes: walkers before the clock.
    qDeleteAll(findChildren<PageWalker *>(Qt::FindDirectChildrenOnly));
}

void Auditor::start()
{
    if (m_running)
        return;
    m_running = true;
    m_elapsed.start();
    m_result = {};
    m_result.server = {{QStringLiteral("name"), m_client->serverInfo().value(QStringLiteral("name"))},
                       {QStringLiteral("version"), m_client->serverInfo().value(QStringLiteral("version"))},
                       {QStringLiteral("revision"), m_client->protocolVersion()},
                       {QStringLiteral("transport"), m_client->transportName()}};
    // A list that changes under the audit is not unstable; hear of it where the server says so.
    m_client->listenForListChanges();
    plan();
    next();
}

void Auditor::cancel(const QString &reason)
{
    if (!m_running)
        return;
    m_result.aborted = reason;
    m_steps.clear();
    if (m_walker) {
        m_walker->disconnect(this);
        m_walker->cancel();
        m_walker->deleteLater();
    }
    if (m_call) {
        m_call->disconnect(this);
        m_call->cancel();
    }
    finish();
}

void Auditor::next()
{
    if (!m_running)
        return;
    if (m_steps.isEmpty()) {
        finish();
        return;
    }
    const Step step = m_steps.takeFirst();
    // Always on a fresh turn of the event loop: steps never nest inside a reply handler.
    QTimer::singleShot(0, this, step);
}

bool Auditor::wanted(const QString &id) const
{
    return m_options.lists.isEmpty() || m_options.lists.contains(id);
}

int Auditor::addReport(const QString &id, const QString &skipped)
{
    AuditedList l;
    l.id = id;
    l.skipped = skipped;
    m_result.lists.append(l);
    const int index = int(m_result.lists.size()) - 1;
    if (!skipped.isEmpty())
        Q_EMIT listAudited(index);
    return index;
}

void Auditor::plan()
{
    if (m_client->isModern() && m_options.lists.isEmpty())
        judgeDiscover();

    const QJsonObject caps = m_client->capabilities();
    bool needTools = false;
    for (const QString &id : m_options.lists)
        needTools = needTools || id.startsWith(ToolListPrefix);
    for (ListKind kind :
         {ListKind::Tools, ListKind::Prompts, ListKind::Resources, ListKind::ResourceTemplates}) {
        const QString id = listName(kind);
        const QString capability = kind == ListKind::ResourceTemplates ? QStringLiteral("resources") : id;
        const bool advertised = caps.contains(capability);
        if (!wanted(id) && !(kind == ListKind::Tools && needTools))
            continue;
        if (!advertised && m_options.lists.isEmpty()) {
            addReport(id, QStringLiteral("the server does not advertise the %1 capability").arg(capability));
            continue;
        }
        ListState s;
        s.source = ListSource::protocol(kind);
        if (wanted(id))
            s.report = addReport(id);
        m_states.append(s);
        const int state = int(m_states.size()) - 1;
        if (kind == ListKind::Tools)
            m_toolsState = state;
        m_steps.append([this, state] { walkFirst(state); });
        if (kind == ListKind::Tools)
            m_steps.append([this] { planAfterTools(); });
    }
    // The extensions' lists, after the list tools (their reports follow those).
    m_steps.append([this] { planExtensions(); });
    if (m_toolsState < 0) {
        for (const QString &id : m_options.lists) {
            if (id.startsWith(ToolListPrefix))
                addReport(id, QStringLiteral("the server does not advertise the tools capability"));
        }
    }
    // Probes and second walks run once every list has been walked, so that each list can be handed
    // cursors from the others.
    if (!m_options.probe)
        return;
    m_steps.append([this] {
        QList<Step> probes;
        for (int state = 0; state < m_states.size(); ++state) {
            if (m_states[state].report < 0)
                continue;
            probes << [this, state] { probeTampered(state); } << [this, state] { probeForeignList(state); }
                   << [this, state] { probeForeignArguments(state); }
                   << [this, state] { probeEmptyCursor(state); } << [this, state] { walkSecond(state); };
        }
        m_steps = probes + m_steps;
        next();
    });
}

void Auditor::planAfterTools()
{
    // The list tools, in tools/list order, from the first walk of tools/list.
    QStringList found;
    QList<Step> walks;
    for (ListSource source : std::as_const(m_listTools)) {
        const QJsonObject tool = source.toolDefinition();
        const QString id = source.id();
        found << id;
        if (!wanted(id))
            continue;
        if (!source.isReadOnly() && !m_options.allowedTools.contains(source.toolName())) {
            addReport(id,
                      QStringLiteral("not annotated readOnlyHint: true; the audit calls it only when named "
                                     "with --allow-tool %1")
                          .arg(source.toolName()));
            continue;
        }
        // The arguments given win; the required ones they lack are filled from the schema, except
        // the cursor (or position) and the page size, which the walk sends itself.
        const SchemaArgs arguments =
            SchemaArgs::fill(tool.value(QStringLiteral("inputSchema")).toObject(),
                             m_options.toolArguments.value(source.toolName()), source.pagingArguments());
        source.setArguments(arguments.arguments);
        ListState s;
        s.filledFromSchema = arguments.describe();
        s.source = source;
        s.report = addReport(id);
        m_result.lists[s.report].arguments = source.arguments();
        m_states.append(s);
        const int state = int(m_states.size()) - 1;
        walks << [this, state] { walkFirst(state); };
    }
    for (const QString &id : m_options.lists) {
        if (id.startsWith(ToolListPrefix) && !found.contains(id)) {
            const bool exists =
                std::any_of(m_toolDefinitions.begin(), m_toolDefinitions.end(), [&](const QJsonObject &t) {
                    return ToolListPrefix + t.value(QStringLiteral("name")).toString() == id;
                });
            if (!exists && m_toolsComplete) {
                // Asked for by name and not there: a mistake in the command, not a list to skip.
                m_result.usageError = QStringLiteral("the server has no tool named '%1' (--list %2)")
                                          .arg(id.mid(ToolListPrefix.size()), id);
                m_result.aborted = m_result.usageError;
                m_steps.clear();
                next();
                return;
            }
            addReport(id, exists
                              ? QStringLiteral("not a list tool: its inputSchema has no cursor-like string "
                                               "argument and no offset or page position")
                              : QStringLiteral("the server lists no such tool"));
        }
    }
    m_steps = walks + m_steps;
    next();
}

void Auditor::planExtensions()
{
    // The extensions' lists (skills/list, a 2025 tasks/list) are lists like the others: walked, and
    // probed with forged cursors. One the server does not offer is said only when asked for by name.
    QList<Step> walks;
    for (const QString &name : ListSource::extensionNames()) {
        const std::optional<ListSource> source = ListSource::extension(name);
        if (!source || !wanted(source->id()))
            continue;
        if (const QString why = source->unavailableOn(m_client); !why.isEmpty()) {
            if (m_options.lists.contains(source->id()))
                addReport(source->id(), why);
            continue;
        }
        ListState s;
        s.source = *source;
        s.report = addReport(source->id());
        m_states.append(s);
        const int state = int(m_states.size()) - 1;
        walks << [this, state] { walkFirst(state); };
    }
    m_steps = walks + m_steps;
    next();
}

void Auditor::walkFirst(int state)
{
    Q_EMIT progress(QStringLiteral("%1: walking").arg(m_states[state].source.id()));
    runWalk(state, m_states[state].source, m_options.pageCap, [this, state](PageWalker *walker) {
        recordFirstWalk(state, walker);
        next();
    });
}

void Auditor::recordFirstWalk(int state, PageWalker *walker)
{
    ListState &s = m_states[state];
    s.first = AuditedWalk::record(*walker);
    if (state == m_toolsState) {
        m_toolDefinitions = ToolCatalog::toolsIn(*walker->rows());
        m_listTools = ToolCatalog::listToolsIn(*walker->rows());
        m_toolsComplete = walker->isComplete(); // a tool not listed is known to be missing only then
    }
    if (s.report < 0)
        return;

    AuditedList &r = report(state);
    const QList<PageRecord> &pages = s.first.pages;
    // A list tool that fails on its first page, without a cursor, without arguments from the user or
    // with some filled from its schema, wants (other) arguments: that says nothing about its paging.
    const QString &filled = s.filledFromSchema;
    const bool chosen = m_options.toolArguments.contains(s.source.toolName()) && filled.isEmpty();
    if (pages.size() == 1 && WalkJudge::refusedForArguments(s.source, pages.first(), chosen)) {
        const McpError &e = pages.first().error;
        r.skipped = filled.isEmpty()
                        ? QStringLiteral("its first page failed without arguments (%1); give them with "
                                         "--tool-args %2=JSON")
                              .arg(shortText(e.message, 160), s.source.toolName())
                        : QStringLiteral("its first page failed (%1) with arguments filled from its "
                                         "schema: %2; give them with --tool-args %3=JSON")
                              .arg(shortText(e.message, 160), filled, s.source.toolName());
        return;
    }
    // A protocol list whose first request is -32601 (method not found) is not the server's: not
    // audited, as a list whose capability is not advertised (folio list says the same).
    if (s.source.kind() == ListSource::Kind::Protocol && pages.size() == 1 &&
        pages.first().error.kind == McpError::Kind::Rpc && pages.first().error.code == -32601) {
        r.skipped = QStringLiteral("the server does not offer %1: %2 answered -32601 (method not found)")
                        .arg(s.source.displayName(), listMethod(s.source.protocolKind()));
        return;
    }
    s.walked = true;
    if (!filled.isEmpty())
        r.notes.append(QStringLiteral("arguments filled from the schema: %1").arg(filled));
    r.pages = int(pages.size());
    r.items = s.first.items;
    r.complete = s.first.complete;
    r.stopReason = s.first.complete ? QString() : s.first.stopReason;
    r.findings += s.first.findings;
    // What the definitions say, read from the walk (no request): only a list walked to its end, so
    // that a collision or the list's cost is judged on the whole list.
    if (s.source.kind() == ListSource::Kind::Protocol && s.first.complete)
        lintRows(s.source.protocolKind(), *walker->rows(),
                 state == m_toolsState ? &m_toolDefinitions : nullptr, &r);
    Q_EMIT listWalked(r.id, walker);
}

bool Auditor::probeable(int state) const
{
    const ListState &s = m_states.at(state);
    return s.report >= 0 && s.walked && !s.first.pages.isEmpty() && !s.first.pages.first().error.isError();
}

void Auditor::note(int state, const QString &text)
{
    report(state).notes.append(text);
}

void Auditor::probeTampered(int state)
{
    if (!probeable(state)) {
        next();
        return;
    }
    const ListState &s = m_states.at(state);
    if (s.first.issuedCursors.isEmpty() && s.source.pagesByPosition()) {
        note(state, QStringLiteral("cursor probes: the list pages by %1 (%2), a position the client "
                                   "works out; no cursor to tamper with or hand to other lists")
                        .arg(s.source.paging() == ListSource::Paging::Offset ? QStringLiteral("offset")
                                                                             : QStringLiteral("page number"),
                             s.source.cursorArgument()));
        next();
        return;
    }
    if (s.first.issuedCursors.isEmpty()) {
        // Nothing issued to tamper with, yet a cursor the server never issued is as invalid: forge one.
        const bool onlyEmpty = s.first.issuedEmpty;
        note(state, QStringLiteral("cursor probes: %1, so a forged cursor stands in for a tampered one; no "
                                   "cursor of its own to hand to other lists")
                        .arg(onlyEmpty ? QStringLiteral("the list issued only \"\" cursors")
                                       : QStringLiteral("the list fits one page (no cursor issued)")));
        const QString forged = AuditProbes::forgedCursor();
        Q_EMIT progress(QStringLiteral("%1: probing with a forged cursor").arg(s.source.id()));
        runProbe(state, s.source, forged, [this, state, forged, onlyEmpty](const ProbeAnswer &a) {
            if (a.kind == ProbeAnswer::Kind::Page)
                m_states[state].tamperedAccepted = true;
            report(state).add(AuditProbes::judgeForged(a, forged, onlyEmpty));
            next();
        });
        return;
    }
    const QString original = s.first.issuedCursors.constFirst();
    const int page = s.first.issuedOnPage.constFirst() + 1; // the page that sent it in the walk
    const QString tampered = AuditProbes::tamper(original);
    Q_EMIT progress(QStringLiteral("%1: probing with a tampered cursor").arg(s.source.id()));
    runProbe(state, s.source, tampered, [this, state, original, tampered, page](const ProbeAnswer &a) {
        if (a.kind == ProbeAnswer::Kind::Page)
            m_states[state].tamperedAccepted = true;
        report(state).add(AuditProbes::judgeTampered(a, original, tampered, page));
        next();
    });
}

void Auditor::probeForeignList(int state)
{
    if (!probeable(state) || m_states[state].first.issuedCursors.isEmpty()) {
        next();
        return;
    }
    const ListState &s = m_states.at(state);
    if (s.tamperedAccepted) {
        note(state, QStringLiteral("foreign-cursor probes skipped: the list accepts any cursor (see "
                                   "invalid-cursor-accepted)"));
        next();
        return;
    }
    // A cursor another list issued (a list of the same kind first) that this list never issued itself.
    int donor = -1;
    QString cursor;
    for (int pass = 0; pass < 2 && donor < 0; ++pass) {
        for (int other = 0; other < m_states.size() && donor < 0; ++other) {
            const ListState &o = m_states.at(other);
            if (other == state || (pass == 0 && o.source.kind() != s.source.kind()))
                continue;
            for (const QString &c : o.first.issuedCursors) {
                if (!s.first.issuedCursors.contains(c)) {
                    donor = other;
                    cursor = c;
                    break;
                }
            }
        }
    }
    if (donor < 0) {
        note(state, QStringLiteral("cursor-from-another-list probe not run: no other list issued a cursor"));
        next();
        return;
    }
    const QString from = m_states.at(donor).source.id();
    Q_EMIT progress(QStringLiteral("%1: probing with a cursor from %2").arg(s.source.id(), from));
    runProbe(state, s.source, cursor, [this, state, from, cursor](const ProbeAnswer &a) {
        report(state).add(AuditProbes::judgeForeignList(a, from, cursor));
        next();
    });
}

void Auditor::probeForeignArguments(int state)
{
    if (!probeable(state) || m_states[state].first.issuedCursors.isEmpty() ||
        m_states[state].tamperedAccepted || m_states[state].source.kind() != ListSource::Kind::Tool) {
        next();
        return;
    }
    const QList<QJsonObject> candidates = AuditProbes::otherArguments(m_states[state].source);
    if (candidates.isEmpty()) {
        note(state,
             QStringLiteral("cursor-with-other-arguments probe not run: the tool has no string argument "
                            "to change"));
        next();
        return;
    }
    probeWithArguments(state, candidates);
}

void Auditor::probeWithArguments(int state, QList<QJsonObject> candidates)
{
    const ListState &s = m_states.at(state);
    const QJsonObject other = candidates.takeFirst();
    ListSource changed = s.source;
    changed.setArguments(other);
    const QString cursor = s.first.issuedCursors.constFirst();
    const int page = s.first.issuedOnPage.constFirst() + 1;
    Q_EMIT progress(QStringLiteral("%1: probing its cursor with other arguments").arg(s.source.id()));
    runProbe(state, changed, cursor, [this, state, other, cursor, page, candidates](const ProbeAnswer &a) {
        if (a.isRefusal() && !candidates.isEmpty()) {
            probeWithArguments(state, candidates); // refused: try the other kind of change
            return;
        }
        report(state).add(
            AuditProbes::judgeOtherArguments(a, cursor, m_states[state].source.arguments(), other, page));
        next();
    });
}

void Auditor::probeEmptyCursor(int state)
{
    if (!probeable(state) || !m_states[state].first.issuedEmpty || m_states[state].first.sentEmpty) {
        next();
        return;
    }
    // The server issued "" but the walk never sent it back (it stopped first): send it once.
    const ListState &s = m_states.at(state);
    int page = 0;
    for (const PageRecord &p : s.first.pages) {
        if (p.next.isString() && p.next.text.isEmpty()) {
            page = p.index;
            break;
        }
    }
    Q_EMIT progress(QStringLiteral("%1: sending back the \"\" cursor it issued").arg(s.source.id()));
    runProbe(state, s.source, QString(), [this, state, page](const ProbeAnswer &a) {
        report(state).add(AuditProbes::judgeEmptyCursor(a, page));
        next();
    });
}

void Auditor::walkSecond(int state)
{
    if (!probeable(state) || m_options.walks < 2) {
        if (m_states[state].report >= 0)
            finishList(state);
        next();
        return;
    }
    pauseThen(m_options.walkPauseMs, [this, state] { walkAgain(state, 2); });
}

// Walk number walk (2, 3, ...) of the list, compared with the first; then, after the pause, the
// next, until AuditOptions::walks.
void Auditor::walkAgain(int state, int walk)
{
    const ListState &s = m_states.at(state);
    const int cap = qMin(int(s.first.pages.size()), m_options.recheckPages);
    Q_EMIT progress(QStringLiteral("%1: walking again (walk %2 of %3, %4) to compare")
                        .arg(s.source.id(), QString::number(walk), QString::number(m_options.walks),
                             counted(cap, "page", "pages")));
    runWalk(state, s.source, cap, [this, state, cap, walk](PageWalker *walker) {
        compareWalks(state, AuditedWalk::record(*walker), cap, walk);
        if (walk < m_options.walks && !m_states.at(state).changed) {
            pauseThen(m_options.walkPauseMs, [this, state, walk] { walkAgain(state, walk + 1); });
            return;
        }
        finishList(state);
        next();
    });
}

// Waits ms, then runs then (not once the audit was cancelled). A pause is the audit at work, not a
// server gone quiet: activity() every 200 ms keeps a command line's watchdog from firing.
void Auditor::pauseThen(int ms, const std::function<void()> &then)
{
    if (!m_running)
        return;
    if (ms <= 0) {
        then();
        return;
    }
    const int step = qMin(ms, 200);
    QTimer::singleShot(step, this, [this, ms, step, then] {
        Q_EMIT activity();
        pauseThen(ms - step, then);
    });
}

void Auditor::compareWalks(int state, const AuditedWalk &other, int cap, int walk)
{
    AuditedList &r = report(state);
    r.findings += AuditedWalk::newHintFindings(r.findings, other);
    if (m_states.at(state).changed) {
        note(state, QStringLiteral("unstable-order and the like not judged: the server said the list changed "
                                   "during the audit"));
        return;
    }
    // One finding per kind, the first difference found: a later walk adds only the kinds the
    // earlier ones did not show.
    const AuditedWalk &first = m_states.at(state).first;
    for (CheckOutcome outcome :
         {AuditedWalk::compareOrder(first, other, cap), AuditedWalk::compareHints(first, other, cap),
          AuditedWalk::compareCursors(first, other, cap)}) {
        if (outcome.finding) {
            const QString id = outcome.finding->id;
            if (std::any_of(r.findings.begin(), r.findings.end(),
                            [&id](const Finding &f) { return f.id == id; }))
                continue;
            outcome.finding->evidence.insert(QStringLiteral("walk"), walk);
        } else if (!outcome.note.isEmpty() && r.notes.contains(outcome.note)) {
            continue;
        }
        r.add(outcome);
    }
}

void Auditor::finishList(int state)
{
    if (m_states[state].report < 0)
        return;
    Q_EMIT listAudited(m_states[state].report);
}

void Auditor::judgeDiscover()
{
    const QJsonObject result = m_client->handshakeResult();
    AuditedList l;
    l.id = QStringLiteral("server/discover");
    l.complete = true;
    l.pages = 1;
    auto add = [&l](const QString &id, const QString &message, const QJsonObject &evidence) {
        l.findings.append(auditFinding(id, {}, message, evidence));
    };
    const bool hasTtl = result.contains(QStringLiteral("ttlMs"));
    const bool hasScope = result.contains(QStringLiteral("cacheScope"));
    const QJsonValue ttl = result.value(QStringLiteral("ttlMs"));
    const QJsonValue scope = result.value(QStringLiteral("cacheScope"));
    if (!hasTtl || !hasScope)
        add(FindingId::CacheHintsMissing,
            QStringLiteral("The server/discover result has no %1 (MUST under 2026-07-28)")
                .arg(!hasTtl && !hasScope ? QStringLiteral("ttlMs or cacheScope")
                     : !hasTtl            ? QStringLiteral("ttlMs")
                                          : QStringLiteral("cacheScope")),
            {{QStringLiteral("ttlMsPresent"), hasTtl}, {QStringLiteral("cacheScopePresent"), hasScope}});
    if (hasTtl && !TtlClock::isValidTtl(ttl))
        add(FindingId::TtlInvalid,
            QStringLiteral("ttlMs on server/discover is %1: it must be an integer ≥ 0")
                .arg(PageRecord::describeValue(true, ttl)),
            {{QStringLiteral("ttlMs"), ttl}});
    if (hasScope && PageRecord::judgeScope(true, scope) == PageRecord::Scope::Invalid)
        add(FindingId::ScopeInvalid,
            QStringLiteral("cacheScope on server/discover is %1: it must be \"public\" or \"private\"")
                .arg(PageRecord::describeValue(true, scope)),
            {{QStringLiteral("cacheScope"), scope}});
    m_result.lists.append(l);
    Q_EMIT listAudited(int(m_result.lists.size()) - 1);
}

void Auditor::finish()
{
    if (!m_running)
        return;
    m_running = false;
    m_result.elapsedMs = m_elapsed.elapsed();
    if (!m_result.aborted.isEmpty()) {
        for (AuditedList &l : m_result.lists) {
            if (l.isAudited())
                l.notes.append(QStringLiteral("the audit was aborted: %1").arg(m_result.aborted));
        }
    }
    Q_EMIT finished();
}

void Auditor::runWalk(int state, const ListSource &source, int cap, std::function<void(PageWalker *)> done)
{
    auto *walker = new PageWalker(m_client, source, m_clock, this);
    m_walker = walker;
    walker->setPageCap(cap);
    QElapsedTimer timer;
    timer.start();
    connect(walker, &PageWalker::pageAccepted, this, [this, walker](int row) {
        Q_EMIT activity();
        Q_EMIT progress(
            QStringLiteral("%1: page %2")
                .arg(walker->source().id(), QString::number(walker->ledger()->page(row).index + 1)));
    });
    connect(walker, &PageWalker::pageFailed, this, &Auditor::activity);
    connect(
        walker, &PageWalker::walkFinished, this,
        [this, state, walker, timer, done] {
            if (m_walker != walker || walker->isLoading() || !(walker->isComplete() || walker->isStopped()))
                return;
            m_walker = nullptr;
            walker->disconnect(this);
            if (m_states[state].report >= 0) {
                report(state).requests += walker->ledger()->rowCount();
                report(state).elapsedMs += timer.elapsed();
            }
            done(walker);
            walker->deleteLater();
        },
        Qt::QueuedConnection);
    walker->fetchAll();
}

void Auditor::runProbe(int state, const ListSource &source, const std::optional<QString> &cursor,
                       std::function<void(const ProbeAnswer &)> done)
{
    RpcCall *call = source.requestPage(m_client, cursor, this);
    m_call = call;
    connect(call, &RpcCall::finished, this, [this, state, source, call, done] {
        m_call = nullptr;
        call->deleteLater();
        Q_EMIT activity();
        const ProbeAnswer a = ProbeAnswer::read(source, *call);
        if (m_states[state].report >= 0) {
            report(state).requests += 1;
            report(state).elapsedMs += qMax<qint64>(0, call->latencyMs());
        }
        // A later turn: the caller may start the next request from done().
        QTimer::singleShot(0, this, [done, a] { done(a); });
    });
}

} // namespace folio
