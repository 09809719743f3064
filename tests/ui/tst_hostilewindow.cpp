// The window shows a hostile server's text as the terminal does (issue 29, part 3): the real
// window on folio-fixture-server --mode hostile-text, whose serverInfo, instructions, tool names
// and descriptions and cursor hold escape sequences, C1 controls, DEL, bidi overrides and
// zero-width spaces. No table cell, tooltip, label or finding holds such a character raw; they
// read <U+XXXX>, and the names that read as others are deceptive-name findings.
//
// With FOLIO_SCREENSHOT_DIR set, the window is saved there as hostile-text-<theme>.png.
#include "finding.h"
#include "listview.h"
#include "mainwindow.h"
#include "pagedlistmodel.h"
#include "runslabel.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "terminaltext.h"
#include "windowfixture.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QTest>

using namespace folio;

class tst_HostileWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void hostileTextIsShownNotActedOn();

private:
    WindowFixture m_fixture;
};

void tst_HostileWindow::initTestCase()
{
    WindowFixture::initSettings("tst_hostilewindow");
}

void tst_HostileWindow::cleanup()
{
    m_fixture.reset();
}

void tst_HostileWindow::hostileTextIsShownNotActedOn()
{
    ServerConfig config = ServerConfig::process(QStringLiteral(FOLIO_FIXTURE_SERVER),
                                                {QStringLiteral("--mode"), QStringLiteral("hostile-text")});
    config.name = QStringLiteral("hostile");
    QVERIFY(m_fixture.openServer(config));
    ListView *list = m_fixture.showList(QStringLiteral("tools"));
    QVERIFY(list);
    PagedListModel *model = list->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 5, 10000);

    // Every cell and tooltip: nothing hidden raw, the reversed name shown.
    QStringList names;
    for (int row = 0; row < model->rowCount(); ++row) {
        for (int column = 0; column < model->columnCount(); ++column) {
            for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)}) {
                const QString text = model->index(row, column).data(role).toString();
                QVERIFY2(hiddenCharacters(text).isEmpty(),
                         qPrintable(QStringLiteral("row %1 column %2: %3")
                                        .arg(QString::number(row), QString::number(column),
                                             describeCodePoints(hiddenCharacters(text)))));
            }
        }
        names << model->index(row, 0).data().toString();
    }
    QVERIFY2(names.contains(QStringLiteral("read<U+202E>elif_")), qPrintable(names.join(u", ")));

    // The labels a server's text reaches (instructions, the server's name, the status line).
    for (QLabel *label : m_fixture.window()->findChildren<QLabel *>()) {
        QVERIFY2(hiddenCharacters(label->text()).isEmpty(),
                 qPrintable(label->objectName() + QStringLiteral(": ") + label->text()));
    }
    for (RunsLabel *label : m_fixture.window()->findChildren<RunsLabel *>()) {
        QVERIFY2(hiddenCharacters(label->text()).isEmpty(), qPrintable(label->text()));
        QVERIFY2(!label->text().contains(QStringLiteral("live")), qPrintable(label->text()));
    }

    // The deceptive names are findings, one on each page.
    int deceptive = 0;
    for (const Finding &f : m_fixture.servers()->session(0)->findings(QStringLiteral("tools"))) {
        if (f.id == FindingId::DeceptiveName)
            ++deceptive;
    }
    QCOMPARE(deceptive, 2);

    if (const QString dir = qEnvironmentVariable("FOLIO_SCREENSHOT_DIR"); !dir.isEmpty()) {
        QApplication::processEvents();
        const bool dark = m_fixture.window()->palette().color(QPalette::Window).lightness() < 128;
        QVERIFY(m_fixture.window()->grab().save(
            QDir(dir).filePath(QStringLiteral("hostile-text-%1.png").arg(dark ? u"dark" : u"light"))));
    }
}

QTEST_MAIN(tst_HostileWindow)
#include "tst_hostilewindow.moc"
