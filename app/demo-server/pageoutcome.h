#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace demo {

// What a list request comes to: a result, a JSON-RPC error, or (on purpose) nothing at all.
struct PageOutcome
{
    enum class Kind { Result, Error, NoAnswer };

    Kind kind = Kind::Result;
    QJsonObject result;
    // A protocol list's items, already serialized as a JSON array, written into the result as
    // the member itemsKey (kept out of result: a page is serialized once, not built as objects).
    QString itemsKey;
    QByteArray itemsJson;
    int errorCode = 0;
    QString errorMessage;
    QJsonValue errorData;
    qint64 delayMs = 0;
    // list-changed with "at": the list gained an item as this page was served; the server says
    // list_changed once the page is sent.
    bool listChanged = false;

    static PageOutcome error(int code, const QString &message, const QJsonValue &data = {})
    {
        PageOutcome outcome;
        outcome.kind = Kind::Error;
        outcome.errorCode = code;
        outcome.errorMessage = message;
        outcome.errorData = data;
        return outcome;
    }
};

} // namespace demo
