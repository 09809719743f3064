#include "schemafield.h"

#include "schemacheck.h"

#include <cmath>
#include <optional>

namespace folio {

QString schemaTypeOf(const QJsonObject &s)
{
    const QJsonValue type = s.value(QStringLiteral("type"));
    if (type.isString())
        return type.toString();
    if (type.isArray()) {
        for (const QJsonValue &t : type.toArray()) {
            if (t.isString() && t.toString() != QLatin1String("null"))
                return t.toString();
        }
        return QString();
    }
    if (s.contains(QStringLiteral("properties")))
        return QStringLiteral("object");
    if (s.contains(QStringLiteral("items")))
        return QStringLiteral("array");
    return QString();
}

namespace {

// Local $refs, never fetched; a chain of them is followed a few hops, siblings merged over.
QJsonObject resolved(const QJsonObject &root, QJsonObject s)
{
    for (int hops = 0; hops < SchemaField::maxRefHops && s.value(QStringLiteral("$ref")).isString(); ++hops) {
        const std::optional<QJsonValue> target =
            resolveLocalRef(root, s.value(QStringLiteral("$ref")).toString());
        if (!target || !target->isObject())
            break;
        QJsonObject merged = target->toObject();
        s.remove(QStringLiteral("$ref"));
        for (auto it = s.begin(); it != s.end(); ++it)
            merged.insert(it.key(), it.value());
        s = merged;
    }
    return s;
}

// allOf of object parts: their properties and required, merged.
QJsonObject mergedAllOf(const QJsonObject &root, QJsonObject s)
{
    const QJsonArray allOf = s.value(QStringLiteral("allOf")).toArray();
    if (allOf.isEmpty())
        return s;
    QJsonObject properties = s.value(QStringLiteral("properties")).toObject();
    QJsonArray requiredNames = s.value(QStringLiteral("required")).toArray();
    for (const QJsonValue &partValue : allOf) {
        QJsonObject part = partValue.toObject();
        if (part.value(QStringLiteral("$ref")).isString()) {
            if (const auto t = resolveLocalRef(root, part.value(QStringLiteral("$ref")).toString()))
                part = t->toObject();
        }
        const QJsonObject pp = part.value(QStringLiteral("properties")).toObject();
        for (auto it = pp.begin(); it != pp.end(); ++it)
            properties.insert(it.key(), it.value());
        for (const QJsonValue &r : part.value(QStringLiteral("required")).toArray())
            requiredNames.append(r);
    }
    if (!properties.isEmpty()) {
        s.insert(QStringLiteral("properties"), properties);
        s.insert(QStringLiteral("required"), requiredNames);
        s.insert(QStringLiteral("type"), QStringLiteral("object"));
    }
    return s;
}

} // namespace

SchemaField SchemaField::describe(const QJsonObject &root, const QString &name, const QJsonValue &schema,
                                  bool required, int depth)
{
    SchemaField f;
    f.name = name;
    f.required = required;
    f.depth = depth;
    QJsonObject s = resolved(root, schema.toObject());
    if (depth < maxNesting)
        s = mergedAllOf(root, s);
    f.schema = s;
    f.description = s.value(QStringLiteral("description")).toString();

    const QString type = schemaTypeOf(s);
    // Enums: "enum", or a oneOf/anyOf whose every branch is a const (titled choices).
    QJsonArray choices = s.value(QStringLiteral("enum")).toArray();
    QStringList titles;
    for (const QJsonValue &n : s.value(QStringLiteral("enumNames")).toArray())
        titles << n.toString();
    if (choices.isEmpty()) {
        for (const QString &key : {QStringLiteral("oneOf"), QStringLiteral("anyOf")}) {
            const QJsonArray branches = s.value(key).toArray();
            bool allConst = !branches.isEmpty();
            for (const QJsonValue &b : branches)
                allConst = allConst && b.toObject().contains(QStringLiteral("const"));
            if (allConst) {
                for (const QJsonValue &b : branches) {
                    choices.append(b.toObject().value(QStringLiteral("const")));
                    titles << b.toObject().value(QStringLiteral("title")).toString();
                }
                break;
            }
        }
    }
    if (s.contains(QStringLiteral("const")) && choices.isEmpty())
        choices.append(s.value(QStringLiteral("const")));
    const bool alternatives = s.contains(QStringLiteral("anyOf")) || s.contains(QStringLiteral("oneOf"));
    if (!choices.isEmpty()) {
        f.kind = Kind::Enum;
        f.choices = choices;
        while (titles.size() < choices.size())
            titles << QString();
        f.choiceTitles = titles.mid(0, choices.size());
    } else if (type == QLatin1String("object") && depth < maxNesting && !alternatives) {
        f.kind = Kind::Object;
        const QJsonObject properties = s.value(QStringLiteral("properties")).toObject();
        const QJsonArray requiredNames = s.value(QStringLiteral("required")).toArray();
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            if (depth == 0 && int(f.members.size()) >= maxFields)
                break;
            f.members.push_back(
                describe(root, it.key(), it.value(), requiredNames.contains(it.key()), depth + 1));
        }
    } else if (type == QLatin1String("array") && depth < maxNesting &&
               s.value(QStringLiteral("items")).isObject() && !s.contains(QStringLiteral("prefixItems"))) {
        f.kind = Kind::Array;
        f.itemSchema = s.value(QStringLiteral("items"));
    } else if (type == QLatin1String("string") && !alternatives) {
        f.kind = Kind::String;
        f.format = s.value(QStringLiteral("format")).toString();
    } else if (type == QLatin1String("integer")) {
        f.kind = Kind::Integer;
        double low = -spinLimit, high = spinLimit;
        if (s.value(QStringLiteral("minimum")).isDouble())
            low = s.value(QStringLiteral("minimum")).toDouble();
        if (s.value(QStringLiteral("exclusiveMinimum")).isDouble())
            low = qMax(low, std::floor(s.value(QStringLiteral("exclusiveMinimum")).toDouble()) + 1);
        if (s.value(QStringLiteral("maximum")).isDouble())
            high = s.value(QStringLiteral("maximum")).toDouble();
        if (s.value(QStringLiteral("exclusiveMaximum")).isDouble())
            high = qMin(high, std::ceil(s.value(QStringLiteral("exclusiveMaximum")).toDouble()) - 1);
        f.low = qBound(-spinLimit, std::ceil(low), spinLimit);
        f.high = qBound(f.low, std::floor(high), spinLimit);
    } else if (type == QLatin1String("number")) {
        f.kind = Kind::Number;
    } else if (type == QLatin1String("boolean")) {
        f.kind = Kind::Boolean;
    }
    return f;
}

} // namespace folio
