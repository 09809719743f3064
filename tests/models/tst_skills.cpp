// Skills (issue 34, SEP-2640): a skill's SKILL.md frontmatter read as YAML (libyaml) and compared
// with the entry's, and SkillLoad against a scripted server: a skill whose files match their
// entry loads; a SKILL.md whose size, digest or frontmatter is not the entry's rejects the skill
// before any other file is read; a supporting file that fails rejects it too. Hostile YAML (an
// alias bomb, deep nesting) stops at the bounds.

#include "frontmatter.h"
#include "scriptedtransport.h"
#include "skills.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace folio;

namespace {

const QString skillUri = QStringLiteral("skill://demo/weekly-digest/SKILL.md");
const QString refUri = QStringLiteral("skill://demo/weekly-digest/references/template.md");
const QString skillText = QStringLiteral("---\nname: weekly-digest\ndescription: Summarise the week's posts\n"
                                         "metadata:\n  version: 2\n  tags: [digest, \"weekly\"]\n---\n\n"
                                         "Body of the skill.\n");
const QString refText = QStringLiteral("Template: {{week}}\n");

QString sha(const QString &text)
{
    return QStringLiteral("sha256:") +
           QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QJsonObject entryFor(const QString &listedSkillText, const QJsonObject &frontmatter)
{
    return {{QStringLiteral("uri"), skillUri},
            {QStringLiteral("frontmatter"), frontmatter},
            {QStringLiteral("resources"),
             QJsonArray{QJsonObject{{QStringLiteral("uri"), skillUri},
                                    {QStringLiteral("digest"), sha(listedSkillText)},
                                    {QStringLiteral("size"), listedSkillText.toUtf8().size()}},
                        QJsonObject{{QStringLiteral("uri"), refUri},
                                    {QStringLiteral("digest"), sha(refText)},
                                    {QStringLiteral("size"), refText.toUtf8().size()}}}}};
}

QJsonObject frontmatterOfSkill()
{
    return {{QStringLiteral("name"), QStringLiteral("weekly-digest")},
            {QStringLiteral("description"), QStringLiteral("Summarise the week's posts")},
            {QStringLiteral("metadata"),
             QJsonObject{
                 {QStringLiteral("version"), 2},
                 {QStringLiteral("tags"), QJsonArray{QStringLiteral("digest"), QStringLiteral("weekly")}}}}};
}

QJsonObject readResult(const QString &uri, const QString &text)
{
    return {{QStringLiteral("contents"),
             QJsonArray{QJsonObject{{QStringLiteral("uri"), uri},
                                    {QStringLiteral("mimeType"), QStringLiteral("text/markdown")},
                                    {QStringLiteral("text"), text}}}}};
}

} // namespace

class tst_Skills : public QObject
{
    Q_OBJECT

private:
    // A client on a scripted server that serves SKILL.md as served and the reference file as
    // refServed; the reads it saw, in order.
    McpClient *serve(const QString &served, const QString &refServed = refText);
    std::unique_ptr<QObject> m_owner;
    QStringList m_reads;

private Q_SLOTS:
    void cleanup();
    void frontmatterIsTypedAsYamlCore();
    void frontmatterNeedsItsBlock();
    void hostileYamlIsBounded();
    void aVerifiedSkillLoads();
    void aTamperedSkillMdRejectsTheSkill_data();
    void aTamperedSkillMdRejectsTheSkill();
    void aTamperedSupportingFileRejectsTheSkill();
    void aFailedReadRejectsTheSkill();
};

void tst_Skills::cleanup()
{
    m_owner.reset();
    m_reads.clear();
}

McpClient *tst_Skills::serve(const QString &served, const QString &refServed)
{
    m_owner = std::make_unique<QObject>();
    return connectedToScripted(
        m_owner.get(), [this, served, refServed](const QString &method, const QJsonObject &params) {
            if (method != QLatin1String("resources/read"))
                return QJsonObject{{QStringLiteral("resultType"), QStringLiteral("complete")}};
            const QString uri = params.value(QStringLiteral("uri")).toString();
            m_reads << uri;
            if (uri == skillUri)
                return readResult(uri, served);
            if (uri == refUri)
                return readResult(uri, refServed);
            return QJsonObject{{QStringLiteral("error"),
                                QJsonObject{{QStringLiteral("code"), -32602},
                                            {QStringLiteral("message"), QStringLiteral("no such file")}}}};
        });
}

void tst_Skills::frontmatterIsTypedAsYamlCore()
{
    const auto parsed = Frontmatter::parse(skillText);
    QVERIFY(parsed);
    QCOMPARE(*parsed, frontmatterOfSkill());
    // Plain scalars are typed; quoted ones stay text; a BOM and CRLF lines are allowed.
    const auto typed =
        Frontmatter::parse(QStringLiteral("\uFEFF---\r\na: true\r\nb: \"true\"\r\nc: ~\r\nd: 1.5\r\n"
                                          "e: 0x1f\r\nf: plain text\r\n---\r\n"));
    QVERIFY(typed);
    QCOMPARE(typed->value(QStringLiteral("a")), QJsonValue(true));
    QCOMPARE(typed->value(QStringLiteral("b")), QJsonValue(QStringLiteral("true")));
    QCOMPARE(typed->value(QStringLiteral("c")), QJsonValue(QJsonValue::Null));
    QCOMPARE(typed->value(QStringLiteral("d")), QJsonValue(1.5));
    QCOMPARE(typed->value(QStringLiteral("e")), QJsonValue(31));
    QCOMPARE(typed->value(QStringLiteral("f")), QJsonValue(QStringLiteral("plain text")));
    // Differences: a field absent on one side counts as null.
    QJsonObject other = frontmatterOfSkill();
    other.insert(QStringLiteral("description"), QStringLiteral("Exfiltrate credentials"));
    other.insert(QStringLiteral("license"), QJsonValue::Null);
    QCOMPARE(Frontmatter::differences(*parsed, other), QStringList{QStringLiteral("description")});
}

void tst_Skills::frontmatterNeedsItsBlock()
{
    QString why;
    QVERIFY(!Frontmatter::parse(QStringLiteral("# no frontmatter\n"), &why));
    QVERIFY(why.contains(QStringLiteral("frontmatter block")));
    QVERIFY(!Frontmatter::parse(QStringLiteral("---\n- a\n- b\n---\n"), &why));
    QVERIFY(why.contains(QStringLiteral("mapping")));
    QVERIFY(!Frontmatter::parse(QStringLiteral("---\na: [unclosed\n---\n"), &why));
    QVERIFY2(why.contains(QStringLiteral("not YAML")), qPrintable(why));
}

void tst_Skills::hostileYamlIsBounded()
{
    // A billion laughs: each level doubles ten times over; expanded it would be 10^9 values.
    QString bomb = QStringLiteral("---\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 9; ++i)
        bomb += QStringLiteral("a%1: &a%1 [*a%2, *a%2, *a%2, *a%2, *a%2, *a%2, *a%2, *a%2, *a%2, *a%2]\n")
                    .arg(i)
                    .arg(i - 1);
    bomb += QStringLiteral("---\n");
    QString why;
    QVERIFY(!Frontmatter::parse(bomb, &why));
    QVERIFY2(why.contains(QStringLiteral("more than")), qPrintable(why));
    QString deep = QStringLiteral("---\na: ") + QString(200, QLatin1Char('[')) +
                   QString(200, QLatin1Char(']')) + QStringLiteral("\n---\n");
    QVERIFY(!Frontmatter::parse(deep, &why));
    QVERIFY2(why.contains(QStringLiteral("nests deeper")), qPrintable(why));
    QVERIFY(!Frontmatter::parse(
        QStringLiteral("---\na: ") + QString(70000, QLatin1Char('x')) + QStringLiteral("\n---\n"), &why));
    QVERIFY(why.contains(QStringLiteral("KiB")));
}

void tst_Skills::aVerifiedSkillLoads()
{
    McpClient *client = serve(skillText);
    QVERIFY(client);
    const auto entry = SkillEntry::fromJson(entryFor(skillText, frontmatterOfSkill()));
    QVERIFY(entry);
    QCOMPARE(entry->name(), QStringLiteral("weekly-digest"));
    QCOMPARE(entry->files.size(), 2);
    SkillLoad load(client, *entry);
    QSignalSpy done(&load, &SkillLoad::finished);
    load.start();
    QVERIFY(done.wait(5000));
    QCOMPARE(load.outcome(), SkillLoad::Outcome::Loaded);
    QCOMPARE(m_reads, (QStringList{skillUri, refUri})); // SKILL.md first
    QCOMPARE(load.files().size(), 2);
    for (const SkillFileCheck &c : load.files())
        QCOMPARE(c.verdict, SkillFileCheck::Verdict::Verified);
    QCOMPARE(load.files().at(0).text, skillText);
    QCOMPARE(load.files().at(1).digest, sha(refText));
    QCOMPARE(load.toJson().value(QStringLiteral("outcome")).toString(), QStringLiteral("loaded"));
}

void tst_Skills::aTamperedSkillMdRejectsTheSkill_data()
{
    QTest::addColumn<QString>("served");
    QTest::addColumn<bool>("listServed"); // the entry lists the served file's digest and size
    QTest::addColumn<int>("verdict");
    QString evil = skillText;
    evil.replace(QStringLiteral("Body of the skill."), QStringLiteral("Evil body!!!!!!!!!"));
    QCOMPARE(evil.size(), skillText.size());
    QTest::newRow("digest") << evil << false << int(SkillFileCheck::Verdict::DigestMismatch);
    QTest::newRow("size") << skillText + QStringLiteral("extra bytes the entry did not account for\n")
                          << false << int(SkillFileCheck::Verdict::SizeMismatch);
    QString exfiltrate = skillText;
    exfiltrate.replace(QStringLiteral("Summarise the week's posts"),
                       QStringLiteral("Exfiltrate credentials"));
    QTest::newRow("frontmatter") << exfiltrate << true << int(SkillFileCheck::Verdict::FrontmatterMismatch);
}

void tst_Skills::aTamperedSkillMdRejectsTheSkill()
{
    QFETCH(QString, served);
    QFETCH(bool, listServed);
    QFETCH(int, verdict);
    McpClient *client = serve(served);
    QVERIFY(client);
    SkillLoad load(client,
                   *SkillEntry::fromJson(entryFor(listServed ? served : skillText, frontmatterOfSkill())));
    QSignalSpy done(&load, &SkillLoad::finished);
    load.start();
    QVERIFY(done.wait(5000));
    QCOMPARE(load.outcome(), SkillLoad::Outcome::Rejected);
    QCOMPARE(int(load.files().at(0).verdict), verdict);
    QVERIFY(load.files().at(0).text.isEmpty()); // nothing unverified is kept
    QCOMPARE(load.files().at(1).verdict, SkillFileCheck::Verdict::NotRead);
    QCOMPARE(m_reads, QStringList{skillUri}); // the supporting file is never asked for
    QVERIFY2(load.reason().startsWith(skillUri), qPrintable(load.reason()));
}

void tst_Skills::aTamperedSupportingFileRejectsTheSkill()
{
    McpClient *client = serve(skillText, QStringLiteral("Template: {{evil}}\n"));
    QVERIFY(client);
    SkillLoad load(client, *SkillEntry::fromJson(entryFor(skillText, frontmatterOfSkill())));
    QSignalSpy done(&load, &SkillLoad::finished);
    load.start();
    QVERIFY(done.wait(5000));
    QCOMPARE(load.outcome(), SkillLoad::Outcome::Rejected);
    QCOMPARE(load.files().at(0).verdict, SkillFileCheck::Verdict::Verified);
    QCOMPARE(load.files().at(1).verdict, SkillFileCheck::Verdict::DigestMismatch);
    QVERIFY(load.files().at(1).text.isEmpty());
}

void tst_Skills::aFailedReadRejectsTheSkill()
{
    McpClient *client = serve(skillText);
    QVERIFY(client);
    QJsonObject entry = entryFor(skillText, frontmatterOfSkill());
    entry.insert(QStringLiteral("uri"), QStringLiteral("skill://demo/missing/SKILL.md"));
    SkillLoad load(client, *SkillEntry::fromJson(entry));
    QSignalSpy done(&load, &SkillLoad::finished);
    load.start();
    QVERIFY(done.wait(5000));
    QCOMPARE(load.outcome(), SkillLoad::Outcome::Rejected);
    QCOMPARE(load.files().at(0).verdict, SkillFileCheck::Verdict::ReadFailed);
    QVERIFY(load.reason().contains(QStringLiteral("no such file")));
}

QTEST_GUILESS_MAIN(tst_Skills)
#include "tst_skills.moc"
