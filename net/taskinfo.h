#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <optional>

namespace folio {

// One task as a server described it (a plain value the models and the window read): the
// 2025-11-25 core tasks (`Task`: ttl, pollInterval, `{task: …}` from a task-augmented call) and
// the 2026-07-28 extension io.modelcontextprotocol/tasks (flat: ttlMs, pollIntervalMs, and in a
// DetailedTask the result or error inlined). Fields are kept as received; what is absent stays so.
struct TaskInfo
{
    enum class Status { Unknown, Working, InputRequired, Completed, Failed, Cancelled };

    QString taskId;
    Status status = Status::Unknown;
    QString statusText; // the status as received ("working", or what an odd server sent)
    QString statusMessage;
    QDateTime createdAt;     // invalid when absent or unreadable
    QDateTime lastUpdatedAt; // invalid when absent or unreadable
    // How long the server keeps the task from its creation: -1 when it gave none, 0 or more as
    // given; unlimited (a null ttl, 2025) is -2.
    qint64 ttlMs = -1;
    qint64 pollIntervalMs = -1; // -1: none suggested
    // A completed task's CallToolResult (2026 tasks/get inlines it; 2025 asks tasks/result).
    std::optional<QJsonObject> result;
    QJsonObject error; // a failed task's {code, message} (2026), as received
    // What a 2026 task waiting for the client asks (input_required: {key: {method, params}}).
    QJsonObject inputRequests;

    bool isTerminal() const
    {
        return status == Status::Completed || status == Status::Failed || status == Status::Cancelled;
    }
    static constexpr qint64 Unlimited = -2;

    // Reads a task from a tasks/get or tasks/cancel answer, a status notification's params, a
    // 2026 CreateTaskResult (resultType "task") or a 2025 one ({task: {...}}). std::nullopt when
    // there is no taskId string; *problem then says why.
    static std::optional<TaskInfo> fromJson(const QJsonObject &object, QString *problem = nullptr);
    // Takes what `newer` says over this (a notification may carry fewer fields than tasks/get).
    void update(const TaskInfo &newer);

    // "working", "input_required", "completed", "failed", "cancelled", or "unknown".
    static QString statusName(Status status);
    static Status statusFromName(const QString &name);
    // A person's words: "working", "needs input", "completed", …
    static QString statusLabel(Status status);
};

} // namespace folio
