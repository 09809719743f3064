#pragma once

#include "mcpclient.h"
#include "pagedlistmodel.h"
#include "scriptedlist.h"
#include "scriptedtransport.h"
#include "ttlclock.h"
#include "walkall.h"

#include <QJsonArray>
#include <QMap>
#include <QSignalSpy>
#include <QTest>
#include <functional>
#include <memory>

// A paged list behind a scripted server, for widget tests: pages keyed by the cursor that asks for
// them, a TTL clock on an injected time source, and cursors that can be told never to answer.
class PagedFixture
{
public:
    using Script = QMap<QString, QJsonObject>;
    // Answers one page request: the cursor sent (NoCursor for the first page) -> result or error.
    using PageHandler = std::function<QJsonObject(const QString &cursor)>;

    static inline const QString NoCursor = QStringLiteral("<none>");

    PagedFixture()
    {
        clock.setTimeSource([this] { return now; });
    }
    ~PagedFixture()
    {
        model.reset();
        delete client;
    }

    bool connect(const Script &script, bool modern = true)
    {
        return connect([this, script](const QString &cursor) { return script.value(cursor); }, modern);
    }

    bool connect(PageHandler handler, bool modern = true)
    {
        m_handler = std::move(handler);
        client = new folio::McpClient;
        client->setTransportFactory([this, modern](QObject *) {
            transport = new ScriptedTransport(modern, [this](const QString &, const QJsonObject &params) {
                const QString key = params.contains(QStringLiteral("cursor"))
                                        ? params.value(QStringLiteral("cursor")).toString()
                                        : NoCursor;
                if (hang.contains(key))
                    return QJsonObject();
                return m_handler(key);
            });
            return transport;
        });
        QSignalSpy connected(client, &folio::McpClient::connected);
        client->connectToServer();
        if (!connected.wait(3000))
            return false;
        model = std::make_unique<folio::PagedListModel>(
            client, folio::ListSource::protocol(folio::ListKind::Tools), &clock);
        return true;
    }

    // Follows the cursors to the end (or a stop) and waits for it.
    bool walkAll(int timeoutMs = 5000) { return testsupport::walkAll(*model, timeoutMs); }

    // Moves the injected clock and lets the TTL clock fire what became due.
    void advance(qint64 ms)
    {
        now += ms;
        clock.processDue();
    }

    // The scripted tools list's pages (tests/models/scriptedlist.h).
    static QJsonArray tools(int from, int count) { return scripted::tools(from, count); }
    static QJsonObject page(const QJsonArray &items, const QJsonValue &next, const QJsonValue &ttl = 60000,
                            const QJsonValue &scope = QStringLiteral("public"))
    {
        return scripted::page(items, next, ttl, scope);
    }
    static QJsonObject rpcError(int code, const QString &message)
    {
        return scripted::rpcError(code, message);
    }

    // base64url (no padding) of compact JSON, the way many servers build cursors.
    static QString jsonCursor(const QJsonObject &o)
    {
        return QString::fromLatin1(
            QJsonDocument(o)
                .toJson(QJsonDocument::Compact)
                .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    }

    qint64 now = 1000;
    folio::TtlClock clock;
    folio::McpClient *client = nullptr;
    ScriptedTransport *transport = nullptr;
    std::unique_ptr<folio::PagedListModel> model;
    QSet<QString> hang; // cursors whose requests are never answered

private:
    PageHandler m_handler;
};
