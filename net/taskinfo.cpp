#include "taskinfo.h"

#include <QJsonValue>

namespace folio {

namespace {

QDateTime readTime(const QJsonValue &value)
{
    if (!value.isString())
        return {};
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

// A duration in milliseconds as a server gave it: -1 absent or not a number, Unlimited for null
// where null means "no limit".
qint64 readMs(const QJsonObject &object, const QString &key, bool nullIsUnlimited)
{
    const QJsonValue value = object.value(key);
    if (value.isNull() && nullIsUnlimited)
        return TaskInfo::Unlimited;
    if (!value.isDouble() || value.toDouble() < 0)
        return -1;
    return qint64(value.toDouble());
}

} // namespace

std::optional<TaskInfo> TaskInfo::fromJson(const QJsonObject &object, QString *problem)
{
    // 2025-11-25's CreateTaskResult wraps the task; everything else is the task itself.
    const QJsonObject t =
        object.value(QStringLiteral("task")).isObject() && !object.contains(QStringLiteral("taskId"))
            ? object.value(QStringLiteral("task")).toObject()
            : object;
    const QJsonValue id = t.value(QStringLiteral("taskId"));
    if (!id.isString() || id.toString().isEmpty()) {
        if (problem)
            *problem = QStringLiteral("the answer has no taskId string");
        return std::nullopt;
    }
    TaskInfo info;
    info.taskId = id.toString();
    info.statusText = t.value(QStringLiteral("status")).toString();
    info.status = statusFromName(info.statusText);
    info.statusMessage = t.value(QStringLiteral("statusMessage")).toString();
    info.createdAt = readTime(t.value(QStringLiteral("createdAt")));
    info.lastUpdatedAt = readTime(t.value(QStringLiteral("lastUpdatedAt")));
    if (t.contains(QStringLiteral("ttlMs")))
        info.ttlMs = readMs(t, QStringLiteral("ttlMs"), true);
    else if (t.contains(QStringLiteral("ttl")))
        info.ttlMs = readMs(t, QStringLiteral("ttl"), true);
    info.pollIntervalMs = t.contains(QStringLiteral("pollIntervalMs"))
                              ? readMs(t, QStringLiteral("pollIntervalMs"), false)
                              : readMs(t, QStringLiteral("pollInterval"), false);
    if (t.value(QStringLiteral("result")).isObject())
        info.result = t.value(QStringLiteral("result")).toObject();
    info.error = t.value(QStringLiteral("error")).toObject();
    info.inputRequests = t.value(QStringLiteral("inputRequests")).toObject();
    return info;
}

void TaskInfo::update(const TaskInfo &newer)
{
    if (newer.status != Status::Unknown || !newer.statusText.isEmpty()) {
        status = newer.status;
        statusText = newer.statusText;
    }
    statusMessage = newer.statusMessage;
    if (newer.createdAt.isValid())
        createdAt = newer.createdAt;
    if (newer.lastUpdatedAt.isValid())
        lastUpdatedAt = newer.lastUpdatedAt;
    if (newer.ttlMs != -1)
        ttlMs = newer.ttlMs;
    if (newer.pollIntervalMs != -1)
        pollIntervalMs = newer.pollIntervalMs;
    if (newer.result)
        result = newer.result;
    if (!newer.error.isEmpty())
        error = newer.error;
    inputRequests = newer.inputRequests;
}

QString TaskInfo::statusName(Status status)
{
    switch (status) {
    case Status::Working:
        return QStringLiteral("working");
    case Status::InputRequired:
        return QStringLiteral("input_required");
    case Status::Completed:
        return QStringLiteral("completed");
    case Status::Failed:
        return QStringLiteral("failed");
    case Status::Cancelled:
        return QStringLiteral("cancelled");
    case Status::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

TaskInfo::Status TaskInfo::statusFromName(const QString &name)
{
    for (Status s :
         {Status::Working, Status::InputRequired, Status::Completed, Status::Failed, Status::Cancelled}) {
        if (statusName(s) == name)
            return s;
    }
    return Status::Unknown;
}

QString TaskInfo::statusLabel(Status status)
{
    switch (status) {
    case Status::InputRequired:
        return QStringLiteral("needs input");
    case Status::Unknown:
        return QStringLiteral("unknown status");
    default:
        return statusName(status);
    }
}

} // namespace folio
