// No credential leaves its origin (docs/reliability.md, "Credentials and origins"): a server that
// redirects a request to another origin, or names another origin in a legacy SSE `endpoint` event,
// never gets Folio to send the token, the configured headers or a sign-in's token there. The other
// origin is a listener of this test on a second loopback address (127.0.0.2), which records every
// connection; the server is folio-fixture-server in its origin modes, a real process on loopback.
#include "authorizer.h"
#include "connectclient.h"
#include "httpexchange.h"
#include "listsource.h"
#include "mcpclient.h"
#include "oauth.h"
#include "oauthflow.h"
#include "pageledger.h"
#include "pagewalker.h"
#include "rpccall.h"
#include "serverprocess.h"
#include "trafficlog.h"
#include "ttlclock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <memory>

using namespace folio;

namespace {

const QByteArray bearerToken = "bearer-token-for-the-first-origin";
const QByteArray apiKey = "api-key-for-the-first-origin";
const QByteArray signedInToken = "signed-in-token-for-the-first-origin";

// The other origin: every connection to it is counted and every request's head kept, and each is
// answered 200, as a server that wants the credentials would.
class SecondOrigin : public QObject
{
public:
    bool listen()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                ++m_connections;
                connect(s, &QTcpSocket::readyRead, this, [this, s] {
                    const QByteArray bytes = s->readAll();
                    m_received += bytes;
                    if (bytes.contains("\r\n\r\n"))
                        s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                                 "2\r\n\r\n{}");
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
        return m_server.listen(QHostAddress(QStringLiteral("127.0.0.2")), 0);
    }
    QString errorString() const { return m_server.errorString(); }
    QString origin() const { return QStringLiteral("http://127.0.0.2:%1").arg(m_server.serverPort()); }
    const QTcpServer *server() const { return &m_server; }
    int connections() const { return m_connections; }
    QByteArray received() const { return m_received; }
    void forget()
    {
        m_connections = 0;
        m_received.clear();
    }

private:
    QTcpServer m_server;
    int m_connections = 0;
    QByteArray m_received;
};

} // namespace

class tst_CrossOrigin : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();

    void redirectedElsewhere_data();
    void redirectedElsewhere();
    void sameOriginRedirects_data();
    void sameOriginRedirects();
    void legacySse_data();
    void legacySse();
    void ledgerShowsTheRefusal();
    void signInRequestsStayHome();
    void refreshStaysHome();

private:
    // The fixture in mode with --redirect-to the second origin; its /mcp URL, or empty.
    QUrl startFixture(const QString &mode, int status = 307);
    ServerConfig config(const QUrl &url) const;
    bool connectClient(McpClient &client, const ServerConfig &config);
    RpcCall *listAndWait(McpClient &client, const std::optional<QString> &cursor);
    // Nothing reached the second origin: no connection at all (and so no credential).
    void verifyNothingArrived();

    std::unique_ptr<SecondOrigin> m_second;
    QList<QProcess *> m_fixtures;
    QByteArray m_fixtureSaid; // the last fixture's stderr
};

