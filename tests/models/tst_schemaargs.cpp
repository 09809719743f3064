// SchemaArgs: the values the audit fills in for a list tool's required arguments, from its
// inputSchema alone, and where each came from.

#include "schemaargs.h"
#include "testjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace folio;
using testsupport::jsonObject;

namespace {

// A tool's inputSchema with one required property "p" of the schema given.
QJsonObject oneRequired(const QByteArray &property, const QByteArray &extra = {})
{
    return jsonObject(R"({"type":"object","properties":{"p":)" + property + R"(},"required":["p"])" + extra +
                      "}");
}

QString sourcesOf(const SchemaArgs &args)
{
    QStringList out;
    for (const SchemaArgs::Filled &f : args.filled)
        out << f.name + QLatin1Char(':') + SchemaArgs::sourceName(f.source);
    return out.join(QLatin1Char(' '));
}

} // namespace

class tst_SchemaArgs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void value_data();
    void value();
    void onlyRequiredAndMissing();
    void givenWinAndPagingLeftOut();
    void nestedObject();
    void refCycleIsBounded();
    void deepNestingIsBounded();
    void branchingRefsAreBounded();
    void remoteRefNotFetched();
    void describe();
};

void tst_SchemaArgs::value_data()
{
    QTest::addColumn<QByteArray>("schema"); // the inputSchema: {properties:{p:…}, required:["p"], …}
    QTest::addColumn<QByteArray>("value");  // p's value, as JSON in an array
    QTest::addColumn<QString>("source");

    auto row = [](const char *tag, const QByteArray &property, const QByteArray &value, const char *source,
                  const QByteArray &extra = {}) {
        QTest::newRow(tag) << QJsonDocument(oneRequired(property, extra)).toJson(QJsonDocument::Compact)
                           << value << QString::fromLatin1(source);
    };
    row("const_wins", R"({"type":"string","const":"c","default":"d","examples":["e"],"enum":["n"]})",
        R"(["c"])", "const");
    row("default_before_examples", R"({"type":"string","default":"d","examples":["e"],"enum":["n"]})",
        R"(["d"])", "default");
    row("first_example", R"({"type":"string","examples":["octo/demo","x/y"],"enum":["n"]})",
        R"(["octo/demo"])", "examples");
    row("first_enum", R"({"type":"string","enum":["open","closed"]})", R"(["open"])", "enum");
    row("enum_skips_null", R"({"type":["string","null"],"enum":[null,"open"]})", R"(["open"])", "enum");
    row("default_null_as_given", R"({"type":["string","null"],"default":null})", "[null]", "default");
    row("default_of_another_type_as_given", R"({"type":"integer","default":"ten"})", R"(["ten"])", "default");
    row("examples_not_an_array_ignored", R"({"type":"string","examples":"e"})", R"(["example"])",
        "placeholder");
    // Placeholders by type.
    row("string", R"({"type":"string"})", R"(["example"])", "placeholder");
    row("string_min_length", R"({"type":"string","minLength":10})", R"(["examplexxx"])", "placeholder");
    row("string_max_length", R"({"type":"string","maxLength":3})", R"(["exa"])", "placeholder");
    row("string_date_time", R"({"type":"string","format":"date-time"})", R"(["2026-01-01T00:00:00Z"])",
        "placeholder");
    row("string_uri", R"({"type":"string","format":"uri"})", R"(["https://example.com/"])", "placeholder");
    row("untyped_is_string", R"({"description":"anything"})", R"(["example"])", "placeholder");
    row("true_schema_is_string", "true", R"(["example"])", "placeholder");
    row("integer_one", R"({"type":"integer"})", "[1]", "placeholder");
    row("integer_minimum", R"({"type":"integer","minimum":5})", "[5]", "placeholder");
    row("integer_minimum_zero", R"({"type":"integer","minimum":0})", "[0]", "placeholder");
    row("integer_fractional_minimum_rounds_up", R"({"type":"integer","minimum":2.5})", "[3]", "placeholder");
    row("integer_exclusive_minimum", R"({"type":"integer","exclusiveMinimum":0})", "[1]", "placeholder");
    row("integer_draft4_exclusive_minimum", R"({"type":"integer","minimum":3,"exclusiveMinimum":true})",
        "[4]", "placeholder");
    row("integer_within_maximum", R"({"type":"integer","maximum":0})", "[0]", "placeholder");
    row("number_minimum", R"({"type":"number","minimum":0.5})", "[0.5]", "placeholder");
    row("number_exclusive_maximum", R"({"type":"number","exclusiveMaximum":0.5})", "[-0.5]", "placeholder");
    row("boolean", R"({"type":"boolean"})", "[false]", "placeholder");
    row("null", R"({"type":"null"})", "[null]", "placeholder");
    row("array", R"({"type":"array","items":{"type":"string"}})", "[[]]", "placeholder");
    row("array_min_items", R"({"type":"array","minItems":2,"items":{"type":"integer","minimum":7}})",
        "[[7,7]]", "placeholder");
    row("array_prefix_items", R"({"type":"array","minItems":2,"prefixItems":[{"type":"boolean"}],
                                  "items":{"type":"string"}})",
        R"([[false,"example"]])", "placeholder");
    row("object_empty", R"({"type":"object","properties":{"a":{"type":"string"}}})", "[{}]", "placeholder");
    // A type array: its first type but "null".
    row("type_array_first_non_null", R"({"type":["null","integer","string"]})", "[1]", "placeholder");
    row("type_array_only_null", R"({"type":["null"]})", "[null]", "placeholder");
    // Alternatives: the first (but {"type":"null"}), values and all.
    row("any_of_first", R"({"anyOf":[{"type":"integer","minimum":3},{"type":"string"}]})", "[3]",
        "placeholder");
    row("any_of_skips_null", R"({"anyOf":[{"type":"null"},{"type":"string","enum":["a","b"]}]})", R"(["a"])",
        "enum");
    row("one_of_first", R"({"oneOf":[{"type":"boolean"},{"type":"string"}]})", "[false]", "placeholder");
    row("all_of_first", R"({"allOf":[{"type":"string","examples":["x"]}]})", R"(["x"])", "examples");
    row("own_default_before_alternatives", R"({"default":"d","anyOf":[{"type":"integer"}]})", R"(["d"])",
        "default");
    // $ref: local definitions, both spellings; followed through a chain.
    const QByteArray defs = R"(,"$defs":{"State":{"type":"string","enum":["open","closed"]},
                                         "Alias":{"$ref":"#/$defs/State"}},
                               "definitions":{"Page":{"type":"integer","minimum":1}})";
    row("ref_defs", R"({"$ref":"#/$defs/State"})", R"(["open"])", "enum", defs);
    row("ref_definitions", R"({"$ref":"#/definitions/Page"})", "[1]", "placeholder", defs);
    row("ref_chain", R"({"$ref":"#/$defs/Alias"})", R"(["open"])", "enum", defs);
    row("ref_in_any_of", R"({"anyOf":[{"$ref":"#/definitions/Page"},{"type":"null"}]})", "[1]", "placeholder",
        defs);
    // An "$anchor", found as the schema check finds it (one resolver, resolveLocalRef).
    row("ref_anchor", R"({"$ref":"#state"})", R"(["open"])", "enum",
        R"(,"$defs":{"S":{"$anchor":"state","type":"string","enum":["open","closed"]}})");
}

void tst_SchemaArgs::value()
{
    QFETCH(QByteArray, schema);
    QFETCH(QByteArray, value);
    QFETCH(QString, source);
    const SchemaArgs args = SchemaArgs::fill(jsonObject(schema));
    QCOMPARE(args.filled.size(), 1);
    QCOMPARE(args.filled.first().name, QStringLiteral("p"));
    QCOMPARE(QJsonArray{args.filled.first().value}, QJsonDocument::fromJson(value).array());
    QCOMPARE(SchemaArgs::sourceName(args.filled.first().source), source);
    QCOMPARE(args.arguments.value(QStringLiteral("p")), args.filled.first().value);
}

void tst_SchemaArgs::onlyRequiredAndMissing()
{
    const SchemaArgs args = SchemaArgs::fill(jsonObject(R"({"type":"object",
        "properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"boolean"}},
        "required":["b","a","a",7,"undeclared"]})"));
    // Required order, each once; a name that is not a string is no name; an undeclared one is
    // anything: a string.
    QCOMPARE(sourcesOf(args), QStringLiteral("b:placeholder a:placeholder undeclared:placeholder"));
    QCOMPARE(args.arguments, jsonObject(R"({"a":"example","b":1,"undeclared":"example"})"));

    QVERIFY(SchemaArgs::fill(jsonObject(R"({"type":"object","properties":{"a":{"type":"string"}}})"))
                .filled.isEmpty());
    QVERIFY(SchemaArgs::fill(jsonObject(R"({"type":"object","required":"a"})")).filled.isEmpty());
    QVERIFY(SchemaArgs::fill(QJsonObject()).filled.isEmpty());
}

void tst_SchemaArgs::givenWinAndPagingLeftOut()
{
    const QJsonObject schema = jsonObject(R"({"type":"object","properties":{
        "repo":{"type":"string","examples":["octo/demo"]},"state":{"type":"string","enum":["open","closed"]},
        "cursor":{"type":"string"},"limit":{"type":"integer","minimum":1}},
        "required":["repo","state","cursor","limit"]})");
    const SchemaArgs args = SchemaArgs::fill(schema, jsonObject(R"({"repo":"acme/widgets","label":"bug"})"),
                                             {QStringLiteral("cursor"), QStringLiteral("limit")});
    QCOMPARE(sourcesOf(args), QStringLiteral("state:enum"));
    QCOMPARE(args.arguments, jsonObject(R"({"repo":"acme/widgets","label":"bug","state":"open"})"));
}

