// ListSource (models/listsource.h): reading list tools and their pages from what a server wrote.
// The input is JSON text, read three ways:
// - as a tool definition, in the text the fast path keeps (a PageDecoder item): mayBeListTool()
//   says false only when fromTool() finds no list tool, fromTool() names a cursor argument the
//   schema has, and identity() of the item's text is identity() of the parsed item, with the
//   same hash from itemIdentityHash();
// - as a tool result, read by a list tool: the items are the result's (structuredContent's or
//   first JSON text block's) largest array member or the root array, and the next cursor is one
//   of the documented members, exactly as received;
// - as a protocol result, with JSON Pointer overrides pointing at its values: resolvePointer()
//   finds every value at the pointer written for it, and readPage() takes the items and cursor
//   from there;
// - the tool's inputSchema, as the audit fills a list tool's required arguments from it
//   (SchemaArgs, models/schemaargs.h): hostile schemas ($ref cycles, deep nesting, branching
//   $refs) end within the run's time and memory limits; the fill is the same twice, adds exactly
//   the required names it reports, none of those left out, takes a property's own const or default
//   as it stands, adds nothing once given its own arguments, and describes them on one line.
#include "fuzzcheck.h"
#include "listsource.h"
#include "pagedecoder.h"
#include "schemaargs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace folio;

namespace {

const QStringList cursorArgNames{QStringLiteral("cursor"), QStringLiteral("page_token"),
                                 QStringLiteral("pageToken"), QStringLiteral("after")};
const QStringList nextCursorNames{QStringLiteral("next_cursor"), QStringLiteral("nextCursor"),
                                  QStringLiteral("next_page_token"), QStringLiteral("nextPageToken")};
const QStringList cursorHolders{QStringLiteral("pagination"), QStringLiteral("page_info"),
                                QStringLiteral("meta")};

QString escapeToken(QString token)
{
    return token.replace(QLatin1Char('~'), QLatin1String("~0"))
        .replace(QLatin1Char('/'), QLatin1String("~1"));
}

// Up to 200 values of root with the JSON Pointer of each (root itself is "").
void walk(const QJsonValue &value, const QString &pointer, int depth,
          QList<std::pair<QString, QJsonValue>> *out)
{
    if (out->size() >= 200 || depth > 16)
        return;
    out->append({pointer, value});
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            walk(it.value(), pointer + QLatin1Char('/') + escapeToken(it.key()), depth + 1, out);
    } else if (value.isArray()) {
        const QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            walk(a.at(i), pointer + QLatin1Char('/') + QString::number(i), depth + 1, out);
    }
}

// The cursor as the server sent it: a string is kept once, as text; anything else as raw.
QJsonValue received(const ListSource::Page &page)
{
    return page.next.isString() ? QJsonValue(page.next.text) : page.next.raw;
}

void checkCursor(const ListSource::Page &page)
{
    switch (page.next.presence) {
    case NextCursor::Presence::Absent:
        break;
    case NextCursor::Presence::Null:
        FUZZ_CHECK(page.next.raw.isNull());
        break;
    case NextCursor::Presence::String:
        FUZZ_CHECK(page.next.raw.isNull()); // not kept twice: raw stays as constructed
        break;
    case NextCursor::Presence::WrongType:
        FUZZ_CHECK(!page.next.raw.isString() && !page.next.raw.isNull() && !page.next.raw.isUndefined());
        break;
    }
}

