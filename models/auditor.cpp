#include "auditor.h"

#include "mcpclient.h"
#include "pagewalker.h"
#include "rpccall.h"
#include "ttlclock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

namespace folio {

namespace {

constexpr int maxEvidenceIdentities = 10;

const QString toolPrefix = QStringLiteral("tool:");

QJsonArray firstOf(const QStringList &list, int count = maxEvidenceIdentities)
{
    return QJsonArray::fromStringList(list.mid(0, count));
}

QString tamper(const QString &cursor)
{
    QString reversed = cursor;
    std::reverse(reversed.begin(), reversed.end());
    if (reversed == cursor)
        reversed += QStringLiteral("x");
    return reversed + QStringLiteral("!");
}

QString shortText(const QString &text, int width = 60)
{
    return text.size() <= width ? text : text.left(width - 1) + QChar(0x2026);
}

QString itemIdentity(const QJsonObject &item)
{
    const QString id = ListSource::identity(item);
    return id.isEmpty() ? QString::fromUtf8(QJsonDocument(item).toJson(QJsonDocument::Compact)) : id;
}

// Arguments that differ from the walk's in one string property, for the "cursor with other
// arguments" probe: first a filter the walk left out, then a changed value of one it used (a server
// may refuse either for its own reasons, e.g. an unknown channel, so both are worth a try).
QList<QJsonObject> otherArguments(const ListSource &source)
{
    const QJsonObject schema = source.toolDefinition().value(QStringLiteral("inputSchema")).toObject();
    const QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
    const QJsonObject current = source.arguments();
    std::optional<QJsonObject> added, changed;
    for (auto it = props.begin(); it != props.end(); ++it) {
        if (it.key() == source.cursorArgument() || it.key() == source.limitArgument())
            continue;
        const QJsonObject prop = it.value().toObject();
        const QJsonValue type = prop.value(QStringLiteral("type"));
        if (!type.isUndefined() && type != QJsonValue(QStringLiteral("string")))
            continue;
        const bool used = current.contains(it.key());
        if (used ? changed.has_value() : added.has_value())
            continue;
        QJsonObject args = current;
        const QJsonArray choices = prop.value(QStringLiteral("enum")).toArray();
        if (!choices.isEmpty()) {
            const auto other = std::find_if(choices.begin(), choices.end(), [&](const QJsonValue &choice) {
                return choice.isString() && choice != current.value(it.key());
            });
            if (other == choices.end())
                continue;
            args[it.key()] = *other;
        } else {
            args[it.key()] = current.value(it.key()).toString() + QStringLiteral("a");
        }
        (used ? changed : added) = args;
    }
    QList<QJsonObject> out;
    if (added)
        out << *added;
    if (changed)
        out << *changed;
    return out;
}

} // namespace

int AuditedList::count(Finding::Severity severity) const
{
    return int(std::count_if(findings.begin(), findings.end(),
                             [severity](const Finding &f) { return f.severity == severity; }));
}

QJsonObject AuditedList::toJson() const
{
    QJsonArray f;
    for (const Finding &finding : findings)
        f.append(finding.toJson());
    QJsonObject o{
        {QStringLiteral("list"), id},
        {QStringLiteral("status"), isAudited() ? QStringLiteral("audited") : QStringLiteral("skipped")},
        {QStringLiteral("findings"), f},
        {QStringLiteral("notes"), QJsonArray::fromStringList(notes)},
        {QStringLiteral("requests"), requests},
        {QStringLiteral("elapsedMs"), elapsedMs}};
    if (!isAudited()) {
        o.insert(QStringLiteral("skipped"), skipped);
        return o;
    }
    o.insert(QStringLiteral("pages"), pages);
    o.insert(QStringLiteral("items"), items);
    o.insert(QStringLiteral("complete"), complete);
    o.insert(QStringLiteral("stopReason"), stopReason.isEmpty() ? QJsonValue() : QJsonValue(stopReason));
    if (id.startsWith(toolPrefix))
        o.insert(QStringLiteral("arguments"), arguments);
    return o;
}

int AuditResult::count(Finding::Severity severity) const
{
    int n = 0;
    for (const AuditedList &l : lists)
        n += l.count(severity);
    return n;
}

int AuditResult::requests() const
{
    int n = 0;
    for (const AuditedList &l : lists)
        n += l.requests;
    return n;
}

QJsonObject AuditResult::summary() const
{
    int audited = 0, skipped = 0;
    for (const AuditedList &l : lists)
        (l.isAudited() ? audited : skipped)++;
    const int errors = count(Finding::Severity::Error);
    return {{QStringLiteral("errors"), errors},
            {QStringLiteral("warnings"), count(Finding::Severity::Warning)},
            {QStringLiteral("infos"), count(Finding::Severity::Info)},
            {QStringLiteral("listsAudited"), audited},
            {QStringLiteral("listsSkipped"), skipped},
            {QStringLiteral("requests"), requests()},
            {QStringLiteral("elapsedMs"), elapsedMs},
            {QStringLiteral("aborted"), aborted.isEmpty() ? QJsonValue() : QJsonValue(aborted)},
            {QStringLiteral("passed"), errors == 0 && aborted.isEmpty()}};
}

QJsonObject AuditResult::toJson() const
{
    QJsonArray l;
    for (const AuditedList &list : lists)
        l.append(list.toJson());
    return {{QStringLiteral("server"), server},
            {QStringLiteral("lists"), l},
            {QStringLiteral("summary"), summary()}};
}

QJsonObject Auditor::ProbeAnswer::evidence() const
{
    switch (kind) {
    case Kind::Page:
        return {{QStringLiteral("answer"), QStringLiteral("page")},
                {QStringLiteral("itemCount"), itemCount},
                {QStringLiteral("items"), firstOf(identities, 5)}};
    case Kind::RpcError:
        return {{QStringLiteral("answer"), QStringLiteral("error")},
                {QStringLiteral("code"), code},
                {QStringLiteral("message"), message}};
    case Kind::ToolError:
        return {{QStringLiteral("answer"), QStringLiteral("isError")}, {QStringLiteral("message"), message}};
    case Kind::Failed:
        break;
    }
    return {{QStringLiteral("answer"), QStringLiteral("failed")}, {QStringLiteral("message"), message}};
}

Auditor::Auditor(McpClient *client, const AuditOptions &options, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_options(options)
    , m_clock(new TtlClock(this))
{
    m_options.pageCap = qMax(1, m_options.pageCap);
    m_options.recheckPages = qMax(1, m_options.recheckPages);
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
        needTools = needTools || id.startsWith(toolPrefix);
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
    if (m_toolsState < 0) {
        for (const QString &id : m_options.lists) {
            if (id.startsWith(toolPrefix))
                addReport(id, QStringLiteral("the server does not advertise the tools capability"));
        }
    }
    // Probes and second walks run once every list has been walked, so that each list can be handed
    // cursors from the others.
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
    for (const QJsonObject &tool : std::as_const(m_toolDefinitions)) {
        std::optional<ListSource> source = ListSource::fromTool(tool);
        if (!source)
            continue;
        const QString id = source->id();
        found << id;
        if (!wanted(id))
            continue;
        if (!source->isReadOnly() && !m_options.allowedTools.contains(source->toolName())) {
            addReport(id,
                      QStringLiteral("not annotated readOnlyHint: true; the audit calls it only when named "
                                     "with --allow-tool %1")
                          .arg(source->toolName()));
            continue;
        }
        source->setArguments(m_options.toolArguments.value(source->toolName()));
        ListState s;
        s.source = *source;
        s.report = addReport(id);
        m_result.lists[s.report].arguments = source->arguments();
        m_states.append(s);
        const int state = int(m_states.size()) - 1;
        walks << [this, state] { walkFirst(state); };
    }
    for (const QString &id : m_options.lists) {
        if (id.startsWith(toolPrefix) && !found.contains(id)) {
            const bool exists =
                std::any_of(m_toolDefinitions.begin(), m_toolDefinitions.end(), [&](const QJsonObject &t) {
                    return toolPrefix + t.value(QStringLiteral("name")).toString() == id;
                });
            addReport(id, exists
                              ? QStringLiteral("not a list tool: its inputSchema has no cursor-like string "
                                               "argument")
                              : QStringLiteral("the server lists no such tool"));
        }
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

QStringList Auditor::identitiesOf(PageWalker *walker, int ledgerRow)
{
    QStringList ids;
    int first = 0, count = 0;
    if (!walker->rows()->rowsOfPage(ledgerRow, &first, &count))
        return ids;
    for (int row = first; row < first + count; ++row)
        ids.append(itemIdentity(walker->rows()->item(row)));
    return ids;
}

void Auditor::recordFirstWalk(int state, PageWalker *walker)
{
    ListState &s = m_states[state];
    const QList<int> rows = walker->walkPageRows();
    for (int row : rows) {
        const PageRecord &rec = walker->ledger()->page(row);
        s.pages.append(rec);
        s.identities.append(identitiesOf(walker, row));
        if (rec.requestCursor && rec.requestCursor->isEmpty())
            s.sentEmpty = true;
        if (rec.next == ListSource::CursorPresence::String) {
            if (rec.nextCursor.isEmpty()) {
                s.issuedEmpty = true;
            } else {
                s.issuedCursors.append(rec.nextCursor);
                s.issuedOnPage.append(rec.index);
            }
        }
    }
    if (state == m_toolsState) {
        m_toolDefinitions.clear();
        for (int row = 0; row < walker->rows()->rowCount(); ++row)
            m_toolDefinitions.append(walker->rows()->item(row));
    }
    if (s.report < 0)
        return;

    AuditedList &r = report(state);
    // A list tool that fails on its first page, without a cursor and without arguments from the user,
    // wants arguments: that says nothing about its paging.
    if (s.source.kind() == ListSource::Kind::Tool && s.pages.size() == 1 && s.pages.first().error.isError() &&
        !m_options.toolArguments.contains(s.source.toolName())) {
        const McpError &e = s.pages.first().error;
        const bool isError = e.kind == McpError::Kind::ToolError; // isError: true (no JSON-RPC code)
        if (isError || (e.kind == McpError::Kind::Rpc && e.code == -32602)) {
            r.skipped = QStringLiteral("its first page failed without arguments (%1); give them with "
                                       "--tool-args %2=JSON")
                            .arg(shortText(e.message, 160), s.source.toolName());
            return;
        }
    }
    s.walked = true;
    r.pages = int(s.pages.size());
    r.items = walker->rows()->rowCount();
    r.complete = walker->isComplete();
    r.stopReason = walker->isComplete() ? QString() : walker->stopReason();
    r.findings += walker->findings();
}

bool Auditor::probeable(int state) const
{
    const ListState &s = m_states.at(state);
    return s.report >= 0 && s.walked && !s.pages.isEmpty() && !s.pages.first().error.isError();
}

void Auditor::note(int state, const QString &text)
{
    report(state).notes.append(text);
}

void Auditor::addFinding(int state, const QString &id, QList<int> pages, const QString &message,
                         const QJsonObject &evidence)
{
    Finding f;
    f.id = id;
    f.severity = Finding::defaultSeverity(id);
    f.pages = pages;
    f.message = message;
    f.evidence = evidence;
    report(state).findings.append(f);
}

void Auditor::probeTampered(int state)
{
    if (!probeable(state)) {
        next();
        return;
    }
    ListState &s = m_states[state];
    if (s.issuedCursors.isEmpty()) {
        note(state, s.issuedEmpty
                        ? QStringLiteral("cursor probes: the list issued only \"\" cursors; nothing to "
                                         "tamper with or hand to other lists")
                        : QStringLiteral("cursor probes: the list fits one page (no cursor issued)"));
        next();
        return;
    }
    const QString original = s.issuedCursors.constFirst();
    const int page = s.issuedOnPage.constFirst() + 1; // the page that sent it in the walk
    const QString tampered = tamper(original);
    Q_EMIT progress(QStringLiteral("%1: probing with a tampered cursor").arg(s.source.id()));
    runProbe(state, s.source, tampered, [this, state, original, tampered, page](const ProbeAnswer &a) {
        QJsonObject evidence = a.evidence();
        evidence.insert(QStringLiteral("probe"), QStringLiteral("tampered-cursor"));
        evidence.insert(QStringLiteral("cursor"), tampered);
        evidence.insert(QStringLiteral("issuedCursor"), original);
        switch (a.kind) {
        case ProbeAnswer::Kind::Page:
            m_states[state].tamperedAccepted = true;
            addFinding(
                state, FindingId::InvalidCursorAccepted, {page},
                QStringLiteral("A tampered cursor (page %1's cursor reversed, with \"!\" appended) was "
                               "answered with a page of %2 item(s) instead of an error -32602")
                    .arg(page + 1)
                    .arg(a.itemCount),
                evidence);
            break;
        case ProbeAnswer::Kind::RpcError:
            if (a.code != -32602)
                addFinding(
                    state, FindingId::InvalidCursorWrongCode, {page},
                    QStringLiteral("A tampered cursor was refused with %1 (%2), not -32602 (invalid params)")
                        .arg(a.code)
                        .arg(shortText(a.message)),
                    evidence);
            break;
        case ProbeAnswer::Kind::ToolError:
            break; // a list tool refusing with isError: tool-level paging has no error code
        case ProbeAnswer::Kind::Failed:
            note(state, QStringLiteral("tampered-cursor probe inconclusive: %1").arg(a.message));
            break;
        }
        next();
    });
}

void Auditor::probeForeignList(int state)
{
    if (!probeable(state) || m_states[state].issuedCursors.isEmpty()) {
        next();
        return;
    }
    ListState &s = m_states[state];
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
            for (const QString &c : o.issuedCursors) {
                if (!s.issuedCursors.contains(c)) {
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
        if (a.kind == ProbeAnswer::Kind::Page) {
            QJsonObject evidence = a.evidence();
            evidence.insert(QStringLiteral("probe"), QStringLiteral("cursor-from-other-list"));
            evidence.insert(QStringLiteral("from"), from);
            evidence.insert(QStringLiteral("cursor"), cursor);
            addFinding(
                state, FindingId::ForeignCursorAccepted, {},
                QStringLiteral("A cursor issued by %1 was accepted: answered with a page of %2 item(s)")
                    .arg(from)
                    .arg(a.itemCount),
                evidence);
        } else if (a.kind == ProbeAnswer::Kind::Failed) {
            note(state, QStringLiteral("cursor-from-another-list probe inconclusive: %1").arg(a.message));
        }
        next();
    });
}

void Auditor::probeForeignArguments(int state)
{
    if (!probeable(state) || m_states[state].issuedCursors.isEmpty() || m_states[state].tamperedAccepted ||
        m_states[state].source.kind() != ListSource::Kind::Tool) {
        next();
        return;
    }
    const QList<QJsonObject> candidates = otherArguments(m_states[state].source);
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
    const QString cursor = s.issuedCursors.constFirst();
    const int page = s.issuedOnPage.constFirst() + 1;
    Q_EMIT progress(QStringLiteral("%1: probing its cursor with other arguments").arg(s.source.id()));
    runProbe(state, changed, cursor, [this, state, other, cursor, page, candidates](const ProbeAnswer &a) {
        if (a.kind == ProbeAnswer::Kind::Page) {
            QJsonObject evidence = a.evidence();
            evidence.insert(QStringLiteral("probe"), QStringLiteral("cursor-with-other-arguments"));
            evidence.insert(QStringLiteral("cursor"), cursor);
            evidence.insert(QStringLiteral("walkArguments"), m_states[state].source.arguments());
            evidence.insert(QStringLiteral("probeArguments"), other);
            addFinding(
                state, FindingId::ForeignCursorAccepted, {page},
                QStringLiteral("Page %1's cursor was accepted with other arguments (%2): answered with a "
                               "page of %3 item(s)")
                    .arg(page + 1)
                    .arg(QString::fromUtf8(QJsonDocument(other).toJson(QJsonDocument::Compact)))
                    .arg(a.itemCount),
                evidence);
        } else if (a.kind == ProbeAnswer::Kind::Failed) {
            note(state, QStringLiteral("cursor-with-other-arguments probe inconclusive: %1").arg(a.message));
        } else if (!candidates.isEmpty()) {
            probeWithArguments(state, candidates); // refused: try the other kind of change
            return;
        }
        next();
    });
}

void Auditor::probeEmptyCursor(int state)
{
    if (!probeable(state) || !m_states[state].issuedEmpty || m_states[state].sentEmpty) {
        next();
        return;
    }
    // The server issued "" but the walk never sent it back (it stopped first): send it once.
    ListState &s = m_states[state];
    int page = 0;
    for (const PageRecord &p : std::as_const(s.pages)) {
        if (p.next == ListSource::CursorPresence::String && p.nextCursor.isEmpty()) {
            page = p.index;
            break;
        }
    }
    Q_EMIT progress(QStringLiteral("%1: sending back the \"\" cursor it issued").arg(s.source.id()));
    runProbe(state, s.source, QString(), [this, state, page](const ProbeAnswer &a) {
        if (a.kind == ProbeAnswer::Kind::RpcError || a.kind == ProbeAnswer::Kind::ToolError) {
            QJsonObject evidence = a.evidence();
            evidence.insert(QStringLiteral("probe"), QStringLiteral("empty-cursor"));
            evidence.insert(QStringLiteral("cursor"), QString());
            addFinding(state, FindingId::EmptyCursorRejected, {page},
                       QStringLiteral("The server refused the \"\" cursor it issued on page %1: %2")
                           .arg(page + 1)
                           .arg(shortText(a.message)),
                       evidence);
        } else if (a.kind == ProbeAnswer::Kind::Failed) {
            note(state, QStringLiteral("empty-cursor probe inconclusive: %1").arg(a.message));
        }
        next();
    });
}

void Auditor::walkSecond(int state)
{
    if (!probeable(state)) {
        if (m_states[state].report >= 0)
            finishList(state);
        next();
        return;
    }
    const ListState &s = m_states.at(state);
    const int cap = qMin(int(s.pages.size()), m_options.recheckPages);
    Q_EMIT progress(QStringLiteral("%1: walking again (%2 page(s)) to compare").arg(s.source.id()).arg(cap));
    runWalk(state, s.source, cap, [this, state, cap](PageWalker *walker) {
        compareWalks(state, walker, cap);
        finishList(state);
        next();
    });
}

void Auditor::compareWalks(int state, PageWalker *walker, int cap)
{
    const ListState &s = m_states.at(state);
    AuditedList &r = report(state);
    // "Hints on every 2026 page": the second walk's pages are judged too.
    for (const Finding &f : walker->findings()) {
        static const QStringList hintIds{FindingId::CacheHintsMissing, FindingId::TtlInvalid,
                                         FindingId::ScopeInvalid, FindingId::ScopeMismatch};
        const bool known =
            std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding &g) { return g.id == f.id; });
        if (hintIds.contains(f.id) && !known) {
            Finding g = f;
            g.evidence.insert(QStringLiteral("walk"), 2);
            g.message += QStringLiteral(" (second walk)");
            r.findings.append(g);
        }
    }
    if (s.changed) {
        note(state,
             QStringLiteral("unstable-order not judged: the server said the list changed during the audit"));
        return;
    }
    const QList<int> rows = walker->walkPageRows();
    const int n = int(qMin<qsizetype>(s.pages.size(), rows.size()));
    for (int i = 0; i < n; ++i) {
        const PageRecord &second = walker->ledger()->page(rows.at(i));
        if (s.pages.at(i).error.isError() || second.error.isError()) {
            if (s.pages.at(i).error.isError() != second.error.isError())
                note(state,
                     QStringLiteral("unstable-order judged up to page %1 only: page %2 failed in one walk "
                                    "and not in the other")
                         .arg(i)
                         .arg(i + 1));
            return;
        }
        const QStringList ids = identitiesOf(walker, rows.at(i));
        if (ids != s.identities.at(i)) {
            addFinding(
                state, FindingId::UnstableOrder, {i},
                QStringLiteral("A second walk with the same arguments gave other items on page %1: first "
                               "%2, then %3")
                    .arg(i + 1)
                    .arg(shortText(s.identities.at(i).mid(0, 3).join(QStringLiteral(", "))))
                    .arg(shortText(ids.mid(0, 3).join(QStringLiteral(", ")))),
                {{QStringLiteral("probe"), QStringLiteral("second-walk")},
                 {QStringLiteral("page"), i},
                 {QStringLiteral("firstWalk"), firstOf(s.identities.at(i))},
                 {QStringLiteral("secondWalk"), firstOf(ids)}});
            return;
        }
    }
    // The end of the list must come where it came the first time.
    const bool firstEnded = r.complete && s.pages.size() <= cap;
    if (firstEnded && (!walker->isComplete() || rows.size() != s.pages.size())) {
        const bool failed = !rows.isEmpty() && walker->ledger()->page(rows.constLast()).error.isError();
        if (failed)
            return;
        addFinding(
            state, FindingId::UnstableOrder, {int(s.pages.size()) - 1},
            QStringLiteral("The first walk ended after %1 page(s); a second walk with the same arguments "
                           "did not end there")
                .arg(s.pages.size()),
            {{QStringLiteral("probe"), QStringLiteral("second-walk")},
             {QStringLiteral("firstWalkPages"), int(s.pages.size())},
             {QStringLiteral("secondWalkPages"), int(rows.size())}});
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
        Finding f;
        f.id = id;
        f.severity = Finding::defaultSeverity(id);
        f.message = message;
        f.evidence = evidence;
        l.findings.append(f);
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

void Auditor::runWalk(int state, const ListSource &source, int cap,
                      std::function<void(PageWalker *)> done)
{
    auto *walker = new PageWalker(m_client, source, m_clock, this);
    m_walker = walker;
    walker->setPageCap(cap);
    QElapsedTimer timer;
    timer.start();
    connect(walker, &PageWalker::pageAccepted, this, [this, walker](int row) {
        Q_EMIT activity();
        Q_EMIT progress(QStringLiteral("%1: page %2")
                            .arg(walker->source().id())
                            .arg(walker->ledger()->page(row).index + 1));
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
        ProbeAnswer a;
        if (call->isError()) {
            const McpError e = call->error();
            a.kind = e.kind == McpError::Kind::Rpc ? ProbeAnswer::Kind::RpcError : ProbeAnswer::Kind::Failed;
            a.code = e.code;
            a.message = e.kind == McpError::Kind::Rpc ? e.message : e.describe();
        } else {
            const ListSource::Page page = source.readPage(call->result());
            if (page.toolError) {
                a.kind = ProbeAnswer::Kind::ToolError;
                for (const QJsonValue &block : call->result().value(QStringLiteral("content")).toArray())
                    a.message += block.toObject().value(QStringLiteral("text")).toString();
            } else if (!page.extractionError.isEmpty()) {
                a.kind = ProbeAnswer::Kind::Failed;
                a.message = QStringLiteral("the answer is not a page: %1").arg(page.extractionError);
            } else {
                a.kind = ProbeAnswer::Kind::Page;
                a.itemCount = int(page.items.size());
                for (const QJsonValue &item : page.items)
                    a.identities.append(itemIdentity(item.toObject()));
            }
        }
        if (m_states[state].report >= 0) {
            report(state).requests += 1;
            report(state).elapsedMs += qMax<qint64>(0, call->latencyMs());
        }
        // A later turn: the caller may start the next request from done().
        QTimer::singleShot(0, this, [done, a] { done(a); });
    });
}

} // namespace folio
