#pragma once

#include "inprocesstransport.h" // tests/support
#include "mcpclient.h"
#include "pagedlistmodel.h"
#include "ttlclock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

#include <functional>

namespace bench {

// A monotonic nanosecond clock shared by the benchmarks.
inline qint64 nowNs()
{
    static QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.nsecsElapsed();
}

// One resources/list item of about 200 bytes of compact JSON, like the demo server's posts.
inline QJsonObject resourceItem(int i)
{
    static const char *const words[] = {"deploy", "review", "standup", "incident", "release", "roadmap",
                                        "design", "retro",  "budget",  "hiring",   "launch",  "triage"};
    const QString id = QStringLiteral("p%1").arg(i, 7, 10, QLatin1Char('0'));
    const QString description = QStringLiteral("Notes on the %1 and the %2 for week %3: who does what, "
                                               "and when it lands")
                                    .arg(QLatin1String(words[i % 12]), QLatin1String(words[(i / 12) % 12]))
                                    .arg(i % 52 + 1);
    return QJsonObject{
        {QStringLiteral("uri"), QStringLiteral("chat://posts/") + id},
        {QStringLiteral("name"), id},
        {QStringLiteral("title"), QStringLiteral("Post in ~channel-%1 by @user%2").arg(i % 80).arg(i % 1500)},
        {QStringLiteral("description"), description},
        {QStringLiteral("mimeType"), QStringLiteral("application/json")}};
}

// A 2026-07-28 MCP server behind the Transport seam, answering resources/list from a generator:
// pages of pageSize items, pages in all, with ttlMs (live TTL clocks) and cacheScope. Replies are
// serialized to bytes and handed up on a later turn of the event loop, as a real transport
// does; deliveredNs() is the moment the reply's bytes go up to the connection.
class BenchTransport : public testsupport::InProcessTransport
{
public:
    BenchTransport(int pages, int pageSize, qint64 ttlMs, QObject *parent = nullptr)
        : InProcessTransport(parent)
        , m_pages(pages)
        , m_pageSize(pageSize)
        , m_ttlMs(ttlMs)
    {}

    QString kindName() const override { return QStringLiteral("bench"); }

    // Answers on the next event-loop turn, like a server in another process: send() itself does
    // no work (the model asks for the next page while it is still storing the current one, and
    // the page's generation must not count in that).
    void send(const QJsonObject &message, const QByteArray &) override
    {
        if (!message.contains(QStringLiteral("id")))
            return;
        QTimer::singleShot(0, this, [this, message] { answer(message); });
    }

private:
    void answer(const QJsonObject &message)
    {
        const QString method = message.value(QStringLiteral("method")).toString();
        QJsonObject reply{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                          {QStringLiteral("id"), message.value(QStringLiteral("id"))}};
        if (method == QLatin1String("server/discover")) {
            reply[QStringLiteral("result")] = QJsonObject{
                {QStringLiteral("resultType"), QStringLiteral("complete")},
                {QStringLiteral("supportedVersions"), QJsonArray{QStringLiteral("2026-07-28")}},
                {QStringLiteral("serverInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("bench")},
                                                           {QStringLiteral("version"), QStringLiteral("1")}}},
                {QStringLiteral("capabilities"), QJsonObject{{QStringLiteral("resources"), QJsonObject{}}}},
                {QStringLiteral("ttlMs"), 0},
                {QStringLiteral("cacheScope"), QStringLiteral("public")}};
        } else if (method == QLatin1String("resources/list")) {
            const QJsonObject params = message.value(QStringLiteral("params")).toObject();
            const int page = params.value(QStringLiteral("cursor")).toString().mid(1).toInt();
            QJsonArray items;
            for (int i = 0; i < m_pageSize; ++i)
                items.append(resourceItem(page * m_pageSize + i + m_itemOffset));
            QJsonObject result{{QStringLiteral("resultType"), QStringLiteral("complete")},
                               {QStringLiteral("resources"), items},
                               {QStringLiteral("ttlMs"), m_ttlMs},
                               {QStringLiteral("cacheScope"), QStringLiteral("public")}};
            if (page + 1 < m_pages)
                result[QStringLiteral("nextCursor")] = QStringLiteral("c%1").arg(page + 1);
            reply[QStringLiteral("result")] = result;
        } else {
            reply[QStringLiteral("error")] = QJsonObject{{QStringLiteral("code"), -32601},
                                                         {QStringLiteral("message"), QStringLiteral("no")}};
        }
        const QByteArray raw = QJsonDocument(reply).toJson(QJsonDocument::Compact);
        {
            if (!isOpen())
                return;
            m_rawBytes += raw.size();
            // Like the real transports: the bytes go up to the connection, which reads them (a
            // list page by its fast path) before the model appends; all of it counts in the append.
            m_deliveredNs = nowNs();
            handUp(raw);
        }
    }

public:
    void setItemOffset(int offset) { m_itemOffset = offset; }
    qint64 deliveredNs() const { return m_deliveredNs; }
    qint64 rawBytes() const { return m_rawBytes; }

private:
    int m_pages;
    int m_pageSize;
    qint64 m_ttlMs;
    int m_itemOffset = 0;
    qint64 m_deliveredNs = 0;
    qint64 m_rawBytes = 0;
};

// Connects a client to a BenchTransport; returns the transport (owned by the client).
inline BenchTransport *connectBench(folio::McpClient *client, int pages, int pageSize, qint64 ttlMs,
                                    int itemOffset = 0)
{
    BenchTransport *transport = nullptr;
    client->setTransportFactory([&transport, pages, pageSize, ttlMs, itemOffset](QObject *parent) {
        transport = new BenchTransport(pages, pageSize, ttlMs, parent);
        transport->setItemOffset(itemOffset);
        return transport;
    });
    QEventLoop loop;
    QObject::connect(client, &folio::McpClient::connected, &loop, &QEventLoop::quit);
    QObject::connect(client, &folio::McpClient::disconnected, &loop, &QEventLoop::quit);
    client->connectToServer();
    if (client->state() != folio::McpClient::State::Connected)
        loop.exec();
    if (client->state() != folio::McpClient::State::Connected)
        qFatal("bench: the client did not connect to the bench transport");
    return transport;
}

// Walks the model to the end (fetchAll) inside a local event loop.
inline void walkToEnd(folio::PagedListModel *model)
{
    QEventLoop loop;
    const auto c = QObject::connect(model->walker(), &folio::PageWalker::walkFinished, &loop, [&loop, model] {
        if (!model->walker()->isLoading())
            loop.quit();
    });
    model->walker()->fetchAll();
    if (!model->walker()->isComplete() && !model->walker()->isStopped())
        loop.exec();
    QObject::disconnect(c);
    if (!model->walker()->isComplete())
        qFatal("bench: the walk stopped: %s", qPrintable(model->walker()->stopReason()));
}

// The list the widget benches measure: pages of 1,000 resources (one-hour TTLs) from a
// BenchTransport, in a real PagedListModel walked to the end.
struct WalkedList
{
    explicit WalkedList(int pages)
        : model(connected(pages), folio::ListSource::protocol(folio::ListKind::Resources), &clock)
    {
        model.walker()->setPageCap(pages + 1);
        walkToEnd(&model);
    }

    folio::TtlClock clock;
    folio::McpClient client;
    folio::PagedListModel model; // after the clock and the client it reads

private:
    folio::McpClient *connected(int pages)
    {
        connectBench(&client, pages, 1000, 3'600'000);
        return &client;
    }
};

} // namespace bench
