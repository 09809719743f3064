#include "serverlistmodel.h"

#include "modelslogging.h"
#include "serversession.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>

namespace folio {

namespace {
const QString settingsKey = QStringLiteral("servers");
}

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
        return s->displayName();
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1\n%2").arg(s->config().displayTarget(), s->stateText());
        if (const int n = s->findingCount())
            tip += QLatin1Char('\n') + tr("%n finding(s) in its lists", nullptr, n);
        return tip;
    }
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
    demo.kind = ServerConfig::Kind::Stdio;
    demo.command = program;
    demo.arguments = arguments;
    beginInsertRows({}, 0, 0);
    m_sessions.prepend(makeSession(demo));
    m_hasDemo = true;
    endInsertRows();
}

QList<ServerConfig> ServerListModel::loadSaved()
{
    QSettings settings;
    QList<ServerConfig> configs;
    const QJsonArray array = QJsonDocument::fromJson(settings.value(settingsKey).toByteArray()).array();
    for (const QJsonValue &v : array)
        configs.append(ServerConfig::fromJson(v.toObject()));
    qCDebug(lcServers).noquote() << configs.size() << "saved servers in" << settings.fileName();
    return configs;
}

void ServerListModel::load()
{
    const QList<ServerConfig> configs = loadSaved();
    if (configs.isEmpty())
        return;
    const int first = int(m_sessions.size());
    beginInsertRows({}, first, first + int(configs.size()) - 1);
    for (const ServerConfig &c : configs)
        m_sessions.append(makeSession(c));
    endInsertRows();
}

void ServerListModel::save() const
{
    QJsonArray array;
    for (int row = m_hasDemo ? 1 : 0; row < m_sessions.size(); ++row) {
        if (!m_transient.contains(m_sessions.at(row)))
            array.append(m_sessions.at(row)->config().toJson());
    }
    QSettings settings;
    settings.setValue(settingsKey, QJsonDocument(array).toJson(QJsonDocument::Compact));
    qCDebug(lcServers).noquote() << "saved" << array.size() << "servers to" << settings.fileName();
}

int ServerListModel::addServer(const ServerConfig &config, bool persist)
{
    const int row = int(m_sessions.size());
    beginInsertRows({}, row, row);
    m_sessions.append(makeSession(config));
    if (!persist)
        m_transient.append(m_sessions.last());
    endInsertRows();
    if (persist)
        save();
    return row;
}

void ServerListModel::updateServer(int row, const ServerConfig &config)
{
    if (row < 0 || row >= m_sessions.size() || isDemo(row))
        return;
    m_sessions.at(row)->setConfig(config);
    Q_EMIT dataChanged(index(row), index(row));
    save();
}

void ServerListModel::removeServer(int row)
{
    if (row < 0 || row >= m_sessions.size() || isDemo(row))
        return;
    beginRemoveRows({}, row, row);
    ServerSession *s = m_sessions.takeAt(row);
    m_transient.removeAll(s);
    s->disconnectFromServer();
    s->deleteLater();
    endRemoveRows();
    save();
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
        name = QStringLiteral("%1 %2").arg(base).arg(n);
    return name;
}

} // namespace folio
