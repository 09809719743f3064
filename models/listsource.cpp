#include "listsource.h"

#include "jsonslice.h"
#include "rpccall.h"
#include "terminaltext.h"

#include <QJsonDocument>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string_view>

namespace folio {

namespace {

const QStringList cursorArgNames{QStringLiteral("cursor"), QStringLiteral("page_token"),
                                 QStringLiteral("pageToken"), QStringLiteral("after")};
const QStringList limitArgNames{QStringLiteral("limit"),    QStringLiteral("page_size"),
                                QStringLiteral("pageSize"), QStringLiteral("per_page"),
                                QStringLiteral("perPage"),  QStringLiteral("max_results"),
                                QStringLiteral("first")}; // Relay: first + after
// Positions a client works out: an offset with a limit, a page number with a page size.
const QStringList offsetSizeNames{QStringLiteral("limit")};
const QStringList pageSizeNames{QStringLiteral("per_page"), QStringLiteral("perPage"),
                                QStringLiteral("page_size"), QStringLiteral("pageSize")};
const QStringList nextCursorNames{QStringLiteral("next_cursor"), QStringLiteral("nextCursor"),
                                  QStringLiteral("next_page_token"), QStringLiteral("nextPageToken"),
                                  QStringLiteral("endCursor")}; // Relay's pageInfo.endCursor
const QStringList nestedCursorHolders{QStringLiteral("pagination"), QStringLiteral("page_info"),
                                      QStringLiteral("pageInfo"), QStringLiteral("meta")};
// Whether a page says more follow: has_more (Stripe, many APIs), hasMore, Relay's hasNextPage.
const QStringList moreFlagNames{QStringLiteral("has_more"), QStringLiteral("hasMore"),
                                QStringLiteral("hasNextPage")};

bool isNumberProperty(const QJsonObject &schema)
{
    const QJsonValue type = schema.value(QStringLiteral("type"));
    auto numeric = [](const QString &t) {
        return t == QLatin1String("integer") || t == QLatin1String("number");
    };
    if (type.isString())
        return numeric(type.toString());
    if (type.isArray()) {
        for (const QJsonValue &t : type.toArray()) {
            if (numeric(t.toString()))
                return true;
        }
    }
    return false;
}

QString firstOf(const QJsonObject &props, const QStringList &names)
{
    for (const QString &name : names) {
        if (props.contains(name))
            return name;
    }
    return {};
}

bool isStringProperty(const QJsonObject &schema)
{
    const QJsonValue type = schema.value(QStringLiteral("type"));
    if (type.isString())
        return type.toString() == QLatin1String("string");
    if (type.isArray())
        return type.toArray().contains(QStringLiteral("string"));
    return type.isUndefined(); // untyped: accept
}

// Finds the next cursor at the top of obj or under a nested pagination object.
bool findNextCursor(const QJsonObject &obj, QJsonValue *value)
{
    for (const QString &name : nextCursorNames) {
        if (obj.contains(name)) {
            *value = obj.value(name);
            return true;
        }
    }
    for (const QString &holder : nestedCursorHolders) {
        const QJsonValue nested = obj.value(holder);
        if (!nested.isObject())
            continue;
        const QJsonObject n = nested.toObject();
        for (const QString &name : nextCursorNames) {
            if (n.contains(name)) {
                *value = n.value(name);
                return true;
            }
        }
    }
    return false;
}

// A boolean saying whether more pages follow, at the top of obj or under a pagination object.
std::optional<bool> findMoreFlag(const QJsonObject &obj)
{
    for (const QString &name : moreFlagNames) {
        if (obj.value(name).isBool())
            return obj.value(name).toBool();
    }
    for (const QString &holder : nestedCursorHolders) {
        const QJsonObject n = obj.value(holder).toObject();
        for (const QString &name : moreFlagNames) {
            if (n.value(name).isBool())
                return n.value(name).toBool();
        }
    }
    return std::nullopt;
}

// The items are the array-valued member (the largest if there are several).
bool findItems(const QJsonObject &obj, QJsonArray *items)
{
    bool found = false;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (!it.value().isArray())
            continue;
        const QJsonArray a = it.value().toArray();
        if (!found || a.size() > items->size()) {
            *items = a;
            found = true;
        }
    }
    return found;
}

void setCursor(ListSource::Page &page, const QJsonValue &v, bool present)
{
    page.next = NextCursor::of(v, present);
}

} // namespace

