#include "clilogging.h"

namespace folio {

Q_LOGGING_CATEGORY(lcCli, "folio.cli", QtWarningMsg)

} // namespace folio
