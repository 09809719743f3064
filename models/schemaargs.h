#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio {

// Values for the required arguments of a tool, made from its inputSchema alone, so that the audit
// can walk a read-only list tool that refuses to list without them. A schema is a server's
// untrusted text: only local $refs (resolveLocalRef(): "#/$defs/…", any "#/…" pointer, "#anchor")
// are followed, never fetched, and the nesting, the $ref hops and the number of values made are
// bounded.
struct SchemaArgs
{
    // Where a value came from, in the order they are preferred.
    enum class Source { Const, Default, Examples, Enum, Placeholder };

    struct Filled
    {
        QString name;
        QJsonValue value;
        Source source = Source::Placeholder;
    };

    QJsonObject arguments; // the arguments given, with the filled ones added
    QList<Filled> filled;  // what was added, in the schema's required order

    // The required properties of inputSchema that given lacks, except those named in leaveOut (the
    // paging arguments: the walk sends those itself). Each value is the property's const, else its
    // default, else the first of its examples, else the first of its enum (null only when that is
    // all there is), else a placeholder of its type: a string "example" (or one that fits its
    // format and length), a number its minimum (else 1, within its maximum), false, [] (minItems
    // items when it asks for some), or an object holding its own required properties. A type array
    // takes its first type other than "null"; anyOf, oneOf and allOf their first alternative other
    // than {"type":"null"}.
    static SchemaArgs fill(const QJsonObject &inputSchema, const QJsonObject &given = {},
                           const QStringList &leaveOut = {});

    // "const", "default", "examples", "enum" or "placeholder".
    static QString sourceName(Source source);
    // repo="octo/demo" (examples), state="open" (enum): each value as compact JSON, long ones cut.
    QString describe() const;
};

} // namespace folio