ListSource ListSource::protocol(ListKind kind)
{
    ListSource s;
    s.m_kind = Kind::Protocol;
    s.m_listKind = kind;
    return s;
}

namespace {
const QString directoryPrefix = QStringLiteral("directory:");
} // namespace

std::optional<ListSource> ListSource::extension(const QString &name)
{
    ListSource s;
    s.m_kind = Kind::Extension;
    if (name == QLatin1String("tasks") || name == QLatin1String("tasks/list")) {
        s.m_name = QStringLiteral("tasks");
        s.m_method = QStringLiteral("tasks/list");
        s.m_itemsKey = QStringLiteral("tasks");
    } else if (name == QLatin1String("skills") || name == QLatin1String("skills/list")) {
        s.m_name = QStringLiteral("skills");
        s.m_method = QStringLiteral("skills/list");
        s.m_itemsKey = QStringLiteral("skills");
    } else if (name.startsWith(directoryPrefix) && name.size() > directoryPrefix.size()) {
        // SEP-2640's resources/directory/read: one directory's entries (a skill's files), paged.
        s.m_name = name;
        s.m_method = QStringLiteral("resources/directory/read");
        s.m_itemsKey = QStringLiteral("resources");
        s.m_params = {{QStringLiteral("uri"), name.mid(directoryPrefix.size())}};
    } else {
        return std::nullopt;
    }
    return s;
}

QStringList ListSource::extensionNames()
{
    return {QStringLiteral("tasks"), QStringLiteral("skills")};
}

ListSource ListSource::directory(const QString &directoryUri)
{
    return *extension(directoryPrefix + (directoryUri.isEmpty() ? QStringLiteral("/") : directoryUri));
}

bool ListSource::isDirectory() const
{
    return m_kind == Kind::Extension && isDirectoryId(m_name);
}

bool ListSource::isDirectoryId(const QString &listId)
{
    return listId.startsWith(directoryPrefix);
}

std::optional<ListSource> ListSource::subdirectory(const QJsonObject &item) const
{
    const QString uri = item.value(QStringLiteral("uri")).toString();
    if (!isDirectory() || uri.isEmpty() ||
        item.value(QStringLiteral("mimeType")).toString() != QLatin1String("inode/directory"))
        return std::nullopt;
    return directory(uri);
}

QString ListSource::directoryUri() const
{
    return isDirectory() ? m_name.mid(directoryPrefix.size()) : QString();
}

QString ListSource::unavailableOn(const McpClient *client) const
{
    if (m_kind != Kind::Extension || !client)
        return {};
    if (m_name == QLatin1String("tasks")) {
        // The 2025-11-25 core tasks have it; the 2026-07-28 tasks extension removed it.
        if (client->isModern())
            return QStringLiteral("tasks/list does not exist in the 2026-07-28 tasks extension (the server "
                                  "speaks %1): a task is asked about by its id, 'folio tasks get TASK_ID'")
                .arg(client->protocolVersion());
        if (!client->offersTasks() && !client->offersTaskList())
            return QStringLiteral("the server does not offer tasks: its capabilities have no tasks "
                                  "(revision %1; tasks came in 2025-11-25)")
                .arg(client->protocolVersion());
        return {};
    }
    // skills/list: SEP-2640, declared under capabilities.extensions.
    const QJsonObject extensions = client->capabilities().value(QStringLiteral("extensions")).toObject();
    if (!extensions.contains(QStringLiteral("io.modelcontextprotocol/skills")))
        return QStringLiteral("the server does not offer skills: its capabilities.extensions has no "
                              "io.modelcontextprotocol/skills");
    if (isDirectory() && !extensions.value(QStringLiteral("io.modelcontextprotocol/skills"))
                              .toObject()
                              .value(QStringLiteral("directoryRead"))
                              .toBool())
        return QStringLiteral("the server's skills extension does not say directoryRead: it reads no "
                              "directories (resources/directory/read)");
    return {};
}

