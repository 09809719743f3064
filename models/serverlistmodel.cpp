#include "serverlistmodel.h"

#include "definitionbaseline.h"
#include "modelslogging.h"
#include "savedservers.h"
#include "secretstore.h"
#include "serverhistory.h"
#include "serversession.h"
#include "signinstore.h"
#include "terminaltext.h"

#include <QDateTime>

namespace folio {

ServerListModel::ServerListModel(TtlClock *clock, SecretStore *secrets, QObject *parent)
    : QAbstractListModel(parent)
    , m_clock(clock)
    , m_secrets(secrets)
{}

int ServerListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_sessions.size());
}

QVariant ServerListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_sessions.size())
        return {};
    const ServerSession *s = m_sessions.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return oneLineSafe(s->displayName());
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1\n%2").arg(s->config().displayTarget(), s->stateText());
        if (const int n = s->findingCount())
            tip += QLatin1Char('\n') + tr("%n finding(s) in its lists", nullptr, n);
        if (const QString note = secretNote(s); !note.isEmpty())
            tip += QLatin1Char('\n') + note;
        if (const SignInStore *signIn = s->signIn())
            tip += QLatin1Char('\n') + signIn->statusText(QDateTime::currentMSecsSinceEpoch());
        return tip;
    }
    case SignedInRole:
        return s->signIn() && s->signIn()->authorizer()->isSignedIn();
    case KeptSnapshotsRole:
        return s->pinsDefinitions() ? int(ServerHistory::entries(s->config().name).size()) : 0;
    case StateRole:
        return int(s->state());
    case StateTextRole:
        return s->stateText();
    case TargetRole:
        return s->config().displayTarget();
    case IsDemoRole:
        return isDemo(index.row());
    case RevisionRole:
        return s->client()->protocolVersion();
    case SeverityRole:
        return int(s->worstSeverity());
    case FindingCountRole:
        return s->findingCount();
    case SecretNoteRole:
        return secretNote(s);
    default:
        return {};
    }
}

ServerSession *ServerListModel::makeSession(const ServerConfig &config)
{
    auto *s = new ServerSession(config, m_clock, m_secrets, this);
    s->setWalkOnConnect(m_walkOnConnect);
    connect(s, &ServerSession::stateChanged, this, [this, s] {
        const int row = rowOf(s);
        if (row >= 0)
            Q_EMIT dataChanged(index(row), index(row));
    });
    connect(s, &ServerSession::findingsChanged, this, [this, s] {
        const int row = rowOf(s);
        if (row >= 0)
            Q_EMIT dataChanged(index(row), index(row), {SeverityRole, FindingCountRole, Qt::ToolTipRole});
    });
    connect(s, &ServerSession::historyRecorded, this, [this, s] {
        const int row = rowOf(s);
        if (row >= 0)
            Q_EMIT dataChanged(index(row), index(row), {KeptSnapshotsRole});
    });
    connect(s, &ServerSession::signInStateChanged, this, [this, s] {
        const int row = rowOf(s);
        if (row >= 0)
            Q_EMIT dataChanged(index(row), index(row), {SignedInRole, Qt::ToolTipRole});
    });
    return s;
}

void ServerListModel::setWalkOnConnect(ServerSession::WalkOnConnect mode)
{
    m_walkOnConnect = mode;
    for (ServerSession *s : std::as_const(m_sessions))
        s->setWalkOnConnect(mode);
}

void ServerListModel::setDemoServer(const QString &program, const QStringList &arguments)
{
    if (m_hasDemo) {
        beginRemoveRows({}, 0, 0);
        delete m_sessions.takeFirst();
        m_hasDemo = false;
        endRemoveRows();
    }
    if (program.isEmpty())
        return;
    ServerConfig demo;
    // Named by its scenario: a demo of "healthy" is not the tour.
    const qsizetype scenarioAt = arguments.indexOf(QStringLiteral("--scenario"));
    const QString scenario = scenarioAt >= 0 && scenarioAt + 1 < arguments.size()
                                 ? arguments.at(scenarioAt + 1)
                                 : QStringLiteral("tour");
    demo.name = tr("demo (%1)").arg(scenario);
    const QString name = demo.name;
    demo = ServerConfig::process(program, arguments);
    demo.name = name;
    beginInsertRows({}, 0, 0);
    m_sessions.prepend(makeSession(demo));
    m_hasDemo = true;
    endInsertRows();
}

