// The server dialog's message-size limit: shown in whole MiB, and a saved limit that is not a
// whole MiB is kept unless the user changes it. Where its secrets are: in the keychain, kept for
// this session only (and why), or none, shown only masked.
#include "fakesecretstore.h"
#include "serverdialog.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "testsettings.h"
#include "ttlclock.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
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
        ServerConfig c = ServerConfig::process(QStringLiteral("npx"));
        c.name = QStringLiteral("files");
        c.maxMessageBytes = maxBytes;
        return c;
    }

    static ServerConfig httpServer()
    {
        ServerConfig c = ServerConfig::remote(QUrl(QStringLiteral("https://example.test/mcp")));
        c.name = QStringLiteral("remote");
        return c;
    }

    static QString tokenNote(ServerDialog &dialog)
    {
        return dialog.findChild<QLabel *>(QStringLiteral("tokenNote"))->text();
    }

    // The label shows all of its text at the width it has: wrapped, not cut off.
    static bool fits(const QLabel *label) { return label->height() >= label->heightForWidth(label->width()); }

private Q_SLOTS:
    void initTestCase() { testsupport::useEmptyTestSettings("tst_serverdialog"); }

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

    void walkLimitHasTheDefaultAndIsSaved()
    {
        ServerDialog dialog;
        dialog.setConfig(stdioServer(ServerConfig::DefaultMaxMessageBytes));
        auto *box = dialog.findChild<QSpinBox *>(QStringLiteral("maxWalk"));
        QVERIFY(box);
        QCOMPARE(box->value(), 256);
        QCOMPARE(dialog.config().maxWalkBytes, ServerConfig::DefaultMaxWalkBytes);
        box->setValue(1024);
        const ServerConfig edited = dialog.config();
        QCOMPARE(edited.maxWalkBytes, qint64(1024) * 1024 * 1024);
        QCOMPARE(ServerConfig::fromJson(edited.toJson()).maxWalkBytes, edited.maxWalkBytes);
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

    void tokenPlaceIsTold_data()
    {
        QTest::addColumn<bool>("inKeychain");
        QTest::addColumn<QString>("held");
        QTest::addColumn<QString>("refusal");
        QTest::addColumn<QStringList>("says");
        QTest::addRow("saved_in_keychain")
            << true << QString() << QString() << QStringList{QStringLiteral("Saved in the system keychain.")};
        QTest::addRow("session_only_refused")
            << false << QStringLiteral("tst-token-held-0123456789")
            << QStringLiteral("No keychain is available.")
            << QStringList{
                   QStringLiteral("Kept for this session only (tst-… (25 chars))"),
                   QStringLiteral("the keychain refused it, Save tries again. No keychain is available.")};
        QTest::addRow("none") << false << QString() << QString()
                              << QStringList{QStringLiteral("No token saved.")};
    }

    void tokenPlaceIsTold()
    {
        QFETCH(bool, inKeychain);
        QFETCH(QString, held);
        QFETCH(QString, refusal);
        QFETCH(QStringList, says);
        ServerConfig c = httpServer();
        c.tokenInKeychain = inKeychain;
        c.bearerToken = held;
        c.keychainRefusal = refusal;
        ServerDialog dialog;
        dialog.setConfig(c);
        const QString note = tokenNote(dialog);
        for (const QString &said : std::as_const(says))
            QVERIFY2(note.contains(said), qPrintable(note));
        if (!held.isEmpty())
            QVERIFY2(!note.contains(held), "the note shows the whole token");
        auto *token = dialog.findChild<QLineEdit *>(QStringLiteral("token"));
        QVERIFY(token->text().isEmpty()); // never filled in, not even as dots
        // Untouched, the token stays where it is.
        const ServerConfig out = dialog.config();
        QCOMPARE(out.tokenInKeychain, inKeychain);
        QCOMPARE(out.bearerToken, held);
    }

    void typedTokenIsNotClaimedSaved()
    {
        ServerConfig c = httpServer();
        c.tokenInKeychain = true;
        ServerDialog dialog;
        dialog.setConfig(c);
        auto *token = dialog.findChild<QLineEdit *>(QStringLiteral("token"));
        QTest::keyClicks(token, QStringLiteral("tst-token-new"));
        ServerConfig out = dialog.config();
        QCOMPARE(out.bearerToken, QStringLiteral("tst-token-new"));
        QVERIFY(!out.tokenInKeychain); // not yet: ServerListModel saves it, or says it could not
        QCOMPARE(tokenNote(dialog), QStringLiteral("Saved in the system keychain when you save."));
        token->selectAll();
        QTest::keyClick(token, Qt::Key_Delete);
        out = dialog.config();
        QVERIFY(out.bearerToken.isEmpty());
        QVERIFY(!out.tokenInKeychain);
        QVERIFY(tokenNote(dialog).contains(QStringLiteral("forgotten")));
    }

    void secretEnvironmentIsMasked()
    {
        ServerConfig c = stdioServer(ServerConfig::DefaultMaxMessageBytes);
        c.environment = {{QStringLiteral("DEBUG"), QStringLiteral("1")},
                         {QStringLiteral("GITHUB_TOKEN"), QStringLiteral("tst-secret-held-0123456789")}};
        c.envHeld = {QStringLiteral("GITHUB_TOKEN")};
        c.envInKeychain = {QStringLiteral("API_KEY")};
        c.keychainRefusal = QStringLiteral("Access to the keychain was denied.");
        ServerDialog dialog;
        dialog.setConfig(c);
        const QString text = dialog.findChild<QPlainTextEdit *>(QStringLiteral("environment"))->toPlainText();
        QVERIFY2(!text.contains(QStringLiteral("tst-secret")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("GITHUB_TOKEN=tst-… (26 chars)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("API_KEY=") + ServerDialog::keychainMark()), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("DEBUG=1")), qPrintable(text));
        auto *envNote = dialog.findChild<QLabel *>(QStringLiteral("envNote"));
        QVERIFY(!envNote->isHidden());
        QVERIFY2(envNote->text().contains(QStringLiteral("In the system keychain: API_KEY.")),
                 qPrintable(envNote->text()));
        QVERIFY2(
            envNote->text().contains(QStringLiteral("Kept for this session only: GITHUB_TOKEN. The keychain "
                                                    "refused it: Access to the keychain was denied.")),
            qPrintable(envNote->text()));

        // Left as shown, each stays where it is.
        const ServerConfig out = dialog.config();
        QCOMPARE(out.envInKeychain, QStringList{QStringLiteral("API_KEY")});
        QVERIFY(!out.environment.contains(QStringLiteral("API_KEY")));
        QCOMPARE(out.envHeld, QStringList{QStringLiteral("GITHUB_TOKEN")});
        QCOMPARE(out.environment.value(QStringLiteral("GITHUB_TOKEN")),
                 QStringLiteral("tst-secret-held-0123456789"));

        // Without secrets the note is not there.
        ServerDialog plain;
        plain.setConfig(stdioServer(ServerConfig::DefaultMaxMessageBytes));
        QVERIFY(plain.findChild<QLabel *>(QStringLiteral("envNote"))->isHidden());
    }

    // Saved as a new user would, with a keychain that refuses: said in the list and the dialog,
    // kept for this session only, still used at connect, and not in the settings file.
    void refusedKeychainIsToldAndTheTokenKept()
    {
        QSettings().clear();
        TtlClock clock;
        FakeSecretStore keychain(QStringLiteral("Folio-test"));
        keychain.refuse = SecretStore::Failure::NoBackend;
        ServerListModel servers(&clock, &keychain);
        QSignalSpy refused(&servers, &ServerListModel::keychainRefused);

        ServerDialog add;
        ServerConfig fresh;
        fresh.nameFromServer = true;
        add.setConfig(fresh);
        add.findChild<QLineEdit *>(QStringLiteral("name"))->setText(QStringLiteral("remote"));
        add.findChild<QComboBox *>(QStringLiteral("kind"))->setCurrentIndex(1); // HTTP
        add.findChild<QLineEdit *>(QStringLiteral("url"))
            ->setText(QStringLiteral("https://example.test/mcp"));
        const QString token = QStringLiteral("tst-token-refused-0123456789");
        QTest::keyClicks(add.findChild<QLineEdit *>(QStringLiteral("token")), token);
        const int row = servers.addServer(add.config());

        QVERIFY(refused.wait());
        const QString message = refused.first().at(1).toString();
        QVERIFY2(message.startsWith(QStringLiteral("remote: token kept for this session only — the keychain "
                                                   "refused it: No keychain is available")),
                 qPrintable(message));
        QVERIFY(servers.index(row)
                    .data(ServerListModel::SecretNoteRole)
                    .toString()
                    .contains(QStringLiteral("this session only")));
        QCOMPARE(servers.session(row)->config().bearerToken, token); // what its connect sends
        QVERIFY(!servers.session(row)->config().tokenInKeychain);
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.contains("remote"));
        QVERIFY(!bytes.contains(token.toUtf8()));

        // The edit dialog tells the truth, in full, at its width.
        ServerDialog edit;
        edit.setConfig(servers.session(row)->config());
        edit.show();
        QVERIFY(QTest::qWaitForWindowExposed(&edit));
        auto *note = edit.findChild<QLabel *>(QStringLiteral("tokenNote"));
        QVERIFY2(note->text().startsWith(
                     QStringLiteral("Kept for this session only (tst-… (28 chars)): the "
                                    "keychain refused it, Save tries again. No keychain is available")),
                 qPrintable(note->text()));
        QVERIFY(!note->text().contains(token));
        QVERIFY2(fits(note), qPrintable(QStringLiteral("%1 px for %2 px of text")
                                            .arg(note->height())
                                            .arg(note->heightForWidth(note->width()))));
        QVERIFY(edit.findChild<QLineEdit *>(QStringLiteral("token"))
                    ->placeholderText()
                    .contains(QStringLiteral("this session only")));
        // Saved again untouched, the token is still held (and the keychain tried again).
        const int storesBefore = keychain.stores;
        servers.updateServer(row, edit.config());
        QCOMPARE(keychain.stores, storesBefore + 1);
        QVERIFY(refused.wait());
        QCOMPARE(servers.session(row)->config().bearerToken, token);
    }
};

QTEST_MAIN(tst_ServerDialog)
#include "tst_serverdialog.moc"
