// Calling a tool and getting a prompt from the window, on the real demo server (offscreen, QTest
// input): a read-only tool is called through its form and its result shown; a tool that may
// delete things asks first, and declining sends nothing; a prompt is got with its argument and its
// message shown; a slow call shows its progress where its result will be, and is cancelled there;
// a tool's argument suggests what was given it before, in a new window too.
#include "callview.h"
#include "contentblocks.h"
#include "listview.h"
#include "mainwindow.h"
#include "pagedlistmodel.h"
#include "promptview.h"
#include "schemaform.h"
#include "serversession.h"
#include "serverview.h"
#include "settingskeys.h"
#include "taskboard.h"
#include "tasksview.h"
#include "trafficlog.h"
#include "windowfixture.h"
#include "wraplabel.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCheckBox>
#include <QCompleter>
#include <QDeadlineTimer>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace folio;

class tst_CallView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void callsAReadOnlyToolThroughItsForm();
    void aDestructiveToolAsksFirst();
    void getsAPromptWithItsArgument();
    void aMismatchAndMixedContentAreShown();
    void aListToolIsCalledOnce();
    void aRunningCallShowsItsProgressInTheResultPane();
    void aToolArgumentSuggestsWhatWasGivenBefore();
    void aLongTaskDrainsInTheTasksTab_data();
    void aLongTaskDrainsInTheTasksTab();
    void aTaskIsCancelledFromTheTasksTab();

private:
    ListView *openDemo(const QString &listId)
    {
        return m_fixture.openDemoList({QStringLiteral("--scenario"), QStringLiteral("healthy")}, listId);
    }
    // Selects the row whose first column is name, once the list has it.
    bool selectRow(ListView *list, const QString &name);
    int sentCount(const QString &method) const;
    // The tools list's definition of name, once the list has it.
    QJsonObject toolNamed(ListView *list, const QString &name);
    ServerView *serverView() const { return m_fixture.serverView(); }

    WindowFixture m_fixture;
};

void tst_CallView::initTestCase()
{
    WindowFixture::initSettings("tst_callview");
}

void tst_CallView::cleanup()
{
    m_fixture.reset();
}

bool tst_CallView::selectRow(ListView *list, const QString &name)
{
    // Rows arrive page by page; each try asks for the next page.
    return QTest::qWaitFor(
        [list, &name] {
            QAbstractItemModel *model = list->table()->model();
            for (int row = 0; row < model->rowCount(); ++row) {
                if (model->index(row, 0).data().toString() == name) {
                    list->table()->setFocus();
                    list->table()->setCurrentIndex(model->index(row, 0));
                    return true;
                }
            }
            if (list->model()->canFetchMore({}))
                list->model()->fetchMore({});
            return false;
        },
        10000);
}

QJsonObject tst_CallView::toolNamed(ListView *list, const QString &name)
{
    if (!selectRow(list, name))
        return {};
    for (int row = 0; row < list->model()->rowCount(); ++row) {
        if (list->model()->item(row).value(QStringLiteral("name")).toString() == name)
            return list->model()->item(row);
    }
    return {};
}

int tst_CallView::sentCount(const QString &method) const
{
    int n = 0;
    const QVector<TrafficLog::Entry> &entries = serverView()->session()->client()->trafficLog()->entries();
    for (const TrafficLog::Entry &e : entries) {
        if (e.method == method && e.direction == TrafficLog::Direction::Outgoing)
            ++n;
    }
    return n;
}

