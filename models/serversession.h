#pragma once

#include "auditor.h"
#include "auditresult.h"
#include "finding.h"
#include "listsource.h"
#include "mcpclient.h"
#include "snapshot.h"
#include "snapshotdiff.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

namespace folio {

class Auditor;
class SnapshotTaker;
class PagedListModel;
class ReplayClock;
class ResourceReads;
class TaskBoard;
class SecretStore;
class SignInStore;
struct SessionRecording;
class TtlClock;

// One server as the window and the command line see it: its client, its lists (created lazily,
// one PagedListModel each) and the list tools found in its tools list.
class ServerSession : public QObject
{
    Q_OBJECT
public:
    // What is walked as soon as the server is connected, so that problems show without opening
    // each list: every list's first page, every list to its end (within its page cap), or nothing
    // until a list is opened. The tools list is walked to its end in every case (list tools are
    // found in it). List tools are walked only when read-only and wanting no other argument.
    // Whole is the default: an inspector is opened to see the lists, and a loop or a refused
    // cursor is usually past the first page; the page cap bounds it.
    enum class WalkOnConnect { FirstPages, Whole, OnDemand };
    Q_ENUM(WalkOnConnect)

    ServerSession(const ServerConfig &config, TtlClock *clock, SecretStore *secrets,
                  QObject *parent = nullptr);
    ~ServerSession() override;

    ServerConfig config() const { return m_config; }
    // Takes effect at the next connect.
    void setConfig(const ServerConfig &config);
    McpClient *client() const { return m_client; }
    TtlClock *ttlClock() const { return m_clock; }

    // A replay of a recorded session (ServerConfig::replayFile): its pages count down on a clock
    // of its own, the recording's, which plays at the recorded pace from each connect.
    bool isReplay() const { return m_config.isReplay(); }
    // Why what would ask the server again (walk again, refetch, call) is not offered: a replay
    // holds only the answers it recorded, and asking it anything else would replace them with
    // errors (a recorded audit replays whole, so the audit stays). "" when the server can be
    // asked; the views show it as the disabled action's tooltip.
    QString readOnlyReason() const;
    std::shared_ptr<ReplayClock> replayClock() const;
    std::shared_ptr<const SessionRecording> replayRecording() const;
    // Replays from the start up to t ms into the recording (a scrub back): connects again, then
    // runs fast to t.
    void replayFrom(qint64 t);

    // Reads the bearer token from the keychain first when the config says one is saved, and the
    // saved sign-in of an HTTP server.
    void connectToServer();
    // An HTTP server's sign-in (OAuth): its state, its flows and their steps; null for stdio and
    // replays. Its browser is the window's to set.
    SignInStore *signIn() const { return m_signIn; }
    // How a sign-in shows the authorization page (the window: the desktop's browser); without
    // one the page's redirect is followed with no browser. Kept when the URL changes and the
    // sign-in is made anew.
    void setSignInBrowser(std::function<void(const QUrl &)> browser);
    void disconnectFromServer();
    ClientState state() const { return m_client->state(); }
    // What the window shows of the client without speaking to it: its traffic, a recording of the
    // session, and who answers the server's requests (elicitation, sampling, roots).
    TrafficLog *trafficLog() const;
    SessionRecording recording() const;
    InputResponder *inputResponder() const;
    void setInputResponder(InputResponder *responder);
    QString stateText() const;
    // What the sidebar calls the server: its config's name, or, for one named after its command
    // line (ServerConfig::nameFromServer), what it says it is once connected.
    QString displayName() const;

    // The protocol lists the server advertises (all four when it advertises nothing), then the
    // list tools found so far, in tool-list order.
    QList<ListSource> lists() const { return m_lists; }
    // The model for a list id ("tools", "prompts", "resources", "templates", "tool:<name>").
    PagedListModel *listModel(const QString &listId);
    QList<PagedListModel *> openModels() const;
    // One more list, on the user's asking: a skill's folder (ListSource::directory) becomes a list
    // of this connection beside the server's own, its first page asked for now, and listOpened()
    // says so (also when it was open already). Returns its id; an empty one, with *why, when the
    // server cannot have it (ListSource::unavailableOn) or is not connected. It goes with the
    // connection, and is in no snapshot: the server's own lists are.
    QString openList(const ListSource &source, QString *why = nullptr);
    // Why openList() would refuse source; empty when it would open it (or has it open).
    QString cannotOpen(const ListSource &source) const;
    // Closes a list openList() opened (no other): its walk stops and its tab goes.
    void closeList(const QString &listId);
    // The model for a list id when it exists already (never made here).
    PagedListModel *existingModel(const QString &listId) const { return m_models.value(listId); }
    // The resources read on this connection (resources/read), counting down on the lists' TTL clock.
    // Their findings are findings(ReadsId); a new connection forgets them, as it forgets the walks.
    ResourceReads *reads() const { return m_reads; }
    static inline const QString ReadsId = QStringLiteral("resources/read");
    // The tasks started on this connection (task-augmented tools/call), their ttls on the same
    // TTL clock. Their findings are findings(TasksId); a new connection forgets them.
    TaskBoard *tasks() const { return m_tasks; }
    static inline const QString TasksId = QStringLiteral("tasks/get");

    WalkOnConnect walkOnConnect() const { return m_walkOnConnect; }
    void setWalkOnConnect(WalkOnConnect mode) { m_walkOnConnect = mode; }
    // The findings of every list walked so far and of the last audit (audit findings a walk
    // shows already counted once, see auditFindings()): how many, and the worst (Info when none).
    int findingCount() const;
    Finding::Severity worstSeverity() const;
    // A list's findings: its current walk's, then the audit's own (auditFindings()).
    QList<Finding> findings(const QString &listId) const;
    // The lists that may have findings, in tab order: every list with a model, then the lists of
    // the audit that are not among them (a list tool never opened, "server/discover"), then
    // ReadsId when a read has findings.
    QStringList findingListIds() const;

