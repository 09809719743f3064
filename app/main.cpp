#include "cli.h"
#include "conformanceclient.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCoreApplication>
#include <QTextStream>

#include <memory>

namespace {

// Subcommands run headless (no display needed); anything else opens the window.
bool isHeadlessCommand(const QString &word)
{
    return word == QLatin1String("conformance-client") || folio::isCliCommand(word);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Folio"));
    QCoreApplication::setApplicationName(QStringLiteral("Folio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(FOLIO_VERSION));

    const QString first = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (isHeadlessCommand(first)) {
        QCoreApplication app(argc, argv);
        QStringList args = app.arguments().mid(2);
        if (first == QLatin1String("conformance-client"))
            return folio::runConformanceClient(args);
        return folio::runCli(first, args);
    }

    QApplication app(argc, argv);
    folio::MainWindow window;
    window.show();
    return app.exec();
}