void tst_CallView::callsAReadOnlyToolThroughItsForm()
{
    ListView *list = openDemo(QStringLiteral("tools"));
    QVERIFY(list);
    QVERIFY(selectRow(list, QStringLiteral("get_post")));
    QTest::keyClick(list->table(), Qt::Key_Return, Qt::ControlModifier);
    CallView *call = nullptr;
    QTRY_VERIFY((call = serverView()->findChild<CallView *>()));
    QVERIFY(QTest::qWaitForWindowExposed(call));
    QCOMPARE(call->findChild<QLabel *>(QStringLiteral("callToolName"))->text(), QStringLiteral("get_post"));
    QVERIFY(!call->asksFirst());
    // The required id, typed into its field; Call sends at once (read-only).
    auto *id = call->form()->findChild<QLineEdit *>(QStringLiteral("field:post_id"));
    QVERIFY(id);
    QVERIFY(!call->form()->problem().isEmpty()); // required, and empty
    QTest::keyClicks(id, QStringLiteral("p00042"));
    QCOMPARE(call->form()->problem(), QString());
    QTest::mouseClick(call->findChild<QPushButton *>(QStringLiteral("callButton")), Qt::LeftButton);
    QTRY_COMPARE(call->state(), CallView::State::Done);
    QVERIFY(call->run());
    QCOMPARE(call->run()->params().value(QStringLiteral("arguments")).toObject(),
             (QJsonObject{{QStringLiteral("post_id"), QStringLiteral("p00042")}}));
    auto *status = call->findChild<QLabel *>(QStringLiteral("callStatus"));
    QVERIFY2(status->text().startsWith(QLatin1String("Done:")), qPrintable(status->text()));
    auto *blocks = call->findChild<ContentBlocks *>();
    QCOMPARE(blocks->blockCount(), 1);
    auto *text = blocks->findChild<QLabel *>(QStringLiteral("blockText"));
    QVERIFY(text);
    QVERIFY2(text->text().contains(QLatin1String("p00042")), qPrintable(text->text()));
    // Its structuredContent, checked against its outputSchema.
    QCOMPARE(call->findChild<QLabel *>(QStringLiteral("callSchemaCheck"))->text(),
             QStringLiteral("Matches the tool's outputSchema."));
    // The round trip, raw.
    QTest::mouseClick(call->findChild<QToolButton *>(QStringLiteral("rawToggle")), Qt::LeftButton);
    QVERIFY(call->findChild<QWidget *>(QStringLiteral("callRaw"))->isVisible());
}

