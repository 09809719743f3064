#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace demo {

// A request to a method with content (tools/call, prompts/get, resources/read, completion):
// what the content code needs to know about it, whatever the transport.
struct CallContext
{
    bool modern = false;
    QJsonObject params;             // the request's params, _meta included
    QJsonObject clientCapabilities; // 2026: from _meta; legacy: empty
};

// What the content code answers; DemoServer puts it on the wire. A Progress answer is a tool run:
// `steps` notifications/progress `stepMs` apart (when the request has a progressToken), then
// `result`, unless it is cancelled first.
struct Answer
{
    enum class Kind { Result, Error, Progress };
    Kind kind = Kind::Result;
    QJsonObject result;
    int errorCode = 0;
    QString errorMessage;
    QJsonValue errorData;
    int httpStatus = 200;
    int steps = 0;
    int stepMs = 0;

    static Answer ok(const QJsonObject &result)
    {
        Answer a;
        a.result = result;
        return a;
    }
    static Answer error(int code, const QString &message, const QJsonValue &data = {}, int httpStatus = 200)
    {
        Answer a;
        a.kind = Kind::Error;
        a.errorCode = code;
        a.errorMessage = message;
        a.errorData = data;
        a.httpStatus = httpStatus;
        return a;
    }
    static Answer progress(const QJsonObject &result, int steps, int stepMs)
    {
        Answer a = ok(result);
        a.kind = Kind::Progress;
        a.steps = steps;
        a.stepMs = stepMs;
        return a;
    }
};

} // namespace demo
