#include "schemaargs.h"

#include "schemacheck.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <optional>
#include <utility>

namespace folio {

namespace {

constexpr int maxDepth = 8;     // nested objects, arrays, alternatives and $ref hops on one path
constexpr int maxSchemas = 256; // schemas looked into in one fill, however the $refs branch
constexpr int maxItems = 8;     // of an array's minItems
constexpr int maxLength = 256;  // of a string's minLength
constexpr int describedWidth = 40;

using Source = SchemaArgs::Source;

bool isNullSchema(const QJsonValue &schema)
{
    const QJsonValue type = schema.toObject().value(QStringLiteral("type"));
    return type == QJsonValue(QStringLiteral("null")) || type.toArray() == QJsonArray{QStringLiteral("null")};
}

// The type a placeholder is made for: the first of a type array other than "null", else what the
// schema's keywords imply, else a string (the commonest argument).
QString typeOf(const QJsonObject &schema)
{
    const QJsonValue type = schema.value(QStringLiteral("type"));
    if (type.isString())
        return type.toString();
    if (type.isArray()) {
        const QJsonArray types = type.toArray();
        for (const QJsonValue &t : types) {
            if (t.isString() && t.toString() != QLatin1String("null"))
                return t.toString();
        }
        if (types.contains(QStringLiteral("null")))
            return QStringLiteral("null");
    }
    if (schema.contains(QStringLiteral("properties")) || schema.contains(QStringLiteral("required")))
        return QStringLiteral("object");
    if (schema.contains(QStringLiteral("items")) || schema.contains(QStringLiteral("prefixItems")))
        return QStringLiteral("array");
    return QStringLiteral("string");
}

QString stringPlaceholder(const QJsonObject &schema)
{
    // A value of the format asked for, where a validator may check it; "example" otherwise.
    static const QHash<QString, QString> byFormat{
        {QStringLiteral("date-time"), QStringLiteral("2026-01-01T00:00:00Z")},
        {QStringLiteral("date"), QStringLiteral("2026-01-01")},
        {QStringLiteral("time"), QStringLiteral("00:00:00Z")},
        {QStringLiteral("email"), QStringLiteral("user@example.com")},
        {QStringLiteral("uri"), QStringLiteral("https://example.com/")},
        {QStringLiteral("url"), QStringLiteral("https://example.com/")},
        {QStringLiteral("iri"), QStringLiteral("https://example.com/")},
        {QStringLiteral("uri-reference"), QStringLiteral("https://example.com/")},
        {QStringLiteral("hostname"), QStringLiteral("example.com")},
        {QStringLiteral("ipv4"), QStringLiteral("192.0.2.1")},   // TEST-NET-1
        {QStringLiteral("ipv6"), QStringLiteral("2001:db8::1")}, // documentation prefix
        {QStringLiteral("uuid"), QStringLiteral("00000000-0000-0000-0000-000000000000")}};
    QString text =
        byFormat.value(schema.value(QStringLiteral("format")).toString(), QStringLiteral("example"));
    const int minimum = qBound(0, schema.value(QStringLiteral("minLength")).toInt(0), maxLength);
    if (text.size() < minimum)
        text += QString(minimum - text.size(), QLatin1Char('x'));
    const QJsonValue maximum = schema.value(QStringLiteral("maxLength"));
    if (maximum.isDouble() && maximum.toDouble() >= 0 && text.size() > maximum.toDouble())
        text.truncate(qsizetype(maximum.toDouble()));
    return text;
}

QJsonValue numberPlaceholder(const QJsonObject &schema, bool integer)
{
    auto finite = [](const QJsonValue &v) { return v.isDouble() && std::isfinite(v.toDouble()); };
    const QJsonValue minimum = schema.value(QStringLiteral("minimum"));
    const QJsonValue exclusiveMinimum = schema.value(QStringLiteral("exclusiveMinimum"));
    const QJsonValue maximum = schema.value(QStringLiteral("maximum"));
    const QJsonValue exclusiveMaximum = schema.value(QStringLiteral("exclusiveMaximum"));
    auto above = [integer](double bound) { return integer ? std::floor(bound) + 1 : bound + 1; };

    double v = finite(minimum) ? minimum.toDouble() : 1;
    if (finite(exclusiveMinimum)) // draft 6 and later: a number
        v = finite(minimum) ? qMax(v, above(exclusiveMinimum.toDouble()))
                            : above(exclusiveMinimum.toDouble());
    else if (exclusiveMinimum.toBool(false) && finite(minimum)) // draft 4: a flag on minimum
        v = above(minimum.toDouble());
    if (integer)
        v = std::ceil(v);
    if (finite(maximum) && v > maximum.toDouble())
        v = integer ? std::floor(maximum.toDouble()) : maximum.toDouble();
    if (finite(exclusiveMaximum) && v >= exclusiveMaximum.toDouble())
        v = integer ? std::ceil(exclusiveMaximum.toDouble()) - 1 : exclusiveMaximum.toDouble() - 1;
    else if (exclusiveMaximum.toBool(false) && finite(maximum) && v >= maximum.toDouble())
        v = integer ? std::ceil(maximum.toDouble()) - 1 : maximum.toDouble() - 1;
    if (integer && std::fabs(v) < 9007199254740992.0) // 2^53: written as an integer
        return QJsonValue(qint64(v));
    return QJsonValue(v);
}

// One fill's walk over a schema, with its bounds.
class Filler
{
public:
    explicit Filler(const QJsonObject &root)
        : m_root(root)
    {}