void tst_CrossOrigin::init()
{
    m_second = std::make_unique<SecondOrigin>();
    if (!m_second->listen())
        QSKIP(qPrintable(QStringLiteral("Cannot listen on 127.0.0.2 (a second loopback address): %1")
                             .arg(m_second->errorString())));
    // The listener is reachable: a request to it arrives, so "nothing arrived" below means something.
    QNetworkAccessManager nam;
    QNetworkReply *probe = nam.get(QNetworkRequest(QUrl(m_second->origin() + QStringLiteral("/probe"))));
    QSignalSpy finished(probe, &QNetworkReply::finished);
    QVERIFY(finished.wait(10000));
    QCOMPARE(probe->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QVERIFY(m_second->received().startsWith("GET /probe "));
    delete probe;
    m_second->forget();
}

void tst_CrossOrigin::cleanup()
{
    testsupport::stopAll(m_fixtures);
    m_second.reset();
}

QUrl tst_CrossOrigin::startFixture(const QString &mode, int status)
{
    auto *proc = new QProcess(this);
    m_fixtures.append(proc);
    m_fixtureSaid.clear();
    proc->start(QStringLiteral(FOLIO_FIXTURE_SERVER),
                {QStringLiteral("--mode"), mode, QStringLiteral("--http"), QStringLiteral("0"),
                 QStringLiteral("--redirect-to"), m_second->origin(), QStringLiteral("--redirect-status"),
                 QString::number(status)});
    if (!proc->waitForStarted(5000))
        return {};
    const QString url = testsupport::listeningUrl(*proc, 10000, &m_fixtureSaid);
    connect(proc, &QProcess::readyReadStandardError, this,
            [this, proc] { m_fixtureSaid += proc->readAllStandardError(); });
    return QUrl(url);
}

ServerConfig tst_CrossOrigin::config(const QUrl &url) const
{
    ServerConfig c = ServerConfig::remote(url);
    c.name = QStringLiteral("fixture-http");
    c.bearerToken = QString::fromLatin1(bearerToken);
    c.headers = {{"X-Api-Key", apiKey}};
    c.requestTimeoutMs = 15000;
    return c;
}

bool tst_CrossOrigin::connectClient(McpClient &client, const ServerConfig &config)
{
    client.setConfig(config);
    return testsupport::connectClient(client, 30000);
}

RpcCall *tst_CrossOrigin::listAndWait(McpClient &client, const std::optional<QString> &cursor)
{
    RpcCall *call = client.listPage(ListKind::Tools, cursor, this);
    QSignalSpy finished(call, &RpcCall::finished);
    if (!call->isFinished())
        finished.wait(20000);
    return call;
}

void tst_CrossOrigin::verifyNothingArrived()
{
    // Every refusal happens before a connection is made; one still on its way would arrive now.
    QSignalSpy connection(m_second->server(), &QTcpServer::newConnection);
    QVERIFY(!connection.wait(200));
    QVERIFY2(m_second->connections() == 0 && m_second->received().isEmpty(),
             m_second->received().left(2000).constData());
}

// The Streamable HTTP POST (the second tools/list page), the GET stream and the DELETE that ends
// the session, each redirected by a status that Qt would follow to the second origin: none is
// followed, each refusal says where the server wanted the request to go and is a diagnostic line
// in the traffic log, and the token, the configured header and a sign-in's token stay home.
void tst_CrossOrigin::redirectedElsewhere_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("signedIn"); // the token comes from a sign-in (Authorizer), not the config
    QTest::addRow("307_token_and_header") << 307 << false;
    QTest::addRow("308_token_and_header") << 308 << false;
    QTest::addRow("302_token_and_header") << 302 << false;
    QTest::addRow("301_token_and_header") << 301 << false;
    QTest::addRow("303_token_and_header") << 303 << false;
    QTest::addRow("307_signed_in_token") << 307 << true;
    QTest::addRow("302_signed_in_token") << 302 << true;
}