    // The audit (the same as `folio audit`, with its default options) of this connection. The
    // session runs it, so that its result outlives the view that asked and stays with the server
    // the findings are about. Starting needs a connected client; a running audit is not restarted.
    // options: the audit's (the window sets walks and the pause between them; the rest as
    // AuditOptions has them).
    void startAudit(const AuditOptions &options = AuditOptions());
    // A snapshot of this connection's server (File > Save Snapshot): every list and list tool walked
    // to its end as `folio snapshot` walks them, started, owned by the caller (delete it after its
    // finished()), its secrets() including the server's own. nullptr when not connected.
    SnapshotTaker *takeSnapshot(QObject *owner);

    // Drift (DefinitionBaseline): a saved server's tools, prompts and templates, once walked to
    // their end on a connection, are compared with the definitions it was trusted with — pinned at
    // its first connect — and each one added, removed or changed is a definition-changed finding
    // of its list. Off unless set (the server list sets it on saved servers).
    void setPinsDefinitions(bool on) { m_pinsDefinitions = on; }
    bool pinsDefinitions() const { return m_pinsDefinitions; }
    // This connection's definitions differ from the trusted ones.
    bool hasDrift() const { return !m_driftChanges.isEmpty(); }
    // The changes since the trusted definitions (SnapshotDiff, definitions only).
    QList<SnapshotChange> driftChanges() const { return m_driftChanges; }
    // "Trust this version": this connection's definitions become the trusted ones.
    bool trustDefinitions(QString *error = nullptr);
    // The definitions walked to their end on this connection (tools, prompts, templates), as
    // DefinitionBaseline keeps them: what the drift compares with the trusted ones (and the Compare
    // view shows as "now").
    Snapshot walkedDefinitions() const;
    void cancelAudit(const QString &reason);
    bool isAuditing() const;
    // What the running audit says it is doing ("" before it says anything).
    QString auditProgress() const { return m_auditProgress; }
    // The last audit's result on this connection; a new connection forgets it, as it forgets
    // the walks.
    bool hasAuditResult() const { return m_hasAuditResult; }
    const AuditResult &auditResult() const { return m_auditResult; }
    qint64 auditFinishedAtMs() const { return m_auditFinishedAtMs; } // wall clock
    void setAuditResult(const AuditResult &result);
    void clearAuditResult();
    // The last audit's findings of a list, marked Finding::Source::Audit, except those the
    // window's walk of the list shows already: a finding with the same id on the same page (the
    // first of its pages, numbered within each walk) is one event seen twice, and the walk's copy
    // stays (it lives on a page of the ledger). Page numbers are the audit's walk's; the window
    // maps them to its own walk's pages by number.
    QList<Finding> auditFindings(const QString &listId) const;

Q_SIGNALS:
    void stateChanged();
    void listsChanged();
    // openList() opened listId (or found it open): the window shows it.
    void listOpened(const QString &listId);
    // A list's findings changed, or the audit's (a new result, or one forgotten).
    void findingsChanged();
    void error(const QString &message);
    // The audit started; it says what it does with auditProgressed(), and auditFinished() comes
    // once its result is auditResult() (after findingsChanged()).
    void auditStarted();
    void auditProgressed(const QString &message);
    void auditFinished();
    // auditResult() is a new one, or was forgotten (hasAuditResult() false); findingsChanged()
    // follows.
    void auditResultChanged();
    // A saved server's lists were all walked on this connection and its snapshot joined its
    // history (ServerHistory), at path: written on a worker thread, so this comes a little after
    // the last walk ended.
    void historyRecorded(const QString &path);
    // The drift was checked on this connection (hasDrift() says whether there is any), or the
    // definitions were trusted.
    void driftChecked();
    // signIn() is another (the URL was edited) or none.
    void signInChanged();
    // Signed in or out, refreshed, or the keychain said something about it (SignInStore::changed).
    void signInStateChanged();

private:
    void handleConnected();
    void discoverListTools();
    void walkOnConnect(const QList<ListSource> &lists);
    void listWalkEnded();
    void checkDefinitions();
    void recordHistory();
    // A snapshot with this connection's description of the server and no lists.
    Snapshot described() const;

    ServerConfig m_config;
    TtlClock *m_clock;
    bool m_replayPaused = false; // the user paused the replay: a reconnect does not play
    QPointer<SecretStore> m_secrets;
    McpClient *m_client;
    SignInStore *m_signIn = nullptr;
    std::function<void(const QUrl &)> m_signInBrowser;
    void updateSignIn();
    void connectWithSecrets();
    QList<ListSource> m_lists;
    QHash<QString, PagedListModel *> m_models;
    ResourceReads *m_reads = nullptr;
    TaskBoard *m_tasks = nullptr;
    WalkOnConnect m_walkOnConnect = WalkOnConnect::Whole;
    bool m_pinsDefinitions = false;
    bool m_driftDone = false; // checked (or pinned) on this connection
    bool m_historyDone = false;
    QList<SnapshotChange> m_driftChanges;
    QHash<QString, QList<Finding>> m_driftFindings; // by list id
    Auditor *m_auditor = nullptr;                   // while one runs
    QString m_auditProgress;
    AuditResult m_auditResult;
    bool m_hasAuditResult = false;
    qint64 m_auditFinishedAtMs = 0;
};

} // namespace folio