std::optional<ListSource> ListSource::fromTool(const QJsonObject &tool)
{
    const QJsonObject props =
        tool.value(QStringLiteral("inputSchema")).toObject().value(QStringLiteral("properties")).toObject();
    ListSource s;
    s.m_kind = Kind::Tool;
    s.m_toolName = tool.value(QStringLiteral("name")).toString();
    s.m_tool = tool;
    for (const QString &name : cursorArgNames) {
        if (props.contains(name) && isStringProperty(props.value(name).toObject())) {
            s.m_cursorArg = name;
            s.m_paging = name.startsWith(QLatin1String("page")) ? Paging::PageToken : Paging::Cursor;
            s.m_limitArg = firstOf(props, limitArgNames);
            return s;
        }
    }
    // A position: offset + limit, or page + a page size, both numbers in the schema.
    auto position = [&](const QString &name, const QStringList &sizes, Paging paging, int first) {
        const QString size = firstOf(props, sizes);
        if (!props.contains(name) || !isNumberProperty(props.value(name).toObject()) || size.isEmpty() ||
            !isNumberProperty(props.value(size).toObject()))
            return false;
        s.m_cursorArg = name;
        s.m_limitArg = size;
        s.m_paging = paging;
        // The first page is where the schema says positions start: its default, else its minimum.
        const QJsonObject schema = props.value(name).toObject();
        const QJsonValue start = schema.contains(QStringLiteral("default"))
                                     ? schema.value(QStringLiteral("default"))
                                     : schema.value(QStringLiteral("minimum"));
        s.m_firstPosition = start.isDouble() ? qMax(0, start.toInt(first)) : first;
        return true;
    };
    if (position(QStringLiteral("offset"), offsetSizeNames, Paging::Offset, 0) ||
        position(QStringLiteral("page"), pageSizeNames, Paging::PageNumber, 1))
        return s;
    return std::nullopt;
}

bool ListSource::mayBeListTool(const QByteArray &toolJson)
{
    // Each of cursorArgNames and the positions' names as a whole string ("cursor"). The names are searched
    // for with memmem (rare in a tool's text) and their quotes checked where found: a tool of ~350 bytes
    // costs a few hundred instructions. A quoted name that is not a member name (a description quoting it) is
    // a false positive: the tool is parsed, and the real check answers.
    static const QList<QByteArray> names = [] {
        QList<QByteArray> n;
        for (const QString &name : cursorArgNames)
            n.append(name.toLatin1());
        n.append("offset"); // the positions (fromTool)
        n.append("page");
        return n;
    }();
    const char *text = toolJson.constData();
    const size_t size = size_t(toolJson.size());
    // A name written with \u escapes could spell a name without showing it: parse those.
    if (memmem(text, size, "\\u", 2))
        return true;
    for (const QByteArray &name : names) {
        const size_t length = size_t(name.size());
        // From the second byte to the last but one: there is room for both quotes.
        for (size_t from = 1; from + length < size;) {
            const auto *hit =
                static_cast<const char *>(memmem(text + from, size - 1 - from, name.constData(), length));
            if (!hit)
                break;
            if (hit[-1] == '"' && hit[length] == '"')
                return true;
            from = size_t(hit - text) + 1;
        }
    }
    return false;
}

QString ListSource::id() const
{
    switch (m_kind) {
    case Kind::Tool:
        return QStringLiteral("tool:") + m_toolName;
    case Kind::Extension:
        return m_name;
    case Kind::Protocol:
        break;
    }
    return listName(m_listKind);
}