void checkSchemaArgs(const QJsonObject &tool, const std::optional<ListSource> &source)
{
    const QJsonObject schema = tool.value(QLatin1String("inputSchema")).toObject();
    QStringList leaveOut;
    if (source)
        leaveOut << source->cursorArgument() << source->limitArgument();
    const SchemaArgs args = SchemaArgs::fill(schema, {}, leaveOut);
    FUZZ_CHECK(SchemaArgs::fill(schema, {}, leaveOut).arguments == args.arguments);
    FUZZ_CHECK(args.arguments.size() == args.filled.size());
    QStringList required;
    const bool viaRef =
        schema.value(QLatin1String("$ref")).isString() && !schema.contains(QLatin1String("properties"));
    for (const QJsonValue &r : schema.value(QLatin1String("required")).toArray())
        required << r.toString();
    const QJsonObject props = schema.value(QLatin1String("properties")).toObject();
    for (const SchemaArgs::Filled &f : args.filled) {
        FUZZ_CHECK(!leaveOut.contains(f.name), f.name);
        FUZZ_CHECK(args.arguments.value(f.name) == f.value, f.name);
        if (viaRef)
            continue;
        FUZZ_CHECK(required.contains(f.name), f.name);
        const QJsonObject p = props.value(f.name).toObject();
        if (p.contains(QLatin1String("const")))
            FUZZ_CHECK(f.source == SchemaArgs::Source::Const && f.value == p.value(QLatin1String("const")),
                       f.name);
        else if (p.contains(QLatin1String("default")))
            FUZZ_CHECK(f.source == SchemaArgs::Source::Default &&
                           f.value == p.value(QLatin1String("default")),
                       f.name);
    }
    const SchemaArgs again = SchemaArgs::fill(schema, args.arguments, leaveOut);
    FUZZ_CHECK(again.filled.isEmpty() && again.arguments == args.arguments);
    const QString described = args.describe();
    FUZZ_CHECK(std::none_of(described.begin(), described.end(), [](QChar c) { return c.unicode() < 0x20; }),
               described);
}

void asToolDefinition(QByteArrayView raw)
{
    static PageDecoder decoder;
    const QByteArray reply =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[" + raw.toByteArray() + "]}}";
    DecodedReply decoded;
    if (!decoder.decode(reply, QByteArrayView("tools"), &decoded) || decoded.items.offsets.size() != 2)
        return;
    const QByteArray itemText = decoded.items.text;
    const QJsonDocument doc = QJsonDocument::fromJson(itemText);
    if (!doc.isObject())
        return;
    const QJsonObject tool = doc.object();
    const std::optional<ListSource> source = ListSource::fromTool(tool);
    FUZZ_CHECK(ListSource::isListTool(tool) == source.has_value());
    checkSchemaArgs(tool, source);
    if (source) {
        FUZZ_CHECK(ListSource::mayBeListTool(itemText), QString::fromUtf8(itemText));
        FUZZ_CHECK(ListSource::mayBeListTool(raw.toByteArray()), QString::fromUtf8(raw));
        FUZZ_CHECK(cursorArgNames.contains(source->cursorArgument()));
        const QJsonObject props =
            tool.value(QLatin1String("inputSchema")).toObject().value(QLatin1String("properties")).toObject();
        FUZZ_CHECK(props.contains(source->cursorArgument()));
        FUZZ_CHECK(source->limitArgument().isEmpty() || props.contains(source->limitArgument()));
        FUZZ_CHECK(source->toolName() == tool.value(QLatin1String("name")).toString());
    }
    const QString fromText = ListSource::identity(itemText);
    const QString fromObject = ListSource::identity(tool);
    FUZZ_CHECK(fromText == fromObject, fromText + QStringLiteral(" / ") + fromObject);
    FUZZ_CHECK((ListSource::identityHash(fromText) == 0) == fromText.isEmpty());
    // The walk hashes items where they lie: the same hash as the identity's.
    FUZZ_CHECK(ListSource::itemIdentityHash(itemText) == ListSource::identityHash(fromText), fromText);
    FUZZ_CHECK(ListSource::itemIdentityHash(raw) == ListSource::identityHash(ListSource::identity(raw)));
}

// The page's root as the header describes it for a list tool.
std::optional<QJsonValue> toolRoot(const QJsonObject &result)
{
    if (result.contains(QLatin1String("structuredContent")))
        return result.value(QLatin1String("structuredContent"));
    for (const QJsonValue &block : result.value(QLatin1String("content")).toArray()) {
        const QJsonObject b = block.toObject();
        if (b.value(QLatin1String("type")).toString() != QLatin1String("text"))
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(b.value(QLatin1String("text")).toString().toUtf8());
        if (doc.isObject())
            return QJsonValue(doc.object());
        if (doc.isArray())
            return QJsonValue(doc.array());
    }
    return std::nullopt;
}

