#pragma once

#include "cachehints.h"
#include "itemtexts.h"
#include "nextcursor.h"

#include "mcpclient.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace folio {

class RpcCall;

// What a list is: one of the four protocol list methods, an extension's list method paged the
// same way (tasks/list of the 2025-11-25 core tasks), or a list tool (a tool that takes a
// cursor-like argument and answers a next cursor). It knows how to ask for a page and how to
// read one, and nothing about how pages are stored or judged.
class ListSource
{
public:
    // Extension: a list method outside the four of ListKind (method(), itemsKey()), with
    // cursor and nextCursor as a protocol list has them; no cache hints are expected of it and
    // no list_changed restarts it.
    enum class Kind { Protocol, Tool, Extension };

    // How a list pages (docs/findings.md, "Paging styles"). Protocol lists and cursor/after tools
    // hand back an opaque cursor, "" included (2026-07-28 pagination); page_token tools hand back
    // an AIP-158 token, where "" ends the list; offset and page-number tools take a position the
    // client works out, and their list ends on a short or an empty page.
    enum class Paging { Cursor, PageToken, Offset, PageNumber };

    struct Column
    {
        QString key;    // top-level member of an item
        QString header; // what the view shows
        // The member is a prompt's arguments: a person reads them as names (argumentNames()).
        bool argumentNames = false;
    };

    // One page read from a result.
    struct Page
    {
        // The items: parsed, or (itemsAsText, a protocol list's page read by the fast path,
        // RpcCall::deferItems) as compact JSON texts, with items empty.
        QJsonArray items;
        bool itemsAsText = false;
        ItemTexts itemTexts;
        int itemCount() const { return itemsAsText ? itemTexts.count() : int(items.size()); }
        NextCursor next;         // as it stood in the result
        CacheHints hints;        // a protocol list's, as received
        QString resultType;      // as received ("" when absent)
        bool toolError = false;  // a tool result with isError: true
        QString extractionError; // the result could not be read as a page
        // A list tool's page that says whether more follow (has_more, hasMore, hasNextPage).
        std::optional<bool> more;
    };

    static ListSource protocol(ListKind kind);
    // An extension's list by its name: "tasks" (or "tasks/list"), the 2025-11-25 tasks/list
    // (items "tasks", each identified by its taskId), or "skills" (or "skills/list"), SEP-2640's
    // skills (items "skills", each identified by its SKILL.md uri), or "directory:URI", SEP-2640's
    // resources/directory/read of that directory (items "resources"); std::nullopt for any other.
    static std::optional<ListSource> extension(const QString &name);
    // The extension lists a server may have on its own (not directory:URI, which names one), as
    // `folio list` takes them.
    static QStringList extensionNames();
    // SEP-2640's resources/directory/read of directoryUri ("skill://x/triage-posts", a skill's
    // SKILL.md uri without its file name): extension("directory:" + directoryUri).
    static ListSource directory(const QString &directoryUri);
    // A directory list: one the user opens (a skill's folder), not one the server has on its own.
    bool isDirectory() const;
    static bool isDirectoryId(const QString &listId);
    // The directory a directory list reads; empty for any other.
    QString directoryUri() const;
    // The folder an entry of this directory list names (mimeType inode/directory, with a uri);
    // std::nullopt for a file, and for an item of any other list.
    std::optional<ListSource> subdirectory(const QJsonObject &item) const;
    // Why an extension list cannot be walked on this connection ("tasks/list does not exist in
    // the 2026-07-28 tasks extension …", "the server does not offer skills …"); empty when it can,
    // and for the other kinds.
    QString unavailableOn(const McpClient *client) const;
    // The tool's definition as listed by tools/list; std::nullopt when it is not a list tool.
    static std::optional<ListSource> fromTool(const QJsonObject &tool);
    static bool isListTool(const QJsonObject &tool) { return fromTool(tool).has_value(); }
    // False only when a tool's JSON text cannot describe a list tool: none of the cursor
    // or position arguments' names appears in it as a member name. Tells which tools of a long list to parse.
    static bool mayBeListTool(const QByteArray &toolJson);

    Kind kind() const { return m_kind; }
    // The protocol list (Kind::Protocol only: other kinds have none, whatever this says).
    ListKind protocolKind() const { return m_listKind; }
    // Kind::Extension: the method ("tasks/list") and the member of the result holding the items.
    QString method() const { return m_method; }
    QString itemsKey() const { return m_itemsKey; }
    // "tools", "prompts", "resources", "templates", an extension list's name ("tasks") or
    // "tool:<name>".
    QString id() const;
    QString displayName() const;
    // What each page is asked with, as a person reads it: "tools/list", "tools/call list_users".
    QString requestTitle() const;
    QString toolName() const { return m_toolName; }
    Paging paging() const { return m_paging; }
    // Offset and page-number lists: items shift under the walk when the list changes.
    bool pagesByPosition() const { return m_paging == Paging::Offset || m_paging == Paging::PageNumber; }
    // The argument the cursor (or the position) goes in: "cursor", "page_token", "offset", "page", …
    QString cursorArgument() const { return m_cursorArg; }
    QString limitArgument() const { return m_limitArg; }
    // The arguments the walk sends itself (the cursor or position, and the page size when any).
    QStringList pagingArguments() const;
    // What a list tool's inputSchema requires that its arguments lack, the paging arguments aside,
    // as a person reads it: "repo and owner" (its "required" list), "channel or query" (a top-level
    // anyOf or oneOf whose alternatives each require names); "" when nothing is missing. The walk
    // asks for no page before the user gives them.
    QString argumentsNeeded() const;
    // Whether the user gave any argument the walk does not send itself.
    bool hasChosenArguments() const;
    QJsonObject toolDefinition() const { return m_tool; }
    bool isReadOnly() const; // annotations.readOnlyHint === true

