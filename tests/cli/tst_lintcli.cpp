// The definitions lint through `folio audit`, end to end with the real binaries: the demo server's
// poisoned scenario shows every lint id (but context-cost, whose threshold the demo's tools stay
// under; tst_definitionlint has it) in every format, with the evidence docs/findings.md promises and
// no hidden character printed raw; the healthy scenario shows none of them. And SARIF 2.1.0, valid
// against its schema, from `folio audit` and `folio list`.

#include "fixtureprocess.h"
#include "terminaltext.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using fixtureprocess::demoServer;
using fixtureprocess::Run;
using folio::hiddenCharacters;

namespace {

const QStringList lintIds{QStringLiteral("hidden-characters"),    QStringLiteral("model-instructions"),
                          QStringLiteral("tool-name-unportable"), QStringLiteral("schema-unportable"),
                          QStringLiteral("default-rejected"),     QStringLiteral("tool-name-collision")};
const QString contextCost = QStringLiteral("context-cost");

// The hidden characters printed as they are: line breaks and tabs are the output's own.
QList<char32_t> printedRaw(const QByteArray &out)
{
    QList<char32_t> found = hiddenCharacters(QString::fromUtf8(out));
    found.removeIf([](char32_t c) { return c == u'\n' || c == u'\t' || c == u'\r'; });
    return found;
}

QStringList demo(const QString &scenario)
{
    return {QStringLiteral("--"), demoServer, QStringLiteral("--scenario"), scenario};
}

Run audit(const QString &format, const QString &scenario, const QStringList &extra = {})
{
    return fixtureprocess::folio(QStringList{QStringLiteral("audit"), QStringLiteral("--format"), format} +
                                 extra + demo(scenario));
}

QJsonObject listOf(const QJsonObject &report, const QString &id)
{
    for (const QJsonValue &v : report.value(QStringLiteral("lists")).toArray()) {
        if (v.toObject().value(QStringLiteral("list")).toString() == id)
            return v.toObject();
    }
    return {};
}

QList<QJsonObject> findingsOf(const QJsonObject &list, const QString &id)
{
    QList<QJsonObject> out;
    for (const QJsonValue &v : list.value(QStringLiteral("findings")).toArray()) {
        if (v.toObject().value(QStringLiteral("id")).toString() == id)
            out << v.toObject();
    }
    return out;
}

QJsonObject evidenceFor(const QJsonObject &list, const QString &id, const QString &item)
{
    for (const QJsonObject &f : findingsOf(list, id)) {
        const QJsonObject e = f.value(QStringLiteral("evidence")).toObject();
        if (e.value(QStringLiteral("item")).toString() == item)
            return e;
    }
    return {};
}

QStringList strings(const QJsonValue &array)
{
    QStringList out;
    for (const QJsonValue &v : array.toArray())
        out << v.toString();
    return out;
}

} // namespace

class TestLintCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void poisonedJson()
    {
        const Run run = audit(QStringLiteral("json"), QStringLiteral("poisoned"));
        QVERIFY2(run.finished, qPrintable(run.describe()));
        QCOMPARE(run.exitCode, 0); // warnings only
        QVERIFY2(printedRaw(run.out).isEmpty(), qPrintable(folio::describeCodePoints(printedRaw(run.out))));
        const QJsonObject report = run.json();
        const QJsonObject tools = listOf(report, QStringLiteral("tools"));
        QVERIFY2(!tools.isEmpty(), qPrintable(run.describe()));

        QSet<QString> seen;
        for (const QJsonValue &v : tools.value(QStringLiteral("findings")).toArray()) {
            const QJsonObject f = v.toObject();
            const QString id = f.value(QStringLiteral("id")).toString();
            seen.insert(id);
            if (lintIds.contains(id)) {
                QCOMPARE(f.value(QStringLiteral("source")).toString(), QStringLiteral("lint"));
                QVERIFY(f.value(QStringLiteral("page")).isNull());
            }
        }
        for (const QString &id : lintIds)
            QVERIFY2(seen.contains(id), qPrintable(id));
        QVERIFY(!seen.contains(contextCost));

        // The <IMPORTANT> block of get_team, with the words it matched.
        const QJsonObject poisoned =
            evidenceFor(tools, QStringLiteral("model-instructions"), QStringLiteral("get_team"));
        const QStringList words = strings(poisoned.value(QStringLiteral("words")));
        for (const QString &w : {QStringLiteral("<IMPORTANT>"), QStringLiteral("~/.ssh"),
                                 QStringLiteral("id_rsa"), QStringLiteral("Do not tell the user")})
            QVERIFY2(words.contains(w), qPrintable(words.join(QStringLiteral(" | "))));
        QVERIFY(strings(poisoned.value(QStringLiteral("rules")))
                    .contains(QStringLiteral("calls-other-tool-first")));
        // configure_webhook addresses the model and asks for a key.
        const QStringList webhook = strings(
            evidenceFor(tools, QStringLiteral("model-instructions"), QStringLiteral("configure_webhook"))
                .value(QStringLiteral("rules")));
        QVERIFY2(webhook.contains(QStringLiteral("addresses-model")) &&
                     webhook.contains(QStringLiteral("asks-for-secrets")),
                 qPrintable(webhook.join(QLatin1Char(' '))));

        // A zero-width space and tag characters, named, and what the tags spell.
        const QJsonObject hidden =
            evidenceFor(tools, QStringLiteral("hidden-characters"), QStringLiteral("summarize_channel"));
        QCOMPARE(hidden.value(QStringLiteral("field")).toString(), QStringLiteral("description"));
        const QStringList codePoints = strings(hidden.value(QStringLiteral("hidden")));
        QVERIFY2(codePoints.contains(QStringLiteral("U+200B")) &&
                     codePoints.contains(QStringLiteral("U+E0069")),
                 qPrintable(codePoints.join(QLatin1Char(' '))));
        QCOMPARE(hidden.value(QStringLiteral("tagText")).toString(),
                 QStringLiteral("ignore previous instructions"));
        QVERIFY(!evidenceFor(tools, QStringLiteral("model-instructions"), QStringLiteral("summarize_channel"))
                     .isEmpty());
        // A Cyrillic a in a title.
        QCOMPARE(
            strings(evidenceFor(tools, QStringLiteral("hidden-characters"), QStringLiteral("search_archive"))
                        .value(QStringLiteral("lookAlike"))),
            QStringList{QStringLiteral("U+0430")});

        const QList<QJsonObject> names = findingsOf(tools, QStringLiteral("tool-name-unportable"));
        QCOMPARE(names.size(), 1); // the 70-character name (Get-User is portable: it collides)
        const QJsonObject name = names.first().value(QStringLiteral("evidence")).toObject();
        QCOMPARE(name.value(QStringLiteral("item")).toString(),
                 QStringLiteral("export_every_channel_with_posts_threads_reactions_and_files_as_one_zip"));
        QCOMPARE(name.value(QStringLiteral("length")).toInt(), 70);

        QSet<QString> rules;
        for (const QJsonObject &f : findingsOf(tools, QStringLiteral("schema-unportable")))
            rules.insert(
                f.value(QStringLiteral("evidence")).toObject().value(QStringLiteral("rule")).toString());
        QCOMPARE(rules,
                 (QSet<QString>{QStringLiteral("root-not-object"), QStringLiteral("root-combinator"),
                                QStringLiteral("required-not-in-properties"), QStringLiteral("remote-ref")}));
        QCOMPARE(evidenceFor(tools, QStringLiteral("default-rejected"), QStringLiteral("list_recent_posts"))
                     .value(QStringLiteral("property"))
                     .toString(),
                 QStringLiteral("limit"));
        const QList<QJsonObject> collisions = findingsOf(tools, QStringLiteral("tool-name-collision"));
        QCOMPARE(collisions.size(), 1);
        QCOMPARE(strings(collisions.first()
                             .value(QStringLiteral("evidence"))
                             .toObject()
                             .value(QStringLiteral("items"))),
                 (QStringList{QStringLiteral("get_user"), QStringLiteral("Get-User")}));

        // The context cost of every list walked to its end.
        for (const QString &id :
             {QStringLiteral("tools"), QStringLiteral("prompts"), QStringLiteral("resources")}) {
            const QJsonObject context = listOf(report, id).value(QStringLiteral("context")).toObject();
            QVERIFY2(context.value(QStringLiteral("tokens")).toInteger() > 0, qPrintable(id));
            QCOMPARE(context.value(QStringLiteral("method")).toString(), QStringLiteral("bytes/4"));
            QCOMPARE(context.value(QStringLiteral("costliest")).toArray().size(), 5);
        }
        // The other lists' definitions are ordinary.
        for (const QString &id :
             {QStringLiteral("prompts"), QStringLiteral("resources"), QStringLiteral("templates")}) {
            for (const QString &lint : lintIds)
                QVERIFY2(findingsOf(listOf(report, id), lint).isEmpty(),
                         qPrintable(id + QLatin1Char(' ') + lint));
        }
    }

    void poisonedFormats_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("text") << QStringLiteral("text");
        QTest::newRow("markdown") << QStringLiteral("markdown");
        QTest::newRow("junit") << QStringLiteral("junit");
    }

    void poisonedFormats()
    {
        QFETCH(QString, format);
        const Run run =
            audit(format, QStringLiteral("poisoned"), {QStringLiteral("--list"), QStringLiteral("tools")});
        QVERIFY2(run.finished, qPrintable(run.describe()));
        QCOMPARE(run.exitCode, 0);
        const QString out = QString::fromUtf8(run.out);
        for (const QString &id : lintIds)
            QVERIFY2(out.contains(id), qPrintable(id + QStringLiteral("\n") + out.left(3000)));
        QVERIFY2(printedRaw(run.out).isEmpty(), qPrintable(folio::describeCodePoints(printedRaw(run.out))));
        QVERIFY2(out.contains(QStringLiteral("U+200B")), qPrintable(out.left(3000)));
    }

    // SARIF 2.1.0, validated against its schema: a rule per finding id with docs/findings.md's
    // text, a result per finding, located at the server, the list and the item.
    void poisonedSarif()
    {
        const Run run = audit(QStringLiteral("sarif"), QStringLiteral("poisoned"),
                              {QStringLiteral("--list"), QStringLiteral("tools")});
        QVERIFY2(run.finished, qPrintable(run.describe()));
        QCOMPARE(run.exitCode, 0);
        QString why;
        QVERIFY2(fixtureprocess::sarifBytesValid(run.out, &why), qPrintable(why));
        const QJsonObject sarifRun = run.json().value(QStringLiteral("runs")).toArray().at(0).toObject();
        const QJsonArray rules = sarifRun.value(QStringLiteral("tool"))
                                     .toObject()
                                     .value(QStringLiteral("driver"))
                                     .toObject()
                                     .value(QStringLiteral("rules"))
                                     .toArray();
        QSet<QString> ruleIds;
        for (const QJsonValue &r : rules) {
            const QJsonObject rule = r.toObject();
            ruleIds.insert(rule.value(QStringLiteral("id")).toString());
            QVERIFY2(!rule.value(QStringLiteral("fullDescription"))
                          .toObject()
                          .value(QStringLiteral("text"))
                          .toString()
                          .isEmpty(),
                     qPrintable(rule.value(QStringLiteral("id")).toString() +
                                QStringLiteral(": no help text in docs/findings.md")));
        }
        QSet<QString> resultIds;
        for (const QJsonValue &v : sarifRun.value(QStringLiteral("results")).toArray()) {
            const QJsonObject result = v.toObject();
            resultIds.insert(result.value(QStringLiteral("ruleId")).toString());
            const QJsonArray where = fixtureprocess::sarifWhere(result);
            QVERIFY(!where.isEmpty());
            QCOMPARE(where.at(0).toObject().value(QStringLiteral("fullyQualifiedName")).toString(),
                     QStringLiteral("folio-demo-server/tools"));
        }
        for (const QString &id : lintIds) {
            QVERIFY2(ruleIds.contains(id), qPrintable(id));
            QVERIFY2(resultIds.contains(id), qPrintable(id));
        }
        QVERIFY2(printedRaw(run.out).isEmpty(), qPrintable(folio::describeCodePoints(printedRaw(run.out))));
    }

    // folio list --format sarif: the walk's findings, valid SARIF, located at the page.
    void listSarif()
    {
        const Run run =
            fixtureprocess::folio({QStringLiteral("list"), QStringLiteral("templates"),
                                   QStringLiteral("--format"), QStringLiteral("sarif"), QStringLiteral("--"),
                                   demoServer, QStringLiteral("--scenario"), QStringLiteral("tour")});
        QVERIFY2(run.finished, qPrintable(run.describe()));
        QCOMPARE(run.exitCode, 1); // the walk stopped at the cursor cycle, as the other formats say
        QString why;
        QVERIFY2(fixtureprocess::sarifBytesValid(run.out, &why), qPrintable(why));
        const QJsonArray results = fixtureprocess::sarifResults(run.json());
        QCOMPARE(results.size(), 1);
        const QJsonObject result = results.at(0).toObject();
        QCOMPARE(result.value(QStringLiteral("ruleId")).toString(), QStringLiteral("cursor-repeated"));
        const QJsonArray where = fixtureprocess::sarifWhere(result);
        QCOMPARE(where.last().toObject().value(QStringLiteral("fullyQualifiedName")).toString(),
                 QStringLiteral("folio-demo-server/templates/page 3"));
    }

    void healthyHasNone()
    {
        const Run run = audit(QStringLiteral("json"), QStringLiteral("healthy"));
        QVERIFY2(run.finished, qPrintable(run.describe()));
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = run.json();
        const QJsonArray lists = report.value(QStringLiteral("lists")).toArray();
        QVERIFY(!lists.isEmpty());
        for (const QJsonValue &v : lists) {
            const QJsonObject l = v.toObject();
            for (const QString &id : lintIds + QStringList{contextCost})
                QVERIFY2(findingsOf(l, id).isEmpty(),
                         qPrintable(l.value(QStringLiteral("list")).toString() + QLatin1Char(' ') + id +
                                    QLatin1Char(' ') +
                                    findingsOf(l, id).value(0).value(QStringLiteral("message")).toString()));
        }
        // The estimate is there, under the threshold.
        const qint64 tokens = listOf(report, QStringLiteral("tools"))
                                  .value(QStringLiteral("context"))
                                  .toObject()
                                  .value(QStringLiteral("tokens"))
                                  .toInteger();
        QVERIFY2(tokens > 1000 && tokens < 20000, qPrintable(QString::number(tokens)));
    }
};

QTEST_GUILESS_MAIN(TestLintCli)
#include "tst_lintcli.moc"
