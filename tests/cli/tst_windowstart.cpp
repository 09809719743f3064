// The window's start, as the real folio binary does it (app/main.cpp): the server named on the
// command line is started before the window is built, so that it answers while the window is
// made. Its first request must still say what the window answers (elicitation, sampling, roots):
// a 2025-era server hears it only once, in initialize, and a server that is never told cannot
// ask. A shell in front of the demo server writes the first line it was sent.

#include "fixtureprocess.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using fixtureprocess::demoServer;
using fixtureprocess::folioBinary;

class tst_WindowStart : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void firstRequestSaysWhatTheWindowAnswers_data()
    {
        QTest::addColumn<QString>("era");
        QTest::addColumn<QString>("method");
        QTest::addRow("2026-07-28") << QStringLiteral("modern") << QStringLiteral("server/discover");
        QTest::addRow("2025 (initialize)") << QStringLiteral("legacy") << QStringLiteral("initialize");
    }

    void firstRequestSaysWhatTheWindowAnswers()
    {
        QFETCH(QString, era);
        QFETCH(QString, method);
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString firstLine = home.filePath(QStringLiteral("first-request.json"));
        // The shell passes every line on, and writes down the handshake's (the first that names
        // the method: a client may try the other era first).
        const QString relay = QStringLiteral("while IFS= read -r line; do case \"$line\" in *'\"%1\"'*) "
                                             "printf '%s\\n' \"$line\" > \"$0\";; "
                                             "esac; printf '%s\\n' \"$line\"; done | exec \"$@\"")
                                  .arg(method);
        QProcess folio;
        QProcessEnvironment env = fixtureprocess::homeEnvironment(home);
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        folio.setProcessEnvironment(env);
        folio.start(folioBinary, {QStringLiteral("--"), QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                  relay, firstLine, demoServer, QStringLiteral("--era"), era});
        QVERIFY(folio.waitForStarted(10000));
        const auto stop = qScopeGuard([&folio] {
            folio.kill();
            folio.waitForFinished(10000);
        });
        QTRY_VERIFY_WITH_TIMEOUT(QFile(firstLine).size() > 0, 30000);
        QFile file(firstLine);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray line = file.readAll().trimmed();
        const QJsonObject request = QJsonDocument::fromJson(line).object();
        QCOMPARE(request.value(QStringLiteral("method")).toString(), method);
        const QJsonObject params = request.value(QStringLiteral("params")).toObject();
        const QJsonObject capabilities =
            method == QLatin1String("initialize")
                ? params.value(QStringLiteral("capabilities")).toObject()
                : params.value(QStringLiteral("_meta"))
                      .toObject()
                      .value(QStringLiteral("io.modelcontextprotocol/clientCapabilities"))
                      .toObject();
        for (const char *kind : {"elicitation", "sampling", "roots"})
            QVERIFY2(capabilities.contains(QLatin1String(kind)), line.constData());
    }
};

QTEST_GUILESS_MAIN(tst_WindowStart)
#include "tst_windowstart.moc"
