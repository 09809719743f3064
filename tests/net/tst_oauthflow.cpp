// The sign-in (OAuthFlow) and the token's renewal (Authorizer) against the demo server's own
// authorization server (folio-demo-server --http 0 --oauth=SPEC), a real process on loopback. No
// browser: the flow GETs the authorization URL and follows its redirect only to its own listener.
// What the conformance harness does not test: the faults a server can have, cancel, the listener
// closing, refresh token rotation, and a token that expires in the middle of a paged walk.
#include "authorizer.h"
#include "connectclient.h"
#include "mcpclient.h"
#include "oauth.h"
#include "oauthflow.h"
#include "rpccall.h"
#include "secretmask.h"
#include "serverprocess.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <QUrlQuery>

#include <memory>
#include <optional>

using namespace folio;

using Kind = AuthStep::Kind;
Q_DECLARE_METATYPE(folio::AuthStep::Kind)

// A flow that must have succeeded; when it did not, its steps with their exchanges go to the log
// (a QVERIFY2 message is cut short).
#define VERIFY_SUCCEEDED(flow)                                                                               \
    do {                                                                                                     \
        if (!(flow).succeeded())                                                                             \
            qWarning().noquote() << describeSteps((flow).steps(), true);                                     \
        QVERIFY2((flow).succeeded(), qPrintable((flow).error().message));                                    \
    } while (false)

class tst_OAuthFlow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup();

    void challenge_data();
    void challenge();
    void signIn_data();
    void signIn();
    void refresh_data() { refreshTokenKeptOrRotated(); }
    void refresh();
    void refreshRefused();
    void fault_data();
    void fault();
    void cancelWhileWaitingForCallback();
    void tokenExpiresMidWalk_data() { refreshTokenKeptOrRotated(); }
    void tokenExpiresMidWalk();
    void stepUpForMoreScope();

private:
    struct Answer
    {
        int status = 0;
        QByteArray wwwAuthenticate;
        QByteArray body;
    };

    // The data of the tests run with the server's refresh tokens kept and rotated (--oauth=rotate).
    static void refreshTokenKeptOrRotated();
    // Starts the demo server with --oauth=spec (and more arguments); its /mcp URL, or empty.
    QUrl startServer(const QString &spec, const QStringList &more = {});
    std::unique_ptr<OAuthFlow> runFlow(OAuthFlow::Options options);
    std::unique_ptr<OAuthFlow> signIn(const QUrl &server);
    // Connects client to the demo server at server ("demo-oauth"; requestTimeoutMs when given),
    // signing in through authorizer: whether it connected within 20 s (*why: why not).
    static bool connectSignedIn(McpClient &client, const QUrl &server, Authorizer *authorizer, QString *why,
                                std::optional<int> requestTimeoutMs = std::nullopt);
    Answer postDiscover(const QUrl &server, const QString &token);
    static bool portRefuses(quint16 port);
    static quint16 listenerPort(const OAuthFlow &flow);
    static const AuthStep *findStep(const OAuthFlow &flow, Kind kind);
    static std::optional<bool> verdictOf(const AuthStep &step, const QString &rule);
    static QString describe(const OAuthFlow &flow) { return describeSteps(flow.steps(), true); }

    QList<QProcess *> m_servers;
    QNetworkAccessManager m_nam;
};

QUrl tst_OAuthFlow::startServer(const QString &spec, const QStringList &more)
{
    auto *proc = new QProcess(this);
    m_servers.append(proc);
    proc->setProcessChannelMode(QProcess::SeparateChannels);
    proc->start(
        QStringLiteral(FOLIO_DEMO_SERVER),
        QStringList{QStringLiteral("--http"), QStringLiteral("0"), QStringLiteral("--oauth=") + spec} + more);
    if (!proc->waitForStarted(5000))
        return {};
    QByteArray err;
    const QString url = testsupport::listeningUrl(*proc, 10000, &err);
    if (url.isEmpty())
        qWarning().noquote() << "the demo server did not start:" << err;
    return QUrl(url);
}

