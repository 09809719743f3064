// checkAgainstSchema: a JSON value checked against a JSON Schema 2020-12 object, as the window and
// `folio call` check a tool's structuredContent against its outputSchema and a form its values
// against the inputSchema. Data-driven: each row is a schema, a value, and the violations expected.

#include "schemacheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace folio;

namespace {

QJsonValue json(const QByteArray &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson("[" + text + "]", &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s in %s", qPrintable(error.errorString()), text.constData());
    return doc.array().first();
}

// "path: message" for each violation, joined by " | ".
QString described(const QList<SchemaViolation> &violations)
{
    QStringList out;
    for (const SchemaViolation &v : violations)
        out << v.path + QStringLiteral(": ") + v.message;
    return out.join(QStringLiteral(" | "));
}

} // namespace

class tst_SchemaCheck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void check_data();
    void check();
    void maxViolations();
    void refCycleIsBounded();
    void branchingIsBounded();
    void deepValueIsBounded();
    void catastrophicPatternIsBounded();
    void resolveLocalRef();
    void readablePath();
};

void tst_SchemaCheck::check_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("expected"); // described(); "" for valid

    QTest::newRow("empty_schema_allows_anything")
        << QByteArray("{}") << QByteArray(R"({"a":[1,null]})") << "";
    QTest::newRow("true_schema") << QByteArray(R"({"properties":{"a":true}})") << QByteArray(R"({"a":1})")
                                 << "";
    QTest::newRow("false_schema") << QByteArray(R"({"properties":{"a":false}})") << QByteArray(R"({"a":1})")
                                  << "/a: no value is allowed here (the schema is false)";
    QTest::newRow("type_string") << QByteArray(R"({"type":"string"})") << QByteArray("3")
                                 << ": expected a string, got an integer";
    QTest::newRow("integer_accepts_1.0") << QByteArray(R"({"type":"integer"})") << QByteArray("1.0") << "";
    QTest::newRow("integer_refuses_1.5")
        << QByteArray(R"({"type":"integer"})") << QByteArray("1.5") << ": expected an integer, got a number";
    QTest::newRow("number_accepts_integer") << QByteArray(R"({"type":"number"})") << QByteArray("2") << "";
    QTest::newRow("type_array") << QByteArray(R"({"type":["string","null"]})") << QByteArray("null") << "";
    QTest::newRow("type_array_refused") << QByteArray(R"({"type":["string","null"]})") << QByteArray("true")
                                        << ": expected a string or null, got a boolean";
    QTest::newRow("required") << QByteArray(R"({"type":"object","required":["city","units"]})")
                              << QByteArray(R"({"units":"metric"})") << "/city: required, and missing";
    QTest::newRow("properties_nested")
        << QByteArray(R"({"properties":{"a":{"properties":{"b":{"type":"integer"}}}}})")
        << QByteArray(R"({"a":{"b":"x"}})") << "/a/b: expected an integer, got a string";
    QTest::newRow("additional_false") << QByteArray(R"({"properties":{"a":{}},"additionalProperties":false})")
                                      << QByteArray(R"({"a":1,"b":2})")
                                      << "/b: not allowed: the schema lists its members and this is not one";
    QTest::newRow("additional_schema") << QByteArray(R"({"additionalProperties":{"type":"string"}})")
                                       << QByteArray(R"({"x":1})") << "/x: expected a string, got an integer";
    QTest::newRow("pattern_properties_count_as_listed")
        << QByteArray(R"({"patternProperties":{"^x_":{"type":"integer"}},"additionalProperties":false})")
        << QByteArray(R"({"x_a":1,"y":2})")
        << "/y: not allowed: the schema lists its members and this is not one";
    QTest::newRow("items") << QByteArray(R"({"type":"array","items":{"type":"string"}})")
                           << QByteArray(R"(["a",2])") << "/1: expected a string, got an integer";
    QTest::newRow("prefix_items")
        << QByteArray(R"({"prefixItems":[{"type":"string"},{"type":"integer"}],"items":false})")
        << QByteArray(R"(["a",2,3])") << "/2: no value is allowed here (the schema is false)";
    QTest::newRow("draft7_items_array")
        << QByteArray(R"({"items":[{"type":"string"}],"additionalItems":{"type":"integer"}})")
        << QByteArray(R"(["a","b"])") << "/1: expected an integer, got a string";
    QTest::newRow("enum") << QByteArray(R"({"enum":["metric","imperial"]})") << QByteArray(R"("kelvin")")
                          << R"(: must be one of "metric", "imperial")";
    QTest::newRow("enum_object") << QByteArray(R"({"enum":[{"a":1}]})") << QByteArray(R"({"a":1})") << "";
    QTest::newRow("const") << QByteArray(R"({"const":42})") << QByteArray("41") << ": must be 42";
    QTest::newRow("minimum") << QByteArray(R"({"minimum":1,"maximum":10})") << QByteArray("0")
                             << ": must be at least 1";
    QTest::newRow("maximum") << QByteArray(R"({"minimum":1,"maximum":10})") << QByteArray("11")
                             << ": must be at most 10";
    QTest::newRow("exclusive") << QByteArray(R"({"exclusiveMinimum":0,"exclusiveMaximum":1})")
                               << QByteArray("1") << ": must be less than 1";
    QTest::newRow("draft4_exclusive") << QByteArray(R"({"minimum":0,"exclusiveMinimum":true})")
                                      << QByteArray("0") << ": must be more than 0";
    QTest::newRow("multiple_of") << QByteArray(R"({"multipleOf":0.1})") << QByteArray("0.3") << "";
    QTest::newRow("string_length_code_points")
        << QByteArray(R"({"maxLength":2})") << QByteArray(R"("😀😀")") << "";
    QTest::newRow("min_length") << QByteArray(R"({"minLength":3})") << QByteArray(R"("ab")")
                                << ": must be at least 3 characters long (it has 2)";
    QTest::newRow("pattern") << QByteArray(R"({"pattern":"^[a-z]+$"})") << QByteArray(R"("Ab")")
                             << R"(: does not match the pattern "^[a-z]+$")";
    QTest::newRow("pattern_unanchored") << QByteArray(R"({"pattern":"b"})") << QByteArray(R"("abc")") << "";
    QTest::newRow("bad_pattern_reported")
        << QByteArray(R"({"pattern":"("})") << QByteArray(R"("x")")
        << R"(: the schema's pattern "(" is not a regular expression Folio can read)";
    QTest::newRow("min_items") << QByteArray(R"({"minItems":2,"maxItems":3})") << QByteArray("[1]")
                               << ": must have at least 2 items (it has 1)";
    QTest::newRow("unique_items") << QByteArray(R"({"uniqueItems":true})") << QByteArray("[1,2,1]")
                                  << ": items 0 and 2 are equal (uniqueItems)";
    QTest::newRow("contains") << QByteArray(R"({"contains":{"type":"string"}})") << QByteArray("[1,2]")
                              << R"(: must contain an item that matches "contains")";
    QTest::newRow("any_of") << QByteArray(R"({"anyOf":[{"type":"string"},{"type":"integer"}]})")
                            << QByteArray("true") << ": matches none of the 2 schemas anyOf allows";
    QTest::newRow("any_of_ok") << QByteArray(R"({"anyOf":[{"type":"string"},{"type":"integer"}]})")
                               << QByteArray("3") << "";
    QTest::newRow("one_of_two_match")
        << QByteArray(R"({"oneOf":[{"type":"number"},{"type":"integer"}]})") << QByteArray("3")
        << ": matches 2 of oneOf's schemas; exactly one is allowed";
    QTest::newRow("all_of") << QByteArray(R"({"allOf":[{"minimum":2},{"maximum":4}]})") << QByteArray("5")
                            << ": must be at most 4";
    QTest::newRow("not") << QByteArray(R"({"not":{"type":"null"}})") << QByteArray("null")
                         << R"(: must not match the schema under "not")";
    QTest::newRow("if_then")
        << QByteArray(
               R"({"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["x"]},"else":{"required":["y"]}})")
        << QByteArray(R"({"k":"a"})") << "/x: required, and missing";
    QTest::newRow("if_else")
        << QByteArray(
               R"({"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["x"]},"else":{"required":["y"]}})")
        << QByteArray(R"({"k":"b"})") << "/y: required, and missing";
    QTest::newRow("dependent_required")
        << QByteArray(R"({"dependentRequired":{"card":["cvc"]}})") << QByteArray(R"({"card":"1"})")
        << R"(/cvc: required when "card" is given, and missing)";
    QTest::newRow("ref_defs")
        << QByteArray(R"({"properties":{"c":{"$ref":"#/$defs/Color"}},"$defs":{"Color":{"enum":["red"]}}})")
        << QByteArray(R"({"c":"blue"})") << R"(/c: must be one of "red")";
    QTest::newRow("ref_definitions")
        << QByteArray(R"({"$ref":"#/definitions/A","definitions":{"A":{"type":"object"}}})")
        << QByteArray("[]") << ": expected an object, got an array";
    QTest::newRow("ref_pointer_escaped")
        << QByteArray(R"({"$ref":"#/$defs/a~1b%20c","$defs":{"a/b c":{"type":"string"}}})") << QByteArray("1")
        << ": expected a string, got an integer";
    QTest::newRow("ref_anchor") << QByteArray(
                                       R"({"$ref":"#pos","$defs":{"P":{"$anchor":"pos","minimum":0}}})")
                                << QByteArray("-1") << ": must be at least 0";
    QTest::newRow("ref_with_siblings")
        << QByteArray(R"({"$ref":"#/$defs/S","maxLength":1,"$defs":{"S":{"type":"string"}}})")
        << QByteArray(R"("ab")") << ": must be at most 1 characters long (it has 2)";
    QTest::newRow("ref_recursive_tree")
        << QByteArray(
               R"({"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},"$ref":"#/$defs/node"})")
        << QByteArray(R"({"kids":[{"kids":[{"kids":3}]}]})")
        << "/kids/0/kids/0/kids: expected an array, got an integer";
    QTest::newRow("remote_ref_not_fetched")
        << QByteArray(R"({"$ref":"https://example.com/schema.json"})") << QByteArray("1")
        << R"(: $ref "https://example.com/schema.json" not followed: only references within the schema are)";
    QTest::newRow("unresolved_ref") << QByteArray(R"({"$ref":"#/$defs/Missing"})") << QByteArray("1")
                                    << R"(: $ref "#/$defs/Missing" does not resolve within the schema)";
    QTest::newRow("escaped_member_path")
        << QByteArray(R"({"properties":{"a/b":{"type":"string"}}})") << QByteArray(R"({"a/b":1})")
        << "/a~1b: expected a string, got an integer";
}

void tst_SchemaCheck::check()
{
    QFETCH(QByteArray, schema);
    QFETCH(QByteArray, value);
    QFETCH(QString, expected);
    QCOMPARE(described(checkAgainstSchema(json(value), json(schema).toObject())), expected);
}

void tst_SchemaCheck::maxViolations()
{
    const QJsonObject schema = json(R"({"items":{"type":"string"}})").toObject();
    QCOMPARE(checkAgainstSchema(json("[1,2,3,4,5]"), schema).size(), 5);
    QCOMPARE(checkAgainstSchema(json("[1,2,3,4,5]"), schema, 2).size(), 2);
}

void tst_SchemaCheck::refCycleIsBounded()
{
    // A $ref to itself, however the value looks: stops at the bound and says so.
    const QJsonObject schema = json(R"({"$ref":"#"})").toObject();
    const QList<SchemaViolation> v = checkAgainstSchema(json("1"), schema);
    QCOMPARE(v.size(), 1);
    QVERIFY2(v.first().message.contains(QLatin1String("not checked further")), qPrintable(v.first().message));
}

void tst_SchemaCheck::branchingIsBounded()
{
    // Each level refers to the next twice (anyOf of two refs): 2^30 paths without the step bound.
    QJsonObject defs;
    for (int i = 0; i < 30; ++i) {
        const QString next = QStringLiteral("#/$defs/d%1").arg(i + 1);
        defs.insert(
            QStringLiteral("d%1").arg(i),
            QJsonObject{{QStringLiteral("anyOf"), QJsonArray{QJsonObject{{QStringLiteral("$ref"), next}},
                                                             QJsonObject{{QStringLiteral("$ref"), next}}}}});
    }
    defs.insert(QStringLiteral("d30"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    const QJsonObject schema{{QStringLiteral("$ref"), QStringLiteral("#/$defs/d0")},
                             {QStringLiteral("$defs"), defs}};
    QElapsedTimer timer;
    timer.start();
    const QList<SchemaViolation> v = checkAgainstSchema(json("1"), schema);
    QVERIFY(timer.elapsed() < 5000);
    QVERIFY(!v.isEmpty());
    QVERIFY2(described(v).contains(QLatin1String("too complex")), qPrintable(described(v)));
}

void tst_SchemaCheck::deepValueIsBounded()
{
    QByteArray value;
    for (int i = 0; i < 200; ++i)
        value += "[";
    for (int i = 0; i < 200; ++i)
        value += "]";
    const QJsonObject schema =
        json(R"({"$defs":{"a":{"items":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a"})").toObject();
    const QList<SchemaViolation> v = checkAgainstSchema(json(value), schema);
    QCOMPARE(v.size(), 1);
    QVERIFY(v.first().message.contains(QLatin1String("deeper than")));
}

void tst_SchemaCheck::catastrophicPatternIsBounded()
{
    // A pattern that backtracks exponentially: PCRE2's match limit ends it (no match), in time.
    const QJsonObject schema = json(R"({"pattern":"^(a+)+$"})").toObject();
    QElapsedTimer timer;
    timer.start();
    checkAgainstSchema(QJsonValue(QString(40, QLatin1Char('a')) + QLatin1Char('!')), schema);
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
}

void tst_SchemaCheck::resolveLocalRef()
{
    const QJsonObject root =
        json(R"({"$defs":{"A":{"type":"string"},"B":true,"C":{"$anchor":"c"}}})").toObject();
    QCOMPARE(
        folio::resolveLocalRef(root, QStringLiteral("#/$defs/A"))->toObject().value(QStringLiteral("type")),
        QJsonValue(QStringLiteral("string")));
    QCOMPARE(*folio::resolveLocalRef(root, QStringLiteral("#/$defs/B")), QJsonValue(true));
    QVERIFY(folio::resolveLocalRef(root, QStringLiteral("#c")).has_value());
    QVERIFY(!folio::resolveLocalRef(root, QStringLiteral("#/$defs/Z")).has_value());
    QVERIFY(!folio::resolveLocalRef(root, QStringLiteral("other.json#/$defs/A")).has_value());
    QCOMPARE(*folio::resolveLocalRef(root, QStringLiteral("#")), QJsonValue(root));
}

void tst_SchemaCheck::readablePath()
{
    QCOMPARE(folio::readablePath(QString()), QStringLiteral("(the value)"));
    QCOMPARE(folio::readablePath(QStringLiteral("/city")), QStringLiteral("city"));
    QCOMPARE(folio::readablePath(QStringLiteral("/items/2/name")), QStringLiteral("items[2].name"));
    QCOMPARE(folio::readablePath(QStringLiteral("/a~1b")), QStringLiteral("a/b"));
}

QTEST_GUILESS_MAIN(tst_SchemaCheck)
#include "tst_schemacheck.moc"
