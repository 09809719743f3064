// The server dialog's message-size limit: shown in whole MiB, and a saved limit that is not a
// whole MiB is kept unless the user changes it.
#include "serverdialog.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSpinBox>
#include <QTest>

using namespace folio;

class tst_ServerDialog : public QObject
{
    Q_OBJECT

private:
    static QSpinBox *limitBox(ServerDialog &dialog)
    {
        const QList<QSpinBox *> boxes = dialog.findChildren<QSpinBox *>();
        for (QSpinBox *box : boxes) {
            if (box->suffix().contains(QLatin1String("MiB")))
                return box;
        }
        return nullptr;
    }

    static ServerConfig stdioServer(qint64 maxBytes)
    {
        ServerConfig c;
        c.name = QStringLiteral("files");
        c.kind = ServerConfig::Kind::Stdio;
        c.command = QStringLiteral("npx");
        c.maxMessageBytes = maxBytes;
        return c;
    }

private Q_SLOTS:
    void newServerHasTheDefault()
    {
        ServerDialog dialog;
        dialog.setConfig(stdioServer(ServerConfig::DefaultMaxMessageBytes));
        QSpinBox *box = limitBox(dialog);
        QVERIFY(box);
        QCOMPARE(box->value(), 64);
        QCOMPARE(dialog.config().maxMessageBytes, ServerConfig::DefaultMaxMessageBytes);
    }

    void unevenLimitIsKeptUntilEdited()
    {
        const qint64 uneven = 3 * 1024 * 1024 / 2; // 1.5 MiB, as a saved file may say
        ServerDialog dialog;
        dialog.setConfig(stdioServer(uneven));
        QSpinBox *box = limitBox(dialog);
        QVERIFY(box);
        QCOMPARE(box->value(), 1);
        QCOMPARE(dialog.config().maxMessageBytes, uneven);
        box->setValue(2);
        QCOMPARE(dialog.config().maxMessageBytes, qint64(2) * 1024 * 1024);
        box->setValue(1); // back to what it showed for the saved limit: that limit stays
        QCOMPARE(dialog.config().maxMessageBytes, uneven);
    }

    void argumentsRoundTrip_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addRow("plain") << QStringList{QStringLiteral("-y"), QStringLiteral("pkg"),
                                              QStringLiteral("stdio")};
        QTest::addRow("spaces") << QStringList{QStringLiteral("--root"), QStringLiteral("/home/me/My Files")};
        QTest::addRow("quotes") << QStringList{QStringLiteral("--json"), QStringLiteral("{\"a\": \"b c\"}")};
        QTest::addRow("quote alone") << QStringList{QStringLiteral("say\"hi")};
    }

    void argumentsRoundTrip()
    {
        QFETCH(QStringList, arguments);
        ServerConfig c = stdioServer(ServerConfig::DefaultMaxMessageBytes);
        c.arguments = arguments;
        ServerDialog dialog;
        dialog.setConfig(c);
        QCOMPARE(dialog.config().arguments, arguments);
        QCOMPARE(QProcess::splitCommand(ServerDialog::joinArguments(arguments)), arguments);
    }

    void pastedCommandLineIsSplit()
    {
        ServerDialog dialog;
        dialog.setConfig(stdioServer(ServerConfig::DefaultMaxMessageBytes));
        auto *command = dialog.findChild<QLineEdit *>(QStringLiteral("command"));
        auto *arguments = dialog.findChild<QLineEdit *>(QStringLiteral("arguments"));
        QCOMPARE(command->text(), QStringLiteral("npx"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const QSize size = dialog.size();
        // Typing does not split half a word...
        command->clear();
        command->setFocus();
        QTest::keyClicks(command, QStringLiteral("node -"));
        QCOMPARE(command->text(), QStringLiteral("node -"));
        // ...a paste does: the program stays, the rest goes before the arguments.
        command->clear();
        arguments->setText(QStringLiteral("--verbose"));
        QApplication::clipboard()->setText(QStringLiteral("npx -y \"@scope/server with space\" stdio"));
        command->paste();
        QCOMPARE(command->text(), QStringLiteral("npx"));
        QCOMPARE(dialog.config().command, QStringLiteral("npx"));
        QCOMPARE(dialog.config().arguments,
                 (QStringList{QStringLiteral("-y"), QStringLiteral("@scope/server with space"),
                              QStringLiteral("stdio"), QStringLiteral("--verbose")}));
        // Saved straight after typing a whole line: split the same way.
        command->setText(QStringLiteral("uvx mcp-server-git"));
        arguments->clear();
        QCOMPARE(dialog.config().command, QStringLiteral("uvx"));
        QCOMPARE(dialog.config().arguments, QStringList{QStringLiteral("mcp-server-git")});
        // A problem comes and goes without the dialog changing size.
        command->clear();
        QApplication::processEvents();
        QCOMPARE(dialog.size(), size);
        auto *problem = dialog.findChild<QLabel *>(QStringLiteral("problem"));
        QCOMPARE(problem->text(), QStringLiteral("Say which program to start."));
        QVERIFY(problem->isVisible());
    }

    void emptyNameMeansTheServersOwn()
    {
        ServerDialog dialog;
        ServerConfig c = stdioServer(ServerConfig::DefaultMaxMessageBytes);
        c.command = QStringLiteral("/usr/bin/node");
        c.nameFromServer = true;
        dialog.setConfig(c);
        auto *name = dialog.findChild<QLineEdit *>(QStringLiteral("name"));
        QVERIFY(name->text().isEmpty()); // to be named by what it says it is
        QVERIFY(!name->placeholderText().isEmpty());
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("problem"))->text().isEmpty()); // allowed
        ServerConfig out = dialog.config();
        QVERIFY(out.nameFromServer);
        QCOMPARE(out.name, QStringLiteral("node"));
        name->setText(QStringLiteral("my files")); // named by the user: for good
        out = dialog.config();
        QVERIFY(!out.nameFromServer);
        QCOMPARE(out.name, QStringLiteral("my files"));
    }

    void problemIsReadableInBothPalettes()
    {
        for (const bool dark : {false, true}) {
            ServerDialog dialog;
            QPalette p = dialog.palette();
            if (dark) {
                p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
                p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
                dialog.setPalette(p);
            }
            ServerConfig c = stdioServer(ServerConfig::DefaultMaxMessageBytes);
            c.command.clear();
            dialog.setConfig(c);
            QLabel *problem = nullptr;
            for (QLabel *l : dialog.findChildren<QLabel *>()) {
                if (l->text().startsWith(QLatin1String("Say which program")))
                    problem = l;
            }
            QVERIFY(problem);
            const QColor text = problem->palette().color(QPalette::WindowText);
            const QColor window = dialog.palette().color(QPalette::Window);
            // Clearly apart in lightness from the window behind it.
            QVERIFY2(qAbs(text.lightness() - window.lightness()) > 60,
                     qPrintable(QStringLiteral("%1 on %2").arg(text.name(), window.name())));
        }
    }
};

QTEST_MAIN(tst_ServerDialog)
#include "tst_serverdialog.moc"