QString ListSource::displayName() const
{
    switch (m_kind) {
    case Kind::Tool:
        return m_toolName;
    case Kind::Extension:
        // "task list": the server's tasks/list, apart from the window's Tasks (those started here).
        if (m_name == QLatin1String("tasks"))
            return QStringLiteral("task list");
        if (isDirectory()) { // a folder by its last name, "triage-posts/", however long its URI
            QString path = directoryUri();
            while (path.endsWith(QLatin1Char('/')) && path.size() > 1)
                path.chop(1);
            const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
            return elide(slash >= 0 && slash + 1 < path.size() ? path.mid(slash + 1) : path, 32) +
                   QLatin1Char('/');
        }
        return m_name;
    case Kind::Protocol:
        break;
    }
    return listName(m_listKind);
}

QString ListSource::requestTitle() const
{
    switch (m_kind) {
    case Kind::Tool:
        return QStringLiteral("tools/call ") + m_toolName;
    case Kind::Extension:
        return m_method;
    case Kind::Protocol:
        break;
    }
    return listMethod(m_listKind);
}

bool ListSource::isReadOnly() const
{
    if (m_kind != Kind::Tool)
        return true;
    return m_tool.value(QStringLiteral("annotations"))
        .toObject()
        .value(QStringLiteral("readOnlyHint"))
        .toBool(false);
}

RpcCall *ListSource::requestPage(McpClient *client, const std::optional<QString> &cursor,
                                 QObject *owner) const
{
    if (m_kind == Kind::Protocol)
        return client->listPage(m_listKind, cursor, owner);
    if (m_kind == Kind::Extension)
        return client->listPage(m_method, cursor, owner, m_params);
    QJsonObject args = m_arguments;
    args.remove(m_cursorArg);
    if (cursor.has_value()) {
        bool number = false;
        const qint64 position = pagesByPosition() ? cursor->toLongLong(&number) : 0;
        args[m_cursorArg] = number ? QJsonValue(position) : QJsonValue(*cursor); // a forged one as it is
    }
    if (!m_limitArg.isEmpty() && m_limit.has_value())
        args[m_limitArg] = *m_limit;
    return client->callTool(m_toolName, args, owner);
}

std::optional<QString> ListSource::startCursor() const
{
    if (m_kind != Kind::Tool || m_cursorArg.isEmpty())
        return std::nullopt;
    const QJsonValue given = m_arguments.value(m_cursorArg);
    if (given.isString())
        return given.toString();
    if (given.isDouble() && pagesByPosition())
        return QString::number(given.toInteger());
    return std::nullopt;
}

std::optional<int> ListSource::pageSizeSent() const
{
    if (m_limit)
        return m_limit;
    if (m_limitArg.isEmpty())
        return std::nullopt;
    const QJsonValue given = m_arguments.value(m_limitArg);
    if (given.isDouble() && given.toDouble() >= 1 && given.toDouble() == given.toInteger())
        return int(qMin<qint64>(given.toInteger(), std::numeric_limits<int>::max()));
    return std::nullopt;
}

std::optional<QString> ListSource::nextRequest(const Page &page, const std::optional<QString> &sent,
                                               int largestEarlierPage) const
{
    // A page that says no more follow (has_more: false, Relay's hasNextPage: false) is the last,
    // whatever else it carries.
    if (page.more == false)
        return std::nullopt;
    switch (m_kind != Kind::Tool ? Paging::Cursor : m_paging) {
    case Paging::Cursor:
        if (page.next.isString())
            return page.next.text; // "" included: it is a cursor, not the end
        return std::nullopt;
    case Paging::PageToken:
        if (page.next.isString() && !page.next.text.isEmpty())
            return page.next.text;
        return std::nullopt; // AIP-158: an empty next_page_token is the end of the list
    case Paging::Offset:
    case Paging::PageNumber:
        break;
    }
    // An empty page is the last, and so is one shorter than a page before it. Not one shorter than
    // the size asked for: servers cap it (GitHub's per_page at 100), and a capped page is full. A
    // cursor the server hands back anyway is not followed: the position is what this tool takes.
    const int count = page.itemCount();
    if (count == 0 || count < largestEarlierPage)
        return std::nullopt;
    bool number = false;
    const qint64 at = sent ? sent->toLongLong(&number) : m_firstPosition;
    if (sent && !number)
        return std::nullopt;
    return QString::number(m_paging == Paging::Offset ? at + count : at + 1);
}

