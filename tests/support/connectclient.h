#pragma once

#include "mcpclient.h"
#include "mcperror.h"

#include <QDeadlineTimer>
#include <QSignalSpy>

namespace testsupport {

// Connects the client (on the config it has) and waits up to timeoutMs for it to connect or give up:
// whether it connected. On failure *why, when given, says what happened.
inline bool connectClient(folio::McpClient &client, int timeoutMs, QString *why = nullptr)
{
    QSignalSpy connected(&client, &folio::McpClient::connected);
    QSignalSpy disconnected(&client, &folio::McpClient::disconnected);
    client.connectToServer();
    const QDeadlineTimer deadline(timeoutMs);
    while (connected.isEmpty() && disconnected.isEmpty() && !deadline.hasExpired())
        connected.wait(int(qBound(qint64(1), deadline.remainingTime(), qint64(50))));
    if (!connected.isEmpty())
        return true;
    if (why)
        *why = disconnected.isEmpty()
                   ? QStringLiteral("no answer within %1 ms").arg(timeoutMs)
                   : disconnected.constFirst().constFirst().value<folio::McpError>().describe();
    return false;
}

} // namespace testsupport
