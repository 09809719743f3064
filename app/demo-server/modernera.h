#pragma once

#include "demoexchange.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QPointer>
#include <QString>
#include <QStringList>

namespace demo {

class DemoServer;

// The 2026-07-28 era: no handshake, every request carries its version and the client's
// capabilities in _meta (and, on HTTP, headers that must agree with the body); server/discover
// says who the server is; subscriptions/listen streams the list_changed notifications.
class ModernEra
{
public:
    explicit ModernEra(DemoServer &server);

    static QString version();
    // The _meta key whose presence makes a request modern, whatever else it says.
    static QString versionKey();

    void handle(const QJsonValue &id, const QString &method, const QJsonObject &params,
                DemoExchange *exchange, const HeaderMap &headers);
    // notifications/cancelled for a stdio subscription (an HTTP one ends with its stream).
    void cancel(const QJsonValue &requestId);
    // Sends notifications/<kind>/list_changed to the subscriptions that asked for kind.
    void notifyListChanged(const QString &kind, const QString &method);
    // Sends notifications/resources/updated {uri} to the subscriptions whose resourceSubscriptions
    // were granted that uri.
    void notifyResourceUpdated(const QString &uri);
    // Sends notifications/tasks {taskId, status, ...} to the subscriptions that asked for taskStatus.
    void notifyTask(const QJsonObject &task);

private:
    struct Subscription
    {
        QJsonValue id;
        bool tools = false;
        bool prompts = false;
        bool resources = false;
        bool taskStatus = false;  // the tasks extension's status notifications
        QStringList resourceUris; // the resourceSubscriptions granted (readable URIs)
        QPointer<DemoExchange> exchange;
    };

    // The header/body agreement rules of 2026-07-28 HTTP; empty when the request passes.
    QString headerMismatch(const QString &method, const QString &version, const QJsonObject &params,
                           const HeaderMap &headers) const;
    // Mcp-Param-* against the arguments a tool marks with x-mcp-header.
    QString paramHeaderMismatch(const QJsonObject &params, const HeaderMap &headers) const;
    void listen(const QJsonValue &id, const QJsonObject &params, DemoExchange *exchange);

    DemoServer &m_server;
    QList<Subscription> m_subscriptions;
};

} // namespace demo
