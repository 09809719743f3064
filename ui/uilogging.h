#pragma once

#include <QLoggingCategory>

// The widgets' logging category: warnings and up by default; `-v` or QT_LOGGING_RULES turns the
// rest on.
namespace folio {

Q_DECLARE_LOGGING_CATEGORY(lcUi) // folio.ui: what the user selected and asked for

} // namespace folio
