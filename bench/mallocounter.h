#pragma once

namespace bench {

// Heap allocations (malloc, calloc, realloc) made by the process so far; needs mallocounter.cpp
// linked into the executable.
long long allocationCount();

} // namespace bench
