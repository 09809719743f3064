#include "snapshotdiff.h"

#include "counted.h"
#include "cursordecoder.h"
#include "itemdiff.h"
#include "pagerecord.h"
#include "schemafield.h"
#include "uritemplate.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <vector>

namespace folio {

// ---- WordDiff ----

namespace {

void appendPart(QList<WordDiff::Part> *parts, WordDiff::Op op, const QString &text)
{
    if (text.isEmpty())
        return;
    if (!parts->isEmpty() && parts->last().op == op)
        parts->last().text += text;
    else
        parts->append({op, text});
}

} // namespace

QStringList WordDiff::tokens(QStringView text)
{
    QStringList out;
    qsizetype start = 0;
    for (qsizetype i = 1; i <= text.size(); ++i) {
        if (i == text.size() || text.at(i).isSpace() != text.at(start).isSpace()) {
            out.append(text.mid(start, i - start).toString());
            start = i;
        }
    }
    return out;
}

WordDiff WordDiff::of(const QString &before, const QString &after, qint64 *budget)
{
    WordDiff d;
    if (before.size() > MaxTextChars || after.size() > MaxTextChars) {
        d.whole = true;
        appendPart(&d.parts, Op::Removed, before);
        appendPart(&d.parts, Op::Added, after);
        return d;
    }
    const QStringList a = tokens(before);
    const QStringList b = tokens(after);
    qsizetype head = 0;
    while (head < a.size() && head < b.size() && a.at(head) == b.at(head))
        ++head;
    qsizetype tail = 0;
    while (tail < a.size() - head && tail < b.size() - head &&
           a.at(a.size() - 1 - tail) == b.at(b.size() - 1 - tail))
        ++tail;
    for (qsizetype i = 0; i < head; ++i)
        appendPart(&d.parts, Op::Same, a.at(i));
    const qsizetype n = a.size() - head - tail;
    const qsizetype m = b.size() - head - tail;
    const qint64 cells = n > 0 && m > 0 ? qint64(n + 1) * qint64(m + 1) : 0;
    if (cells > MaxCells || (budget && cells > *budget)) {
        d.whole = true;
        d.parts.clear();
        appendPart(&d.parts, Op::Removed, before);
        appendPart(&d.parts, Op::Added, after);
        return d;
    }
    if (budget)
        *budget -= cells;
    if (n > 0 && m > 0) {
        // lcs[i][j]: the longest common subsequence of a's middle from i and b's middle from j.
        std::vector<quint32> lcs(size_t((n + 1) * (m + 1)), 0);
        const auto at = [&](qsizetype i, qsizetype j) -> quint32 & { return lcs[size_t(i * (m + 1) + j)]; };
        for (qsizetype i = n - 1; i >= 0; --i) {
            for (qsizetype j = m - 1; j >= 0; --j)
                at(i, j) = a.at(head + i) == b.at(head + j) ? at(i + 1, j + 1) + 1
                                                            : std::max(at(i + 1, j), at(i, j + 1));
        }
        qsizetype i = 0, j = 0;
        while (i < n && j < m) {
            if (a.at(head + i) == b.at(head + j)) {
                appendPart(&d.parts, Op::Same, a.at(head + i));
                ++i;
                ++j;
            } else if (at(i + 1, j) >= at(i, j + 1)) {
                appendPart(&d.parts, Op::Removed, a.at(head + i++));
            } else {
                appendPart(&d.parts, Op::Added, b.at(head + j++));
            }
        }
        for (; i < n; ++i)
            appendPart(&d.parts, Op::Removed, a.at(head + i));
        for (; j < m; ++j)
            appendPart(&d.parts, Op::Added, b.at(head + j));
    } else {
        for (qsizetype i = 0; i < n; ++i)
            appendPart(&d.parts, Op::Removed, a.at(head + i));
        for (qsizetype j = 0; j < m; ++j)
            appendPart(&d.parts, Op::Added, b.at(head + j));
    }
    for (qsizetype i = a.size() - tail; i < a.size(); ++i)
        appendPart(&d.parts, Op::Same, a.at(i));
    return d;
}

QJsonValue WordDiff::toJson() const
{
    QJsonArray out;
    for (const Part &p : parts) {
        const QString op = p.op == Op::Same      ? QStringLiteral("=")
                           : p.op == Op::Removed ? QStringLiteral("-")
                                                 : QStringLiteral("+");
        out.append(QJsonObject{{QStringLiteral("op"), op}, {QStringLiteral("text"), p.text}});
    }
    return out;
}

// ---- SnapshotChange ----

QString SnapshotChange::className(Class cls)
{
    switch (cls) {
    case Class::Breaking:
        return QStringLiteral("breaking");
    case Class::Additive:
        return QStringLiteral("additive");
    case Class::Text:
        return QStringLiteral("text");
    case Class::Caching:
        return QStringLiteral("caching");
    case Class::Paging:
        return QStringLiteral("paging");
    }
    return {};
}

std::optional<SnapshotChange::Class> SnapshotChange::classNamed(const QString &name)
{
    for (Class c : allClasses()) {
        if (className(c) == name)
            return c;
    }
    return std::nullopt;
}

QList<SnapshotChange::Class> SnapshotChange::allClasses()
{
    return {Class::Breaking, Class::Additive, Class::Text, Class::Caching, Class::Paging};
}

QJsonObject SnapshotChange::toJson() const
{
    QJsonObject o{{QStringLiteral("class"), className(cls)},
                  {QStringLiteral("list"), list.isEmpty() ? QJsonValue() : QJsonValue(list)},
                  {QStringLiteral("item"), item ? QJsonValue(*item) : QJsonValue()},
                  {QStringLiteral("field"), field},
                  {QStringLiteral("summary"), summary}};
    if (!before.isUndefined())
        o.insert(QStringLiteral("before"), before);
    if (!after.isUndefined())
        o.insert(QStringLiteral("after"), after);
    if (words) {
        o.insert(QStringLiteral("words"), words->toJson());
        o.insert(QStringLiteral("wordsWhole"), words->whole);
    }
    return o;
}

// ---- SnapshotDiff ----

namespace {

using Class = SnapshotChange::Class;
const QJsonValue undefined(QJsonValue::Undefined);

QString quoted(const QString &text)
{
    return QLatin1Char('"') + text + QLatin1Char('"');
}

// A value as a person reads it: absent, null, "text", 12, {...}.
QString compact(const QJsonValue &value)
{
    return PageRecord::describeValue(true, value);
}

// The members of a, then those only b has.
QStringList unionKeys(const QJsonObject &a, const QJsonObject &b)
{
    QStringList keys = a.keys();
    for (const QString &k : b.keys()) {
        if (!a.contains(k))
            keys << k;
    }
    return keys;
}

// The changes found, and what word diffs may still spend.
struct Sink
{
    QList<SnapshotChange> changes;
    qint64 wordCells = WordDiff::MaxTotalCells;
};

// Where the changes of one list (or of one item in it) go.
struct Changes
{
    Sink *out;
    QString list;
    std::optional<QString> item;