    // A local $ref's target, as the schema check finds it (resolveLocalRef: "#", "#/…" JSON
    // Pointers, "#anchor"; another document is never fetched).
    std::optional<QJsonObject> resolve(const QString &ref) const
    {
        const std::optional<QJsonValue> target = resolveLocalRef(m_root, ref);
        if (!target || !target->isObject())
            return std::nullopt;
        return target->toObject();
    }

    std::pair<QJsonValue, Source> value(const QJsonValue &schema, int depth)
    {
        if (!schema.isObject()) // no schema, or true: anything goes
            return {QStringLiteral("example"), Source::Placeholder};
        const QJsonObject s = schema.toObject();
        if (s.contains(QStringLiteral("const")))
            return {s.value(QStringLiteral("const")), Source::Const};
        if (s.contains(QStringLiteral("default")))
            return {s.value(QStringLiteral("default")), Source::Default};
        const QJsonArray examples = s.value(QStringLiteral("examples")).toArray();
        if (!examples.isEmpty())
            return {examples.first(), Source::Examples};
        const QJsonArray choices = s.value(QStringLiteral("enum")).toArray();
        if (!choices.isEmpty()) {
            for (const QJsonValue &choice : choices) {
                if (!choice.isNull())
                    return {choice, Source::Enum};
            }
            return {choices.first(), Source::Enum};
        }

        --m_budget;
        const bool deeper = depth < maxDepth && m_budget > 0;
        const QJsonValue ref = s.value(QStringLiteral("$ref"));
        if (ref.isString() && depth <= maxDepth) {
            const QString r = ref.toString();
            if (const std::optional<QJsonObject> target = resolve(r)) {
                // A cycle, or too deep: what the target says of itself, following nothing further.
                if (!deeper || m_refs.contains(r))
                    return value(*target, maxDepth + 1);
                m_refs.append(r);
                const auto v = value(*target, depth + 1);
                m_refs.removeLast();
                return v;
            }
        }
        if (deeper) {
            for (const QString &key :
                 {QStringLiteral("anyOf"), QStringLiteral("oneOf"), QStringLiteral("allOf")}) {
                for (const QJsonValue &alternative : s.value(key).toArray()) {
                    if (!isNullSchema(alternative))
                        return value(alternative, depth + 1);
                }
            }
        }
        return {placeholder(s, depth, deeper), Source::Placeholder};
    }

