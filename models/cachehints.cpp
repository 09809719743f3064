#include "cachehints.h"

#include "pagerecord.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace folio {

CacheHints CacheHints::of(const QJsonObject &result)
{
    CacheHints h;
    const auto ttl = result.constFind(QLatin1String("ttlMs"));
    if (ttl != result.constEnd()) {
        h.hasTtl = true;
        h.ttlMs = ttl.value();
    }
    const auto scope = result.constFind(QLatin1String("cacheScope"));
    if (scope != result.constEnd()) {
        h.hasScope = true;
        h.cacheScope = scope.value();
    }
    return h;
}

CacheHints CacheHints::detached() const
{
    CacheHints h = *this;
    h.ttlMs = detachedJson(ttlMs);
    h.cacheScope = detachedJson(cacheScope);
    return h;
}

QString CacheHints::ttlText() const
{
    return PageRecord::describeValue(hasTtl, ttlMs);
}

QString CacheHints::scopeText() const
{
    return PageRecord::describeValue(hasScope, cacheScope);
}

void CacheHints::writeTo(QJsonObject &json) const
{
    json[QStringLiteral("ttlMs")] = hasTtl ? ttlMs : QJsonValue();
    json[QStringLiteral("ttlMsPresent")] = hasTtl;
    json[QStringLiteral("cacheScope")] = hasScope ? cacheScope : QJsonValue();
    json[QStringLiteral("cacheScopePresent")] = hasScope;
}

QJsonValue detachedJson(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String:
        return QJsonValue(v.toString());
    case QJsonValue::Array:
        return QJsonDocument::fromJson(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)).array();
    case QJsonValue::Object:
        return QJsonDocument::fromJson(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)).object();
    default:
        return v;
    }
}

} // namespace folio