void tst_CallView::aDestructiveToolAsksFirst()
{
    ListView *list = openDemo(QStringLiteral("tools"));
    QVERIFY(list);
    QVERIFY(selectRow(list, QStringLiteral("delete_post")));
    list->table()->scrollTo(list->table()->currentIndex());
    const QPoint at = list->table()->visualRect(list->table()->currentIndex()).center();
    // A double-click is a press and a release, then the double-click event.
    QTest::mouseClick(list->table()->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(list->table()->viewport(), Qt::LeftButton, {}, at);
    CallView *call = nullptr;
    QTRY_VERIFY((call = serverView()->findChild<CallView *>()));
    QCOMPARE(serverView()->findChildren<CallView *>().size(), 1); // one window per tool
    QVERIFY(call->asksFirst());
    // Its shortcuts are the active window's (offscreen, a new window is not activated for us; and
    // the main window's own Ctrl+Return connects).
    QApplication::setActiveWindow(call);
    QTRY_COMPARE(QApplication::activeWindow(), call);
    QVERIFY(CallView::riskText(call->tool()).contains(QLatin1String("change or delete")));
    call->form()->findChild<QLineEdit *>(QStringLiteral("field:post_id"))->setText(QStringLiteral("p00001"));
    const int before = sentCount(QStringLiteral("tools/call"));
    QTest::keyClick(call->form()->findChild<QLineEdit *>(QStringLiteral("field:post_id")), Qt::Key_Return,
                    Qt::ControlModifier);
    QCOMPARE(call->state(), CallView::State::Confirming);
    QVERIFY(call->findChild<QWidget *>(QStringLiteral("callConfirm"))->isVisible());
    // Declining sends nothing.
    QTest::mouseClick(call->findChild<QPushButton *>(QStringLiteral("confirmCancel")), Qt::LeftButton);
    QCOMPARE(call->state(), CallView::State::Idle);
    QVERIFY(!call->run());
    // A wrong send would go before the confirmed one below, on the same connection: the count
    // after that one says whether declining sent anything.
    QCOMPARE(sentCount(QStringLiteral("tools/call")), before);
    // Confirming calls it.
    QTest::mouseClick(call->findChild<QPushButton *>(QStringLiteral("callButton")), Qt::LeftButton);
    QCOMPARE(call->state(), CallView::State::Confirming);
    QTest::mouseClick(call->findChild<QPushButton *>(QStringLiteral("confirmCall")), Qt::LeftButton);
    QTRY_COMPARE(call->state(), CallView::State::Done);
    QCOMPARE(sentCount(QStringLiteral("tools/call")), before + 1);
}

void tst_CallView::getsAPromptWithItsArgument()
{
    ListView *list = openDemo(QStringLiteral("prompts"));
    QVERIFY(list);
    QVERIFY(selectRow(list, QStringLiteral("summarize_channel")));
    // The arguments column reads as names, the required marked.
    const QModelIndex current = list->table()->currentIndex();
    QCOMPARE(current.siblingAtColumn(3).data().toString(), QStringLiteral("channel*, since, style"));
    // The description is shown last, where the table stretches it; the model keeps its order.
    QCOMPARE(list->table()->model()->headerData(2, Qt::Horizontal).toString(), QStringLiteral("Description"));
    QCOMPARE(list->table()->horizontalHeader()->visualIndex(2), 3);
    QTest::keyClick(list->table(), Qt::Key_Return, Qt::ControlModifier);
    PromptView *prompt = nullptr;
    QTRY_VERIFY((prompt = serverView()->findChild<PromptView *>()));
    QLineEdit *channel = prompt->argumentEdit(QStringLiteral("channel"));
    QVERIFY(channel);
    QVERIFY(!prompt->problem().isEmpty());
    // Completed through completion/complete as it is typed.
    QSignalSpy completed(prompt, &PromptView::completionsArrived);
    QTest::keyClicks(channel, QStringLiteral("help-an"));
    QVERIFY(completed.wait(5000));
    QTRY_VERIFY(prompt->completions(QStringLiteral("channel")).contains(QStringLiteral("help-android")));
    channel->setText(QStringLiteral("help-android"));
    QCOMPARE(prompt->problem(), QString());
    QTest::mouseClick(prompt->findChild<QPushButton *>(QStringLiteral("getPrompt")), Qt::LeftButton);
    QTRY_VERIFY(prompt->run() && prompt->run()->isFinished());
    QTRY_VERIFY(prompt->messageCount() >= 1);
    auto *role = prompt->findChild<QLabel *>(QStringLiteral("messageRole"));
    QVERIFY(role);
    QCOMPARE(role->text(), QStringLiteral("user"));
    auto *text = prompt->findChild<QLabel *>(QStringLiteral("blockText"));
    QVERIFY(text);
    QVERIFY2(text->text().contains(QLatin1String("help-android")), qPrintable(text->text()));
}

void tst_CallView::aMismatchAndMixedContentAreShown()
{
    ListView *list = openDemo(QStringLiteral("tools"));
    QVERIFY(list);
    QJsonObject auditRole, reactions;
    // Both rows loaded, wherever their pages are (the walk may still be on its way).
    QTRY_VERIFY(selectRow(list, QStringLiteral("audit_role")));
    QTRY_VERIFY(selectRow(list, QStringLiteral("summarize_reactions")));
    for (int row = 0; row < list->model()->rowCount(); ++row) {
        const QJsonObject tool = list->model()->item(row);
        if (tool.value(QStringLiteral("name")) == QLatin1String("audit_role"))
            auditRole = tool;
        if (tool.value(QStringLiteral("name")) == QLatin1String("summarize_reactions"))
            reactions = tool;
    }
    QVERIFY(!auditRole.isEmpty() && !reactions.isEmpty());
    CallView *mismatch = serverView()->openCallView(auditRole);
    mismatch->form()->setValues({{QStringLiteral("role_id"), QStringLiteral("r1")}});
    mismatch->call(); // read-only: at once
    QTRY_COMPARE(mismatch->state(), CallView::State::Done);
    const QString check = mismatch->findChild<QLabel *>(QStringLiteral("callSchemaCheck"))->text();
    QVERIFY2(check.startsWith(QLatin1String("Does not match the tool's outputSchema:")), qPrintable(check));
    QVERIFY2(check.contains(QLatin1String("findings: expected an array, got a string")), qPrintable(check));
    QVERIFY2(check.contains(QLatin1String("score: expected an integer, got a string")), qPrintable(check));

    CallView *mixed = serverView()->openCallView(reactions);
    mixed->form()->setValues({{QStringLiteral("reaction_id"), QStringLiteral("p00042")}});
    mixed->call();
    QTRY_COMPARE(mixed->state(), CallView::State::Done);
    QStringList types;
    const QList<QWidget *> blocks = mixed->findChildren<QWidget *>(QStringLiteral("contentBlock"));
    for (QWidget *b : blocks)
        types << b->property("blockType").toString();
    QCOMPARE(types, (QStringList{QStringLiteral("text"), QStringLiteral("image"), QStringLiteral("resource"),
                                 QStringLiteral("resource_link")}));
    QLabel *image = mixed->findChild<QLabel *>(QStringLiteral("blockImage"));
    QVERIFY(image && !image->pixmap().isNull());
    QCOMPARE(mixed->findChild<QLabel *>(QStringLiteral("callSchemaCheck"))->text(),
             QStringLiteral("Matches the tool's outputSchema."));

    // A window of its own, on its screen: Close, Ctrl+W and Esc close it.
    QVERIFY(mixed->isWindow());
    QVERIFY2(mixed->screen()->availableGeometry().contains(mixed->geometry()),
             qPrintable(QStringLiteral("%1,%2 %3x%4 in %5x%6")
                            .arg(mixed->geometry().x())
                            .arg(mixed->geometry().y())
                            .arg(mixed->width())
                            .arg(mixed->height())
                            .arg(mixed->screen()->availableGeometry().width())
                            .arg(mixed->screen()->availableGeometry().height())));
    QPointer<CallView> closing(mixed);
    QVERIFY(mixed->findChild<QPushButton *>(QStringLiteral("callClose"))->isVisible());
    mixed->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(mixed));
    QTest::keyClick(mixed->form(), Qt::Key_Escape);
    QTRY_VERIFY(!closing);
    QPointer<CallView> again(serverView()->openCallView(reactions));
    again->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(again));
    QTest::keySequence(again.data(), QKeySequence::Close);
    QTRY_VERIFY(!again);
    QPointer<CallView> third(serverView()->openCallView(reactions));
    third->findChild<QPushButton *>(QStringLiteral("callClose"))->click();
    QTRY_VERIFY(!third);
    QPointer<CallView> mismatchView(mismatch);
    mismatch->close();
    QTRY_VERIFY(!mismatchView);
}

