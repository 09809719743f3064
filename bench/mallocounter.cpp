// Counts heap allocations in the benchmark executable: malloc, calloc and realloc are wrapped around
// glibc's own entry points, so operator new and Qt's containers (which call malloc) are both seen.
#include "mallocounter.h"

#include <atomic>
#include <cstddef>

#ifndef FOLIO_BENCH_NO_MALLOC_COUNTER

extern "C" {
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *pointer, size_t size);
}

namespace {
std::atomic<long long> allocations{0};
}

extern "C" void *malloc(size_t size)
{
    allocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_malloc(size);
}

extern "C" void *calloc(size_t count, size_t size)
{
    allocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_calloc(count, size);
}

extern "C" void *realloc(void *pointer, size_t size)
{
    allocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_realloc(pointer, size);
}

namespace bench {

long long allocationCount()
{
    return allocations.load(std::memory_order_relaxed);
}

} // namespace bench

#else // sanitizers replace malloc themselves: no count

namespace bench {

long long allocationCount()
{
    return 0;
}

} // namespace bench

#endif
