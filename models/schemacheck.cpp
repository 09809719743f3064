#include "schemacheck.h"

#include "listsource.h"

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace folio {

namespace {

constexpr int maxDepth = 64;     // nested values, subschemas and $ref hops on one path
constexpr int maxSteps = 20000;  // subschemas looked at in one check, however the $refs branch
constexpr int maxAnchors = 1000; // $anchor names collected from one schema
constexpr int maxPatterns = 64;  // regular expressions compiled in one check
constexpr int quotedWidth = 40;  // of a value quoted in a message

QString typeName(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double: {
        const double d = v.toDouble();
        return std::isfinite(d) && std::floor(d) == d ? QStringLiteral("an integer")
                                                      : QStringLiteral("a number");
    }
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

bool isInteger(const QJsonValue &v)
{
    if (!v.isDouble())
        return false;
    const double d = v.toDouble();
    return std::isfinite(d) && std::floor(d) == d;
}

bool hasType(const QJsonValue &v, const QString &type)
{
    if (type == QLatin1String("null"))
        return v.isNull();
    if (type == QLatin1String("boolean"))
        return v.isBool();
    if (type == QLatin1String("integer"))
        return isInteger(v);
    if (type == QLatin1String("number"))
        return v.isDouble();
    if (type == QLatin1String("string"))
        return v.isString();
    if (type == QLatin1String("array"))
        return v.isArray();
    if (type == QLatin1String("object"))
        return v.isObject();
    return false; // an unknown type name matches nothing
}

QString article(const QString &type)
{
    if (type == QLatin1String("null"))
        return type;
    const bool vowel = !type.isEmpty() && QStringLiteral("aeiou").contains(type.at(0));
    return (vowel ? QStringLiteral("an ") : QStringLiteral("a ")) + type;
}

QString quoted(const QJsonValue &v)
{
    QString text;
    if (v.isObject())
        text = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    else if (v.isArray())
        text = QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    else {
        // A scalar written as JSON: wrapped in an array, then unwrapped.
        text = QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact));
        text = text.mid(1, text.size() - 2);
    }
    if (text.size() > quotedWidth)
        text = text.left(quotedWidth - 1) + QChar(0x2026);
    return text;
}

QString number(double d)
{
    return QString::number(d, 'g', 15);
}

qsizetype codePoints(const QString &s)
{
    qsizetype n = 0;
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s.at(i).isHighSurrogate() && i + 1 < s.size() && s.at(i + 1).isLowSurrogate())
            ++i;
        ++n;
    }
    return n;
}

QString escapeToken(QString token)
{
    return token.replace(QLatin1Char('~'), QStringLiteral("~0"))
        .replace(QLatin1Char('/'), QStringLiteral("~1"));
}

// Each "$anchor" in the schema (bounded), to resolve "#name".
void collectAnchors(const QJsonValue &v, int depth, QHash<QString, QJsonValue> *anchors)
{
    if (depth > maxDepth || anchors->size() >= maxAnchors)
        return;
    if (v.isArray()) {
        for (const QJsonValue &item : v.toArray())
            collectAnchors(item, depth + 1, anchors);
        return;
    }
    if (!v.isObject())
        return;
    const QJsonObject o = v.toObject();
    const QJsonValue anchor = o.value(QStringLiteral("$anchor"));
    if (anchor.isString() && !anchors->contains(anchor.toString()))
        anchors->insert(anchor.toString(), o);
    for (auto it = o.begin(); it != o.end(); ++it) {
        // "const", "enum", "default" and "examples" hold values, not schemas.
        if (it.key() == QLatin1String("const") || it.key() == QLatin1String("enum") ||
            it.key() == QLatin1String("default") || it.key() == QLatin1String("examples"))
            continue;
        collectAnchors(it.value(), depth + 1, anchors);
    }
}

