#include "snapshottaker.h"

#include "clioutput.h"
#include "mcpclient.h"
#include "pagewalker.h"
#include "trafficlog.h"

#include <QDateTime>

#include <algorithm>

namespace folio {

SnapshotTaker::SnapshotTaker(const QString &word, const AuditOptions &audit, bool verbose,
                             const ServerConfig &server, CliSession::KeychainToken keychainToken,
                             QObject *parent)
    : SessionCommand(word, server, keychainToken, parent)
    , m_word(word)
    , m_audit(audit)
    , m_verbose(verbose)
    , m_server(server)
{
    m_audit.probe = false;
    connect(m_session, &CliSession::watchdogFired, this, [this](const QString &message) {
        if (m_auditor && m_auditor->isRunning())
            m_auditor->cancel(message); // finished() says it and exits 2, keeping nothing
        else
            fail(2, message);
    });
    connect(m_session, &CliSession::ready, this, [this] {
        m_snapshot.takenAtMs = QDateTime::currentMSecsSinceEpoch();
        m_auditor = new Auditor(m_session->client(), m_audit, this);
        connect(m_auditor, &Auditor::activity, m_session, &CliSession::kick);
        connect(m_auditor, &Auditor::listWalked, this, [this](const QString &, PageWalker *walker) {
            m_snapshot.lists.append(Snapshot::List::fromWalker(*walker));
        });
        if (m_verbose)
            connect(m_auditor, &Auditor::progress, this, [this](const QString &message) {
                printErr(QStringLiteral("folio %1: %2\n").arg(m_word, message));
            });
        connect(m_auditor, &Auditor::finished, this, &SnapshotTaker::collect);
        m_auditor->start();
    });
}

std::optional<Snapshot> SnapshotTaker::masked(QString *error) const
{
    return Snapshot::fromJson(m_snapshot.toJson(m_secrets), error);
}

void SnapshotTaker::taken()
{
    finish(m_complete ? 0 : 1);
}

void SnapshotTaker::collect()
{
    const AuditResult &result = m_auditor->result();
    if (!result.aborted.isEmpty()) {
        fail(2, result.aborted);
        return;
    }
    const McpClient *client = m_session->client();
    Snapshot &s = m_snapshot;
    s.takenFrom = m_server.displayTarget();
    s.revision = client->protocolVersion();
    s.transport = client->transportName();
    s.serverInfo = client->serverInfo();
    s.capabilities = client->capabilities();
    s.instructions = client->instructions();
    // In the audit's order of lists (protocol lists, then list tools); those not walked say why.
    QList<Snapshot::List> lists;
    bool complete = true;
    for (const AuditedList &audited : result.lists) {
        if (audited.id == QLatin1String("server/discover")) {
            s.findings = Finding::toJson(audited.findings);
            continue;
        }
        const auto walked = std::find_if(s.lists.cbegin(), s.lists.cend(),
                                         [&](const Snapshot::List &l) { return l.id == audited.id; });
        lists.append(walked != s.lists.cend() ? *walked : Snapshot::List::fromAudited(audited));
        complete = complete && (walked == s.lists.cend() || walked->complete);
    }
    s.lists = lists;
    m_complete = complete;
    m_secrets = client->trafficLog()->secrets() + m_server.secrets();
    taken();
}

} // namespace folio