    // The object's required properties, each filled as value() fills it.
    QJsonObject object(const QJsonObject &schema, int depth)
    {
        const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
        QJsonObject out;
        for (const QJsonValue &required : schema.value(QStringLiteral("required")).toArray()) {
            if (required.isString() && !out.contains(required.toString()))
                out.insert(required.toString(), value(properties.value(required.toString()), depth).first);
        }
        return out;
    }

private:
    QJsonValue placeholder(const QJsonObject &schema, int depth, bool deeper)
    {
        const QString type = typeOf(schema);
        if (type == QLatin1String("integer") || type == QLatin1String("number"))
            return numberPlaceholder(schema, type == QLatin1String("integer"));
        if (type == QLatin1String("boolean"))
            return false;
        if (type == QLatin1String("null"))
            return QJsonValue::Null;
        if (type == QLatin1String("object"))
            return deeper ? object(schema, depth + 1) : QJsonObject();
        if (type == QLatin1String("array")) {
            QJsonArray items;
            const int count = qBound(0, schema.value(QStringLiteral("minItems")).toInt(0), maxItems);
            const QJsonArray prefix = schema.value(QStringLiteral("prefixItems")).toArray();
            const QJsonValue each = schema.value(QStringLiteral("items"));
            for (int i = 0; deeper && i < count; ++i) {
                // prefixItems (2020-12) or an items array (draft 4 tuples) for the first ones.
                const QJsonValue item = i < prefix.size()                             ? prefix.at(i)
                                        : each.isArray() && i < each.toArray().size() ? each.toArray().at(i)
                                                                                      : each;
                items.append(value(item, depth + 1).first);
            }
            return items;
        }
        return stringPlaceholder(schema);
    }

    QJsonObject m_root;
    QStringList m_refs; // the $refs followed on the current path
    int m_budget = maxSchemas;
};

// A server's name as a report can print it: no control character breaks its line.
QString printable(QString text)
{
    for (QChar &c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            c = QChar(QChar::ReplacementCharacter);
    }
    return text;
}

QString compactJson(const QJsonValue &value)
{
    const QByteArray array = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.sliced(1, array.size() - 2));
}

} // namespace

SchemaArgs SchemaArgs::fill(const QJsonObject &inputSchema, const QJsonObject &given,
                            const QStringList &leaveOut)
{
    SchemaArgs result;
    result.arguments = given;
    Filler filler(inputSchema);
    QJsonObject top = inputSchema;
    const QJsonValue ref = top.value(QStringLiteral("$ref"));
    if (ref.isString() && !top.contains(QStringLiteral("properties"))) {
        if (const std::optional<QJsonObject> target = filler.resolve(ref.toString()))
            top = *target;
    }
    const QJsonObject properties = top.value(QStringLiteral("properties")).toObject();
    for (const QJsonValue &required : top.value(QStringLiteral("required")).toArray()) {
        const QString name = required.toString();
        if (!required.isString() || result.arguments.contains(name) || leaveOut.contains(name))
            continue;
        const auto [value, source] = filler.value(properties.value(name), 1);
        result.arguments.insert(name, value);
        result.filled.append({name, value, source});
    }
    return result;
}

QString SchemaArgs::sourceName(Source source)
{
    switch (source) {
    case Source::Const:
        return QStringLiteral("const");
    case Source::Default:
        return QStringLiteral("default");
    case Source::Examples:
        return QStringLiteral("examples");
    case Source::Enum:
        return QStringLiteral("enum");
    case Source::Placeholder:
        break;
    }
    return QStringLiteral("placeholder");
}

QString SchemaArgs::describe() const
{
    QStringList parts;
    for (const Filled &f : filled) {
        QString text = compactJson(f.value);
        if (text.size() > describedWidth)
            text = text.left(describedWidth - 1) + QChar(0x2026);
        parts << QStringLiteral("%1=%2 (%3)").arg(printable(f.name), text, sourceName(f.source));
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace folio