QJsonValue ListSource::resolvePointer(const QJsonValue &root, const QString &pointer, bool *found)
{
    *found = true;
    if (pointer.isEmpty())
        return root;
    if (!pointer.startsWith(QLatin1Char('/'))) {
        *found = false;
        return {};
    }
    QJsonValue cur = root;
    const QStringList parts = pointer.mid(1).split(QLatin1Char('/'));
    for (QString part : parts) {
        part.replace(QStringLiteral("~1"), QStringLiteral("/"))
            .replace(QStringLiteral("~0"), QStringLiteral("~"));
        if (cur.isObject() && cur.toObject().contains(part)) {
            cur = cur.toObject().value(part);
        } else if (cur.isArray()) {
            bool ok = false;
            const int i = part.toInt(&ok);
            if (!ok || i < 0 || i >= cur.toArray().size()) {
                *found = false;
                return {};
            }
            cur = cur.toArray().at(i);
        } else {
            *found = false;
            return {};
        }
    }
    return cur;
}

ListSource::Page ListSource::readPage(const QJsonObject &result) const
{
    Page page;
    page.resultType = result.value(QStringLiteral("resultType")).toString();
    if (m_kind == Kind::Protocol) {
        page.hints = CacheHints::of(result);
    }

    // Where the page lives: the result itself (protocol), else structuredContent or JSON text.
    QJsonValue root = result;
    if (m_kind == Kind::Tool) {
        page.toolError = result.value(QStringLiteral("isError")).toBool(false);
        if (result.contains(QStringLiteral("structuredContent"))) {
            root = result.value(QStringLiteral("structuredContent"));
        } else {
            root = QJsonValue();
            for (const QJsonValue &block : result.value(QStringLiteral("content")).toArray()) {
                const QJsonObject b = block.toObject();
                if (b.value(QStringLiteral("type")).toString() != QLatin1String("text"))
                    continue;
                const QJsonDocument doc =
                    QJsonDocument::fromJson(b.value(QStringLiteral("text")).toString().toUtf8());
                if (doc.isObject() || doc.isArray()) {
                    root = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
                    break;
                }
            }
            if (root.isNull() || root.isUndefined()) {
                if (!page.toolError)
                    page.extractionError =
                        QStringLiteral("The tool result has no structuredContent and no JSON text block");
                return page;
            }
        }
    }

    // Items.
    if (!m_itemsPointer.isEmpty()) {
        bool found = false;
        const QJsonValue v = resolvePointer(root, m_itemsPointer, &found);
        if (found && v.isArray())
            page.items = v.toArray();
        else
            page.extractionError = QStringLiteral("No array at %1").arg(m_itemsPointer);
    } else if (m_kind != Kind::Tool) {
        const QString key = m_kind == Kind::Extension ? m_itemsKey : listItemsKey(m_listKind);
        const QJsonValue v = result.value(key);
        if (v.isArray())
            page.items = v.toArray();
        else
            page.extractionError = QStringLiteral("The result has no \"%1\" array").arg(key);
    } else if (root.isArray()) {
        page.items = root.toArray();
    } else if (!findItems(root.toObject(), &page.items) && !page.toolError) {
        page.extractionError = QStringLiteral("The tool result holds no array of items");
    }

    // Next cursor.
    if (!m_cursorPointer.isEmpty()) {
        bool found = false;
        const QJsonValue v = resolvePointer(root, m_cursorPointer, &found);
        setCursor(page, v, found);
    } else if (m_kind != Kind::Tool) {
        setCursor(page, result.value(QStringLiteral("nextCursor")),
                  result.contains(QStringLiteral("nextCursor")));
    } else {
        QJsonValue v;
        const bool found = root.isObject() && findNextCursor(root.toObject(), &v);
        setCursor(page, v, found);
        if (root.isObject())
            page.more = findMoreFlag(root.toObject());
    }
    return page;
}

