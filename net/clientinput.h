#pragma once

#include "mcperror.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <optional>

namespace folio {

// What a server may ask of the client while it works: fill in a form (elicitation), write a
// model's reply (sampling), or name the client's roots. It asks in one of two ways:
// - 2026-07-28: a result {"resultType":"input_required","inputRequests":{key:{method,params}}}
//   that the client answers by sending the request again with "inputResponses";
// - 2025 era: a server-to-client request (elicitation/create, sampling/createMessage, roots/list).
// Both come to the same InputRequest, answered through the same InputResponder and views.
struct InputRequest
{
    enum class Kind { Elicitation, Sampling, Roots };

    Kind kind = Kind::Elicitation;
    QString method;     // "elicitation/create", "sampling/createMessage" or "roots/list"
    QJsonObject params; // exactly as the server sent them
    QString key;        // 2026: its key in inputRequests; empty for a 2025-era server request
    QString askedFor;   // what Folio asked when it came: "tools/call add", "prompts/get greet"; may be empty

    // The kind for a method name; nothing for a method Folio does not answer.
    static std::optional<Kind> kindOf(const QString &method);
    static QString kindName(Kind kind); // "elicitation", "sampling", "roots"
    // One line: "elicitation for tools/call add: Please confirm to continue".
    QString summary() const;
    // A 2026 inputRequests object ({key: {method, params}}) as requests, in key order.
    static QList<InputRequest> fromInputRequests(const QJsonObject &inputRequests, const QString &askedFor);
};

// The pending answer to one InputRequest. The client makes it and hands it to its InputResponder,
// which (at once or later, say after a dialog) calls exactly one of answer(), decline() or
// refuse(). withdrawn() tells the responder that the answer is no longer wanted (the request it
// served was cancelled or failed, or the connection closed); the reply is then closed.
class InputReply : public QObject
{
    Q_OBJECT
public:
    explicit InputReply(const InputRequest &request, QObject *parent = nullptr);

    const InputRequest &request() const { return m_request; }
    bool isOpen() const { return !m_done; }

    // The result object: {"action":"accept","content":{…}} for an elicitation, a
    // CreateMessageResult for sampling, {"roots":[…]} for roots.
    void answer(const QJsonObject &result);
    // The user said no: elicitation {"action":"decline"}; sampling and roots get an error
    // (-1 "User rejected the request", as the spec's examples have it).
    void decline();
    // The user dismissed it without choosing: elicitation {"action":"cancel"}; otherwise decline().
    void dismiss();
    // Could not be answered at all (an error the server gets).
    void refuse(const McpError &error);

    // Called by the client only.
    void withdraw();

Q_SIGNALS:
    // Exactly once, with what was chosen (error set when refused or declined as an error).
    void replied(const QJsonObject &result, const folio::McpError &error);
    void withdrawn();

private:
    void finish(const QJsonObject &result, const McpError &error);

    InputRequest m_request;
    bool m_done = false;
};

// Answers a server's input requests. The client declares exactly the capabilities its responder
// answers (elicitation {"form":{}}, sampling {}, roots {}); with none set it declares none and
// refuses such requests itself.
class InputResponder
{
public:
    virtual ~InputResponder() = default;
    virtual bool answers(InputRequest::Kind kind) const = 0;
    // The reply is owned by the client; it stays valid until replied() or withdrawn().
    virtual void respond(InputReply *reply) = 0;
};

// The schema's defaults for an elicitation's requestedSchema (top-level properties that have a
// "default"), as the content of an accepted answer: what a form starts with and what a client
// that fills nothing in sends (SEP-1034).
QJsonObject elicitationDefaults(const QJsonObject &requestedSchema);

// A responder that answers without asking anyone: elicitations accepted with the schema's
// defaults (plus `extra` values), sampling with a fixed text, roots from a list. Used by the
// headless commands and the conformance entry point.
class DefaultInputResponder : public InputResponder
{
public:
    bool answerElicitation = true;
    QJsonObject elicitationValues; // added over the defaults
    bool answerSampling = false;
    QString samplingText = QStringLiteral("(a reply written by Folio)");
    bool answerRoots = true;
    QList<QJsonObject> roots; // {"uri":"file:///…","name":"…"}

    bool answers(InputRequest::Kind kind) const override;
    void respond(InputReply *reply) override;
};

} // namespace folio
