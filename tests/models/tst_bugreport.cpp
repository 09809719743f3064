#include "bugreport.h"
#include "cursordecoder.h"
#include "pagedfixture.h"
#include "serverconfig.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace folio;

namespace {

const QString Secret = QStringLiteral("sk-live-0123456789abcdef");
// What a hostile server may put anywhere: markup, quotes, a template placeholder.
const QString Hostile = QStringLiteral("<script>alert('x')</script>\"&%1");

QString cursorAt(int offset)
{
    return PagedFixture::jsonCursor(QJsonObject{{QStringLiteral("o"), offset}});
}

// Page 1 (hints as they should be) -> a base64url JSON cursor -> page 2 (no ttlMs, a hostile
// tool name) -> a hostile cursor -> page 3, refused with the bearer token in its message.
PagedFixture::Script script()
{
    QJsonArray second = PagedFixture::tools(3, 2);
    second.append(QJsonObject{{QStringLiteral("name"), Hostile},
                              {QStringLiteral("description"), QStringLiteral("leaks ") + Secret}});
    return {{PagedFixture::NoCursor, PagedFixture::page(PagedFixture::tools(0, 3), cursorAt(3))},
            {cursorAt(3), PagedFixture::page(second, Hostile, QJsonValue(QJsonValue::Undefined))},
            {Hostile,
             PagedFixture::rpcError(
                 -32602, QStringLiteral("Invalid cursor <script>boom()</script> (token %1)").arg(Secret))}};
}

} // namespace

// The bug report without a window: what its JSON holds, and that its HTML and Markdown say it
// safely (hostile server text, secrets, no network).
class tst_BugReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void pagesAreNumberedFromOne();
    void cursorsRawAndDecoded();
    void hintsAsSentAndEffective();
    void failingPageHasItsRawRequest();
    void attemptsKnowTheirRequestIds();
    void secretsAreMasked();
    void cursorsMaskedOnRequest();
    void auditFindingsJoinOnce();
    void htmlIsSelfContainedAndEscaped();
    void htmlCutsLongMessages();
    void markdownIsEscaped();
    void demoServerIsNamed();
    void formatsByName();

private:
    BugReport::Input input() const;
    // The pages of the report's first (and only) list.
    QJsonArray firstListPages() const
    {
        return m_report.value(QStringLiteral("lists"))
            .toArray()
            .at(0)
            .toObject()
            .value(QStringLiteral("pages"))
            .toArray();
    }

    PagedFixture *m_fixture = nullptr;
    QJsonObject m_report;
};

void tst_BugReport::init()
{
    m_fixture = new PagedFixture;
    QVERIFY(m_fixture->connect(script()));
    ServerConfig config = m_fixture->client->config();
    config.bearerToken = Secret; // the log learns it is a secret
    m_fixture->client->setConfig(config);
    QVERIFY(m_fixture->walkAll());
    QVERIFY(m_fixture->model->walker()->isStopped());
    m_report = BugReport::build(input());
}

void tst_BugReport::cleanup()
{
    delete m_fixture;
    m_fixture = nullptr;
}

BugReport::Input tst_BugReport::input() const
{
    BugReport::Input in;
    in.server.displayName = QStringLiteral("scripted");
    in.server.serverInfo = m_fixture->client->serverInfo();
    in.server.transport = m_fixture->client->transportName();
    in.server.revision = m_fixture->client->protocolVersion();
    in.server.target = QStringLiteral("my-server --token ") + Secret;
    in.lists = {BugReport::List::fromWalker(*m_fixture->model->walker())};
    in.traffic = m_fixture->client->trafficLog()->entries();
    in.redactor = m_fixture->client->trafficLog();
    in.generator = QStringLiteral("Folio test");
    return in;
}

void tst_BugReport::pagesAreNumberedFromOne()
{
    const QJsonArray lists = m_report.value(QStringLiteral("lists")).toArray();
    QCOMPARE(lists.size(), 1);
    const QJsonArray pages = lists.at(0).toObject().value(QStringLiteral("pages")).toArray();
    QCOMPARE(pages.size(), 3);
    for (int i = 0; i < pages.size(); ++i)
        QCOMPARE(pages.at(i).toObject().value(QStringLiteral("page")).toInt(), i + 1);
    QCOMPARE(m_report.value(QStringLiteral("folioReport")).toInt(), BugReport::FormatVersion);
    QCOMPARE(
        m_report.value(QStringLiteral("summary")).toObject().value(QStringLiteral("failedPages")).toInt(), 1);
    // The failed page's finding says page 3, as the window does.
    bool found = false;
    for (const QJsonValue &f : m_report.value(QStringLiteral("findings")).toArray()) {
        if (f.toObject().value(QStringLiteral("id")).toString() == FindingId::PageError) {
            QCOMPARE(f.toObject().value(QStringLiteral("page")).toInt(), 3);
            QCOMPARE(f.toObject().value(QStringLiteral("source")).toString(), QStringLiteral("walk"));
            found = true;
        }
    }
    QVERIFY(found);
}

