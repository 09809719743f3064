#include "clilogging.h"

namespace folio {

Q_LOGGING_CATEGORY(lcCli, "folio.cli", QtWarningMsg)

void enableVerboseLogging()
{
    QLoggingCategory::setFilterRules(QStringLiteral("folio.*=true"));
}

} // namespace folio
