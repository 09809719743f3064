#include "authserver.h"
#include "demoserver.h"
#include "demostdiochannel.h"
#include "httpserver.h"
#include "scenario.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>
#include <QUrl>

#include <csignal>
#include <cstdio>

namespace {

QString behaviourHelp()
{
    return QStringLiteral(
        "Behaviours (per list; see docs/demo-server.md for the exact wire behaviour):\n"
        "  healthy                  pages in order, -32602 for a bad cursor, hints on every page\n"
        "  ttl-varies               ttlMs 60000, 3000, 0, 30000, 120000, ... page by page\n"
        "  empty-string-cursor      page AT (2) answers nextCursor \"\"; \"\" fetches page AT+1\n"
        "  expiring                 cursors die expireAfterMs (10000) after issue: -32602\n"
        "  bad-cursor-restarts      an unknown cursor silently gives page 1 (bug)\n"
        "  bad-cursor-wrong-code    an unknown cursor gets -32603 instead of -32602 (bug)\n"
        "  cursor-never-advances    from page 2 on, nextCursor repeats the request's cursor (bug)\n"
        "  cursor-cycle             page 3 answers page 2's cursor again: A -> B -> A (bug)\n"
        "  empty-cursor-forever     every page answers \"\", and \"\" fetches page 2 (bug)\n"
        "  duplicates               pages overlap by `overlap` (3) items (bug)\n"
        "  scope-mismatch           even pages flip cacheScope (bug)\n"
        "  hints-missing            ttlMs and/or cacheScope left out (bug, 2026 only)\n"
        "  hints-invalid            ttlMs -1000, 1500.5, \"<ttl>\", scope \"shared\" (bug)\n"
        "  foreign-cursor-accepted  list tools take any tool's cursor (bug, list tools only)\n"
        "  error-mid-list           page AT (3) fails with -32603 (isError for list tools)\n"
        "  slow                     every page waits latencyMs (1500)\n"
        "  page-never-answers       page AT (2) is never answered\n"
        "  list-changed             a new item every intervalMs (5000) and a list_changed;\n"
        "                           with AT, once, as page AT is served\n"
        "  unstable-order           every walk from page 1 sees a new order\n"
        "  huge-pages               2500 items per page\n");
}

QString scenarioHelp()
{
    QString text = QStringLiteral("Scenarios (--scenario NAME):\n");
    for (const QString &name : demo::Scenario::builtinNames())
        text +=
            QStringLiteral("  %1%2\n").arg(name.leftJustified(25), demo::Scenario::builtinDescription(name));
    return text;
}

// --oauth takes its SPEC optionally (--oauth, --oauth=SPEC or --oauth SPEC), which
// QCommandLineParser cannot say: a bare --oauth becomes --oauth= before parsing.
QStringList withOAuthValue(QStringList arguments)
{
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        if (arguments.at(i) != QLatin1String("--oauth"))
            continue;
        if (i + 1 < arguments.size() && !arguments.at(i + 1).startsWith(QLatin1Char('-'))) {
            arguments[i] += QLatin1Char('=') + arguments.takeAt(i + 1);
        } else {
            arguments[i] += QLatin1Char('=');
        }
    }
    return arguments;
}

} // namespace

