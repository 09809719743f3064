#include "command.h"
#include "commandline.h"

#include <QTest>

using folio::CommandLine;
using folio::ParseOk;

// CommandLine: the options every subcommand shares, parsed one way (the words after "--", -h,
// -v, --format, the target, usage errors with exit code 2, --args and whole numbers).
class tst_CommandLine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void helpAndUsage();
    void positionalArguments();
    void formatAndVerbose();
    void jsonObjectAndNumbers();
    void target();
    void sharedOptionsHelp();
};

void tst_CommandLine::helpAndUsage()
{
    CommandLine help(QStringLiteral("read"), {QStringLiteral("--help")}, QStringLiteral("text"));
    QCOMPARE(help.parse(QStringLiteral("help text\n")), 0);
    CommandLine unknown(QStringLiteral("read"), {QStringLiteral("--frobnicate")}, QStringLiteral("text"));
    QCOMPARE(unknown.parse(QString()), 2);
    CommandLine ok(QStringLiteral("read"), {QStringLiteral("x")}, QStringLiteral("text"));
    QCOMPARE(ok.parse(QString()), ParseOk);
    QCOMPARE(ok.usage(QStringLiteral("why")), 2);
}

void tst_CommandLine::positionalArguments()
{
    // Options may follow the positional argument; the words after "--" are not positional.
    CommandLine one(QStringLiteral("read"),
                    {QStringLiteral("chat://a"), QStringLiteral("-v"), QStringLiteral("--"),
                     QStringLiteral("srv"), QStringLiteral("--flag")},
                    QStringLiteral("text"));
    QCOMPARE(one.parse(QString()), ParseOk);
    QString value, problem;
    QVERIFY(one.onePositional(&value, QStringLiteral("which?"), QStringLiteral("URI"), &problem));
    QCOMPARE(value, QStringLiteral("chat://a"));
    QCOMPARE(one.rest(), (QStringList{QStringLiteral("srv"), QStringLiteral("--flag")}));
    QVERIFY(!one.noPositional(&problem));
    QCOMPARE(problem, QStringLiteral("unexpected 'chat://a' (a stdio server's command goes after '--')"));

    CommandLine none(QStringLiteral("read"), {}, QStringLiteral("text"));
    QCOMPARE(none.parse(QString()), ParseOk);
    QVERIFY(!none.onePositional(&value, QStringLiteral("which resource?"), QStringLiteral("URI"), &problem));
    QCOMPARE(problem, QStringLiteral("which resource?"));
    QVERIFY(none.noPositional(&problem));

    CommandLine two(QStringLiteral("read"), {QStringLiteral("a"), QStringLiteral("b")},
                    QStringLiteral("text"));
    QCOMPARE(two.parse(QString()), ParseOk);
    QVERIFY(!two.onePositional(&value, QStringLiteral("which?"), QStringLiteral("URI"), &problem));
    QCOMPARE(problem,
             QStringLiteral("one URI at a time (unexpected 'b'); a stdio server's command goes after '--'"));
}

