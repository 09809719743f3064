#include "jsontreemodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace folio;

// The JSON tree: structure, previews, pointers, and QAbstractItemModelTester on every shape.
class tst_JsonTreeModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelTester_data();
    void modelTester();
    void objectTree();
    void scalarRoot();
    void previews_data();
    void previews();
};

namespace {

QJsonValue parse(const char *json)
{
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    if (doc.isObject())
        return doc.object();
    if (doc.isArray())
        return doc.array();
    return QJsonDocument::fromJson(QByteArray("[") + json + "]").array().at(0);
}

} // namespace

void tst_JsonTreeModel::modelTester_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addRow("object") << QByteArray(
        R"({"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}},"tags":[1,2,[3,{}]]})");
    QTest::addRow("array") << QByteArray(R"([{"o":0},{"o":20},[],null,true,"x"])");
    QTest::addRow("empty_object") << QByteArray("{}");
    QTest::addRow("scalar") << QByteArray("42");
    QTest::addRow("string") << QByteArray(R"("hello")");
}

void tst_JsonTreeModel::modelTester()
{
    QFETCH(QByteArray, json);
    JsonTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setJson(parse(json.constData()));
    // Walk everything so the lazily built branches are checked too.
    std::function<void(const QModelIndex &)> walk = [&](const QModelIndex &parent) {
        for (int r = 0; r < model.rowCount(parent); ++r) {
            const QModelIndex child = model.index(r, 0, parent);
            QCOMPARE(model.parent(child), parent);
            walk(child);
        }
    };
    walk({});
    model.setJson(parse(R"({"again":[1]})"));
    walk({});
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void tst_JsonTreeModel::objectTree()
{
    JsonTreeModel model;
    model.setJson(parse(R"({"t":"tools","p":60,"deep":{"list":[true,{"a/b":null}]}})"));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(JsonTreeModel::ColumnCount));
    QCOMPARE(model.headerData(JsonTreeModel::ValueColumn, Qt::Horizontal).toString(),
             QStringLiteral("Value"));
    // QJsonObject keeps keys sorted.
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("deep"));
    QCOMPARE(model.index(1, 0).data().toString(), QStringLiteral("p"));
    QCOMPARE(model.index(1, 1).data().toString(), QStringLiteral("60"));
    QCOMPARE(model.index(1, 2).data().toString(), QStringLiteral("number"));
    QCOMPARE(model.index(2, 1).data().toString(), QStringLiteral("\"tools\""));
    QCOMPARE(model.index(2, 2).data().toString(), QStringLiteral("string"));

    const QModelIndex deep = model.index(0, 0);
    QVERIFY(model.hasChildren(deep));
    QCOMPARE(model.index(0, 2).data().toString(), QStringLiteral("object"));
    QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral(R"({"list":[true,{"a/b":null}]})"));
    const QModelIndex list = model.index(0, 0, deep);
    QCOMPARE(model.rowCount(list), 2);
    const QModelIndex second = model.index(1, 0, list);
    QCOMPARE(second.data().toString(), QStringLiteral("[1]"));
    const QModelIndex leaf = model.index(0, 0, second);
    QCOMPARE(leaf.data().toString(), QStringLiteral("a/b"));
    QCOMPARE(model.index(0, 1, second).data().toString(), QStringLiteral("null"));
    QCOMPARE(model.pointerAt(leaf), QStringLiteral("/deep/list/1/a~1b"));
    QCOMPARE(leaf.data(JsonTreeModel::JsonPointerRole).toString(), QStringLiteral("/deep/list/1/a~1b"));
    QCOMPARE(model.valueAt(second), parse(R"({"a/b":null})"));
    QCOMPARE(second.data(JsonTreeModel::JsonValueRole).value<QJsonValue>(), parse(R"({"a/b":null})"));
    QVERIFY(!model.hasChildren(leaf));
    QVERIFY(model.flags(leaf).testFlag(Qt::ItemNeverHasChildren));
}

void tst_JsonTreeModel::scalarRoot()
{
    JsonTreeModel model;
    model.setJson(QJsonValue(QStringLiteral("opaque")));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("\"opaque\""));
    QCOMPARE(model.pointerAt(model.index(0, 0)), QString());
    QCOMPARE(model.rowCount(model.index(0, 0)), 0);
}

void tst_JsonTreeModel::previews_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("preview");
    QTest::addRow("integer") << QByteArray("45000") << QStringLiteral("45000");
    QTest::addRow("fraction") << QByteArray("1.5") << QStringLiteral("1.5");
    QTest::addRow("string") << QByteArray(R"("a\nb")") << QStringLiteral("\"a b\"");
    QTest::addRow("array") << QByteArray("[1,2]") << QStringLiteral("(2) [1,2]");
    const QByteArray longString = "[\"" + QByteArray(200, 'a') + "\"]";
    QTest::addRow("long") << longString
                          << QString::fromLatin1(longString.left(119)) + QChar(0x2026); // 120 characters
}

void tst_JsonTreeModel::previews()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, preview);
    QCOMPARE(JsonTreeModel::preview(parse(json.constData())), preview);
}

QTEST_GUILESS_MAIN(tst_JsonTreeModel)
#include "tst_jsontreemodel.moc"
