#include "auditdialog.h"
#include "auditresult.h"
#include "serverconfig.h"
#include "serversession.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QTreeWidget>

using namespace folio;

// The audit window's tree: Copy and Copy as JSON on the selected rows (a list's report, a finding).
class tst_AuditDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void copyRowsAndJson();
};

void tst_AuditDialog::copyRowsAndJson()
{
    ServerConfig config;
    config.name = QStringLiteral("demo");
    ServerSession session(config, nullptr, nullptr);
    AuditDialog dialog(&session);
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
    dialog.showResult(result);

    QTreeWidget *tree = dialog.tree();
    QVERIFY(tree->actions().contains(dialog.copyActions().copy));
    QVERIFY(tree->actions().contains(dialog.copyActions().copyJson));
    QTreeWidgetItem *top = tree->topLevelItem(0);
    QTreeWidgetItem *finding = top->child(0);

    tree->setCurrentItem(finding);
    dialog.copyActions().copy->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(),
             QStringLiteral("cursor-repeated\terror\t3\tPage 3 returned the cursor already sent for page 2"));
    dialog.copyActions().copyJson->trigger();
    const QJsonObject json = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object();
    QCOMPARE(json.value(QStringLiteral("id")).toString(), QStringLiteral("cursor-repeated"));
    QCOMPARE(json.value(QStringLiteral("list")).toString(), QStringLiteral("tools"));
    QCOMPARE(json.value(QStringLiteral("page")).toInt(), 3); // numbered from 1, as the Page column
    QCOMPARE(json.value(QStringLiteral("pages")).toArray(), (QJsonArray{3, 2}));

    // The list and its finding together: an array, the list's report first.
    tree->clearSelection();
    top->setSelected(true);
    finding->setSelected(true);
    dialog.copyActions().copyJson->trigger();
    const QJsonArray both = QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).array();
    QCOMPARE(both.size(), 2);
    QCOMPARE(both.at(0).toObject().value(QStringLiteral("list")).toString(), QStringLiteral("tools"));
    QCOMPARE(both.at(0).toObject().value(QStringLiteral("pages")).toInt(), 3);
    QCOMPARE(both.at(1).toObject().value(QStringLiteral("id")).toString(), QStringLiteral("cursor-repeated"));
    dialog.copyActions().copy->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text().count(QLatin1Char('\n')), 1);
}

QTEST_MAIN(tst_AuditDialog)
#include "tst_auditdialog.moc"
