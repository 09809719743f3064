#pragma once

#include "mcperror.h"
#include "serverconfig.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

namespace folio {

class JsonRpcConnection;
class RpcCall;

// The MCP handshake over one connection, as the spec orders it: probe with server/discover
// (2026-07-28); else initialize, negotiating down to a revision both sides speak. It keeps what the
// server said exactly as received and owns nothing but its requests.
class Handshake : public QObject
{
    Q_OBJECT
public:
    // config: the revision pinned, the request timeout, whether HTTP may fall back to HTTP+SSE.
    // The connection is its parent: a handshake lives and dies with the connection it runs over.
    Handshake(JsonRpcConnection *connection, const ServerConfig &config);

    // mode is the transport's: over HTTP+SSE only initialize is tried. Call once the transport opened.
    void start(ServerConfig::HttpMode mode);
    // Ignores every answer from now on (the client left the handshake: disconnected or failed).
    void abandon() { m_done = true; }

    // Valid after succeeded().
    QString protocolVersion() const { return m_protocolVersion; }
    QJsonObject serverInfo() const { return m_serverInfo; }
    QJsonObject capabilities() const { return m_capabilities; }
    QString instructions() const { return m_instructions; }
    // The raw result of server/discover or initialize.
    QJsonObject result() const { return m_result; }

    static QJsonObject clientInfo();
    // The _meta envelope a 2026-07-28 request carries, declaring these client capabilities.
    static QJsonObject modernMeta(const QJsonObject &clientCapabilities = {});
    // What initialize and server/discover declare (McpClient::clientCapabilities()).
    void setClientCapabilities(const QJsonObject &capabilities) { m_clientCapabilities = capabilities; }
    // params with envelope's members added to its _meta, where the caller set none of its own.
    static QJsonObject withEnvelope(const QJsonObject &params, const QJsonObject &envelope);

Q_SIGNALS:
    // A stdio server wrote a line on stdout that is not JSON-RPC (once, shown elided): said at once.
    void strayOutput(const QString &line);
    // A revision was agreed (and, for initialize, notifications/initialized sent).
    void succeeded();
    void failed(const folio::McpError &error);
    // Streamable HTTP refused initialize as a pre-2025 server does: the spec's fallback is the
    // HTTP+SSE transport, on a new connection. Only where the config lets the transport choose.
    void streamableHttpRefused(const folio::McpError &error);
    // A step worth telling (a fallback taken), for the traffic log and the command line.
    void diagnostic(const QString &line);

private:
    void probeDiscover();
    void handleDiscover(RpcCall *call);
    void sendInitialize(const QString &revision);
    void handleInitialize(RpcCall *call, const QString &offered);
    void fail(const McpError &error);
    void report(const QString &line);

    JsonRpcConnection *m_connection;
    ServerConfig m_config;
    ServerConfig::HttpMode m_mode = ServerConfig::HttpMode::Auto;
    QString m_protocolVersion;
    QJsonObject m_serverInfo;
    QJsonObject m_capabilities;
    QJsonObject m_clientCapabilities;
    QString m_instructions;
    QJsonObject m_result;
    bool m_retriedDiscover = false;
    bool m_done = false;
    // The whole handshake answers within the request timeout (--timeout-ms), not each of its
    // requests: the discover probe gets at most half of it, initialize what is left.
    QElapsedTimer m_started;
    int remainingMs() const;
    // The first line a stdio server wrote on stdout that is not JSON-RPC, as shown ("" if none):
    // a handshake that times out says so, since that is most often why.
    QString m_strayLine;
    QStringList m_sent; // the handshake's requests, in order, for a timeout's message
};

} // namespace folio
