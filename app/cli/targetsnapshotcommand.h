#pragma once

#include "auditor.h"
#include "clisession.h"
#include "command.h"
#include "serverconfig.h"
#include "snapshot.h"

#include <QPointer>
#include <QStringList>

#include <optional>

namespace folio {

class SnapshotTaker;

// A command that takes a Snapshot of its target, a server or a recording replayed: connects, and
// has a SnapshotTaker (models/snapshottaker.h) walk every list and list tool to its end with no
// probe, under the command line's watchdog. What `folio snapshot` writes and what `folio diff`
// compares for a live side. taken() says what happens then; by default the command ends (0: every
// list walked to its end, 1: one stopped short; 2 when the server could not be reached or the
// walk was cut short).
class TargetSnapshotCommand : public SessionCommand
{
    Q_OBJECT
public:
    // The server and how to walk it. word: the command as its messages name it ("snapshot").
    TargetSnapshotCommand(const QString &word, const AuditOptions &audit, bool verbose,
                          const ServerConfig &server, CliSession::KeychainToken keychainToken,
                          QObject *parent = nullptr);

    // As taken: not masked yet (toJson(secrets()) masks it).
    const Snapshot &snapshot() const { return m_snapshot; }
    // What to mask in it: the traffic's secrets and the target's.
    QStringList secrets() const { return m_secrets; }
    // The snapshot masked, read back as a file of it would be; nothing, and why in *error, when
    // the reader refuses it (larger than a file may be).
    std::optional<Snapshot> masked(QString *error) const;
    // Every list that was walked reached its end.
    bool isComplete() const { return m_complete; }

protected:
    // The walk is done: snapshot(), secrets() and isComplete() hold it.
    virtual void taken();

private:
    QString m_word;
    AuditOptions m_audit;
    bool m_verbose = false;
    ServerConfig m_server;
    QPointer<SnapshotTaker> m_taker;
    Snapshot m_snapshot;
    QStringList m_secrets;
    bool m_complete = false;
};

} // namespace folio
