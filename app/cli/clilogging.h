#pragma once

#include <QLoggingCategory>

namespace folio {

// The subcommands' logging category (folio.cli): warnings and up by default.
Q_DECLARE_LOGGING_CATEGORY(lcCli)

// `-v` / `--verbose`, for the window and every subcommand: turns on every level of every folio.*
// category. QT_LOGGING_RULES is applied after these rules by Qt, so where it names a category it
// wins (QT_LOGGING_RULES="folio.net.rpc.debug=false" quiets one category of a verbose run).
void enableVerboseLogging();

// The one Qt message handler of the window and every subcommand; call once, first thing in main().
// Every log line is masked (SecretMask::maskLogLine(): the secrets this process knows, and secret
// items of the URLs in it), then passes terminalSafe(), before Qt's handler writes it.
void installMessageHandler();

} // namespace folio
