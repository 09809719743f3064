#pragma once

#include "finding.h"
#include "listsource.h"
#include "mcpclient.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <memory>

namespace folio {

class PagedListModel;
class ReplayClock;
class SecretStore;
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
    std::shared_ptr<ReplayClock> replayClock() const;
    std::shared_ptr<const SessionRecording> replayRecording() const;
    // Replays from the start up to t ms into the recording (a scrub back): connects again, then
    // runs fast to t.
    void replayFrom(qint64 t);

    // Reads the bearer token from the keychain first when the config says one is saved.
    void connectToServer();
    void disconnectFromServer();
    McpClient::State state() const { return m_client->state(); }
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
    // The model for a list id when it exists already (never made here).
    PagedListModel *existingModel(const QString &listId) const { return m_models.value(listId); }

    WalkOnConnect walkOnConnect() const { return m_walkOnConnect; }
    void setWalkOnConnect(WalkOnConnect mode) { m_walkOnConnect = mode; }
    // The findings of every list walked so far: how many, and the worst (Info when none).
    int findingCount() const;
    Finding::Severity worstSeverity() const;

Q_SIGNALS:
    void stateChanged();
    void listsChanged();
    void findingsChanged();
    void error(const QString &message);

private:
    void handleConnected();
    void discoverListTools();
    void walkOnConnect(const QList<ListSource> &lists);

    ServerConfig m_config;
    TtlClock *m_clock;
    bool m_replayPaused = false; // the user paused the replay: a reconnect does not play
    QPointer<SecretStore> m_secrets;
    McpClient *m_client;
    QList<ListSource> m_lists;
    QHash<QString, PagedListModel *> m_models;
    WalkOnConnect m_walkOnConnect = WalkOnConnect::Whole;
};

} // namespace folio
