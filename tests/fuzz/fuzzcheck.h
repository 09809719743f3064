#pragma once

// What every fuzz target uses: a property check that stops the run (libFuzzer then writes the
// input to its artifact directory) and says which property failed, and the input as a view.
#include <QByteArrayView>
#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

[[noreturn]] inline void fuzzFail(const char *file, int line, const char *what, const QString &detail = {})
{
    std::fprintf(stderr, "%s:%d: property failed: %s\n", file, line, what);
    if (!detail.isEmpty())
        std::fprintf(stderr, "  %s\n", detail.toUtf8().constData());
    std::abort();
}

// FUZZ_CHECK(condition) or FUZZ_CHECK(condition, QString detail).
#define FUZZ_CHECK(condition, ...)                                                                           \
    do {                                                                                                     \
        if (!(condition))                                                                                    \
            fuzzFail(__FILE__, __LINE__, #condition __VA_OPT__(, ) __VA_ARGS__);                             \
    } while (false)

inline QByteArrayView fuzzInput(const uint8_t *data, size_t size)
{
    return QByteArrayView(reinterpret_cast<const char *>(data), qsizetype(size));
}
