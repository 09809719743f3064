// Snapshot::fromJson (models/snapshot.h), what reads a snapshot file from wherever it came (a
// colleague's, a CI artifact): never crashes, whatever the bytes; a refusal says why; a file it
// accepts writes back to a file it accepts again, and that file writes back byte for byte. The
// diff (models/snapshotdiff.h) reads what the reader accepts: it finds nothing between a snapshot
// and itself, and compares whatever pages one list holds with another's without a fault.
#include "fuzzcheck.h"
#include "snapshot.h"
#include "snapshotdiff.h"

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

    // (Not *s against *again: writing masks secret-looking text.)
    FUZZ_CHECK(SnapshotDiff::compare(*s, *s).isEmpty());
    Snapshot shifted = *s;
    for (qsizetype i = 0; i + 1 < shifted.lists.size(); ++i)
        shifted.lists[i].pages = s->lists.at(i + 1).pages;
    SnapshotDiff::compare(*s, shifted);
    SnapshotDiff::compare(Snapshot(), *s);
    return 0;
}
