#include "definitionlint.h"

#include "counted.h"
#include "schemacheck.h"
#include "terminaltext.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <array>

namespace folio::DefinitionLint {

namespace {

const QString NameKey = QStringLiteral("name");
const QString TitleKey = QStringLiteral("title");
const QString DescriptionKey = QStringLiteral("description");
const QString InputSchemaKey = QStringLiteral("inputSchema");
const QString PropertiesKey = QStringLiteral("properties");
const QString ItemKey = QStringLiteral("item");
const QString FieldKey = QStringLiteral("field");
const QString RuleKey = QStringLiteral("rule");

QString identityKey(ListKind kind)
{
    switch (kind) {
    case ListKind::Tools:
    case ListKind::Prompts:
        return NameKey;
    case ListKind::Resources:
        return QStringLiteral("uri");
    case ListKind::ResourceTemplates:
        return QStringLiteral("uriTemplate");
    }
    return NameKey;
}

QString kindWord(ListKind kind)
{
    switch (kind) {
    case ListKind::Tools:
        return QStringLiteral("Tool");
    case ListKind::Prompts:
        return QStringLiteral("Prompt");
    case ListKind::Resources:
        return QStringLiteral("Resource");
    case ListKind::ResourceTemplates:
        return QStringLiteral("Template");
    }
    return QStringLiteral("Item");
}

Finding lintFinding(const QString &id, const QString &message, const QJsonObject &evidence)
{
    return Finding::make(id, {}, message, evidence, Finding::Source::Lint);
}

// At most MaxFindingsPerId findings of an id, then one that says how many items were left out.
class Collector
{
public:
    void add(Finding f)
    {
        int &n = m_counts[f.id];
        if (n++ < MaxFindingsPerId)
            m_out.append(std::move(f));
        else if (!m_order.contains(f.id))
            m_order.append(f.id);
    }
    QList<Finding> take()
    {
        for (const QString &id : std::as_const(m_order)) {
            const int more = m_counts.value(id) - MaxFindingsPerId;
            m_out.append(
                lintFinding(id,
                            QStringLiteral("%1 more with %2, not listed (the lint lists the first %3)")
                                .arg(counted(more, "item", "items"), id, QString::number(MaxFindingsPerId)),
                            {{QStringLiteral("moreItems"), more}}));
        }
        return std::move(m_out);
    }

private:
    QHash<QString, int> m_counts;
    QStringList m_order;
    QList<Finding> m_out;
};

// Printable ASCII (and, in a description, line breaks and tabs): nothing hidden, nothing that passes
// for a Latin letter. Most texts are; they need no closer look.
bool plainText(QStringView text, bool multiLine)
{
    for (QChar c : text) {
        const char16_t u = c.unicode();
        if (u >= 0x20 && u < 0x7f)
            continue;
        if (multiLine && (u == u'\n' || u == u'\t' || u == u'\r'))
            continue;
        return false;
    }
    return true;
}

QJsonArray codePointsJson(const QList<char32_t> &codePoints)
{
    QJsonArray out;
    for (char32_t c : codePoints)
        out.append(describeCodePoints({c}));
    return out;
}

// What tag characters (U+E0020–U+E007E) spell: each is an ASCII character, invisible.
QString tagText(QStringView text)
{
    QString out;
    for (char32_t c : text.toUcs4()) {
        if (c >= 0xe0020 && c <= 0xe007e)
            out.append(QChar(char16_t(c - 0xe0000)));
    }
    return out;
}

QString quoted(const QString &oneLine)
{
    return QLatin1Char('"') + oneLine + QLatin1Char('"');
}

QString subject(ListKind kind, const QJsonObject &item)
{
    return kindWord(kind) + QLatin1Char(' ') + quoted(itemName(kind, item));
}

// The heuristic's table (docs/findings.md, "The definitions lint"): case-insensitive, each pattern
// bounded by words. One expression of named alternatives, so that a description is read once.
struct Rule
{
    const char *name;
    const char *pattern;
};

const Rule rules[] = {
    // <IMPORTANT>, </system>, <instructions>: markup that a person reading a rendered description
    // does not see and that a model reads as emphasis or as a system turn.
    {"hidden-markup",
     R"(<\s*/?\s*(?:important|system|instructions?|hidden|secret|admin|assistant|critical)\b[^<>]{0,40}>)"},
    // Text addressed to the model rather than about the tool.
    {"addresses-model",
     R"(\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|earlier|other|your)\s+)"
     R"((?:instructions?|rules|prompts?|guidelines)\b)"
     R"(|\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|model|llm|agent)\b)"
     R"(|\b(?:dear|attention|hey)\s*,?\s+(?:ai|assistant|model|llm|agent|claude|chatgpt)\b)"
     R"(|\bsystem\s+prompt\b|\byou\s+are\s+now\b)"},
    // Keeping something from the person the model works for.
    {"conceals-from-user",
     R"(\b(?:do\s+not|don'?t|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|notify(?:ing)?)"
     R"(|reveal(?:ing)?|alert(?:ing)?|warn(?:ing)?|show(?:ing)?\s+(?:this|it))\s+(?:this\s+|it\s+|that\s+)?)"
     R"((?:to\s+)?(?:the\s+)?(?:user|human)s?\b)"
     R"(|\b(?:hide|conceal|keep)\s+(?:this|it|that|them)\s+(?:secret\s+)?from\s+(?:the\s+)?(?:user|human)s?\b)"
     R"(|\bthe\s+user\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|be\s+told|notice)\b)"},
    // Files that hold keys and secrets: a tool's description has no reason to name them.
    {"sensitive-file",
     R"((?:~|\$HOME|%USERPROFILE%)[/\\]\.(?:ssh|aws|gnupg|kube|docker|netrc|npmrc|pypirc|git-credentials)\b)"
     R"(|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?<![\w.])\.env\b|/etc/(?:passwd|shadow)\b|\bcredentials\.json\b)"},
    // A verb that moves a secret, then the secret, within one clause.
    {"asks-for-secrets",
     R"(\b(?:read|cat|open|send|include|pass|upload|share|forward|exfiltrate|attach|paste|leak|collect|copy)\b)"
     R"([^.!?\n]{0,40}?\b(?:credentials?|api[\s_-]?keys?|secrets?|passwords?|access[\s_-]?tokens?)"
     R"(|private[\s_-]?keys?|ssh[\s_-]?keys?|session[\s_-]?cookies?)\b)"},
    // Another call first: "before using this tool, call ...", "you must first call ...", "always
    // call get_token first". A tool that names its own place ("Call this before list_users") is not.
    {"calls-other-tool-first",
     R"(\b(?:before|prior\s+to)\s+(?:using|calling|running|invoking|executing)\s+(?:this|any(?:\s+other)?)\s+)"
     R"(tools?\b[^.!?\n]{0,100}?\b(?:call|run|invoke|execute|use|read)\b)"
     R"(|\b(?:must|should|always)\s+(?:first\s+)?(?:call|invoke|run|execute)\s+(?!this\b)[`'"]?[a-z][\w.-]*[`'"]?\s+first\b)"
     R"(|\b(?:must|should)\s+first\s+(?:call|invoke|run|execute)\b)"},
};
constexpr int ruleCount = int(sizeof rules / sizeof rules[0]);

const QRegularExpression &instructionExpression()
{
    static const QRegularExpression expression = [] {
        QStringList alternatives;
        for (int i = 0; i < ruleCount; ++i)
            alternatives << QStringLiteral("(?<r%1>%2)").arg(i).arg(QLatin1String(rules[i].pattern));
        QRegularExpression e(alternatives.join(QLatin1Char('|')), QRegularExpression::CaseInsensitiveOption);
        e.optimize();
        return e;
    }();
    return expression;
}

// Whether text may match the table at all. Each alternative of each rule needs one of these words
// at a word's start (case-insensitive), or one of these characters: most descriptions hold none and
// are not given to the expression, which costs microseconds a text.
bool mayInstruct(QStringView text)
{
    static const std::array<QList<QLatin1StringView>, 26> anchors = [] {
        std::array<QList<QLatin1StringView>, 26> byLetter;
        const char *const words[] = {"ignore",   "disregard", "forget",  "ai",         "assistant", "model",
                                     "llm",      "agent",     "claude",  "chatgpt",    "system",    "now",
                                     "user",     "human",     "id_",     "credential", "api",       "secret",
                                     "password", "access",    "private", "ssh",        "session",   "before",
                                     "prior",    "first"};
        for (const char *w : words)
            byLetter[size_t(w[0] - 'a')].append(QLatin1StringView(w));
        return byLetter;
    }();
    const qsizetype n = text.size();
    bool inWord = false;
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = text.at(i).unicode();
        if (c == u'<' || c == u'~' || c == u'$' || c == u'%')
            return true;
        if (c == u'.' && text.sliced(i + 1).startsWith(QLatin1StringView("env"), Qt::CaseInsensitive))
            return true;
        if (c == u'/' && text.sliced(i + 1).startsWith(QLatin1StringView("etc/"), Qt::CaseInsensitive))
            return true;
        const bool letter = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
        const bool word = letter || (c >= u'0' && c <= u'9') || c == u'_';
        if (letter && !inWord) {
            const QStringView rest = text.sliced(i);
            for (QLatin1StringView anchor : anchors[size_t((c | 0x20) - u'a')]) {
                if (rest.startsWith(anchor, Qt::CaseInsensitive))
                    return true;
            }
        }
        inWord = word;
    }
    return false;
}

bool isPortableNameCharacter(char32_t c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_' ||
           c == u'-';
}

QString escapePointerToken(QString token)
{
    return token.replace(QLatin1Char('~'), QStringLiteral("~0"))
        .replace(QLatin1Char('/'), QStringLiteral("~1"));
}

// Every $ref in a schema (as JSON, not as a schema: keywords are not interpreted), bounded.
void collectRefs(const QJsonValue &value, int depth, QStringList *refs)
{
    if (depth > 32 || refs->size() >= 100)
        return;
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() == QLatin1String("$ref") && it.value().isString())
                refs->append(it.value().toString());
            else if (it.value().isObject() || it.value().isArray())
                collectRefs(it.value(), depth + 1, refs);
        }
    } else if (value.isArray()) {
        for (const QJsonValue &v : value.toArray()) {
            if (v.isObject() || v.isArray())
                collectRefs(v, depth + 1, refs);
        }
    }
}

QString describeJson(const QJsonValue &v)
{
    if (v.isUndefined())
        return QStringLiteral("absent");
    const QByteArray json = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return elide(QString::fromUtf8(json.mid(1, json.size() - 2)), 40); // elide() is oneLineSafe()
}

qint64 itemBytesOf(const QList<QJsonObject> &items, const QList<qint64> &itemBytes, int i)
{
    if (itemBytes.size() == items.size())
        return itemBytes.at(i);
    return QJsonDocument(items.at(i)).toJson(QJsonDocument::Compact).size();
}

} // namespace

QString itemName(ListKind kind, const QJsonObject &item)
{
    const QJsonValue v = item.value(identityKey(kind));
    return v.isString() ? oneLineSafe(v.toString()) : QString();
}

QList<TextField> textFields(ListKind kind, const QJsonObject &item)
{
    QList<TextField> out;
    auto add = [&out](const QString &field, const QJsonValue &v, bool multiLine) {
        if (v.isString() && !v.toString().isEmpty())
            out.append({field, v.toString(), multiLine});
    };
    add(TitleKey, item.value(TitleKey), false);
    add(DescriptionKey, item.value(DescriptionKey), true);
    if (kind == ListKind::Resources || kind == ListKind::ResourceTemplates)
        add(NameKey, item.value(NameKey), false); // not the identity: deceptive-name does not see it
    if (kind == ListKind::Tools) {
        add(QStringLiteral("annotations.title"),
            item.value(QStringLiteral("annotations")).toObject().value(TitleKey), false);
        const QJsonObject properties = item.value(InputSchemaKey).toObject().value(PropertiesKey).toObject();
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            const QJsonObject p = it.value().toObject();
            const QString at = QStringLiteral("inputSchema.properties.%1.").arg(oneLineSafe(it.key()));
            add(at + TitleKey, p.value(TitleKey), false);
            add(at + DescriptionKey, p.value(DescriptionKey), true);
        }
    } else if (kind == ListKind::Prompts) {
        for (const QJsonValue &a : item.value(QStringLiteral("arguments")).toArray()) {
            const QJsonObject argument = a.toObject();
            const QString at =
                QStringLiteral("arguments.%1.").arg(oneLineSafe(argument.value(NameKey).toString()));
            add(at + TitleKey, argument.value(TitleKey), false);
            add(at + DescriptionKey, argument.value(DescriptionKey), true);
        }
    }
    return out;
}

// The hidden-characters findings of one item's texts.
static void hiddenOf(ListKind kind, const QJsonObject &item, const QList<TextField> &fields, Collector &out)
{
    for (const TextField &t : fields) {
        if (plainText(t.text, t.multiLine))
            continue;
        QList<char32_t> hidden = hiddenCharacters(t.text);
        if (t.multiLine)
            hidden.removeIf([](char32_t c) { return c == u'\n' || c == u'\r' || c == u'\t'; });
        // Look-alike letters matter where a text reads as a name: titles, not prose.
        const QList<char32_t> lookAlike = t.multiLine ? QList<char32_t>() : lookAlikeCharacters(t.text);
        if (hidden.isEmpty() && lookAlike.isEmpty())
            continue;
        QStringList what;
        if (!hidden.isEmpty())
            what << QStringLiteral("hidden characters %1").arg(describeCodePoints(hidden));
        if (!lookAlike.isEmpty())
            what << QStringLiteral("look-alike letters %1").arg(describeCodePoints(lookAlike));
        QJsonObject evidence{{ItemKey, itemName(kind, item)},
                             {FieldKey, t.field},
                             {QStringLiteral("hidden"), codePointsJson(hidden)},
                             {QStringLiteral("lookAlike"), codePointsJson(lookAlike)}};
        const QString tags = tagText(t.text);
        if (!tags.isEmpty())
            evidence.insert(QStringLiteral("tagText"), oneLineSafe(elide(tags, 200)));
        out.add(lintFinding(FindingId::HiddenCharacters,
                            QStringLiteral("%1: its %2 holds %3")
                                .arg(subject(kind, item), t.field, what.join(QStringLiteral(" and "))),
                            evidence));
    }
}

QList<Finding> lintHiddenCharacters(ListKind kind, const QList<QJsonObject> &items)
{
    Collector out;
    for (const QJsonObject &item : items)
        hiddenOf(kind, item, textFields(kind, item), out);
    return out.take();
}

QStringList instructionRules()
{
    QStringList out;
    for (const Rule &r : rules)
        out << QLatin1String(r.name);
    return out;
}

QList<InstructionMatch> instructionsIn(const QString &text)
{
    QList<InstructionMatch> out;
    if (!mayInstruct(text))
        return out;
    const QRegularExpression &e = instructionExpression();
    QRegularExpressionMatchIterator it = e.globalMatch(text);
    while (it.hasNext() && out.size() < 10) {
        const QRegularExpressionMatch m = it.next();
        for (int i = 0; i < ruleCount; ++i) {
            if (m.capturedStart(i + 1) >= 0) {
                out.append({QLatin1String(rules[i].name), elide(m.captured(i + 1).simplified(), 80)});
                break;
            }
        }
    }
    return out;
}

// The model-instructions findings of one item's descriptions.
static void instructionsOf(ListKind kind, const QJsonObject &item, const QList<TextField> &fields,
                           Collector &out)
{
    for (const TextField &t : fields) {
        if (!t.multiLine)
            continue;
        QList<InstructionMatch> matches = instructionsIn(t.text);
        // Tag characters spell text no one sees: read it too.
        if (!plainText(t.text, true)) {
            const QString tags = tagText(t.text);
            if (!tags.isEmpty())
                matches += instructionsIn(tags);
        }
        if (matches.isEmpty())
            continue;
        QJsonArray ruleNames, words;
        QStringList said;
        for (const InstructionMatch &m : std::as_const(matches)) {
            if (!ruleNames.contains(m.rule))
                ruleNames.append(m.rule);
            words.append(m.words);
            said << QStringLiteral("%1 (%2)").arg(quoted(m.words), m.rule);
        }
        out.add(lintFinding(FindingId::ModelInstructions,
                            QStringLiteral("%1: its %2 may instruct the model: %3")
                                .arg(subject(kind, item), t.field, said.join(QStringLiteral(", "))),
                            {{ItemKey, itemName(kind, item)},
                             {FieldKey, t.field},
                             {QStringLiteral("rules"), ruleNames},
                             {QStringLiteral("words"), words}}));
    }
}

QList<Finding> lintInstructions(ListKind kind, const QList<QJsonObject> &items)
{
    Collector out;
    for (const QJsonObject &item : items)
        instructionsOf(kind, item, textFields(kind, item), out);
    return out.take();
}

QList<Finding> lintToolNames(const QList<QJsonObject> &tools)
{
    Collector out;
    for (const QJsonObject &tool : tools) {
        const QJsonValue v = tool.value(NameKey);
        if (!v.isString())
            continue;
        const QList<uint> codePoints = v.toString().toUcs4();
        QList<char32_t> outside;
        for (char32_t c : codePoints) {
            if (!isPortableNameCharacter(c) && !outside.contains(c) && outside.size() < 10)
                outside.append(c);
        }
        const qsizetype length = codePoints.size();
        if (outside.isEmpty() && length >= 1 && length <= 64)
            continue;
        QStringList what;
        if (length > 64)
            what << QStringLiteral("%1 long (more than 64)").arg(counted(length, "character", "characters"));
        if (length == 0)
            what << QStringLiteral("empty");
        if (!outside.isEmpty())
            what << QStringLiteral("holds %1, outside [A-Za-z0-9_-]").arg(describeCodePoints(outside));
        out.add(lintFinding(
            FindingId::ToolNameUnportable,
            QStringLiteral("%1: its name is %2: model APIs refuse it (OpenAI's function names take "
                           "^[a-zA-Z0-9_-]{1,64}$)")
                .arg(subject(ListKind::Tools, tool), what.join(QStringLiteral(" and "))),
            {{ItemKey, itemName(ListKind::Tools, tool)},
             {QStringLiteral("length"), length},
             {QStringLiteral("characters"), codePointsJson(outside)}}));
    }
    return out.take();
}

QList<Finding> lintSchemas(const QList<QJsonObject> &tools)
{
    Collector out;
    for (const QJsonObject &tool : tools) {
        auto add = [&](const QString &rule, const QString &what, QJsonObject evidence) {
            evidence.insert(ItemKey, itemName(ListKind::Tools, tool));
            evidence.insert(RuleKey, rule);
            out.add(lintFinding(
                FindingId::SchemaUnportable,
                QStringLiteral("%1: its inputSchema %2 (%3)").arg(subject(ListKind::Tools, tool), what, rule),
                evidence));
        };
        const QJsonValue schemaValue = tool.value(InputSchemaKey);
        if (!schemaValue.isObject()) {
            add(QStringLiteral("root-not-object"),
                QStringLiteral("is %1, not an object schema").arg(describeJson(schemaValue)),
                {{QStringLiteral("type"), QJsonValue()}});
            continue;
        }
        const QJsonObject schema = schemaValue.toObject();
        const QJsonValue type = schema.value(QStringLiteral("type"));
        if (type != QJsonValue(QStringLiteral("object")))
            add(QStringLiteral("root-not-object"),
                QStringLiteral("has type %1 at its root, not \"object\"").arg(describeJson(type)),
                {{QStringLiteral("type"), type.isUndefined() ? QJsonValue() : type}});
        for (const QString &keyword :
             {QStringLiteral("anyOf"), QStringLiteral("oneOf"), QStringLiteral("allOf")}) {
            if (schema.contains(keyword))
                add(QStringLiteral("root-combinator"), QStringLiteral("has %1 at its root").arg(keyword),
                    {{QStringLiteral("keyword"), keyword}});
        }
        const QJsonObject properties = schema.value(PropertiesKey).toObject();
        QJsonArray missing;
        for (const QJsonValue &r : schema.value(QStringLiteral("required")).toArray()) {
            if (r.isString() && !properties.contains(r.toString()))
                missing.append(oneLineSafe(r.toString()));
        }
        if (!missing.isEmpty()) {
            QStringList names;
            for (const QJsonValue &m : std::as_const(missing))
                names << quoted(m.toString());
            add(QStringLiteral("required-not-in-properties"),
                QStringLiteral("requires %1, not among its properties").arg(names.join(QStringLiteral(", "))),
                {{QStringLiteral("names"), missing}});
        }
        QStringList refs;
        collectRefs(schema, 0, &refs);
        QJsonArray remote, unresolved;
        for (const QString &ref : std::as_const(refs)) {
            if (!ref.startsWith(QLatin1Char('#'))) {
                if (!remote.contains(oneLineSafe(ref)))
                    remote.append(oneLineSafe(ref));
            } else if (!resolveLocalRef(schema, ref) && !unresolved.contains(oneLineSafe(ref))) {
                unresolved.append(oneLineSafe(ref));
            }
        }
        if (!remote.isEmpty())
            add(QStringLiteral("remote-ref"),
                QStringLiteral("refers to another document: %1").arg(quoted(remote.first().toString())),
                {{QStringLiteral("refs"), remote}});
        if (!unresolved.isEmpty())
            add(QStringLiteral("unresolved-ref"),
                QStringLiteral("has a $ref that points nowhere in it: %1")
                    .arg(quoted(unresolved.first().toString())),
                {{QStringLiteral("refs"), unresolved}});
    }
    return out.take();
}

QList<Finding> lintDefaults(const QList<QJsonObject> &tools)
{
    Collector out;
    for (const QJsonObject &tool : tools) {
        const QJsonObject schema = tool.value(InputSchemaKey).toObject();
        const QJsonObject properties = schema.value(PropertiesKey).toObject();
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            const QJsonObject property = it.value().toObject();
            const auto d = property.constFind(QStringLiteral("default"));
            if (d == property.constEnd())
                continue;
            // A property without $refs is its own schema. One with them is checked where it stands,
            // against the whole schema (so that its local $refs resolve), keeping only what is said of
            // the property itself.
            QStringList refs;
            collectRefs(property, 0, &refs);
            QList<SchemaViolation> violations;
            const QString at = QLatin1Char('/') + escapePointerToken(it.key());
            if (refs.isEmpty()) {
                violations = checkAgainstSchema(d.value(), property, 20);
                for (SchemaViolation &v : violations)
                    v.path.prepend(at); // a pointer into the arguments, as in the other case
            } else {
                for (const SchemaViolation &v :
                     checkAgainstSchema(QJsonObject{{it.key(), d.value()}}, schema, 20)) {
                    if (v.path == at || v.path.startsWith(at + QLatin1Char('/')))
                        violations.append(v);
                }
            }
            if (violations.isEmpty())
                continue;
            const SchemaViolation &first = violations.first();
            out.add(lintFinding(FindingId::DefaultRejected,
                                QStringLiteral("%1: the default %2 of %3 breaks its own schema: %4")
                                    .arg(subject(ListKind::Tools, tool), describeJson(d.value()),
                                         quoted(oneLineSafe(it.key())), oneLineSafe(first.message)),
                                {{ItemKey, itemName(ListKind::Tools, tool)},
                                 {QStringLiteral("property"), oneLineSafe(it.key())},
                                 {QStringLiteral("default"), d.value()},
                                 {QStringLiteral("violation"), oneLineSafe(first.message)},
                                 {QStringLiteral("path"), first.path}}));
        }
    }
    return out.take();
}

QString foldedName(const QString &name)
{
    QString out;
    out.reserve(name.size());
    for (QChar c : name) {
        if (c == u'_' || c == u'-' || c == u'.' || c == u'/' || c == u' ')
            continue;
        out.append(c.toLower());
    }
    return out;
}

QList<Finding> lintCollisions(const QList<QJsonObject> &tools)
{
    QHash<QString, QStringList> byFold;
    QStringList order;
    for (const QJsonObject &tool : tools) {
        const QJsonValue v = tool.value(NameKey);
        if (!v.isString())
            continue;
        const QString name = v.toString();
        const QString fold = foldedName(name);
        QStringList &names = byFold[fold];
        if (names.contains(name))
            continue; // the same name twice is duplicate-item's
        if (names.size() == 1)
            order.append(fold);
        names.append(name);
    }
    Collector out;
    for (const QString &fold : std::as_const(order)) {
        const QStringList &names = byFold.value(fold);
        QStringList shown;
        QJsonArray json;
        for (const QString &n : names) {
            shown << quoted(oneLineSafe(n));
            json.append(oneLineSafe(n));
        }
        out.add(
            lintFinding(FindingId::ToolNameCollision,
                        QStringLiteral("Tools %1 differ only by case or separators: a client that "
                                       "rewrites names, or a model, may take one for the other")
                            .arg(shown.join(QStringLiteral(", "))),
                        {{QStringLiteral("items"), json}, {QStringLiteral("folded"), oneLineSafe(fold)}}));
    }
    return out.take();
}

qint64 estimateTokens(qint64 compactJsonBytes)
{
    return (qMax<qint64>(0, compactJsonBytes) + 3) / 4;
}

qint64 estimateTokens(const QJsonObject &item)
{
    return estimateTokens(QJsonDocument(item).toJson(QJsonDocument::Compact).size());
}

QList<ItemCost> itemCosts(ListKind kind, const QList<QJsonObject> &items, const QList<qint64> &itemBytes)
{
    QList<ItemCost> out;
    out.reserve(items.size());
    for (int i = 0; i < items.size(); ++i)
        out.append({itemName(kind, items.at(i)), estimateTokens(itemBytesOf(items, itemBytes, i))});
    std::stable_sort(out.begin(), out.end(),
                     [](const ItemCost &a, const ItemCost &b) { return a.tokens > b.tokens; });
    return out;
}

qint64 listCost(const QList<QJsonObject> &items, const QList<qint64> &itemBytes)
{
    qint64 total = 0;
    for (int i = 0; i < items.size(); ++i)
        total += estimateTokens(itemBytesOf(items, itemBytes, i));
    return total;
}

QList<Finding> lintContextCost(ListKind kind, const QList<QJsonObject> &items, const QList<qint64> &itemBytes)
{
    const qint64 total = listCost(items, itemBytes);
    if (total <= ContextCostThreshold)
        return {};
    const QList<ItemCost> costs = itemCosts(kind, items, itemBytes);
    QJsonArray costliest;
    for (int i = 0; i < qMin<qsizetype>(5, costs.size()); ++i)
        costliest.append(
            QJsonObject{{ItemKey, costs.at(i).item}, {QStringLiteral("tokens"), costs.at(i).tokens}});
    return {
        lintFinding(FindingId::ContextCost,
                    QStringLiteral("The %1 list's definitions cost about %2 tokens of a model's context "
                                   "(estimated: compact JSON bytes / 4), more than %3")
                        .arg(listName(kind), QString::number(total), QString::number(ContextCostThreshold)),
                    {{QStringLiteral("tokens"), total},
                     {QStringLiteral("items"), items.size()},
                     {QStringLiteral("threshold"), ContextCostThreshold},
                     {QStringLiteral("method"), QStringLiteral("bytes/4")},
                     {QStringLiteral("costliest"), costliest}})};
}

QList<Finding> lint(ListKind kind, const QList<QJsonObject> &items, const QList<qint64> &itemBytes)
{
    // Each item's texts are read once for both rules that read them.
    Collector hidden, instructions;
    for (const QJsonObject &item : items) {
        const QList<TextField> fields = textFields(kind, item);
        hiddenOf(kind, item, fields, hidden);
        instructionsOf(kind, item, fields, instructions);
    }
    QList<Finding> out = hidden.take();
    out += instructions.take();
    if (kind == ListKind::Tools) {
        out += lintToolNames(items);
        out += lintSchemas(items);
        out += lintDefaults(items);
        out += lintCollisions(items);
        // tools/list is what a client hands a model with every request; the other lists are
        // chosen from by a person, a few items at a time.
        out += lintContextCost(kind, items, itemBytes);
    }
    return out;
}

} // namespace folio::DefinitionLint
