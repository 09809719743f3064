// Nothing a server writes acts on the terminal (issue 29, part 3): the real folio binary against
// folio-fixture-server's hostile-text mode, whose every text (serverInfo, instructions, tool names
// and descriptions, the cursor, a call's text, an error, its stderr, a stray stdout line) carries
// escape sequences (window title, clear screen, OSC 52 clipboard, OSC 8 link), a C1 CSI, DEL, BEL,
// "%1 %2", a right-to-left override and a zero-width space. Every command that writes something
// runs over stdio and HTTP; its stdout and stderr must hold no such byte. JSON output stays exact
// (the characters escaped as JSON allows), the text formats show them as <U+XXXX>, CSV cells that a
// spreadsheet would run as formulas start with "'", and the deceptive names are findings.
#include "fixtureprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using fixtureprocess::folio;
using fixtureprocess::HttpFixture;

namespace {

// What a terminal would act on, or what would reorder or hide text: empty when bytes hold none,
// else where the first one is. '\n' and '\t' are text; '\r' only as the CR of a CRLF (CSV).
QString firstRawControl(const QByteArray &bytes)
{
    const auto *p = reinterpret_cast<const uchar *>(bytes.constData());
    const qsizetype n = bytes.size();
    for (qsizetype i = 0; i < n; ++i) {
        const uchar b = p[i];
        const uchar b1 = i + 1 < n ? p[i + 1] : 0;
        const uchar b2 = i + 2 < n ? p[i + 2] : 0;
        bool bad = false;
        if (b < 0x20)
            bad = b != '\n' && b != '\t' && !(b == '\r' && b1 == '\n');
        else if (b == 0x7f)
            bad = true;
        else if (b == 0xc2)
            bad = b1 >= 0x80 && b1 <= 0x9f; // C1
        else if (b == 0xe2 && b1 == 0x80)
            bad = (b2 >= 0x8b && b2 <= 0x8f) || (b2 >= 0xaa && b2 <= 0xae); // zero-width, bidi
        else if (b == 0xe2 && b1 == 0x81)
            bad = (b2 >= 0xa0 && b2 <= 0xa4) || (b2 >= 0xa6 && b2 <= 0xa9); // joiners, isolates
        if (bad) {
            return QStringLiteral("byte 0x%1 at %2, in: %3")
                .arg(
                    QString::number(b, 16), QString::number(i),
                    QString::fromUtf8(bytes.mid(qMax<qsizetype>(0, i - 40), 80).toPercentEncoding(" :/,.=")));
        }
    }
    return {};
}

const QString reversedName = QString::fromUtf16(u"read\u202e"
                                                u"elif_");
const QString cyrillicName = QString::fromUtf16(u"re\u0430"
                                                u"d_file");

} // namespace

class tst_HostileText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void noRawControlReachesTheTerminal_data();
    void noRawControlReachesTheTerminal();
    void jsonStaysExact_data();
    void jsonStaysExact();
    void csvCellsAreNoFormulas();
};

void tst_HostileText::noRawControlReachesTheTerminal_data()
{
    QTest::addColumn<bool>("http");
    QTest::addRow("stdio") << false;
    QTest::addRow("http") << true;
}

void tst_HostileText::noRawControlReachesTheTerminal()
{
    QFETCH(bool, http);
    std::unique_ptr<HttpFixture> server;
    const QStringList target =
        fixtureprocess::target(http, {QStringLiteral("--mode"), QStringLiteral("hostile-text")}, &server);
    if (http)
        QVERIFY2(!server->url().isEmpty(), "the HTTP fixture did not start");

    struct Step
    {
        QString name;
        QStringList arguments;
        QByteArray expected;    // a text the output must show (what the filter made of the server's)
        bool stdioOnly = false; // expected only over stdio (the HTTP fixture sends no notification)
    };
    auto args = [](std::initializer_list<const char *> words) {
        QStringList out;
        for (const char *w : words)
            out << QString::fromUtf8(w);
        return out;
    };
    const QList<Step> steps{
        {QStringLiteral("list"), args({"list", "tools", "-v"}), "<U+001B>]0;pwned<U+0007>"},
        {QStringLiteral("list csv"), args({"list", "tools", "--format", "csv"}), "read<U+202E>elif_"},
        {QStringLiteral("list json"), args({"list", "tools", "--format", "json"}), "\\u202e"},
        {QStringLiteral("list ndjson"), args({"list", "tools", "--format", "ndjson"}), "\\u001b"},
        {QStringLiteral("call"), args({"call", "echo", "--args", "{}", "-v"}), "<U+009B>31m"},
        {QStringLiteral("call json"), args({"call", "echo", "--args", "{}", "--format", "json"}), "\\u009b"},
        {QStringLiteral("call error"), args({"call", "fail", "--args", "{}"}), "%1 %2"},
        {QStringLiteral("call progress"), args({"call", "echo", "--args", "{}"}), "half <U+001B>]0;pwned",
         true},
        {QStringLiteral("read"), args({"read", "hostile://text"}), "<U+202E>evil"},
        {QStringLiteral("read json"), args({"read", "hostile://text", "--format", "json"}), "\\u202e"},
        {QStringLiteral("get-prompt"), args({"get-prompt", "p"}), "<U+200B>"},
        {QStringLiteral("list prompts"), args({"list", "prompts"}), "<U+009B>31m"},
        {QStringLiteral("audit"), args({"audit", "-v"}), "deceptive-name"},
        {QStringLiteral("audit markdown"), args({"audit", "--format", "markdown"}), "<U+202E>"},
        {QStringLiteral("audit json"), args({"audit", "--format", "json"}), "\\u202e"},
        {QStringLiteral("audit junit"), args({"audit", "--format", "junit"}), "&lt;U+001B&gt;"},
        {QStringLiteral("report md"), args({"report", "--format", "md", "-o", "-"}), "&lt;U+200B&gt;"},
        {QStringLiteral("report html"), args({"report", "--format", "html", "-o", "-"}), "&lt;U+001B&gt;"},
        {QStringLiteral("report json"), args({"report", "--format", "json", "-o", "-"}), "\\u001b"},
    };
    for (const Step &step : steps) {
        const fixtureprocess::Run run = folio(step.arguments + target);
        QVERIFY2(run.exitCode >= 0 && run.exitCode != 2,
                 qPrintable(QStringLiteral("%1 exited %2: %3")
                                .arg(step.name, QString::number(run.exitCode),
                                     QString::fromUtf8(run.err.right(2000).toPercentEncoding(" :/,.\n")))));
        const QString inOut = firstRawControl(run.out);
        QVERIFY2(inOut.isEmpty(), qPrintable(step.name + QStringLiteral(": stdout holds ") + inOut));
        const QString inErr = firstRawControl(run.err);
        QVERIFY2(inErr.isEmpty(), qPrintable(step.name + QStringLiteral(": stderr holds ") + inErr));
        if (http && step.stdioOnly)
            continue;
        QVERIFY2((run.out + run.err).contains(step.expected),
                 qPrintable(step.name + QStringLiteral(": the output does not show ") +
                            QString::fromUtf8(step.expected)));
    }
}

