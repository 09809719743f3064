#pragma once

namespace folio {

// The commit this binary was built from (`git describe --always --dirty`), "unknown" outside a
// checkout. Generated at build time by cmake/FolioBuildInfo.cmake.
const char *buildCommit();

} // namespace folio
