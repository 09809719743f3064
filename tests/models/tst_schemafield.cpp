#include "schemafield.h"
#include "testjson.h"

#include <QJsonDocument>
#include <QTest>

using folio::SchemaField;
using Kind = folio::SchemaField::Kind;
using testsupport::jsonObject;

// SchemaField: what a form shows for a schema, decided without widgets.
class tst_SchemaField : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void kinds_data();
    void kinds();
    void refsAndAllOf();
    void enumTitles();
    void integerBounds();
    void bounded();
};

namespace {

SchemaField field(const char *schema, const QJsonObject &root = {})
{
    return SchemaField::describe(root.isEmpty() ? jsonObject(schema) : root, QStringLiteral("f"),
                                 jsonObject(schema), true, 1);
}

} // namespace

void tst_SchemaField::kinds_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<int>("kind");
    auto row = [](const char *tag, const char *schema, Kind kind) {
        QTest::newRow(tag) << QByteArray(schema) << int(kind);
    };
    row("string", R"({"type":"string"})", Kind::String);
    row("string_or_null", R"({"type":["null","string"]})", Kind::String);
    row("string_with_alternatives", R"({"type":"string","anyOf":[{"minLength":1},{"maxLength":0}]})",
        Kind::Json);
    row("number", R"({"type":"number"})", Kind::Number);
    row("integer", R"({"type":"integer"})", Kind::Integer);
    row("boolean", R"({"type":"boolean"})", Kind::Boolean);
    row("enum", R"({"enum":["a","b"]})", Kind::Enum);
    row("lone_const", R"({"const":7})", Kind::Enum);
    row("object_by_properties", R"({"properties":{"a":{}}})", Kind::Object);
    row("array", R"({"type":"array","items":{"type":"string"}})", Kind::Array);
    row("tuple_is_json", R"({"type":"array","prefixItems":[{}],"items":{}})", Kind::Json);
    row("no_type_is_json", R"({})", Kind::Json);
}

void tst_SchemaField::kinds()
{
    QFETCH(QByteArray, schema);
    QFETCH(int, kind);
    QCOMPARE(int(field(schema.constData()).kind), kind);
}

void tst_SchemaField::refsAndAllOf()
{
    // A $ref's siblings win over its target; a chain is followed; allOf parts merge.
    const QJsonObject root = jsonObject(R"({"type":"object","properties":{
        "state":{"$ref":"#/$defs/Alias","description":"mine"},
        "both":{"allOf":[{"$ref":"#/$defs/A"},{"properties":{"b":{"type":"integer"}},"required":["b"]}]}},
        "$defs":{"Alias":{"$ref":"#/$defs/State"},
                 "State":{"type":"string","enum":["open","closed"],"description":"theirs"},
                 "A":{"properties":{"a":{"type":"string"}}}}})");
    const SchemaField top = SchemaField::describe(root, QString(), root, true, 0);
    QCOMPARE(top.kind, Kind::Object);
    QCOMPARE(top.members.size(), size_t(2));
    const SchemaField &both = top.members.at(0);
    const SchemaField &state = top.members.at(1);
    QCOMPARE(state.name, QStringLiteral("state"));
    QCOMPARE(state.kind, Kind::Enum);
    QCOMPARE(state.description, QStringLiteral("mine"));
    QCOMPARE(state.choices.size(), 2);
    QCOMPARE(both.kind, Kind::Object);
    QCOMPARE(both.members.size(), size_t(2));
    QCOMPARE(both.members.at(0).name, QStringLiteral("a"));
    QVERIFY(!both.members.at(0).required);
    QCOMPARE(both.members.at(1).kind, Kind::Integer);
    QVERIFY(both.members.at(1).required);
}

void tst_SchemaField::enumTitles()
{
    const SchemaField f = field(R"({"oneOf":[{"const":"s","title":"Small"},{"const":"l"}]})");
    QCOMPARE(f.kind, Kind::Enum);
    QCOMPARE(f.choices.size(), 2);
    QCOMPARE(f.choiceTitles, (QStringList{QStringLiteral("Small"), QString()}));
    const SchemaField named = field(R"({"enum":[1,2,3],"enumNames":["one"]})");
    QCOMPARE(named.choiceTitles, (QStringList{QStringLiteral("one"), QString(), QString()}));
}

void tst_SchemaField::integerBounds()
{
    const SchemaField f = field(R"({"type":"integer","exclusiveMinimum":0,"maximum":10.5})");
    QCOMPARE(f.low, 1.0);
    QCOMPARE(f.high, 10.0);
    const SchemaField huge = field(R"({"type":"integer","minimum":-1e300})");
    QCOMPARE(huge.low, -SchemaField::spinLimit);
    QCOMPARE(huge.high, SchemaField::spinLimit);
}

void tst_SchemaField::bounded()
{
    // A $ref cycle stops after its hops; nesting past maxNesting is a JSON field; a form holds at
    // most maxFields top-level fields.
    const QJsonObject loop =
        jsonObject(R"({"$ref":"#/$defs/A","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}})");
    QCOMPARE(SchemaField::describe(loop, QString(), loop, true, 0).kind, Kind::Json);
    const QJsonObject deep = jsonObject(R"({"type":"object","properties":{"n":{"$ref":"#"}}})");
    const SchemaField *f = nullptr;
    SchemaField top = SchemaField::describe(deep, QString(), deep, true, 0);
    f = &top;
    int depth = 0;
    while (f->kind == Kind::Object && !f->members.empty()) {
        f = &f->members.front();
        ++depth;
    }
    QCOMPARE(depth, SchemaField::maxNesting);
    QCOMPARE(f->kind, Kind::Json);
    QJsonObject properties;
    for (int i = 0; i < SchemaField::maxFields + 50; ++i)
        properties.insert(QStringLiteral("p%1").arg(i, 3, 10, QLatin1Char('0')),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    const QJsonObject wide{{QStringLiteral("type"), QStringLiteral("object")},
                           {QStringLiteral("properties"), properties}};
    QCOMPARE(SchemaField::describe(wide, QString(), wide, true, 0).members.size(),
             size_t(SchemaField::maxFields));
}

QTEST_GUILESS_MAIN(tst_SchemaField)
#include "tst_schemafield.moc"