    // A list tool's arguments as the user gave them, and the page size asked (--limit, which wins
    // over a limit among the arguments). A cursor (or position) among the arguments is where the
    // walk starts: startCursor().
    void setArguments(const QJsonObject &arguments) { m_arguments = arguments; }
    QJsonObject arguments() const { return m_arguments; }
    void setLimit(std::optional<int> limit) { m_limit = limit; }
    std::optional<int> limit() const { return m_limit; }
    // The page size each request sends: --limit, else a whole number >= 1 given for the limit
    // argument among the arguments; what page-over-limit and a short page are judged against.
    std::optional<int> pageSizeSent() const;
    // The cursor the first page is asked with: the one given among the arguments (a position as
    // its number written out), else none.
    std::optional<QString> startCursor() const;

    // User overrides, as JSON Pointers into the result (or structuredContent) — "" means automatic.
    void setItemsPointer(const QString &pointer) { m_itemsPointer = pointer; }
    void setCursorPointer(const QString &pointer) { m_cursorPointer = pointer; }
    QString itemsPointer() const { return m_itemsPointer; }
    QString cursorPointer() const { return m_cursorPointer; }

    // Asks for a page: with cursor (for offset and page-number lists, the position as text; sent as
    // a number), or the first page when there is none.
    RpcCall *requestPage(McpClient *client, const std::optional<QString> &cursor, QObject *owner) const;
    // What the page after this one is asked with, by the list's paging style; std::nullopt when the
    // list ended here. sent is what this page was asked with; largestEarlierPage the most items an
    // earlier page of the walk held (an offset or page-number list ends on a page shorter than that).
    std::optional<QString> nextRequest(const Page &page, const std::optional<QString> &sent,
                                       int largestEarlierPage = 0) const;
    Page readPage(const QJsonObject &result) const;
    // The page of an answered call, items as text when the connection cut them out unparsed.
    Page readPage(const RpcCall *call) const;
    // Asks for the fast path on a page request (RpcCall::deferItems) when this list can take it:
    // a protocol list read at its usual place.
    void deferItems(RpcCall *call) const;

    // What a column shows of an item: the member named by its key (the whole item for no key).
    // "title" is the spec's display name: title, else annotations.title (a tool's older place).
    static QJsonValue columnValue(const QJsonValue &item, const Column &column);
    // What a table shows of an item in a column: columnValue(), with a prompt's arguments as
    // names (argumentNames()). JSON and CSV exports keep columnValue() as received.
    static QJsonValue displayValue(const QJsonValue &item, const Column &column);
    // A prompt's arguments as a person reads them: "city*, units" (required marked with *); an
    // argument without a name is "?"; a value that is not an array of arguments stays as compact
    // JSON (a server's mistake is shown, not hidden); no arguments: "".
    static QString argumentNames(const QJsonValue &arguments);
    // Fixed columns for protocol lists; for list tools, inferred from items (stable order).
    QList<Column> columns() const;
    static QList<Column> inferColumns(const QJsonArray &items);
    // The identity of an item for duplicate detection, read from its JSON text: "uri:…",
    // "uriTemplate:…", "name:…", "id:…" or "taskId:…" (a task of tasks/list: the first of them
    // that is a string or a number); empty when it has none. The one place an identity is
    // computed.
    static QString identity(QByteArrayView itemJson);
    // The same for a parsed item (written compact, then read as above).
    static QString identity(const QJsonObject &item);
    // 64 bits (FNV-1a over the identity's UTF-8) for duplicate detection; 0 for no identity.
    static quint64 identityHash(const QString &identity);
    // identityHash(identity(itemJson)), without making the identity where it need not.
    static quint64 itemIdentityHash(QByteArrayView itemJson);

    static QJsonValue resolvePointer(const QJsonValue &root, const QString &pointer, bool *found);

private:
    Kind m_kind = Kind::Protocol;
    Paging m_paging = Paging::Cursor;
    int m_firstPosition = 0; // offset and page-number lists: the position of the first page
    ListKind m_listKind = ListKind::Tools;
    QString m_toolName;
    QString m_name;       // Kind::Extension: "tasks"
    QString m_method;     // Kind::Extension: "tasks/list"
    QString m_itemsKey;   // Kind::Extension: "tasks"
    QJsonObject m_params; // Kind::Extension: sent with every page (a directory's uri)
    QString m_cursorArg;
    QString m_limitArg;
    QJsonObject m_tool;
    QJsonObject m_arguments;
    std::optional<int> m_limit;
    QString m_itemsPointer;
    QString m_cursorPointer;
};

} // namespace folio