std::optional<QJsonValue> resolveIn(const QJsonObject &root, const QString &ref,
                                    const QHash<QString, QJsonValue> *anchors)
{
    if (!ref.startsWith(QLatin1Char('#')))
        return std::nullopt; // another document: never fetched
    const QString fragment = QString::fromUtf8(QByteArray::fromPercentEncoding(ref.mid(1).toUtf8()));
    if (fragment.isEmpty() || fragment.startsWith(QLatin1Char('/'))) {
        bool found = false;
        const QJsonValue target = ListSource::resolvePointer(root, fragment, &found);
        if (!found || !(target.isObject() || target.isBool()))
            return std::nullopt;
        return target;
    }
    if (anchors) {
        const auto it = anchors->constFind(fragment);
        if (it != anchors->constEnd())
            return *it;
        return std::nullopt;
    }
    QHash<QString, QJsonValue> found;
    collectAnchors(root, 0, &found);
    const auto it = found.constFind(fragment);
    if (it != found.constEnd())
        return *it;
    return std::nullopt;
}

// One check's walk over a value and its schema, with its bounds. A violation goes to the list
// the caller gives: the result's, or a scratch list for an alternative of anyOf/oneOf/not.
class Checker
{
public:
    Checker(const QJsonObject &root, int maxViolations)
        : m_root(root)
        , m_max(qMax(1, maxViolations))
    {
        collectAnchors(root, 0, &m_anchors);
    }

    QList<SchemaViolation> run(const QJsonValue &value)
    {
        QList<SchemaViolation> out;
        check(value, m_root, QString(), 0, &out, m_max);
        if (m_stopped && out.size() < m_max)
            out.append({QString(), m_stopReason});
        return out;
    }

private:
    struct Sink
    {
        QList<SchemaViolation> *list;
        int max;
        bool full() const { return list->size() >= max; }
    };

    void add(const Sink &sink, const QString &path, const QString &message)
    {
        if (!sink.full())
            sink.list->append({path, message});
    }

    void stop(const QString &reason)
    {
        if (!m_stopped) {
            m_stopped = true;
            m_stopReason = reason;
        }
    }

    // Whether the value matches, violations not kept (alternatives, if).
    bool matches(const QJsonValue &value, const QJsonValue &schema, const QString &path, int depth)
    {
        QList<SchemaViolation> scratch;
        check(value, schema, path, depth, &scratch, 1);
        return scratch.isEmpty();
    }

    void check(const QJsonValue &value, const QJsonValue &schemaValue, const QString &path, int depth,
               QList<SchemaViolation> *list, int max)
    {
        const Sink sink{list, max};
        if (sink.full() || m_stopped)
            return;
        if (++m_steps > maxSteps) {
            stop(QStringLiteral("the schema is too complex to check fully: stopped after %1 subschemas")
                     .arg(maxSteps));
            return;
        }
        if (depth > maxDepth) {
            stop(QStringLiteral("the schema or the value nests deeper than %1 levels: not checked further")
                     .arg(maxDepth));
            return;
        }
        if (schemaValue.isBool()) {
            if (!schemaValue.toBool())
                add(sink, path, QStringLiteral("no value is allowed here (the schema is false)"));
            return;
        }
        if (!schemaValue.isObject())
            return; // not a schema: nothing is asserted
        const QJsonObject s = schemaValue.toObject();

        const QJsonValue ref = s.value(QStringLiteral("$ref"));
        if (ref.isString()) {
            const QString r = ref.toString();
            if (const std::optional<QJsonValue> target = resolveIn(m_root, r, &m_anchors))
                check(value, *target, path, depth + 1, list, max);
            else if (!r.startsWith(QLatin1Char('#')))
                add(sink, path,
                    QStringLiteral("$ref \"%1\" not followed: only references within the schema are").arg(r));
            else
                add(sink, path, QStringLiteral("$ref \"%1\" does not resolve within the schema").arg(r));
        }
        const QJsonValue dynamicRef = s.value(QStringLiteral("$dynamicRef"));
        if (dynamicRef.isString()) {
            // Resolved as a plain local $ref (its dynamic scope is not tracked).
            if (const std::optional<QJsonValue> target = resolveIn(m_root, dynamicRef.toString(), &m_anchors))
                check(value, *target, path, depth + 1, list, max);
        }

        checkType(value, s, path, sink);
        if (s.contains(QStringLiteral("const")) && value != s.value(QStringLiteral("const")))
            add(sink, path, QStringLiteral("must be %1").arg(quoted(s.value(QStringLiteral("const")))));
        const QJsonValue choices = s.value(QStringLiteral("enum"));
        if (choices.isArray() && !choices.toArray().contains(value)) {
            QStringList names;
            for (const QJsonValue &c : choices.toArray()) {
                if (names.size() == 8) {
                    names << QString(QChar(0x2026));
                    break;
                }
                names << quoted(c);
            }
            add(sink, path, QStringLiteral("must be one of %1").arg(names.join(QStringLiteral(", "))));
        }
        if (value.isDouble())
            checkNumber(value.toDouble(), s, path, sink);
        else if (value.isString())
            checkString(value.toString(), s, path, sink);
        else if (value.isArray())
            checkArray(value.toArray(), s, path, depth, list, max);
        else if (value.isObject())
            checkObject(value.toObject(), s, path, depth, list, max);

        checkCombinations(value, s, path, depth, list, max);
    }