bool tst_OAuthFlow::connectSignedIn(McpClient &client, const QUrl &server, Authorizer *authorizer,
                                    QString *why, std::optional<int> requestTimeoutMs)
{
    ServerConfig config = ServerConfig::remote(server);
    config.name = QStringLiteral("demo-oauth");
    if (requestTimeoutMs)
        config.requestTimeoutMs = *requestTimeoutMs;
    client.setConfig(config);
    client.setAuthorizer(authorizer);
    return testsupport::connectClient(client, 20000, why);
}

void tst_OAuthFlow::cleanup()
{
    testsupport::stopAll(m_servers);
}

std::unique_ptr<OAuthFlow> tst_OAuthFlow::runFlow(OAuthFlow::Options options)
{
    auto flow = std::make_unique<OAuthFlow>(std::move(options));
    QSignalSpy finished(flow.get(), &OAuthFlow::finished);
    flow->start();
    if (!flow->isFinished())
        finished.wait(20000);
    return flow;
}

std::unique_ptr<OAuthFlow> tst_OAuthFlow::signIn(const QUrl &server)
{
    OAuthFlow::Options options;
    options.serverUrl = server;
    return runFlow(options);
}

tst_OAuthFlow::Answer tst_OAuthFlow::postDiscover(const QUrl &server, const QString &token)
{
    QNetworkRequest req(server);
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    req.setRawHeader("Accept", "application/json, text/event-stream");
    req.setRawHeader("MCP-Protocol-Version", "2026-07-28");
    req.setRawHeader("Mcp-Method", "server/discover");
    if (!token.isEmpty())
        req.setRawHeader("Authorization", "Bearer " + token.toLatin1());
    const QByteArray body =
        R"({"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{)"
        R"("io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}})";
    QNetworkReply *reply = m_nam.post(req, body);
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        finished.wait(10000);
    Answer a;
    a.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    a.wwwAuthenticate = reply->rawHeader("WWW-Authenticate");
    a.body = reply->readAll();
    reply->deleteLater();
    return a;
}

bool tst_OAuthFlow::portRefuses(quint16 port)
{
    if (port == 0)
        return false;
    QTcpSocket socket;
    QSignalSpy connected(&socket, &QTcpSocket::connected);
    QSignalSpy failed(&socket, &QTcpSocket::errorOccurred);
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (connected.isEmpty() && failed.isEmpty())
        failed.wait(5000);
    return connected.isEmpty() && socket.error() == QAbstractSocket::ConnectionRefusedError;
}

quint16 tst_OAuthFlow::listenerPort(const OAuthFlow &flow)
{
    // The listener's redirect URI is in the registration step (and the authorization URL).
    const AuthStep *registration = findStep(flow, Kind::Registration);
    QUrl redirect(registration ? registration->details.value(QStringLiteral("redirect_uri")).toString()
                               : QString());
    if (!redirect.isValid() && flow.authorizationUrl().isValid())
        redirect = QUrl(QUrlQuery(flow.authorizationUrl())
                            .queryItemValue(QStringLiteral("redirect_uri"), QUrl::FullyDecoded));
    return quint16(redirect.port(0));
}

const AuthStep *tst_OAuthFlow::findStep(const OAuthFlow &flow, Kind kind)
{
    const AuthStep *found = nullptr;
    for (const AuthStep &s : flow.steps()) {
        if (s.kind == kind)
            found = &s;
    }
    return found;
}

std::optional<bool> tst_OAuthFlow::verdictOf(const AuthStep &step, const QString &rule)
{
    for (const AuthVerdict &v : step.verdicts) {
        if (v.rule == rule)
            return v.passed;
    }
    return std::nullopt;
}

// --- The protected resource ------------------------------------------------------------------