void tst_CrossOrigin::redirectedElsewhere()
{
    QFETCH(int, status);
    QFETCH(bool, signedIn);
    const QUrl url = startFixture(QStringLiteral("redirect-cross-origin"), status);
    QVERIFY(url.isValid());
    ServerConfig c = config(url);
    Authorizer authorizer(url);
    if (signedIn) {
        c.bearerToken.clear();
        AuthRecord record;
        record.issuer = QStringLiteral("http://127.0.0.1:1");
        record.tokens.accessToken = QString::fromLatin1(signedInToken);
        authorizer.setRecord(record);
        authorizer.setInteractive(false);
    }
    McpClient client;
    if (signedIn)
        client.setAuthorizer(&authorizer);
    QStringList diagnostics;
    connect(&client, &McpClient::diagnostic, this,
            [&diagnostics](const QString &line) { diagnostics << line; });
    QVERIFY(connectClient(client, c));
    QVERIFY(m_fixtureSaid.contains("POST /mcp, Authorization: yes")); // the token was sent at home

    RpcCall *first = listAndWait(client, std::nullopt);
    QVERIFY2(!first->isError(), qPrintable(first->error().describe()));
    RpcCall *second = listAndWait(client, QStringLiteral("page-2"));
    QVERIFY(second->isFinished());
    const McpError e = second->error();
    qInfo().noquote() << "POST:" << e.describe();
    QCOMPARE(e.kind, McpError::Kind::HttpStatus);
    QCOMPARE(e.httpStatus, status);
    const QString home = QStringLiteral("http://127.0.0.1:%1").arg(url.port());
    QCOMPARE(e.describe(), QStringLiteral("HTTP %1: The server redirected POST %2 to %3/mcp, another origin; "
                                          "Folio did not follow it, so the token and headers stay with %4 "
                                          "(to use that server, connect to its URL)")
                               .arg(status)
                               .arg(url.toString(), m_second->origin(), home));
    QVERIFY(m_fixtureSaid.contains("redirected POST /mcp"));

    // The GET stream (2025 era: list_changed arrives there).
    client.listenForListChanges();
    QTRY_VERIFY_WITH_TIMEOUT(diagnostics.join(u'\n').contains(QStringLiteral("redirected GET ")), 10000);
    QVERIFY(m_fixtureSaid.contains("redirected GET /mcp"));
    // The client goes on working at home.
    RpcCall *again = listAndWait(client, std::nullopt);
    QVERIFY2(!again->isError(), qPrintable(again->error().describe()));

    // The DELETE that ends the session.
    client.disconnectFromServer();
    QTRY_VERIFY_WITH_TIMEOUT(diagnostics.join(u'\n').contains(QStringLiteral("redirected DELETE ")), 10000);
    QVERIFY(m_fixtureSaid.contains("redirected DELETE /mcp"));

    // Each refusal is a line of the traffic log, as it was said.
    QStringList logged;
    for (const TrafficLog::Entry &entry : client.trafficLog()->entries()) {
        if (entry.direction == TrafficLog::Direction::Diagnostic)
            logged << QString::fromUtf8(entry.text);
    }
    for (const QString &method : {QStringLiteral("POST"), QStringLiteral("GET"), QStringLiteral("DELETE")}) {
        const QString line = QStringLiteral("HTTP %1: The server redirected %2 %3 to %4/mcp, another origin")
                                 .arg(status)
                                 .arg(method, url.toString(), m_second->origin());
        QVERIFY2(logged.join(u'\n').contains(line), qPrintable(logged.join(u'\n')));
    }
    // The HAR entry of the redirected POST: the 3xx as received, where it pointed, and why not.
    bool exchangeKept = false;
    for (const HttpExchange &ex : client.trafficLog()->httpExchanges()) {
        if (ex.method == "POST" && ex.status == status) {
            exchangeKept = true;
            QCOMPARE(ex.header(ex.responseHeaders, "Location"),
                     (m_second->origin() + QStringLiteral("/mcp")).toUtf8());
            QVERIFY2(ex.error.startsWith(QStringLiteral("The server redirected POST ")),
                     qPrintable(ex.error));
        }
    }
    QVERIFY(exchangeKept);
    verifyNothingArrived();
}

// A redirect on the same origin keeps its token (it was given for that origin) and is followed,
// unless it would turn the POST into a GET (301, 302, 303): a JSON-RPC message cannot be a GET.
void tst_CrossOrigin::sameOriginRedirects_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<bool>("postFollowed");
    QTest::addRow("307") << 307 << true;
    QTest::addRow("308") << 308 << true;
    QTest::addRow("302") << 302 << false;
    QTest::addRow("303") << 303 << false;
}

