#include "interophelpers.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QTest>

// The official MCP conformance harness (@modelcontextprotocol/conformance, pinned in tests/peers)
// runs Folio's real client, through the app's headless `folio conformance-client URL` entry point,
// against its client scenarios. The harness's scenario servers listen on every interface, so this
// runs only inside tests/in-netns's loopback-only network namespace.
class tst_Conformance : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void clientScenario_data();
    void clientScenario();
    // `folio auth login` itself as the client of the sign-in-without-a-person scenarios: the
    // credentials given as its options (tests/conformance/folio-auth-login.py).
    void authLogin_data();
    void authLogin();

private:
    void runScenario(const QString &command, const QString &scenario, const QString &specVersion);
};

namespace {

constexpr char harness[] = "node_modules/@modelcontextprotocol/conformance/dist/index.js";

QString folioBinary()
{
    return QStringLiteral(FOLIO_BINARY_DIR "/app/folio");
}

QString resultsRoot()
{
    return QStringLiteral(FOLIO_BINARY_DIR "/tests/interop/conformance-results");
}

// One line per check whose status is `wanted` (FAILURE, WARNING, ...), with what the harness said.
QStringList checksWithStatus(const QJsonArray &checks, const QString &wanted)
{
    QStringList lines;
    for (const QJsonValue &v : checks) {
        const QJsonObject c = v.toObject();
        const QString status = c.value(QStringLiteral("status")).toString();
        if (status != wanted)
            continue;
        lines << QStringLiteral("%1 %2: %3 %4")
                     .arg(status, c.value(QStringLiteral("id")).toString(),
                          c.value(QStringLiteral("description")).toString(),
                          c.value(QStringLiteral("errorMessage")).toString());
    }
    return lines;
}

} // namespace

void tst_Conformance::initTestCase()
{
    FOLIO_REQUIRE_PEERS(QString::fromLatin1(harness));
    QVERIFY2(
        QFileInfo(folioBinary()).isExecutable(),
        qPrintable(QStringLiteral("%1 is not built (cmake --build ... --target folio)").arg(folioBinary())));
    // The harness splits --command on spaces.
    QVERIFY2(!folioBinary().contains(QLatin1Char(' ')),
             qPrintable(QStringLiteral("the harness cannot run a command whose path has spaces: ") +
                        folioBinary()));
}

void tst_Conformance::clientScenario_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("specVersion");
    // Every scored client scenario of both revisions, auth/* included (the sign-in: the harness's
    // authorization server redirects at once, and conformance-client follows it to its listener).
    const QString legacy = QStringLiteral("2025-11-25");
    const QString modern = QStringLiteral("2026-07-28");
    for (const char *name : {"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry",
                             "json-schema-2020-12-preservation"})
        QTest::newRow(qPrintable(QLatin1String(name) + QLatin1Char('@') + legacy))
            << QString::fromLatin1(name) << legacy;
    for (const char *name : {"tools_call", "request-metadata", "sep-2322-client-request-state",
                             "http-standard-headers", "http-custom-headers", "http-invalid-tool-headers",
                             "json-schema-ref-no-deref", "json-schema-2020-12-preservation"})
        QTest::newRow(qPrintable(QLatin1String(name) + QLatin1Char('@') + modern))
            << QString::fromLatin1(name) << modern;
    // The skills extension's client scenarios (SEP-2640): skills listed and nothing read ahead;
    // a skill whose SKILL.md fails its digest, size or frontmatter check is never used further.
    for (const char *name : {"sep-2640-client-no-prefetch", "sep-2640-client-verify-digest",
                             "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"})
        QTest::newRow(qPrintable(QLatin1String(name) + QStringLiteral("@extension")))
            << QString::fromLatin1(name) << QString();
    // The authorization extensions: sign-in without a person (client credentials with a secret and
    // with a private_key_jwt assertion, a workload's JWT, an enterprise ID token exchanged for an
    // ID-JAG) and DPoP-bound tokens, with and without the servers' nonces.
    for (const char *name :
         {"auth/client-credentials-basic", "auth/client-credentials-jwt", "auth/wif-jwt-bearer",
          "auth/enterprise-managed-authorization", "auth/dpop", "auth/dpop-nonce"})
        QTest::newRow(qPrintable(QLatin1String(name) + QStringLiteral("@extension")))
            << QString::fromLatin1(name) << QString();
    const QStringList bothAuth{QStringLiteral("metadata-default"),
                               QStringLiteral("metadata-var1"),
                               QStringLiteral("metadata-var2"),
                               QStringLiteral("metadata-var3"),
                               QStringLiteral("basic-cimd"),
                               QStringLiteral("scope-from-www-authenticate"),
                               QStringLiteral("scope-from-scopes-supported"),
                               QStringLiteral("scope-omitted-when-undefined"),
                               QStringLiteral("scope-step-up"),
                               QStringLiteral("scope-retry-limit"),
                               QStringLiteral("token-endpoint-auth-basic"),
                               QStringLiteral("token-endpoint-auth-post"),
                               QStringLiteral("token-endpoint-auth-none"),
                               QStringLiteral("pre-registration")};
    const QStringList modernAuth{QStringLiteral("resource-mismatch"),
                                 QStringLiteral("offline-access-scope"),
                                 QStringLiteral("offline-access-not-supported"),
                                 QStringLiteral("authorization-server-migration"),
                                 QStringLiteral("iss-supported"),
                                 QStringLiteral("iss-not-advertised"),
                                 QStringLiteral("iss-supported-missing"),
                                 QStringLiteral("iss-wrong-issuer"),
                                 QStringLiteral("iss-unexpected"),
                                 QStringLiteral("iss-normalized"),
                                 QStringLiteral("metadata-issuer-mismatch")};
    for (const QString &version : {legacy, modern}) {
        for (const QString &name : bothAuth + (version == modern ? modernAuth : QStringList())) {
            const QString scenario = QStringLiteral("auth/") + name;
            QTest::newRow(qPrintable(scenario + QLatin1Char('@') + version)) << scenario << version;
        }
    }
}