void tst_OAuthFlow::challenge_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("expected"); // %1: the resource metadata URL
    QTest::addRow("no_token") << QString() << QString() << QStringLiteral("Bearer resource_metadata=\"%1\"");
    QTest::addRow("unknown_token") << QString() << QStringLiteral("not-a-token-it-issued")
                                   << QStringLiteral(
                                          "Bearer resource_metadata=\"%1\", error=\"invalid_token\", "
                                          "error_description=\"The access token is unknown\"");
    QTest::addRow("challenge_scope")
        << QStringLiteral("challenge-scope=chat:read+chat:write") << QString()
        << QStringLiteral("Bearer resource_metadata=\"%1\", scope=\"chat:read chat:write\"");
    QTest::addRow("bare_challenge") << QStringLiteral("fault=bare-challenge") << QString()
                                    << QStringLiteral("Bearer");
}

void tst_OAuthFlow::challenge()
{
    QFETCH(QString, spec);
    QFETCH(QString, token);
    QFETCH(QString, expected);
    const QUrl server = startServer(spec);
    QVERIFY(server.isValid());
    const Answer a = postDiscover(server, token);
    QCOMPARE(a.status, 401);
    const QString metadataUrl =
        server.resolved(QUrl(QStringLiteral("/.well-known/oauth-protected-resource/mcp"))).toString();
    QCOMPARE(QString::fromLatin1(a.wwwAuthenticate),
             expected.contains(QLatin1String("%1")) ? expected.arg(metadataUrl) : expected);
}

// --- Sign-in ---------------------------------------------------------------------------------

void tst_OAuthFlow::signIn_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<bool>("fromChallenge");
    QTest::addColumn<QString>("scope");
    QTest::addRow("asked_before_any_request") << QString() << false << "chat:read chat:write offline_access";
    QTest::addRow("from_the_401") << QString() << true << "chat:read chat:write offline_access";
    QTest::addRow("challenge_scope_wins")
        << QStringLiteral("challenge-scope=chat:read") << true << "chat:read offline_access";
    QTest::addRow("jwt_claims") << QStringLiteral("jwt") << true << "chat:read chat:write offline_access";
    QTest::addRow("resource_metadata_at_well_known_url")
        << QStringLiteral("fault=bare-challenge") << true << "chat:read chat:write offline_access";
    // A 2025-03-26 server: no resource metadata, the origin is the authorization server, and
    // with no scopes offered none is sent (the server grants its defaults).
    QTest::addRow("no_resource_metadata_origin_fallback")
        << QStringLiteral("fault=no-resource-metadata") << true << "chat:read chat:write";
}

