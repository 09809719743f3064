#pragma once

#include "scriptedtransport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

// A small modern (2026-07-28) MCP server behind the Transport seam, for Auditor unit tests: tools/list
// on one page with two list tools (read_things annotated readOnlyHint: true, sync_things not) and
// one plain tool. Each list tool answers three pages of five items with cursors "<tool>:2", "<tool>:3"
// and refuses any other cursor with isError. It records every tools/call by name.
class ScriptedServer : public ScriptedTransport
{
    Q_OBJECT
public:
    explicit ScriptedServer(QObject *parent = nullptr)
        : ScriptedTransport(/*modern=*/true, {}, parent)
    {
        setHandler([this](const QString &method, const QJsonObject &params) -> QJsonObject {
            if (method == QLatin1String("tools/list"))
                return {{QStringLiteral("tools"), tools()},
                        {QStringLiteral("ttlMs"), 60000},
                        {QStringLiteral("cacheScope"), QStringLiteral("public")}};
            if (method == QLatin1String("tools/call")) {
                const QString name = params.value(QStringLiteral("name")).toString();
                calls << name;
                return call(name, params.value(QStringLiteral("arguments")).toObject());
            }
            return {
                {QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), -32601},
                                                      {QStringLiteral("message"), QStringLiteral("no")}}}};
        });
    }

    QStringList calls; // tools/call names, in order

private:
    static QJsonArray tools()
    {
        const QJsonObject schema{
            {QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"),
             QJsonObject{
                 {QStringLiteral("cursor"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
                 {QStringLiteral("filter"),
                  QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}}};
        return {
            QJsonObject{{QStringLiteral("name"), QStringLiteral("read_things")},
                        {QStringLiteral("inputSchema"), schema},
                        {QStringLiteral("annotations"), QJsonObject{{QStringLiteral("readOnlyHint"), true}}}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("sync_things")},
                        {QStringLiteral("inputSchema"), schema}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("delete_thing")},
                        {QStringLiteral("inputSchema"),
                         QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}}}}};
    }

    static QJsonObject call(const QString &name, const QJsonObject &arguments)
    {
        int page = 1;
        if (arguments.contains(QStringLiteral("cursor"))) {
            const QString cursor = arguments.value(QStringLiteral("cursor")).toString();
            page =
                cursor.startsWith(name + QLatin1Char(':')) ? cursor.section(QLatin1Char(':'), 1).toInt() : 0;
            if (page < 2 || page > 3 || arguments.contains(QStringLiteral("filter")))
                return {{QStringLiteral("isError"), true},
                        {QStringLiteral("content"),
                         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                {QStringLiteral("text"), QStringLiteral("bad cursor")}}}}};
        }
        QJsonArray items;
        for (int i = 0; i < 5; ++i)
            items.append(QJsonObject{{QStringLiteral("id"), QStringLiteral("%1-%2").arg(page).arg(i)}});
        QJsonObject structured{{QStringLiteral("items"), items}};
        if (page < 3)
            structured[QStringLiteral("next_cursor")] = QStringLiteral("%1:%2").arg(name).arg(page + 1);
        return {{QStringLiteral("structuredContent"), structured},
                {QStringLiteral("content"),
                 QJsonArray{QJsonObject{
                     {QStringLiteral("type"), QStringLiteral("text")},
                     {QStringLiteral("text"),
                      QString::fromUtf8(QJsonDocument(structured).toJson(QJsonDocument::Compact))}}}}};
    }
};