void tst_HostileText::jsonStaysExact_data()
{
    noRawControlReachesTheTerminal_data();
}

// The JSON formats carry the server's text exactly: parsed back, the names are the server's, and
// the names that read as others are deceptive-name findings.
void tst_HostileText::jsonStaysExact()
{
    QFETCH(bool, http);
    std::unique_ptr<HttpFixture> server;
    const QStringList target =
        fixtureprocess::target(http, {QStringLiteral("--mode"), QStringLiteral("hostile-text")}, &server);
    const fixtureprocess::Run run = folio(QStringList{QStringLiteral("list"), QStringLiteral("tools"),
                                                      QStringLiteral("--format"), QStringLiteral("json")} +
                                          target);
    QCOMPARE(run.exitCode, 0);
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(run.out, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QStringList names;
    QStringList findings;
    for (const QJsonValue &item : json.value(QStringLiteral("items")).toArray())
        names << item.toObject().value(QStringLiteral("name")).toString();
    for (const QJsonValue &page : json.value(QStringLiteral("pages")).toArray()) {
        for (const QJsonValue &f : page.toObject().value(QStringLiteral("findings")).toArray())
            findings << f.toObject().value(QStringLiteral("id")).toString();
    }
    QVERIFY2(names.contains(reversedName), qPrintable(names.join(QLatin1Char(','))));
    QVERIFY2(names.contains(cyrillicName), qPrintable(names.join(QLatin1Char(','))));
    QCOMPARE(findings.count(QStringLiteral("deceptive-name")), 2); // one a page
    const QString serverName =
        json.value(QStringLiteral("server")).toObject().value(QStringLiteral("name")).toString();
    QVERIFY2(serverName.contains(QChar(0x1b)) && serverName.contains(QStringLiteral("%1 %2")),
             qPrintable(QString::fromUtf8(serverName.toUtf8().toPercentEncoding())));
}

void tst_HostileText::csvCellsAreNoFormulas()
{
    const fixtureprocess::Run run =
        folio({QStringLiteral("list"), QStringLiteral("tools"), QStringLiteral("--format"),
               QStringLiteral("csv"), QStringLiteral("--"), fixtureprocess::fixture, QStringLiteral("--mode"),
               QStringLiteral("hostile-text")});
    QCOMPARE(run.exitCode, 0);
    const QString csv = QString::fromUtf8(run.out);
    // A name, a description and a cell that begins like a number: each a text, not a formula.
    QVERIFY2(csv.contains(QStringLiteral("'=cmd|' /c calc'!A1")), qPrintable(csv));
    QVERIFY2(csv.contains(QStringLiteral("'+SUM(1")), qPrintable(csv));
    QVERIFY2(csv.contains(QStringLiteral("'-1 @here")), qPrintable(csv));
    for (const QString &line : csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts)) {
        for (const QString &cell : line.split(QLatin1Char(','))) {
            const QString c = cell.startsWith(QLatin1Char('"')) ? cell.mid(1) : cell;
            QVERIFY2(c.isEmpty() || !QStringLiteral("=+@").contains(c.front()), qPrintable(line));
        }
    }
}

QTEST_GUILESS_MAIN(tst_HostileText)
#include "tst_hostiletext.moc"