void tst_OAuthFlow::signIn()
{
    QFETCH(QString, spec);
    QFETCH(bool, fromChallenge);
    QFETCH(QString, scope);
    const QUrl server = startServer(spec);
    QVERIFY(server.isValid());
    const QString issuer = server.adjusted(QUrl::RemovePath).toString();

    OAuthFlow::Options options;
    options.serverUrl = server;
    if (fromChallenge) {
        const Answer refused = postDiscover(server, {});
        QCOMPARE(refused.status, 401);
        options.challenge = refused.wwwAuthenticate;
        options.challengeStatus = refused.status;
    }
    const auto flow = runFlow(options);
    VERIFY_SUCCEEDED(*flow);

    // Every step, in order, done.
    const QList<Kind> expected{Kind::Challenge,    Kind::ResourceMetadata, Kind::ServerMetadata,
                               Kind::Registration, Kind::Authorization,    Kind::Callback,
                               Kind::Token};
    QList<Kind> kinds;
    for (const AuthStep &s : flow->steps()) {
        kinds.append(s.kind);
        QVERIFY2(s.state == AuthStep::State::Done, qPrintable(describe(*flow)));
    }
    QCOMPARE(kinds, expected);
    // The rules checked, and passed; only the 2025-03-26 fallback notes a missing document.
    const bool fallback = spec == QLatin1String("fault=no-resource-metadata");
    for (const AuthStep &s : flow->steps()) {
        for (const AuthVerdict &v : s.verdicts) {
            if (fallback && v.rule == QLatin1String("protected resource metadata found"))
                QCOMPARE(v.passed, false);
            else
                QVERIFY2(v.passed, qPrintable(v.rule + QStringLiteral(": ") + v.detail));
        }
    }
    if (!fallback)
        QCOMPARE(verdictOf(*findStep(*flow, Kind::ResourceMetadata),
                           QStringLiteral("resource matches this server")),
                 true);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::ServerMetadata), QStringLiteral("issuer matches")), true);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::ServerMetadata), QStringLiteral("S256 advertised")), true);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::Authorization), QStringLiteral("PKCE S256")), true);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::Callback), QStringLiteral("iss equals the issuer")), true);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::Callback), QStringLiteral("state matches")), true);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::Token), QStringLiteral("token type Bearer")), true);

    // Each exchange in the step that sent it: the redirect followed to the listener is the
    // authorization's, the token step has just its POST.
    const AuthStep *authorization = findStep(*flow, Kind::Authorization);
    QCOMPARE(authorization->exchanges.size(), 2);
    QCOMPARE(authorization->exchanges.at(0).status, 302);
    QCOMPARE(QUrl(authorization->exchanges.at(1).url).path(), QStringLiteral("/callback"));
    QCOMPARE(findStep(*flow, Kind::Token)->exchanges.size(), 1);
    QCOMPARE(findStep(*flow, Kind::Token)->exchanges.first().method, QByteArray("POST"));

    // What it brought back.
    const AuthRecord &record = flow->record();
    QCOMPARE(record.issuer, issuer);
    QCOMPARE(record.resource, server.toString());
    QCOMPARE(record.clientFor(issuer).source, OAuthClient::Source::Dynamic);
    QCOMPARE(record.clientFor(issuer).tokenEndpointAuthMethod, QStringLiteral("none"));
    QVERIFY(record.tokens.isValid());
    QVERIFY(!record.tokens.refreshToken.isEmpty());
    QCOMPARE(record.tokens.scope, scope);
    QCOMPARE(record.tokens.tokenEndpoint, QUrl(issuer + QStringLiteral("/token")));
    QVERIFY(record.tokens.expiresAtMs > record.tokens.issuedAtMs);

    const QJsonObject claims = findStep(*flow, Kind::Token)->jwtClaims;
    if (spec == QLatin1String("jwt")) {
        QCOMPARE(claims.value(QStringLiteral("iss")).toString(), issuer);
        QCOMPARE(claims.value(QStringLiteral("aud")).toString(), server.toString());
        QCOMPARE(claims.value(QStringLiteral("scope")).toString(), scope);
        QVERIFY(claims.value(QStringLiteral("exp")).toInteger() >
                claims.value(QStringLiteral("iat")).toInteger());
    } else {
        QVERIFY(claims.isEmpty());
    }

    // The token opens /mcp; the listener is gone.
    const Answer authorized = postDiscover(server, record.tokens.accessToken);
    QVERIFY2(authorized.status == 200, authorized.body.constData());
    QVERIFY(authorized.body.contains("supportedVersions"));
    QVERIFY(portRefuses(listenerPort(*flow)));
}

// --- Refresh ---------------------------------------------------------------------------------

void tst_OAuthFlow::refreshTokenKeptOrRotated()
{
    QTest::addColumn<bool>("rotate");
    QTest::addRow("refresh_token_kept") << false;
    QTest::addRow("refresh_token_rotated") << true;
}