    void checkType(const QJsonValue &value, const QJsonObject &s, const QString &path, const Sink &sink)
    {
        const QJsonValue type = s.value(QStringLiteral("type"));
        QStringList types;
        if (type.isString())
            types << type.toString();
        else if (type.isArray()) {
            for (const QJsonValue &t : type.toArray())
                types << t.toString();
        } else
            return;
        for (const QString &t : std::as_const(types)) {
            if (hasType(value, t))
                return;
        }
        QStringList wanted;
        for (const QString &t : std::as_const(types))
            wanted << article(t);
        add(sink, path,
            QStringLiteral("expected %1, got %2")
                .arg(wanted.isEmpty() ? QStringLiteral("no type at all")
                                      : wanted.join(QStringLiteral(" or ")),
                     typeName(value)));
    }

    void checkNumber(double d, const QJsonObject &s, const QString &path, const Sink &sink)
    {
        auto bound = [&s](const char *key, double *out) {
            const QJsonValue v = s.value(QLatin1String(key));
            if (!v.isDouble())
                return false;
            *out = v.toDouble();
            return true;
        };
        double b = 0;
        const bool draft4ExclusiveMin = s.value(QStringLiteral("exclusiveMinimum")).toBool(false);
        const bool draft4ExclusiveMax = s.value(QStringLiteral("exclusiveMaximum")).toBool(false);
        if (bound("minimum", &b)) {
            if (draft4ExclusiveMin ? d <= b : d < b)
                add(sink, path,
                    (draft4ExclusiveMin ? QStringLiteral("must be more than %1")
                                        : QStringLiteral("must be at least %1"))
                        .arg(number(b)));
        }
        if (bound("maximum", &b)) {
            if (draft4ExclusiveMax ? d >= b : d > b)
                add(sink, path,
                    (draft4ExclusiveMax ? QStringLiteral("must be less than %1")
                                        : QStringLiteral("must be at most %1"))
                        .arg(number(b)));
        }
        if (bound("exclusiveMinimum", &b) && d <= b)
            add(sink, path, QStringLiteral("must be more than %1").arg(number(b)));
        if (bound("exclusiveMaximum", &b) && d >= b)
            add(sink, path, QStringLiteral("must be less than %1").arg(number(b)));
        if (bound("multipleOf", &b) && b > 0) {
            const double q = d / b;
            if (std::isfinite(q) && std::fabs(q - std::round(q)) > 1e-9 * qMax(1.0, std::fabs(q)))
                add(sink, path, QStringLiteral("must be a multiple of %1").arg(number(b)));
        }
    }

