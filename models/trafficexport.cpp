#include "trafficexport.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QUrl>
#include <QUrlQuery>

namespace folio::TrafficExport {

namespace {

QString isoTime(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toUTC().toString(Qt::ISODateWithMs);
}

QString directionName(TrafficLog::Direction d)
{
    switch (d) {
    case TrafficLog::Direction::Outgoing:
        return QStringLiteral("sent");
    case TrafficLog::Direction::Incoming:
        return QStringLiteral("received");
    case TrafficLog::Direction::Diagnostic:
        return QStringLiteral("diagnostic");
    }
    return {};
}

QJsonArray harHeaders(const HttpExchange::Headers &headers)
{
    QJsonArray a;
    for (const auto &[name, value] : headers)
        a.append(QJsonObject{{QStringLiteral("name"), QString::fromLatin1(name)},
                             {QStringLiteral("value"), QString::fromUtf8(value)}});
    return a;
}

QString mimeType(const HttpExchange &ex, const HttpExchange::Headers &headers)
{
    return QString::fromLatin1(ex.header(headers, "Content-Type"));
}

QString httpVersion(const HttpExchange &ex)
{
    return ex.http2 ? QStringLiteral("HTTP/2") : QStringLiteral("HTTP/1.1");
}

} // namespace

QJsonValue messageJson(const TrafficLog::Entry &entry)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(entry.text, &error);
    if (error.error == QJsonParseError::NoError && doc.isObject())
        return doc.object();
    if (error.error == QJsonParseError::NoError && doc.isArray())
        return doc.array();
    return QString::fromUtf8(entry.text);
}

QJsonObject entryJson(const TrafficLog::Entry &entry)
{
    QJsonObject o{
        {QStringLiteral("time"), isoTime(entry.timestampMs)},
        {QStringLiteral("direction"), directionName(entry.direction)},
        {QStringLiteral("transport"), entry.transport},
        {QStringLiteral("method"), entry.method.isEmpty() ? QJsonValue() : QJsonValue(entry.method)},
        {QStringLiteral("id"), entry.id.isEmpty() ? QJsonValue() : QJsonValue(entry.id)},
        {QStringLiteral("size"), entry.bytes},
        {QStringLiteral("latencyMs"), entry.latencyMs >= 0 ? QJsonValue(entry.latencyMs) : QJsonValue()},
        {QStringLiteral("isError"), entry.isError},
        {QStringLiteral("truncated"), entry.truncated},
        {QStringLiteral("message"), messageJson(entry)}};
    return o;
}

QByteArray toJsonLines(const QVector<TrafficLog::Entry> &entries)
{
    QByteArray out;
    for (const TrafficLog::Entry &e : entries) {
        out += QJsonDocument(entryJson(e)).toJson(QJsonDocument::Compact);
        out += '\n';
    }
    return out;
}

QJsonObject toHar(const QVector<HttpExchange> &exchanges, const QString &folioVersion)
{
    QJsonArray entries;
    for (const HttpExchange &ex : exchanges) {
        QJsonArray query;
        const QUrlQuery q(QUrl(ex.url).query());
        for (const auto &[name, value] : q.queryItems(QUrl::FullyDecoded))
            query.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("value"), value}});
        QJsonObject request{{QStringLiteral("method"), QString::fromLatin1(ex.method)},
                            {QStringLiteral("url"), ex.url},
                            {QStringLiteral("httpVersion"), httpVersion(ex)},
                            {QStringLiteral("cookies"), QJsonArray()},
                            {QStringLiteral("headers"), harHeaders(ex.requestHeaders)},
                            {QStringLiteral("queryString"), query},
                            {QStringLiteral("headersSize"), -1},
                            {QStringLiteral("bodySize"), ex.requestBody.size()}};
        if (!ex.requestBody.isEmpty() || ex.method == "POST")
            request.insert(QStringLiteral("postData"),
                           QJsonObject{{QStringLiteral("mimeType"), mimeType(ex, ex.requestHeaders)},
                                       {QStringLiteral("text"), QString::fromUtf8(ex.requestBody)}});
        QJsonObject content{{QStringLiteral("size"), ex.responseBytes},
                            {QStringLiteral("mimeType"), mimeType(ex, ex.responseHeaders)},
                            {QStringLiteral("text"), QString::fromUtf8(ex.responseBody)}};
        if (ex.responseBody.size() < ex.responseBytes)
            content.insert(QStringLiteral("comment"), QStringLiteral("cut at %1 of %2 bytes")
                                                          .arg(QString::number(ex.responseBody.size()),
                                                               QString::number(ex.responseBytes)));
        const QJsonObject response{
            {QStringLiteral("status"), ex.status},
            {QStringLiteral("statusText"), QString::fromLatin1(ex.statusText)},
            {QStringLiteral("httpVersion"), ex.status > 0 ? httpVersion(ex) : QString()},
            {QStringLiteral("cookies"), QJsonArray()},
            {QStringLiteral("headers"), harHeaders(ex.responseHeaders)},
            {QStringLiteral("content"), content},
            {QStringLiteral("redirectURL"), QString::fromUtf8(ex.header(ex.responseHeaders, "Location"))},
            {QStringLiteral("headersSize"), -1},
            {QStringLiteral("bodySize"), ex.responseBytes}};
        const qint64 finished = ex.finishedMs >= 0 ? ex.finishedMs : ex.startedMs;
        const qint64 firstByte =
            qBound(ex.startedMs, ex.firstByteMs >= 0 ? ex.firstByteMs : finished, finished);
        QJsonObject entry{
            {QStringLiteral("startedDateTime"), isoTime(ex.startedMs)},
            {QStringLiteral("time"), finished - ex.startedMs},
            {QStringLiteral("request"), request},
            {QStringLiteral("response"), response},
            {QStringLiteral("cache"), QJsonObject()},
            {QStringLiteral("timings"), QJsonObject{{QStringLiteral("blocked"), -1},
                                                    {QStringLiteral("dns"), -1},
                                                    {QStringLiteral("connect"), -1},
                                                    {QStringLiteral("send"), 0},
                                                    {QStringLiteral("wait"), firstByte - ex.startedMs},
                                                    {QStringLiteral("receive"), finished - firstByte}}}};
        if (!ex.error.isEmpty())
            entry.insert(QStringLiteral("_error"), ex.error); // HAR's custom fields start with _
        entries.append(entry);
    }
    return {
        {QStringLiteral("log"), QJsonObject{{QStringLiteral("version"), QStringLiteral("1.2")},
                                            {QStringLiteral("creator"),
                                             QJsonObject{{QStringLiteral("name"), QStringLiteral("folio")},
                                                         {QStringLiteral("version"), folioVersion}}},
                                            {QStringLiteral("entries"), entries}}}};
}

bool writeFile(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace folio::TrafficExport