void tst_Conformance::clientScenario()
{
    QFETCH(QString, scenario);
    QFETCH(QString, specVersion);
    runScenario(folioBinary() + QStringLiteral(" conformance-client"), scenario, specVersion);
}

void tst_Conformance::authLogin_data()
{
    QTest::addColumn<QString>("scenario");
    for (const char *name : {"auth/client-credentials-basic", "auth/client-credentials-jwt",
                             "auth/wif-jwt-bearer", "auth/enterprise-managed-authorization"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void tst_Conformance::authLogin()
{
    QFETCH(QString, scenario);
    runScenario(QStringLiteral("python3 " FOLIO_SOURCE_DIR "/tests/conformance/folio-auth-login.py ") +
                    folioBinary(),
                scenario, QString());
}

void tst_Conformance::runScenario(const QString &command, const QString &scenario, const QString &specVersion)
{
    FOLIO_REQUIRE_LOOPBACK_ONLY_NETNS();

    const QString tag = QString::fromLatin1(QTest::currentDataTag());
    QDir results(resultsRoot() + QLatin1Char('/') + QString(tag).replace(QLatin1Char('/'), QLatin1Char('_')));
    QVERIFY(results.removeRecursively());
    QVERIFY(QDir().mkpath(results.path()));

    QStringList arguments{interop::peerFile(QString::fromLatin1(harness)),
                          QStringLiteral("client"),
                          QStringLiteral("--command"),
                          command,
                          QStringLiteral("--scenario"),
                          scenario,
                          QStringLiteral("--timeout"),
                          QStringLiteral("30000"),
                          QStringLiteral("--output-dir"),
                          results.path()};
    if (!specVersion.isEmpty())
        arguments << QStringLiteral("--spec-version") << specVersion;

    interop::ServerProcess run;
    run.start(interop::node22(), arguments, {}, interop::peersDir());
    // The harness prints its verdict, then exits with 0 only when every check passed.
    const QRegularExpressionMatch summary = run.waitForOutput(
        QRegularExpression(QStringLiteral("Passed: (\\d+)/(\\d+), (\\d+) failed, (\\d+) warnings")), 60000);
    QTRY_VERIFY2_WITH_TIMEOUT(!run.isRunning(), qPrintable(run.output()), 10000);
    QVERIFY2(summary.hasMatch(),
             qPrintable(QStringLiteral("no summary line from the harness:\n") + run.output()));
    qInfo("%s: %s", qPrintable(tag), qPrintable(summary.captured(0)));

    // What each check said, from the harness's own results file.
    // The harness writes <scenario>-<time>/checks.json (auth/<name>-<time>/ for the auth ones).
    QStringList found;
    for (QDirIterator it(results.path(), {QStringLiteral("checks.json")}, QDir::Files,
                         QDirIterator::Subdirectories);
         it.hasNext();)
        found.append(it.next());
    QVERIFY2(found.size() == 1,
             qPrintable(QStringLiteral("results in %1: %2").arg(results.path(), found.join(u' '))));
    QFile checksFile(found.constFirst());
    QVERIFY2(checksFile.open(QIODevice::ReadOnly), qPrintable(checksFile.fileName()));
    const QJsonArray checks = QJsonDocument::fromJson(checksFile.readAll()).array();
    QVERIFY2(!checks.isEmpty(), "the scenario ran no checks (skipped as not applicable?)");
    const QStringList failed = checksWithStatus(checks, QStringLiteral("FAILURE"));
    const QStringList warnings = checksWithStatus(checks, QStringLiteral("WARNING"));
    for (const QString &line : failed + warnings)
        qWarning("%s", qPrintable(line));

    const int passed = summary.captured(1).toInt();
    const int total = summary.captured(2).toInt();
    QVERIFY2(total > 0, qPrintable(run.output()));
    QVERIFY2(summary.captured(3).toInt() == 0 && passed == total,
             qPrintable(failed.join(u'\n') + QStringLiteral("\n--- harness output ---\n") + run.output()));
    QVERIFY2(failed.isEmpty(), qPrintable(failed.join(u'\n')));
    QCOMPARE(run.exitCode(), 0);
}

QTEST_GUILESS_MAIN(tst_Conformance)
#include "tst_conformance.moc"
