// The window shows a hostile server's text as the terminal does (issue 29, part 3): the real
// window on folio-fixture-server --mode hostile-text, whose serverInfo, instructions, tool names
// and descriptions and cursor hold escape sequences, C1 controls, DEL, bidi overrides and
// zero-width spaces. No table cell, tooltip, label or finding holds such a character raw; they
// read <U+XXXX>, and the names that read as others are deceptive-name findings.
//
// With FOLIO_SCREENSHOT_DIR set, the window is saved there as hostile-text-<theme>.png, and with a
// tool's lint beside its schema as item-lint-<theme>.png.
#include "callview.h"
#include "finding.h"
#include "listview.h"
#include "mainwindow.h"
#include "pagedlistmodel.h"
#include "runslabel.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "serverview.h"
#include "terminaltext.h"
#include "windowfixture.h"

#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextEdit>

using namespace folio;

namespace {
// The hidden characters of a text shown, but the line breaks and tabs of a multi-line label.
QList<char32_t> hiddenIn(const QString &text)
{
    QList<char32_t> hidden = hiddenCharacters(text);
    hidden.removeAll(U'\n');
    hidden.removeAll(U'\t');
    return hidden;
}
} // namespace

class tst_HostileWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void hostileTextIsShownNotActedOn();
    void itemLintBesideItsSchema();

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
    ServerView *view = m_fixture.openServer(config);
    QVERIFY(view);
    QTRY_VERIFY_WITH_TIMEOUT(view->listView(QStringLiteral("tools")), 10000);
    view->showList(QStringLiteral("tools"));
    ListView *list = view->listView(QStringLiteral("tools"));
    PagedListModel *model = list->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 5, 10000);

    // Every cell and tooltip of every list: nothing hidden raw, the reversed name shown.
    auto checkCells = [](PagedListModel *m) {
        for (int row = 0; row < m->rowCount(); ++row) {
            for (int column = 0; column < m->columnCount(); ++column) {
                for (int role : {int(Qt::DisplayRole), int(Qt::ToolTipRole)}) {
                    const QString text = m->index(row, column).data(role).toString();
                    if (!hiddenCharacters(text).isEmpty())
                        return QStringLiteral("row %1 column %2: %3")
                            .arg(QString::number(row), QString::number(column),
                                 describeCodePoints(hiddenCharacters(text)));
                }
            }
        }
        return QString();
    };
    const QString inTools = checkCells(model);
    QVERIFY2(inTools.isEmpty(), qPrintable(inTools));
    QStringList names;
    for (int row = 0; row < model->rowCount(); ++row)
        names << model->index(row, 0).data().toString();
    for (const QString &other : {QStringLiteral("resources"), QStringLiteral("prompts")}) {
        QTRY_VERIFY_WITH_TIMEOUT(view->listView(other), 10000);
        view->showList(other);
        PagedListModel *m = view->listView(other)->model();
        QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 1, 10000);
        const QString found = checkCells(m);
        QVERIFY2(found.isEmpty(), qPrintable(other + QStringLiteral(": ") + found));
    }
    view->showList(QStringLiteral("tools"));
    QVERIFY2(names.contains(QStringLiteral("read<U+202E>elif_")), qPrintable(names.join(u", ")));

    // The labels a server's text reaches (instructions, the server's name, the status line).
    for (QLabel *label : m_fixture.window()->findChildren<QLabel *>()) {
        QVERIFY2(hiddenIn(label->text()).isEmpty(),
                 qPrintable(label->objectName() + QStringLiteral(": ") + label->text()));
    }
    for (RunsLabel *label : m_fixture.window()->findChildren<RunsLabel *>()) {
        QVERIFY2(hiddenIn(label->text()).isEmpty(), qPrintable(label->text()));
        QVERIFY2(!label->text().contains(QStringLiteral("live")), qPrintable(label->text()));
    }

    // A call: the server's progress message, its result and its error reach the Call window's
    // labels (the running page keeps the last progress line) shown, never raw.
    for (const QString &tool : {QStringLiteral("echo"), QStringLiteral("fail")}) {
        QJsonObject definition;
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->item(row).value(QStringLiteral("name")).toString() == tool)
                definition = model->item(row);
        }
        QVERIFY2(!definition.isEmpty(), qPrintable(tool));
        CallView *call = view->openCallView(definition);
        QVERIFY(call);
        call->call();
        if (call->state() == CallView::State::Confirming)
            QTest::mouseClick(call->findChild<QPushButton *>(QStringLiteral("confirmCall")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(call->state(), CallView::State::Done, 10000);
        auto *progress = call->findChild<QLabel *>(QStringLiteral("callProgressText"));
        QVERIFY(progress);
        QVERIFY2(progress->text().startsWith(QStringLiteral("1 of 2 \u2014 half")),
                 qPrintable(progress->text()));
        for (QLabel *label : call->findChildren<QLabel *>()) {
            QVERIFY2(hiddenIn(label->text()).isEmpty(),
                     qPrintable(tool + QStringLiteral(": ") + label->objectName() + QStringLiteral(": ") +
                                describeCodePoints(hiddenIn(label->text()))));
        }
        call->close();
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

// Issue 33: the item pane says what the definitions lint finds in the selected tool, above its
// schema (the demo's poisoned scenario), and says nothing of an ordinary one.
void tst_HostileWindow::itemLintBesideItsSchema()
{
    ListView *list = m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("poisoned")});
    QVERIFY(list);
    QTRY_VERIFY_WITH_TIMEOUT(list->model()->walker()->isComplete(), 10000);
    auto rowOf = [list](const QString &name) {
        for (int row = 0; row < list->model()->rowCount(); ++row) {
            if (list->model()->item(row).value(QStringLiteral("name")).toString() == name)
                return row;
        }
        return -1;
    };
    auto lintShownFor = [&](const QString &name) -> QString {
        const int row = rowOf(name);
        if (row < 0)
            return QStringLiteral("(no row for %1)").arg(name);
        list->table()->setCurrentIndex(list->table()->model()->index(row, 0));
        auto *lint = list->findChild<QLabel *>(QStringLiteral("rowItemLint"));
        auto *why = list->findChild<QTextEdit *>(QStringLiteral("rowItemLintText"));
        if (!lint || !why)
            return QStringLiteral("(no lint label)");
        // The ids above the item; their messages in the Lint tab.
        return lint->isVisibleTo(list) ? lint->text() + QLatin1Char('\n') + why->toPlainText() : QString();
    };
    const QString hidden = lintShownFor(QStringLiteral("summarize_channel"));
    QVERIFY2(hidden.contains(QStringLiteral("hidden-characters")), qPrintable(hidden));
    QVERIFY2(hidden.contains(QStringLiteral("U+200B")), qPrintable(hidden));
    QVERIFY2(hiddenIn(hidden).isEmpty(), "the lint's own text shows no hidden character raw");
    const QString instructions = lintShownFor(QStringLiteral("get_team"));
    QVERIFY2(instructions.contains(QStringLiteral("model-instructions")), qPrintable(instructions));
    QVERIFY2(instructions.contains(QStringLiteral("sensitive-file")), qPrintable(instructions));
    auto *tabs = list->findChild<QTabWidget *>(QStringLiteral("rowItemTabs"));
    auto *why = list->findChild<QTextEdit *>(QStringLiteral("rowItemLintText"));
    QVERIFY(tabs->isTabVisible(tabs->indexOf(why)));
    QCOMPARE(tabs->tabText(tabs->indexOf(why)), QStringLiteral("Lint (1)"));
    Q_EMIT list->findChild<QLabel *>(QStringLiteral("rowItemLint"))->linkActivated(QStringLiteral("#lint"));
    QCOMPARE(tabs->currentWidget(), why); // "why" leads to the messages
    const QString schema = lintShownFor(QStringLiteral("find_member"));
    QVERIFY2(schema.contains(QStringLiteral("schema-unportable")), qPrintable(schema));
    if (const QString dir = qEnvironmentVariable("FOLIO_SCREENSHOT_DIR"); !dir.isEmpty()) {
        lintShownFor(QStringLiteral("get_team"));
        QTRY_VERIFY(list->findChild<QLabel *>(QStringLiteral("rowItemLint"))->isVisible());
        const bool dark = m_fixture.window()->palette().color(QPalette::Window).lightness() < 128;
        QVERIFY(m_fixture.window()->grab().save(QDir(dir).filePath(
            dark ? QStringLiteral("item-lint-dark.png") : QStringLiteral("item-lint-light.png"))));
    }
    QCOMPARE(lintShownFor(QStringLiteral("search_posts")), QString()); // an ordinary tool: nothing
    QVERIFY(!tabs->isTabVisible(tabs->indexOf(why)));
}

QTEST_MAIN(tst_HostileWindow)
#include "tst_hostilewindow.moc"
