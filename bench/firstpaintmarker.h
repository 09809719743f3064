#pragma once

// The line bench_startup waits for on a window's stderr, printed by the probe preloaded into
// folio (firstpaintprobe.cpp) and by the Qt floor (qtfloor.cpp):
//   folio-bench: first-page-painted <CLOCK_MONOTONIC ns>
#include <chrono>
#include <cstdio>

inline void printFirstPagePainted()
{
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch());
    std::fprintf(stderr, "folio-bench: first-page-painted %lld\n", static_cast<long long>(ns.count()));
    std::fflush(stderr);
}
