#pragma once

#include "transport.h"

#include <QTimer>

namespace testsupport {

// A server in this process behind the Transport seam: open() and close() take effect at once and
// are announced on a later turn of the event loop, as they would be by a server in another process.
// What comes back is the subclass's to hand up, while isOpen(). Shared by the model tests'
// ScriptedTransport and the benchmarks' BenchTransport.
class InProcessTransport : public folio::Transport
{
public:
    using folio::Transport::Transport;

    void open() override
    {
        m_open = true;
        QTimer::singleShot(0, this, [this] { Q_EMIT opened(); });
    }
    void close() override
    {
        m_open = false;
        QTimer::singleShot(0, this, [this] { Q_EMIT closed({}); });
    }
    bool isOpen() const override { return m_open; }

private:
    bool m_open = false;
};

} // namespace testsupport
