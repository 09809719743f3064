#include "auditprobes.h"
#include "testjson.h"

#include <QJsonDocument>
#include <QTest>

using namespace folio;
using AuditProbes::ProbeAnswer;
using testsupport::jsonObject;

namespace {

ProbeAnswer answer(ProbeAnswer::Kind kind, int code = 0, const QString &message = {})
{
    ProbeAnswer a;
    a.kind = kind;
    a.code = code;
    a.message = message;
    if (kind == ProbeAnswer::Kind::Page) {
        a.itemCount = 2;
        a.identities = {QStringLiteral("a"), QStringLiteral("b")};
    }
    return a;
}

} // namespace

Q_DECLARE_METATYPE(AuditProbes::ProbeAnswer::Kind)

// The audit's cursor probes without a server: the cursors they send and how each answer is judged.
class tst_AuditProbes : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tamper_data();
    void tamper();
    void otherArguments_data();
    void otherArguments();
    void tampered_data();
    void tampered();
    void forgedCursor();
    void forged_data();
    void forged();
    void foreignList_data();
    void foreignList();
    void otherArgumentsJudged_data();
    void otherArgumentsJudged();
    void emptyCursor_data();
    void emptyCursor();
    void evidence();
};

void tst_AuditProbes::tamper_data()
{
    QTest::addColumn<QString>("cursor");
    QTest::addColumn<QString>("tampered");
    QTest::addRow("reversed") << "abc"
                              << "cba!";
    QTest::addRow("palindrome_still_differs") << "aba"
                                              << "abax!";
    QTest::addRow("single_character") << "a"
                                      << "ax!";
}

void tst_AuditProbes::tamper()
{
    QFETCH(QString, cursor);
    QFETCH(QString, tampered);
    QCOMPARE(AuditProbes::tamper(cursor), tampered);
    QVERIFY(AuditProbes::tamper(cursor) != cursor);
}

void tst_AuditProbes::otherArguments_data()
{
    QTest::addColumn<QByteArray>("tool");
    QTest::addColumn<QByteArray>("arguments");
    QTest::addColumn<QByteArrayList>("expected");
    QTest::addRow("filter_added_then_value_changed")
        << QByteArray(R"({"name":"t","inputSchema":{"properties":{"cursor":{"type":"string"},
                          "channel":{"type":"string"},"query":{"type":"string"}}}})")
        << QByteArray(R"({"channel":"x"})")
        << QByteArrayList{R"({"channel":"x","query":"a"})", R"({"channel":"xa"})"};
    QTest::addRow("enum_takes_another_choice")
        << QByteArray(R"({"name":"t","inputSchema":{"properties":{"cursor":{"type":"string"},
                          "order":{"type":"string","enum":["asc","desc"]}}}})")
        << QByteArray(R"({"order":"asc"})") << QByteArrayList{R"({"order":"desc"})"};
    QTest::addRow("enum_without_another_choice")
        << QByteArray(R"({"name":"t","inputSchema":{"properties":{"cursor":{"type":"string"},
                          "order":{"type":"string","enum":["asc"]}}}})")
        << QByteArray(R"({"order":"asc"})") << QByteArrayList{};
    QTest::addRow("cursor_limit_and_numbers_left_alone")
        << QByteArray(R"({"name":"t","inputSchema":{"properties":{"cursor":{"type":"string"},
                          "limit":{"type":"integer"},"since":{"type":"number"}}}})")
        << QByteArray("{}") << QByteArrayList{};
}

void tst_AuditProbes::otherArguments()
{
    QFETCH(QByteArray, tool);
    QFETCH(QByteArray, arguments);
    QFETCH(QByteArrayList, expected);
    std::optional<ListSource> source = ListSource::fromTool(QJsonDocument::fromJson(tool).object());
    QVERIFY(source);
    source->setArguments(QJsonDocument::fromJson(arguments).object());
    const QList<QJsonObject> got = AuditProbes::otherArguments(*source);
    QCOMPARE(got.size(), expected.size());
    for (int i = 0; i < got.size(); ++i)
        QCOMPARE(got.at(i), QJsonDocument::fromJson(expected.at(i)).object());
}

void tst_AuditProbes::tampered_data()
{
    QTest::addColumn<ProbeAnswer::Kind>("kind");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("finding");
    QTest::addColumn<bool>("note");
    QTest::addRow("page_is_invalid_cursor_accepted")
        << ProbeAnswer::Kind::Page << 0 << FindingId::InvalidCursorAccepted << false;
    QTest::addRow("invalid_params_passes") << ProbeAnswer::Kind::RpcError << -32602 << QString() << false;
    QTest::addRow("other_code_is_wrong_code")
        << ProbeAnswer::Kind::RpcError << -32603 << FindingId::InvalidCursorWrongCode << false;
    QTest::addRow("tool_is_error_passes") << ProbeAnswer::Kind::ToolError << 0 << QString() << false;
    QTest::addRow("failure_is_inconclusive") << ProbeAnswer::Kind::Failed << 0 << QString() << true;
}

