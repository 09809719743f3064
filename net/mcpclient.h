#pragma once

#include "clientinput.h"
#include "clientstate.h"
#include "mcperror.h"
#include "protocol.h"
#include "resourcesubscription.h"
#include "serverconfig.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

namespace folio {

class Authorizer;
class Handshake;
class Invocation;
class JsonRpcConnection;
class ReplayClock;
class ReplayScript;
class SessionRecorder;
struct SessionRecording;
class RpcCall;
class TrafficLog;
class Transport;

// An MCP client for one server. It learns the server's era by a Handshake (probe with
// server/discover; fall back to initialize, negotiating down to 2024-11-05), then sends every
// request in that era's form. Results are kept exactly as received: no defaults filled in.
class McpClient : public QObject
{
    Q_OBJECT
public:
    using State = ClientState; // net/clientstate.h: a value the window reads

    explicit McpClient(QObject *parent = nullptr);
    ~McpClient() override;

    void setConfig(const ServerConfig &config);
    ServerConfig config() const { return m_config; }
    // Used instead of building a transport from the config (unit tests, custom transports).
    void setTransportFactory(std::function<Transport *(QObject *parent)> factory);

    void connectToServer();
    void disconnectFromServer();

    // Recording (File > Save Session, folio record): from each connect on, what every transport
    // carries is kept (bounded: SessionRecorder) until the next connect.
    void setRecording(bool on);
    bool isRecording() const { return m_recorder != nullptr; }
    // What this connection carried so far, with the server as it described itself, message texts
    // masked as the traffic log masks them, and what was left out said in `stripped`. No events
    // when not recording.
    SessionRecording recording() const;
    // A replay (ServerConfig::replayFile): the recording, read when the config is set, and the
    // clock it is replayed on (fast by default; the window sets the recorded pace). Null when the
    // config is no replay or the file could not be read (replayError() says why; connecting then
    // fails with it).
    std::shared_ptr<const SessionRecording> replayRecording() const { return m_replayRecording; }
    std::shared_ptr<ReplayClock> replayClock() const { return m_replayClock; }
    QString replayError() const { return m_replayError; }

    State state() const { return m_state; }
    McpError lastError() const { return m_lastError; }
    bool isModern() const { return Revision::isModern(m_protocolVersion); }
    QString protocolVersion() const { return m_protocolVersion; }
    QString transportName() const;
    QJsonObject serverInfo() const { return m_serverInfo; }
    QJsonObject capabilities() const { return m_capabilities; }
    QString instructions() const { return m_instructions; }
    // The raw result of server/discover or initialize, as received.
    QJsonObject handshakeResult() const { return m_handshakeResult; }
    TrafficLog *trafficLog() const { return m_log; }
    JsonRpcConnection *connection() const;

    // One page of a protocol list. cursor: std::nullopt sends no cursor; "" sends "" (a cursor).
    RpcCall *listPage(ListKind kind, const std::optional<QString> &cursor, QObject *owner = nullptr);
    // Any list method; params are sent with every page (the cursor added).
    RpcCall *listPage(const QString &method, const std::optional<QString> &cursor, QObject *owner = nullptr,
                      const QJsonObject &params = {});
    RpcCall *callTool(const QString &name, const QJsonObject &arguments, QObject *owner = nullptr);
    RpcCall *readResource(const QString &uri, QObject *owner = nullptr);
    // Any request, wrapped in the era's form (the 2026 _meta envelope).
    RpcCall *request(const QString &method, const QJsonObject &params, QObject *owner = nullptr,
                     int timeoutMs = -1, const QList<QPair<QByteArray, QByteArray>> &headers = {});

    // What a user asks of the server, followed to its end (progress, the 2026 multi-round-trip,
    // cancel): see Invocation. Started at once; owned by `owner` (or the client).
    Invocation *invoke(const QString &method, const QJsonObject &params, QObject *owner = nullptr);
    // tools/call for a tool as listed. On Streamable HTTP (2026) the arguments its inputSchema
    // marks with x-mcp-header also go in Mcp-Param-* headers; a tool whose x-mcp-header
    // declarations are invalid is refused before anything is sent (toolHeaderProblem()).
    Invocation *invokeTool(const QJsonObject &tool, const QJsonObject &arguments, QObject *owner = nullptr);
    // prompts/get; argument values are strings, as the spec has them.
    Invocation *getPrompt(const QString &name, const QJsonObject &arguments, QObject *owner = nullptr);
    // resources/read, once; the result carries the 2026 ttlMs/cacheScope as received.
    Invocation *read(const QString &uri, QObject *owner = nullptr);
    // completion/complete. ref: {"type":"ref/prompt","name":…} or {"type":"ref/resource","uri":…}.
    RpcCall *complete(const QJsonObject &ref, const QString &argument, const QString &value,
                      const QJsonObject &contextArguments = {}, QObject *owner = nullptr);
    bool offersCompletion() const { return m_capabilities.contains(QStringLiteral("completions")); }

