#include "bugreportrender.h"
#include "counted.h"

#include "pagerecord.h"

#include <QDateTime>
#include <QJsonDocument>

namespace folio::BugReport::Render {

QList<Fact> serverFacts(const QJsonObject &report, const QJsonObject &server)
{
    QList<Fact> facts;
    const auto fact = [&facts](const QString &label, const QJsonValue &v, bool code = false) {
        if (v.isNull() || v.isUndefined() || (v.isString() && v.toString().isEmpty()))
            return;
        facts.append({label, v.isString() ? v.toString() : PageRecord::describeValue(true, v), code});
    };
    fact(QStringLiteral("Name (serverInfo)"), server.value(QStringLiteral("name")));
    fact(QStringLiteral("Title"), server.value(QStringLiteral("title")));
    fact(QStringLiteral("Version"), server.value(QStringLiteral("version")));
    fact(QStringLiteral("Transport"), server.value(QStringLiteral("transport")));
    fact(QStringLiteral("Protocol revision"), server.value(QStringLiteral("revision")));
    fact(QStringLiteral("Started as"), server.value(QStringLiteral("target")), true);
    fact(QStringLiteral("Demo scenario"), server.value(QStringLiteral("demoScenario")));
    fact(QStringLiteral("Instructions"), server.value(QStringLiteral("instructions")));
    fact(QStringLiteral("Report written"), QStringLiteral("%1 by %2")
                                               .arg(report.value(QStringLiteral("generatedAt")).toString(),
                                                    report.value(QStringLiteral("generator")).toString()));
    return facts;
}

Parts::Parts(const QJsonObject &report)
    : server(report.value(QStringLiteral("server")).toObject())
    , summary(report.value(QStringLiteral("summary")).toObject())
    , lists(report.value(QStringLiteral("lists")).toArray())
    , findings(report.value(QStringLiteral("findings")).toArray())
    , serverName(server.value(QStringLiteral("displayName")).toString())
{
    if (serverName.isEmpty())
        serverName = server.value(QStringLiteral("name")).toString();
}

QString pageLabel(const QJsonObject &page)
{
    const int number = page.value(QStringLiteral("page")).toInt();
    const int walk = page.value(QStringLiteral("walk")).toInt();
    return walk > 0
               ? QStringLiteral("Page %1 (walk %2)").arg(QString::number(number), QString::number(walk + 1))
               : QStringLiteral("Page %1").arg(number);
}

QString cursorText(const QJsonValue &cursor, bool present)
{
    if (!present)
        return QStringLiteral("absent");
    if (cursor.isNull() || cursor.isUndefined())
        return QStringLiteral("(none)");
    if (cursor.isString())
        return cursor.toString().isEmpty() ? QStringLiteral("\"\" (empty string)") : cursor.toString();
    return PageRecord::describeValue(true, cursor) + QStringLiteral(" (not a string)");
}

QString decodedText(const QJsonValue &decoding)
{
    return decoding.toObject().value(QStringLiteral("summary")).toString();
}

QString ttlSent(const QJsonObject &page)
{
    if (page.value(QStringLiteral("legacyEra")).toBool())
        return QStringLiteral("no hints (legacy era)");
    if (!page.value(QStringLiteral("hintsExpected")).toBool() &&
        !page.value(QStringLiteral("ttlMsPresent")).toBool())
        return QStringLiteral("no hints (tool result)");
    return PageRecord::describeValue(page.value(QStringLiteral("ttlMsPresent")).toBool(),
                                     page.value(QStringLiteral("ttlMs")));
}

QString ttlEffective(const QJsonObject &page)
{
    if (!page.value(QStringLiteral("hintsExpected")).toBool())
        return QStringLiteral("—");
    const qint64 ms = page.value(QStringLiteral("effectiveTtlMs")).toInteger();
    return ms > 0 ? durationText(ms) : QStringLiteral("0 (stale at once)");
}

QString scopeSent(const QJsonObject &page)
{
    if (!page.value(QStringLiteral("hintsExpected")).toBool() &&
        !page.value(QStringLiteral("cacheScopePresent")).toBool())
        return QStringLiteral("—");
    return PageRecord::describeValue(page.value(QStringLiteral("cacheScopePresent")).toBool(),
                                     page.value(QStringLiteral("cacheScope")));
}

QString scopeEffective(const QJsonObject &page)
{
    const QString s = page.value(QStringLiteral("effectiveCacheScope")).toString();
    return s == QLatin1String("not-applicable") ? QStringLiteral("—") : s;
}

QString errorText(const QJsonObject &page)
{
    const QJsonObject e = page.value(QStringLiteral("error")).toObject();
    if (e.isEmpty())
        return {};
    const QJsonValue code = e.value(QStringLiteral("code"));
    const QString message = e.value(QStringLiteral("message")).toString();
    return code.isDouble() && !message.contains(QString::number(code.toInt()))
               ? QStringLiteral("%1 %2").arg(QString::number(code.toInt()), message)
               : message;
}

QString bytesText(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return QStringLiteral("%1 KiB").arg(double(bytes) / 1024, 0, 'f', bytes % 1024 == 0 ? 0 : 1);
    return QStringLiteral("%1 MiB").arg(double(bytes) / (1024 * 1024), 0, 'f', 1);
}

QString durationText(qint64 ms)
{
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 120000)
        return QStringLiteral("%1 s").arg(double(ms) / 1000, 0, 'f', ms % 1000 == 0 ? 0 : 1);
    return QStringLiteral("%1 min").arg(double(ms) / 60000, 0, 'f', 1);
}

