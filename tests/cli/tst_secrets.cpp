// No output of a run shows a known token (issue 29, part 2): the real folio binary against
// folio-fixture-server's echo-secret mode, which echoes the token it was given into serverInfo,
// instructions, a tool description, a cursor, an error message and its stderr. Every command that
// writes something — list, list -v, call, audit (text, json, markdown), report (md, html, json, to
// a file and to stdout), record, replay of that recording — runs over stdio and HTTP, with the
// token given to the server's command line (--token X, env NAME=X), or sent by folio (--token-env,
// --header, ?access_token=). stdout, stderr and every file written are searched for the token.
#include "fixtureprocess.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

using fixtureprocess::fixture;
using fixtureprocess::folio;
using fixtureprocess::HttpFixture;
const QString token = QStringLiteral("tok-Folio-SECRET-4242");
const QByteArray masked = QByteArrayLiteral("[redacted]");

} // namespace

class tst_Secrets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void noOutputShowsTheToken_data();
    void noOutputShowsTheToken();
};

void tst_Secrets::noOutputShowsTheToken_data()
{
    QTest::addColumn<QString>("how");
    QTest::addRow("stdio_argv_token") << QStringLiteral("argv");
    QTest::addRow("stdio_argv_token_equals") << QStringLiteral("argv-equals");
    QTest::addRow("stdio_env_assignment") << QStringLiteral("env");
    QTest::addRow("http_token_env") << QStringLiteral("token-env");
    QTest::addRow("http_header") << QStringLiteral("header");
    QTest::addRow("http_query") << QStringLiteral("query");
}

