#pragma once

#include "mcpclient.h"
#include "scriptedtransport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QSignalSpy>
#include <QStringList>

// A small modern (2026-07-28) MCP server behind the Transport seam, for Auditor unit tests. tools/list
// answers on one page, so it issues no cursor and refuses any with cursorErrorCode (-32602, as the
// spec asks). Its tools:
//  - read_things (annotated readOnlyHint: true) and sync_things (not): three pages of five items with
//    cursors "<tool>:2", "<tool>:3"; any other cursor, or one sent with a filter, gets isError;
//  - read_repo_issues (read-only): requires repo (with examples) and state (an enum), and refuses
//    (isError) to list without both; two pages of three, its cursor bound to the repo and state it
//    was issued for ("read_repo_issues:2:<repo>:<state>"), refused with other ones or a label;
//  - read_private_things (read-only): requires a token, and refuses every one but "s3cret";
//  - read_one_page (read-only, a cursor argument): one page of two items, isError for any cursor;
//  - read_rows (read-only, offset + limit): one short page of two rows;
//  - delete_thing: not a list.
// ignoresCursors makes tools/list and every list tool answer a cursor they did not issue with their
// first page, as servers that ignore cursors do. It records every tools/call by name and arguments,
// and the params of every tools/list.
class ScriptedServer : public ScriptedTransport
{
    Q_OBJECT
public:
    explicit ScriptedServer(QObject *parent = nullptr)
        : ScriptedTransport(/*modern=*/true, {}, parent)
    {
        setHandler([this](const QString &method, const QJsonObject &params) -> QJsonObject {
            if (method == QLatin1String("tools/list")) {
                toolsListParams << params;
                if (params.contains(QStringLiteral("cursor")) && !ignoresCursors)
                    return {{QStringLiteral("error"),
                             QJsonObject{{QStringLiteral("code"), cursorErrorCode},
                                         {QStringLiteral("message"), QStringLiteral("Invalid cursor")}}}};
                return {{QStringLiteral("tools"), tools()},
                        {QStringLiteral("ttlMs"), 60000},
                        {QStringLiteral("cacheScope"), QStringLiteral("public")}};
            }
            if (method == QLatin1String("tools/call")) {
                const QString name = params.value(QStringLiteral("name")).toString();
                const QJsonObject arguments = params.value(QStringLiteral("arguments")).toObject();
                calls << name;
                callArguments << arguments;
                return call(name, arguments);
            }
            return {
                {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), -32601},
                                                      {QStringLiteral("message"), QStringLiteral("no")}}}};
        });
    }

    QStringList calls;                  // tools/call names, in order
    QList<QJsonObject> callArguments;   // ... and their arguments
    QList<QJsonObject> toolsListParams; // tools/list params, in order
    bool ignoresCursors = false;
    int cursorErrorCode = -32602; // tools/list's answer to a cursor

    // The arguments of every call of a tool.
    QList<QJsonObject> argumentsOf(const QString &tool) const
    {
        QList<QJsonObject> out;
        for (int i = 0; i < calls.size(); ++i) {
            if (calls.at(i) == tool)
                out << callArguments.at(i);
        }
        return out;
    }

