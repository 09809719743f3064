// Snapshot::fromJson (models/snapshot.h), what reads a snapshot file from wherever it came (a
// colleague's, a CI artifact): never crashes, whatever the bytes; a refusal says why; a file it
// accepts writes back to a file it accepts again, and that file writes back byte for byte.
#include "fuzzcheck.h"
#include "snapshot.h"

using namespace folio;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = fuzzInput(data, size).toByteArray();
    QString error;
    const std::optional<Snapshot> s = Snapshot::fromJson(input, &error);
    if (!s) {
        FUZZ_CHECK(!error.isEmpty());
        return 0;
    }
    const QByteArray written = s->toJson();
    const std::optional<Snapshot> again = Snapshot::fromJson(written, &error);
    FUZZ_CHECK(again.has_value(), error);
    FUZZ_CHECK(again->lists.size() == s->lists.size());
    for (qsizetype i = 0; i < s->lists.size(); ++i)
        FUZZ_CHECK(again->lists.at(i).itemCount() == s->lists.at(i).itemCount(), QString::number(i));
    FUZZ_CHECK(again->toJson() == written);
    return 0;
}