QJsonValue ListSource::columnValue(const QJsonValue &item, const Column &column)
{
    if (column.key.isEmpty())
        return item;
    if (column.key.startsWith(QLatin1Char('/'))) { // a JSON Pointer into the item
        bool found = false;
        const QJsonValue v = resolvePointer(item, column.key, &found);
        return found ? v : QJsonValue(QJsonValue::Undefined);
    }
    const QJsonObject o = item.toObject();
    const QJsonValue v = o.value(column.key);
    if (column.key == QLatin1String("title") && (v.isUndefined() || v.isNull() || v.toString().isEmpty())) {
        const QJsonValue annotated =
            o.value(QStringLiteral("annotations")).toObject().value(QStringLiteral("title"));
        if (annotated.isString() && !annotated.toString().isEmpty())
            return annotated;
    }
    return v;
}

QJsonValue ListSource::displayValue(const QJsonValue &item, const Column &column)
{
    const QJsonValue v = columnValue(item, column);
    if (column.argumentNames && v.isArray())
        return argumentNames(v);
    return v;
}

QString ListSource::argumentNames(const QJsonValue &arguments)
{
    if (arguments.isUndefined() || arguments.isNull())
        return {};
    if (!arguments.isArray())
        return QString::fromUtf8(QJsonDocument(QJsonArray{arguments}).toJson(QJsonDocument::Compact))
            .mid(1)
            .chopped(1);
    QStringList names;
    for (const QJsonValue &a : arguments.toArray()) {
        const QJsonObject o = a.toObject();
        const QJsonValue name = o.value(QStringLiteral("name"));
        QString text = name.isString() && !name.toString().isEmpty() ? name.toString() : QStringLiteral("?");
        if (o.value(QStringLiteral("required")).toBool(false))
            text += QLatin1Char('*');
        names << text;
    }
    return names.join(QStringLiteral(", "));
}

QList<ListSource::Column> ListSource::columns() const
{
    auto col = [](const char *key, const char *header) {
        return Column{QString::fromLatin1(key), QString::fromLatin1(header)};
    };
    switch (m_kind) {
    case Kind::Tool:
        return {};
    case Kind::Extension:
        if (isDirectory()) // resources/directory/read: SEP-2640
            return {col("name", "Name"), col("mimeType", "MIME type"), col("size", "Size"),
                    col("uri", "URI")};
        if (m_name == QLatin1String("skills")) // skills/list: SEP-2640 entries
            return {col("/frontmatter/name", "Name"), col("/frontmatter/description", "Description"),
                    col("uri", "SKILL.md")};
        // tasks/list: 2025-11-25 Tasks
        return {col("taskId", "Task"), col("status", "Status"), col("statusMessage", "Message"),
                col("lastUpdatedAt", "Updated"), col("ttl", "TTL (ms)")};
    case Kind::Protocol:
        break;
    }
    switch (m_listKind) {
    case ListKind::Tools:
        return {col("name", "Name"), col("title", "Title"), col("description", "Description")};
    case ListKind::Prompts:
        return {col("name", "Name"), col("title", "Title"), col("description", "Description"),
                Column{QStringLiteral("arguments"), QStringLiteral("Arguments"), true}};
    case ListKind::Resources:
        return {col("name", "Name"), col("uri", "URI"), col("mimeType", "MIME type"),
                col("description", "Description")};
    case ListKind::ResourceTemplates:
        return {col("name", "Name"), col("uriTemplate", "URI template"), col("mimeType", "MIME type"),
                col("description", "Description")};
    }
    return {};
}

QList<ListSource::Column> ListSource::inferColumns(const QJsonArray &items)
{
    // Identity-like keys first, then the rest in alphabetical order (stable across pages).
    static const QStringList preferred{QStringLiteral("id"),           QStringLiteral("name"),
                                       QStringLiteral("title"),        QStringLiteral("username"),
                                       QStringLiteral("display_name"), QStringLiteral("uri")};
    QStringList keys;
    for (const QJsonValue &v : items) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!keys.contains(it.key()))
                keys.append(it.key());
        }
        if (keys.size() > 64)
            break;
    }
    QList<Column> out;
    for (const QString &p : preferred) {
        if (keys.removeAll(p) > 0)
            out.append({p, p});
    }
    keys.sort();
    for (const QString &k : std::as_const(keys))
        out.append({k, k});
    if (out.isEmpty())
        out.append({QString(), QStringLiteral("value")}); // items that are not objects
    return out;
}

