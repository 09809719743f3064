#include "serversession.h"

#include "auditor.h"
#include "definitionbaseline.h"
#include "modelslogging.h"
#include "pagedlistmodel.h"
#include "replaytransport.h"
#include "resourcereads.h"
#include "secretstore.h"
#include "serverhistory.h"
#include "signinstore.h"
#include "snapshottaker.h"
#include "taskboard.h"
#include "toolcatalog.h"
#include "trafficlog.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace folio {

namespace {
QString listIds(const QList<ListSource> &lists)
{
    QStringList ids;
    for (const ListSource &l : lists)
        ids.append(l.id());
    return ids.join(QStringLiteral(", "));
}
} // namespace

ServerSession::ServerSession(const ServerConfig &config, TtlClock *clock, SecretStore *secrets,
                             QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_clock(clock)
    , m_secrets(secrets)
    , m_client(new McpClient(this))
{
    if (m_config.isReplay()) {
        // The recording is read now (a damaged file fails the connect, saying why), and its pages
        // count down on its own clock, never on the shared one.
        m_client->setConfig(m_config);
        m_clock = new TtlClock(this);
        m_clock->followReplay(m_client);
        if (const auto replay = m_client->replayClock()) {
            replay->setPace(ReplayClock::Pace::Recorded);
            connect(replay.get(), &ReplayClock::playingChanged, this, [this](bool playing) {
                const auto clock = m_client->replayClock();
                m_replayPaused = !playing && clock && clock->nowMs() < clock->durationMs();
            });
        }
    } else {
        // File > Save Session saves what the connection carried.
        m_client->setRecording(true);
    }
    m_reads = new ResourceReads(m_client, m_clock, this);
    connect(m_reads, &ResourceReads::findingsChanged, this, &ServerSession::findingsChanged);
    m_tasks = new TaskBoard(m_client, m_clock, this);
    connect(m_tasks, &TaskBoard::findingsChanged, this, &ServerSession::findingsChanged);
    connect(m_client, &McpClient::stateChanged, this, &ServerSession::stateChanged);
    connect(m_client, &McpClient::connected, this, &ServerSession::handleConnected);
    connect(m_client, &McpClient::strayOutput, this, [this](const QString &line) {
        Q_EMIT error(tr("%1 wrote a line on stdout that is not JSON-RPC: \"%2\" (its logs belong on stderr)")
                         .arg(m_config.name, line));
    });
    updateSignIn();
}

void ServerSession::updateSignIn()
{
    const bool wanted = m_config.canSignIn();
    SignInStore *before = m_signIn;
    if (m_signIn && (!wanted || m_signIn->serverUrl() != m_config.url)) {
        m_client->setAuthorizer(nullptr);
        delete m_signIn;
        m_signIn = nullptr;
    }
    if (wanted && !m_signIn) {
        m_signIn = new SignInStore(m_config.url, m_secrets, this);
        m_signIn->authorizer()->setBrowser(m_signInBrowser);
        m_client->setAuthorizer(m_signIn->authorizer());
        connect(m_signIn, &SignInStore::changed, this, &ServerSession::signInStateChanged);
    }
    if (m_signIn != before) {
        Q_EMIT signInChanged();
        Q_EMIT signInStateChanged();
    }
}

ServerSession::~ServerSession()
{
    delete m_auditor; // before the client it talks to
    // A replay's TTL clock is a child made after the client: the walkers unschedule their pages
    // from it as they go, so they go first.
    qDeleteAll(m_models);
    m_models.clear();
    delete m_reads; // it unschedules its reads from the clock too
    delete m_tasks;
}

void ServerSession::setSignInBrowser(std::function<void(const QUrl &)> browser)
{
    m_signInBrowser = std::move(browser);
    if (m_signIn)
        m_signIn->authorizer()->setBrowser(m_signInBrowser);
}

void ServerSession::setConfig(const ServerConfig &config)
{
    m_config = config;
    updateSignIn();
}

QString ServerSession::displayName() const
{
    if (m_config.nameFromServer && m_client->state() == McpClient::State::Connected) {
        const QJsonObject info = m_client->serverInfo();
        for (const char *key : {"title", "name"}) {
            const QString said = info.value(QLatin1String(key)).toString().simplified();
            if (!said.isEmpty())
                return said.left(80);
        }
    }
    return m_config.name;
}

QString ServerSession::stateText() const
{
    switch (m_client->state()) {
    case McpClient::State::Disconnected:
        return tr("disconnected");
    case McpClient::State::Connecting:
        return tr("connecting…");
    case McpClient::State::Connected:
        return (isReplay() ? tr("replaying · %1 · %2") : tr("connected · %1 · %2"))
            .arg(m_client->protocolVersion(), m_client->transportName());
    case McpClient::State::Failed:
        return tr("failed: %1").arg(m_client->lastError().describe());
    }
    return {};
}

TrafficLog *ServerSession::trafficLog() const
{
    return m_client->trafficLog();
}

SessionRecording ServerSession::recording() const
{
    return m_client->recording();
}

InputResponder *ServerSession::inputResponder() const
{
    return m_client->inputResponder();
}

void ServerSession::setInputResponder(InputResponder *responder)
{
    m_client->setInputResponder(responder);
}

void ServerSession::connectToServer()
{
    if (m_client->state() == McpClient::State::Connecting || m_client->state() == McpClient::State::Connected)
        return;
    if (m_signIn && !m_signIn->isLoaded()) {
        // The saved sign-in first: its token goes on the first request.
        m_signIn->load([this] { connectWithSecrets(); });
        return;
    }
    connectWithSecrets();
}

void ServerSession::connectWithSecrets()
{
    // The keychain's secrets (the token, secret environment values) are read at connect time only
    // and never kept in m_config; those the keychain refused are held there for this session.
    fillSecrets(m_secrets, m_config, this, [this](const ServerConfig &config, const QList<SecretGap> &gaps) {
        for (const SecretGap &gap : gaps) {
            qCInfo(lcSession).noquote()
                << config.name + QLatin1Char(':') << "connecting without:" << gap.message;
            Q_EMIT error(gap.message);
        }
        m_client->setConfig(config);
        m_client->connectToServer();
        if (const auto replay = m_client->replayClock(); replay && !m_replayPaused)
            replay->play();
    });
}

std::shared_ptr<ReplayClock> ServerSession::replayClock() const
{
    return m_client->replayClock();
}

std::shared_ptr<const SessionRecording> ServerSession::replayRecording() const
{
    return m_client->replayRecording();
}

void ServerSession::replayFrom(qint64 t)
{
    const auto replay = m_client->replayClock();
    if (!replay)
        return;
    m_client->disconnectFromServer();
    connectToServer(); // from the start
    replay->seekForward(t);
}

void ServerSession::disconnectFromServer()
{
    m_client->disconnectFromServer();
}

void ServerSession::handleConnected()
{
    // Lists from an earlier connection belong to a session that is gone: start afresh (its audit
    // too).
    qDeleteAll(m_models);
    m_models.clear();
    m_lists.clear();
    m_reads->clear();
    m_tasks->clear();
    if (m_auditor)
        cancelAudit(tr("the server reconnected"));
    clearAuditResult();
    m_driftDone = false;
    m_historyDone = false;
    m_driftChanges.clear();
    m_driftFindings.clear();
    const QJsonObject caps = m_client->capabilities();
    const bool advertisesNone = !caps.contains(QStringLiteral("tools")) &&
                                !caps.contains(QStringLiteral("prompts")) &&
                                !caps.contains(QStringLiteral("resources"));
    if (advertisesNone || caps.contains(QStringLiteral("tools")))
        m_lists.append(ListSource::protocol(ListKind::Tools));
    if (advertisesNone || caps.contains(QStringLiteral("prompts")))
        m_lists.append(ListSource::protocol(ListKind::Prompts));
    if (advertisesNone || caps.contains(QStringLiteral("resources"))) {
        m_lists.append(ListSource::protocol(ListKind::Resources));
        m_lists.append(ListSource::protocol(ListKind::ResourceTemplates));
    }
    // The extensions' lists the server offers (tasks/list, skills/list), after the protocol's.
    for (const QString &name : ListSource::extensionNames()) {
        const std::optional<ListSource> extension = ListSource::extension(name);
        if (extension && extension->unavailableOn(m_client).isEmpty())
            m_lists.append(*extension);
    }
    // Ask for the tools first (they are also scanned for list tools): the server works on the
    // page while the views for the lists are built.
    qCDebug(lcSession).noquote() << m_config.name + QLatin1Char(':') << "lists" << listIds(m_lists)
                                 << (advertisesNone ? "(the server advertises no capabilities: all four)"
                                                    : "");
    if (advertisesNone || caps.contains(QStringLiteral("tools")))
        discoverListTools();
    m_client->listenForListChanges();
    Q_EMIT listsChanged();
    walkOnConnect(m_lists);
}

void ServerSession::walkOnConnect(const QList<ListSource> &lists)
{
    if (m_walkOnConnect == WalkOnConnect::OnDemand)
        return;
    QList<QPointer<PagedListModel>> models;
    for (const ListSource &source : lists) {
        if (source.kind() == ListSource::Kind::Tool) {
            // A tools/call the user did not ask for: only one that says it changes nothing and
            // needs nothing but its paging arguments.
            if (!source.isReadOnly())
                continue;
            // One whose schema says it needs arguments waits for the user (its tab says what).
            if (!source.argumentsNeeded().isEmpty())
                continue;
        }
        if (PagedListModel *model = listModel(source.id()))
            models.append(model);
    }
    if (models.isEmpty())
        return;
    const bool whole = m_walkOnConnect == WalkOnConnect::Whole;
    auto walk = [whole](PagedListModel *model) {
        if (!model)
            return;
        if (whole)
            model->walker()->fetchAll();
        else
            model->walker()->start();
    };
    // The first list is the one on screen: its first page is asked for alone, and the others once
    // it has answered (or failed) and that answer has been drawn, so that no other list's page is
    // read before it. The lists are all walked just as before, one round trip later.
    walk(models.constFirst());
    if (models.size() == 1)
        return;
    const QList<QPointer<PagedListModel>> rest = models.mid(1);
    auto released = std::make_shared<bool>(false);
    auto release = [this, released, rest, walk] {
        if (std::exchange(*released, true))
            return;
        QTimer::singleShot(0, this, [rest, walk] {
            for (const QPointer<PagedListModel> &model : rest)
                walk(model);
        });
    };
    PageWalker *first = models.constFirst()->walker();
    if (first->rows()->rowCount() > 0 || !first->isLoading()) {
        release(); // it answered already (a list walked before), or it did not start
        return;
    }
    connect(first, &PageWalker::pageAccepted, this, release);
    connect(first, &PageWalker::pageFailed, this, release);
    connect(first, &PageWalker::walkFinished, this, release);
}

int ServerSession::findingCount() const
{
    int n = 0;
    for (const QString &id : findingListIds())
        n += int(findings(id).size());
    return n;
}

Finding::Severity ServerSession::worstSeverity() const
{
    Finding::Severity worst = Finding::Severity::Info;
    for (const QString &id : findingListIds()) {
        for (const Finding &f : findings(id)) {
            if (f.severity == Finding::Severity::Error)
                return f.severity;
            if (f.severity == Finding::Severity::Warning)
                worst = f.severity;
        }
    }
    return worst;
}

QList<Finding> ServerSession::findings(const QString &listId) const
{
    QList<Finding> all;
    if (listId == ReadsId)
        return m_reads->findings();
    if (listId == TasksId)
        return m_tasks->findings();
    if (const PagedListModel *m = m_models.value(listId))
        all = m->walker()->findings();
    all += auditFindings(listId);
    all += m_driftFindings.value(listId);
    return all;
}

QStringList ServerSession::findingListIds() const
{
    QStringList ids;
    for (const ListSource &source : m_lists) {
        if (m_models.contains(source.id()))
            ids.append(source.id());
    }
    if (m_hasAuditResult) {
        for (const AuditedList &l : m_auditResult.lists) {
            if (!ids.contains(l.id) && !l.findings.isEmpty())
                ids.append(l.id);
        }
    }
    for (const QString &id : DefinitionBaseline::listIds()) {
        if (!ids.contains(id) && m_driftFindings.contains(id))
            ids.append(id);
    }
    if (!m_reads->findings().isEmpty())
        ids.append(ReadsId);
    if (!m_tasks->findings().isEmpty())
        ids.append(TasksId);
    return ids;
}

QList<Finding> ServerSession::auditFindings(const QString &listId) const
{
    if (!m_hasAuditResult)
        return {};
    const auto list = std::find_if(m_auditResult.lists.cbegin(), m_auditResult.lists.cend(),
                                   [&](const AuditedList &l) { return l.id == listId; });
    if (list == m_auditResult.lists.cend() || list->findings.isEmpty())
        return {};
    QList<Finding> walked;
    if (const PagedListModel *m = m_models.value(listId))
        walked = m->walker()->findings();
    QList<Finding> own;
    for (Finding f : list->findings) {
        const int page = f.pages.value(0, -1);
        const bool shown = std::any_of(walked.cbegin(), walked.cend(), [&](const Finding &w) {
            return w.id == f.id && w.pages.value(0, -1) == page;
        });
        if (shown)
            continue;
        if (f.source == Finding::Source::Walk)
            f.source = Finding::Source::Audit; // the lint's stay the lint's
        own.append(f);
    }
    return own;
}

bool ServerSession::isAuditing() const
{
    return m_auditor && m_auditor->isRunning();
}

void ServerSession::startAudit(const AuditOptions &options)
{
    if (isAuditing() || m_client->state() != McpClient::State::Connected)
        return;
    delete m_auditor;
    m_auditProgress.clear();
    m_auditor = new Auditor(m_client, options, this);
    connect(m_auditor, &Auditor::progress, this, [this](const QString &message) {
        m_auditProgress = message;
        Q_EMIT auditProgressed(message);
    });
    connect(m_auditor, &Auditor::finished, this, [this] {
        Auditor *auditor = m_auditor;
        m_auditor = nullptr;
        m_auditProgress.clear();
        setAuditResult(auditor->result());
        // Not from inside its own signal: the auditor's walkers may still be unwinding.
        auditor->deleteLater();
        Q_EMIT auditFinished();
    });
    qCDebug(lcSession).noquote() << m_config.name + QLatin1Char(':') << "audit started";
    m_auditor->start();
    Q_EMIT auditStarted();
}

SnapshotTaker *ServerSession::takeSnapshot(QObject *owner)
{
    if (m_client->state() != McpClient::State::Connected)
        return nullptr;
    auto *taker = new SnapshotTaker(m_client, AuditOptions(), owner);
    taker->addSecrets(m_config.secrets());
    taker->start(m_config.displayTarget());
    return taker;
}

Snapshot ServerSession::described() const
{
    Snapshot s;
    s.revision = m_client->protocolVersion();
    s.transport = m_client->transportName();
    s.serverInfo = m_client->serverInfo();
    s.capabilities = m_client->capabilities();
    s.instructions = m_client->instructions();
    s.takenFrom = m_config.displayTarget();
    s.takenAtMs = QDateTime::currentMSecsSinceEpoch();
    return s;
}

Snapshot ServerSession::walkedDefinitions() const
{
    Snapshot s = described();
    for (const QString &id : DefinitionBaseline::listIds()) {
        if (const PagedListModel *m = m_models.value(id); m && m->walker()->isComplete())
            s.lists.append(Snapshot::List::fromWalker(*m->walker()));
    }
    return DefinitionBaseline::definitionsOf(s);
}

void ServerSession::listWalkEnded()
{
    checkDefinitions();
    recordHistory();
}

void ServerSession::recordHistory()
{
    const int keep = ServerHistory::keep();
    if (!m_pinsDefinitions || m_historyDone || isReplay() || keep <= 0)
        return;
    // Once every protocol list this server offers has ended its walk (to its end, or stopped);
    // the list tools walked to their end by then come too.
    Snapshot s = described();
    for (const ListSource &source : std::as_const(m_lists)) {
        const PagedListModel *m = m_models.value(source.id());
        const bool ended =
            m && !m->walker()->isLoading() && (m->walker()->isComplete() || m->walker()->isStopped());
        if (source.kind() == ListSource::Kind::Protocol && !ended)
            return;
        if (ended && !source.isDirectory() &&
            (source.kind() == ListSource::Kind::Protocol || m->walker()->isComplete()))
            s.lists.append(Snapshot::List::fromWalker(*m->walker()));
    }
    m_historyDone = true;
    ServerHistory::addLater(
        m_config.name, s, m_config.secrets() + m_client->trafficLog()->secrets(), keep, this,
        [this](bool kept, const QString &error, const QString &newest) {
            if (kept)
                Q_EMIT historyRecorded(newest);
            else
                Q_EMIT this->error(tr("The snapshot of %1 cannot be kept: %2").arg(m_config.name, error));
        });
}

void ServerSession::checkDefinitions()
{
    if (!m_pinsDefinitions || m_driftDone || isReplay())
        return;
    // Once every definition list this server offers has finished its walk.
    for (const ListSource &source : std::as_const(m_lists)) {
        if (!DefinitionBaseline::listIds().contains(source.id()))
            continue;
        const PagedListModel *m = m_models.value(source.id());
        if (!m || !(m->walker()->isComplete() || m->walker()->isStopped()) || m->walker()->isLoading())
            return;
    }
    m_driftDone = true;
    const Snapshot now = walkedDefinitions();
    QString error;
    const std::optional<Snapshot> trusted = DefinitionBaseline::load(m_config.name, &error);
    if (!error.isEmpty()) {
        Q_EMIT this->error(tr("The trusted definitions of %1 cannot be read: %2").arg(m_config.name, error));
        return;
    }
    if (!trusted) { // the first connect: what it walked is trusted
        if (!now.lists.isEmpty() &&
            !DefinitionBaseline::pin(m_config.name, now,
                                     m_config.secrets() + m_client->trafficLog()->secrets(), &error))
            Q_EMIT this->error(tr("The definitions of %1 cannot be kept: %2").arg(m_config.name, error));
        Q_EMIT driftChecked();
        return;
    }
    m_driftChanges = DefinitionBaseline::compare(*trusted, now);
    m_driftFindings = DefinitionBaseline::findings(m_driftChanges);
    qCDebug(lcSession).noquote() << m_config.name + QLatin1Char(':')
                                 << "definitions compared:" << m_driftChanges.size() << "changes";
    Q_EMIT findingsChanged();
    Q_EMIT driftChecked();
}

bool ServerSession::trustDefinitions(QString *error)
{
    QString why;
    const Snapshot now = walkedDefinitions();
    if (now.lists.isEmpty())
        why = tr("no definitions were walked to their end on this connection");
    else if (!DefinitionBaseline::pin(m_config.name, now,
                                      m_config.secrets() + m_client->trafficLog()->secrets(), &why))
        why = tr("cannot keep them: %1").arg(why);
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    m_driftChanges.clear();
    m_driftFindings.clear();
    Q_EMIT findingsChanged();
    Q_EMIT driftChecked();
    return true;
}

void ServerSession::cancelAudit(const QString &reason)
{
    if (m_auditor)
        m_auditor->cancel(reason); // finished() follows, with what was audited so far
}

void ServerSession::setAuditResult(const AuditResult &result)
{
    m_auditResult = result;
    m_hasAuditResult = true;
    m_auditFinishedAtMs = QDateTime::currentMSecsSinceEpoch();
    Q_EMIT auditResultChanged();
    Q_EMIT findingsChanged();
}

void ServerSession::clearAuditResult()
{
    if (!m_hasAuditResult)
        return;
    m_hasAuditResult = false;
    m_auditResult = {};
    Q_EMIT auditResultChanged();
    Q_EMIT findingsChanged();
}

void ServerSession::discoverListTools()
{
    // List tools are found in the tools list: walk it (within its page cap) and look at schemas.
    PagedListModel *tools = listModel(QStringLiteral("tools"));
    auto scan = [this, tools] {
        const QList<ListSource> found = ToolCatalog::listToolsIn(*tools->walker()->rows());
        QList<ListSource> protocolLists; // and the extensions' lists: every list but the list tools
        for (const ListSource &l : std::as_const(m_lists)) {
            if (l.kind() != ListSource::Kind::Tool)
                protocolLists.append(l);
        }
        bool changed = protocolLists.size() + found.size() != m_lists.size();
        for (int i = 0; !changed && i < found.size(); ++i)
            changed = m_lists.at(protocolLists.size() + i).id() != found.at(i).id();
        if (changed) {
            qCDebug(lcSession).noquote()
                << m_config.name + QLatin1Char(':') << found.size() << "list tools found";
            const QList<ListSource> before = m_lists;
            m_lists = protocolLists + found;
            Q_EMIT listsChanged();
            QList<ListSource> added;
            for (const ListSource &l : std::as_const(found)) {
                if (std::none_of(before.begin(), before.end(),
                                 [&](const ListSource &b) { return b.id() == l.id(); }))
                    added.append(l);
            }
            walkOnConnect(added);
        }
    };
    connect(tools->walker(), &PageWalker::walkFinished, this, scan);
    tools->walker()->fetchAll();
}

PagedListModel *ServerSession::listModel(const QString &listId)
{
    if (PagedListModel *m = m_models.value(listId))
        return m;
    for (const ListSource &source : std::as_const(m_lists)) {
        if (source.id() != listId)
            continue;
        qCDebug(lcSession).noquote() << m_config.name + QLatin1Char(':') << "model for" << listId;
        auto *model = new PagedListModel(m_client, source, m_clock, this);
        connect(model->walker(), &PageWalker::findingsChanged, this, &ServerSession::findingsChanged);
        connect(model->walker(), &PageWalker::walkFinished, this, &ServerSession::listWalkEnded);
        m_models.insert(listId, model);
        return model;
    }
    return nullptr;
}

QString ServerSession::openList(const ListSource &source, QString *why)
{
    const QString id = source.id();
    if (std::any_of(m_lists.cbegin(), m_lists.cend(), [&](const ListSource &l) { return l.id() == id; })) {
        Q_EMIT listOpened(id);
        return id;
    }
    if (const QString reason = cannotOpen(source); !reason.isEmpty()) {
        if (why)
            *why = reason;
        return {};
    }
    m_lists.append(source);
    Q_EMIT listsChanged();
    if (PagedListModel *model = listModel(id))
        model->walker()->start();
    Q_EMIT listOpened(id);
    return id;
}

QString ServerSession::cannotOpen(const ListSource &source) const
{
    if (std::any_of(m_lists.cbegin(), m_lists.cend(),
                    [&](const ListSource &l) { return l.id() == source.id(); }))
        return {};
    if (!source.isDirectory())
        return tr("only a folder opens on request; the server's own lists come when it connects");
    if (m_client->state() != ClientState::Connected)
        return tr("%1 is not connected").arg(m_config.name);
    return source.unavailableOn(m_client);
}

void ServerSession::closeList(const QString &listId)
{
    const auto it = std::find_if(m_lists.begin(), m_lists.end(),
                                 [&](const ListSource &l) { return l.id() == listId && l.isDirectory(); });
    if (it == m_lists.end())
        return;
    m_lists.erase(it);
    if (PagedListModel *model = m_models.take(listId)) {
        model->walker()->cancel();
        model->deleteLater(); // the views of it hold it by QPointer; its tab goes with listsChanged()
    }
    Q_EMIT listsChanged();
    Q_EMIT findingsChanged();
}

QList<PagedListModel *> ServerSession::openModels() const
{
    QList<PagedListModel *> models;
    for (const ListSource &source : m_lists) {
        if (PagedListModel *m = m_models.value(source.id()))
            models.append(m);
    }
    return models;
}

QString ServerSession::readOnlyReason() const
{
    return isReplay() ? tr("A replay is read-only: this would ask the server, and the recording holds only "
                           "the answers it was given")
                      : QString();
}

} // namespace folio
