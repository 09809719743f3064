#include "bugreport.h"

#include "mcpclient.h"
#include "pagedlistmodel.h"
#include "pageexport.h"
#include "pagewalker.h"
#include "secretmask.h"
#include "serverconfig.h"
#include "serversession.h"
#include "trafficexport.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <limits>

namespace folio::BugReport {

namespace {

const QString DemoServerName = QStringLiteral("folio-demo-server");

QJsonValue orNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

QString scopeName(PageRecord::Scope scope)
{
    switch (scope) {
    case PageRecord::Scope::Missing:
        return QStringLiteral("missing");
    case PageRecord::Scope::Public:
        return QStringLiteral("public");
    case PageRecord::Scope::Private:
        return QStringLiteral("private");
    case PageRecord::Scope::Invalid:
        return QStringLiteral("invalid");
    case PageRecord::Scope::NotApplicable:
        return QStringLiteral("not-applicable");
    }
    return {};
}

// The log's entries, found by the request id a page attempt was sent with.
class TrafficIndex
{
public:
    explicit TrafficIndex(const QVector<TrafficLog::Entry> &entries)
        : m_entries(entries)
    {
        for (qsizetype i = 0; i < entries.size(); ++i) {
            const TrafficLog::Entry &e = entries.at(i);
            if (e.id.isEmpty() || e.method.isEmpty())
                continue; // notifications, and Folio's replies to the server's requests
            if (e.direction == TrafficLog::Direction::Outgoing)
                m_requests[e.id].append(i);
            else if (e.direction == TrafficLog::Direction::Incoming)
                m_answers[e.id].append(i);
        }
    }

    // The request sent with this id last before sentAtMs (ids start again on a new connection,
    // and the log may span several), and the answer to it that followed; -1 where none is kept.
    void find(const QString &id, qint64 sentAtMs, qsizetype *request, qsizetype *response) const
    {
        *request = *response = -1;
        if (id.isEmpty())
            return;
        // The request with this id logged nearest the attempt's time: ids repeat across
        // connections, and the log stamps a message as it is written, which under load can be a
        // millisecond or more after the attempt noted it was sent.
        qint64 nearest = std::numeric_limits<qint64>::max();
        for (qsizetype i : m_requests.value(id)) {
            const qint64 distance = qAbs(m_entries.at(i).timestampMs - sentAtMs);
            if (distance < nearest) {
                nearest = distance;
                *request = i;
            }
        }
        if (*request < 0)
            return;
        const QString method = m_entries.at(*request).method;
        for (qsizetype i : m_answers.value(id)) {
            if (i > *request && m_entries.at(i).method == method) {
                *response = i;
                break;
            }
        }
    }

