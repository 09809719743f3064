#include "modelslogging.h"

namespace folio {

Q_LOGGING_CATEGORY(lcWalk, "folio.models.walk", QtWarningMsg)
Q_LOGGING_CATEGORY(lcAudit, "folio.models.audit", QtWarningMsg)
Q_LOGGING_CATEGORY(lcSession, "folio.models.session", QtWarningMsg)
Q_LOGGING_CATEGORY(lcServers, "folio.models.servers", QtWarningMsg)

} // namespace folio
