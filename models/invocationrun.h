#pragma once

#include "mcperror.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

namespace folio {

class Invocation;
class McpClient;

// A tool call or a prompt get a person asked for, followed to its end and told as the window and
// `folio call` tell it: how it ended, the result to show (for a tool's own error, the result that
// carried isError), the timing, and every round as text. The one home for reading an Invocation,
// so that views hold this and value types, never the protocol's request objects.
class InvocationRun : public QObject
{
    Q_OBJECT
public:
    enum class Outcome {
        Running,
        Done,
        ToolError, // a tools/call result with isError: true (or the error it became)
        Failed,    // a protocol failure, a refusal, a closed connection
        Cancelled,
    };

    // Starts tools/call (with the tool's x-mcp-header values) or prompts/get at once. A call
    // refused before anything is sent is finished on return: check isFinished().
    static InvocationRun *callTool(McpClient *client, const QJsonObject &tool, const QJsonObject &arguments,
                                   QObject *parent);
    static InvocationRun *getPrompt(McpClient *client, const QString &name, const QJsonObject &arguments,
                                    QObject *parent);
    ~InvocationRun() override;
    // Why Folio does not call a tool (its x-mcp-header declarations are invalid); empty when it does.
    static QString refusal(const QJsonObject &tool);

    // "tools/call add", "prompts/get greet".
    QString title() const;
    QJsonObject params() const; // as asked for
    bool isFinished() const;
    Outcome outcome() const;
    McpError error() const;
    // The result to show: the final result, or for a tool's own error the result that said so;
    // empty when there is none.
    QJsonObject result() const;
    int roundCount() const;
    qint64 totalMs() const; // -1 before the first answer
    // "1 round trip, 12 ms." (or without the time when there is none).
    QString timing() const;
    // Every round: its id, latency, the params sent, the response (indented when it is JSON),
    // its error and what the server asked for; "Nothing was sent: why" when no round went out.
    // Raw server text: the caller filters it for display.
    QString transcript() const;

    void cancel();

Q_SIGNALS:
    void progressed(double progress, double total, const QString &message);
    void finished();

private:
    InvocationRun(Invocation *invocation, QObject *parent);

    QPointer<Invocation> m_invocation;
};

} // namespace folio