void tst_CallView::aListToolIsCalledOnce()
{
    ListView *tools = openDemo(QStringLiteral("tools"));
    QVERIFY(tools);
    (void)QTest::qWaitFor(
        [this, tools] {
            if (serverView()->listView(QStringLiteral("tool:list_users")))
                return true;
            if (tools->model()->canFetchMore({}))
                tools->model()->fetchMore({});
            return false;
        },
        10000);
    ListView *list = serverView()->listView(QStringLiteral("tool:list_users"));
    QVERIFY(list);
    auto *once = list->findChild<QToolButton *>(QStringLiteral("invokeButton"));
    QVERIFY(once);
    list->requestInvoke();
    CallView *call = nullptr;
    QTRY_VERIFY((call = serverView()->findChild<CallView *>()));
    QCOMPARE(call->tool().value(QStringLiteral("name")).toString(), QStringLiteral("list_users"));
    call->call();
    if (call->state() == CallView::State::Confirming)
        QTest::mouseClick(call->findChild<QPushButton *>(QStringLiteral("confirmCall")), Qt::LeftButton);
    QTRY_COMPARE(call->state(), CallView::State::Done);
    QVERIFY(
        call->findChild<QLabel *>(QStringLiteral("callStatus"))->text().startsWith(QLatin1String("Done:")));
}

