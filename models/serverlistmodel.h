#pragma once

#include "serverconfig.h"
#include "serversession.h"

#include <QAbstractListModel>
#include <QHash>
#include <QList>

#include <functional>

namespace folio {

class SecretStore;
class TtlClock;

// The saved servers (and the embedded demo server, always first), each with its session. Saved
// servers persist in QSettings under "servers" as JSON, without secrets: the model moves them to
// the keychain, and holds for this session only, and says so, what the keychain refuses.
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
        // Where its secrets are when not all of them are in the keychain, in words ("token kept
        // for this session only — the keychain refused it: …"); empty when they are, or it has none.
        SecretNoteRole,
        // bool: an HTTP server holds a sign-in (who, scopes and expiry are in the tooltip, computed
        // when asked: painting a row must not decode a token).
        SignedInRole,
        // int: how many snapshots of its connects a saved server keeps (ServerHistory); changes
        // (dataChanged with this role) when a connect adds one.
        KeptSnapshotsRole,
    };

    ServerListModel(TtlClock *clock, SecretStore *secrets, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    // The embedded demo server (row 0). An empty program leaves it out.
    void setDemoServer(const QString &program, const QStringList &arguments);
    void load();
    void save() const;

    // persist false: a server given on the command line, shown but never saved (nor its secrets).
    // A saved server's secrets go to the keychain: a token not saved yet (bearerToken with
    // tokenInKeychain false) and the values of secret environment variables
    // (ServerConfig::isSecretValue()). Until the keychain takes them, and for this session only if
    // it refuses them (keychainRefused()), they are held in the session's config, which its
    // connect uses.
    int addServer(const ServerConfig &config, bool persist = true);
    // As addServer(). Secrets the old config had and this one has not are removed from the
    // keychain; those it keeps follow a new name there.
    void updateServer(int row, const ServerConfig &config);
    // With its secrets in the keychain.
    void removeServer(int row);
    ServerSession *session(int row) const;
    int rowOf(const ServerSession *session) const;
    int findByName(const QString &name) const;
    bool isDemo(int row) const { return m_hasDemo && row == 0; }
    // A name not used yet, from a wish ("my-server", "my-server 2", ...).
    QString uniqueName(const QString &wish) const;

    // For every session, now and to come (see ServerSession::WalkOnConnect).
    void setWalkOnConnect(ServerSession::WalkOnConnect mode);

Q_SIGNALS:
    // The keychain refused a secret of the server at row, once all of its secrets were tried: what
    // it refused is held for this session only. message says so in a sentence, for the user.
    void keychainRefused(int row, const QString &message);

private:
    // The keychain work of one server: a later save bumps generation and drops earlier answers.
    struct SecretWork
    {
        int generation = 0;
        int pending = 0;
        bool refused = false;
    };
    enum class KeychainOp { Store, Read };

    ServerSession *makeSession(const ServerConfig &config);
    // config as a saved server holds it until the keychain answers: its secret values marked held.
    static ServerConfig holdSecrets(ServerConfig config);
    // Stores what the session's config holds, moves what a rename left under the old name (before),
    // and removes what before had and the config has not.
    void saveSecrets(ServerSession *session, const ServerConfig *before);
    void moveSecret(ServerSession *session, int generation, const QString &from, const QString &to,
                    const QString &variable);
    // One keychain operation on key; then gets the secret read (for Read) or the failure message
    // (empty when done). Ends with session.
    void runKeychain(ServerSession *session, KeychainOp op, const QString &key, const QString &secret,
                     std::function<void(const QString &secret, const QString &failure)> then);
    // Applies an answer of generation to the session's config, saves, and says it.
    void applySecret(ServerSession *session, int generation, bool refused,
                     const std::function<void(ServerConfig &)> &change);
    QString secretNote(const ServerSession *session) const;

    TtlClock *m_clock;
    SecretStore *m_secrets;
    QList<ServerSession *> m_sessions;
    bool m_hasDemo = false;
    ServerSession::WalkOnConnect m_walkOnConnect = ServerSession::WalkOnConnect::Whole;
    QList<const ServerSession *> m_transient;
    QHash<const ServerSession *, SecretWork> m_secretWork;
};

} // namespace folio
