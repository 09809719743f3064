#include "savedservers.h"

#include "modelslogging.h"
#include "settingskeys.h"

#include <QJsonDocument>
#include <QSettings>

namespace folio::SavedServers {

namespace {}

QJsonArray entries()
{
    QSettings settings;
    const QVariant value = settings.value(SettingsKey::Servers);
    if (value.metaType().id() == QMetaType::QVariantList)
        return QJsonArray::fromVariantList(value.toList());
    return QJsonDocument::fromJson(value.toByteArray()).array();
}

QList<ServerConfig> load()
{
    QList<ServerConfig> configs;
    for (const QJsonValue &v : entries())
        configs.append(ServerConfig::fromJson(v.toObject()));
    qCDebug(lcServers).noquote() << configs.size() << "saved servers in" << QSettings().fileName();
    return configs;
}

void save(const QList<ServerConfig> &configs)
{
    QJsonArray array;
    for (const ServerConfig &c : configs)
        array.append(c.toJson());
    QSettings settings;
    settings.setValue(SettingsKey::Servers, QJsonDocument(array).toJson(QJsonDocument::Compact));
    qCDebug(lcServers).noquote() << "saved" << array.size() << "servers to" << settings.fileName();
}

} // namespace folio::SavedServers