    void checkString(const QString &text, const QJsonObject &s, const QString &path, const Sink &sink)
    {
        const qsizetype length = codePoints(text);
        const QJsonValue minLength = s.value(QStringLiteral("minLength"));
        if (minLength.isDouble() && length < minLength.toDouble())
            add(sink, path,
                QStringLiteral("must be at least %1 characters long (it has %2)")
                    .arg(number(minLength.toDouble()), QString::number(length)));
        const QJsonValue maxLength = s.value(QStringLiteral("maxLength"));
        if (maxLength.isDouble() && length > maxLength.toDouble())
            add(sink, path,
                QStringLiteral("must be at most %1 characters long (it has %2)")
                    .arg(number(maxLength.toDouble()), QString::number(length)));
        const QJsonValue pattern = s.value(QStringLiteral("pattern"));
        if (pattern.isString()) {
            const QRegularExpression *re = regex(pattern.toString());
            if (!re)
                add(sink, path,
                    QStringLiteral("the schema's pattern %1 is not a regular expression Folio can read")
                        .arg(quoted(pattern)));
            else if (!re->match(text).hasMatch())
                add(sink, path, QStringLiteral("does not match the pattern %1").arg(quoted(pattern)));
        }
    }

    void checkArray(const QJsonArray &a, const QJsonObject &s, const QString &path, int depth,
                    QList<SchemaViolation> *list, int max)
    {
        const Sink sink{list, max};
        const QJsonValue minItems = s.value(QStringLiteral("minItems"));
        if (minItems.isDouble() && a.size() < minItems.toDouble())
            add(sink, path,
                QStringLiteral("must have at least %1 items (it has %2)")
                    .arg(number(minItems.toDouble()), QString::number(a.size())));
        const QJsonValue maxItems = s.value(QStringLiteral("maxItems"));
        if (maxItems.isDouble() && a.size() > maxItems.toDouble())
            add(sink, path,
                QStringLiteral("must have at most %1 items (it has %2)")
                    .arg(number(maxItems.toDouble()), QString::number(a.size())));
        // 2020-12: prefixItems then items; draft 4–2019: items as an array, then additionalItems.
        QJsonArray prefix = s.value(QStringLiteral("prefixItems")).toArray();
        QJsonValue rest = s.value(QStringLiteral("items"));
        if (!s.contains(QStringLiteral("prefixItems")) && rest.isArray()) {
            prefix = rest.toArray();
            rest = s.value(QStringLiteral("additionalItems"));
        }
        for (qsizetype i = 0; i < a.size() && !sink.full() && !m_stopped; ++i) {
            const QString at = path + QLatin1Char('/') + QString::number(i);
            if (i < prefix.size())
                check(a.at(i), prefix.at(i), at, depth + 1, list, max);
            else if (rest.isObject() || rest.isBool())
                check(a.at(i), rest, at, depth + 1, list, max);
        }
        if (s.contains(QStringLiteral("contains"))) {
            int found = 0;
            for (qsizetype i = 0; i < a.size() && !m_stopped; ++i) {
                if (matches(a.at(i), s.value(QStringLiteral("contains")),
                            path + QLatin1Char('/') + QString::number(i), depth + 1))
                    ++found;
            }
            const QJsonValue minContains = s.value(QStringLiteral("minContains"));
            const double least = minContains.isDouble() ? minContains.toDouble() : 1;
            if (found < least)
                add(sink, path,
                    least <= 1 ? QStringLiteral("must contain an item that matches \"contains\"")
                               : QStringLiteral("must contain at least %1 items that match "
                                                "\"contains\" (it has %2)")
                                     .arg(number(least), QString::number(found)));
            const QJsonValue maxContains = s.value(QStringLiteral("maxContains"));
            if (maxContains.isDouble() && found > maxContains.toDouble())
                add(sink, path,
                    QStringLiteral("must contain at most %1 items that match \"contains\" (it has %2)")
                        .arg(number(maxContains.toDouble()), QString::number(found)));
        }
        if (s.value(QStringLiteral("uniqueItems")).toBool(false) && a.size() > 1) {
            // Pairwise, within the step budget (equal items are rare and arrays are short).
            const qsizetype n = qMin<qsizetype>(a.size(), 500);
            for (qsizetype i = 0; i < n; ++i) {
                for (qsizetype j = i + 1; j < n; ++j) {
                    if (a.at(i) == a.at(j)) {
                        add(sink, path,
                            QStringLiteral("items %1 and %2 are equal (uniqueItems)")
                                .arg(QString::number(i), QString::number(j)));
                        return;
                    }
                }
            }
        }
    }