void asToolResult(const QJsonObject &result)
{
    static const ListSource source = *ListSource::fromTool(QJsonObject{
        {QStringLiteral("name"), QStringLiteral("list_things")},
        {QStringLiteral("inputSchema"),
         QJsonObject{{QStringLiteral("properties"),
                      QJsonObject{{QStringLiteral("cursor"),
                                   QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}}}});
    const ListSource::Page page = source.readPage(result);
    checkCursor(page);
    FUZZ_CHECK(page.toolError == result.value(QLatin1String("isError")).toBool(false));
    const std::optional<QJsonValue> root = toolRoot(result);
    if (!root) {
        FUZZ_CHECK(page.items.isEmpty() && page.next.presence == NextCursor::Presence::Absent);
        FUZZ_CHECK(page.toolError || !page.extractionError.isEmpty());
        return;
    }
    if (root->isArray()) {
        FUZZ_CHECK(page.items == root->toArray() && page.extractionError.isEmpty());
        FUZZ_CHECK(page.next.presence == NextCursor::Presence::Absent);
        return;
    }
    const QJsonObject object = root->toObject();
    qsizetype largest = -1;
    bool itemsAreAMember = false;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!it.value().isArray())
            continue;
        largest = qMax(largest, it.value().toArray().size());
        itemsAreAMember = itemsAreAMember || it.value().toArray() == page.items;
    }
    if (largest < 0) {
        FUZZ_CHECK(page.items.isEmpty() && (page.toolError || !page.extractionError.isEmpty()));
    } else {
        FUZZ_CHECK(page.extractionError.isEmpty() && itemsAreAMember && page.items.size() == largest);
    }
    // The cursor: the first documented name at the top, else under a holder.
    QList<QJsonValue> candidates;
    for (const QString &name : nextCursorNames) {
        if (object.contains(name))
            candidates.append(object.value(name));
    }
    for (const QString &holder : cursorHolders) {
        const QJsonObject nested = object.value(holder).toObject();
        for (const QString &name : nextCursorNames) {
            if (nested.contains(name))
                candidates.append(nested.value(name));
        }
    }
    if (candidates.isEmpty())
        FUZZ_CHECK(page.next.presence == NextCursor::Presence::Absent);
    else
        FUZZ_CHECK(page.next.presence != NextCursor::Presence::Absent &&
                   received(page) == candidates.first());
}

void withPointers(const QJsonObject &result)
{
    QList<std::pair<QString, QJsonValue>> values;
    walk(result, QString(), 0, &values);
    ListSource source = ListSource::protocol(ListKind::Resources);
    // The automatic reading first.
    {
        const ListSource::Page page = source.readPage(result);
        checkCursor(page);
        const QJsonValue items = result.value(QLatin1String("resources"));
        FUZZ_CHECK(items.isArray() ? page.items == items.toArray() && page.extractionError.isEmpty()
                                   : !page.extractionError.isEmpty());
        FUZZ_CHECK(page.hints.hasTtl == result.contains(QLatin1String("ttlMs")));
    }
    int pages = 0;
    for (const auto &[pointer, value] : values) {
        bool found = false;
        FUZZ_CHECK(ListSource::resolvePointer(result, pointer, &found) == value && found, pointer);
        if (value.isString()) {
            // Any string as a pointer: read without a crash, and found only where it leads somewhere.
            (void)ListSource::resolvePointer(result, value.toString(), &found);
        }
        if (pointer.isEmpty() || ++pages > 20)
            continue;
        source.setItemsPointer(pointer);
        source.setCursorPointer(pointer);
        const ListSource::Page page = source.readPage(result);
        FUZZ_CHECK(value.isArray() ? page.items == value.toArray() && page.extractionError.isEmpty()
                                   : !page.extractionError.isEmpty());
        checkCursor(page);
        FUZZ_CHECK(page.next.presence != NextCursor::Presence::Absent && received(page) == value);
    }
    bool found = true;
    (void)ListSource::resolvePointer(result, QStringLiteral("/no/such/member"), &found);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView raw = fuzzInput(data, size);
    (void)ListSource::mayBeListTool(raw.toByteArray()); // any text: reads nothing outside it
    asToolDefinition(raw);
    const QJsonDocument doc = QJsonDocument::fromJson(raw.toByteArray());
    if (!doc.isObject())
        return 0;
    asToolResult(doc.object());
    withPointers(doc.object());
    return 0;
}