int main(int argc, char **argv)
{
    // A client that closes our stdout must not kill us with SIGPIPE; stdin EOF ends us cleanly.
    std::signal(SIGPIPE, SIG_IGN);
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("folio-demo-server"));
    QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "An MCP server for Folio's demos and tests: a team chat whose lists page well or badly on cue.\n"
        "Speaks MCP on stdin/stdout unless --http is given."));
    const QCommandLineOption helpOption({QStringLiteral("h"), QStringLiteral("help")},
                                        QStringLiteral("Show this help, with every scenario."));
    const QCommandLineOption versionOption(QStringLiteral("version"), QStringLiteral("Show the version."));
    const QCommandLineOption httpOption(
        QStringLiteral("http"),
        QStringLiteral("Serve Streamable HTTP on http://127.0.0.1:PORT/mcp instead of stdio; 0 picks a free "
                       "port. Prints 'folio-demo-server listening on <url>' to stderr."),
        QStringLiteral("PORT"));
    const QCommandLineOption eraOption(
        QStringLiteral("era"),
        QStringLiteral("both (default), modern (2026-07-28 only) or legacy (initialize, 2024-11-05 .. "
                       "2025-11-25 only)."),
        QStringLiteral("ERA"), QStringLiteral("both"));
    const QCommandLineOption scenarioOption(QStringLiteral("scenario"),
                                            QStringLiteral("A built-in scenario (default: tour)."),
                                            QStringLiteral("NAME"), QStringLiteral("tour"));
    const QCommandLineOption scenarioFileOption(QStringLiteral("scenario-file"),
                                                QStringLiteral("A scenario JSON file (replaces --scenario)."),
                                                QStringLiteral("PATH"));
    const QCommandLineOption listOption(
        QStringLiteral("list"),
        QStringLiteral("Override one list: LIST=BEHAVIOUR[,key=value...], e.g. tools=cursor-cycle or "
                       "resources=slow,latencyMs=300. LIST: %1. Keys: pageSize, ttlMs, cacheScope, at, "
                       "latencyMs, expireAfterMs, intervalMs, overlap. Repeatable.")
            .arg(demo::Scenario::listNames().join(QStringLiteral(", "))),
        QStringLiteral("SPEC"));
    const QCommandLineOption seedOption(QStringLiteral("seed"),
                                        QStringLiteral("Seed of the generated content (default 42)."),
                                        QStringLiteral("N"), QStringLiteral("42"));
    const QCommandLineOption pageSizeOption(
        QStringLiteral("page-size"), QStringLiteral("Page size of every list (list tools: default limit)."),
        QStringLiteral("N"));
    const QCommandLineOption resourcesOption(
        QStringLiteral("resources"),
        QStringLiteral(
            "Length of the resources list (default 10000); more adds chat://archive/aNNNNNNN copies "
            "of the posts. For benchmarks."),
        QStringLiteral("N"));
    const QCommandLineOption oauthOption(
        QStringLiteral("oauth"),
        QStringLiteral("With --http: /mcp needs a bearer token, and the same port serves an auto-approving "
                       "OAuth 2.1 authorization server. SPEC (optional): comma list of key=value and flags, "
                       "e.g. token-ttl-ms=1500,rotate,fault=wrong-state (see OAuth below)."),
        QStringLiteral("SPEC"));
    parser.addOptions({helpOption, versionOption, httpOption, eraOption, scenarioOption, scenarioFileOption,
                       listOption, seedOption, pageSizeOption, resourcesOption, oauthOption});

    QTextStream err(stderr);
    if (!parser.parse(withOAuthValue(QCoreApplication::arguments()))) {
        err << parser.errorText() << "\n";
        return 2;
    }
    if (parser.isSet(helpOption)) {
        QTextStream(stdout) << parser.helpText() << "\n"
                            << scenarioHelp() << "\n"
                            << behaviourHelp() << "\n"
                            << demo::AuthServer::help();
        return 0;
    }
    if (parser.isSet(versionOption)) {
        QTextStream(stdout) << "folio-demo-server 0.1.0\n";
        return 0;
    }

    demo::DemoServer::Era era = demo::DemoServer::Era::Both;
    const QString eraName = parser.value(eraOption);
    if (eraName == QStringLiteral("modern")) {
        era = demo::DemoServer::Era::Modern;
    } else if (eraName == QStringLiteral("legacy")) {
        era = demo::DemoServer::Era::Legacy;
    } else if (eraName != QStringLiteral("both")) {
        err << "--era must be both, modern or legacy\n";
        return 2;
    }
    bool ok = false;
    const quint32 seed = parser.value(seedOption).toUInt(&ok);
    if (!ok) {
        err << "--seed must be a non-negative integer\n";
        return 2;
    }

    demo::Scenario scenario;
    QString error;
    const bool loaded = parser.isSet(scenarioFileOption)
                            ? scenario.loadFile(parser.value(scenarioFileOption), &error)
                            : scenario.loadBuiltin(parser.value(scenarioOption), &error);
    if (!loaded) {
        err << "folio-demo-server: " << error << "\n";
        return 2;
    }
    if (parser.isSet(pageSizeOption)) {
        const int pageSize = parser.value(pageSizeOption).toInt(&ok);
        if (!ok || pageSize < 1) {
            err << "--page-size must be at least 1\n";
            return 2;
        }
        scenario.setPageSize(pageSize);
    }
    for (const QString &spec : parser.values(listOption)) {
        if (!scenario.applyOverride(spec, &error)) {
            err << "folio-demo-server: " << error << "\n";
            return 2;
        }
    }

    int resourceCount = -1;
    if (parser.isSet(resourcesOption)) {
        resourceCount = parser.value(resourcesOption).toInt(&ok);
        if (!ok || resourceCount < 0) {
            err << "--resources must be a non-negative integer\n";
            return 2;
        }
    }

    demo::AuthSettings oauth;
    if (parser.isSet(oauthOption)) {
        if (!parser.isSet(httpOption)) {
            err << "--oauth needs --http (stdio servers take no bearer token)\n";
            return 2;
        }
        if (!oauth.parse(parser.value(oauthOption), &error)) {
            err << "folio-demo-server: " << error << "\n";
            return 2;
        }
    }

    demo::DemoServer server(era, scenario, seed);
    if (resourceCount >= 0)
        server.setResourceCount(resourceCount);
    if (parser.isSet(httpOption)) {
        const uint port = parser.value(httpOption).toUInt(&ok);
        if (!ok || port > 65535) {
            err << "--http wants a port number (0 picks a free one)\n";
            return 2;
        }
        auto http = new demo::HttpServer(&server, &app);
        if (!http->listen(quint16(port), &error)) {
            err << "folio-demo-server: cannot listen on 127.0.0.1:" << port << ": " << error << "\n";
            return 1;
        }
        if (parser.isSet(oauthOption)) {
            auto auth = new demo::AuthServer(oauth, &app);
            auth->setOrigin(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(http->port())));
            http->setAuthServer(auth);
        }
        err << "folio-demo-server listening on http://127.0.0.1:" << http->port() << "/mcp\n";
        err.flush();
        return app.exec();
    }
    demo::DemoStdioChannel stdio(&server);
    QObject::connect(&stdio, &demo::DemoStdioChannel::finished, &app, &QCoreApplication::quit);
    stdio.start();
    return app.exec();
}
