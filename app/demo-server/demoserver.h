#pragma once

#include "answer.h"
#include "catalog.h"
#include "conformancefixtures.h"
#include "content.h"
#include "demoexchange.h"
#include "inputrequests.h"
#include "legacyera.h"
#include "listpager.h"
#include "listtools.h"
#include "modernera.h"
#include "scenario.h"
#include "skills.h"
#include "tasks.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>

#include <optional>

namespace demo {

class ToolRun;

// The MCP side of the demo server, transport-neutral: takes one JSON-RPC message (and, on HTTP,
// its headers), hands it to the era whose rules it follows, and answers the methods both eras
// share (lists, tools/call, resources/read, prompts/get, completion/complete) through the message's
// DemoExchange. What the calls answer comes from Content (the chat) and ConformanceFixtures.
class DemoServer : public QObject
{
    Q_OBJECT

public:
    enum class Era { Both, Modern, Legacy };
    // JSON-RPC's own error codes, which both eras use.
    enum ErrorCode {
        ParseError = -32700,
        InvalidRequest = -32600,
        MethodNotFound = -32601,
        InvalidParams = -32602
    };

    DemoServer(Era era, const Scenario &scenario, quint32 seed, QObject *parent = nullptr);

    // The resources list's length (--resources); 10,000 by default.
    void setResourceCount(int count) { m_catalog.setResourceCount(count); }

    // stdio: the channel for messages that answer no request (legacy notifications).
    void setStdioStream(DemoExchange *stream) { m_legacy.setStdioStream(stream); }

    void handleMessage(const QByteArray &body, DemoExchange *exchange, const HeaderMap &headers);
    // HTTP GET: the legacy (2025) server-to-client SSE stream of a session.
    void openLegacyStream(DemoExchange *exchange, const HeaderMap &headers);
    // HTTP DELETE: ends a legacy session.
    void endLegacySession(DemoExchange *exchange, const HeaderMap &headers);

    // What the eras share: who the server is, what it offers, and the methods both eras answer.
    static QJsonObject serverInfo();
    static QJsonObject capabilities();
    // A tool of the catalog (for the x-mcp-header checks of 2026 HTTP).
    std::optional<QJsonObject> tool(const QString &name) const { return m_catalog.tool(name); }
    // The scenario's caption (what to watch for), then what the server is.
    QString instructions() const;
    // Methods both eras share; modern adds resultType, serverInfo and (for lists) hints.
    void dispatch(const QJsonValue &id, const QString &method, const QJsonObject &params, bool modern,
                  DemoExchange *exchange, const QJsonObject &clientCapabilities);
    // itemsKey/itemsJson: a list page's items, serialized already (see PageOutcome).
    void sendResult(DemoExchange *exchange, const QJsonValue &id, QJsonObject result, bool modern,
                    const QString &itemsKey = {}, const QByteArray &itemsJson = {});
    void sendError(DemoExchange *exchange, const QJsonValue &id, int code, const QString &message,
                   int httpStatus, const QJsonValue &data = {});
    // resources/read's answer for a URI (the chat, then the conformance fixtures); nullopt when the
    // server has no such resource. What a subscription may name is what this can read.
    std::optional<QJsonObject> readResource(const QString &uri, bool modern) const;
    // resources/read's error for a URI it cannot read (-32602 in 2026, -32002 legacy).
    void sendResourceNotFound(DemoExchange *exchange, const QJsonValue &id, const QString &uri, bool modern);

private:
    bool isModern(const QString &method, const QJsonObject &params, DemoExchange *exchange,
                  const HeaderMap &headers) const;
    void handleNotification(const QString &method, const QJsonObject &params);
    bool callFixture(const QJsonValue &id, const QString &name, const CallContext &context,
                     DemoExchange *exchange);
    void sendOutcome(DemoExchange *exchange, const QJsonValue &id, const PageOutcome &outcome, bool modern);
    // Puts a content answer on the wire: a result, an error, or a ToolRun for a Progress answer.
    void sendAnswer(DemoExchange *exchange, const QJsonValue &id, const Answer &answer,
                    const CallContext &context);
    void callTool(const QJsonValue &id, const CallContext &context, DemoExchange *exchange);
    // Tells both eras' listeners; the conformance fixtures and the list-changed scenario call it.
    void notifyListChanged(const QString &list);
    // notifications/resources/updated to both eras' subscribers of the URI (update_post calls it).
    void notifyResourceUpdated(const QString &uri);

    Era m_era;
    const Scenario &m_scenario;
    Catalog m_catalog;
    ListPager m_pager;
    ListTools m_listTools;
    InputRequests m_inputRequests;
    Content m_content;
    ConformanceFixtures m_fixtures;
    QList<QPointer<ToolRun>> m_runs;
    Tasks m_tasks;
    Skills m_skills;
    ModernEra m_modern;
    LegacyEra m_legacy;
};

} // namespace demo