void tst_AuditProbes::tampered()
{
    QFETCH(ProbeAnswer::Kind, kind);
    QFETCH(int, code);
    QFETCH(QString, finding);
    QFETCH(bool, note);
    const CheckOutcome o = AuditProbes::judgeTampered(answer(kind, code, QStringLiteral("nope")),
                                                      QStringLiteral("c1"), QStringLiteral("1c!"), 1);
    QCOMPARE(o.finding.has_value(), !finding.isEmpty());
    QCOMPARE(!o.note.isEmpty(), note);
    if (o.finding) {
        QCOMPARE(o.finding->id, finding);
        QCOMPARE(o.finding->pages, QList<int>{1});
        QCOMPARE(o.finding->severity, Finding::defaultSeverity(finding));
        QCOMPARE(o.finding->evidence.value(QStringLiteral("probe")).toString(),
                 QStringLiteral("tampered-cursor"));
        QCOMPARE(o.finding->evidence.value(QStringLiteral("cursor")).toString(), QStringLiteral("1c!"));
        QCOMPARE(o.finding->evidence.value(QStringLiteral("issuedCursor")).toString(), QStringLiteral("c1"));
    }
}

void tst_AuditProbes::forgedCursor()
{
    // base64url (unpadded) of {"folio":"forged-cursor"}: shaped like a real cursor, never issued.
    const QString forged = AuditProbes::forgedCursor();
    QCOMPARE(forged, QStringLiteral("eyJmb2xpbyI6ImZvcmdlZC1jdXJzb3IifQ"));
    QCOMPARE(QByteArray::fromBase64(forged.toLatin1(), QByteArray::Base64UrlEncoding),
             QByteArray(R"({"folio":"forged-cursor"})"));
}

void tst_AuditProbes::forged_data()
{
    tampered_data();
}

void tst_AuditProbes::forged()
{
    QFETCH(ProbeAnswer::Kind, kind);
    QFETCH(int, code);
    QFETCH(QString, finding);
    QFETCH(bool, note);
    for (const bool onlyEmpty : {false, true}) {
        const CheckOutcome o = AuditProbes::judgeForged(answer(kind, code, QStringLiteral("nope")),
                                                        QStringLiteral("f0rged"), onlyEmpty);
        QCOMPARE(o.finding.has_value(), !finding.isEmpty());
        QCOMPARE(!o.note.isEmpty(), note);
        if (!o.finding)
            continue;
        QCOMPARE(o.finding->id, finding);
        QVERIFY(o.finding->pages.isEmpty());
        QCOMPARE(o.finding->severity, Finding::defaultSeverity(finding));
        QCOMPARE(o.finding->evidence.value(QStringLiteral("probe")).toString(),
                 QStringLiteral("forged-cursor"));
        QCOMPARE(o.finding->evidence.value(QStringLiteral("cursor")).toString(), QStringLiteral("f0rged"));
        QVERIFY(!o.finding->evidence.contains(QStringLiteral("issuedCursor")));
        QVERIFY2(o.finding->message.startsWith(onlyEmpty
                                                   ? QStringLiteral("The list issued no cursor but \"\"")
                                                   : QStringLiteral("The list fits one page")),
                 qPrintable(o.finding->message));
        if (kind == ProbeAnswer::Kind::Page)
            QVERIFY2(o.finding->message.contains(QLatin1String("a forged cursor (f0rged) was answered with a "
                                                               "page of 2 items instead of an error -32602")),
                     qPrintable(o.finding->message));
    }
}

void tst_AuditProbes::foreignList_data()
{
    QTest::addColumn<ProbeAnswer::Kind>("kind");
    QTest::addColumn<bool>("finding");
    QTest::addColumn<bool>("note");
    QTest::addRow("page_is_foreign_cursor_accepted") << ProbeAnswer::Kind::Page << true << false;
    QTest::addRow("any_error_passes") << ProbeAnswer::Kind::RpcError << false << false;
    QTest::addRow("tool_is_error_passes") << ProbeAnswer::Kind::ToolError << false << false;
    QTest::addRow("failure_is_inconclusive") << ProbeAnswer::Kind::Failed << false << true;
}

