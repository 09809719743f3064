// LineFramer (net/lineframer.h), the stdio transport's framing: the same frames and the same count
// of dropped lines whatever the chunking, every frame within the cap, and both equal to a plain
// split of the whole stream at '\n'. Bytes from the input's end choose the cap (1..64 bytes, so
// that lines over it are common) and where the stream is split.
#include "fuzzchunks.h"
#include "lineframer.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <vector>

using namespace folio;

namespace {

struct Outcome
{
    QList<QByteArray> lines;
    qint64 oversized = 0;
    qsizetype pending = 0;
};

Outcome run(QByteArrayView stream, qint64 max, const std::vector<qsizetype> &cuts)
{
    LineFramer framer(max);
    Outcome out;
    qsizetype from = 0;
    auto feed = [&](QByteArrayView chunk) {
        LineFramer::Result r = framer.feed(chunk);
        out.lines += r.lines;
        out.oversized += r.oversizedLines;
        FUZZ_CHECK(framer.pendingBytes() <= max);
    };
    for (const qsizetype cut : cuts) {
        feed(stream.sliced(from, cut - from));
        from = cut;
    }
    feed(stream.sliced(from));
    out.pending = framer.pendingBytes();
    return out;
}

// What the header says: complete lines, CR stripped, blank lines skipped, lines over the cap
// (counted with their CR) dropped and counted.
Outcome reference(QByteArrayView stream, qint64 max)
{
    Outcome out;
    qsizetype from = 0;
    for (;;) {
        const qsizetype nl = stream.indexOf('\n', from);
        if (nl < 0)
            break;
        QByteArray line = stream.sliced(from, nl - from).toByteArray();
        if (line.size() > max) {
            ++out.oversized;
        } else {
            if (line.endsWith('\r'))
                line.chop(1);
            if (!line.trimmed().isEmpty())
                out.lines.append(line);
        }
        from = nl + 1;
    }
    const qsizetype tail = stream.size() - from;
    out.pending = tail > max ? 0 : tail;
    return out;
}

void compare(const Outcome &a, const Outcome &b)
{
    FUZZ_CHECK(a.lines == b.lines);
    FUZZ_CHECK(a.oversized == b.oversized, QStringLiteral("%1 and %2").arg(a.oversized).arg(b.oversized));
    FUZZ_CHECK(a.pending == b.pending, QStringLiteral("%1 and %2").arg(a.pending).arg(b.pending));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzedDataProvider provider(data, size);
    const qint64 max = provider.ConsumeIntegralInRange<qint64>(1, 64);
    const ChunkedInput in = consumeChunkedInput(provider);
    const QByteArrayView stream = in.stream();
    const std::vector<qsizetype> &cuts = in.cuts;

    const Outcome whole = run(stream, max, {});
    for (const QByteArray &line : whole.lines)
        FUZZ_CHECK(line.size() <= max && !line.contains('\n') && !line.trimmed().isEmpty());
    compare(whole, reference(stream, max));
    compare(whole, run(stream, max, cuts));
    std::vector<qsizetype> everyByte;
    for (qsizetype i = 1; i < stream.size(); ++i)
        everyByte.push_back(i);
    compare(whole, run(stream, max, everyByte));
    return 0;
}