    void checkObject(const QJsonObject &o, const QJsonObject &s, const QString &path, int depth,
                     QList<SchemaViolation> *list, int max)
    {
        const Sink sink{list, max};
        for (const QJsonValue &r : s.value(QStringLiteral("required")).toArray()) {
            if (r.isString() && !o.contains(r.toString()))
                add(sink, path + QLatin1Char('/') + escapeToken(r.toString()),
                    QStringLiteral("required, and missing"));
        }
        const QJsonValue minProperties = s.value(QStringLiteral("minProperties"));
        if (minProperties.isDouble() && o.size() < minProperties.toDouble())
            add(sink, path,
                QStringLiteral("must have at least %1 members").arg(number(minProperties.toDouble())));
        const QJsonValue maxProperties = s.value(QStringLiteral("maxProperties"));
        if (maxProperties.isDouble() && o.size() > maxProperties.toDouble())
            add(sink, path,
                QStringLiteral("must have at most %1 members").arg(number(maxProperties.toDouble())));
        const QJsonObject dependentRequired = s.value(QStringLiteral("dependentRequired")).toObject();
        for (auto it = dependentRequired.begin(); it != dependentRequired.end(); ++it) {
            if (!o.contains(it.key()))
                continue;
            for (const QJsonValue &r : it.value().toArray()) {
                if (r.isString() && !o.contains(r.toString()))
                    add(sink, path + QLatin1Char('/') + escapeToken(r.toString()),
                        QStringLiteral("required when \"%1\" is given, and missing").arg(it.key()));
            }
        }

        const QJsonObject properties = s.value(QStringLiteral("properties")).toObject();
        const QJsonObject patternProperties = s.value(QStringLiteral("patternProperties")).toObject();
        const QJsonValue additional = s.value(QStringLiteral("additionalProperties"));
        const QJsonValue propertyNames = s.value(QStringLiteral("propertyNames"));
        for (auto it = o.begin(); it != o.end() && !sink.full() && !m_stopped; ++it) {
            const QString at = path + QLatin1Char('/') + escapeToken(it.key());
            bool evaluated = false;
            if (properties.contains(it.key())) {
                evaluated = true;
                check(it.value(), properties.value(it.key()), at, depth + 1, list, max);
            }
            for (auto p = patternProperties.begin(); p != patternProperties.end(); ++p) {
                const QRegularExpression *re = regex(p.key());
                if (re && re->match(it.key()).hasMatch()) {
                    evaluated = true;
                    check(it.value(), p.value(), at, depth + 1, list, max);
                }
            }
            if (!evaluated) {
                if (additional.isBool() && !additional.toBool())
                    add(sink, at,
                        QStringLiteral("not allowed: the schema lists its members and this is not one"));
                else if (additional.isObject())
                    check(it.value(), additional, at, depth + 1, list, max);
            }
            if ((propertyNames.isObject() || propertyNames.isBool()) &&
                !matches(it.key(), propertyNames, at, depth + 1))
                add(sink, at, QStringLiteral("the name %1 does not fit propertyNames").arg(quoted(it.key())));
        }
    }

