#include "auditpanel.h"
#include "auditresult.h"
#include "serverconfig.h"
#include "serversession.h"
#include "testsettings.h"
#include "ttlclock.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTreeWidget>

using namespace folio;

namespace {

ServerConfig demoConfig()
{
    ServerConfig config;
    config.name = QStringLiteral("demo");
    return config;
}

// The panel on the session of a server named "demo", not connected.
struct PanelOnSession
{
    PanelOnSession() { panel.setSession(&session); }

    ServerSession session{demoConfig(), nullptr, nullptr};
    AuditPanel panel;
};

} // namespace

// The audit dock's tree: Copy and Copy as JSON on the selected rows (a list's report, a finding);
// the session keeps the result, and its findings join the session's, marked as the audit's.
class tst_AuditPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { testsupport::useEmptyTestSettings("tst_auditpanel"); }
    void copyRowsAndJson();
    void sessionKeepsTheResult();
    void walksAreSetAndRemembered();

private:
    static AuditResult loopResult();
};

AuditResult tst_AuditPanel::loopResult()
{
    AuditResult result;
    AuditedList list;
    list.id = QStringLiteral("tools");
    list.pages = 3;
    list.complete = true;
    Finding f;
    f.id = FindingId::CursorRepeated;
    f.severity = Finding::Severity::Error;
    f.pages = {2, 1};
    f.message = QStringLiteral("Page 3 returned the cursor already sent for page 2");
    f.evidence = {{QStringLiteral("firstSentForPage"), 2}};
    list.findings << f;
    result.lists << list;
    return result;
}

void tst_AuditPanel::copyRowsAndJson()
{
    PanelOnSession f;
    AuditPanel &panel = f.panel;
    panel.showResult(loopResult());

    QTreeWidget *tree = panel.tree();
    QVERIFY(tree->actions().contains(panel.copyActions().copy));
    QVERIFY(tree->actions().contains(panel.copyActions().copyJson));
    QTreeWidgetItem *top = tree->topLevelItem(0);
    QTreeWidgetItem *finding = top->child(0);

    tree->setCurrentItem(finding);
    panel.copyActions().copy->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(),
             QStringLiteral("cursor-repeated\terror\t3\tPage 3 returned the cursor already sent for page 2"));
    panel.copyActions().copyJson->trigger();
    const QJsonObject json = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object();
    QCOMPARE(json.value(QStringLiteral("id")).toString(), QStringLiteral("cursor-repeated"));
    QCOMPARE(json.value(QStringLiteral("list")).toString(), QStringLiteral("tools"));
    QCOMPARE(json.value(QStringLiteral("page")).toInt(), 3); // numbered from 1, as the Page column
    QCOMPARE(json.value(QStringLiteral("pages")).toArray(), (QJsonArray{3, 2}));
    QCOMPARE(json.value(QStringLiteral("source")).toString(), QStringLiteral("audit"));

    // The list and its finding together: an array, the list's report first.
    tree->clearSelection();
    top->setSelected(true);
    finding->setSelected(true);
    panel.copyActions().copyJson->trigger();
    const QJsonArray both = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).array();
    QCOMPARE(both.size(), 2);
    QCOMPARE(both.at(0).toObject().value(QStringLiteral("list")).toString(), QStringLiteral("tools"));
    QCOMPARE(both.at(0).toObject().value(QStringLiteral("pages")).toInt(), 3);
    QCOMPARE(both.at(1).toObject().value(QStringLiteral("id")).toString(), QStringLiteral("cursor-repeated"));
    panel.copyActions().copy->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text().count(QLatin1Char('\n')), 1);
}

