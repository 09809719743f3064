#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace folio {

// One way a value breaks its schema: where (a JSON Pointer into the value, "" for the value
// itself) and what, in words a person reads ("expected an integer, got a string").
struct SchemaViolation
{
    QString path;
    QString message;

    bool operator==(const SchemaViolation &other) const = default;
};

// Checks a JSON value against a JSON Schema (2020-12; the draft 4–7 spellings of the same keywords
// are read too): type (arrays of types, integer within number), const, enum, the number bounds
// (minimum, maximum, exclusive*, multipleOf), string lengths (code points) and pattern, array
// items, prefixItems, contains, minItems, maxItems, uniqueItems, object required, properties,
// patternProperties, additionalProperties, propertyNames, min/maxProperties, dependentRequired,
// allOf, anyOf, oneOf, not, if/then/else, and boolean schemas. "format" is an annotation, as
// 2020-12 has it by default: not checked.
//
// A schema is a server's untrusted text. Only local $refs are followed ("#", "#/…" JSON Pointers,
// percent-encoded as URI fragments are, and "#name" for a "$anchor" in the schema); a $ref to
// another document is never fetched and is reported as not followed, as is one that does not
// resolve. Nesting, $ref hops and the number of schemas looked at are bounded: a check that hits
// a bound stops there and says so in a violation. At most maxViolations violations are returned.
QList<SchemaViolation> checkAgainstSchema(const QJsonValue &value, const QJsonObject &schema,
                                          int maxViolations = 20);

// The target of a local $ref within root ("#", "#/$defs/X", "#/definitions/X", any "#/…" pointer,
// "#anchor"); nothing for a $ref to another document or one that does not resolve. The target
// may be a boolean schema.
std::optional<QJsonValue> resolveLocalRef(const QJsonObject &root, const QString &ref);

// A violation's path as a person reads it: "city", "items[2].name"; "(the value)" for "".
QString readablePath(const QString &pointer);

} // namespace folio
