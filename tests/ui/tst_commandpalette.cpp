#include "commandpalette.h"

#include <QLineEdit>
#include <QListView>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

// Find anything: the palette's match, order and keys (the window's entries: tst_mainwindow).
class tst_CommandPalette : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void scoreMatchesLettersInOrder_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("matches");
        QTest::newRow("prefix") << "load"
                                << "List › Load All Pages" << true;
        QTest::newRow("initials") << "lap"
                                  << "List › Load All Pages" << true;
        QTest::newRow("case aside") << "GETPOST"
                                    << "get_post" << true;
        QTest::newRow("out of order") << "tsop"
                                      << "get_post" << false;
        QTest::newRow("a letter missing") << "get_posz"
                                          << "get_post" << false;
        QTest::newRow("spaces ignored") << "get post"
                                        << "get_post" << true;
    }
    void scoreMatchesLettersInOrder()
    {
        QFETCH(QString, query);
        QFETCH(QString, text);
        QFETCH(bool, matches);
        QCOMPARE(CommandPalette::score(query, text) >= 0, matches);
    }

    void wordStartsAndRunsComeFirst()
    {
        // "post" as a run at a word start beats the same letters scattered.
        QVERIFY(CommandPalette::score(QStringLiteral("post"), QStringLiteral("get_post")) >
                CommandPalette::score(QStringLiteral("post"), QStringLiteral("pin_or_set_timeout")));
        // Initials of words beat the same letters inside one.
        QVERIFY(CommandPalette::score(QStringLiteral("ra"), QStringLiteral("Restart All")) >
                CommandPalette::score(QStringLiteral("ra"), QStringLiteral("library")));
    }

    void filtersRunsAndCloses()
    {
        QWidget window;
        window.resize(800, 600);
        window.show();
        CommandPalette palette(&window);
        QStringList ran;
        QList<CommandPalette::Entry> entries;
        for (const QString &name : {QStringLiteral("get_post"), QStringLiteral("create_post"),
                                    QStringLiteral("list_users"), QStringLiteral("\x1b[31mred\x1b[0m")})
            entries.append(
                {QStringLiteral("Item"), name, QStringLiteral("tools"), [&ran, name] { ran << name; }});
        palette.setEntries(entries);
        palette.popup();
        QVERIFY(QTest::qWaitForWindowExposed(&palette));
        QCOMPARE(palette.shownTexts().size(), 4); // all, in their order, before any text
        // Nothing raw from a server reaches the screen.
        QVERIFY(!palette.shownTexts().last().contains(QChar(0x1b)));

        QTest::keyClicks(palette.field(), QStringLiteral("post"));
        QCOMPARE(palette.shownTexts(),
                 (QStringList{QStringLiteral("get_post"), QStringLiteral("create_post")}));
        QTest::keyClick(palette.field(), Qt::Key_Down); // the list moves, the field keeps the keys
        QVERIFY(palette.field()->hasFocus());
        QTest::keyClick(palette.field(), Qt::Key_Return);
        QCOMPARE(ran, QStringList{QStringLiteral("create_post")});
        QVERIFY(!palette.isVisible());

        palette.popup();
        QVERIFY(palette.field()->text().isEmpty()); // each opening starts afresh
        QTest::keyClicks(palette.field(), QStringLiteral("zzz"));
        QVERIFY(palette.shownTexts().isEmpty());
        QTest::keyClick(palette.field(), Qt::Key_Return); // nothing to run
        QTest::keyClick(&palette, Qt::Key_Escape);
        QVERIFY(!palette.isVisible());
        QCOMPARE(ran.size(), 1);
    }

    void showsABoundedNumber()
    {
        CommandPalette palette;
        QList<CommandPalette::Entry> entries;
        for (int i = 0; i < 5000; ++i)
            entries.append({QStringLiteral("Item"), QStringLiteral("item_%1").arg(i), QString(), {}});
        palette.setEntries(entries);
        QCOMPARE(palette.shownTexts().size(), CommandPalette::MaxShown);
        palette.field()->setText(QStringLiteral("item_4999"));
        QCOMPARE(palette.shownTexts().value(0), QStringLiteral("item_4999"));
    }
};

QTEST_MAIN(tst_CommandPalette)
#include "tst_commandpalette.moc"
