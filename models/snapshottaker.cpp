#include "snapshottaker.h"

#include "mcpclient.h"
#include "pagewalker.h"
#include "trafficlog.h"

#include <QDateTime>

#include <algorithm>

namespace folio {

SnapshotTaker::SnapshotTaker(McpClient *client, AuditOptions options, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_options(std::move(options))
{
    m_options.probe = false;
}

void SnapshotTaker::start(const QString &takenFrom)
{
    if (isRunning())
        return;
    m_snapshot = Snapshot();
    m_walked.clear();
    m_error.clear();
    m_complete = false;
    m_snapshot.takenFrom = takenFrom;
    m_snapshot.takenAtMs = QDateTime::currentMSecsSinceEpoch();
    m_auditor = new Auditor(m_client, m_options, this);
    connect(m_auditor, &Auditor::progress, this, &SnapshotTaker::progress);
    connect(m_auditor, &Auditor::activity, this, &SnapshotTaker::activity);
    connect(m_auditor, &Auditor::listWalked, this, [this](const QString &, PageWalker *walker) {
        m_walked.append(Snapshot::List::fromWalker(*walker));
    });
    connect(m_auditor, &Auditor::finished, this, &SnapshotTaker::collect);
    m_auditor->start();
}

void SnapshotTaker::cancel(const QString &reason)
{
    if (m_auditor && m_auditor->isRunning())
        m_auditor->cancel(reason); // finished() follows, with the reason as the audit's "aborted"
}

bool SnapshotTaker::isRunning() const
{
    return m_auditor && m_auditor->isRunning();
}

void SnapshotTaker::collect()
{
    Auditor *auditor = m_auditor;
    m_auditor = nullptr;
    auditor->deleteLater(); // not from inside its own signal
    const AuditResult &result = auditor->result();
    if (!result.aborted.isEmpty()) {
        m_error = result.aborted;
        m_snapshot = Snapshot();
        Q_EMIT finished();
        return;
    }
    Snapshot &s = m_snapshot;
    s.revision = m_client->protocolVersion();
    s.transport = m_client->transportName();
    s.serverInfo = m_client->serverInfo();
    s.capabilities = m_client->capabilities();
    s.instructions = m_client->instructions();
    // In the audit's order of lists (protocol lists, then list tools); those not walked say why.
    m_complete = true;
    for (const AuditedList &audited : result.lists) {
        if (audited.id == QLatin1String("server/discover")) {
            s.findings = Finding::toJson(audited.findings);
            continue;
        }
        const auto walked = std::find_if(m_walked.cbegin(), m_walked.cend(),
                                         [&](const Snapshot::List &l) { return l.id == audited.id; });
        s.lists.append(walked != m_walked.cend() ? *walked : Snapshot::List::fromAudited(audited));
        m_complete = m_complete && (walked == m_walked.cend() || walked->complete);
    }
    m_walked.clear();
    m_secrets += m_client->trafficLog()->secrets();
    Q_EMIT finished();
}

} // namespace folio