    const TrafficLog::Entry &at(qsizetype i) const { return m_entries.at(i); }

private:
    const QVector<TrafficLog::Entry> &m_entries;
    QHash<QString, QList<qsizetype>> m_requests;
    QHash<QString, QList<qsizetype>> m_answers;
};

QJsonValue rawJson(const TrafficIndex &index, qsizetype entry)
{
    if (entry < 0)
        return QJsonValue();
    const TrafficLog::Entry &e = index.at(entry);
    QJsonObject o = TrafficExport::entryJson(e);
    // A log that keeps no text (a headless walk that never shows it) still times and sizes the
    // message: say that its text was not kept rather than show an empty message.
    if (e.text.isEmpty() && e.bytes > 0)
        o.insert(QStringLiteral("message"), QJsonValue());
    return o;
}

struct Counts
{
    int errors = 0, warnings = 0, infos = 0;
    void add(Finding::Severity s)
    {
        (s == Finding::Severity::Error ? errors : s == Finding::Severity::Warning ? warnings : infos)++;
    }
    QJsonObject toJson() const
    {
        return {{QStringLiteral("errors"), errors},
                {QStringLiteral("warnings"), warnings},
                {QStringLiteral("infos"), infos}};
    }
};

QJsonObject serverJson(const Server &s)
{
    return {{QStringLiteral("displayName"), s.displayName},
            {QStringLiteral("name"), s.serverInfo.value(QStringLiteral("name"))},
            {QStringLiteral("title"), s.serverInfo.value(QStringLiteral("title"))},
            {QStringLiteral("version"), s.serverInfo.value(QStringLiteral("version"))},
            {QStringLiteral("transport"), orNull(s.transport)},
            {QStringLiteral("revision"), orNull(s.revision)},
            {QStringLiteral("target"), orNull(s.target)},
            {QStringLiteral("instructions"), orNull(s.instructions)},
            {QStringLiteral("demoScenario"), orNull(s.demoScenario)},
            {QStringLiteral("demoCaption"), orNull(s.demoCaption)}};
}

// Where a finding is, for the walk's and the audit's alike: its list, and the page it is shown on.
QString findingKey(const QString &list, const Finding &f)
{
    QStringList pages;
    for (int p : f.pages)
        pages << QString::number(p);
    return list + QLatin1Char('\n') + f.id + QLatin1Char('\n') + pages.join(QLatin1Char(','));
}

// Every cursor the lists sent or were given, longest first (one that contains another is masked
// whole). Short ones are left: a position such as "2" would mask every 2 in the report.
QStringList cursorsToMask(const QList<List> &lists)
{
    QSet<QString> set;
    for (const List &l : lists) {
        for (const PageRecord &p : l.pages) {
            if (p.requestCursor && p.requestCursor->size() >= 4)
                set.insert(*p.requestCursor);
            if (p.next.isString() && p.next.text.size() >= 4)
                set.insert(p.next.text);
        }
    }
    QStringList cursors(set.begin(), set.end());
    std::sort(cursors.begin(), cursors.end(), [](const QString &a, const QString &b) {
        return a.size() != b.size() ? a.size() > b.size() : a < b;
    });
    return cursors;
}

} // namespace

void Server::readDemo(const ServerConfig &config)
{
    if (serverInfo.value(QStringLiteral("name")).toString() != DemoServerName)
        return;
    if (config.startsProcess()) {
        demoScenario = QStringLiteral("tour"); // the demo server's default
        const QStringList &args = config.arguments;
        for (qsizetype i = 0; i < args.size(); ++i) {
            if (args.at(i) == QLatin1String("--scenario") && i + 1 < args.size())
                demoScenario = args.at(i + 1);
            else if (args.at(i).startsWith(QLatin1String("--scenario=")))
                demoScenario = args.at(i).mid(11);
        }
        // A scenario given as a file is named by the file.
        if (demoScenario.endsWith(QLatin1String(".json")))
            demoScenario = QFileInfo(demoScenario).completeBaseName();
    }
    // The demo's instructions lead with its scenario's caption, when it has one.
    const qsizetype newline = instructions.indexOf(QLatin1Char('\n'));
    if (newline > 0)
        demoCaption = instructions.left(newline).trimmed();
}

List List::fromWalker(const PageWalker &walker)
{
    List l;
    l.id = walker.source().id();
    l.title = walker.source().kind() == ListSource::Kind::Tool
                  ? QStringLiteral("%1 (list tool)").arg(walker.source().toolName())
                  : walker.source().displayName();
    l.arguments = walker.source().arguments();
    l.pages = walker.ledger()->pages();
    l.items = walker.rows()->rowCount();
    l.complete = walker.isComplete();
    l.stopReason = walker.stopReason();
    return l;
}

Input Input::fromSession(const ServerSession &session)
{
    const McpClient *client = session.client();
    Input input;
    input.server.displayName = session.displayName();
    input.server.serverInfo = client->serverInfo();
    input.server.transport = client->transportName();
    input.server.revision = client->protocolVersion();
    input.server.target = session.config().displayTarget();
    input.server.instructions = client->instructions();
    input.server.readDemo(session.config());
    for (const PagedListModel *model : session.openModels())
        input.lists.append(List::fromWalker(*model->walker()));
    input.traffic = client->trafficLog()->entries();
    input.redactor = client->trafficLog();
    return input;
}

QJsonObject build(const Input &input)
{
    const TrafficIndex traffic(input.traffic);
    const qint64 generatedAt =
        input.generatedAtMs > 0 ? input.generatedAtMs : QDateTime::currentMSecsSinceEpoch();

    QJsonArray lists;
    QJsonArray findings;
    QSet<QString> walkFindings;
    Counts total;
    QHash<QString, Counts> listCounts; // the walk's findings, then the audit's
    int pageCount = 0, failedPages = 0, rawMissing = 0;
    qint64 startMs = -1, endMs = -1;
    for (const List &list : input.lists) {
        Counts counts;
        QJsonArray pages;
        for (const PageRecord &p : list.pages) {
            QJsonObject o = PageExport::pageJson(p, input.maskCursors);
            o.insert(QStringLiteral("hintsExpected"), p.hintsExpected);
            o.insert(QStringLiteral("effectiveCacheScope"), scopeName(p.scope));
            QJsonArray attempts;
            for (const PageRecord::Attempt &a : p.attempts) {
                qsizetype request = -1, response = -1;
                traffic.find(a.requestId, a.sentAtMs, &request, &response);
                if (request < 0)
                    ++rawMissing;
                attempts.append(QJsonObject{
                    {QStringLiteral("sentAtMs"), a.sentAtMs},
                    {QStringLiteral("latencyMs"), a.latencyMs >= 0 ? QJsonValue(a.latencyMs) : QJsonValue()},
                    {QStringLiteral("failed"), a.failed},
                    {QStringLiteral("refetch"), a.refetch},
                    {QStringLiteral("requestId"), orNull(a.requestId)},
                    {QStringLiteral("request"), rawJson(traffic, request)},
                    {QStringLiteral("response"), rawJson(traffic, response)}});
                startMs = startMs < 0 ? a.sentAtMs : qMin(startMs, a.sentAtMs);
                endMs = qMax(endMs, a.sentAtMs + qMax<qint64>(0, a.latencyMs));
            }
            o.insert(QStringLiteral("attempts"), attempts);
            pages.append(o);
            ++pageCount;
            failedPages += p.state == PageRecord::State::Failed ? 1 : 0;
            // The page's findings, where they were found; the walk's pages read "page" from 1.
            const PageRecord shown = input.maskCursors ? p.masked() : p;
            for (const Finding &f : shown.findings) {
                QJsonObject j = f.toJson();
                j.insert(QStringLiteral("source"), QStringLiteral("walk"));
                j.insert(QStringLiteral("list"), list.id);
                j.insert(QStringLiteral("walk"), p.walk);
                findings.append(j);
                walkFindings.insert(findingKey(list.id, f));
                counts.add(f.severity);
                total.add(f.severity);
            }
        }
        QJsonObject l{{QStringLiteral("list"), list.id},
                      {QStringLiteral("title"), list.title},
                      {QStringLiteral("items"), list.items},
                      {QStringLiteral("complete"), list.complete},
                      {QStringLiteral("stopReason"), orNull(list.stopReason)},
                      {QStringLiteral("requests"), int(list.pages.size())},
                      {QStringLiteral("pages"), pages}};
        if (list.id.startsWith(ToolListPrefix))
            l.insert(QStringLiteral("arguments"), list.arguments);
        listCounts.insert(list.id, counts);
        lists.append(l);
    }

    // The audit's findings that the walks above did not find already (its probes, its second
    // walks, and the passive findings of lists the report has no walk of).
    QJsonValue audit;
    if (input.audit) {
        QJsonObject a = input.audit->toJson();
        a.insert(QStringLiteral("finishedAtMs"),
                 input.auditFinishedAtMs > 0 ? QJsonValue(input.auditFinishedAtMs) : QJsonValue());
        audit = a;
        for (const AuditedList &l : input.audit->lists) {
            for (const Finding &f : l.findings) {
                if (walkFindings.contains(findingKey(l.id, f)))
                    continue;
                QJsonObject j = f.toJson();
                if (!j.contains(QStringLiteral("source")))
                    j.insert(QStringLiteral("source"), QStringLiteral("audit")); // the lint's say "lint"
                j.insert(QStringLiteral("list"), l.id);
                findings.append(j);
                total.add(f.severity);
                if (listCounts.contains(l.id))
                    listCounts[l.id].add(f.severity);
            }
        }
    }
    for (qsizetype i = 0; i < lists.size(); ++i) {
        QJsonObject l = lists.at(i).toObject();
        l.insert(QStringLiteral("findingCounts"),
                 listCounts.value(l.value(QStringLiteral("list")).toString()).toJson());
        lists[i] = l;
    }

    const QString aborted = !input.abortedReason.isEmpty() ? input.abortedReason
                            : input.audit                  ? input.audit->aborted
                                                           : QString();
    QJsonObject summary = total.toJson();
    summary.insert(QStringLiteral("lists"), int(input.lists.size()));
    summary.insert(QStringLiteral("pages"), pageCount);
    summary.insert(QStringLiteral("failedPages"), failedPages);
    summary.insert(QStringLiteral("attemptsWithoutRawRequest"), rawMissing);
    summary.insert(QStringLiteral("audited"), input.audit.has_value());
    summary.insert(QStringLiteral("aborted"), orNull(aborted));
    summary.insert(QStringLiteral("passed"), total.errors == 0 && aborted.isEmpty());

    QJsonObject report{
        {QStringLiteral("folioReport"), FormatVersion},
        {QStringLiteral("generator"),
         input.generator.isEmpty()
             ? QStringLiteral("Folio %1").arg(QCoreApplication::applicationVersion()).trimmed()
             : input.generator},
        {QStringLiteral("generatedAt"),
         QDateTime::fromMSecsSinceEpoch(generatedAt).toUTC().toString(Qt::ISODateWithMs)},
        {QStringLiteral("generatedAtMs"), generatedAt},
        {QStringLiteral("server"), serverJson(input.server)},
        {QStringLiteral("masking"),
         QJsonObject{{QStringLiteral("secrets"), true}, {QStringLiteral("cursors"), input.maskCursors}}},
        {QStringLiteral("summary"), summary},
        {QStringLiteral("timeline"),
         QJsonObject{{QStringLiteral("startMs"), startMs >= 0 ? QJsonValue(startMs) : QJsonValue()},
                     {QStringLiteral("endMs"), endMs >= 0 ? QJsonValue(endMs) : QJsonValue()}}},
        {QStringLiteral("lists"), lists},
        {QStringLiteral("findings"), findings},
        {QStringLiteral("audit"), audit}};

    // One pass over everything, whatever carried it (a finding's message, a server's error, the
    // command line it was started with): the cursors when asked, then the log's secrets and
    // credentials. What the log recorded is redacted already; this catches what it never saw.
    QJsonValue masked = report;
    if (input.maskCursors)
        masked = PageRecord::maskCursorsIn(masked, cursorsToMask(input.lists));
    QByteArray text = QJsonDocument(masked.toObject()).toJson(QJsonDocument::Compact);
    text = input.redactor ? input.redactor->redact(text) : SecretMask::maskMessage(text, {});
    return QJsonDocument::fromJson(text).object();
}

QByteArray toJsonText(const QJsonObject &report)
{
    return QJsonDocument(report).toJson(QJsonDocument::Indented);
}

QByteArray render(const QJsonObject &report, BugReportFormat format)
{
    switch (format) {
    case BugReportFormat::Html:
        return toHtml(report);
    case BugReportFormat::Markdown:
        return toMarkdown(report);
    case BugReportFormat::Json:
        return toJsonText(report);
    }
    return {};
}

bool parseFormat(const QString &name, BugReportFormat *format)
{
    const QString n = name.toLower();
    if (n == QLatin1String("html"))
        *format = BugReportFormat::Html;
    else if (n == QLatin1String("md") || n == QLatin1String("markdown"))
        *format = BugReportFormat::Markdown;
    else if (n == QLatin1String("json"))
        *format = BugReportFormat::Json;
    else
        return false;
    return true;
}

std::optional<BugReportFormat> formatForFile(const QString &fileName)
{
    const QString s = QFileInfo(fileName).suffix().toLower();
    if (s == QLatin1String("htm"))
        return BugReportFormat::Html;
    BugReportFormat f;
    if (s != QLatin1String("markdown") && parseFormat(s, &f))
        return f;
    if (s == QLatin1String("markdown"))
        return BugReportFormat::Markdown;
    return std::nullopt;
}

QString suffix(BugReportFormat format)
{
    switch (format) {
    case BugReportFormat::Html:
        return QStringLiteral("html");
    case BugReportFormat::Markdown:
        return QStringLiteral("md");
    case BugReportFormat::Json:
        return QStringLiteral("json");
    }
    return {};
}

} // namespace folio::BugReport
