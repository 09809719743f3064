#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <vector>

namespace folio {

// What a form shows for one JSON Schema, decided apart from any widget: the SchemaForm's field
// (and, in time, the elicitation form's) is built from it. A schema is a server's untrusted text:
// its local $refs are followed through resolveLocalRef() a bounded number of hops (siblings of a
// $ref win over its target's keywords), an allOf of object parts is merged, nesting is bounded
// (deeper is a JSON field), and a form holds at most maxFields top-level fields.
struct SchemaField
{
    static constexpr int maxNesting = 6;  // objects and arrays within each other
    static constexpr int maxRefHops = 16; // $ref to $ref before giving up
    static constexpr int maxFields = 200; // top-level fields in one form, however large the schema
    static constexpr double spinLimit = 1e9;

    enum class Kind { Object, Array, String, Number, Integer, Boolean, Enum, Json };

    Kind kind = Kind::Json;
    QString name;
    QJsonObject schema; // with its $refs resolved and its allOf merged
    bool required = false;
    int depth = 0;
    QString description;
    // Enum: "enum", a oneOf/anyOf whose every branch is a const, or a lone const; and their
    // titles ("enumNames", or each branch's title), "" where there is none.
    QJsonArray choices;
    QStringList choiceTitles;
    std::vector<SchemaField> members; // Object: its properties, in the schema's order
    QJsonValue itemSchema;            // Array: each item's schema (items)
    QString format;                   // String: "date-time", "password", …
    double low = -spinLimit;          // Integer: the range its bounds allow, within ±spinLimit
    double high = spinLimit;

    // The field for schema within root (where its $refs point), named name.
    static SchemaField describe(const QJsonObject &root, const QString &name, const QJsonValue &schema,
                                bool required, int depth);
};

// The first type a schema names other than "null" (a type array), or what its keywords imply.
QString schemaTypeOf(const QJsonObject &schema);

} // namespace folio
