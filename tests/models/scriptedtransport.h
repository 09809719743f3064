#pragma once

#include "inprocesstransport.h"
#include "mcpclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTimer>
#include <functional>

// A scripted MCP server behind the Transport seam, for model unit tests: the handler returns the
// `result` (or an object with an `error` member) for each request; answers arrive asynchronously.
class ScriptedTransport : public testsupport::InProcessTransport
{
    Q_OBJECT
public:
    using Handler = std::function<QJsonObject(const QString &method, const QJsonObject &params)>;

    ScriptedTransport(bool modern, Handler handler, QObject *parent = nullptr)
        : InProcessTransport(parent)
        , m_modern(modern)
        , m_handler(std::move(handler))
    {}

    void setHandler(Handler handler) { m_handler = std::move(handler); }
    QString kindName() const override { return QStringLiteral("scripted"); }

    void send(const QJsonObject &message, const QByteArray &) override
    {
        sent.append(message);
        const QString method = message.value(QStringLiteral("method")).toString();
        if (!message.contains(QStringLiteral("id")))
            return; // notifications
        const QJsonValue id = message.value(QStringLiteral("id"));
        const QJsonObject params = message.value(QStringLiteral("params")).toObject();
        QJsonObject reply{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("id"), id}};
        if (method == QLatin1String("server/discover")) {
            if (m_modern)
                reply[QStringLiteral("result")] = QJsonObject{
                    {QStringLiteral("resultType"), QStringLiteral("complete")},
                    {QStringLiteral("supportedVersions"), QJsonArray{QStringLiteral("2026-07-28")}},
                    {QStringLiteral("capabilities"), capabilities},
                    {QStringLiteral("ttlMs"), 0},
                    {QStringLiteral("cacheScope"), QStringLiteral("public")}};
            else
                reply[QStringLiteral("error")] = QJsonObject{
                    {QStringLiteral("code"), -32601}, {QStringLiteral("message"), QStringLiteral("no")}};
        } else if (method == QLatin1String("initialize")) {
            reply[QStringLiteral("result")] = QJsonObject{
                {QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                {QStringLiteral("capabilities"), legacyCapabilities},
                {QStringLiteral("serverInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("s")}}}};
        } else {
            ++requests;
            lastParams = params;
            const QJsonObject answer = m_handler(method, params);
            if (answer.isEmpty())
                return; // never answer
            if (answer.contains(QStringLiteral("error")) && answer.size() == 1)
                reply[QStringLiteral("error")] = answer.value(QStringLiteral("error"));
            else
                reply[QStringLiteral("result")] = answer;
        }
        const QByteArray raw = QJsonDocument(reply).toJson(QJsonDocument::Compact);
        QTimer::singleShot(0, this, [this, raw] {
            if (isOpen())
                handUp(raw);
        });
    }

    void notify(const QString &method)
    {
        const QJsonObject n{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                            {QStringLiteral("method"), method}};
        receive(n);
    }
    // A message from the server, handed up as its compact text.
    void receive(const QJsonObject &message)
    {
        handUp(QJsonDocument(message).toJson(QJsonDocument::Compact));
    }

    int requests = 0;
    QJsonObject lastParams;
    // What server/discover advertises (2026); set before connecting.
    QJsonObject capabilities{{QStringLiteral("tools"), QJsonObject{}}};
    // What initialize advertises (2025); set before connecting.
    QJsonObject legacyCapabilities;
    // Every message the client sent, notifications included, in order.
    QList<QJsonObject> sent;
    // The messages sent with this method.
    QList<QJsonObject> sentWith(const QString &method) const
    {
        QList<QJsonObject> found;
        for (const QJsonObject &m : sent) {
            if (m.value(QStringLiteral("method")).toString() == method)
                found.append(m);
        }
        return found;
    }

private:
    bool m_modern;
    Handler m_handler;
};

// A client (a child of owner) connected to a modern ScriptedTransport answering with handler; null
// when the handshake did not finish within 5 s. setUp, when given, is handed the transport as it is
// made (to change what it advertises, or keep it).
inline folio::McpClient *connectedToScripted(QObject *owner, ScriptedTransport::Handler handler,
                                             const std::function<void(ScriptedTransport *)> &setUp = {})
{
    auto *client = new folio::McpClient(owner);
    client->setTransportFactory([handler, setUp](QObject *parent) {
        auto *t = new ScriptedTransport(/*modern=*/true, handler, parent);
        if (setUp)
            setUp(t);
        return t;
    });
    QSignalSpy up(client, &folio::McpClient::connected);
    client->connectToServer();
    return up.wait(5000) ? client : nullptr;
}
