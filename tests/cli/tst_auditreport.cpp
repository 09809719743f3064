// The audit's result as people and CI systems read it: well-formed JUnit XML whatever the names
// and messages hold, and an exit code that says whether an error-severity finding was made.

#include "auditreport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QXmlStreamReader>

using namespace folio;

class tst_AuditReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void junitIsWellFormed();
    void filledArgumentsShown_data() { everyFormat(); }
    void filledArgumentsShown();
    void pagesNumberedFromOne_data() { everyFormat(); }
    void pagesNumberedFromOne();
    void exitCode_data();
    void exitCode();

private:
    // One row a report format: the column format, an AuditReportFormat.
    static void everyFormat();
};

void tst_AuditReport::everyFormat()
{
    QTest::addColumn<int>("format");
    QTest::addRow("text") << int(AuditReportFormat::Text);
    QTest::addRow("json") << int(AuditReportFormat::Json);
    QTest::addRow("markdown") << int(AuditReportFormat::Markdown);
    QTest::addRow("junit") << int(AuditReportFormat::Junit);
}

void tst_AuditReport::junitIsWellFormed()
{
    AuditResult result;
    result.server = {{QStringLiteral("name"), QStringLiteral("a<b>&\"c\"")}};
    AuditedList l;
    l.id = QStringLiteral("tools");
    Finding f;
    f.id = FindingId::CursorRepeated;
    f.severity = Finding::Severity::Error;
    f.pages = {2};
    f.message = QStringLiteral("loop <here> & \"there\"");
    l.findings << f;
    result.lists << l;
    const QString xml = AuditReport::toJunit(result);
    QXmlStreamReader reader(xml);
    while (!reader.atEnd())
        reader.readNext();
    QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
    QVERIFY(xml.contains(QStringLiteral("<failure type=\"cursor-repeated\"")));
}

// A list tool walked with arguments filled from its schema: every format says which, and the
// JSON holds the arguments sent.
void tst_AuditReport::filledArgumentsShown()
{
    QFETCH(int, format);
    AuditResult result;
    AuditedList l;
    l.id = QStringLiteral("tool:list_repo_issues");
    l.arguments = {{QStringLiteral("repo"), QStringLiteral("octo/demo")},
                   {QStringLiteral("state"), QStringLiteral("open")}};
    l.pages = 2;
    l.complete = true;
    const QString note = QStringLiteral(
        "arguments filled from the schema: repo=\"octo/demo\" (examples), state=\"open\" (enum)");
    l.notes << note;
    result.lists << l;
    const QString out = AuditReport::render(result, AuditReportFormat(format));
    switch (AuditReportFormat(format)) {
    case AuditReportFormat::Sarif: // findings only: a note is no result
        QCOMPARE(QJsonDocument::fromJson(out.toUtf8()).object().value(QStringLiteral("version")).toString(),
                 QStringLiteral("2.1.0"));
        break;
    case AuditReportFormat::Text:
        QVERIFY2(out.contains(QStringLiteral("    note    ") + note + QLatin1Char('\n')), qPrintable(out));
        break;
    case AuditReportFormat::Markdown:
        QVERIFY2(out.contains(QStringLiteral("- note: ") + note + QLatin1Char('\n')), qPrintable(out));
        break;
    case AuditReportFormat::Junit: {
        QXmlStreamReader reader(out);
        QString systemOut;
        while (!reader.atEnd()) {
            if (reader.readNext() == QXmlStreamReader::StartElement &&
                reader.name() == QLatin1String("system-out"))
                systemOut = reader.readElementText();
        }
        QVERIFY2(!reader.hasError(), qPrintable(reader.errorString()));
        QVERIFY2(systemOut.contains(QStringLiteral("note: ") + note), qPrintable(systemOut));
        break;
    }
    case AuditReportFormat::Json: {
        const QJsonObject list = QJsonDocument::fromJson(out.toUtf8())
                                     .object()
                                     .value(QStringLiteral("lists"))
                                     .toArray()
                                     .first()
                                     .toObject();
        QCOMPARE(list.value(QStringLiteral("arguments")).toObject(), l.arguments);
        QCOMPARE(list.value(QStringLiteral("notes")).toArray(), QJsonArray{note});
        break;
    }
    }
}

// The third page (index 2 in C++) is page 3 in every format, JSON included.
void tst_AuditReport::pagesNumberedFromOne()
{
    QFETCH(int, format);
    AuditResult result;
    AuditedList l;
    l.id = QStringLiteral("tools");
    Finding f;
    f.id = FindingId::ScopeMismatch;
    f.severity = Finding::Severity::Error;
    f.pages = {2, 0};
    f.message = QStringLiteral("scopes differ");
    l.findings << f;
    result.lists << l;
    const QString out = AuditReport::render(result, AuditReportFormat(format));
    if (AuditReportFormat(format) == AuditReportFormat::Json) {
        const QJsonObject finding = QJsonDocument::fromJson(out.toUtf8())
                                        .object()
                                        .value(QStringLiteral("lists"))
                                        .toArray()
                                        .first()
                                        .toObject()
                                        .value(QStringLiteral("findings"))
                                        .toArray()
                                        .first()
                                        .toObject();
        QCOMPARE(finding.value(QStringLiteral("page")).toInt(), 3);
        QCOMPARE(finding.value(QStringLiteral("pages")).toArray(), (QJsonArray{3, 1}));
    } else {
        QVERIFY2(out.contains(QStringLiteral("page 3")), qPrintable(out));
        QVERIFY2(!out.contains(QStringLiteral("page 2")), qPrintable(out));
    }
}

void tst_AuditReport::exitCode_data()
{
    QTest::addColumn<int>("severity"); // of the one finding; -1 for none
    QTest::addColumn<int>("code");
    QTest::addRow("clean_audit") << -1 << 0;
    QTest::addRow("note_only") << int(Finding::Severity::Info) << 0;
    QTest::addRow("warning_only") << int(Finding::Severity::Warning) << 0;
    QTest::addRow("error_finding") << int(Finding::Severity::Error) << 1;
}

void tst_AuditReport::exitCode()
{
    QFETCH(int, severity);
    QFETCH(int, code);
    AuditResult result;
    AuditedList l;
    l.id = QStringLiteral("tools");
    if (severity >= 0) {
        Finding f;
        f.id = FindingId::DuplicateItem;
        f.severity = Finding::Severity(severity);
        f.pages = {0};
        l.findings << f;
    }
    result.lists << l;
    QCOMPARE(AuditReport::exitCode(result), code);
}

QTEST_GUILESS_MAIN(tst_AuditReport)
#include "tst_auditreport.moc"
