#pragma once

#include <QLoggingCategory>

// The net layer's logging categories. Each logs warnings and up by default, so a normal run prints
// nothing; `-v` or QT_LOGGING_RULES (e.g. "folio.net.rpc.debug=true") turns the rest on.
namespace folio {

Q_DECLARE_LOGGING_CATEGORY(lcStdio)   // folio.net.stdio: the server process, its exit and stderr
Q_DECLARE_LOGGING_CATEGORY(lcHttp)    // folio.net.http: requests, statuses, sessions, SSE streams
Q_DECLARE_LOGGING_CATEGORY(lcRpc)     // folio.net.rpc: JSON-RPC requests, answers, latencies
Q_DECLARE_LOGGING_CATEGORY(lcMcp)     // folio.net.mcp: the handshake and the revision negotiated
Q_DECLARE_LOGGING_CATEGORY(lcSecrets) // folio.net.secrets: the keychain (never a secret itself)

} // namespace folio