    void checkCombinations(const QJsonValue &value, const QJsonObject &s, const QString &path, int depth,
                           QList<SchemaViolation> *list, int max)
    {
        const Sink sink{list, max};
        for (const QJsonValue &sub : s.value(QStringLiteral("allOf")).toArray())
            check(value, sub, path, depth + 1, list, max);
        const QJsonValue anyOf = s.value(QStringLiteral("anyOf"));
        if (anyOf.isArray()) {
            bool any = false;
            for (const QJsonValue &sub : anyOf.toArray()) {
                if (matches(value, sub, path, depth + 1)) {
                    any = true;
                    break;
                }
            }
            if (!any && !m_stopped)
                add(sink, path,
                    describeMismatch(value, anyOf.toArray(), path, depth, QStringLiteral("anyOf")));
        }
        const QJsonValue oneOf = s.value(QStringLiteral("oneOf"));
        if (oneOf.isArray()) {
            int count = 0;
            for (const QJsonValue &sub : oneOf.toArray()) {
                if (matches(value, sub, path, depth + 1))
                    ++count;
            }
            if (count == 0 && !m_stopped)
                add(sink, path,
                    describeMismatch(value, oneOf.toArray(), path, depth, QStringLiteral("oneOf")));
            else if (count > 1)
                add(sink, path,
                    QStringLiteral("matches %1 of oneOf's schemas; exactly one is allowed").arg(count));
        }
        if (s.contains(QStringLiteral("not")) &&
            matches(value, s.value(QStringLiteral("not")), path, depth + 1) && !m_stopped)
            add(sink, path, QStringLiteral("must not match the schema under \"not\""));
        if (s.contains(QStringLiteral("if"))) {
            const bool holds = matches(value, s.value(QStringLiteral("if")), path, depth + 1);
            const QString branch = holds ? QStringLiteral("then") : QStringLiteral("else");
            if (s.contains(branch))
                check(value, s.value(branch), path, depth + 1, list, max);
        }
    }

    // For a value no alternative matches: the first alternative's first complaint when there is
    // one alternative, else a count.
    QString describeMismatch(const QJsonValue &value, const QJsonArray &alternatives, const QString &path,
                             int depth, const QString &keyword)
    {
        if (alternatives.size() == 1) {
            QList<SchemaViolation> scratch;
            check(value, alternatives.first(), path, depth + 1, &scratch, 1);
            if (!scratch.isEmpty())
                return scratch.first().message;
        }
        return QStringLiteral("matches none of the %1 schemas %2 allows")
            .arg(QString::number(alternatives.size()), keyword);
    }

    const QRegularExpression *regex(const QString &pattern)
    {
        auto it = m_patterns.find(pattern);
        if (it == m_patterns.end()) {
            if (m_patterns.size() >= maxPatterns)
                return nullptr;
            // ECMA-262 patterns are not anchored; PCRE2 reads the common subset alike.
            it = m_patterns.insert(pattern, QRegularExpression(pattern));
        }
        return it->isValid() ? &*it : nullptr;
    }

    QJsonObject m_root;
    int m_max;
    QHash<QString, QJsonValue> m_anchors;
    QHash<QString, QRegularExpression> m_patterns;
    int m_steps = 0;
    bool m_stopped = false;
    QString m_stopReason;
};

} // namespace

QList<SchemaViolation> checkAgainstSchema(const QJsonValue &value, const QJsonObject &schema,
                                          int maxViolations)
{
    return Checker(schema, maxViolations).run(value);
}

std::optional<QJsonValue> resolveLocalRef(const QJsonObject &root, const QString &ref)
{
    return resolveIn(root, ref, nullptr);
}

QString readablePath(const QString &pointer)
{
    if (pointer.isEmpty())
        return QStringLiteral("(the value)");
    QString out;
    const QStringList parts = pointer.mid(1).split(QLatin1Char('/'));
    for (QString part : parts) {
        part.replace(QStringLiteral("~1"), QStringLiteral("/"))
            .replace(QStringLiteral("~0"), QStringLiteral("~"));
        bool index = false;
        part.toUInt(&index);
        if (index)
            out += QLatin1Char('[') + part + QLatin1Char(']');
        else
            out += (out.isEmpty() ? QString() : QStringLiteral(".")) + part;
    }
    return out;
}

} // namespace folio