void tst_SchemaArgs::nestedObject()
{
    const SchemaArgs args = SchemaArgs::fill(jsonObject(R"({"type":"object","properties":{
        "filter":{"type":"object","properties":{
            "owner":{"type":"string","examples":["octo"]},
            "range":{"type":"object","properties":{"from":{"type":"integer","minimum":0},
                                                   "to":{"type":"integer"}},"required":["from"]},
            "optional":{"type":"string"}},
          "required":["owner","range"]}},
        "required":["filter"]})"));
    QCOMPARE(sourcesOf(args), QStringLiteral("filter:placeholder"));
    QCOMPARE(args.arguments, jsonObject(R"({"filter":{"owner":"octo","range":{"from":0}}})"));
}

void tst_SchemaArgs::refCycleIsBounded()
{
    // A tree node that requires a child node: unsatisfiable, so it must stop, and soon.
    const QJsonObject schema = jsonObject(R"({"type":"object","properties":{"root":{"$ref":"#/$defs/Node"},
        "state":{"$ref":"#/definitions/State"},"self":{"$ref":"#"},"loop":{"$ref":"#/$defs/A"}},
        "required":["root","state","self","loop"],
        "$defs":{"Node":{"type":"object","properties":{"name":{"type":"string"},"child":{"$ref":"#/$defs/Node"}},
                         "required":["name","child"]},
                 "A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}},
        "definitions":{"State":{"type":"string","enum":["open"]}}})");
    const SchemaArgs args = SchemaArgs::fill(schema);
    QCOMPARE(sourcesOf(args),
             QStringLiteral("root:placeholder state:enum self:placeholder loop:placeholder"));
    QCOMPARE(args.arguments.value(QStringLiteral("state")).toString(), QStringLiteral("open"));
    // The node once, then its child as the cycle's {} (the second visit follows nothing).
    QCOMPARE(args.arguments.value(QStringLiteral("root")).toObject(),
             jsonObject(R"({"name":"example","child":{}})"));
    QVERIFY(args.arguments.value(QStringLiteral("self")).isObject());
    QCOMPARE(args.arguments.value(QStringLiteral("loop")).toString(), QStringLiteral("example"));
}