    // Why a tool's x-mcp-header declarations are invalid (SEP-2243: a property marked with it must
    // be a primitive, the name a non-empty token, no two alike ignoring case); empty when they are
    // fine or it has none. Such a tool is listed but never called.
    static QString toolHeaderProblem(const QJsonObject &tool);
    // The Mcp-Param-{name} headers for a call: one per marked argument that is present and not
    // null; values that are not plain printable ASCII (or have edge spaces) as =?base64?…?=.
    static QList<QPair<QByteArray, QByteArray>> toolParamHeaders(const QJsonObject &tool,
                                                                 const QJsonObject &arguments);

    // Who answers the server's elicitation, sampling and roots requests (not owned; set before
    // connecting: the capabilities declared follow it). None: no such capability is declared.
    void setInputResponder(InputResponder *responder) { m_responder = responder; }
    InputResponder *inputResponder() const { return m_responder; }
    // HTTP servers: signs in and renews the token (OAuth); its tokens never reach the traffic log.
    // Not owned. Takes effect at the next connect.
    void setAuthorizer(Authorizer *authorizer);
    Authorizer *authorizer() const;
    // What this client declares: {"elicitation":{"form":{}},"sampling":{},"roots":{}} or a part.
    QJsonObject clientCapabilities() const;
    // Tells the server the roots changed (2025 era, when roots are declared).
    void notifyRootsChanged();

    // List-change notifications: 2025 era routes notifications/*/list_changed; 2026 opens
    // subscriptions/listen for the lists the server advertises.
    void listenForListChanges();

    // Resource subscriptions, where the server advertises resources.subscribe: over 2025,
    // resources/subscribe and resources/unsubscribe; over 2026-07-28, the URIs ride in the
    // subscriptions/listen stream's resourceSubscriptions (the stream is opened again, with the
    // list changes it already carried, whenever the set changes). Updates arrive as
    // resourceUpdated(); resourceSubscriptionChanged() tells where each one stands. A new
    // connection starts with none.
    bool offersSubscriptions() const;
    void subscribeResource(const QString &uri);
    void unsubscribeResource(const QString &uri);
    ResourceSubscription resourceSubscription(const QString &uri) const { return m_subscriptions.value(uri); }

    // Tasks: the 2025-11-25 core tasks (capabilities.tasks.requests.tools.call) and the 2026-07-28
    // extension io.modelcontextprotocol/tasks (declared in capabilities.extensions; each task
    // request declares it back in its own _meta). A task-augmented call answers at once with the
    // task (TaskInfo::fromJson reads it); the result comes later: with tasks/get (2026) or from
    // tasks/result (2025). Status changes arrive as taskStatusReceived() once followTaskStatus()
    // was called: 2025 notifications/tasks/status where the other notifications go, 2026
    // notifications/tasks on the subscriptions/listen stream (taskStatus).
    static const QString TasksExtension; // "io.modelcontextprotocol/tasks"
    bool offersTasks() const;
    // A tool's execution.taskSupport: "forbidden" (also when absent), "optional" or "required".
    static QString toolTaskSupport(const QJsonObject &tool);
    // tools/call as a task (ttlMs: what the client asks the server to keep it; 2025 only, -1 for
    // the server's choice). The Invocation's result is the CreateTaskResult as received.
    Invocation *invokeToolAsTask(const QJsonObject &tool, const QJsonObject &arguments, qint64 ttlMs = -1,
                                 QObject *owner = nullptr);
    RpcCall *getTask(const QString &taskId, QObject *owner = nullptr);
    // 2025-11-25 only (removed by the 2026 extension, where tasks/get inlines the result): waits
    // until the task ends, so it is sent without a timeout.
    RpcCall *taskResult(const QString &taskId, QObject *owner = nullptr);
    RpcCall *cancelTask(const QString &taskId, QObject *owner = nullptr);
    // 2026: the answers to a task's inputRequests ({key: result}).
    RpcCall *updateTask(const QString &taskId, const QJsonObject &inputResponses, QObject *owner = nullptr);
    // Hands an input a server asked for (outside an Invocation: a task's) to the responder, or
    // refuses it when none answers its kind; inputRequested() is emitted first.
    void askInput(InputReply *reply) { handOver(reply); }
    // One page of tasks/list (2025-11-25; the 2026 extension has none).
    bool offersTaskList() const;
    void followTaskStatus();

