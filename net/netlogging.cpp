#include "netlogging.h"

namespace folio {

Q_LOGGING_CATEGORY(lcStdio, "folio.net.stdio", QtWarningMsg)
Q_LOGGING_CATEGORY(lcHttp, "folio.net.http", QtWarningMsg)
Q_LOGGING_CATEGORY(lcRpc, "folio.net.rpc", QtWarningMsg)
Q_LOGGING_CATEGORY(lcMcp, "folio.net.mcp", QtWarningMsg)
Q_LOGGING_CATEGORY(lcSecrets, "folio.net.secrets", QtWarningMsg)

} // namespace folio
