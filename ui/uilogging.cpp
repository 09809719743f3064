#include "uilogging.h"

namespace folio {

Q_LOGGING_CATEGORY(lcUi, "folio.ui", QtWarningMsg)

} // namespace folio
