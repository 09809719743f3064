#pragma once

#include "serverconfig.h"

#include <QJsonArray>
#include <QList>

namespace folio {

// The servers the window saves, read by the window (ServerListModel) and by every command
// (--server NAME): one home, so that both see the same list. Stored in the application's settings
// under "servers" as compact JSON text, in the shape other MCP clients use (ServerConfig::toJson),
// without any secret.
namespace SavedServers {

// The entries as saved; a list written by hand into the settings file is read as well.
QJsonArray entries();
QList<ServerConfig> load();
void save(const QList<ServerConfig> &configs);

} // namespace SavedServers

} // namespace folio