    void add(Class cls, const QString &field, const QString &summary, const QJsonValue &before = undefined,
             const QJsonValue &after = undefined) const
    {
        out->changes.append(make(cls, field, summary, before, after));
    }
    // A text changed: the words that did.
    void text(const QString &field, const QString &what, const QJsonValue &before,
              const QJsonValue &after) const
    {
        SnapshotChange c = make(Class::Text, field, QString(), before, after);
        if ((before.isString() || before.isUndefined()) && (after.isString() || after.isUndefined())) {
            c.words = WordDiff::of(before.toString(), after.toString(), &out->wordCells);
            c.summary = before.isUndefined()  ? what + QStringLiteral(" added")
                        : after.isUndefined() ? what + QStringLiteral(" removed")
                                              : what + QStringLiteral(" changed");
        } else {
            c.summary = QStringLiteral("%1 changed: %2 → %3").arg(what, compact(before), compact(after));
        }
        out->changes.append(c);
    }

private:
    SnapshotChange make(Class cls, const QString &field, const QString &summary, const QJsonValue &before,
                        const QJsonValue &after) const
    {
        SnapshotChange c;
        c.cls = cls;
        c.list = list;
        c.item = item;
        c.field = field;
        c.summary = summary;
        c.before = before;
        c.after = after;
        return c;
    }
};

// ---- schemas ----

// The JSON types a schema accepts; empty: any.
QSet<QString> typesOf(const QJsonObject &schema)
{
    QSet<QString> out;
    const QJsonValue type = schema.value(QStringLiteral("type"));
    if (type.isString())
        out.insert(type.toString());
    for (const QJsonValue &t : type.toArray())
        out.insert(t.toString());
    return out;
}

bool accepts(const QSet<QString> &types, const QString &type)
{
    return types.isEmpty() || types.contains(type) ||
           (type == QLatin1String("integer") && types.contains(QStringLiteral("number")));
}

// Every type of inner is accepted by outer.
bool covers(const QSet<QString> &outer, const QSet<QString> &inner)
{
    if (outer.isEmpty())
        return true;
    if (inner.isEmpty())
        return false;
    return std::all_of(inner.cbegin(), inner.cend(), [&](const QString &t) { return accepts(outer, t); });
}

QString typesText(const QSet<QString> &types)
{
    if (types.isEmpty())
        return QStringLiteral("any");
    QStringList sorted(types.cbegin(), types.cend());
    sorted.sort();
    return sorted.join(QLatin1Char('|'));
}

QJsonArray typesJson(const QSet<QString> &types)
{
    QStringList sorted(types.cbegin(), types.cend());
    sorted.sort();
    return QJsonArray::fromStringList(sorted);
}

// How a schema's parts are named in summaries: "argument" at the top of an inputSchema,
// "property" within it, "output field" in an outputSchema.
struct SchemaWords
{
    QString top;
    QString nested;
    QString field; // "inputSchema", "outputSchema"
};

// The keywords besides type, enum and properties that say what a schema accepts: a bound raised
// or a pattern added accepts less (breaking), the other way accepts more (additive); an annotation
// changed is text.
void compareKeywords(const Changes &c, const QString &what, const QString &field, const QJsonObject &a,
                     const QJsonObject &b)
{
    static const QStringList lower{QStringLiteral("minimum"), QStringLiteral("exclusiveMinimum"),
                                   QStringLiteral("minLength"), QStringLiteral("minItems"),
                                   QStringLiteral("minProperties")};
    static const QStringList upper{QStringLiteral("maximum"), QStringLiteral("exclusiveMaximum"),
                                   QStringLiteral("maxLength"), QStringLiteral("maxItems"),
                                   QStringLiteral("maxProperties")};
    static const QStringList annotations{QStringLiteral("title"),      QStringLiteral("default"),
                                         QStringLiteral("examples"),   QStringLiteral("format"),
                                         QStringLiteral("deprecated"), QStringLiteral("readOnly"),
                                         QStringLiteral("writeOnly")};
    const auto say = [&](Class cls, const QString &key, const QString &how) {
        c.add(cls, field + QLatin1Char('.') + key,
              QStringLiteral("%1: %2 %3, %4 → %5")
                  .arg(what, key, how, compact(a.value(key)), compact(b.value(key))),
              a.value(key), b.value(key));
    };
    for (const QString &key : lower + upper) {
        const QJsonValue va = a.value(key), vb = b.value(key);
        if (va == vb || (!va.isUndefined() && !va.isDouble()) || (!vb.isUndefined() && !vb.isDouble()))
            continue;
        const bool isLower = lower.contains(key);
        // Absent is no bound: the lowest lower bound, the highest upper one.
        const bool tighter = va.isUndefined()   ? true
                             : vb.isUndefined() ? false
                             : isLower          ? vb.toDouble() > va.toDouble()
                                                : vb.toDouble() < va.toDouble();
        say(tighter ? Class::Breaking : Class::Additive, key,
            tighter ? QStringLiteral("tightened") : QStringLiteral("loosened"));
    }
    if (a.value(QStringLiteral("pattern")) != b.value(QStringLiteral("pattern")))
        say(b.contains(QStringLiteral("pattern")) ? Class::Breaking : Class::Additive,
            QStringLiteral("pattern"), QStringLiteral("changed"));
    const QJsonValue extraA = a.value(QStringLiteral("additionalProperties"));
    const QJsonValue extraB = b.value(QStringLiteral("additionalProperties"));
    if (extraA != extraB && (extraA.isBool() || extraA.isUndefined()) &&
        (extraB.isBool() || extraB.isUndefined()))
        say(extraB == QJsonValue(false) ? Class::Breaking : Class::Additive,
            QStringLiteral("additionalProperties"), QStringLiteral("changed"));
    for (const QString &key : annotations) {
        if (a.value(key) != b.value(key))
            c.text(field + QLatin1Char('.') + key, what + QStringLiteral(": ") + key, a.value(key),
                   b.value(key));
    }
}

void compareField(const Changes &c, const SchemaWords &words, const QString &path, const SchemaField &a,
                  const SchemaField &b)
{
    const QString what = path.isEmpty() ? words.field
                                        : (path.contains(QLatin1Char('.')) ? words.nested : words.top) +
                                              QLatin1Char(' ') + quoted(path);
    const QString field = path.isEmpty() ? words.field : words.field + QLatin1Char('.') + path;
    const QSet<QString> ta = typesOf(a.schema);
    const QSet<QString> tb = typesOf(b.schema);
    if (ta != tb) {
        const bool wider = covers(tb, ta);
        const bool narrower = covers(ta, tb);
        const QString how = wider      ? QStringLiteral("widened")
                            : narrower ? QStringLiteral("narrowed")
                                       : QStringLiteral("changed");
        c.add(wider ? Class::Additive : Class::Breaking, field + QStringLiteral(".type"),
              QStringLiteral("%1: type %2, %3 → %4").arg(what, how, typesText(ta), typesText(tb)),
              typesJson(ta), typesJson(tb));
    }
    // Enums: a value removed accepts less; an enum where there was none too.
    if (a.choices != b.choices) {
        QSet<QString> inA, inB;
        for (const QJsonValue &v : a.choices)
            inA.insert(compact(v));
        for (const QJsonValue &v : b.choices)
            inB.insert(compact(v));
        QStringList removed, added;
        for (const QJsonValue &v : a.choices) {
            if (!inB.contains(compact(v)))
                removed << compact(v);
        }
        for (const QJsonValue &v : b.choices) {
            if (!inA.contains(compact(v)))
                added << compact(v);
        }
        if (a.choices.isEmpty()) {
            c.add(Class::Breaking, field + QStringLiteral(".enum"),
                  QStringLiteral("%1: now limited to %2").arg(what, added.join(QStringLiteral(", "))),
                  undefined, b.choices);
        } else if (b.choices.isEmpty()) {
            c.add(Class::Additive, field + QStringLiteral(".enum"),
                  QStringLiteral("%1: no longer limited to a list of values").arg(what), a.choices,
                  undefined);
        } else if (!removed.isEmpty()) {
            c.add(Class::Breaking, field + QStringLiteral(".enum"),
                  QStringLiteral("%1: enum value removed: %2").arg(what, removed.join(QStringLiteral(", "))),
                  a.choices, b.choices);
        } else if (!added.isEmpty()) {
            c.add(Class::Additive, field + QStringLiteral(".enum"),
                  QStringLiteral("%1: enum value added: %2").arg(what, added.join(QStringLiteral(", "))),
                  a.choices, b.choices);
        } else {
            c.add(Class::Text, field + QStringLiteral(".enum"),
                  QStringLiteral("%1: the same enum values in another order").arg(what), a.choices,
                  b.choices);
        }
    }
    compareKeywords(c, what, field, a.schema, b.schema);
    if (a.description != b.description && !path.isEmpty())
        c.text(field + QStringLiteral(".description"), what + QStringLiteral(": description"),
               a.description.isEmpty() ? undefined : QJsonValue(a.description),
               b.description.isEmpty() ? undefined : QJsonValue(b.description));

    QHash<QString, const SchemaField *> membersA;
    for (const SchemaField &m : a.members)
        membersA.insert(m.name, &m);
    QSet<QString> seen;
    for (const SchemaField &m : b.members) {
        const QString sub = path.isEmpty() ? m.name : path + QLatin1Char('.') + m.name;
        const QString subWhat = (path.isEmpty() ? words.top : words.nested) + QLatin1Char(' ') + quoted(sub);
        const QString subField = words.field + QLatin1Char('.') + sub;
        seen.insert(m.name);
        const SchemaField *old = membersA.value(m.name);
        if (!old) {
            if (m.required)
                c.add(Class::Breaking, subField, QStringLiteral("required %1 added").arg(subWhat), undefined,
                      m.schema);
            else
                c.add(Class::Additive, subField, QStringLiteral("optional %1 added").arg(subWhat), undefined,
                      m.schema);
            continue;
        }
        if (!old->required && m.required)
            c.add(Class::Breaking, subField + QStringLiteral(".required"),
                  QStringLiteral("%1 made required").arg(subWhat), false, true);
        else if (old->required && !m.required)
            c.add(Class::Additive, subField + QStringLiteral(".required"),
                  QStringLiteral("%1 made optional").arg(subWhat), true, false);
        compareField(c, words, sub, *old, m);
    }
    for (const SchemaField &m : a.members) {
        if (seen.contains(m.name))
            continue;
        const QString sub = path.isEmpty() ? m.name : path + QLatin1Char('.') + m.name;
        c.add(Class::Breaking, words.field + QLatin1Char('.') + sub,
              QStringLiteral("%1 %2 removed").arg(path.isEmpty() ? words.top : words.nested, quoted(sub)),
              m.schema, undefined);
    }
}

void compareSchemas(const Changes &c, const SchemaWords &words, const QJsonValue &a, const QJsonValue &b)
{
    if (a == b)
        return;
    if (a.isUndefined()) {
        c.add(Class::Additive, words.field, QStringLiteral("%1 added").arg(words.field), undefined, b);
        return;
    }
    if (b.isUndefined()) {
        c.add(Class::Breaking, words.field, QStringLiteral("%1 removed").arg(words.field), a, undefined);
        return;
    }
    // $refs resolved (resolveLocalRef, bounded) and allOf merged by the one schema reader.
    const SchemaField fa = SchemaField::describe(a.toObject(), QString(), a, false, 0);
    const SchemaField fb = SchemaField::describe(b.toObject(), QString(), b, false, 0);
    const qsizetype before = c.out->changes.size();
    compareField(c, words, QString(), fa, fb);
    if (c.out->changes.size() == before) // changed where the reader does not look (a bound, a keyword)
        c.add(Class::Breaking, words.field, QStringLiteral("%1 changed").arg(words.field), a, b);
}

// ---- prompts ----

void comparePromptArguments(const Changes &c, const QJsonValue &a, const QJsonValue &b)
{
    QHash<QString, QJsonObject> argsA;
    QStringList orderA;
    for (const QJsonValue &v : a.toArray()) {
        const QString name = v.toObject().value(QStringLiteral("name")).toString();
        if (!argsA.contains(name))
            orderA << name;
        argsA.insert(name, v.toObject());
    }
    QSet<QString> seen;
    for (const QJsonValue &v : b.toArray()) {
        const QJsonObject arg = v.toObject();
        const QString name = arg.value(QStringLiteral("name")).toString();
        if (seen.contains(name))
            continue;
        seen.insert(name);
        const QString field = QStringLiteral("arguments.") + name;
        const bool required = arg.value(QStringLiteral("required")).toBool();
        const auto old = argsA.constFind(name);
        if (old == argsA.constEnd()) {
            c.add(required ? Class::Breaking : Class::Additive, field,
                  QStringLiteral("%1 argument %2 added")
                      .arg(required ? QStringLiteral("required") : QStringLiteral("optional"), quoted(name)),
                  undefined, arg);
            continue;
        }
        const bool wasRequired = old->value(QStringLiteral("required")).toBool();
        if (!wasRequired && required)
            c.add(Class::Breaking, field + QStringLiteral(".required"),
                  QStringLiteral("argument %1 made required").arg(quoted(name)), false, true);
        else if (wasRequired && !required)
            c.add(Class::Additive, field + QStringLiteral(".required"),
                  QStringLiteral("argument %1 made optional").arg(quoted(name)), true, false);
        for (const QString &key : {QStringLiteral("title"), QStringLiteral("description")}) {
            const QJsonValue va = old->value(key), vb = arg.value(key);
            if (va != vb)
                c.text(field + QLatin1Char('.') + key,
                       QStringLiteral("argument %1: %2").arg(quoted(name), key), va, vb);
        }
    }
    for (const QString &name : std::as_const(orderA)) {
        if (!seen.contains(name))
            c.add(Class::Breaking, QStringLiteral("arguments.") + name,
                  QStringLiteral("argument %1 removed").arg(quoted(name)), argsA.value(name), undefined);
    }
}

// ---- items ----

enum class ListKind { Tools, Prompts, Templates, Other };

ListKind kindOf(const QString &listId)
{
    if (listId == QLatin1String("tools"))
        return ListKind::Tools;
    if (listId == QLatin1String("prompts"))
        return ListKind::Prompts;
    if (listId == QLatin1String("templates"))
        return ListKind::Templates;
    return ListKind::Other;
}

void compareItems(const Changes &c, ListKind kind, const QJsonObject &a, const QJsonObject &b)
{
    const QStringList keys = unionKeys(a, b);
    for (const QString &key : std::as_const(keys)) {
        const QJsonValue va = a.value(key), vb = b.value(key);
        if (va == vb)
            continue;
        if (key == QLatin1String("annotations") && (va.isObject() || va.isUndefined()) &&
            (vb.isObject() || vb.isUndefined())) {
            const QJsonObject oa = va.toObject(), ob = vb.toObject();
            const QStringList names = unionKeys(oa, ob);
            for (const QString &name : std::as_const(names)) {
                if (oa.value(name) != ob.value(name))
                    c.text(QStringLiteral("annotations.") + name, QStringLiteral("annotation ") + name,
                           oa.value(name), ob.value(name));
            }
        } else if (kind == ListKind::Tools && key == QLatin1String("inputSchema")) {
            compareSchemas(c, {QStringLiteral("argument"), QStringLiteral("property"), key}, va, vb);
        } else if (kind == ListKind::Tools && key == QLatin1String("outputSchema")) {
            compareSchemas(c, {QStringLiteral("output field"), QStringLiteral("output field"), key}, va, vb);
        } else if (kind == ListKind::Prompts && key == QLatin1String("arguments")) {
            comparePromptArguments(c, va, vb);
        } else {
            c.text(key, key, va, vb);
        }
    }
}

struct IndexedItem
{
    QString identity;
    QJsonValue value;
};

QList<IndexedItem> itemsOf(const Snapshot::List &list)
{
    QList<IndexedItem> out;
    out.reserve(list.itemCount());
    for (const Snapshot::Page &page : list.pages) {
        for (const QJsonValue &v : page.items) {
            const QString id =
                v.isObject()
                    ? ItemDiff::identity(v.toObject())
                    : ItemDiff::identity(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact));
            out.append({id, v});
        }
    }
    return out;
}

QString templateVariables(const QJsonValue &item)
{
    const UriTemplate t(item.toObject().value(QStringLiteral("uriTemplate")).toString());
    return QLatin1Char('{') + t.variables().join(QLatin1Char(',')) + QLatin1Char('}');
}

// ---- lists ----

// The distinct values of a hint over a list's pages, in order of first appearance.
QJsonArray distinctHints(const Snapshot::List &list, bool ttl)
{
    QJsonArray out;
    QSet<QString> seen;
    for (const Snapshot::Page &page : list.pages) {
        const bool has = ttl ? page.hints.hasTtl : page.hints.hasScope;
        const QJsonValue v = has ? (ttl ? page.hints.ttlMs : page.hints.cacheScope) : QJsonValue();
        const QString key = compact(v);
        if (!seen.contains(key)) {
            seen.insert(key);
            out.append(v);
        }
    }
    return out;
}

QString hintText(const QJsonArray &values)
{
    if (values.isEmpty())
        return QStringLiteral("no pages");
    QStringList parts;
    for (const QJsonValue &v : values)
        parts << (v.isNull() ? QStringLiteral("absent") : compact(v));
    return parts.size() == 1 ? parts.constFirst()
                             : QStringLiteral("varies (%1)").arg(parts.join(QStringLiteral(", ")));
}

QJsonValue hintJson(const QJsonArray &values)
{
    return values.size() == 1 ? values.at(0) : QJsonValue(values);
}

// The first cursor a list issued, when it has more than one page.
std::optional<QString> firstCursor(const Snapshot::List &list)
{
    for (const Snapshot::Page &page : list.pages) {
        if (page.hasNextCursor && page.nextCursor.isString())
            return page.nextCursor.toString();
    }
    return std::nullopt;
}

void compareCaching(const Changes &c, const Snapshot::List &a, const Snapshot::List &b)
{
    const QJsonArray ttlA = distinctHints(a, true), ttlB = distinctHints(b, true);
    if (ttlA != ttlB && !ttlA.isEmpty() && !ttlB.isEmpty())
        c.add(Class::Caching, QStringLiteral("ttlMs"),
              QStringLiteral("ttlMs %1 → %2").arg(hintText(ttlA), hintText(ttlB)), hintJson(ttlA),
              hintJson(ttlB));
    const QJsonArray scopeA = distinctHints(a, false), scopeB = distinctHints(b, false);
    if (scopeA != scopeB && !scopeA.isEmpty() && !scopeB.isEmpty()) {
        const bool nowPublic = scopeB.contains(QJsonValue(QStringLiteral("public"))) &&
                               !scopeA.contains(QJsonValue(QStringLiteral("public")));
        c.add(Class::Caching, QStringLiteral("cacheScope"),
              QStringLiteral("cacheScope %1 → %2%3")
                  .arg(hintText(scopeA), hintText(scopeB),
                       nowPublic ? QStringLiteral(": flipped to public, shared caches may now keep it")
                                 : QString()),
              hintJson(scopeA), hintJson(scopeB));
    }
}

void comparePaging(const Changes &c, const Snapshot::List &a, const Snapshot::List &b)
{
    const qsizetype pagesA = a.pages.size(), pagesB = b.pages.size();
    if (pagesA > 1 && pagesB > 1) {
        const qsizetype sizeA = a.pages.constFirst().items.size();
        const qsizetype sizeB = b.pages.constFirst().items.size();
        if (sizeA != sizeB)
            c.add(Class::Paging, QStringLiteral("pageSize"),
                  QStringLiteral("page size %1 → %2").arg(sizeA).arg(sizeB), qint64(sizeA), qint64(sizeB));
    }
    if (pagesA != pagesB)
        c.add(Class::Paging, QStringLiteral("pages"), QStringLiteral("pages %1 → %2").arg(pagesA).arg(pagesB),
              qint64(pagesA), qint64(pagesB));
    const std::optional<QString> cursorA = firstCursor(a), cursorB = firstCursor(b);
    if (cursorA && cursorB) {
        const QString shapeA = SnapshotDiff::cursorShape(*cursorA);
        const QString shapeB = SnapshotDiff::cursorShape(*cursorB);
        if (shapeA != shapeB)
            c.add(Class::Paging, QStringLiteral("cursor"),
                  QStringLiteral("cursor format %1 → %2").arg(shapeA, shapeB), shapeA, shapeB);
    }
}

void compareList(Sink *out, const Snapshot::List &a, const Snapshot::List &b)
{
    const Changes list{out, b.id, std::nullopt};
    if (!a.skipped.isEmpty() || !b.skipped.isEmpty()) {
        if (a.skipped.isEmpty() != b.skipped.isEmpty())
            list.add(Class::Paging, QStringLiteral("walked"),
                     a.skipped.isEmpty()
                         ? QStringLiteral("not walked after: %1; its items are not compared").arg(b.skipped)
                         : QStringLiteral("not walked before: %1; its items are not compared").arg(a.skipped),
                     a.skipped, b.skipped);
        return;
    }
    compareCaching(list, a, b);
    comparePaging(list, a, b);
    // Said when it differs: two takes that stop at the same place are the same.
    if (a.complete != b.complete || (!a.complete && a.stopReason != b.stopReason)) {
        const QString summary =
            a.complete ? QStringLiteral("the walk stopped short after (%1): items it did not reach are not "
                                        "counted as removed")
                             .arg(b.stopReason)
            : b.complete
                ? QStringLiteral("the walk stopped short before (%1): items it did not reach are not "
                                 "counted as added")
                      .arg(a.stopReason)
                : QStringLiteral("both walks stopped short, before (%1) and after (%2): items they did "
                                 "not reach are not counted as added or removed")
                      .arg(a.stopReason, b.stopReason);
        list.add(Class::Paging, QStringLiteral("complete"), summary, a.complete, b.complete);
    }

    const QList<IndexedItem> itemsA = itemsOf(a);
    const QList<IndexedItem> itemsB = itemsOf(b);
    QHash<QString, qsizetype> indexA;
    indexA.reserve(itemsA.size());
    for (qsizetype i = itemsA.size() - 1; i >= 0; --i) // the first of a repeated identity wins
        indexA[itemsA.at(i).identity] = i;
    QHash<QString, qsizetype> indexB;
    indexB.reserve(itemsB.size());
    for (qsizetype i = itemsB.size() - 1; i >= 0; --i)
        indexB[itemsB.at(i).identity] = i;

    // The order of the items both have (ItemDiff's sameOrder on the common identities).
    QStringList commonA, commonB;
    for (qsizetype i = 0; i < itemsA.size(); ++i) {
        if (indexB.contains(itemsA.at(i).identity))
            commonA << itemsA.at(i).identity;
    }
    for (qsizetype i = 0; i < itemsB.size(); ++i) {
        if (indexA.contains(itemsB.at(i).identity))
            commonB << itemsB.at(i).identity;
    }
    if (!ItemDiff::compare(commonA, commonB).sameOrder)
        list.add(Class::Paging, QStringLiteral("order"),
                 QStringLiteral("the items they both hold come in another order"));

    const ListKind kind = kindOf(b.id);
    // Templates whose uriTemplate changed but whose name stayed: one change, not a removal and an
    // addition.
    QHash<QString, qsizetype> removedTemplates; // name -> index in a
    QSet<qsizetype> pairedA;
    if (kind == ListKind::Templates) {
        for (qsizetype i = 0; i < itemsA.size(); ++i) {
            const QString name = itemsA.at(i).value.toObject().value(QStringLiteral("name")).toString();
            if (!name.isEmpty() && !indexB.contains(itemsA.at(i).identity) &&
                indexA.value(itemsA.at(i).identity) == i)
                removedTemplates.insert(name, i);
        }
    }

    QSet<QString> seen;
    seen.reserve(itemsB.size());
    for (qsizetype i = 0; i < itemsB.size(); ++i) {
        const IndexedItem &item = itemsB.at(i);
        if (seen.contains(item.identity))
            continue;
        seen.insert(item.identity);
        const Changes c{out, b.id, item.identity};
        const auto old = indexA.constFind(item.identity);
        if (old == indexA.constEnd()) {
            const QString name = item.value.toObject().value(QStringLiteral("name")).toString();
            if (const auto was = removedTemplates.constFind(name);
                !name.isEmpty() && was != removedTemplates.constEnd() && !pairedA.contains(*was)) {
                pairedA.insert(*was);
                const QJsonValue &before = itemsA.at(*was).value;
                const QString va = templateVariables(before), vb = templateVariables(item.value);
                c.add(
                    Class::Breaking, QStringLiteral("uriTemplate"),
                    va != vb
                        ? QStringLiteral("template %1: variables changed, %2 → %3").arg(quoted(name), va, vb)
                        : QStringLiteral("template %1: uriTemplate changed").arg(quoted(name)),
                    before.toObject().value(QStringLiteral("uriTemplate")),
                    item.value.toObject().value(QStringLiteral("uriTemplate")));
                QJsonObject oa = before.toObject(), ob = item.value.toObject();
                oa.remove(QStringLiteral("uriTemplate"));
                ob.remove(QStringLiteral("uriTemplate"));
                compareItems(c, kind, oa, ob);
                continue;
            }
            if (a.complete)
                c.add(Class::Additive, QString(), QStringLiteral("added"), undefined, item.value);
            continue;
        }
        const QJsonValue &before = itemsA.at(*old).value;
        if (before != item.value && before.isObject() && item.value.isObject())
            compareItems(c, kind, before.toObject(), item.value.toObject());
    }
    if (b.complete) {
        for (qsizetype i = 0; i < itemsA.size(); ++i) {
            const IndexedItem &item = itemsA.at(i);
            if (indexA.value(item.identity) != i || indexB.contains(item.identity) || pairedA.contains(i))
                continue;
            Changes{out, b.id, item.identity}.add(Class::Breaking, QString(), QStringLiteral("removed"),
                                                  item.value, undefined);
        }
    }
}

// ---- the server ----

void compareCapabilities(const Changes &c, const QJsonObject &a, const QJsonObject &b)
{
    const QStringList keys = unionKeys(a, b);
    for (const QString &key : std::as_const(keys)) {
        const QJsonValue va = a.value(key), vb = b.value(key);
        if (va == vb)
            continue;
        const QString field = QStringLiteral("capabilities.") + key;
        if (vb.isUndefined()) {
            c.add(Class::Breaking, field, QStringLiteral("capability %1 removed").arg(key), va, vb);
        } else if (va.isUndefined()) {
            c.add(Class::Additive, field, QStringLiteral("capability %1 added").arg(key), va, vb);
        } else {
            // Less of it (a member gone, a flag turned off) breaks a client that used it.
            const QJsonObject oa = va.toObject(), ob = vb.toObject();
            bool less = !va.isObject() || !vb.isObject();
            for (auto it = oa.begin(); it != oa.end() && !less; ++it)
                less = !ob.contains(it.key()) ||
                       (it.value() == QJsonValue(true) && ob.value(it.key()) != it.value());
            c.add(less ? Class::Breaking : Class::Additive, field,
                  QStringLiteral("capability %1 changed: %2 → %3").arg(key, compact(va), compact(vb)), va,
                  vb);
        }
    }
}

void compareServer(Sink *out, const Snapshot &a, const Snapshot &b)
{
    const Changes c{out, QString(), std::nullopt};
    if (a.revision != b.revision)
        c.add(Class::Breaking, QStringLiteral("revision"),
              QStringLiteral("protocol revision %1 → %2").arg(a.revision, b.revision), a.revision,
              b.revision);
    const QStringList keys = unionKeys(a.serverInfo, b.serverInfo);
    for (const QString &key : std::as_const(keys)) {
        if (a.serverInfo.value(key) != b.serverInfo.value(key))
            c.text(QStringLiteral("serverInfo.") + key, QStringLiteral("serverInfo ") + key,
                   a.serverInfo.value(key), b.serverInfo.value(key));
    }
    if (a.instructions != b.instructions)
        c.text(QStringLiteral("instructions"), QStringLiteral("instructions"),
               a.instructions.isEmpty() ? undefined : QJsonValue(a.instructions),
               b.instructions.isEmpty() ? undefined : QJsonValue(b.instructions));
    compareCapabilities(c, a.capabilities, b.capabilities);
}

} // namespace

