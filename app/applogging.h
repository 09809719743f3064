#pragma once

#include <QLoggingCategory>

namespace folio {

// The application's own logging category (folio.app: start-up, the window's command line, the
// conformance client): warnings and up by default; `-v` or QT_LOGGING_RULES turns the rest on.
Q_DECLARE_LOGGING_CATEGORY(lcApp)

} // namespace folio