void tst_AuditProbes::foreignList()
{
    QFETCH(ProbeAnswer::Kind, kind);
    QFETCH(bool, finding);
    QFETCH(bool, note);
    const CheckOutcome o =
        AuditProbes::judgeForeignList(answer(kind, -32000), QStringLiteral("prompts"), QStringLiteral("p1"));
    QCOMPARE(o.finding.has_value(), finding);
    QCOMPARE(!o.note.isEmpty(), note);
    if (o.finding) {
        QCOMPARE(o.finding->id, FindingId::ForeignCursorAccepted);
        QVERIFY(o.finding->pages.isEmpty());
        QCOMPARE(o.finding->evidence.value(QStringLiteral("from")).toString(), QStringLiteral("prompts"));
        QVERIFY(o.finding->message.contains(QStringLiteral("2 items")));
    }
}

void tst_AuditProbes::otherArgumentsJudged_data()
{
    foreignList_data();
}

void tst_AuditProbes::otherArgumentsJudged()
{
    QFETCH(ProbeAnswer::Kind, kind);
    QFETCH(bool, finding);
    QFETCH(bool, note);
    const QJsonObject walk = jsonObject(R"({"channel":"x"})");
    const QJsonObject probe = jsonObject(R"({"channel":"xa"})");
    const CheckOutcome o =
        AuditProbes::judgeOtherArguments(answer(kind, -32602), QStringLiteral("c1"), walk, probe, 2);
    QCOMPARE(o.finding.has_value(), finding);
    QCOMPARE(!o.note.isEmpty(), note);
    if (o.finding) {
        QCOMPARE(o.finding->id, FindingId::ForeignCursorAccepted);
        QCOMPARE(o.finding->pages, QList<int>{2});
        QCOMPARE(o.finding->evidence.value(QStringLiteral("walkArguments")).toObject(), walk);
        QCOMPARE(o.finding->evidence.value(QStringLiteral("probeArguments")).toObject(), probe);
        QVERIFY(o.finding->message.startsWith(QStringLiteral("Page 3's cursor")));
    }
}

void tst_AuditProbes::emptyCursor_data()
{
    QTest::addColumn<ProbeAnswer::Kind>("kind");
    QTest::addColumn<bool>("finding");
    QTest::addColumn<bool>("note");
    QTest::addRow("page_passes") << ProbeAnswer::Kind::Page << false << false;
    QTest::addRow("error_is_empty_cursor_rejected") << ProbeAnswer::Kind::RpcError << true << false;
    QTest::addRow("tool_is_error_is_empty_cursor_rejected") << ProbeAnswer::Kind::ToolError << true << false;
    QTest::addRow("failure_is_inconclusive") << ProbeAnswer::Kind::Failed << false << true;
}

void tst_AuditProbes::emptyCursor()
{
    QFETCH(ProbeAnswer::Kind, kind);
    QFETCH(bool, finding);
    QFETCH(bool, note);
    const CheckOutcome o =
        AuditProbes::judgeEmptyCursor(answer(kind, -32602, QStringLiteral("bad cursor")), 0);
    QCOMPARE(o.finding.has_value(), finding);
    QCOMPARE(!o.note.isEmpty(), note);
    if (o.finding) {
        QCOMPARE(o.finding->id, FindingId::EmptyCursorRejected);
        QCOMPARE(o.finding->pages, QList<int>{0});
        QCOMPARE(o.finding->evidence.value(QStringLiteral("cursor")).toString(), QString());
        QVERIFY(o.finding->message.endsWith(QStringLiteral("page 1: bad cursor")));
    }
}

void tst_AuditProbes::evidence()
{
    ProbeAnswer page = answer(ProbeAnswer::Kind::Page);
    for (int i = 0; i < 10; ++i)
        page.identities << QStringLiteral("i%1").arg(i);
    QCOMPARE(page.evidence().value(QStringLiteral("answer")).toString(), QStringLiteral("page"));
    QCOMPARE(page.evidence().value(QStringLiteral("items")).toArray().size(), 5); // a few, not all
    const QJsonObject error = answer(ProbeAnswer::Kind::RpcError, -32602, QStringLiteral("no")).evidence();
    QCOMPARE(error.value(QStringLiteral("answer")).toString(), QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("code")).toInt(), -32602);
    QCOMPARE(answer(ProbeAnswer::Kind::ToolError).evidence().value(QStringLiteral("answer")).toString(),
             QStringLiteral("isError"));
    QCOMPARE(answer(ProbeAnswer::Kind::Failed).evidence().value(QStringLiteral("answer")).toString(),
             QStringLiteral("failed"));
}

QTEST_GUILESS_MAIN(tst_AuditProbes)
#include "tst_auditprobes.moc"