void tst_BugReport::cursorsRawAndDecoded()
{
    const QJsonArray pages = firstListPages();
    const QJsonObject second = pages.at(1).toObject();
    QCOMPARE(second.value(QStringLiteral("cursor")).toString(), cursorAt(3));
    QCOMPARE(second.value(QStringLiteral("cursorDecoded")).toObject(),
             cursorDecodingToJson(decodeCursor(cursorAt(3))));
    QCOMPARE(second.value(QStringLiteral("nextCursor")).toString(), Hostile);
    QVERIFY(pages.at(0).toObject().contains(QStringLiteral("nextCursorDecoded")));
}

void tst_BugReport::hintsAsSentAndEffective()
{
    const QJsonArray pages = firstListPages();
    const QJsonObject first = pages.at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("ttlMs")).toInt(), 60000);
    QCOMPARE(first.value(QStringLiteral("ttlMsPresent")).toBool(), true);
    QCOMPARE(first.value(QStringLiteral("effectiveTtlMs")).toInt(), 60000);
    QCOMPARE(first.value(QStringLiteral("cacheScope")).toString(), QStringLiteral("public"));
    QCOMPARE(first.value(QStringLiteral("effectiveCacheScope")).toString(), QStringLiteral("public"));
    // Page 2 sent no ttlMs: absent as sent, 0 (stale at once) as taken.
    const QJsonObject second = pages.at(1).toObject();
    QVERIFY(second.value(QStringLiteral("ttlMs")).isNull());
    QCOMPARE(second.value(QStringLiteral("ttlMsPresent")).toBool(), false);
    QCOMPARE(second.value(QStringLiteral("effectiveTtlMs")).toInt(), 0);
    QCOMPARE(second.value(QStringLiteral("hintsExpected")).toBool(), true);
    QCOMPARE(second.value(QStringLiteral("state")).toString(), QStringLiteral("stale"));
}

void tst_BugReport::failingPageHasItsRawRequest()
{
    const QJsonObject third = firstListPages().at(2).toObject();
    QCOMPARE(third.value(QStringLiteral("state")).toString(), QStringLiteral("failed"));
    const QJsonObject attempt = third.value(QStringLiteral("attempts")).toArray().at(0).toObject();
    const QJsonObject request = attempt.value(QStringLiteral("request")).toObject();
    QCOMPARE(request.value(QStringLiteral("direction")).toString(), QStringLiteral("sent"));
    const QJsonObject sent = request.value(QStringLiteral("message")).toObject();
    QCOMPARE(sent.value(QStringLiteral("method")).toString(), QStringLiteral("tools/list"));
    QCOMPARE(sent.value(QStringLiteral("params")).toObject().value(QStringLiteral("cursor")).toString(),
             Hostile);
    const QJsonObject answer =
        attempt.value(QStringLiteral("response")).toObject().value(QStringLiteral("message")).toObject();
    QCOMPARE(answer.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32602);
    QCOMPARE(answer.value(QStringLiteral("id")), sent.value(QStringLiteral("id")));

    // The HTML shows it on the page's card, open (a failed page's messages print).
    const QString html = QString::fromUtf8(BugReport::toHtml(m_report));
    const qsizetype card = html.indexOf(QStringLiteral("id=\"l0-p2\""));
    QVERIFY(card > 0);
    const QString rest = html.mid(card);
    QVERIFY(rest.contains(QStringLiteral("<details open><summary>Raw request")));
    QVERIFY(rest.contains(QStringLiteral("&quot;method&quot;: &quot;tools/list&quot;")));
}

void tst_BugReport::attemptsKnowTheirRequestIds()
{
    const PageLedger *ledger = m_fixture->model->walker()->ledger();
    QStringList sentIds;
    for (const TrafficLog::Entry &e : m_fixture->client->trafficLog()->entries()) {
        if (e.direction == TrafficLog::Direction::Outgoing && e.method == QLatin1String("tools/list"))
            sentIds << e.id;
    }
    QCOMPARE(sentIds.size(), ledger->rowCount());
    for (int row = 0; row < ledger->rowCount(); ++row)
        QCOMPARE(ledger->page(row).attempts.constFirst().requestId, sentIds.at(row));
}

