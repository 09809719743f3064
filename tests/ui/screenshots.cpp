// folio-screenshots: every picture in docs/screenshots but hostile-text-light.png, rendered with
// throwaway settings (a temporary XDG profile, removed on exit: the user's zoom, legend, theme and
// session folder stay as they were).
//   QT_QPA_PLATFORM=offscreen folio-screenshots [output directory, default /tmp/folio-shots]
// First the widgets on a scripted list that shows every look of the visual language at once, and
// the server dialog: {pagestrip,pagestrip-loop,inspector,timeline,serverdialog}-{light,dark}.png.
// Then the main window on the demo server (windowshots.cpp): main-*, findings-*, audit-*, ...
// A documentation tool, never installed: it lives beside the fixtures it renders from.
#include "pagedfixture.h"
#include "pageinspector.h"
#include "pageledger.h"
#include "pagestrip.h"
#include "plurals.h"
#include "serverdialog.h"
#include "timelineview.h"
#include "windowshots.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QScrollBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTextStream>
#include <QVBoxLayout>

using namespace folio;

namespace {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2d, 0x2f, 0x33);
    const QColor base(0x1f, 0x21, 0x24);
    const QColor text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8a, 0x8a));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x7a, 0x7a, 0x7a));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x7a, 0x7a, 0x7a));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x7a, 0x7a, 0x7a));
    p.setColor(QPalette::Mid, QColor(0x45, 0x47, 0x4b));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Light, QColor(0x48, 0x4a, 0x4f));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3c, 0x40));
    p.setColor(QPalette::Shadow, Qt::black);
    return p;
}

QString cursorFor(int offset)
{
    return PagedFixture::jsonCursor(
        QJsonObject{{QStringLiteral("t"), QStringLiteral("tools")}, {QStringLiteral("p"), offset}});
}

// The tour: a discarded first walk, then fresh, draining, expired, private, stale, hint-less,
// duplicated and refused pages, and one page being refetched.
void buildTour(PagedFixture &f)
{
    const QString &none = PagedFixture::NoCursor;
    auto page = [](int from, int count, const QJsonValue &next, const QJsonValue &ttl,
                   const QJsonValue &scope = QStringLiteral("public")) {
        return PagedFixture::page(PagedFixture::tools(from, count), next, ttl, scope);
    };
    PagedFixture::Script script{
        {none, page(0, 20, cursorFor(20), 60000)},
        {cursorFor(20), page(20, 20, cursorFor(40), 45000)},
        {cursorFor(40), page(40, 20, cursorFor(60), 8000)},
        {cursorFor(60), page(60, 20, cursorFor(80), 45000, QStringLiteral("private"))},
        {cursorFor(80), page(80, 20, cursorFor(100), 0)},
        {cursorFor(100), page(100, 20, cursorFor(120), 30000, QJsonValue::Undefined)},
        {cursorFor(120), page(118, 17, QStringLiteral("opaque.v2|Zm9v~"), 60000)},
        {QStringLiteral("opaque.v2|Zm9v~"),
         PagedFixture::rpcError(-32602, QStringLiteral("Invalid or expired cursor"))},
    };
    // Each request takes a while on the injected clock, so the bars drain to different lengths.
    if (!f.connect([&f, script](const QString &cursor) {
            f.now += 2500;
            return script.value(cursor);
        }))
        qFatal("could not connect to the scripted server");
    f.model->walker()->setPageCap(1000);
    QSignalSpy received(f.model.get()->walker(), &PageWalker::pageAccepted);
    f.model->walker()->start();
    received.wait(2000);
    f.model->fetchMore({});
    received.wait(2000);
    f.model->fetchMore({});
    received.wait(2000);
    f.model->walker()->restart(QStringLiteral("the server sent notifications/tools/list_changed"));
    received.wait(2000);
    f.walkAll();
    f.advance(4000); // page 3's 8 s are up
    f.hang.insert(cursorFor(20));
    f.model->walker()->refetchPage(f.model->walker()->walkPageRows().at(1));

    // The scripted server answers at once and the wall clock did not move with the injected one:
    // give every request a plausible latency and a wall time on the injected clock's scale.
    const qint64 base = QDateTime(QDate(2026, 7, 28), QTime(10, 15, 0)).toMSecsSinceEpoch();
    PageLedger *ledger = f.model->ledger();
    qint64 mono = 1000;
    for (int row = 0; row < ledger->rowCount(); ++row) {
        const PageRecord &rec = ledger->page(row);
        mono = rec.receivedMonoMs >= 0 ? rec.receivedMonoMs : mono + 2500;
        const qint64 latency = 90 + (row * 137) % 420;
        ledger->retime(row, base + mono - latency, latency, base + f.now - 1500); // a refetch in flight
    }
}

