#pragma once

#include "demoexchange.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QStringList>

namespace demo {

class DemoServer;

// The initialize era (2024-11-05 ... 2025-11-25): a handshake that picks the version, then on HTTP
// a session (Mcp-Session-Id) that every request names and a GET stream for its notifications; on
// stdio, the notifications go to stdout once initialize was answered.
class LegacyEra
{
public:
    explicit LegacyEra(DemoServer &server);

    static QStringList versions();

    // Whether a stdio client said initialize: from then on its requests are legacy.
    bool stdioInitialized() const { return m_stdioInitialized; }
    void setStdioStream(DemoExchange *stream) { m_stdioStream = stream; }

    void handle(const QJsonValue &id, const QString &method, const QJsonObject &params,
                DemoExchange *exchange, const HeaderMap &headers);
    void openStream(DemoExchange *exchange, const HeaderMap &headers);
    void endSession(DemoExchange *exchange, const HeaderMap &headers);
    // Sends the notification to stdio (once initialized) and to every session's GET stream.
    void notifyListChanged(const QString &method);
    // notifications/resources/updated {uri} to the stdio client and the sessions subscribed to uri,
    // on the same channel as notifyListChanged.
    void notifyResourceUpdated(const QString &uri);
    // notifications/tasks/status (the 2025-11-25 tasks), on the same channel as notifyListChanged.
    void notifyTaskStatus(const QJsonObject &task);

private:
    struct Session
    {
        QString version;
        QPointer<DemoExchange> stream;
        QSet<QString> subscriptions; // resources/subscribe URIs
    };

    void initialize(const QJsonValue &id, const QJsonObject &params, DemoExchange *exchange);
    // HTTP: the version header and the session a request must name; false when it was refused.
    bool checkSession(const QJsonValue &id, DemoExchange *exchange, const HeaderMap &headers);
    // resources/subscribe and resources/unsubscribe, for the session the request named (or stdio).
    void subscribe(const QJsonValue &id, const QString &method, const QJsonObject &params,
                   DemoExchange *exchange, const HeaderMap &headers);

    DemoServer &m_server;
    QPointer<DemoExchange> m_stdioStream;
    bool m_stdioInitialized = false;
    QSet<QString> m_stdioSubscriptions;
    QHash<QString, Session> m_sessions;
};

} // namespace demo
