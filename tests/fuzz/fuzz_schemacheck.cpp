// checkAgainstSchema (models/schemacheck.h): a tool's outputSchema and inputSchema are a server's
// untrusted text, and so is the structuredContent checked against them. The input is a JSON array
// [schema, value] (anything else: the input's halves, each read as JSON, or the whole as a value
// against a schema of its own). Properties: it never crashes and stays within its bounds (time,
// stack, at most maxViolations violations), answers the same twice, every violation's path is a
// JSON Pointer whose parent is in the value, and the trivial schemas answer as they must: {} and
// true allow anything, false allows nothing (one violation). The schema is also described as a
// form (SchemaField), which stays within its bounds: nesting, fields, a spin box's range.
#include "fuzzcheck.h"
#include "listsource.h"
#include "schemacheck.h"
#include "schemafield.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace folio;

namespace {

QJsonValue readJson(QByteArrayView bytes)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + bytes.toByteArray() + "]");
    return doc.isArray() && !doc.array().isEmpty() ? doc.array().first() : QJsonValue();
}

void checkPair(const QJsonValue &value, const QJsonObject &schema, int maxViolations)
{
    const QList<SchemaViolation> first = checkAgainstSchema(value, schema, maxViolations);
    FUZZ_CHECK(first.size() <= qMax(1, maxViolations));
    FUZZ_CHECK(checkAgainstSchema(value, schema, maxViolations) == first);
    for (const SchemaViolation &v : first) {
        FUZZ_CHECK(v.path.isEmpty() || v.path.startsWith(QLatin1Char('/')), v.path);
        FUZZ_CHECK(!v.message.isEmpty());
        // The member a violation names may be missing (required), its parent is there.
        if (v.path.isEmpty())
            continue;
        const QString parent = v.path.left(v.path.lastIndexOf(QLatin1Char('/')));
        bool found = false;
        ListSource::resolvePointer(value, parent, &found);
        FUZZ_CHECK(found, v.path);
        readablePath(v.path);
    }
}

} // namespace

// A form's description of any schema stays bounded.
void checkField(const SchemaField &f)
{
    FUZZ_CHECK(f.depth <= SchemaField::maxNesting);
    FUZZ_CHECK(f.members.size() <= size_t(SchemaField::maxFields));
    FUZZ_CHECK(f.members.empty() || f.kind == SchemaField::Kind::Object);
    FUZZ_CHECK(f.choices.size() == f.choiceTitles.size());
    FUZZ_CHECK(f.low >= -SchemaField::spinLimit && f.high <= SchemaField::spinLimit && f.low <= f.high);
    for (const SchemaField &member : f.members) {
        FUZZ_CHECK(member.depth == f.depth + 1);
        checkField(member);
    }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input = fuzzInput(data, size);
    QJsonValue schema, value;
    const QJsonValue whole = readJson(input);
    if (whole.isArray() && whole.toArray().size() == 2) {
        schema = whole.toArray().at(0);
        value = whole.toArray().at(1);
    } else {
        const qsizetype half = input.size() / 2;
        schema = readJson(input.first(half));
        value = readJson(input.sliced(half));
        if (!schema.isObject()) {
            value = whole;
            schema = whole;
        }
    }
    const int maxViolations = size > 0 ? 1 + data[size - 1] % 32 : 20;
    if (schema.isObject())
        checkPair(value, schema.toObject(), maxViolations);
    if (schema.isObject())
        checkField(SchemaField::describe(schema.toObject(), QString(), schema, true, 0));

    FUZZ_CHECK(checkAgainstSchema(value, QJsonObject()).isEmpty());
    const QJsonObject trueProperty{{QStringLiteral("properties"), QJsonObject{{QStringLiteral("x"), true}}}};
    FUZZ_CHECK(checkAgainstSchema(QJsonObject{{QStringLiteral("x"), value}}, trueProperty).isEmpty());
    const QJsonObject falseProperty{
        {QStringLiteral("properties"), QJsonObject{{QStringLiteral("x"), false}}}};
    FUZZ_CHECK(checkAgainstSchema(QJsonObject{{QStringLiteral("x"), value}}, falseProperty).size() == 1);
    return 0;
}
