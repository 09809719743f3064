#pragma once

#include "serverconfig.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace folio {

// Reads the server lists other MCP clients keep: the `mcpServers` object of Claude Desktop,
// Cursor and `.mcp.json`, and VS Code's `servers` object. Nothing is started: the caller shows
// what each entry would run before anything happens. Secrets are taken apart for the keychain: an
// `Authorization: Bearer …` header becomes the bearer token (tokenInKeychain false: not saved yet)
// and the values of secret environment variables are held (envHeld), which ServerListModel then
// saves to the keychain; they are only ever shown masked.
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
    // What an entry runs, as a person reads it: `npx -y @scope/server --flag` or the URL. Secret
    // values are masked (`API_KEY='sk-p… (51 chars)'`).
    static QString describe(const ServerConfig &config);
    // The secrets an entry holds for the keychain, masked: "bearer token eyJh… (812 chars)",
    // "API_KEY sk-p… (51 chars)"; empty when it has none.
    static QStringList describeSecrets(const ServerConfig &config);
};

} // namespace folio