QString clockTime(qint64 wallMs)
{
    return QDateTime::fromMSecsSinceEpoch(wallMs).toUTC().toString(QStringLiteral("HH:mm:ss.zzz"));
}

QString rawText(const QJsonValue &entry, qsizetype capBytes, bool *cut)
{
    *cut = false;
    if (!entry.isObject())
        return {};
    const QJsonValue message = entry.toObject().value(QStringLiteral("message"));
    QByteArray text;
    if (message.isObject())
        text = QJsonDocument(message.toObject()).toJson(QJsonDocument::Indented);
    else if (message.isArray())
        text = QJsonDocument(message.toArray()).toJson(QJsonDocument::Indented);
    else
        text = message.toString().toUtf8();
    if (text.size() > capBytes) {
        qsizetype at = capBytes;
        while (at > 0 && (uchar(text.at(at)) & 0xC0) == 0x80)
            --at; // not inside a character
        text.truncate(at);
        *cut = true;
    }
    return QString::fromUtf8(text).trimmed();
}

QString rawCaption(const QJsonValue &entry, const QString &what, const QJsonValue &requestId)
{
    if (!entry.isObject()) {
        return requestId.isString() ? QStringLiteral("%1: not in the traffic log (request id %2)")
                                          .arg(what, requestId.toString())
                                    : QStringLiteral("%1: not in the traffic log").arg(what);
    }
    const QJsonObject e = entry.toObject();
    QString s = QStringLiteral("%1 · id %2 · %3")
                    .arg(what, e.value(QStringLiteral("id")).toString(),
                         bytesText(e.value(QStringLiteral("size")).toInteger()));
    if (e.value(QStringLiteral("latencyMs")).isDouble())
        s += QStringLiteral(" · %1").arg(durationText(e.value(QStringLiteral("latencyMs")).toInteger()));
    if (e.value(QStringLiteral("isError")).toBool())
        s += QStringLiteral(" · error");
    if (e.value(QStringLiteral("message")).isNull())
        s += QStringLiteral(" · text not kept by the log");
    else if (e.value(QStringLiteral("truncated")).toBool())
        s += QStringLiteral(" · cut by the log at 1 MiB");
    return s;
}

int pageOfFinding(const QJsonArray &pages, const QJsonObject &finding)
{
    const QJsonValue number = finding.value(QStringLiteral("page"));
    if (!number.isDouble())
        return -1;
    const bool ofWalk = finding.contains(QStringLiteral("walk"));
    const int walk = finding.value(QStringLiteral("walk")).toInt();
    int best = -1, bestWalk = -1;
    for (qsizetype i = 0; i < pages.size(); ++i) {
        const QJsonObject p = pages.at(i).toObject();
        if (p.value(QStringLiteral("page")).toInt() != number.toInt())
            continue;
        const int w = p.value(QStringLiteral("walk")).toInt();
        if (ofWalk ? w == walk : w >= bestWalk) {
            best = int(i);
            bestWalk = w;
        }
    }
    return best;
}

QString severityName(const QJsonObject &finding)
{
    return finding.value(QStringLiteral("severity")).toString();
}

QString endedText(const QJsonObject &list)
{
    if (list.value(QStringLiteral("complete")).toBool())
        return QStringLiteral("complete");
    const QString why = list.value(QStringLiteral("stopReason")).toString();
    return why.isEmpty() ? QStringLiteral("not walked to its end") : QStringLiteral("stopped: ") + why;
}

QString countsText(const QJsonObject &counts)
{
    QStringList parts;
    const int errors = counts.value(QStringLiteral("errors")).toInt();
    const int warnings = counts.value(QStringLiteral("warnings")).toInt();
    const int infos = counts.value(QStringLiteral("infos")).toInt();
    if (errors)
        parts << counted(errors, "error", "errors");
    if (warnings)
        parts << counted(warnings, "warning", "warnings");
    if (infos)
        parts << counted(infos, "info", "infos");
    return parts.isEmpty() ? QStringLiteral("no findings") : parts.join(QStringLiteral(", "));
}

} // namespace folio::BugReport::Render
