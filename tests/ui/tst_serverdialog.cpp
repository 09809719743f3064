// The server dialog's message-size limit: shown in whole MiB, and a saved limit that is not a
// whole MiB is kept unless the user changes it.
#include "serverdialog.h"

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
};

QTEST_MAIN(tst_ServerDialog)
#include "tst_serverdialog.moc"
