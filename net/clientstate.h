#pragma once

#include <QObject>

namespace folio {

Q_NAMESPACE

// Where a client's connection is: a plain value that the window and the models read
// (ServerSession::state(), the server list's StateRole) without speaking the protocol.
// McpClient::State is this type.
enum class ClientState { Disconnected, Connecting, Connected, Failed };
Q_ENUM_NS(ClientState)

} // namespace folio