void tst_CrossOrigin::sameOriginRedirects()
{
    QFETCH(int, status);
    QFETCH(bool, postFollowed);
    const QUrl url = startFixture(QStringLiteral("redirect-same-origin"), status);
    QVERIFY(url.isValid());
    McpClient client;
    QStringList diagnostics;
    connect(&client, &McpClient::diagnostic, this,
            [&diagnostics](const QString &line) { diagnostics << line; });
    QVERIFY(connectClient(client, config(url)));
    QVERIFY(!listAndWait(client, std::nullopt)->isError());
    RpcCall *second = listAndWait(client, QStringLiteral("page-2"));
    if (postFollowed) {
        QVERIFY2(!second->isError(), qPrintable(second->error().describe()));
        // The answer at the new place, whole (the redirect's own body is not part of it).
        QCOMPARE(second->result().value(QStringLiteral("tools")).toArray().size(), 3);
        QVERIFY(m_fixtureSaid.contains("POST /moved/mcp, Authorization: yes"));
    } else {
        const McpError e = second->error();
        QCOMPARE(e.kind, McpError::Kind::HttpStatus);
        QCOMPARE(e.describe(),
                 QStringLiteral("HTTP %1: The server redirected POST %2 to %3, which would turn "
                                "the POST into a GET; Folio did not follow it (a 307 or 308 "
                                "keeps the method)")
                     .arg(status)
                     .arg(url.toString(), url.resolved(QUrl(QStringLiteral("/moved/mcp"))).toString()));
        QVERIFY(!m_fixtureSaid.contains("POST /moved/mcp"));
    }
    // A GET stays a GET whatever the status: the GET stream follows, and meets the 405 there.
    client.listenForListChanges();
    QTRY_VERIFY_WITH_TIMEOUT(m_fixtureSaid.contains("GET /moved/mcp, Authorization: yes"), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(diagnostics.join(u'\n').contains(QStringLiteral("no GET stream (HTTP 405)")),
                             10000);
    client.disconnectFromServer();
    // DELETE under a 301/302/303 would become a GET: refused like the POST.
    if (postFollowed)
        QTRY_VERIFY_WITH_TIMEOUT(m_fixtureSaid.contains("DELETE /moved/mcp"), 10000);
    else
        QTRY_VERIFY_WITH_TIMEOUT(
            diagnostics.join(u'\n').contains(QStringLiteral("turn the DELETE into a GET")), 10000);
    verifyNothingArrived();
}

// The legacy HTTP+SSE transport: its stream's GET redirected elsewhere, its POSTs redirected
// elsewhere, and an `endpoint` event that names another origin. The connection fails with the
// refusal and nothing is sent there.
void tst_CrossOrigin::legacySse_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("expected"); // with {url} the server's URL, {second} the second origin, {home}
    QTest::addRow("stream_get_redirected")
        << "redirect-cross-origin"
        << "/mcp"
        << "HTTP 307: The server redirected GET {url} to {second}/mcp, another origin; Folio did not follow "
           "it, "
           "so the token and headers stay with {home} (to use that server, connect to its URL)";
    QTest::addRow("post_redirected")
        << "redirect-cross-origin"
        << "/sse"
        << "HTTP 307: The server redirected POST {home}/messages?session=abc to "
           "{second}/messages?session=abc, "
           "another origin; Folio did not follow it, so the token and headers stay with {home} (to use that "
           "server, connect to its URL)";
    QTest::addRow("endpoint_event_elsewhere")
        << "endpoint-cross-origin"
        << "/sse"
        << "The SSE stream's endpoint event names {second}/messages?session=abc, another origin; Folio does "
           "not post there, so the token and headers stay with {home}";
}

void tst_CrossOrigin::legacySse()
{
    QFETCH(QString, mode);
    QFETCH(QString, path);
    QFETCH(QString, expected);
    QUrl url = startFixture(mode);
    QVERIFY(url.isValid());
    url.setPath(path);
    ServerConfig c = config(url);
    c.httpMode = ServerConfig::HttpMode::LegacySse;
    McpClient client;
    QStringList diagnostics;
    connect(&client, &McpClient::diagnostic, this,
            [&diagnostics](const QString &line) { diagnostics << line; });
    QSignalSpy disconnected(&client, &McpClient::disconnected);
    QVERIFY(!connectClient(client, c));
    QVERIFY(!disconnected.isEmpty());
    const McpError e = disconnected.first().at(0).value<McpError>();
    qInfo().noquote() << McpError::kindName(e.kind) << e.describe();
    const QString home = QStringLiteral("http://127.0.0.1:%1").arg(url.port());
    const QString text = QString(expected)
                             .replace(QStringLiteral("{url}"), url.toString())
                             .replace(QStringLiteral("{second}"), m_second->origin())
                             .replace(QStringLiteral("{home}"), home);
    QCOMPARE(e.describe(), text);
    QVERIFY2(diagnostics.contains(text), qPrintable(diagnostics.join(u'\n')));
    verifyNothingArrived();
}

