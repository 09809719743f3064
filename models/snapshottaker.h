#pragma once

#include "auditor.h"
#include "snapshot.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

namespace folio {

class McpClient;

// Takes a Snapshot of a connected client's server: every list and list tool walked to its end by
// the Auditor with no probe and no second walk (AuditOptions::probe is forced off), then the
// server's description, in the audit's order of lists. The one way a snapshot is taken: by
// `folio snapshot` and by the window's File > Save Snapshot. It writes nothing; snapshot() and
// secrets() are for Snapshot::save().
class SnapshotTaker : public QObject
{
    Q_OBJECT
public:
    SnapshotTaker(McpClient *client, AuditOptions options, QObject *parent = nullptr);

    // The client must be connected. finished() follows, also when the walks cannot start.
    void start(const QString &takenFrom);
    // Stops where it is: finished() follows with error() set and no snapshot.
    void cancel(const QString &reason);
    bool isRunning() const;

    // After finished(): why there is no snapshot ("" when there is one).
    QString error() const { return m_error; }
    const Snapshot &snapshot() const { return m_snapshot; }
    // Every list was walked to its end (none stopped at a failed page or a cap).
    bool isComplete() const { return m_complete; }
    // The strings a written snapshot must mask: what the client's traffic log knows as secret,
    // and those added (a server's configured secrets).
    QStringList secrets() const { return m_secrets; }
    void addSecrets(const QStringList &secrets) { m_secrets += secrets; }

Q_SIGNALS:
    // What it is doing now ("tools: page 3"), for a status line.
    void progress(const QString &message);
    // A page answered (the command line's watchdog listens).
    void activity();
    void finished();

private:
    void collect();

    McpClient *m_client;
    AuditOptions m_options;
    QPointer<Auditor> m_auditor;
    Snapshot m_snapshot;
    QList<Snapshot::List> m_walked;
    QStringList m_secrets;
    QString m_error;
    bool m_complete = false;
};

} // namespace folio
