#pragma once

#include "serverconfig.h"
#include "serversession.h"

#include <QAbstractListModel>
#include <QList>

namespace folio {

class SecretStore;
class TtlClock;

// The saved servers (and the embedded demo server, always first), each with its session. Saved
// servers persist in QSettings under "servers" as JSON, without secrets.
class ServerListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Roles {
        StateRole = Qt::UserRole + 1, // int(McpClient::State)
        StateTextRole,
        TargetRole, // the command line or URL
        IsDemoRole,
        RevisionRole,
        SeverityRole,     // int(Finding::Severity): the worst finding of its lists, Info when none
        FindingCountRole, // how many findings its lists have
    };

    ServerListModel(TtlClock *clock, SecretStore *secrets, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    // The embedded demo server (row 0). An empty program leaves it out.
    void setDemoServer(const QString &program, const QStringList &arguments);
    void load();
    void save() const;

    // persist false: a server given on the command line, shown but never saved.
    int addServer(const ServerConfig &config, bool persist = true);
    void updateServer(int row, const ServerConfig &config);
    void removeServer(int row);
    ServerSession *session(int row) const;
    int rowOf(const ServerSession *session) const;
    int findByName(const QString &name) const;
    bool isDemo(int row) const { return m_hasDemo && row == 0; }
    // A name not used yet, from a wish ("my-server", "my-server 2", ...).
    QString uniqueName(const QString &wish) const;

    static QList<ServerConfig> loadSaved();

    // For every session, now and to come (see ServerSession::WalkOnConnect).
    void setWalkOnConnect(ServerSession::WalkOnConnect mode);

private:
    ServerSession *makeSession(const ServerConfig &config);

    TtlClock *m_clock;
    SecretStore *m_secrets;
    QList<ServerSession *> m_sessions;
    bool m_hasDemo = false;
    ServerSession::WalkOnConnect m_walkOnConnect = ServerSession::WalkOnConnect::Whole;
    QList<const ServerSession *> m_transient;
};

} // namespace folio
