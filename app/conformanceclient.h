#pragma once

#include <QStringList>

namespace folio {

// `folio conformance-client [-v] URL`: the headless entry point the official conformance harness runs.
// It reads MCP_CONFORMANCE_SCENARIO and drives Folio's real client through that scenario.
int runConformanceClient(const QStringList &arguments);

} // namespace folio
