#pragma once

#include <QObject>

namespace folio {

// What a subcommand's parse() returns when the command is to run (anything else is an exit code).
constexpr int ParseOk = -1;

// A subcommand run under the application's event loop: start() begins, finished() ends it with the
// process exit code (emitted once, after the server connection is shut down).
class Command : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    virtual void start() = 0;

Q_SIGNALS:
    void finished(int exitCode);
};

} // namespace folio
