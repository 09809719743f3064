#pragma once

#include "answer.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace demo {

// The 2026-07-28 multi-round trip (MRTR) from the server's side: an `input_required` result asks
// the client for input (elicitation, sampling, roots), and the client sends the same request again
// with `inputResponses` and the `requestState` it was given. The state is the server's memory
// across rounds, so it is signed (HMAC-SHA256 with a key made at start-up): a state the client
// changed does not verify.
class InputRequests
{
public:
    InputRequests();

    static QJsonObject elicitation(const QString &message, const QJsonObject &requestedSchema);
    static QJsonObject sampling(const QString &text, int maxTokens);
    static QJsonObject roots();
    // {resultType: "input_required", inputRequests, requestState?}; an empty state is left out.
    static QJsonObject inputRequired(const QJsonObject &requests, const QString &state = {});

    QString sign(const QJsonObject &state) const;
    // The signed state, if the signature verifies.
    std::optional<QJsonObject> verify(const QString &state) const;

    // Reads params.inputResponses: absent gives an empty object; anything but an object (null
    // included) is a protocol error, which `error` is set to.
    static QJsonObject responses(const QJsonObject &params, std::optional<Answer> *error);
    // The elicitation answer under key: its content when accepted; nullopt when it is missing or
    // not an elicitation result (the caller asks again).
    static std::optional<QJsonObject> accepted(const QJsonObject &responses, const QString &key,
                                               bool *declined = nullptr);

private:
    QByteArray m_key;
};

} // namespace demo
