#include "clock.h"

#include <QDateTime>
#include <QElapsedTimer>

namespace folio {

namespace {
class SystemClock final : public Clock
{
public:
    qint64 wallMs() const override { return QDateTime::currentMSecsSinceEpoch(); }
    // The clock TtlClock's default source reads: QElapsedTimer's reference.
    qint64 monoMs() const override
    {
        QElapsedTimer timer;
        timer.start();
        return timer.msecsSinceReference();
    }
};
} // namespace

std::shared_ptr<const Clock> Clock::system()
{
    static const std::shared_ptr<const Clock> clock = std::make_shared<SystemClock>();
    return clock;
}

} // namespace folio