void tst_OAuthFlow::refresh()
{
    QFETCH(bool, rotate);
    const QUrl server = startServer(rotate ? QStringLiteral("rotate") : QString());
    QVERIFY(server.isValid());
    const auto first = signIn(server);
    VERIFY_SUCCEEDED(*first);
    const AuthRecord signedIn = first->record();

    OAuthFlow::Options options;
    options.serverUrl = server;
    options.record = signedIn;
    options.refreshOnly = true;
    const auto refreshed = runFlow(options);
    VERIFY_SUCCEEDED(*refreshed);
    QCOMPARE(refreshed->steps().size(), 1);
    const AuthStep &step = refreshed->steps().first();
    QCOMPARE(step.kind, Kind::Refresh);
    QCOMPARE(step.state, AuthStep::State::Done);
    const OAuthTokens &tokens = refreshed->record().tokens;
    QVERIFY(tokens.isValid());
    QVERIFY(tokens.accessToken != signedIn.tokens.accessToken);
    QCOMPARE(tokens.scope, signedIn.tokens.scope);
    QCOMPARE(postDiscover(server, tokens.accessToken).status, 200);

    if (!rotate) {
        // No new refresh token in the answer: the one in hand stays, and stays good.
        QCOMPARE(tokens.refreshToken, signedIn.tokens.refreshToken);
        QVERIFY2(step.summary.contains(QLatin1String("with a refresh token")), qPrintable(step.summary));
        const auto again = runFlow(options);
        VERIFY_SUCCEEDED(*again);
        return;
    }
    QVERIFY(!tokens.refreshToken.isEmpty());
    QVERIFY(tokens.refreshToken != signedIn.tokens.refreshToken);
    QVERIFY2(step.summary.contains(QLatin1String("refresh token rotated")), qPrintable(step.summary));

    // The old refresh token is refused from now on; its successor works.
    const auto stale = runFlow(options);
    QVERIFY(stale->isFinished());
    QVERIFY(!stale->succeeded());
    QCOMPARE(stale->steps().last().kind, Kind::Refresh);
    QCOMPARE(stale->steps().last().state, AuthStep::State::Failed);
    QVERIFY2(stale->steps().last().error.contains(QLatin1String("invalid_grant")),
             qPrintable(stale->steps().last().error));
    options.record = refreshed->record();
    const auto next = runFlow(options);
    VERIFY_SUCCEEDED(*next);
}

void tst_OAuthFlow::refreshRefused()
{
    const QUrl server = startServer(QStringLiteral("fault=refresh-400"));
    QVERIFY(server.isValid());
    const auto first = signIn(server);
    VERIFY_SUCCEEDED(*first);

    OAuthFlow::Options options;
    options.serverUrl = server;
    options.record = first->record();
    options.refreshOnly = true;
    const auto refreshed = runFlow(options);
    QVERIFY(refreshed->isFinished());
    QVERIFY(!refreshed->succeeded());
    const AuthStep &step = refreshed->steps().last();
    QCOMPARE(step.kind, Kind::Refresh);
    QCOMPARE(step.state, AuthStep::State::Failed);
    QVERIFY2(step.error.contains(QLatin1String(
                 "invalid_grant: The demo server refuses every refresh token (fault=refresh-400)")),
             qPrintable(step.error));
    QCOMPARE(step.exchanges.size(), 1);
    QCOMPARE(step.exchanges.first().status, 400);
}

// --- Faults ----------------------------------------------------------------------------------

