#pragma once

#include "clientinput.h"
#include "mcperror.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QPointer>

namespace folio {

class McpClient;
class RpcCall;

// A request a user makes of a server (tools/call, prompts/get, resources/read, …) followed to its
// end. Made by McpClient::invoke() and its wrappers; owned by whoever asked; finished() is emitted
// exactly once.
// - Progress: it asks with a progressToken and reports notifications/progress as progressed().
// - 2026 multi-round-trip: a result with resultType "input_required" is answered, each of its
//   inputRequests through the client's InputResponder, then the request is sent again with
//   "inputResponses" and "requestState" (echoed exactly; absent when absent) under a new JSON-RPC
//   id. Each send is a Round. At most maxRounds rounds; a result that still asks fails then.
// - cancel() sends notifications/cancelled for the round in flight and withdraws pending inputs.
class Invocation : public QObject
{
    Q_OBJECT
public:
    static constexpr int defaultMaxRounds = 8;

    struct Round
    {
        QJsonValue id;
        QJsonObject params; // as sent (with the 2026 envelope)
        QJsonObject result; // as received; empty on error
        QByteArray raw;     // the response's bytes
        McpError error;
        qint64 sentAtMs = 0;
        qint64 receivedAtMs = 0;
        qint64 latencyMs = -1;
        QList<InputRequest> inputs; // what an input_required result asked for
    };

    Invocation(McpClient *client, const QString &method, const QJsonObject &params, QObject *parent);
    ~Invocation() override;

    QString method() const { return m_method; }
    QJsonObject params() const { return m_params; } // as the caller gave them
    // "tools/call add", "resources/read demo://x": for titles and errors.
    QString title() const;

    bool isFinished() const { return m_finished; }
    bool isError() const { return m_error.isError(); }
    bool isCancelled() const { return m_error.kind == McpError::Kind::Cancelled; }
    McpError error() const { return m_error; }
    // The final result exactly as received (resultType "complete" or none); empty on error.
    QJsonObject result() const { return m_result; }
    QByteArray rawResponse() const;
    const QList<Round> &rounds() const { return m_rounds; }
    // The spec's caching rule: only a result that took one round (no inputResponses, no
    // requestState sent) may be cached.
    bool isCacheable() const { return m_finished && !isError() && m_rounds.size() == 1; }

    qint64 sentAtMs() const;     // the first round's
    qint64 receivedAtMs() const; // the last round's
    qint64 totalMs() const;      // from the first send to the final answer

    // The last progress notification; total < 0 when the server gave none.
    double progress() const { return m_progress; }
    double progressTotal() const { return m_progressTotal; }
    QString progressMessage() const { return m_progressMessage; }
    QString progressToken() const { return m_progressToken; }

    int maxRounds() const { return m_maxRounds; }
    void setMaxRounds(int rounds) { m_maxRounds = rounds; }
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    // Extra HTTP headers each round carries (Mcp-Param-*); set before start().
    void setHeaders(const QList<QPair<QByteArray, QByteArray>> &headers) { m_headers = headers; }

    void start();
    void cancel();
    // Fails it before anything is sent (a tool Folio refuses to call, no connection).
    void failNow(const McpError &error);

Q_SIGNALS:
    void progressed(double progress, double total, const QString &message);
    // An input the server asked for, handed to the responder; for views that show the exchange.
    void inputRequested(folio::InputReply *reply);
    void roundFinished(int round);
    void finished();

private:
    friend class McpClient;
    void sendRound(const QJsonObject &inputResponses, const std::optional<QString> &requestState);
    void handleRound(RpcCall *call);
    void handleProgress(const QJsonObject &params);
    // Hands the last round's inputs to the responder; the next round goes once all are answered.
    void answerInputs(const std::optional<QString> &requestState);
    void inputReplied(InputReply *reply, const QJsonObject &result, const McpError &error);
    void finish(const QJsonObject &result, const McpError &error);

    QPointer<McpClient> m_client;
    QString m_method;
    QJsonObject m_params;
    QString m_progressToken;
    QList<Round> m_rounds;
    QPointer<RpcCall> m_call;
    QList<QPointer<InputReply>> m_pendingInputs;
    QJsonObject m_collected;               // inputResponses gathered for the next round
    std::optional<QString> m_pendingState; // requestState to echo in the next round
    QList<QPair<QByteArray, QByteArray>> m_headers;
    QJsonObject m_result;
    McpError m_error;
    double m_progress = -1;
    double m_progressTotal = -1;
    QString m_progressMessage;
    int m_maxRounds = defaultMaxRounds;
    int m_timeoutMs = -1;
    bool m_finished = false;
};

} // namespace folio
