// Measures what 10,000 live page TTLs cost while nothing expires: the budget is under 1% of
// one core. Usage: bench_ttlclock [keys] [idle seconds]
#include "benchcpu.h"
#include "ttlclock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int keys = args.size() > 1 ? args.at(1).toInt() : 10'000;
    const int idleSeconds = args.size() > 2 ? args.at(2).toInt() : 10;

    folio::TtlClock clock;
    int expiredKeys = 0;
    QObject::connect(&clock, &folio::TtlClock::expired, &app,
                     [&expiredKeys](const QList<quint64> &expired) { expiredKeys += int(expired.size()); });

    // Deadlines between one hour and one year ahead, as pages with long TTLs would have.
    QElapsedTimer scheduling;
    scheduling.start();
    const double cpuBeforeScheduling = bench::cpuSeconds();
    const qint64 now = clock.nowMs();
    for (int i = 0; i < keys; ++i) {
        const qint64 ttl = 3'600'000LL + (qint64(i) * 7919 % keys) * 3'153'600LL;
        clock.schedule(quint64(i), folio::TtlClock::deadlineFor(now, ttl));
    }
    const double schedulingCpuMs = (bench::cpuSeconds() - cpuBeforeScheduling) * 1000;
    const qint64 schedulingWallMs = scheduling.elapsed();

    QElapsedTimer wall;
    wall.start();
    const double cpuBefore = bench::cpuSeconds();
    QTimer::singleShot(idleSeconds * 1000, Qt::PreciseTimer, &app, &QCoreApplication::quit);
    app.exec();
    const double cpuUsed = bench::cpuSeconds() - cpuBefore;
    const double wallSeconds = double(wall.elapsed()) / 1000;

    std::printf("keys scheduled:        %d (in %lld ms wall, %.1f ms CPU)\n", clock.scheduledCount(),
                static_cast<long long>(schedulingWallMs), schedulingCpuMs);
    std::printf("idle event loop:       %.2f s wall, %.4f s CPU\n", wallSeconds, cpuUsed);
    std::printf("CPU while idle:        %.3f%% of one core (target < 1%%)\n", 100.0 * cpuUsed / wallSeconds);
    std::printf("keys expired meanwhile: %d\n", expiredKeys);
    return 0;
}