void tst_OAuthFlow::fault_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<Kind>("failsAt");
    QTest::addColumn<QString>("errorPart");
    QTest::addColumn<QString>("rule"); // a verdict that must have failed; empty: none

    QTest::addRow("wrong_state") << "wrong-state" << Kind::Callback
                                 << "The state in the redirect is not the one sent"
                                 << "state matches";
    QTest::addRow("wrong_iss") << "wrong-iss" << Kind::Callback << "RFC 9207"
                               << "iss equals the issuer";
    QTest::addRow("no_iss") << "no-iss" << Kind::Callback << "has no iss"
                            << "iss present";
    QTest::addRow("redirect_elsewhere")
        << "redirect-elsewhere" << Kind::Authorization
        << "https://attacker.example/callback, which is not Folio's loopback listener"
        << "redirect to the loopback listener";
    QTest::addRow("access_denied") << "access-denied" << Kind::Callback
                                   << "refused: access_denied: The demo user said no"
                                   << "";
    QTest::addRow("token_400") << "token-400" << Kind::Token
                               << "HTTP 400 with OAuth error invalid_grant: The demo server refuses every "
                                  "authorization code (fault=token-400)"
                               << "";
    QTest::addRow("no_s256") << "no-s256" << Kind::ServerMetadata
                             << "code_challenge_methods_supported is absent"
                             << "S256 advertised";
    QTest::addRow("issuer_mismatch") << "issuer-mismatch" << Kind::ServerMetadata << "RFC 8414 §3.3"
                                     << "issuer matches";
    QTest::addRow("resource_mismatch") << "resource-mismatch" << Kind::ResourceMetadata << "RFC 9728 §3.3"
                                       << "resource matches this server";
    QTest::addRow("registration_refused") << "register-400" << Kind::Registration
                                          << "Dynamic registration was refused (HTTP 400): "
                                             "invalid_client_metadata"
                                          << "";
    QTest::addRow("no_registration_endpoint")
        << "no-registration" << Kind::Registration << "no registration endpoint"
        << "";
    QTest::addRow("token_type_not_bearer") << "token-type-mac" << Kind::Token << "not Bearer"
                                           << "token type Bearer";
}

void tst_OAuthFlow::fault()
{
    QFETCH(QString, fault);
    QFETCH(Kind, failsAt);
    QFETCH(QString, errorPart);
    QFETCH(QString, rule);
    const QUrl server = startServer(QStringLiteral("fault=") + fault);
    QVERIFY(server.isValid());
    const auto flow = signIn(server);
    QVERIFY(flow->isFinished());
    QVERIFY(!flow->succeeded());

    // It stops at the step that broke the rule, with the rule and the whole error; the steps
    // before it are done.
    const AuthStep &failed = flow->steps().last();
    QVERIFY2(failed.kind == failsAt, qPrintable(describe(*flow)));
    QCOMPARE(failed.state, AuthStep::State::Failed);
    QVERIFY2(failed.error.contains(errorPart), qPrintable(failed.error));
    QVERIFY2(flow->error().message.contains(errorPart), qPrintable(flow->error().message));
    for (qsizetype i = 0; i + 1 < flow->steps().size(); ++i)
        QCOMPARE(flow->steps().at(i).state, AuthStep::State::Done);
    if (!rule.isEmpty())
        QCOMPARE(verdictOf(failed, rule), false);
    QVERIFY(!flow->record().tokens.isValid());

    if (fault == QLatin1String("redirect-elsewhere")) {
        // Nothing was sent off loopback: the code never left for the attacker's host.
        for (const AuthStep &s : flow->steps()) {
            for (const HttpExchange &ex : s.exchanges)
                QVERIFY2(QUrl(ex.url).host() == QLatin1String("127.0.0.1"), qPrintable(ex.url));
        }
        QVERIFY(!findStep(*flow, Kind::Callback));
    }
    if (fault == QLatin1String("token-400")) {
        // The whole OAuth error, as the server sent it, in the step's exchange too.
        QCOMPARE(failed.exchanges.size(), 1);
        const HttpExchange &ex = failed.exchanges.first();
        QCOMPARE(ex.status, 400);
        QVERIFY(ex.responseBody.contains(R"("error":"invalid_grant")"));
        QVERIFY(ex.responseBody.contains(
            R"x("error_description":"The demo server refuses every authorization code (fault=token-400)")x"));
        // Shown masked: the code and the verifier never appear whole.
        const HttpExchange masked = SecretMask::abbreviateExchange(ex);
        const QUrlQuery sent(QString::fromUtf8(ex.requestBody));
        for (const QString &secret :
             {sent.queryItemValue(QStringLiteral("code"), QUrl::FullyDecoded),
              sent.queryItemValue(QStringLiteral("code_verifier"), QUrl::FullyDecoded)}) {
            QVERIFY(secret.size() > 8);
            QVERIFY(!masked.requestBody.contains(secret.toLatin1()));
        }
    }
    // Once the listener was opened (registration on), it is closed again.
    if (failsAt == Kind::Registration || failsAt == Kind::Authorization || failsAt == Kind::Callback ||
        failsAt == Kind::Token)
        QVERIFY(portRefuses(listenerPort(*flow)));
}