void tst_BugReport::secretsAreMasked()
{
    const QByteArray json = BugReport::toJsonText(m_report);
    const QByteArray html = BugReport::toHtml(m_report);
    const QByteArray md = BugReport::toMarkdown(m_report);
    QVERIFY(json.contains("[redacted]"));
    for (const QByteArray &text : {json, html, md})
        QVERIFY2(!text.contains(Secret.toUtf8()), text.left(200).constData());
    // What the log never saw is masked too: the error as the ledger kept it, the command line.
    QVERIFY(json.contains("(token [redacted])"));
    QVERIFY(json.contains("my-server --token [redacted]"));
}

void tst_BugReport::cursorsMaskedOnRequest()
{
    BugReport::Input in = input();
    in.maskCursors = true;
    const QJsonObject report = BugReport::build(in);
    const QByteArray json = BugReport::toJsonText(report);
    const QByteArray html = BugReport::toHtml(report);
    for (const QByteArray &text : {json, html}) {
        QVERIFY(!text.contains(cursorAt(3).toUtf8())); // nor in the raw messages
        QVERIFY(!text.contains("cursorDecoded"));
    }
    QVERIFY(json.contains(maskCursor(cursorAt(3)).toUtf8()));
    QCOMPARE(report.value(QStringLiteral("masking")).toObject().value(QStringLiteral("cursors")).toBool(),
             true);
}

void tst_BugReport::auditFindingsJoinOnce()
{
    BugReport::Input in = input();
    AuditResult audit;
    AuditedList tools;
    tools.id = QStringLiteral("tools");
    tools.findings = m_fixture->model->walker()->findings(); // the audit's walk found the same
    tools.findings.append(auditFinding(FindingId::InvalidCursorAccepted, {},
                                       QStringLiteral("a tampered cursor was "
                                                      "answered"),
                                       {}));
    audit.lists = {tools};
    in.audit = audit;
    const QJsonObject report = BugReport::build(in);
    int fromWalk = 0, fromAudit = 0;
    for (const QJsonValue &v : report.value(QStringLiteral("findings")).toArray()) {
        const QString source = v.toObject().value(QStringLiteral("source")).toString();
        (source == QLatin1String("audit") ? fromAudit : fromWalk)++;
        if (source == QLatin1String("audit"))
            QCOMPARE(v.toObject().value(QStringLiteral("id")).toString(), FindingId::InvalidCursorAccepted);
    }
    QCOMPARE(fromWalk, int(m_fixture->model->walker()->findings().size()));
    QCOMPARE(fromAudit, 1);
    QCOMPARE(report.value(QStringLiteral("summary")).toObject().value(QStringLiteral("audited")).toBool(),
             true);
    QVERIFY(report.value(QStringLiteral("audit")).toObject().contains(QStringLiteral("lists")));
}