void tst_SchemaArgs::deepNestingIsBounded()
{
    // 200 objects deep, each requiring the next: filled to a bounded depth, then {}.
    QByteArray schema = R"({"type":"object"})";
    for (int i = 0; i < 200; ++i)
        schema = R"({"type":"object","properties":{"n":)" + schema + R"(},"required":["n"]})";
    const SchemaArgs args = SchemaArgs::fill(jsonObject(schema));
    int depth = 0;
    QJsonValue v = args.arguments.value(QStringLiteral("n"));
    while (v.isObject() && v.toObject().contains(QStringLiteral("n"))) {
        v = v.toObject().value(QStringLiteral("n"));
        ++depth;
    }
    QVERIFY2(depth >= 4 && depth <= 10, qPrintable(QString::number(depth)));
}

void tst_SchemaArgs::branchingRefsAreBounded()
{
    // Each level requires ten of the next: 10^8 values if nothing bounded it.
    QByteArray defs;
    for (int level = 0; level < 8; ++level) {
        QByteArray props, required;
        for (int k = 0; k < 10; ++k) {
            props += QByteArray(k ? "," : "") + "\"p" + QByteArray::number(k) + "\":{\"$ref\":\"#/$defs/L" +
                     QByteArray::number(level + 1) + "\"}";
            required += QByteArray(k ? "," : "") + "\"p" + QByteArray::number(k) + "\"";
        }
        defs += "\"L" + QByteArray::number(level) + "\":{\"type\":\"object\",\"properties\":{" + props +
                "},\"required\":[" + required + "]},";
    }
    defs += R"("L8":{"type":"string"})";
    const QJsonObject schema = jsonObject(
        R"({"type":"object","properties":{"top":{"$ref":"#/$defs/L0"}},"required":["top"],"$defs":{)" + defs +
        "}}");
    const SchemaArgs args = SchemaArgs::fill(schema);
    QCOMPARE(args.filled.size(), 1);
    const QByteArray written = QJsonDocument(args.arguments).toJson(QJsonDocument::Compact);
    QVERIFY2(written.size() < 100000, QByteArray::number(written.size()));
}