// --- Cancel ----------------------------------------------------------------------------------

void tst_OAuthFlow::cancelWhileWaitingForCallback()
{
    const QUrl server = startServer(QString());
    QVERIFY(server.isValid());
    OAuthFlow::Options options;
    options.serverUrl = server;
    QUrl shown;
    options.openBrowser = [&shown](const QUrl &url) { shown = url; }; // a browser nobody uses
    OAuthFlow flow(options);
    QSignalSpy ready(&flow, &OAuthFlow::authorizationUrlReady);
    QSignalSpy finished(&flow, &OAuthFlow::finished);
    flow.start();
    QVERIFY(ready.wait(20000));
    QCOMPARE(shown, flow.authorizationUrl());
    QCOMPARE(flow.steps().last().kind, Kind::Authorization);
    QCOMPARE(flow.steps().last().state, AuthStep::State::Waiting);
    const quint16 port = listenerPort(flow);
    QVERIFY(port != 0);
    QCOMPARE(
        QUrlQuery(flow.authorizationUrl()).queryItemValue(QStringLiteral("redirect_uri"), QUrl::FullyDecoded),
        QStringLiteral("http://127.0.0.1:%1/callback").arg(port));
    {
        // Listening while it waits.
        QTcpSocket probe;
        QSignalSpy connected(&probe, &QTcpSocket::connected);
        probe.connectToHost(QHostAddress::LocalHost, port);
        QVERIFY(connected.wait(5000));
        probe.abort();
    }

    flow.cancel();
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 5000);
    QVERIFY(!flow.succeeded());
    QCOMPARE(flow.error().kind, McpError::Kind::Cancelled);
    QCOMPARE(flow.steps().last().kind, Kind::Authorization);
    QCOMPARE(flow.steps().last().state, AuthStep::State::Failed);
    QVERIFY2(flow.steps().last().error.contains(QLatin1String("Cancelled")),
             qPrintable(flow.steps().last().error));
    QVERIFY(portRefuses(port));
    flow.cancel(); // once finished, nothing more
    QCOMPARE(finished.size(), 1);
}

// --- The Authorizer in a walk ------------------------------------------------------------------

