#include "httptransports.h"
#include "mcpclient.h"
#include "transport.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace folio;

// HttpTransports without the HTTP transports linked in (this test is built NO_HTTP) and without a
// folio-http module next to it: what a user meets when the module is missing. Then with a factory
// registered, as linking the transports in or loading the module does. Slots run in order.
class tst_HttpTransports : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void missingModuleIsAnError();
    void clientFailsWithTheReason();
    void registeredFactoryIsUsed();
};

namespace {
class NullTransport : public Transport
{
public:
    using Transport::Transport;
    void open() override {}
    void send(const QJsonObject &, const QByteArray &) override {}
    void close() override {}
    bool isOpen() const override { return false; }
    QString kindName() const override { return QStringLiteral("null"); }
};

HttpTransports::Kind lastKind = HttpTransports::Kind::Streamable;
QUrl lastUrl;

Transport *nullFactory(HttpTransports::Kind kind, const HttpEndpoint &endpoint)
{
    lastKind = kind;
    lastUrl = endpoint.url;
    return new NullTransport;
}

ServerConfig httpConfig()
{
    ServerConfig c;
    c.name = QStringLiteral("http");
    c.kind = ServerConfig::Kind::Http;
    c.url = QUrl(QStringLiteral("http://127.0.0.1:1/mcp"));
    c.requestTimeoutMs = 2000;
    return c;
}
} // namespace

void tst_HttpTransports::missingModuleIsAnError()
{
    const QStringList candidates = HttpTransports::moduleCandidates();
    QVERIFY(!candidates.isEmpty());
    QVERIFY(candidates.constFirst().startsWith(QCoreApplication::applicationDirPath()));

    QString error;
    HttpEndpoint endpoint;
    endpoint.url = QUrl(QStringLiteral("http://127.0.0.1:1/mcp"));
    QCOMPARE(HttpTransports::create(HttpTransports::Kind::Streamable, endpoint, &error), nullptr);
    QVERIFY2(error.contains(QLatin1String("folio-http")), qPrintable(error));
    QVERIFY2(error.contains(QLatin1String("HTTP support is not available")), qPrintable(error));

    // Asked again (another server, a reconnect): the same answer, not a second search.
    QString again;
    QCOMPARE(HttpTransports::create(HttpTransports::Kind::LegacySse, endpoint, &again), nullptr);
    QCOMPARE(again, error);
}

void tst_HttpTransports::clientFailsWithTheReason()
{
    McpClient client;
    client.setConfig(httpConfig());
    QSignalSpy disconnected(&client, &McpClient::disconnected);
    client.connectToServer();
    // Reported from the event loop, as any failure to connect is: connectToServer() returns first.
    QCOMPARE(client.state(), McpClient::State::Connecting);
    QVERIFY(disconnected.wait(2000));
    QCOMPARE(client.state(), McpClient::State::Failed);
    const McpError e = disconnected.first().at(0).value<McpError>();
    QCOMPARE(e.kind, McpError::Kind::ConnectionFailed);
    QVERIFY2(e.describe().contains(QLatin1String("folio-http")), qPrintable(e.describe()));

    // Connecting again fails the same way; nothing hangs or crashes.
    disconnected.clear();
    client.connectToServer();
    QVERIFY(disconnected.wait(2000));
    QCOMPARE(client.state(), McpClient::State::Failed);
}

void tst_HttpTransports::registeredFactoryIsUsed()
{
    HttpTransports::registerFactory(&nullFactory);
    HttpEndpoint endpoint;
    endpoint.url = QUrl(QStringLiteral("http://127.0.0.1:2/sse"));
    QString error;
    std::unique_ptr<Transport> t(HttpTransports::create(HttpTransports::Kind::LegacySse, endpoint, &error));
    QVERIFY(t);
    QVERIFY(error.isEmpty());
    QCOMPARE(t->kindName(), QStringLiteral("null"));
    QCOMPARE(lastKind, HttpTransports::Kind::LegacySse);
    QCOMPARE(lastUrl, endpoint.url);
}

QTEST_GUILESS_MAIN(tst_HttpTransports)
#include "tst_httptransports.moc"
