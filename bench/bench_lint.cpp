// bench_lint: the definitions lint (models/definitionlint.h) of a 100,000-tool list against the time
// to walk it. The demo server serves a generated scenario file (--scenario-file) whose tools are
// 100,000 ordinary definitions like the demo's own (a title, a description of about 120 characters,
// three arguments with descriptions, one of them with a range and a default), 100 to a page, over
// stdio. One process: the client connects once, then each run walks tools/list to its end with a
// PageWalker (first request to the last page stored) and lints what the walk stored the way the
// audit does: each row parsed (the audit parses tools/list once already, ToolCatalog::toolsIn),
// DefinitionLint::lint() with the sizes the walk measured, and the costs sorted (itemCosts).
//
// Usage: bench_lint [--runs N] [--tools N] [--page-size N]
#include "benchoptions.h"
#include "benchpaths.h"
#include "benchstats.h"

#include "definitionlint.h"
#include "mcpclient.h"
#include "pagewalker.h"
#include "rowstore.h"
#include "ttlclock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <functional>

using namespace folio;

namespace {

QJsonObject generatedTool(int i)
{
    static const char *const verbs[] = {"get",     "list",   "create", "update",
                                        "archive", "search", "export", "sync"};
    static const char *const things[] = {"post",  "channel", "user", "thread", "reaction", "file",
                                         "emoji", "webhook", "bot",  "draft",  "reminder", "board"};
    const QString verb = QLatin1String(verbs[i % 8]);
    const QString thing = QLatin1String(things[(i / 8) % 12]);
    const QString name = QStringLiteral("%1_%2_%3").arg(verb, thing).arg(i, 6, 10, QLatin1Char('0'));
    auto property = [](const char *type, const QString &description) {
        return QJsonObject{{QStringLiteral("type"), QLatin1String(type)},
                           {QStringLiteral("description"), description}};
    };
    QJsonObject limit = property("integer", QStringLiteral("How many to return, at most 100"));
    limit.insert(QStringLiteral("minimum"), 1);
    limit.insert(QStringLiteral("maximum"), 100);
    limit.insert(QStringLiteral("default"), 20);
    return {{QStringLiteral("name"), name},
            {QStringLiteral("title"), QStringLiteral("%1 %2 %3").arg(verb, thing).arg(i)},
            {QStringLiteral("description"),
             QStringLiteral("%1 a %2 of the workspace by its id, as JSON. Fields you leave out keep their "
                            "values; the answer says what changed (%3).")
                 .arg(verb, thing)
                 .arg(i)},
            {QStringLiteral("inputSchema"),
             QJsonObject{
                 {QStringLiteral("type"), QStringLiteral("object")},
                 {QStringLiteral("properties"),
                  QJsonObject{
                      {QStringLiteral("id"), property("string", QStringLiteral("Id of the %1").arg(thing))},
                      {QStringLiteral("limit"), limit},
                      {QStringLiteral("verbose"), property("boolean", QStringLiteral("Say more"))}}},
                 {QStringLiteral("required"), QJsonArray{QStringLiteral("id")}}}},
            {QStringLiteral("annotations"), QJsonObject{{QStringLiteral("readOnlyHint"), i % 3 == 0}}}};
}

bool waitFor(auto *sender, auto signal, int timeoutMs, auto done)
{
    QEventLoop loop;
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    QObject::connect(sender, signal, &loop, [&] {
        if (done())
            loop.quit();
    });
    if (!done())
        loop.exec();
    return done();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    bench::Options options;
    options.add("runs", "Measured runs, after one warm-up (default 5).", "5");
    options.add("tools", "Tools in the list (default 100000).", "100000");
    options.add("page-size", "Tools per page (default 100).", "100");
    options.process(app);
    const int runs = options.number("runs");
    const int count = options.number("tools");
    const int pageSize = options.number("page-size");

    QTemporaryDir dir;
    const QString scenarioPath = dir.filePath(QStringLiteral("lint-bench.json"));
    {
        QJsonArray tools;
        for (int i = 0; i < count; ++i)
            tools.append(generatedTool(i));
        const QJsonObject scenario{
            {QStringLiteral("description"), QStringLiteral("bench_lint: many ordinary tools")},
            {QStringLiteral("lists"),
             QJsonObject{{QStringLiteral("tools"), QJsonObject{{QStringLiteral("pageSize"), pageSize}}}}},
            {QStringLiteral("items"),
             QJsonObject{{QStringLiteral("tools"), QJsonObject{{QStringLiteral("add"), tools}}}}}};
        QFile f(scenarioPath);
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(QJsonDocument(scenario).toJson(QJsonDocument::Compact)) < 0)
            qFatal("bench_lint: cannot write %s", qPrintable(scenarioPath));
    }

    McpClient client;
    ServerConfig config;
    config.name = QStringLiteral("demo");
    config.command = bench::demoServerProgram();
    config.arguments = {QStringLiteral("--scenario-file"), scenarioPath};
    config.requestTimeoutMs = 60000;
    client.setConfig(config);
    client.connectToServer();
    if (!waitFor(&client, &McpClient::stateChanged, 60000,
                 [&] { return client.state() == McpClient::State::Connected; }))
        qFatal("bench_lint: could not connect to the demo server: %s",
               qPrintable(client.lastError().describe()));