void ServerListModel::load()
{
    const QList<ServerConfig> configs = SavedServers::load();
    if (configs.isEmpty())
        return;
    const int first = int(m_sessions.size());
    beginInsertRows({}, first, first + int(configs.size()) - 1);
    for (const ServerConfig &c : configs) {
        m_sessions.append(makeSession(c));
        m_sessions.last()->setPinsDefinitions(true); // saved: its definitions are kept
    }
    endInsertRows();
}

void ServerListModel::save() const
{
    QList<ServerConfig> configs;
    for (int row = m_hasDemo ? 1 : 0; row < m_sessions.size(); ++row) {
        if (!m_transient.contains(m_sessions.at(row)))
            configs.append(m_sessions.at(row)->config());
    }
    SavedServers::save(configs);
}

int ServerListModel::addServer(const ServerConfig &config, bool persist)
{
    const int row = int(m_sessions.size());
    beginInsertRows({}, row, row);
    m_sessions.append(makeSession(persist ? holdSecrets(config) : config));
    ServerSession *s = m_sessions.last();
    s->setPinsDefinitions(persist);
    if (!persist)
        m_transient.append(s);
    endInsertRows();
    if (persist) {
        save();
        saveSecrets(s, nullptr);
    }
    return row;
}

void ServerListModel::updateServer(int row, const ServerConfig &config)
{
    if (row < 0 || row >= m_sessions.size() || isDemo(row))
        return;
    ServerSession *s = m_sessions.at(row);
    const bool saved = !m_transient.contains(s);
    const ServerConfig before = s->config();
    s->setConfig(saved ? holdSecrets(config) : config);
    Q_EMIT dataChanged(index(row), index(row));
    save();
    if (saved)
        saveSecrets(s, &before);
    if (saved && before.name != config.name) { // what Folio remembers of it keeps up with its name
        DefinitionBaseline::rename(before.name, config.name);
        ServerHistory::rename(before.name, config.name);
    }
}

void ServerListModel::removeServer(int row)
{
    if (row < 0 || row >= m_sessions.size() || isDemo(row))
        return;
    beginRemoveRows({}, row, row);
    ServerSession *s = m_sessions.takeAt(row);
    const bool saved = !m_transient.removeAll(s);
    m_secretWork.remove(s);
    s->disconnectFromServer();
    s->deleteLater();
    endRemoveRows();
    save();
    if (saved) {
        DefinitionBaseline::forget(s->config().name);
        ServerHistory::forget(s->config().name);
    }
    if (saved && m_secrets) {
        const ServerConfig &c = s->config();
        if (c.tokenInKeychain)
            m_secrets->remove(c.secretKey());
        for (const QString &name : c.envInKeychain)
            m_secrets->remove(c.envSecretKey(name));
    }
}

ServerConfig ServerListModel::holdSecrets(ServerConfig c)
{
    c.keychainRefusal.clear();
    // Only what the kind saves: an HTTP server has no environment, a stdio server no token.
    if (!c.startsProcess()) {
        c.envInKeychain.clear();
        c.envHeld.clear();
        return c;
    }
    c.bearerToken.clear();
    c.tokenInKeychain = false;
    QStringList held;
    for (auto it = c.environment.cbegin(); it != c.environment.cend(); ++it) {
        if ((c.envHeld.contains(it.key()) && !it.value().isEmpty()) ||
            ServerConfig::isSecretValue(it.key(), it.value()))
            held.append(it.key());
    }
    c.envHeld = held;
    for (const QString &name : std::as_const(held))
        c.envInKeychain.removeAll(name); // a new value replaces the saved one
    return c;
}