void tst_CallView::aRunningCallShowsItsProgressInTheResultPane()
{
    ListView *list = openDemo(QStringLiteral("tools"));
    QVERIFY(list);
    const QJsonObject playbook = toolNamed(list, QStringLiteral("run_playbook"));
    QVERIFY(!playbook.isEmpty());
    CallView *call = serverView()->openCallView(playbook);
    QVERIFY(QTest::qWaitForWindowExposed(call));
    auto *stack = call->findChild<QWidget *>(QStringLiteral("emptyState"))->parentWidget();
    auto *results = qobject_cast<QStackedWidget *>(stack);
    QVERIFY(results);
    QCOMPARE(results->currentWidget()->objectName(), QStringLiteral("emptyState"));
    // Ten steps of 400 ms: slow enough to look at, and each step says how far it got.
    call->form()->setValues({{QStringLiteral("playbook_id"), QStringLiteral("pb-1")},
                             {QStringLiteral("steps"), 10},
                             {QStringLiteral("stepMs"), 400}});
    call->call();
    if (call->state() == CallView::State::Confirming)
        QTest::mouseClick(call->findChild<QPushButton *>(QStringLiteral("confirmCall")), Qt::LeftButton);
    QCOMPARE(call->state(), CallView::State::Running);

    // The result pane says the call runs, not "Fill in the arguments…".
    auto *running = call->findChild<QWidget *>(QStringLiteral("callRunning"));
    QVERIFY(running);
    QCOMPARE(results->currentWidget(), running);
    QVERIFY(running->isVisible());
    QVERIFY(!call->findChild<QWidget *>(QStringLiteral("emptyState"))->isVisible());
    QCOMPARE(call->findChild<QLabel *>(QStringLiteral("callWorking"))->text(),
             QStringLiteral("Calling run_playbook…"));
    auto *bar = call->findChild<QProgressBar *>(QStringLiteral("callProgress"));
    QVERIFY(bar && bar->isVisible());
    QVERIFY(running->isAncestorOf(bar));
    // The server's progress: how far, of what, and its message.
    auto *progressText = call->findChild<QLabel *>(QStringLiteral("callProgressText"));
    QTRY_VERIFY_WITH_TIMEOUT(bar->maximum() > 0 && bar->value() > 0, 5000);
    QVERIFY2(progressText->text().contains(QStringLiteral(" of 100 — Step ")),
             qPrintable(progressText->text()));
    // Wide enough to read: more than the old 200 px strip, within the pane.
    QVERIFY2(bar->width() > 300, qPrintable(QString::number(bar->width())));
    QVERIFY(call->findChild<QLabel *>(QStringLiteral("callElapsed"))
                ->text()
                .startsWith(QLatin1String("Running for")));
    // grab() of the window mid-call, for a person to look at.
    if (const QString shot = qEnvironmentVariable("FOLIO_CALL_RUNNING_SHOT"); !shot.isEmpty())
        call->grab().save(shot);

    // Cancel is there, in the pane, and cancels.
    auto *cancel = call->findChild<QPushButton *>(QStringLiteral("cancelCall"));
    QVERIFY(cancel && cancel->isVisible() && running->isAncestorOf(cancel));
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_COMPARE(call->state(), CallView::State::Done);
    QVERIFY(call->run()->outcome() == InvocationRun::Outcome::Cancelled);
    QVERIFY(!running->isVisible());
    const QString status = call->findChild<QLabel *>(QStringLiteral("callStatus"))->text();
    QVERIFY2(status.startsWith(QLatin1String("Cancelled")), qPrintable(status));
    QVERIFY(call->findChild<QLabel *>(QStringLiteral("callStatus"))->isVisible());

    // A second call runs in the same place, and its result replaces it.
    call->form()->setValues({{QStringLiteral("playbook_id"), QStringLiteral("pb-2")},
                             {QStringLiteral("steps"), 2},
                             {QStringLiteral("stepMs"), 50}});
    call->call();
    if (call->state() == CallView::State::Confirming)
        QTest::mouseClick(call->findChild<QPushButton *>(QStringLiteral("confirmCall")), Qt::LeftButton);
    QCOMPARE(results->currentWidget(), running);
    QTRY_COMPARE(call->state(), CallView::State::Done);
    QVERIFY(results->currentWidget() != running);
    QVERIFY2(
        call->findChild<QLabel *>(QStringLiteral("callStatus"))->text().startsWith(QLatin1String("Done:")),
        qPrintable(call->findChild<QLabel *>(QStringLiteral("callStatus"))->text()));
}