    TtlClock clock;
    QList<double> walkMs, parseMs, lintMs, costMs;
    QMap<QString, QList<double>> ruleMs;
    qint64 items = 0, bytes = 0, findings = 0, tokens = 0;
    for (int run = -1; run < runs; ++run) {
        PageWalker walker(&client, ListSource::protocol(ListKind::Tools), &clock);
        walker.setPageCap(count / pageSize + 10);
        QElapsedTimer timer;
        timer.start();
        walker.fetchAll();
        if (!waitFor(&walker, &PageWalker::walkFinished, 300000,
                     [&] { return !walker.isLoading() && (walker.isComplete() || walker.isStopped()); }) ||
            !walker.isComplete())
            qFatal("bench_lint: the walk did not complete: %s", qPrintable(walker.stopReason()));
        const double walked = double(timer.nsecsElapsed()) / 1e6;

        const RowStore &rows = *walker.rows();
        timer.restart();
        QList<QJsonObject> definitions;
        QList<qint64> sizes;
        definitions.reserve(rows.rowCount());
        sizes.reserve(rows.rowCount());
        for (int row = 0; row < rows.rowCount(); ++row) {
            sizes.append(rows.itemText(row).size());
            definitions.append(rows.item(row));
        }
        const double parsed = double(timer.nsecsElapsed()) / 1e6;
        timer.restart();
        const QList<Finding> found = DefinitionLint::lint(ListKind::Tools, definitions, sizes);
        const double linted = double(timer.nsecsElapsed()) / 1e6;
        timer.restart();
        const QList<DefinitionLint::ItemCost> costs =
            DefinitionLint::itemCosts(ListKind::Tools, definitions, sizes);
        const double costed = double(timer.nsecsElapsed()) / 1e6;

        // Each rule on its own, for where the time goes.
        using Rule = std::function<QList<Finding>()>;
        const QList<QPair<QString, Rule>> rules{
            {QStringLiteral("hidden-characters"),
             [&] { return DefinitionLint::lintHiddenCharacters(ListKind::Tools, definitions); }},
            {QStringLiteral("model-instructions"),
             [&] { return DefinitionLint::lintInstructions(ListKind::Tools, definitions); }},
            {QStringLiteral("tool-name-unportable"),
             [&] { return DefinitionLint::lintToolNames(definitions); }},
            {QStringLiteral("schema-unportable"), [&] { return DefinitionLint::lintSchemas(definitions); }},
            {QStringLiteral("default-rejected"), [&] { return DefinitionLint::lintDefaults(definitions); }},
            {QStringLiteral("tool-name-collision"),
             [&] { return DefinitionLint::lintCollisions(definitions); }},
            {QStringLiteral("context-cost"),
             [&] { return DefinitionLint::lintContextCost(ListKind::Tools, definitions, sizes); }}};
        for (const auto &rule : rules) {
            timer.restart();
            (void)rule.second();
            if (run >= 0)
                ruleMs[rule.first] << double(timer.nsecsElapsed()) / 1e6;
        }

        items = rows.rowCount();
        findings = found.size();
        tokens = DefinitionLint::listCost(definitions, sizes);
        bytes = 0;
        for (qint64 s : std::as_const(sizes))
            bytes += s;
        if (run < 0)
            continue; // the warm-up
        walkMs << walked;
        parseMs << parsed;
        lintMs << linted;
        costMs << costed;
        (void)costs;
    }

    const double walk = bench::Stats::of(walkMs).median;
    const double parse = bench::Stats::of(parseMs).median;
    const double lint = bench::Stats::of(lintMs).median;
    const double cost = bench::Stats::of(costMs).median;
    bench::heading(QStringLiteral("lint of %1 tools (%2 pages of %3, %4 MB of item JSON), %5 runs")
                       .arg(items)
                       .arg(items / pageSize)
                       .arg(pageSize)
                       .arg(double(bytes) / 1e6, 0, 'f', 1)
                       .arg(runs));
    bench::line(QStringLiteral("walk (stdio, first request to last page)"),
                bench::Stats::of(walkMs).text("ms", 1));
    bench::line(QStringLiteral("parse every row (QJsonObject)"), bench::Stats::of(parseMs).text("ms", 1));
    bench::line(QStringLiteral("DefinitionLint::lint"), bench::Stats::of(lintMs).text("ms", 1));
    for (auto it = ruleMs.cbegin(); it != ruleMs.cend(); ++it)
        bench::line(QStringLiteral("  of which ") + it.key(), bench::Stats::of(it.value()).text("ms", 1));
    bench::line(QStringLiteral("itemCosts (sorted)"), bench::Stats::of(costMs).text("ms", 1));
    bench::line(QStringLiteral("lint / walk"), QStringLiteral("%1 %").arg(100.0 * lint / walk, 0, 'f', 1));
    bench::line(QStringLiteral("(lint + costs) / walk"),
                QStringLiteral("%1 %").arg(100.0 * (lint + cost) / walk, 0, 'f', 1));
    bench::line(QStringLiteral("(parse + lint + costs) / walk"),
                QStringLiteral("%1 %").arg(100.0 * (parse + lint + cost) / walk, 0, 'f', 1));
    bench::line(QStringLiteral("findings, estimated tokens"),
                QStringLiteral("%1, %2").arg(findings).arg(tokens));
    return 0;
}