private:
    static QJsonObject string(const QJsonObject &more = {})
    {
        QJsonObject s = more;
        s.insert(QStringLiteral("type"), QStringLiteral("string"));
        return s;
    }
    static QJsonObject readOnly() { return {{QStringLiteral("readOnlyHint"), true}}; }

    static QJsonArray tools()
    {
        const QJsonObject schema{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("cursor"), string()}, {QStringLiteral("filter"), string()}}}};
        const QJsonObject repoSchema{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("cursor"), string()},
                         {QStringLiteral("repo"),
                          string({{QStringLiteral("examples"), QJsonArray{QStringLiteral("octo/demo")}}})},
                         {QStringLiteral("state"),
                          string({{QStringLiteral("enum"),
                                   QJsonArray{QStringLiteral("open"), QStringLiteral("closed")}}})},
                         {QStringLiteral("label"), string()}}},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("repo"), QStringLiteral("state")}}};
        const QJsonObject privateSchema{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("cursor"), string()}, {QStringLiteral("token"), string()}}},
            {QStringLiteral("required"), QJsonArray{QStringLiteral("token")}}};
        const QJsonObject cursorOnly{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), QJsonObject{{QStringLiteral("cursor"), string()}}}};
        const QJsonObject number{{QStringLiteral("type"), QStringLiteral("integer")}};
        const QJsonObject offsetSchema{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("offset"), number}, {QStringLiteral("limit"), number}}}};
        auto tool = [](const char *name, const QJsonObject &inputSchema, const QJsonObject &annotations) {
            QJsonObject t{{QStringLiteral("name"), QString::fromLatin1(name)},
                          {QStringLiteral("inputSchema"), inputSchema}};
            if (!annotations.isEmpty())
                t.insert(QStringLiteral("annotations"), annotations);
            return t;
        };
        return {tool("read_things", schema, readOnly()),
                tool("sync_things", schema, {}),
                tool("read_repo_issues", repoSchema, readOnly()),
                tool("read_private_things", privateSchema, readOnly()),
                tool("read_one_page", cursorOnly, readOnly()),
                tool("read_rows", offsetSchema, readOnly()),
                tool("delete_thing", QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}, {})};
    }

    static QJsonObject toolError(const QString &text)
    {
        return {{QStringLiteral("isError"), true},
                {QStringLiteral("content"),
                 QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                        {QStringLiteral("text"), text}}}}};
    }

    static QJsonObject page(const QString &name, int page, int count, const QString &nextCursor)
    {
        QJsonArray items;
        for (int i = 0; i < count; ++i)
            items.append(
                QJsonObject{{QStringLiteral("id"), QStringLiteral("%1-%2-%3").arg(name).arg(page).arg(i)}});
        QJsonObject structured{{QStringLiteral("items"), items}};
        if (!nextCursor.isEmpty())
            structured[QStringLiteral("next_cursor")] = nextCursor;
        return {{QStringLiteral("structuredContent"), structured},
                {QStringLiteral("content"),
                 QJsonArray{QJsonObject{
                     {QStringLiteral("type"), QStringLiteral("text")},
                     {QStringLiteral("text"),
                      QString::fromUtf8(QJsonDocument(structured).toJson(QJsonDocument::Compact))}}}}};
    }

    QJsonObject call(const QString &name, const QJsonObject &arguments) const
    {
        const bool hasCursor = arguments.contains(QStringLiteral("cursor"));
        const QString cursor = arguments.value(QStringLiteral("cursor")).toString();
        if (name == QLatin1String("read_repo_issues")) {
            const QString repo = arguments.value(QStringLiteral("repo")).toString();
            const QString state = arguments.value(QStringLiteral("state")).toString();
            if (repo.isEmpty() || (state != QLatin1String("open") && state != QLatin1String("closed")))
                return toolError(QStringLiteral("repo and state are required"));
            const QString second = QStringLiteral("%1:2:%2:%3").arg(name, repo, state);
            if (hasCursor && (cursor != second || arguments.contains(QStringLiteral("label"))) &&
                !ignoresCursors)
                return toolError(QStringLiteral("bad cursor"));
            return hasCursor && cursor == second ? page(name, 2, 3, {}) : page(name, 1, 3, second);
        }
        if (name == QLatin1String("read_private_things")) {
            if (arguments.value(QStringLiteral("token")).toString() != QLatin1String("s3cret"))
                return toolError(QStringLiteral("wrong token"));
            return page(name, 1, 2, {});
        }
        if (name == QLatin1String("read_one_page")) {
            if (hasCursor && !ignoresCursors)
                return toolError(QStringLiteral("bad cursor"));
            return page(name, 1, 2, {});
        }
        if (name == QLatin1String("read_rows"))
            return page(name, 1, arguments.value(QStringLiteral("offset")).toInt(0) == 0 ? 2 : 0, {});

        int n = 1;
        if (hasCursor) {
            n = cursor.startsWith(name + QLatin1Char(':')) ? cursor.section(QLatin1Char(':'), 1).toInt() : 0;
            if (n < 2 || n > 3 || arguments.contains(QStringLiteral("filter"))) {
                if (!ignoresCursors)
                    return toolError(QStringLiteral("bad cursor"));
                n = 1;
            }
        }
        return page(name, n, 5, n < 3 ? QStringLiteral("%1:%2").arg(name).arg(n + 1) : QString());
    }
};

// A client (owned by owner) connected to a fresh ScriptedServer, which *server then points to;
// null when the handshake did not finish.
inline folio::McpClient *connectedToScriptedServer(QObject *owner, QPointer<ScriptedServer> *server)
{
    auto *client = new folio::McpClient(owner);
    client->setTransportFactory([server](QObject *parent) {
        auto *t = new ScriptedServer(parent);
        *server = t;
        return t;
    });
    QSignalSpy connected(client, &folio::McpClient::connected);
    client->connectToServer();
    if (!connected.wait(5000))
        return nullptr;
    return client;
}