void tst_CallView::aToolArgumentSuggestsWhatWasGivenBefore()
{
    QSettings().remove(SettingsKey::ToolArgumentsGroup); // what the tests before gave
    ListView *list = openDemo(QStringLiteral("tools"));
    QVERIFY(list);
    const QJsonObject getPost = toolNamed(list, QStringLiteral("get_post"));
    QVERIFY(!getPost.isEmpty());
    QPointer<CallView> first(serverView()->openCallView(getPost));
    QCOMPARE(first->form()->suggestionsFor(QStringLiteral("post_id")), QStringList());
    first->form()->setValues({{QStringLiteral("post_id"), QStringLiteral("p00042")}});
    first->call();
    QTRY_COMPARE(first->state(), CallView::State::Done);
    first->form()->setValues({{QStringLiteral("post_id"), QStringLiteral("p00007")}});
    first->call();
    QTRY_COMPARE(first->state(), CallView::State::Done);
    // In the same form at once, the latest first.
    QCOMPARE(first->form()->suggestionsFor(QStringLiteral("post_id")),
             (QStringList{QStringLiteral("p00007"), QStringLiteral("p00042")}));
    first->close();
    QTRY_VERIFY(!first);

    // A new window for the tool: remembered, and offered as the field's completions.
    CallView *second = serverView()->openCallView(getPost);
    QVERIFY(QTest::qWaitForWindowExposed(second));
    second->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(second));
    auto *id = second->form()->findChild<QLineEdit *>(QStringLiteral("field:post_id"));
    QVERIFY(id && id->completer());
    QCOMPARE(second->form()->suggestionsFor(QStringLiteral("post_id")),
             (QStringList{QStringLiteral("p00007"), QStringLiteral("p00042")}));
    id->setFocus();
    QTRY_VERIFY(id->hasFocus());
    // Down in the empty field lists them all; typing narrows them.
    QTest::keyClick(id, Qt::Key_Down);
    QTRY_VERIFY(id->completer()->popup()->isVisible());
    QCOMPARE(id->completer()->completionCount(), 2);
    QTest::keyClick(id->completer()->popup(), Qt::Key_Escape);
    QTest::keyClicks(id, QStringLiteral("42"));
    QTRY_VERIFY(id->completer()->popup()->isVisible());
    QCOMPARE(id->completer()->completionCount(), 1);
    QCOMPARE(id->completer()->currentCompletion(), QStringLiteral("p00042"));
    // Another tool's field does not offer them.
    CallView *other = serverView()->openCallView(toolNamed(list, QStringLiteral("delete_post")));
    QCOMPARE(other->form()->suggestionsFor(QStringLiteral("post_id")), QStringList());
}

// Issue 34, tasks: sync_group, run as a task from its Call window ("Run as a task"), shows in the
// server's Tasks tab, drains there (its status message moving through the batches, its ttl
// counting down on a bar), and ends completed with its result under the table. In both eras: the
// 2026-07-28 tasks extension and the 2025-11-25 core tasks.
void tst_CallView::aLongTaskDrainsInTheTasksTab_data()
{
    QTest::addColumn<QString>("era");
    QTest::newRow("2026-07-28 tasks extension") << QStringLiteral("modern");
    QTest::newRow("2025-11-25 core tasks") << QStringLiteral("legacy");
}

// The Call window of sync_group, run as a task with durationMs: the Tasks view it went to.
static TasksView *startSyncGroup(WindowFixture &fixture, const QString &era, int durationMs)
{
    ListView *list = fixture.openDemoList(
        {QStringLiteral("--scenario"), QStringLiteral("healthy"), QStringLiteral("--era"), era});
    if (!list)
        return nullptr;
    ServerView *view = fixture.serverView();
    QJsonObject tool;
    const bool found = QTest::qWaitFor(
        [list, &tool] {
            for (int row = 0; row < list->model()->rowCount(); ++row) {
                if (list->model()->item(row).value(QStringLiteral("name")) == QLatin1String("sync_group"))
                    tool = list->model()->item(row);
            }
            if (tool.isEmpty() && list->model()->canFetchMore({}))
                list->model()->fetchMore({});
            return !tool.isEmpty();
        },
        10000);
    if (!found)
        return nullptr;
    CallView *call = view->openCallView(tool);
    if (!call->asTaskBox()->isVisibleTo(call) || call->asTaskBox()->isChecked())
        return nullptr; // offered, and not chosen for the user (the tool's taskSupport is optional)
    call->asTaskBox()->setChecked(true);
    call->form()->findChild<QLineEdit *>(QStringLiteral("field:group_id"))->setText(QStringLiteral("g01"));
    call->form()->findChild<QSpinBox *>(QStringLiteral("field:durationMs"))->setValue(durationMs);
    QTest::mouseClick(call->findChild<QPushButton *>(QStringLiteral("callButton")), Qt::LeftButton);
    // It is not read-only: the window asks first, as for any call.
    if (call->state() == CallView::State::Confirming)
        QTest::mouseClick(call->findChild<QPushButton *>(QStringLiteral("confirmCall")), Qt::LeftButton);
    if (!call->findChild<QLabel *>(QStringLiteral("callTaskNote"))->isVisibleTo(call))
        return nullptr;
    return view->tasksView();
}