void tst_CommandLine::formatAndVerbose()
{
    bool json = true;
    QString problem;
    CommandLine byDefault(QStringLiteral("call"), {}, QStringLiteral("text"));
    QCOMPARE(byDefault.parse(QString()), ParseOk);
    QVERIFY(!byDefault.formatGiven());
    QVERIFY(!byDefault.verbose());
    QVERIFY(byDefault.textOrJson(&json, &problem));
    QVERIFY(!json);

    CommandLine given(QStringLiteral("call"),
                      {QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--verbose")},
                      QStringLiteral("text"));
    QCOMPARE(given.parse(QString()), ParseOk);
    QVERIFY(given.formatGiven());
    QVERIFY(given.verbose());
    QVERIFY(given.textOrJson(&json, &problem));
    QVERIFY(json);

    CommandLine other(QStringLiteral("call"), {QStringLiteral("--format"), QStringLiteral("csv")},
                      QStringLiteral("text"));
    QCOMPARE(other.parse(QString()), ParseOk);
    QCOMPARE(other.format(), QStringLiteral("csv"));
    QVERIFY(!other.textOrJson(&json, &problem));
    QCOMPARE(problem, QStringLiteral("--format is text or json"));
}

void tst_CommandLine::jsonObjectAndNumbers()
{
    CommandLine line(QStringLiteral("call"),
                     {QStringLiteral("--args"), QStringLiteral("{\"a\":1}"), QStringLiteral("--n"),
                      QStringLiteral("0"), QStringLiteral("--m"), QStringLiteral("7"),
                      QStringLiteral("--bad"), QStringLiteral("[1]")},
                     QStringLiteral("text"));
    const QCommandLineOption args(QStringLiteral("args"), QString(), QStringLiteral("JSON"));
    const QCommandLineOption bad(QStringLiteral("bad"), QString(), QStringLiteral("JSON"));
    const QCommandLineOption n(QStringLiteral("n"), QString(), QStringLiteral("N"));
    const QCommandLineOption m(QStringLiteral("m"), QString(), QStringLiteral("N"));
    line.parser().addOptions({args, bad, n, m});
    QCOMPARE(line.parse(QString()), ParseOk);
    QJsonObject object;
    QString problem;
    QVERIFY(line.jsonObject(args, QStringLiteral("{}"), &object, &problem));
    QCOMPARE(object.value(QStringLiteral("a")).toInt(), 1);
    QVERIFY(!line.jsonObject(bad, QStringLiteral("{\"k\":1}"), &object, &problem));
    QCOMPARE(problem, QStringLiteral("--bad wants a JSON object, e.g. '{\"k\":1}'"));
    int value = 0;
    QVERIFY(!line.positiveInt(n, &value));
    QVERIFY(line.positiveInt(m, &value));
    QCOMPARE(value, 7);
}

void tst_CommandLine::target()
{
    folio::ServerConfig server;
    folio::CliSession::KeychainToken keychain = folio::CliSession::KeychainToken::None;
    QString problem;
    CommandLine stdio(
        QStringLiteral("list"),
        {QStringLiteral("tools"), QStringLiteral("--"), QStringLiteral("srv"), QStringLiteral("-x")},
        QStringLiteral("table"));
    QCOMPARE(stdio.parse(QString()), ParseOk);
    QVERIFY2(stdio.readTarget(&server, &keychain, &problem), qPrintable(problem));
    QVERIFY(server.startsProcess());
    QCOMPARE(server.command, QStringLiteral("srv"));
    QCOMPARE(server.arguments, QStringList{QStringLiteral("-x")});

    CommandLine http(
        QStringLiteral("list"),
        {QStringLiteral("tools"), QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9/mcp")},
        QStringLiteral("table"));
    QCOMPARE(http.parse(QString()), ParseOk);
    QVERIFY2(http.readTarget(&server, nullptr, &problem), qPrintable(problem));
    QVERIFY(server.hasUrl());

    CommandLine neither(QStringLiteral("list"), {QStringLiteral("tools")}, QStringLiteral("table"));
    QCOMPARE(neither.parse(QString()), ParseOk);
    QVERIFY(!neither.readTarget(&server, nullptr, &problem));
    QVERIFY2(problem.startsWith(QStringLiteral("no server given")), qPrintable(problem));

    // decode-cursor takes no target: --url is an unknown option there.
    CommandLine none(QStringLiteral("decode-cursor"), {QStringLiteral("--url"), QStringLiteral("x")},
                     QStringLiteral("text"), CommandLine::Target::None);
    QCOMPARE(none.parse(QString()), 2);
}

void tst_CommandLine::sharedOptionsHelp()
{
    // At the column of the command's other options, wrapped within 80 columns, under the option.
    const QString help = CommandLine::sharedOptionsHelp(19);
    const QStringList lines = help.split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 5); // -v on two lines, -h, the empty line, and what follows it
    QVERIFY(lines.at(0).startsWith(QLatin1String("  -v, --verbose    log the server's stderr")));
    QVERIFY(lines.at(1).startsWith(QString(19, QLatin1Char(' ')) + QLatin1String("stderr")));
    QCOMPARE(lines.at(2), QStringLiteral("  -h, --help       show this help"));
    QVERIFY(help.endsWith(QLatin1String("\n\n")));
    for (const QString &line : lines)
        QVERIFY2(line.size() <= 80, qPrintable(line));
    // An option longer than the column: its text on the next line, at the column.
    const QString narrow = CommandLine::sharedOptionsHelp(15, QStringLiteral("log what Folio does"));
    QVERIFY(narrow.startsWith(QLatin1String("  -v, --verbose\n               log what Folio does\n")));
    QVERIFY(narrow.contains(QLatin1String("\n  -h, --help   show this help\n")));
}

QTEST_GUILESS_MAIN(tst_CommandLine)
#include "tst_commandline.moc"
