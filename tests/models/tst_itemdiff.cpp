// The one item diff (models/itemdiff.h): a page fetched again, a second walk, two snapshots.

#include "itemdiff.h"

#include <QTest>

using namespace folio;

namespace {

QList<ItemDiff::Item> items(const QList<QByteArray> &texts)
{
    QList<ItemDiff::Item> out;
    for (const QByteArray &t : texts)
        out.append({ItemDiff::identity(t), t});
    return out;
}

} // namespace

class tst_ItemDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compare_data()
    {
        QTest::addColumn<QList<QByteArray>>("before");
        QTest::addColumn<QList<QByteArray>>("after");
        QTest::addColumn<int>("added");
        QTest::addColumn<int>("removed");
        QTest::addColumn<int>("changed");
        QTest::addColumn<bool>("sameOrder");

        const QByteArray a = R"({"name":"a","description":"one"})";
        const QByteArray a2 = R"({"name":"a","description":"one, edited"})";
        const QByteArray b = R"({"name":"b"})";
        const QByteArray c = R"({"name":"c"})";
        QTest::newRow("the same") << QList{a, b} << QList{a, b} << 0 << 0 << 0 << true;
        QTest::newRow("both empty") << QList<QByteArray>{} << QList<QByteArray>{} << 0 << 0 << 0 << true;
        QTest::newRow("one added") << QList{a} << QList{a, b} << 1 << 0 << 0 << false;
        QTest::newRow("one removed") << QList{a, b} << QList{b} << 0 << 1 << 0 << false;
        QTest::newRow("one changed") << QList{a, b} << QList{a2, b} << 0 << 0 << 1 << true;
        QTest::newRow("reordered") << QList{a, b, c} << QList{c, a, b} << 0 << 0 << 0 << false;
        QTest::newRow("all replaced") << QList{a, b} << QList{c} << 1 << 2 << 0 << false;
        // A list that repeats an item: counted once (duplicate-items is judged elsewhere).
        QTest::newRow("repeated") << QList{a, a} << QList{a} << 0 << 0 << 0 << false;
        // Items with no identity are told apart by their text, not taken for one item.
        QTest::newRow("no identity") << QList<QByteArray>{"{\"x\":1}", "{\"x\":2}"}
                                     << QList<QByteArray>{"{\"x\":2}", "{\"x\":3}"} << 1 << 1 << 0 << false;
    }

    void compare()
    {
        QFETCH(QList<QByteArray>, before);
        QFETCH(QList<QByteArray>, after);
        QFETCH(int, added);
        QFETCH(int, removed);
        QFETCH(int, changed);
        QFETCH(bool, sameOrder);
        const ItemDiff d = ItemDiff::compare(items(before), items(after));
        QCOMPARE(d.added, added);
        QCOMPARE(d.removed, removed);
        QCOMPARE(d.changed, changed);
        QCOMPARE(d.sameOrder, sameOrder);
        QCOMPARE(d.isSame(), added + removed + changed == 0 && sameOrder);
        // Reversed, added and removed swap.
        const ItemDiff back = ItemDiff::compare(items(after), items(before));
        QCOMPARE(back.added, removed);
        QCOMPARE(back.removed, added);
    }

    void byIdentityOnly()
    {
        // The audit keeps identities: a changed text cannot be seen, a changed order can.
        const QStringList first{QStringLiteral("name:a"), QStringLiteral("name:b")};
        QVERIFY(ItemDiff::compare(first, first).isSame());
        const ItemDiff swapped =
            ItemDiff::compare(first, {QStringLiteral("name:b"), QStringLiteral("name:a")});
        QVERIFY(!swapped.isSame());
        QCOMPARE(swapped.added + swapped.removed + swapped.changed, 0);
    }

    void identity()
    {
        QCOMPARE(ItemDiff::identity(QByteArrayView(R"({"name":"x","y":1})")), QStringLiteral("name:x"));
        QCOMPARE(ItemDiff::identity(QByteArrayView(R"({"y":1})")), QStringLiteral(R"({"y":1})"));
        QCOMPARE(ItemDiff::identity(QJsonObject{{QStringLiteral("uri"), QStringLiteral("file:///a")}}),
                 QStringLiteral("uri:file:///a"));
        QCOMPARE(ItemDiff::identity(QJsonObject{{QStringLiteral("y"), 1}}), QStringLiteral(R"({"y":1})"));
    }
};

QTEST_GUILESS_MAIN(tst_ItemDiff)
#include "tst_itemdiff.moc"
