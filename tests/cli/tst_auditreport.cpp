// The audit's result as people and CI systems read it: well-formed JUnit XML whatever the names
// and messages hold, and an exit code that says whether an error-severity finding was made.

#include "auditreport.h"

#include <QTest>
#include <QXmlStreamReader>

using namespace folio;

class tst_AuditReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void junitIsWellFormed();
    void exitCode_data();
    void exitCode();
};

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