void tst_SchemaArgs::remoteRefNotFetched()
{
    const SchemaArgs args = SchemaArgs::fill(
        oneRequired(R"({"$ref":"https://example.com/schema.json#/$defs/X","type":"integer"})"));
    QCOMPARE(args.arguments.value(QStringLiteral("p")), QJsonValue(1)); // its own type, nothing fetched
    // A local $ref that leads nowhere, or with a percent-encoded name.
    QCOMPARE(
        SchemaArgs::fill(oneRequired(R"({"$ref":"#/$defs/Missing"})")).arguments.value(QStringLiteral("p")),
        QJsonValue(QStringLiteral("example")));
    QCOMPARE(SchemaArgs::fill(oneRequired(R"({"$ref":"#/$defs/a%20b"})", R"(,"$defs":{"a b":{"const":3}})"))
                 .arguments.value(QStringLiteral("p")),
             QJsonValue(3));
    // A ref's own keywords come first (pydantic: {"$ref": …, "default": …}).
    const SchemaArgs pydantic =
        SchemaArgs::fill(oneRequired(R"({"$ref":"#/$defs/Color","default":"red"})",
                                     R"(,"$defs":{"Color":{"type":"string","enum":["blue","red"]}})"));
    QCOMPARE(sourcesOf(pydantic), QStringLiteral("p:default"));
    const SchemaArgs viaRef = SchemaArgs::fill(oneRequired(
        R"({"$ref":"#/$defs/Color"})", R"(,"$defs":{"Color":{"type":"string","enum":["blue","red"]}})"));
    QCOMPARE(sourcesOf(viaRef), QStringLiteral("p:enum"));
    QCOMPARE(viaRef.arguments.value(QStringLiteral("p")).toString(), QStringLiteral("blue"));
    // An inputSchema that is a $ref itself.
    const SchemaArgs top = SchemaArgs::fill(jsonObject(R"({"$ref":"#/definitions/Args","definitions":{"Args":
        {"type":"object","properties":{"q":{"type":"string","examples":["x"]}},"required":["q"]}}})"));
    QCOMPARE(sourcesOf(top), QStringLiteral("q:examples"));
}

void tst_SchemaArgs::describe()
{
    const SchemaArgs args = SchemaArgs::fill(jsonObject(R"({"type":"object","properties":{
        "repo":{"type":"string","examples":["octo/demo"]},"state":{"enum":["open","closed"]},
        "n":{"type":"integer"},"long":{"const":"0123456789012345678901234567890123456789xyz"},
        "bad\nname":{"type":"boolean"}},
        "required":["repo","state","n","long","bad\nname"]})"));
    QCOMPARE(args.describe(),
             QStringLiteral("repo=\"octo/demo\" (examples), state=\"open\" (enum), n=1 (placeholder), "
                            "long=\"01234567890123456789012345678901234567\u2026 (const), "
                            "bad\uFFFDname=false (placeholder)"));
    QCOMPARE(SchemaArgs().describe(), QString());
}

QTEST_GUILESS_MAIN(tst_SchemaArgs)
#include "tst_schemaargs.moc"