void ServerListModel::saveSecrets(ServerSession *s, const ServerConfig *before)
{
    const ServerConfig now = s->config();
    const int generation = m_secretWork.value(s).generation + 1;
    m_secretWork.insert(s, SecretWork{generation, 0, false});

    QList<std::function<void()>> work;
    if (now.tokenHeld()) {
        const QString key = now.secretKey();
        work << [this, s, generation, key, token = now.bearerToken] {
            runKeychain(s, KeychainOp::Store, key, token,
                        [this, s, generation](const QString &, const QString &failure) {
                            applySecret(s, generation, !failure.isEmpty(), [&failure](ServerConfig &c) {
                                if (failure.isEmpty()) {
                                    c.tokenInKeychain = true;
                                    c.bearerToken.clear(); // read again at connect
                                } else {
                                    c.keychainRefusal = failure;
                                }
                            });
                        });
        };
    }
    for (const QString &name : now.envHeld) {
        const QString key = now.envSecretKey(name);
        work << [this, s, generation, key, name, value = now.environment.value(name)] {
            runKeychain(s, KeychainOp::Store, key, value,
                        [this, s, generation, name](const QString &, const QString &failure) {
                            applySecret(s, generation, !failure.isEmpty(), [&](ServerConfig &c) {
                                if (!failure.isEmpty()) {
                                    c.keychainRefusal = failure;
                                    return;
                                }
                                c.envHeld.removeAll(name);
                                c.environment.remove(name); // read again at connect
                                if (!c.envInKeychain.contains(name))
                                    c.envInKeychain.append(name);
                            });
                        });
        };
    }

    // Keychain keys follow the name: a renamed server's saved secrets move to the new one.
    QStringList nowKeys;
    if (now.tokenInKeychain || now.tokenHeld())
        nowKeys << now.secretKey();
    for (const QString &name : now.envInKeychain + now.envHeld)
        nowKeys << now.envSecretKey(name);
    QStringList movedFrom;
    if (before && before->name != now.name) {
        if (now.tokenInKeychain && before->tokenInKeychain) {
            movedFrom << before->secretKey();
            work << [this, s, generation, from = before->secretKey(), to = now.secretKey()] {
                moveSecret(s, generation, from, to, QString());
            };
        }
        for (const QString &name : now.envInKeychain) {
            if (!before->envInKeychain.contains(name))
                continue;
            movedFrom << before->envSecretKey(name);
            work << [this, s, generation, from = before->envSecretKey(name), to = now.envSecretKey(name),
                     name] { moveSecret(s, generation, from, to, name); };
        }
    }

    if (!m_secrets) {
        if (now.tokenHeld() || !now.envHeld.isEmpty()) {
            m_secretWork[s].pending = 1;
            applySecret(s, generation, true, [](ServerConfig &c) {
                c.keychainRefusal = tr("Folio has no keychain to save it in.");
            });
        }
        return;
    }
    // What the old config kept in the keychain and this one has not: gone.
    if (before) {
        QStringList beforeKeys;
        if (before->tokenInKeychain)
            beforeKeys << before->secretKey();
        for (const QString &name : before->envInKeychain)
            beforeKeys << before->envSecretKey(name);
        for (const QString &key : std::as_const(beforeKeys)) {
            if (!nowKeys.contains(key) && !movedFrom.contains(key))
                m_secrets->remove(key);
        }
    }
    // All counted before the first starts: a keychain may answer at once.
    m_secretWork[s].pending = int(work.size());
    if (!work.isEmpty()) {
        qCDebug(lcServers).noquote() << now.name + QLatin1Char(':') << work.size()
                                     << "secret(s) to the keychain";
        Q_EMIT dataChanged(index(rowOf(s)), index(rowOf(s)), {SecretNoteRole, Qt::ToolTipRole});
    }
    for (const auto &start : std::as_const(work))
        start();
}

void ServerListModel::moveSecret(ServerSession *s, int generation, const QString &from, const QString &to,
                                 const QString &variable)
{
    runKeychain(s, KeychainOp::Read, from, {},
                [this, s, generation, from, to, variable](const QString &secret, const QString &failure) {
                    if (m_secretWork.value(s).generation != generation)
                        return; // a later save decides
                    if (!failure.isEmpty()) {
                        // Not read: under the new name there is nothing, and Folio says so.
                        applySecret(s, generation, true, [&](ServerConfig &c) {
                            if (variable.isEmpty())
                                c.tokenInKeychain = false;
                            else
                                c.envInKeychain.removeAll(variable);
                            c.keychainRefusal = failure;
                        });
                        return;
                    }
                    runKeychain(s, KeychainOp::Store, to, secret,
                                [this, s, generation, from, variable, secret](const QString &,
                                                                              const QString &failure) {
                                    if (failure.isEmpty() && m_secrets)
                                        m_secrets->remove(from);
                                    applySecret(s, generation, !failure.isEmpty(), [&](ServerConfig &c) {
                                        if (failure.isEmpty())
                                            return;
                                        // Read but not saved again: held, as a new secret would be.
                                        if (variable.isEmpty()) {
                                            c.tokenInKeychain = false;
                                            c.bearerToken = secret;
                                        } else {
                                            c.envInKeychain.removeAll(variable);
                                            c.environment.insert(variable, secret);
                                            c.envHeld.append(variable);
                                        }
                                        c.keychainRefusal = failure;
                                    });
                                });
                });
}

