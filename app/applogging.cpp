#include "applogging.h"

namespace folio {

Q_LOGGING_CATEGORY(lcApp, "folio.app", QtWarningMsg)

} // namespace folio
