// The import dialog shows what each server would run and which secrets go to the keychain, every
// secret masked; what it hands on still carries them, for ServerListModel to save.
#include "importdialog.h"

#include <QLabel>
#include <QTest>
#include <QTreeWidget>

using namespace folio;

class tst_ImportDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void secretsAreShownMasked();
};

void tst_ImportDialog::secretsAreShownMasked()
{
    ImportDialog dialog;
    dialog.setJson(R"({"mcpServers":{
        "remote":{"url":"https://example.test/mcp","headers":{"Authorization":"Bearer tst-secret-bearer-0123456789"}},
        "local":{"command":"npx","args":["-y","pkg"],"env":{"API_KEY":"tst-secret-key-0123456789","DEBUG":"1"}}}})");
    auto *preview = dialog.findChild<QTreeWidget *>(QStringLiteral("preview"));
    QVERIFY(preview);
    QCOMPARE(preview->topLevelItemCount(), 2);
    for (int i = 0; i < preview->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = preview->topLevelItem(i);
        for (int c = 0; c < ImportDialog::ColumnCount; ++c) {
            QVERIFY2(!item->text(c).contains(QLatin1String("tst-secret")), qPrintable(item->text(c)));
            QVERIFY2(!item->toolTip(c).contains(QLatin1String("tst-secret")), qPrintable(item->toolTip(c)));
        }
    }
    const QList<QTreeWidgetItem *> local = preview->findItems(QStringLiteral("local"), Qt::MatchExactly);
    const QList<QTreeWidgetItem *> remote = preview->findItems(QStringLiteral("remote"), Qt::MatchExactly);
    QCOMPARE(local.size(), 1);
    QCOMPARE(remote.size(), 1);
    QCOMPARE(local.first()->text(ImportDialog::SecretsColumn), QStringLiteral("API_KEY tst-… (25 chars)"));
    QVERIFY2(local.first()
                 ->text(ImportDialog::RunsColumn)
                 .startsWith(QStringLiteral("API_KEY='tst-… (25 chars)' DEBUG=1 npx")),
             qPrintable(local.first()->text(ImportDialog::RunsColumn)));
    QCOMPARE(remote.first()->text(ImportDialog::SecretsColumn),
             QStringLiteral("bearer token tst-… (28 chars)"));
    const QString status = dialog.findChild<QLabel *>(QStringLiteral("status"))->text();
    QVERIFY2(status.contains(QStringLiteral("system keychain")), qPrintable(status));

    // Handed on whole: the model saves them in the keychain.
    const QList<ServerConfig> chosen = dialog.selected();
    QCOMPARE(chosen.size(), 2);
    for (const ServerConfig &c : chosen) {
        if (c.hasUrl()) {
            QCOMPARE(c.bearerToken, QStringLiteral("tst-secret-bearer-0123456789"));
            QVERIFY(c.headers.isEmpty());
        } else {
            QCOMPARE(c.envHeld, QStringList{QStringLiteral("API_KEY")});
            QCOMPARE(c.environment.value(QStringLiteral("API_KEY")),
                     QStringLiteral("tst-secret-key-0123456789"));
        }
    }
}

QTEST_MAIN(tst_ImportDialog)
#include "tst_importdialog.moc"
