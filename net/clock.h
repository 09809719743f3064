#pragma once

#include <QtGlobal>

#include <memory>

namespace folio {

// What time it is for a connection: the machine's clocks, or a replayed recording's. Requests
// (sent, received, latency), the traffic log and the pages' TTL clocks read it, so that a replay
// shows the times that were recorded rather than the time it is replayed at.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual qint64 wallMs() const = 0; // ms since the epoch
    virtual qint64 monoMs() const = 0; // monotonic ms (an arbitrary origin)

    // The machine's: QDateTime's wall clock and QElapsedTimer's monotonic one.
    static std::shared_ptr<const Clock> system();
};

} // namespace folio
