#pragma once

#include "trafficlog.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace folio {

// The traffic log as files that leave the machine (docs/traffic-export.md): JSON Lines, one
// message per line, and HAR 1.2 for HTTP traffic. What the log holds is masked already
// (TrafficLog redacts as it records), and these functions add nothing the log did not keep.
namespace TrafficExport {

// {time, direction, transport, method, id, size, latencyMs, isError, truncated, message}: time in
// ISO 8601 UTC with milliseconds; message the JSON as sent or received (a string when it is not
// JSON: a diagnostic line, a malformed message, text the log cut).
QJsonObject entryJson(const TrafficLog::Entry &entry);
// The message alone (as entryJson()'s "message").
QJsonValue messageJson(const TrafficLog::Entry &entry);
// One entryJson() per line, compact, each line ended by "\n".
QByteArray toJsonLines(const QVector<TrafficLog::Entry> &entries);
// A HAR 1.2 log ({log:{version, creator:{name: folio, version}, entries:[...]}}) of the exchanges.
QJsonObject toHar(const QVector<HttpExchange> &exchanges, const QString &folioVersion);

// Writes data to path whole or not at all (QSaveFile); false with the reason in *error.
bool writeFile(const QString &path, const QByteArray &data, QString *error);

} // namespace TrafficExport

} // namespace folio
