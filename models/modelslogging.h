#pragma once

#include <QLoggingCategory>

// The models layer's logging categories: warnings and up by default; `-v` or QT_LOGGING_RULES turns
// the rest on.
namespace folio {

Q_DECLARE_LOGGING_CATEGORY(lcWalk)    // folio.models.walk: paging through a list
Q_DECLARE_LOGGING_CATEGORY(lcAudit)   // folio.models.audit: the audit's steps and probes
Q_DECLARE_LOGGING_CATEGORY(lcSession) // folio.models.session: a server's connection and its lists
Q_DECLARE_LOGGING_CATEGORY(lcServers) // folio.models.servers: the saved servers and imports

} // namespace folio