void tst_Secrets::noOutputShowsTheToken()
{
    QFETCH(QString, how);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("FIXTURE_TOKEN"));

    std::unique_ptr<HttpFixture> http;
    QStringList target;
    const QStringList echo{fixture, QStringLiteral("--mode"), QStringLiteral("echo-secret")};
    if (how == QLatin1String("argv")) {
        target = QStringList{QStringLiteral("--")} + echo + QStringList{QStringLiteral("--token"), token};
    } else if (how == QLatin1String("argv-equals")) {
        target = QStringList{QStringLiteral("--")} + echo + QStringList{QStringLiteral("--token=") + token};
    } else if (how == QLatin1String("env")) {
        target = QStringList{QStringLiteral("--"), QStringLiteral("env"),
                             QStringLiteral("FIXTURE_TOKEN=") + token} +
                 echo;
    } else {
        http = std::make_unique<HttpFixture>(
            QStringList{QStringLiteral("--mode"), QStringLiteral("echo-secret")});
        QVERIFY2(!http->url().isEmpty(), "the HTTP fixture did not start");
        if (how == QLatin1String("token-env")) {
            env.insert(QStringLiteral("FOLIO_TEST_TOKEN"), token);
            target = {QStringLiteral("--url"), http->url(), QStringLiteral("--token-env"),
                      QStringLiteral("FOLIO_TEST_TOKEN")};
        } else if (how == QLatin1String("header")) {
            target = {QStringLiteral("--url"), http->url(), QStringLiteral("--header"),
                      QStringLiteral("X-Api-Key: ") + token};
        } else {
            target = {QStringLiteral("--url"), http->url() + QStringLiteral("?access_token=") + token};
        }
    }
    // The token reaches the server: else this test proves nothing.
    const bool tokenInTarget = how == QLatin1String("argv") || how == QLatin1String("argv-equals") ||
                               how == QLatin1String("env") || how == QLatin1String("query");

    const QString recording = dir.filePath(QStringLiteral("s.folio"));
    struct Step
    {
        QString name;
        QStringList arguments;
        QStringList files;
    };
    auto file = [&](const QString &name) { return dir.filePath(name); };
    const QList<Step> steps{
        {QStringLiteral("list"), {QStringLiteral("list"), QStringLiteral("tools")}, {}},
        {QStringLiteral("list json -v"),
         {QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--format"), QStringLiteral("json"),
          QStringLiteral("-v")},
         {}},
        {QStringLiteral("call"),
         {QStringLiteral("call"), QStringLiteral("first"), QStringLiteral("--args"), QStringLiteral("{}"),
          QStringLiteral("-v")},
         {}},
        {QStringLiteral("audit"), {QStringLiteral("audit"), QStringLiteral("-v")}, {}},
        {QStringLiteral("audit json"),
         {QStringLiteral("audit"), QStringLiteral("--format"), QStringLiteral("json")},
         {}},
        {QStringLiteral("audit markdown"),
         {QStringLiteral("audit"), QStringLiteral("--format"), QStringLiteral("markdown")},
         {}},
        {QStringLiteral("report md"),
         {QStringLiteral("report"), QStringLiteral("-o"), file(QStringLiteral("r.md")), QStringLiteral("-v")},
         {file(QStringLiteral("r.md"))}},
        {QStringLiteral("report html"),
         {QStringLiteral("report"), QStringLiteral("-o"), file(QStringLiteral("r.html"))},
         {file(QStringLiteral("r.html"))}},
        {QStringLiteral("report json"),
         {QStringLiteral("report"), QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-o"),
          file(QStringLiteral("r.json"))},
         {file(QStringLiteral("r.json"))}},
        {QStringLiteral("report stdout"),
         {QStringLiteral("report"), QStringLiteral("--format"), QStringLiteral("md"), QStringLiteral("-o"),
          QStringLiteral("-")},
         {}},
        {QStringLiteral("record"),
         {QStringLiteral("record"), QStringLiteral("-o"), recording, QStringLiteral("-v")},
         {recording}},
    };
    for (const Step &step : steps) {
        const fixtureprocess::Run run = folio(step.arguments + target, env);
        const QByteArray all = run.out + run.err;
        QVERIFY2(run.exitCode >= 0 && run.exitCode != 2,
                 qPrintable(QStringLiteral("%1 exited %2: %3")
                                .arg(step.name)
                                .arg(run.exitCode)
                                .arg(QString::fromUtf8(run.err.right(2000)))));
        QVERIFY2(!run.out.contains(token.toUtf8()),
                 qPrintable(step.name + QStringLiteral(": stdout shows the token")));
        QVERIFY2(!run.err.contains(token.toUtf8()),
                 qPrintable(step.name + QStringLiteral(": stderr shows the token")));
        // The echoes are there, masked: the server's name, its tool's description.
        if (step.files.isEmpty())
            QVERIFY2(all.contains(masked), qPrintable(step.name + QStringLiteral(": nothing masked?")));
        for (const QString &path : step.files) {
            QFile f(path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
            const QByteArray data = f.readAll();
            QVERIFY2(!data.isEmpty(), qPrintable(path));
            QVERIFY2(!data.contains(token.toUtf8()),
                     qPrintable(step.name + QStringLiteral(": the file shows the token")));
            QVERIFY2(data.contains(masked),
                     qPrintable(step.name + QStringLiteral(": nothing masked in the file")));
        }
    }

    // Where the target held the token, it is shown masked: "Started as" in the report, the
    // recording's target.
    if (tokenInTarget) {
        QFile md(file(QStringLiteral("r.md")));
        QVERIFY(md.open(QIODevice::ReadOnly));
        const QByteArray report = md.readAll();
        const qsizetype started = report.indexOf("Started as");
        QVERIFY2(started >= 0, report.left(2000).constData());
        const QByteArray line = report.mid(started, report.indexOf('\n', started) - started);
        QVERIFY2(line.contains(masked), line.constData());
    }
    QFile rec(recording);
    QVERIFY(rec.open(QIODevice::ReadOnly));
    const QJsonObject header = QJsonDocument::fromJson(rec.readLine()).object();
    QVERIFY2(!header.isEmpty(), "the recording's first line is its header");
    const QByteArray headerText = QJsonDocument(header).toJson(QJsonDocument::Compact);
    QVERIFY2(headerText.contains("fixture for [redacted]"), headerText.constData());
    QVERIFY2(headerText.contains("serverInfo, capabilities, instructions"), headerText.constData());
    if (tokenInTarget)
        QVERIFY2(headerText.contains("secret-looking parts of the command line or URL"),
                 headerText.constData());

    // A replay of the recording: no server, the same masks (over HTTP too: a notification's empty
    // 202 body is no receive event any more, and the replay takes the recording).
    for (const QStringList &command : {QStringList{QStringLiteral("list"), QStringLiteral("tools")},
                                       QStringList{QStringLiteral("audit"), QStringLiteral("-v")}}) {
        const fixtureprocess::Run run =
            folio(QStringList{QStringLiteral("replay"), recording} + command, env);
        QVERIFY2(run.exitCode >= 0 && run.exitCode != 2, run.err.constData());
        QVERIFY2(!(run.out + run.err).contains(token.toUtf8()), "a replay shows the token");
    }
}

QTEST_GUILESS_MAIN(tst_Secrets)
#include "tst_secrets.moc"
