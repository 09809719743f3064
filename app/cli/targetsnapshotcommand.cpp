#include "targetsnapshotcommand.h"

#include "clioutput.h"
#include "snapshottaker.h"

namespace folio {

TargetSnapshotCommand::TargetSnapshotCommand(const QString &word, const AuditOptions &audit, bool verbose,
                                             const ServerConfig &server,
                                             CliSession::KeychainToken keychainToken, QObject *parent)
    : SessionCommand(word, server, keychainToken, parent)
    , m_word(word)
    , m_audit(audit)
    , m_verbose(verbose)
    , m_server(server)
{
    connect(m_session, &CliSession::watchdogFired, this, [this](const QString &message) {
        if (m_taker && m_taker->isRunning())
            m_taker->cancel(message); // finished() says it and exits 2, keeping nothing
        else
            fail(2, message);
    });
    connect(m_session, &CliSession::ready, this, [this] {
        m_taker = new SnapshotTaker(m_session->client(), m_audit, this);
        m_taker->addSecrets(m_server.secrets());
        connect(m_taker, &SnapshotTaker::activity, m_session, &CliSession::kick);
        if (m_verbose)
            connect(m_taker, &SnapshotTaker::progress, this, [this](const QString &message) {
                printErr(QStringLiteral("folio %1: %2\n").arg(m_word, message));
            });
        connect(m_taker, &SnapshotTaker::finished, this, [this] {
            SnapshotTaker *taker = m_taker;
            m_taker = nullptr;
            taker->deleteLater(); // not from inside its own signal
            if (!taker->error().isEmpty()) {
                fail(2, taker->error());
                return;
            }
            m_snapshot = taker->snapshot();
            m_secrets = taker->secrets();
            m_complete = taker->isComplete();
            taken();
        });
        m_taker->start(m_server.displayTarget());
    });
}

std::optional<Snapshot> TargetSnapshotCommand::masked(QString *error) const
{
    return Snapshot::fromJson(m_snapshot.toJson(m_secrets), error);
}

void TargetSnapshotCommand::taken()
{
    finish(m_complete ? 0 : 1);
}

} // namespace folio