QString SnapshotDiff::cursorShape(const QString &cursor)
{
    const CursorDecoding decoding = decodeCursor(cursor);
    if (decoding.verdict == CursorDecoding::Verdict::Empty)
        return QStringLiteral("empty");
    if (!decoding.isDecoded() || decoding.layers.isEmpty())
        return QStringLiteral("opaque");
    QStringList steps;
    const CursorLayer *layer = &decoding.layers.constFirst();
    for (int depth = 0; layer && depth <= MaxCursorDecodingDepth; ++depth) {
        QString step = layer->kindName();
        if (layer->kind == CursorLayer::Kind::Json) {
            if (layer->json.isObject()) {
                QStringList keys = layer->json.toObject().keys(); // sorted
                if (keys.size() > 16)
                    keys = keys.mid(0, 16) << QStringLiteral("…");
                step += QLatin1Char('{') + keys.join(QLatin1Char(',')) + QLatin1Char('}');
            } else {
                step += QStringLiteral("[]");
            }
        } else if (layer->kind == CursorLayer::Kind::Prefixed) {
            const QJsonObject o = layer->json.toObject();
            step += QLatin1Char('(') + o.value(QStringLiteral("prefix")).toString().left(32) +
                    o.value(QStringLiteral("separator")).toString() + QLatin1Char(')');
        } else if (layer->kind == CursorLayer::Kind::JwtLike) {
            step += QLatin1Char('(') +
                    QString::number(layer->json.toObject().value(QStringLiteral("parts")).toInt()) +
                    QLatin1Char(')');
        }
        steps << step;
        const CursorLayer *next = nullptr;
        for (const CursorLayer &child : layer->children) {
            if (child.path.isEmpty()) {
                next = &child;
                break;
            }
        }
        layer = next;
    }
    return steps.join(QStringLiteral(" > "));
}

