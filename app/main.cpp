#include "applogging.h"
#include "buildinfo.h"
#include "cli.h"
#include "clilogging.h"
#include "clioutput.h"
#include "conformanceclient.h"
#include "inputresponder.h"
#include "mainwindow.h"
#include "plurals.h"
#include "secretstore.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "theme.h"
#include "ttlclock.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>

namespace {

// folio FILE.folio opens the window on a recorded session.
bool isSessionFile(const QString &word)
{
    return word.endsWith(QLatin1String(".folio"));
}

// A first word that is not an option is a subcommand, run headless (no display needed); an
// unknown one gets the command line's "unknown command" rather than a window.
bool isHeadlessCommand(const QString &word)
{
    return !word.isEmpty() && !word.startsWith(QLatin1Char('-')) && !isSessionFile(word);
}

// The demo server ships next to folio: in the build tree under demo-server/, installed beside it.
QString demoServerProgram()
{
    const QDir dir(QCoreApplication::applicationDirPath());
    for (const QString &candidate : {dir.filePath(QStringLiteral("demo-server/folio-demo-server")),
                                     dir.filePath(QStringLiteral("folio-demo-server"))}) {
        if (QFileInfo(candidate).isExecutable())
            return candidate;
    }
    return {};
}

// --version: the version, the commit it was built from, and the Qt it runs on (and was built
// with, when they differ), for bug reports.
int printVersion()
{
    QTextStream out(stdout);
    out << "folio " << FOLIO_VERSION << "\ncommit " << folio::buildCommit() << "\nQt " << qVersion();
    if (qstrcmp(qVersion(), QT_VERSION_STR) != 0)
        out << " (built with " << QT_VERSION_STR << ")";
    out << Qt::endl;
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    folio::installMessageHandler();
    QCoreApplication::setOrganizationName(QStringLiteral("Folio"));
    QCoreApplication::setApplicationName(QStringLiteral("Folio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FOLIO_VERSION));

    // -v is --verbose (the subcommands' meaning of it too); the version is --version only.
    const QString first = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (first == QLatin1String("--version"))
        return printVersion();
    if (first == QLatin1String("--help") || first == QLatin1String("-h")) {
        QCoreApplication app(argc, argv);
        QTextStream(stdout)
            << "Usage: folio [--url URL | -- COMMAND ARGS... | FILE.folio] [--theme light|dark|system]\n"
               "             [--scenario NAME] [-v]\n"
               "  Opens the window: on the embedded demo server (its scenario: --scenario, default\n"
               "  tour), on an HTTP server (--url), on a stdio server (after --), or on a recorded\n"
               "  session, replayed with no server (FILE.folio: folio record, File > Save Session).\n"
               "  -v, --verbose logs what Folio does on stderr (see Logging below).\n\n";
        return folio::runCli(first, {});
    }
    // "folio -v list ..." is "folio list -v ...": verbose before the command word is kept.
    const bool verboseFirst = (first == QLatin1String("-v") || first == QLatin1String("--verbose")) &&
                              argc > 2 && isHeadlessCommand(QString::fromLocal8Bit(argv[2]));
    const QString command = verboseFirst ? QString::fromLocal8Bit(argv[2]) : first;
    if (isHeadlessCommand(command)) {
        QCoreApplication app(argc, argv);
        QStringList args = app.arguments().mid(verboseFirst ? 3 : 2);
        if (verboseFirst)
            args.prepend(QStringLiteral("--verbose"));
        if (command == QLatin1String("conformance-client"))
            return folio::runConformanceClient(args);
        return folio::runCli(command, args);
    }

    QApplication app(argc, argv);
    QGuiApplication::setDesktopFileName(QStringLiteral(FOLIO_APP_ID));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/folio.svg")));
    folio::installPluralForms(&app);

    // Split off a stdio server given after "--".
    QStringList args = app.arguments();
    QStringList stdioCommand;
    const qsizetype dashes = args.indexOf(QStringLiteral("--"));
    if (dashes >= 0) {
        stdioCommand = args.mid(dashes + 1);
        args = args.mid(0, dashes);
    }
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Folio: see every page of an MCP server's lists.\n\n"
                       "  folio                      open the window on the embedded demo server\n"
                       "  folio --url URL            open it on an HTTP server\n"
                       "  folio -- COMMAND ARGS...   open it on a stdio server\n"
                       "  folio FILE.folio           open it on a recorded session (a replay)\n"
                       "  folio list|decode-cursor|audit ...   headless commands (folio list --help)"));
    parser.addHelpOption();
    // Not addVersionOption(): it takes -v, which is --verbose here as in every subcommand.
    const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("Show the version and exit."));
    const QCommandLineOption verbose({QStringLiteral("v"), QStringLiteral("verbose")},
                                     QStringLiteral("Log what Folio does on stderr: every level of the "
                                                    "folio.* categories (QT_LOGGING_RULES wins where it "
                                                    "names one)."));
    parser.addOptions({version, verbose});
    parser.addOption(
        {QStringLiteral("url"), QStringLiteral("Connect to the MCP server at URL."), QStringLiteral("URL")});
    parser.addOption(
        {QStringLiteral("theme"), QStringLiteral("light, dark or system."), QStringLiteral("theme")});
    parser.addOption({QStringLiteral("scenario"),
                      QStringLiteral("The demo server's scenario (default: tour)."), QStringLiteral("name"),
                      QStringLiteral("tour")});
    parser.addPositionalArgument(QStringLiteral("FILE.folio"),
                                 QStringLiteral("A recorded session to replay."),
                                 QStringLiteral("[FILE.folio]"));
    parser.process(args);
    if (parser.isSet(version))
        return printVersion();
    if (parser.isSet(verbose))
        folio::enableVerboseLogging();
    qCDebug(folio::lcApp).noquote() << "folio" << FOLIO_VERSION << "window, Qt" << qVersion();