// A list whose cursor comes back around (page 4 returns the cursor page 3 was asked with) and
// whose page 3 holds two items of page 2 again: the strip's arcs.
void buildLoop(PagedFixture &f)
{
    auto page = [](int from, int count, const QJsonValue &next) {
        return PagedFixture::page(PagedFixture::tools(from, count), next, 600000);
    };
    const PagedFixture::Script script{{PagedFixture::NoCursor, page(0, 20, cursorFor(20))},
                                      {cursorFor(20), page(20, 20, cursorFor(40))},
                                      {cursorFor(40), page(38, 20, cursorFor(60))},
                                      {cursorFor(60), page(60, 20, cursorFor(40))}};
    if (!f.connect(script))
        qFatal("could not connect to the scripted server");
    f.walkAll();
}

void save(QWidget *widget, const QString &dir, const QString &name)
{
    widget->show();
    QApplication::processEvents();
    const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
    if (!widget->grab().save(path))
        qWarning("could not write %s", qPrintable(path));
    else
        qInfo("%s", qPrintable(path));
    widget->hide();
}

// The widgets, in Fusion with a palette of their own for each of light and dark.
void takeWidgetShots(const QString &dir)
{
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    PagedFixture f;
    buildTour(f);
    PagedFixture loop;
    buildLoop(loop);
    const QList<int> rows = f.model->walker()->walkPageRows();

    for (const bool dark : {false, true}) {
        QApplication::setPalette(dark ? darkPalette() : QApplication::style()->standardPalette());
        const QString suffix = dark ? QStringLiteral("-dark") : QStringLiteral("-light");

        PageStrip strip;
        strip.setListModel(f.model.get());
        strip.resize(1000, strip.sizeHint().height());
        strip.setCurrentPage(rows.at(3));
        strip.horizontalScrollBar()->setValue(0);
        save(&strip, dir, QStringLiteral("pagestrip") + suffix);

        PageStrip loopStrip;
        loopStrip.setListModel(loop.model.get());
        loopStrip.resize(560, loopStrip.sizeHint().height());
        loopStrip.setCurrentPage(loop.model->walker()->walkPageRows().last());
        save(&loopStrip, dir, QStringLiteral("pagestrip-loop") + suffix);

        PageInspector inspector;
        inspector.setPage(f.model.get(), rows.at(3));
        inspector.resize(960, 330);
        save(&inspector, dir, QStringLiteral("inspector") + suffix);

        TimelineView timeline;
        timeline.setListModel(f.model.get());
        timeline.resize(960, 300);
        timeline.setCurrentPage(rows.at(3));
        save(&timeline, dir, QStringLiteral("timeline") + suffix);

        ServerDialog dialog;
        ServerConfig server = ServerConfig::process(
            QStringLiteral("npx"),
            {QStringLiteral("-y"), QStringLiteral("@modelcontextprotocol/server-filesystem"),
             QStringLiteral("/home/me/projects")});
        server.name = QStringLiteral("filesystem");
        dialog.setConfig(server);
        dialog.resize(dialog.sizeHint());
        save(&dialog, dir, QStringLiteral("serverdialog") + suffix);
    }
}

// Settings, data and caches in a directory of this run's, before anything reads QSettings: the
// window remembers its zoom, legend, theme, geometry and session folder as it is driven. The
// demo servers it starts inherit the same profile.
bool useThrowawayProfile(const QTemporaryDir &profile)
{
    if (!profile.isValid())
        return false;
    for (const char *var : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"}) {
        const QString path = profile.filePath(QString::fromLatin1(var).toLower());
        if (!QDir().mkpath(path) || !qputenv(var, QFile::encodeName(path)))
            return false;
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    const QTemporaryDir profile(QDir::tempPath() + QStringLiteral("/folio-screenshots-XXXXXX"));
    if (!useThrowawayProfile(profile)) {
        QTextStream(stderr) << "folio-screenshots: could not make a temporary settings directory" << Qt::endl;
        return 1;
    }
    // Offscreen, a projector's screen (1920x1080) rather than the plugin's 800x600: the
    // presentation shots are taken full screen.
    if (qgetenv("QT_QPA_PLATFORM") == "offscreen") {
        QFile config(profile.filePath(QStringLiteral("offscreen.json")));
        if (config.open(QIODevice::WriteOnly)) {
            config.write(R"({"screens":[{"name":"Projector","x":0,"y":0,"width":1920,"height":1080,)"
                         R"("logicalDpi":96,"logicalBaseDpi":96,"dpr":1}]})");
            config.close();
            qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + QFile::encodeName(config.fileName()));
        }
    }
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Folio"));
    QCoreApplication::setApplicationName(QStringLiteral("Folio"));
    installPluralForms(&app); // as the window's counts read
    const QString dir = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("/tmp/folio-shots");
    QDir().mkpath(dir);

    takeWidgetShots(dir);
    return takeWindowShots(QStringLiteral(FOLIO_DEMO_SERVER), dir);
}
