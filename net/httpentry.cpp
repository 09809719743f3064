// The HTTP transports' entry: registers them with HttpTransports when this code is linked into a
// program, or when the application loads it as its folio-http module.
#include "httptransports.h"
#include "legacyssetransport.h"
#include "streamablehttptransport.h"

namespace folio {

namespace {
Transport *createHttpTransport(HttpTransports::Kind kind, const HttpEndpoint &endpoint)
{
    if (kind == HttpTransports::Kind::LegacySse)
        return new LegacySseTransport(endpoint);
    return new StreamableHttpTransport(endpoint);
}

[[maybe_unused]] const bool registered = [] {
    HttpTransports::registerFactory(&createHttpTransport);
    return true;
}();
} // namespace

} // namespace folio