QList<SnapshotChange> SnapshotDiff::compare(const Snapshot &a, const Snapshot &b)
{
    Sink out;
    compareServer(&out, a, b);
    QHash<QString, qsizetype> listsB;
    for (qsizetype i = b.lists.size() - 1; i >= 0; --i) // a repeated id: its first list, as in a
        listsB.insert(b.lists.at(i).id, i);
    QSet<QString> listsA;
    for (const Snapshot::List &la : a.lists) {
        if (listsA.contains(la.id))
            continue;
        listsA.insert(la.id);
        const auto found = listsB.constFind(la.id);
        if (found == listsB.constEnd()) {
            Changes{&out, la.id, std::nullopt}.add(
                Class::Breaking, QString(),
                QStringLiteral("list removed (it held %1)").arg(counted(la.itemCount(), "item", "items")),
                la.itemCount(), undefined);
            continue;
        }
        compareList(&out, la, b.lists.at(*found));
    }
    for (const Snapshot::List &lb : b.lists) {
        if (listsA.contains(lb.id))
            continue;
        listsA.insert(lb.id);
        Changes{&out, lb.id, std::nullopt}.add(
            Class::Additive, QString(),
            QStringLiteral("list added (%1)").arg(counted(lb.itemCount(), "item", "items")), undefined,
            lb.itemCount());
    }
    return out.changes;
}

} // namespace folio
