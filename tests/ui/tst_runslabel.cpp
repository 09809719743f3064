#include "runslabel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QTest>

using namespace folio;

// RunsLabel: one line of plain and bold runs, sized by its text, elided with a tooltip, copyable.
class tst_RunsLabel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sizeFollowsTheRuns();
    void narrowShowsTheWholeTextAsTooltip();
    void copiesItsText();
};

void tst_RunsLabel::sizeFollowsTheRuns()
{
    RunsLabel label;
    label.setRuns({{QStringLiteral("Demo"), true}, {QStringLiteral(" 0.1.0")}});
    QCOMPARE(label.text(), QStringLiteral("Demo 0.1.0"));
    const QSize short_ = label.sizeHint();
    QVERIFY(short_.width() > 0);
    QCOMPARE(short_.height(), label.fontMetrics().height());
    label.setRuns({{QStringLiteral("Demo"), true}, {QStringLiteral(" 0.1.0 \u00b7 revision 2026-07-28")}});
    QVERIFY(label.sizeHint().width() > short_.width());
    QCOMPARE(label.sizeHint().height(), short_.height());
    // Bold takes more room than plain.
    RunsLabel plain;
    plain.setRuns({{QStringLiteral("WWWWWWWW")}});
    RunsLabel bold;
    bold.setRuns({{QStringLiteral("WWWWWWWW"), true}});
    QVERIFY(bold.sizeHint().width() >= plain.sizeHint().width());
    QVERIFY(label.minimumSizeHint().width() < label.sizeHint().width());
}

void tst_RunsLabel::narrowShowsTheWholeTextAsTooltip()
{
    RunsLabel label;
    label.setRuns(
        {{QStringLiteral("A server name"), true}, {QStringLiteral(" with a long line of details after it")}});
    label.resize(label.sizeHint());
    label.show();
    QVERIFY(QTest::qWaitForWindowExposed(&label));
    QVERIFY(label.toolTip().isEmpty());
    label.resize(label.sizeHint().width() / 3, label.sizeHint().height());
    QTRY_COMPARE(label.toolTip(), label.text());
    QVERIFY(!label.grab().isNull()); // paints, elided, without trouble
}

void tst_RunsLabel::copiesItsText()
{
    RunsLabel label;
    label.setRuns({{QStringLiteral("Demo"), true}, {QStringLiteral(" 0.1.0")}});
    QCOMPARE(label.actions().size(), 1);
    label.actions().first()->trigger();
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("Demo 0.1.0"));
}

QTEST_MAIN(tst_RunsLabel)
#include "tst_runslabel.moc"
