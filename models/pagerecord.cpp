#include "pagerecord.h"

#include "cursordecoder.h"
#include "ttlclock.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace folio {

qint64 PageRecord::expiresAtMonoMs() const
{
    return effectiveTtlMs > 0 && receivedMonoMs >= 0 ? TtlClock::deadlineFor(receivedMonoMs, effectiveTtlMs)
                                                     : -1;
}

Finding::Severity PageRecord::worstSeverity(bool *any) const
{
    *any = !findings.isEmpty();
    Finding::Severity worst = Finding::Severity::Info;
    for (const Finding &f : findings)
        worst = qMax(worst, f.severity);
    return worst;
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
        if (qAbs(d) < 9e15 && d == double(qint64(d))) // the range first: a cast out of it is undefined
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
    const QJsonArray f = Finding::toJson(findings);
    QJsonObject o{{QStringLiteral("page"), index + 1}, // numbered from 1, as the window shows it
                  {QStringLiteral("walk"), walk},
                  {QStringLiteral("state"), stateName(state)},
                  {QStringLiteral("cursor"), requestCursor ? QJsonValue(*requestCursor) : QJsonValue()},
                  {QStringLiteral("itemCount"), itemCount},
                  {QStringLiteral("limit"), requestedLimit ? QJsonValue(*requestedLimit) : QJsonValue()},
                  {QStringLiteral("latencyMs"), latencyMs()},
                  {QStringLiteral("bytes"), responseBytes},
                  {QStringLiteral("receivedAtMs"), receivedAtMs},
                  {QStringLiteral("effectiveTtlMs"), effectiveTtlMs},
                  {QStringLiteral("legacyEra"), legacyEra},
                  {QStringLiteral("findings"), f}};
    switch (next.presence) {
    case NextCursor::Presence::Absent:
        o[QStringLiteral("nextCursor")] = QJsonValue();
        break;
    case NextCursor::Presence::Null:
        o[QStringLiteral("nextCursor")] = QJsonValue();
        break;
    case NextCursor::Presence::String:
        o[QStringLiteral("nextCursor")] = next.text;
        break;
    case NextCursor::Presence::WrongType:
        o[QStringLiteral("nextCursor")] = next.raw;
        break;
    }
    o[QStringLiteral("nextCursorPresent")] = next.presence != NextCursor::Presence::Absent;
    // Hints exactly as received: absent is null here and "present": false.
    hints.writeTo(o);
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
    if (!parting.isEmpty()) // where this walk parts from the walk before (PageWalker)
        o[QStringLiteral("parting")] = parting;
    if (refetchCount > 0) {
        o[QStringLiteral("refetchCount")] = refetchCount;
        o[QStringLiteral("diff")] = QJsonObject{{QStringLiteral("added"), diffAdded},
                                                {QStringLiteral("removed"), diffRemoved},
                                                {QStringLiteral("changed"), diffChanged}};
    }
    return o;
}

} // namespace folio

namespace folio {

QJsonValue PageRecord::maskCursorsIn(const QJsonValue &value, const QStringList &cursors)
{
    switch (value.type()) {
    case QJsonValue::String: {
        QString s = value.toString();
        for (const QString &c : cursors) {
            if (!c.isEmpty() && s.contains(c))
                s.replace(c, maskCursor(c));
        }
        return s;
    }
    case QJsonValue::Array: {
        QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            a[i] = maskCursorsIn(a.at(i), cursors);
        return a;
    }
    case QJsonValue::Object: {
        QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = maskCursorsIn(it.value(), cursors);
        return o;
    }
    default:
        return value;
    }
}

PageRecord PageRecord::masked() const
{
    QStringList cursors;
    if (requestCursor)
        cursors << *requestCursor;
    if (next.isString())
        cursors << next.text;
    for (const Finding &f : findings) {
        for (const char *key : {"cursor", "nextCursor"}) {
            const QJsonValue v = f.evidence.value(QLatin1String(key));
            if (v.isString())
                cursors << v.toString();
        }
    }
    // Longest first, so a cursor that contains another is masked whole.
    std::sort(cursors.begin(), cursors.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    PageRecord m = *this;
    if (m.requestCursor)
        m.requestCursor = maskCursor(*m.requestCursor);
    if (m.next.isString())
        m.next.text = maskCursor(m.next.text);
    for (Finding &f : m.findings) {
        f.message = maskCursorsIn(f.message, cursors).toString();
        f.evidence = maskCursorsIn(f.evidence, cursors).toObject();
    }
    m.error.message = maskCursorsIn(m.error.message, cursors).toString();
    return m;
}

QJsonObject PageRecord::toMaskedJson() const
{
    return masked().toJson();
}

} // namespace folio