void tst_OAuthFlow::tokenExpiresMidWalk()
{
    QFETCH(bool, rotate);
    // 40 resources in 8 pages of 5, each answered after 300 ms: the walk takes 2.4 s or more, and
    // the access tokens live 1 s.
    constexpr int items = 40;
    constexpr int pageSize = 5;
    const QUrl server =
        startServer(QStringLiteral("token-ttl-ms=1000") + (rotate ? QStringLiteral(",rotate") : QString()),
                    {QStringLiteral("--scenario"), QStringLiteral("healthy"), QStringLiteral("--resources"),
                     QString::number(items), QStringLiteral("--page-size"), QString::number(pageSize),
                     QStringLiteral("--list"), QStringLiteral("resources=slow,latencyMs=300")});
    QVERIFY(server.isValid());

    Authorizer authorizer(server); // interactive, no browser: the sign-in follows the redirect
    struct Flow
    {
        bool refresh = false;
        bool succeeded = false;
        QString error;
    };
    QList<Flow> flows;
    connect(&authorizer, &Authorizer::flowFinished, this, [&flows](OAuthFlow *flow) {
        flows.append({flow->options().refreshOnly, flow->succeeded(), flow->error().message});
    });

    McpClient client;
    QString why;
    QVERIFY2(connectSignedIn(client, server, &authorizer, &why, 15000), qPrintable(why));
    QCOMPARE(flows.size(), 1);
    QVERIFY(!flows.first().refresh);
    QVERIFY2(flows.first().succeeded, qPrintable(flows.first().error));
    const QString firstRefreshToken = authorizer.record().tokens.refreshToken;
    QVERIFY(!firstRefreshToken.isEmpty());

    QStringList uris;
    QStringList cursors;
    std::optional<QString> cursor;
    int pages = 0;
    while (pages < 3 * items / pageSize) {
        RpcCall *call = client.listPage(ListKind::Resources, cursor, this);
        QSignalSpy finished(call, &RpcCall::finished);
        if (!call->isFinished())
            QVERIFY(finished.wait(20000));
        QVERIFY2(!call->isError(), qPrintable(call->error().describe()));
        ++pages;
        const QJsonObject result = call->result();
        for (const QJsonValue &r : result.value(QStringLiteral("resources")).toArray())
            uris.append(r.toObject().value(QStringLiteral("uri")).toString());
        if (!result.contains(QStringLiteral("nextCursor")))
            break;
        cursor = result.value(QStringLiteral("nextCursor")).toString();
        QVERIFY2(!cursors.contains(*cursor), qPrintable(*cursor));
        cursors.append(*cursor);
    }

    // Every page arrived once: none lost, none repeated.
    QCOMPARE(pages, items / pageSize);
    QCOMPARE(uris.size(), items);
    QCOMPARE(QSet<QString>(uris.cbegin(), uris.cend()).size(), items);
    for (const QString &uri : std::as_const(uris))
        QVERIFY2(uri.startsWith(QLatin1String("chat://channels/")), qPrintable(uri));

    // The token expired on the way and was refreshed, never signed in again.
    QVERIFY2(flows.size() >= 2, "the access token never expired during the walk");
    for (qsizetype i = 1; i < flows.size(); ++i) {
        QVERIFY(flows.at(i).refresh);
        QVERIFY2(flows.at(i).succeeded, qPrintable(flows.at(i).error));
    }
    if (rotate)
        QVERIFY(authorizer.record().tokens.refreshToken != firstRefreshToken);
    else
        QCOMPARE(authorizer.record().tokens.refreshToken, firstRefreshToken);
    client.disconnectFromServer();
}

void tst_OAuthFlow::stepUpForMoreScope()
{
    // The first sign-in asks for the resource's scopes_supported; /mcp then wants chat:admin too
    // (403 insufficient_scope), and the Authorizer signs in again for it and the scopes held.
    const QUrl server = startServer(QStringLiteral("step-up=chat:admin"));
    QVERIFY(server.isValid());
    Authorizer authorizer(server);
    QStringList titles;
    connect(&authorizer, &Authorizer::flowFinished, this, [&titles](OAuthFlow *flow) {
        titles.append(Authorizer::flowTitle(flow) +
                      (flow->succeeded() ? QString() : QStringLiteral(" failed: ") + flow->error().message));
    });
    McpClient client;
    QString why;
    QVERIFY2(connectSignedIn(client, server, &authorizer, &why), qPrintable(why));
    QCOMPARE(titles, (QStringList{QStringLiteral("Sign-in"), QStringLiteral("Step-up")}));
    const QStringList granted = authorizer.record().tokens.scope.split(QLatin1Char(' '));
    for (const QString &scope :
         {QStringLiteral("chat:read"), QStringLiteral("chat:write"), QStringLiteral("chat:admin")})
        QVERIFY2(granted.contains(scope), qPrintable(authorizer.record().tokens.scope));
    client.disconnectFromServer();
}

QTEST_GUILESS_MAIN(tst_OAuthFlow)
#include "tst_oauthflow.moc"
