#pragma once

#include "mcpclient.h"
#include "scriptedtransport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QSignalSpy>

#include <memory>

// A tools list scripted page by page, for the walker, ledger and table tests: each page request
// is answered from a script keyed by the cursor it sends (NoCursor for the first request); a
// cursor the script lacks is never answered, which keeps a request in flight for as long as a
// test needs.
namespace scripted {

inline const QString NoCursor = QStringLiteral("<none>");

using Script = QMap<QString, QJsonObject>;

// tool_000, tool_001, ...: names are identities, so duplicates and diffs can be told.
inline QJsonArray tools(int from, int count)
{
    QJsonArray a;
    for (int i = from; i < from + count; ++i)
        a.append(
            QJsonObject{{QStringLiteral("name"), QStringLiteral("tool_%1").arg(i, 3, 10, QLatin1Char('0'))},
                        {QStringLiteral("description"), QStringLiteral("Tool number %1").arg(i)}});
    return a;
}

// A tools/list result; an undefined value leaves its member out.
inline QJsonObject page(const QJsonArray &items, const QJsonValue &next, const QJsonValue &ttl = 60000,
                        const QJsonValue &scope = QStringLiteral("public"))
{
    QJsonObject o{{QStringLiteral("tools"), items}};
    if (!next.isUndefined())
        o[QStringLiteral("nextCursor")] = next;
    if (!ttl.isUndefined())
        o[QStringLiteral("ttlMs")] = ttl;
    if (!scope.isUndefined())
        o[QStringLiteral("cacheScope")] = scope;
    return o;
}

inline QJsonObject rpcError(int code, const QString &message)
{
    return {{QStringLiteral("error"),
             QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}}}};
}

// The cursor a request sent: params.cursor for a protocol list, for a tool the first of its
// cursor, token and position arguments (a position as its number written out).
inline QString cursorOf(const QString &method, const QJsonObject &params)
{
    const QJsonObject where =
        method == QLatin1String("tools/call") ? params.value(QStringLiteral("arguments")).toObject() : params;
    for (const char *name : {"cursor", "page_token", "offset", "page"}) {
        const QJsonValue v = where.value(QLatin1String(name));
        if (v.isString())
            return v.toString();
        if (v.isDouble())
            return QString::number(v.toInteger());
    }
    return NoCursor;
}

// A client connected to a server that answers from script. The script may change between
// requests (a page that changed on the server, a cursor that is refused on refetch).
struct Server
{
    std::unique_ptr<folio::McpClient> client;
    ScriptedTransport *transport = nullptr; // owned by the client's connection
    Script script;

    // False when the client did not connect in time.
    bool connect(const Script &pages, bool modern = true)
    {
        script = pages;
        client = std::make_unique<folio::McpClient>();
        client->setTransportFactory([this, modern](QObject *) {
            transport =
                new ScriptedTransport(modern, [this](const QString &method, const QJsonObject &params) {
                    return script.value(cursorOf(method, params));
                });
            return transport;
        });
        QSignalSpy connected(client.get(), &folio::McpClient::connected);
        client->connectToServer();
        return connected.wait(2000);
    }

    void reset()
    {
        client.reset();
        transport = nullptr;
    }
};

// A list tool's result: items under structuredContent.posts, next_cursor beside them (left out
// when next is undefined).
inline QJsonObject toolPage(const QJsonArray &items, const QJsonValue &next)
{
    QJsonObject sc{{QStringLiteral("posts"), items}};
    if (!next.isUndefined())
        sc[QStringLiteral("next_cursor")] = next;
    return QJsonObject{{QStringLiteral("content"), QJsonArray{}}, {QStringLiteral("structuredContent"), sc}};
}

// A search_posts list tool scripted over two pages: three posts, then an empty last page.
inline Script postsPages()
{
    QJsonArray posts;
    for (int i = 0; i < 3; ++i)
        posts.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("p%1").arg(i)},
                                 {QStringLiteral("message"), QStringLiteral("hello")}});
    return Script{{NoCursor, toolPage(posts, QStringLiteral("n1"))},
                  {QStringLiteral("n1"), toolPage(QJsonArray{}, QJsonValue::Undefined)}};
}

} // namespace scripted

Q_DECLARE_METATYPE(scripted::Script)