ListSource::Page ListSource::readPage(const RpcCall *call) const
{
    Page page = readPage(call->result());
    if (call->itemsDeferred() && m_kind != Kind::Tool && m_itemsPointer.isEmpty() &&
        page.extractionError.isEmpty()) {
        page.itemsAsText = true;
        page.itemTexts = call->deferredItems();
        page.items = QJsonArray();
    }
    return page;
}

void ListSource::deferItems(RpcCall *call) const
{
    if (call && m_kind != Kind::Tool && m_itemsPointer.isEmpty())
        call->deferItems(m_kind == Kind::Extension ? m_itemsKey : listItemsKey(m_listKind));
}

namespace {

constexpr quint64 fnvOffset = 14695981039346656037ULL;

quint64 fnv(quint64 h, QByteArrayView bytes)
{
    for (const char c : bytes) {
        h ^= uchar(c);
        h *= 1099511628211ULL;
    }
    return h;
}

// taskId: a task of tasks/list (which has no name or id).
const std::array<QByteArrayView, 5> identityKeys{{"uri", "uriTemplate", "name", "id", "taskId"}};

} // namespace

quint64 ListSource::identityHash(const QString &identity)
{
    if (identity.isEmpty())
        return 0;
    const quint64 h = fnv(fnvOffset, identity.toUtf8());
    return h == 0 ? 1 : h;
}

namespace {

// The member an identity is read from: its key and its raw JSON value (a string with its quotes,
// or a number); false when the item has none.
bool identityMember(QByteArrayView itemJson, QByteArrayView *key, QByteArrayView *value)
{
    // The first of uri, uriTemplate, name, id, taskId that is a string or a number (a member
    // given twice counts by its last value).
    const std::array<QByteArrayView, 5> &keys = identityKeys;
    std::array<QByteArrayView, 5> values;
    if (!JsonSlice::pickMembers(itemJson, keys.data(), values.data(), int(keys.size())))
        return false;
    for (size_t k = 0; k < keys.size(); ++k) {
        const QByteArrayView v = values[k];
        if (v.isEmpty())
            continue;
        if (v.front() == '"' || v.front() == '-' || (v.front() >= '0' && v.front() <= '9')) {
            *key = keys[k];
            *value = v;
            return true;
        }
    }
    return false;
}

bool isAscii(QByteArrayView bytes)
{
    return std::all_of(bytes.begin(), bytes.end(), [](char c) { return uchar(c) < 0x80; });
}

// pickMembers compares names as written, so in "n\u0061me" it does not see the name that
// QJsonDocument (and so identity(QJsonObject)) reads (found by tests/fuzz/fuzz_listsource). A \u
// escape anywhere is rare in items: such a text is read through QJsonDocument, whose compact
// text writes every name that could be an identity key plainly.
bool mayHaveEscapedNames(QByteArrayView itemJson)
{
    return std::string_view(itemJson.data(), size_t(itemJson.size())).find("\\u") != std::string_view::npos;
}

// identity() of text whose member names are written without escapes.
QString identityOfPlainText(QByteArrayView itemJson)
{
    QByteArrayView keyBytes;
    QByteArrayView v;
    if (!identityMember(itemJson, &keyBytes, &v))
        return {};
    const QLatin1String key(keyBytes.data(), keyBytes.size());
    QString out;
    if (v.front() == '"') {
        const QByteArrayView inner = v.sliced(1, v.size() - 2);
        out.reserve(key.size() + 1 + inner.size());
        out.append(key).append(QLatin1Char(':'));
        if (inner.contains('\\'))
            out.append(QJsonDocument::fromJson("[" + v.toByteArray() + "]").array().at(0).toString());
        else if (isAscii(inner))
            out.append(QLatin1String(inner.data(), inner.size())); // ASCII: the same text
        else
            out.append(QString::fromUtf8(inner));
    } else {
        out.append(key).append(QLatin1Char(':')).append(QString::number(v.toByteArray().toDouble(), 'g', 17));
    }
    return out;
}

} // namespace

