#pragma once

#include "catalog.h"
#include "demoexchange.h"
#include "listpager.h"
#include "listtools.h"
#include "scenario.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>

namespace demo {

using HeaderMap = QHash<QByteArray, QByteArray>; // names in lower case

// The MCP side of the demo server, transport-neutral: takes one JSON-RPC message (and, on HTTP,
// its headers), decides the era, and answers through the message's DemoExchange.
class DemoServer : public QObject
{
    Q_OBJECT

public:
    enum class Era { Both, Modern, Legacy };

    DemoServer(Era era, const Scenario &scenario, quint32 seed, QObject *parent = nullptr);

    static QString modernVersion();
    static QStringList legacyVersions();

    // The resources list's length (--resources); 10,000 by default.
    void setResourceCount(int count) { m_catalog.setResourceCount(count); }

    // stdio: the channel for messages that answer no request (legacy notifications).
    void setStdioStream(DemoExchange *stream) { m_stdioStream = stream; }

    void handleMessage(const QByteArray &body, DemoExchange *exchange, const HeaderMap &headers);
    // HTTP GET: the legacy (2025) server-to-client SSE stream of a session.
    void openLegacyStream(DemoExchange *exchange, const HeaderMap &headers);
    // HTTP DELETE: ends a legacy session.
    void endLegacySession(DemoExchange *exchange, const HeaderMap &headers);

private:
    struct LegacySession
    {
        QString version;
        QPointer<DemoExchange> stream;
    };
    struct Subscription
    {
        QJsonValue id;
        bool tools = false;
        bool prompts = false;
        bool resources = false;
        QPointer<DemoExchange> exchange;
    };

    void handleModern(const QJsonValue &id, const QString &method, const QJsonObject &params,
                      DemoExchange *exchange, const HeaderMap &headers);
    void handleLegacy(const QJsonValue &id, const QString &method, const QJsonObject &params,
                      DemoExchange *exchange, const HeaderMap &headers);
    void handleNotification(const QString &method, const QJsonObject &params);
    // Methods both eras share; modern adds resultType, serverInfo and (for lists) hints.
    void dispatch(const QJsonValue &id, const QString &method, const QJsonObject &params, bool modern,
                  DemoExchange *exchange, const QJsonObject &clientCapabilities);
    void listen(const QJsonValue &id, const QJsonObject &params, DemoExchange *exchange);
    bool callFixture(const QJsonValue &id, const QString &name, const QJsonObject &clientCapabilities,
                     DemoExchange *exchange);

    // itemsKey/itemsJson: a list page's items, serialized already (see PageOutcome).
    void sendResult(DemoExchange *exchange, const QJsonValue &id, QJsonObject result, bool modern,
                    const QString &itemsKey = {}, const QByteArray &itemsJson = {});
    void sendError(DemoExchange *exchange, const QJsonValue &id, int code, const QString &message,
                   int httpStatus, const QJsonValue &data = {});
    void sendOutcome(DemoExchange *exchange, const QJsonValue &id, const PageOutcome &outcome, bool modern);
    void notifyListChanged(const QString &list);

    QJsonObject serverInfo() const;
    QJsonObject capabilities() const;

    Era m_era;
    const Scenario &m_scenario;
    Catalog m_catalog;
    ListPager m_pager;
    ListTools m_listTools;
    QPointer<DemoExchange> m_stdioStream;
    bool m_stdioLegacy = false;
    QHash<QString, LegacySession> m_sessions;
    QList<Subscription> m_subscriptions;
};

} // namespace demo