void ServerListModel::runKeychain(ServerSession *s, KeychainOp op, const QString &key, const QString &secret,
                                  std::function<void(const QString &, const QString &)> then)
{
    auto *ctx = new QObject(s); // gone with the session
    const auto finish = [this, ctx, then = std::move(then)](const QString &value, const QString &failure) {
        m_secrets->disconnect(ctx); // one answer only, even if another comes before ctx is gone
        ctx->deleteLater();
        then(value, failure);
    };
    if (op == KeychainOp::Store) {
        connect(m_secrets, &SecretStore::stored, ctx, [key, finish](const QString &k) {
            if (k == key)
                finish({}, {});
        });
    } else {
        connect(m_secrets, &SecretStore::restored, ctx,
                [key, finish](const QString &k, const QString &value) {
                    if (k == key)
                        finish(value, {});
                });
    }
    connect(m_secrets, &SecretStore::failed, ctx,
            [key, op, finish](const QString &k, SecretStore::Failure failure, const QString &message) {
                // A store never fails for want of an entry: that answer is a read's of the same key.
                if (k == key && !(op == KeychainOp::Store && failure == SecretStore::Failure::NotFound))
                    finish({}, message);
            });
    if (op == KeychainOp::Store)
        m_secrets->store(key, secret);
    else
        m_secrets->read(key);
}

void ServerListModel::applySecret(ServerSession *s, int generation, bool refused,
                                  const std::function<void(ServerConfig &)> &change)
{
    const int row = rowOf(s);
    auto work = m_secretWork.find(s);
    if (row < 0 || work == m_secretWork.end() || work->generation != generation)
        return; // removed, or saved again since: that save's answers count
    ServerConfig c = s->config();
    change(c);
    s->setConfig(c);
    work->refused = work->refused || refused;
    work->pending = qMax(0, work->pending - 1);
    const bool done = work->pending == 0;
    const bool tell = done && work->refused;
    save();
    Q_EMIT dataChanged(index(row), index(row), {SecretNoteRole, Qt::ToolTipRole});
    if (tell) {
        const QString message = tr("%1: %2").arg(s->displayName(), secretNote(s));
        qCInfo(lcServers).noquote() << message; // the keychain's words and the names, never a value
        Q_EMIT keychainRefused(row, message);
    }
}

QString ServerListModel::secretNote(const ServerSession *s) const
{
    const ServerConfig &c = s->config();
    QStringList held;
    if (c.tokenHeld())
        held << tr("token");
    held += c.envHeld;
    if (!held.isEmpty() && !c.keychainRefusal.isEmpty())
        return tr("%1 kept for this session only — the keychain refused %2: %3")
            .arg(held.join(QStringLiteral(", ")), held.size() == 1 ? tr("it") : tr("them"),
                 c.keychainRefusal);
    if (m_secretWork.value(s).pending > 0)
        return tr("saving its secrets to the keychain…");
    if (!c.keychainRefusal.isEmpty())
        return tr("its saved secrets did not follow its new name: %1").arg(c.keychainRefusal);
    return {};
}

ServerSession *ServerListModel::session(int row) const
{
    return row >= 0 && row < m_sessions.size() ? m_sessions.at(row) : nullptr;
}

int ServerListModel::rowOf(const ServerSession *session) const
{
    for (int i = 0; i < m_sessions.size(); ++i) {
        if (m_sessions.at(i) == session)
            return i;
    }
    return -1;
}

int ServerListModel::findByName(const QString &name) const
{
    for (int i = 0; i < m_sessions.size(); ++i) {
        if (m_sessions.at(i)->config().name == name)
            return i;
    }
    return -1;
}

QString ServerListModel::uniqueName(const QString &wish) const
{
    const QString base = wish.trimmed().isEmpty() ? tr("server") : wish.trimmed();
    QString name = base;
    for (int n = 2; findByName(name) >= 0; ++n)
        name = QStringLiteral("%1 %2").arg(base, QString::number(n));
    return name;
}

} // namespace folio