quint64 ListSource::itemIdentityHash(QByteArrayView itemJson)
{
    if (mayHaveEscapedNames(itemJson))
        return identityHash(identity(itemJson));
    QByteArrayView key;
    QByteArrayView value;
    if (!identityMember(itemJson, &key, &value))
        return 0;
    // A plain ASCII string is its own UTF-8 text: hash the bytes where they lie, without making
    // the identity (the walk judges every item of every page this way). Anything else the long way.
    if (value.front() == '"') {
        const QByteArrayView inner = value.sliced(1, value.size() - 2);
        if (!inner.contains('\\') && isAscii(inner)) {
            const quint64 h = fnv(fnv(fnv(fnvOffset, key), ":"), inner);
            return h == 0 ? 1 : h;
        }
    }
    return identityHash(identity(itemJson));
}

QString ListSource::identity(QByteArrayView itemJson)
{
    if (mayHaveEscapedNames(itemJson)) {
        const QJsonDocument doc = QJsonDocument::fromJson(itemJson.toByteArray());
        return doc.isObject() ? identity(doc.object()) : QString();
    }
    return identityOfPlainText(itemJson);
}

QString ListSource::identity(const QJsonObject &item)
{
    return identityOfPlainText(QJsonDocument(item).toJson(QJsonDocument::Compact));
}

QStringList ListSource::pagingArguments() const
{
    QStringList paging{m_cursorArg, m_limitArg};
    paging.removeAll(QString());
    return paging;
}

QString ListSource::argumentsNeeded() const
{
    if (m_kind != Kind::Tool)
        return {};
    const QJsonObject schema = m_tool.value(QStringLiteral("inputSchema")).toObject();
    const QStringList paging = pagingArguments();
    // The names of a "required" list that are neither given nor sent by the walk.
    const auto missing = [&](const QJsonValue &required) {
        QStringList out;
        for (const QJsonValue &name : required.toArray()) {
            if (name.isString() && !m_arguments.contains(name.toString()) &&
                !paging.contains(name.toString()) && !out.contains(name.toString()))
                out.append(name.toString());
        }
        return out;
    };
    const auto joined = [](const QStringList &names, const QString &word) {
        if (names.size() < 2)
            return names.value(0);
        return QStringList(names.mid(0, names.size() - 1)).join(QStringLiteral(", ")) + QLatin1Char(' ') +
               word + QLatin1Char(' ') + names.constLast();
    };
    const QStringList required = missing(schema.value(QStringLiteral("required")));
    if (!required.isEmpty())
        return joined(required, QObject::tr("and"));
    // One of several sets: what is missing is the first name of each alternative, unless one is
    // already whole. Only alternatives that are nothing but a "required" list count (others say
    // more than which names must be there); a bounded number of them.
    for (const QString &key : {QStringLiteral("anyOf"), QStringLiteral("oneOf")}) {
        const QJsonArray alternatives = schema.value(key).toArray();
        if (alternatives.isEmpty() || alternatives.size() > 16)
            continue;
        QStringList firsts;
        bool satisfied = false, plain = true;
        for (const QJsonValue &alternative : alternatives) {
            const QJsonObject a = alternative.toObject();
            if (a.size() != 1 || !a.value(QStringLiteral("required")).isArray()) {
                plain = false;
                break;
            }
            const QStringList lacking = missing(a.value(QStringLiteral("required")));
            if (lacking.isEmpty()) {
                satisfied = true;
                break;
            }
            if (!firsts.contains(lacking.first()))
                firsts.append(lacking.first());
        }
        if (plain && !satisfied && !firsts.isEmpty())
            return joined(firsts, QObject::tr("or"));
    }
    return {};
}

bool ListSource::hasChosenArguments() const
{
    const QStringList paging = pagingArguments();
    for (auto it = m_arguments.begin(); it != m_arguments.end(); ++it) {
        if (!paging.contains(it.key()))
            return true;
    }
    return false;
}

} // namespace folio