// What the window shows: the ledger row of the page that was redirected elsewhere holds the
// refusal, as its error column reads it.
void tst_CrossOrigin::ledgerShowsTheRefusal()
{
    const QUrl url = startFixture(QStringLiteral("redirect-cross-origin"));
    QVERIFY(url.isValid());
    McpClient client;
    QVERIFY(connectClient(client, config(url)));
    TtlClock clock;
    PageWalker walker(&client, ListSource::protocol(ListKind::Tools), &clock);
    QSignalSpy finished(&walker, &PageWalker::walkFinished);
    walker.fetchAll();
    QVERIFY(finished.wait(20000));
    QCOMPARE(walker.ledger()->rowCount(), 2);
    QCOMPARE(walker.ledger()->page(1).state, PageRecord::State::Failed);
    const QString shown =
        walker.ledger()->data(walker.ledger()->index(1, PageLedger::ErrorColumn), Qt::DisplayRole).toString();
    QVERIFY2(
        shown.contains(
            QStringLiteral("to %1/mcp, another origin; Folio did not follow it").arg(m_second->origin())),
        qPrintable(shown));
    client.disconnectFromServer();
    verifyNothingArrived();
}

// A sign-in's own requests follow no redirect: resource and authorization server metadata whose
// every well-known URL redirects elsewhere are not fetched there, and the step says where each
// pointed.
void tst_CrossOrigin::signInRequestsStayHome()
{
    const QUrl url = startFixture(QStringLiteral("redirect-cross-origin"));
    QVERIFY(url.isValid());
    OAuthFlow::Options options;
    options.serverUrl = url;
    options.challengeStatus = 401;
    options.challenge =
        "Bearer resource_metadata=\"" +
        url.resolved(QUrl(QStringLiteral("/.well-known/oauth-protected-resource/mcp"))).toEncoded() + "\"";
    OAuthFlow flow(options);
    QSignalSpy finished(&flow, &OAuthFlow::finished);
    flow.start();
    QVERIFY(flow.isFinished() || finished.wait(20000));
    QVERIFY(!flow.succeeded());
    qInfo().noquote() << flow.error().message;
    QString details;
    int exchanges = 0;
    for (const AuthStep &step : flow.steps()) {
        details += QString::fromUtf8(QJsonDocument(step.details).toJson(QJsonDocument::Compact));
        for (const HttpExchange &ex : step.exchanges) {
            ++exchanges;
            QVERIFY2(QUrl(ex.url).host() == QLatin1String("127.0.0.1"), qPrintable(ex.url));
        }
    }
    QVERIFY(exchanges >= 3); // both resource metadata URLs and the server metadata ones
    QVERIFY2(
        details.contains(QStringLiteral("HTTP 307, a redirect to %1/.well-known/oauth-protected-resource/mcp "
                                        "that Folio does not follow")
                             .arg(m_second->origin())),
        qPrintable(details));
    QVERIFY(m_fixtureSaid.contains("redirected GET /.well-known/oauth-authorization-server"));
    verifyNothingArrived();
}

// A refresh-token grant whose token endpoint redirects elsewhere: the client secret (Basic) and the
// refresh token are not sent there.
void tst_CrossOrigin::refreshStaysHome()
{
    const QUrl url = startFixture(QStringLiteral("redirect-cross-origin"));
    QVERIFY(url.isValid());
    const QString home = QStringLiteral("http://127.0.0.1:%1").arg(url.port());
    OAuthFlow::Options options;
    options.serverUrl = url;
    options.refreshOnly = true;
    options.record.issuer = home;
    options.record.resource = url.toString();
    options.record.tokens.accessToken = QStringLiteral("expired-access-token");
    options.record.tokens.refreshToken = QStringLiteral("refresh-token-for-the-first-origin");
    options.record.tokens.tokenEndpoint = QUrl(home + QStringLiteral("/token"));
    OAuthClient client;
    client.clientId = QStringLiteral("folio-test");
    client.clientSecret = QStringLiteral("client-secret-for-the-first-origin");
    client.tokenEndpointAuthMethod = QStringLiteral("client_secret_basic");
    options.record.clients.insert(home, client);
    OAuthFlow flow(options);
    QSignalSpy finished(&flow, &OAuthFlow::finished);
    flow.start();
    QVERIFY(flow.isFinished() || finished.wait(20000));
    QVERIFY(!flow.succeeded());
    const QString expected =
        QStringLiteral(
            "The token endpoint answered HTTP 307, a redirect to %1/token that Folio does not follow")
            .arg(m_second->origin());
    QVERIFY2(flow.error().message.contains(expected), qPrintable(flow.error().message));
    QVERIFY(m_fixtureSaid.contains("redirected POST /token"));
    verifyNothingArrived();
}

QTEST_GUILESS_MAIN(tst_CrossOrigin)
#include "tst_crossorigin.moc"
