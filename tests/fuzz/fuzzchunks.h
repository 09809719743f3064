#pragma once

// The input of the targets that check a parser gives the same answer however its stream is cut:
// up to 8 cut points, then the stream. FuzzedDataProvider takes integers from the input's end, so
// the front of a seed stays the stream as written.
#include "fuzzcheck.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <vector>

struct ChunkedInput
{
    std::vector<uint8_t> bytes;
    std::vector<qsizetype> cuts; // sorted offsets into bytes, 0 to bytes.size()
    QByteArrayView stream() const { return fuzzInput(bytes.data(), bytes.size()); }
};

inline ChunkedInput consumeChunkedInput(FuzzedDataProvider &provider)
{
    const int cutCount = provider.ConsumeIntegralInRange<int>(0, 8);
    std::vector<size_t> raw;
    for (int i = 0; i < cutCount; ++i)
        raw.push_back(provider.ConsumeIntegral<uint16_t>());
    ChunkedInput in;
    in.bytes = provider.ConsumeRemainingBytes<uint8_t>();
    for (const size_t r : raw)
        in.cuts.push_back(qsizetype(r % (in.bytes.size() + 1)));
    std::sort(in.cuts.begin(), in.cuts.end());
    return in;
}
