// SseParser (net/sseparser.h): the same events, last event id and retry whatever the chunking.
// The input is the stream; a few bytes taken from its end choose where it is split. The stream
// is fed whole, in those chunks, and a byte at a time, and the three must agree in everything.
#include "fuzzchunks.h"
#include "sseparser.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <QList>

#include <algorithm>
#include <vector>

using namespace folio;

namespace {

struct Outcome
{
    QList<SseEvent> events;
    QByteArray lastEventId;
    std::optional<int> retryMs;
    qsizetype buffered = 0;
};

bool operator==(const SseEvent &a, const SseEvent &b)
{
    return a.event == b.event && a.data == b.data && a.id == b.id && a.retryMs == b.retryMs;
}

Outcome run(QByteArrayView stream, const std::vector<qsizetype> &cuts)
{
    SseParser parser;
    Outcome out;
    qsizetype from = 0;
    for (const qsizetype cut : cuts) {
        out.events += parser.feed(stream.sliced(from, cut - from));
        from = cut;
    }
    out.events += parser.feed(stream.sliced(from));
    out.lastEventId = parser.lastEventId();
    out.retryMs = parser.retryMs();
    out.buffered = parser.bufferedBytes();
    return out;
}

void compare(const Outcome &a, const Outcome &b)
{
    FUZZ_CHECK(a.events.size() == b.events.size());
    for (qsizetype i = 0; i < a.events.size(); ++i)
        FUZZ_CHECK(a.events[i] == b.events[i], QStringLiteral("event %1").arg(i));
    FUZZ_CHECK(a.lastEventId == b.lastEventId);
    FUZZ_CHECK(a.retryMs == b.retryMs);
    FUZZ_CHECK(a.buffered == b.buffered);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzedDataProvider provider(data, size);
    const ChunkedInput in = consumeChunkedInput(provider);
    const QByteArrayView stream = in.stream();
    const std::vector<qsizetype> &cuts = in.cuts;

    const Outcome whole = run(stream, {});
    compare(whole, run(stream, cuts));
    std::vector<qsizetype> everyByte;
    for (qsizetype i = 1; i < stream.size(); ++i)
        everyByte.push_back(i);
    compare(whole, run(stream, everyByte));

    for (const SseEvent &event : whole.events) {
        FUZZ_CHECK(!event.event.isEmpty());
        FUZZ_CHECK(!event.id.contains('\0'));
        FUZZ_CHECK(!event.event.contains('\n') && !event.event.contains('\r') && !event.data.contains('\r'));
        FUZZ_CHECK(!event.retryMs || *event.retryMs >= 0);
    }
    FUZZ_CHECK(whole.buffered <= stream.size());
    return 0;
}