    folio::Theme::Mode theme = folio::Theme::load();
    if (parser.isSet(QStringLiteral("theme"))) {
        const QString t = parser.value(QStringLiteral("theme"));
        theme = t == QLatin1String("dark")    ? folio::Theme::Mode::Dark
                : t == QLatin1String("light") ? folio::Theme::Mode::Light
                                              : folio::Theme::Mode::System;
    }
    folio::Theme::apply(theme);

    folio::TtlClock clock;
    folio::SecretStore secrets;
    secrets.setRemembersAbsence(true);
    folio::ServerListModel servers(&clock, &secrets);
    const QString demo = demoServerProgram();
    servers.setDemoServer(demo, {QStringLiteral("--scenario"), parser.value(QStringLiteral("scenario"))});
    servers.load();
    qCDebug(folio::lcApp) << "demo server:" << (demo.isEmpty() ? QStringLiteral("(not found)") : demo);

    int startRow = servers.isDemo(0) ? 0 : -1;
    if (parser.isSet(QStringLiteral("url")) || !stdioCommand.isEmpty()) {
        folio::ServerConfig config =
            !stdioCommand.isEmpty() ? folio::ServerConfig::process(stdioCommand.first(), stdioCommand.mid(1))
                                    : folio::ServerConfig::remote(QUrl(parser.value(QStringLiteral("url"))));
        config.name = servers.uniqueName(config.fallbackName());
        config.nameFromServer = true; // "node", "python", a host: the server's own name says more
        startRow = servers.addServer(config, /*persist=*/false);
    }

    // The server starts (and answers the handshake) while the window is built.
    const QStringList sessionFiles = parser.positionalArguments();
    if (startRow >= 0 && sessionFiles.isEmpty()) {
        // The handshake says what the window answers (elicitation, sampling, roots), and over
        // stdio it is sent at once: the window's responder first, its dialogs parented later.
        folio::attachWindowResponder(servers.session(startRow), nullptr);
        servers.session(startRow)->connectToServer();
    }
    folio::MainWindow window(&servers, &secrets);
    if (!sessionFiles.isEmpty()) {
        QString error;
        for (const QString &file : sessionFiles) {
            if (window.openSession(file, &error) < 0)
                folio::printErr(QStringLiteral("folio: %1\n").arg(error));
        }
        if (window.currentServerRow() < 0 && servers.rowCount() > 0)
            window.selectServer(0);
    } else if (startRow >= 0) {
        window.selectServer(startRow);
        window.connectCurrent();
    } else if (servers.rowCount() > 0) {
        window.selectServer(0);
    }
    window.show();
    return app.exec();
}
