#pragma once

#include <QLoggingCategory>

namespace folio {

// The subcommands' logging category (folio.cli): warnings and up by default.
Q_DECLARE_LOGGING_CATEGORY(lcCli)

} // namespace folio
