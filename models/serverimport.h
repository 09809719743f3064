#pragma once

#include "serverconfig.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace folio {

// Reads the server lists other MCP clients keep: the `mcpServers` object of Claude Desktop,
// Cursor and `.mcp.json`, and VS Code's `servers` object. Nothing is started: the caller shows
// what each entry would run before anything happens.
struct ServerImport
{
    struct Entry
    {
        ServerConfig config;
        QString source;  // "mcpServers" or "servers"
        QString warning; // e.g. "env values refer to ${input:...}" or an unsupported field
    };
    QList<Entry> entries;
    QString error; // the file could not be read at all

    static ServerImport parse(const QByteArray &json);
    // What an entry runs, as a person reads it: `npx -y @scope/server --flag` or the URL.
    static QString describe(const ServerConfig &config);
};

} // namespace folio
