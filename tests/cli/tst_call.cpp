// folio call and folio get-prompt end to end: the real folio binary against the real demo server,
// checking exit codes, what is printed and what is said on stderr. (What their --help says is
// checked with every command's, in tst_cli's help().)

#include "fixtureprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString demoServer = QStringLiteral(FOLIO_DEMO_SERVER);
using fixtureprocess::folioBinary;

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
    QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
};

QStringList demo(const QString &scenario = QStringLiteral("healthy"))
{
    return {QStringLiteral("--"), demoServer, QStringLiteral("--scenario"), scenario};
}

} // namespace

class tst_Call : public QObject
{
    Q_OBJECT

    Run folio(const QStringList &arguments)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_config.path());
        env.remove(QStringLiteral("QT_LOGGING_RULES"));
        const fixtureprocess::Run run = fixtureprocess::folio(arguments, env, 60000);
        return {run.exitCode, QString::fromUtf8(run.out), QString::fromUtf8(run.err)};
    }

    QTemporaryDir m_config;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(folioBinary), qPrintable(folioBinary));
        QVERIFY(m_config.isValid());
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("says");
        QTest::newRow("no tool") << (QStringList{QStringLiteral("call")} + demo())
                                 << QStringLiteral("which tool?");
        QTest::newRow("args not an object")
            << (QStringList{QStringLiteral("call"), QStringLiteral("get_post"), QStringLiteral("--args"),
                            QStringLiteral("[1]")} +
                demo())
            << QStringLiteral("--args wants a JSON object");
        QTest::newRow("prompt argument not a string")
            << (QStringList{QStringLiteral("get-prompt"), QStringLiteral("summarize_channel"),
                            QStringLiteral("--args"), QStringLiteral("{\"channel\":3}")} +
                demo())
            << QStringLiteral("a prompt's arguments are strings");
        QTest::newRow("bad format") << (QStringList{QStringLiteral("call"), QStringLiteral("get_post"),
                                                    QStringLiteral("--format"), QStringLiteral("csv")} +
                                        demo())
                                    << QStringLiteral("--format is text or json");
        QTest::newRow("no target") << QStringList{QStringLiteral("call"), QStringLiteral("get_post")}
                                   << QStringLiteral("folio call:");
    }

    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, says);
        const Run run = folio(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(says), qPrintable(run.err));
    }

    void callPrintsTheText()
    {
        const Run run =
            folio(QStringList{QStringLiteral("call"), QStringLiteral("get_post"), QStringLiteral("--args"),
                              QStringLiteral("{\"post_id\":\"p00007\"}")} +
                  demo());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QStringLiteral("p00007")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("structuredContent:")));
        QVERIFY(!run.out.contains(QStringLiteral("\"content\""))); // the text, not the result's JSON
    }

    void callJsonIsTheResult()
    {
        const Run run =
            folio(QStringList{QStringLiteral("call"), QStringLiteral("get_post"), QStringLiteral("--args"),
                              QStringLiteral("{\"post_id\":\"p00007\"}"), QStringLiteral("--format"),
                              QStringLiteral("json")} +
                  demo());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const QJsonArray content = run.json().value(QStringLiteral("content")).toArray();
        QCOMPARE(content.size(), 1);
        QCOMPARE(run.json()
                     .value(QStringLiteral("structuredContent"))
                     .toObject()
                     .value(QStringLiteral("id"))
                     .toString(),
                 QStringLiteral("p00007"));
        QCOMPARE(content.first().toObject().value(QStringLiteral("type")).toString(), QStringLiteral("text"));
    }

    void callAListTool()
    {
        // A list tool is a tool too: called once, its structuredContent printed.
        const Run run = folio(QStringList{QStringLiteral("call"), QStringLiteral("list_users"),
                                          QStringLiteral("--args"), QStringLiteral("{\"limit\":2}"),
                                          QStringLiteral("--format"), QStringLiteral("json")} +
                              demo());
        QVERIFY2(run.exitCode == 0 || run.exitCode == 1, qPrintable(run.err));
        QVERIFY2(!run.json().isEmpty(), qPrintable(run.out));
    }

    void argumentsThatDoNotFitAreSaidAndSent()
    {
        const Run run = folio(QStringList{QStringLiteral("call"), QStringLiteral("get_post")} + demo());
        QVERIFY2(
            run.err.contains(QStringLiteral("do not fit the inputSchema at post_id: required, and missing")),
            qPrintable(run.err));
        // The server judges them: the demo server answers anyway, or refuses with -32602 (exit 1).
        QVERIFY(run.exitCode == 0 || run.exitCode == 1);
    }

    void outputSchemaMismatchExitsOne()
    {
        const Run run = folio(QStringList{QStringLiteral("call"), QStringLiteral("audit_role"),
                                          QStringLiteral("--args"), QStringLiteral("{\"role_id\":\"r1\"}")} +
                              demo());
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("structuredContent does not match the outputSchema at "
                                                 "findings: expected an array, got a string")),
                 qPrintable(run.err));
        QVERIFY(run.out.contains(QStringLiteral("structuredContent:"))); // still printed
    }

    void isErrorExitsOne()
    {
        const Run run =
            folio(QStringList{QStringLiteral("call"), QStringLiteral("get_post"), QStringLiteral("--args"),
                              QStringLiteral("{\"post_id\":\"nope\"}")} +
                  demo());
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("isError: true")), qPrintable(run.err));
        QVERIFY(!run.out.isEmpty()); // the tool's own message, printed
    }

    void imagesAreSummarised()
    {
        const Run run =
            folio(QStringList{QStringLiteral("call"), QStringLiteral("preview_file"),
                              QStringLiteral("--args"), QStringLiteral("{\"file_id\":\"f1.png\"}")} +
                  demo());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QStringLiteral("[image: image/png, ")), qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("[link ")), qPrintable(run.out));
    }

    void unknownToolIsNotOffered()
    {
        const Run run = folio(QStringList{QStringLiteral("call"), QStringLiteral("no_such_tool")} + demo());
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("the server has no tool named 'no_such_tool'")),
                 qPrintable(run.err));
    }

    void getPromptPrintsTheMessages()
    {
        const Run run =
            folio(QStringList{QStringLiteral("get-prompt"), QStringLiteral("summarize_channel"),
                              QStringLiteral("--args"), QStringLiteral("{\"channel\":\"help-android\"}")} +
                  demo());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QStringLiteral("── user ──")), qPrintable(run.out));
        QVERIFY(run.out.contains(QStringLiteral("help-android")));
        QVERIFY2(run.out.contains(QStringLiteral("[resource chat://channels/help-android")),
                 qPrintable(run.out));
    }

    void getPromptJson()
    {
        const Run run =
            folio(QStringList{QStringLiteral("get-prompt"), QStringLiteral("summarize_channel"),
                              QStringLiteral("--args"), QStringLiteral("{\"channel\":\"help-android\"}"),
                              QStringLiteral("--format"), QStringLiteral("json")} +
                  demo());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.json().value(QStringLiteral("messages")).toArray().size() >= 1);
    }

    void getPromptServerErrorExitsOne()
    {
        // The required argument missing: the server refuses (-32602), a failure at the server.
        const Run run =
            folio(QStringList{QStringLiteral("get-prompt"), QStringLiteral("summarize_channel")} + demo());
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("-32602")), qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(tst_Call)
#include "tst_call.moc"