void tst_AuditPanel::sessionKeepsTheResult()
{
    PanelOnSession f;
    ServerSession &session = f.session;
    AuditPanel &panel = f.panel;
    QCOMPARE(panel.tree()->topLevelItemCount(), 0);
    QVERIFY(!panel.runButton()->isEnabled()); // not connected
    QVERIFY(panel.statusText().contains(QLatin1String("Connect to the server first")));

    // No list of the session walked it: the audit's finding is the session's, marked as the audit's.
    QSignalSpy findingsChanged(&session, &ServerSession::findingsChanged);
    session.setAuditResult(loopResult());
    QCOMPARE(findingsChanged.size(), 1);
    QCOMPARE(session.findingCount(), 1);
    QCOMPARE(session.worstSeverity(), Finding::Severity::Error);
    QCOMPARE(session.findingListIds(), QStringList{QStringLiteral("tools")});
    const QList<Finding> tools = session.findings(QStringLiteral("tools"));
    QCOMPARE(tools.size(), 1);
    QCOMPARE(tools.first().source, Finding::Source::Audit);
    QCOMPARE(tools.first().pages, (QList<int>{2, 1}));

    // The panel follows the session: its tree shows the result, and forgets it with the session.
    QCOMPARE(panel.tree()->topLevelItemCount(), 1);
    QCOMPARE(panel.findingCount(), 1);
    QVERIFY(panel.statusText().startsWith(QLatin1String("Audit complete")));
    session.clearAuditResult();
    QCOMPARE(session.findingCount(), 0);
    QCOMPARE(panel.tree()->topLevelItemCount(), 0);
    QCOMPARE(panel.findingCount(), 0);
}

// Issue 33: the window's audit walks each list as many times as the panel says (folio audit
// --walks N), pausing between walks as it says, and remembers both.
void tst_AuditPanel::walksAreSetAndRemembered()
{
    TtlClock clock;
    ServerConfig config = ServerConfig::process(QStringLiteral(FOLIO_DEMO_SERVER),
                                                {QStringLiteral("--scenario"), QStringLiteral("healthy"),
                                                 QStringLiteral("--resources"), QStringLiteral("40")});
    config.name = QStringLiteral("demo");
    ServerSession session(config, &clock, nullptr);
    AuditPanel panel;
    panel.setSession(&session);
    QCOMPARE(panel.walksBox()->value(), 2); // the default, as folio audit's
    QCOMPARE(panel.pauseBox()->value(), 0);
    QCOMPARE(panel.pauseBox()->text(), QStringLiteral("no pause"));
    session.connectToServer();
    QTRY_VERIFY_WITH_TIMEOUT(session.state() == ClientState::Connected, 10000);

    auto audit = [&](int walks) {
        panel.walksBox()->setValue(walks);
        QStringList said;
        QObject context;
        connect(&session, &ServerSession::auditProgressed, &context,
                [&said](const QString &message) { said << message; });
        panel.start();
        if (!panel.isRunning() || panel.walksBox()->isEnabled())
            return QStringList{QStringLiteral("did not start, or left the walks editable")};
        if (!QTest::qWaitFor([&panel] { return !panel.isRunning(); }, 60000))
            return QStringList{QStringLiteral("did not end")};
        return said;
    };
    const QStringList three = audit(3);
    QVERIFY2(three.filter(QStringLiteral("walk 3 of 3")).size() >= 4,
             qPrintable(three.join(QLatin1Char('\n'))));
    QVERIFY(panel.walksBox()->isEnabled());
    const QStringList one = audit(1);
    QVERIFY2(one.filter(QStringLiteral("walking again")).isEmpty(), qPrintable(one.join(QLatin1Char('\n'))));
    QVERIFY(!one.isEmpty());
    QVERIFY(!panel.pauseBox()->isEnabled()); // no later walk to pause before

    // Remembered: the next panel (the next start of Folio) starts from them.
    panel.walksBox()->setValue(4);
    panel.pauseBox()->setValue(30);
    AuditPanel next;
    QCOMPARE(next.walksBox()->value(), 4);
    QCOMPARE(next.pauseBox()->value(), 30);
    QCOMPARE(next.pauseBox()->text(), QStringLiteral("30 s apart"));
}

QTEST_MAIN(tst_AuditPanel)
#include "tst_auditpanel.moc"
