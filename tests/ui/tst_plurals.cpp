#include "plurals.h"

#include <QCoreApplication>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

using namespace folio;

// Folio's English plural forms: installed, "%n row(s)" reads "1 row" and "2 rows"; every counting
// text in the sources has its forms in resources/translations/folio_en.ts, and each form is filled.
class tst_Plurals : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void countsReadAsEnglish();
    void everyCountingTextHasItsForms();
};

void tst_Plurals::countsReadAsEnglish()
{
    QCOMPARE(QCoreApplication::translate("folio::ListView", "%n row(s)", nullptr, 1),
             QStringLiteral("1 row(s)"));
    QVERIFY(installPluralForms(QCoreApplication::instance()));
    QCOMPARE(QCoreApplication::translate("folio::ListView", "%n row(s)", nullptr, 1),
             QStringLiteral("1 row"));
    QCOMPARE(QCoreApplication::translate("folio::ListView", "%n row(s)", nullptr, 123),
             QStringLiteral("123 rows"));
    QCOMPARE(QCoreApplication::translate("folio::ListView", "%n row(s)", nullptr, 0),
             QStringLiteral("0 rows"));
    QCOMPARE(QCoreApplication::translate("folio::ListView", "%n finding(s)", nullptr, 1),
             QStringLiteral("1 finding"));
    QCOMPARE(QCoreApplication::translate("folio::AuditPanel", "%n warning(s)", nullptr, 2),
             QStringLiteral("2 warnings"));
    // A text without a count is left alone.
    QCOMPARE(QCoreApplication::translate("folio::ListView", "Load all"), QStringLiteral("Load all"));
}

void tst_Plurals::everyCountingTextHasItsForms()
{
    // The forms, by source text.
    QFile ts(QStringLiteral(FOLIO_SOURCE_DIR "/resources/translations/folio_en.ts"));
    QVERIFY(ts.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&ts);
    QHash<QString, QStringList> forms;
    QString source;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
            forms[source].clear(); // the same text in another context: its forms again
        } else if (xml.name() == QLatin1String("numerusform"))
            forms[source].append(xml.readElementText());
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    for (auto it = forms.cbegin(); it != forms.cend(); ++it) {
        QCOMPARE(it.value().size(), 2); // English: one, other
        for (const QString &form : it.value())
            QVERIFY2(!form.isEmpty() && !form.contains(QLatin1String("(s)")), qPrintable(it.key()));
    }
    // Every tr() with a count (%n) in the window's and the models' sources.
    static const QRegularExpression counted(
        QStringLiteral(R"re(tr\("((?:[^"\\]|\\.)*%n(?:[^"\\]|\\.)*)")re"));
    int seen = 0;
    for (const char *dir : {"ui", "models"}) {
        QDirIterator files(QStringLiteral(FOLIO_SOURCE_DIR "/") + QLatin1String(dir),
                           {QStringLiteral("*.cpp")});
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(file.readAll());
            for (auto m = counted.globalMatch(text); m.hasNext();) {
                const QString sourceText =
                    m.next().captured(1).replace(QLatin1String("\\\""), QLatin1String("\""));
                QVERIFY2(forms.contains(sourceText),
                         qPrintable(QStringLiteral("%1: \"%2\" has no plural forms: run lupdate -pluralonly "
                                                   "(docs/architecture.md)")
                                        .arg(file.fileName(), sourceText)));
                ++seen;
            }
        }
    }
    QVERIFY(seen >= 10);
}

QTEST_GUILESS_MAIN(tst_Plurals)
#include "tst_plurals.moc"