void tst_BugReport::htmlIsSelfContainedAndEscaped()
{
    const QString html = QString::fromUtf8(BugReport::toHtml(m_report));
    QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
    QVERIFY(html.contains(QStringLiteral("<svg class=\"timeline\"")));
    QVERIFY(html.contains(QStringLiteral("@media print")));
    QVERIFY(html.contains(QStringLiteral("prefers-color-scheme: dark")));
    // Nothing is loaded and nothing runs: no script, no stylesheet link, no image, no URL at all
    // (the scripted server sent none).
    QVERIFY(!html.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
    QVERIFY(!html.contains(QStringLiteral("<link"), Qt::CaseInsensitive));
    QVERIFY(!html.contains(QStringLiteral("<img"), Qt::CaseInsensitive));
    QVERIFY(!html.contains(QStringLiteral("src="), Qt::CaseInsensitive));
    QVERIFY(!html.contains(QStringLiteral("http://")));
    QVERIFY(!html.contains(QStringLiteral("https://")));
    QVERIFY(!html.contains(QStringLiteral("@import")));
    static const QRegularExpression href(QStringLiteral("href=\"(?!#)"));
    QVERIFY(!html.contains(href)); // links go to the report's own anchors only
    // The hostile text is there, as text.
    QVERIFY(html.contains(QStringLiteral("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;%1")));
    // Every page is on the timeline, numbered from 1.
    for (const char *number : {">1</text>", ">2</text>", ">3</text>"})
        QVERIFY(html.contains(QLatin1String(number)));
    QVERIFY(html.contains(QStringLiteral("class=\"b-failed\"")));
    QVERIFY(html.contains(QStringLiteral("class=\"marker m-error\"")));
}

void tst_BugReport::htmlCutsLongMessages()
{
    const QString html = QString::fromUtf8(BugReport::toHtml(m_report, 256));
    QVERIFY(html.contains(QStringLiteral("Cut at 256 B for reading")));
    QVERIFY(
        QString::fromUtf8(BugReport::toMarkdown(m_report, 256)).contains(QStringLiteral("*Cut at 256 B")));
    const QString whole = QString::fromUtf8(BugReport::toHtml(m_report));
    QVERIFY(!whole.contains(QStringLiteral("Cut at")));
}

void tst_BugReport::markdownIsEscaped()
{
    const QString md = QString::fromUtf8(BugReport::toMarkdown(m_report));
    QVERIFY(md.startsWith(QStringLiteral("# Folio bug report: scripted")));
    // Server text is markup only inside code, where a tracker shows it as it is.
    QString prose = md;
    prose.remove(QRegularExpression(QStringLiteral("(`{3,})[^\n]*\n.*?\n\\1\n"),
                                    QRegularExpression::DotMatchesEverythingOption));
    prose.remove(QRegularExpression(QStringLiteral("(`+).*?\\1")));
    QVERIFY(md.contains(QStringLiteral("<script>")));
    QVERIFY2(!prose.contains(QStringLiteral("<script")), qPrintable(prose));
    QVERIFY(prose.contains(QStringLiteral("&lt;script&gt;boom()"))); // the server's error, as text
    if (qEnvironmentVariableIsSet("FOLIO_TEST_DUMP_REPORT")) {       // to look at it
        QFile::remove(QStringLiteral("tst_bugreport.html"));
        QFile html(QStringLiteral("tst_bugreport.html")), markdown(QStringLiteral("tst_bugreport.md"));
        QVERIFY(html.open(QIODevice::WriteOnly) && markdown.open(QIODevice::WriteOnly));
        html.write(BugReport::toHtml(m_report));
        markdown.write(md.toUtf8());
    }
    QVERIFY(md.contains(QStringLiteral("### Page 3 of `tools`: failed")));
    QVERIFY(md.contains(QStringLiteral("```json")));
    // Table rows keep their cells: the hostile cursor's quotes and markup do not break them.
    for (const QString &line : md.split(QLatin1Char('\n'))) {
        if (line.startsWith(QStringLiteral("| 2 |")))
            QCOMPARE(line.count(QRegularExpression(QStringLiteral("(?<!\\\\)\\|"))), 9);
    }
}

void tst_BugReport::demoServerIsNamed()
{
    ServerConfig config = ServerConfig::process(
        QStringLiteral("folio-demo-server"), {QStringLiteral("--scenario"), QStringLiteral("cursor-cycle")});
    BugReport::Server s;
    s.serverInfo = {{QStringLiteral("name"), QStringLiteral("folio-demo-server")}};
    s.instructions = QStringLiteral("Watch the loop.\nFolio's demo server: a team chat.");
    s.readDemo(config);
    QCOMPARE(s.demoScenario, QStringLiteral("cursor-cycle"));
    QCOMPARE(s.demoCaption, QStringLiteral("Watch the loop."));

    config.arguments.clear();
    BugReport::Server tour;
    tour.serverInfo = s.serverInfo;
    tour.readDemo(config);
    QCOMPARE(tour.demoScenario, QStringLiteral("tour")); // the demo's default

    BugReport::Server other;
    other.serverInfo = {{QStringLiteral("name"), QStringLiteral("someone-else")}};
    other.instructions = s.instructions;
    other.readDemo(config);
    QVERIFY(other.demoScenario.isEmpty());
    QVERIFY(other.demoCaption.isEmpty());
}

void tst_BugReport::formatsByName()
{
    QCOMPARE(BugReport::formatForFile(QStringLiteral("a/demo-report.html")), BugReportFormat::Html);
    QCOMPARE(BugReport::formatForFile(QStringLiteral("r.HTM")), BugReportFormat::Html);
    QCOMPARE(BugReport::formatForFile(QStringLiteral("r.md")), BugReportFormat::Markdown);
    QCOMPARE(BugReport::formatForFile(QStringLiteral("r.markdown")), BugReportFormat::Markdown);
    QCOMPARE(BugReport::formatForFile(QStringLiteral("r.json")), BugReportFormat::Json);
    QVERIFY(!BugReport::formatForFile(QStringLiteral("r.txt")));
    BugReportFormat f;
    QVERIFY(BugReport::parseFormat(QStringLiteral("markdown"), &f));
    QCOMPARE(f, BugReportFormat::Markdown);
    QVERIFY(!BugReport::parseFormat(QStringLiteral("pdf"), &f));
}

QTEST_GUILESS_MAIN(tst_BugReport)
#include "tst_bugreport.moc"
