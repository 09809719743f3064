#include "pagerecord.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace folio {

Finding::Severity PageRecord::worstSeverity(bool *any) const
{
    *any = !findings.isEmpty();
    Finding::Severity worst = Finding::Severity::Info;
    for (const Finding &f : findings)
        worst = qMax(worst, f.severity);
    return worst;
}

QString PageRecord::effectiveScope() const
{
    const QString s = cacheScope.toString();
    return (hasScope && (s == QLatin1String("public") || s == QLatin1String("private"))) ? s : QString();
}

PageRecord::Scope PageRecord::judgeScope(bool present, const QJsonValue &value)
{
    if (!present)
        return Scope::Missing;
    if (value.isString() && value.toString() == QLatin1String("public"))
        return Scope::Public;
    if (value.isString() && value.toString() == QLatin1String("private"))
        return Scope::Private;
    return Scope::Invalid;
}

QString PageRecord::stateName(State s)
{
    switch (s) {
    case State::Loading:
        return QStringLiteral("loading");
    case State::Fresh:
        return QStringLiteral("fresh");
    case State::Stale:
        return QStringLiteral("stale");
    case State::Expired:
        return QStringLiteral("expired");
    case State::Refetching:
        return QStringLiteral("refetching");
    case State::Failed:
        return QStringLiteral("failed");
    case State::Discarded:
        return QStringLiteral("discarded");
    }
    return {};
}

QString PageRecord::describeValue(bool present, const QJsonValue &v)
{
    if (!present || v.isUndefined())
        return QStringLiteral("absent");
    switch (v.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (d == double(qint64(d)) && qAbs(d) < 9e15)
            return QString::number(qint64(d));
        return QString::number(d, 'g', 15);
    }
    case QJsonValue::String:
        return QLatin1Char('"') + v.toString() + QLatin1Char('"');
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("absent");
}

QJsonObject PageRecord::toJson() const
{
    QJsonArray f;
    for (const Finding &finding : findings)
        f.append(finding.toJson());
    QJsonObject o{{QStringLiteral("index"), index},
                  {QStringLiteral("walk"), walk},
                  {QStringLiteral("state"), stateName(state)},
                  {QStringLiteral("cursor"), requestCursor ? QJsonValue(*requestCursor) : QJsonValue()},
                  {QStringLiteral("itemCount"), itemCount},
                  {QStringLiteral("limit"), requestedLimit ? QJsonValue(*requestedLimit) : QJsonValue()},
                  {QStringLiteral("latencyMs"), latencyMs},
                  {QStringLiteral("bytes"), responseBytes},
                  {QStringLiteral("receivedAtMs"), receivedAtMs},
                  {QStringLiteral("effectiveTtlMs"), effectiveTtlMs},
                  {QStringLiteral("legacyEra"), legacyEra},
                  {QStringLiteral("findings"), f}};
    switch (next) {
    case ListSource::CursorPresence::Absent:
        o[QStringLiteral("nextCursor")] = QJsonValue();
        break;
    case ListSource::CursorPresence::Null:
        o[QStringLiteral("nextCursor")] = QJsonValue();
        break;
    case ListSource::CursorPresence::String:
        o[QStringLiteral("nextCursor")] = nextCursor;
        break;
    case ListSource::CursorPresence::WrongType:
        o[QStringLiteral("nextCursor")] = nextRaw;
        break;
    }
    o[QStringLiteral("nextCursorPresent")] = next != ListSource::CursorPresence::Absent;
    // Hints exactly as received: absent is null here and "present": false.
    o[QStringLiteral("ttlMs")] = hasTtl ? ttlMs : QJsonValue();
    o[QStringLiteral("ttlMsPresent")] = hasTtl;
    o[QStringLiteral("cacheScope")] = hasScope ? cacheScope : QJsonValue();
    o[QStringLiteral("cacheScopePresent")] = hasScope;
    if (error.isError()) {
        QJsonObject e{{QStringLiteral("code"),
                       error.kind == McpError::Kind::Rpc ? QJsonValue(error.code) : QJsonValue()},
                      {QStringLiteral("message"), error.describe()},
                      {QStringLiteral("kind"), McpError::kindName(error.kind)}};
        if (!error.data.isUndefined())
            e[QStringLiteral("data")] = error.data;
        o[QStringLiteral("error")] = e;
    } else {
        o[QStringLiteral("error")] = QJsonValue();
    }
    if (!discardReason.isEmpty())
        o[QStringLiteral("discardReason")] = discardReason;
    if (refetchCount > 0) {
        o[QStringLiteral("refetchCount")] = refetchCount;
        o[QStringLiteral("diff")] = QJsonObject{{QStringLiteral("added"), diffAdded},
                                                {QStringLiteral("removed"), diffRemoved},
                                                {QStringLiteral("changed"), diffChanged}};
    }
    return o;
}

} // namespace folio