    // The _meta envelope a 2026-07-28 request carries.
    QJsonObject modernMeta() const;
    mutable QJsonObject m_modernMeta;
    static QJsonObject clientInfo();

Q_SIGNALS:
    void stateChanged(folio::McpClient::State state);
    void connected();
    // The connection was lost or could not be made; error says why.
    void disconnected(const folio::McpError &error);
    void listChanged(folio::ListKind kind);
    // An input the server asked for (either era), as it is handed to the responder.
    void inputRequested(folio::InputReply *reply);
    void resourceUpdated(const QString &uri);
    void resourceSubscriptionChanged(const QString &uri);
    // A task's status as the server sent it (either era's notification params; no _meta).
    void taskStatusReceived(const QJsonObject &task);
    void diagnostic(const QString &line);
    // A stdio server wrote a line on stdout that is not JSON-RPC while connecting (the line, elided).
    void strayOutput(const QString &line);

private:
    void setState(State state);
    Transport *createTransport(ServerConfig::HttpMode mode);
    void startConnection(ServerConfig::HttpMode mode);
    void handleHandshakeSucceeded();
    void fail(const McpError &error);
    void handleNotification(const QString &method, const QJsonObject &params);
    void handleConnectionClosed(const McpError &error);
    // A handshake event for diagnostic() (the traffic log, the CLI) and for folio.net.mcp.
    void report(const QString &line);

    friend class Invocation;
    // Gives a reply to the responder (or refuses it when none answers its kind) after
    // inputRequested().
    void handOver(InputReply *reply);
    void registerProgress(const QString &token, Invocation *invocation);
    void installServerRequestHandlers();
    // 2026-07-28: (re)opens subscriptions/listen for what is wanted now (list changes once
    // listenForListChanges() was called, and the resource subscriptions); closes it when nothing is.
    void updateListen();
    void handleAcknowledged(const QJsonObject &params);
    void setSubscription(const QString &uri, ResourceSubscription::State state, const QString &detail = {});

    ServerConfig m_config;
    InputResponder *m_responder = nullptr;
    QPointer<Authorizer> m_authorizer;
    QHash<QString, QPointer<Invocation>> m_progress;
    qint64 m_nextProgressToken = 1;
    std::function<Transport *(QObject *)> m_transportFactory;
    SessionRecorder *m_recorder = nullptr;
    QString m_replayFile;
    QString m_replayError;
    std::shared_ptr<const SessionRecording> m_replayRecording;
    std::shared_ptr<ReplayClock> m_replayClock;
    std::shared_ptr<ReplayScript> m_replayScript;
    TrafficLog *m_log;
    QPointer<JsonRpcConnection> m_connection;
    QPointer<Handshake> m_handshake; // a child of m_connection
    QPointer<RpcCall> m_listen;
    QJsonObject m_listenFilter; // what m_listen asked for
    bool m_listenLists = false; // listenForListChanges() was called on this connection
    bool m_listenTasks = false; // followTaskStatus() was called on this connection
    // The params of a task request over 2026: the extension declared in its own _meta.
    QJsonObject withTasksDeclared(const QJsonObject &params) const;
    RpcCall *taskRequest(const QString &method, const QString &taskId, QObject *owner, int timeoutMs = -1);
    QHash<QString, ResourceSubscription> m_subscriptions;
    State m_state = State::Disconnected;
    McpError m_lastError;
    QString m_protocolVersion;
    QJsonObject m_serverInfo;
    QJsonObject m_capabilities;
    QJsonObject m_handshakeResult;
    QString m_instructions;
};

} // namespace folio