void tst_CallView::aLongTaskDrainsInTheTasksTab()
{
    QFETCH(QString, era);
    TasksView *tasks = startSyncGroup(m_fixture, era, 2500);
    QVERIFY(tasks);
    ServerView *view = serverView();
    QCOMPARE(view->currentListId(), ServerSession::TasksId);
    TaskBoard *board = tasks->board();
    QCOMPARE(board->count(), 1);
    QCOMPARE(tasks->currentRow(), 0);
    QVERIFY(!tasks->emptyLabel()->isVisible());
    QTRY_COMPARE_WITH_TIMEOUT(board->record(0).phase, TaskRecord::Phase::Running, 5000);
    // Draining: the batches in the message column and the detail, the ttl counting down.
    QTRY_VERIFY_WITH_TIMEOUT(
        board->index(0, TaskBoard::MessageColumn).data().toString().contains(QLatin1String("batch")), 5000);
    QVERIFY(tasks->refreshButton()->isEnabled());
    QVERIFY(tasks->cancelButton()->isEnabled());
    QVERIFY(!tasks->removeButton()->isEnabled());
    auto *delegate = static_cast<TaskDelegate *>(tasks->table()->itemDelegate());
    const QString ttl = delegate->ttlText(board->index(0, TaskBoard::ExpiresColumn));
    QVERIFY2(ttl.endsWith(QLatin1String(" left")), qPrintable(ttl));
    QVERIFY2(tasks->detailLabel()->text().contains(QLatin1String("sync_group: working")),
             qPrintable(tasks->detailLabel()->text()));
    // Ended: completed, its result shown.
    QTRY_COMPARE_WITH_TIMEOUT(board->record(0).phase, TaskRecord::Phase::Ended, 10000);
    QCOMPARE(board->record(0).task.status, TaskInfo::Status::Completed);
    QCOMPARE(board->index(0, TaskBoard::StatusColumn).data().toString(), QStringLiteral("completed"));
    QTRY_COMPARE(tasks->resultBlocks()->blockCount(), 1);
    auto *text = tasks->resultBlocks()->findChild<QLabel *>(QStringLiteral("blockText"));
    QVERIFY(text);
    QVERIFY2(text->text().contains(QLatin1String("Synchronised group g01")), qPrintable(text->text()));
    QVERIFY(!tasks->refreshButton()->isEnabled());
    QVERIFY(!tasks->cancelButton()->isEnabled());
    QVERIFY(tasks->removeButton()->isEnabled());
    QVERIFY(view->session()->findings(ServerSession::TasksId).isEmpty());
    // Remove forgets it here; the empty state comes back.
    QTest::mouseClick(tasks->removeButton(), Qt::LeftButton);
    QCOMPARE(board->count(), 0);
    QVERIFY(tasks->emptyLabel()->isVisible());
}

// A long task cancelled with Cancel Task: the server stops it, and it ends cancelled.
void tst_CallView::aTaskIsCancelledFromTheTasksTab()
{
    TasksView *tasks = startSyncGroup(m_fixture, QStringLiteral("modern"), 60000);
    QVERIFY(tasks);
    TaskBoard *board = tasks->board();
    QTRY_COMPARE_WITH_TIMEOUT(board->record(0).phase, TaskRecord::Phase::Running, 5000);
    QTest::mouseClick(tasks->cancelButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(board->record(0).task.status, TaskInfo::Status::Cancelled, 5000);
    QCOMPARE(board->record(0).phase, TaskRecord::Phase::Ended);
    QVERIFY2(tasks->detailLabel()->text().contains(QLatin1String("cancel asked")),
             qPrintable(tasks->detailLabel()->text()));
    QCOMPARE(tasks->resultBlocks()->blockCount(), 0);
    QVERIFY(!tasks->cancelButton()->isEnabled());
}

QTEST_MAIN(tst_CallView)

#include "tst_callview.moc"
