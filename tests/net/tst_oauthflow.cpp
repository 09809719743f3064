// The sign-in (OAuthFlow) and the token's renewal (Authorizer) against the demo server's own
// authorization server (folio-demo-server --http 0 --oauth=SPEC), a real process on loopback. No
// browser: the flow GETs the authorization URL and follows its redirect only to its own listener.
// What the conformance harness does not test: the faults a server can have, cancel, the listener
// closing, refresh token rotation, and a token that expires in the middle of a paged walk.
#include "authorizer.h"
#include "connectclient.h"
#include "jose.h"
#include "josecheck.h"
#include "mcpclient.h"
#include "oauth.h"
#include "oauthflow.h"
#include "rpccall.h"
#include "scriptedserver.h"
#include "secretmask.h"
#include "serverprocess.h"

#include <QCryptographicHash>
#include <QFile>
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
    void dpopNonceAtTheResourceServer();
    void dpopRefreshAgainstTheDemoServer();

    // Grants without a person and DPoP, against a scripted authorization server in this process.
    void machineClientSecret_data();
    void machineClientSecret();
    void machineClientPrivateKey_data();
    void machineClientPrivateKey();
    void machineWithoutAuthorizationEndpoint();
    void dpopTokenWithoutItsKeyIsDropped();
    void jwtBearer();
    void jwtBearerRefusedIsNotRerun();
    void enterpriseManaged();
    void enterpriseHostileExchange_data();
    void enterpriseHostileExchange();
    void dpopBoundToken();
    void dpopNonce_data();
    void dpopNonce();
    void dpopNotUsed_data();
    void dpopNotUsed();
    void dpopRefreshKeepsKey();
    void savedClientCredentialsRerunWithoutPerson();

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
    // server (listening) as an MCP server's authorization server: its /mcp's resource metadata, its
    // RFC 8414 metadata (issuer, authorization and token endpoints, then metadata's members, which
    // replace those; a null value removes one), token answering POST /token and idp POST /idp/token.
    static void scriptAuthServer(ScriptedServer &server, const QJsonObject &metadata,
                                 ScriptedServer::Script token, ScriptedServer::Script idp = {});
    static OAuthFlow::Options machineOptions(const ScriptedServer &server, const OAuthClientSettings &client);
    static QList<Kind> kindsOf(const OAuthFlow &flow);

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

// The demo server's dpop=nonce: its token endpoint and /mcp each refuse a proof without their nonce
// first (use_dpop_nonce). The first request sent again with the token is refused that way and goes
// once more with the nonce: the sign-in's last step is that answer, not the refusal, and says so.
void tst_OAuthFlow::dpopNonceAtTheResourceServer()
{
    const QUrl server = startServer(QStringLiteral("dpop=nonce"));
    QVERIFY(server.isValid());
    Authorizer authorizer(server);
    McpClient client;
    QString why;
    QVERIFY2(connectSignedIn(client, server, &authorizer, &why), qPrintable(why));
    QCOMPARE(authorizer.record().tokens.tokenType, QStringLiteral("DPoP"));
    QVERIFY(authorizer.record().isDpopBound());
    const OAuthFlow *flow = authorizer.flow();
    QVERIFY(flow);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::Token), QStringLiteral("DPoP nonce")), true);
    QTRY_VERIFY(findStep(*flow, Kind::AuthorizedRequest));
    int authorized = 0;
    for (const AuthStep &s : flow->steps())
        authorized += s.kind == Kind::AuthorizedRequest ? 1 : 0;
    QCOMPARE(authorized, 1);
    const AuthStep *last = findStep(*flow, Kind::AuthorizedRequest);
    QVERIFY2(last->state == AuthStep::State::Done, qPrintable(describe(*flow)));
    QVERIFY2(last->summary.endsWith(QLatin1String("HTTP 200")), qPrintable(last->summary));
    QCOMPARE(verdictOf(*last, QStringLiteral("DPoP nonce")), true);
    client.disconnectFromServer();
}

// A DPoP-bound refresh token (the demo server binds a public client's) refreshed by Folio: with a
// proof of the same key, through the token endpoint's nonce, checked by the server's own code; the
// renewed token then opens /mcp from the saved record alone, through the resource server's nonce.
void tst_OAuthFlow::dpopRefreshAgainstTheDemoServer()
{
    const QUrl server = startServer(QStringLiteral("dpop=nonce,rotate,jwt"));
    QVERIFY(server.isValid());
    const auto first = signIn(server);
    VERIFY_SUCCEEDED(*first);
    const AuthRecord signedIn = first->record();
    QVERIFY(signedIn.isDpopBound());
    QVERIFY(!signedIn.tokens.refreshToken.isEmpty());
    const QString thumbprint = SigningKey::fromPem(signedIn.dpopKeyPem).thumbprint();

    OAuthFlow::Options options;
    options.serverUrl = server;
    options.record = signedIn;
    options.refreshOnly = true;
    const auto refreshed = runFlow(options);
    VERIFY_SUCCEEDED(*refreshed);
    const AuthStep *step = findStep(*refreshed, Kind::Refresh);
    QVERIFY(step);
    QCOMPARE(verdictOf(*step, QStringLiteral("DPoP nonce")), true);
    const AuthRecord &record = refreshed->record();
    QCOMPARE(record.tokens.tokenType, QStringLiteral("DPoP"));
    QVERIFY(record.tokens.accessToken != signedIn.tokens.accessToken);
    QVERIFY(record.tokens.refreshToken != signedIn.tokens.refreshToken); // rotated
    QCOMPARE(SigningKey::fromPem(record.dpopKeyPem).thumbprint(), thumbprint);
    QCOMPARE(step->jwtClaims.value(QStringLiteral("cnf")).toObject().value(QStringLiteral("jkt")).toString(),
             thumbprint);

    Authorizer authorizer(server);
    authorizer.setRecord(record);
    int flows = 0;
    connect(&authorizer, &Authorizer::flowStarted, this, [&flows] { ++flows; });
    McpClient client;
    QString why;
    QVERIFY2(connectSignedIn(client, server, &authorizer, &why), qPrintable(why));
    QCOMPARE(flows, 0);
    QCOMPARE(authorizer.accessToken(), record.tokens.accessToken);
    client.disconnectFromServer();
}

// --- Grants without a person, and DPoP (a scripted authorization server) ----------------------

namespace {

const QString jwtBearerGrant = QStringLiteral("urn:ietf:params:oauth:grant-type:jwt-bearer");
const QString idJagType = QStringLiteral("urn:ietf:params:oauth:token-type:id-jag");

QByteArray fixtureKey(const QString &name)
{
    QFile file(QStringLiteral(FOLIO_SOURCE_DIR "/tests/fixtures/jose/") + name);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A JWT-shaped token (not signed: the scripted servers do not check it).
QString fakeJwt(const QJsonObject &header, const QJsonObject &claims)
{
    return QString::fromLatin1(jose::base64Url(QJsonDocument(header).toJson(QJsonDocument::Compact)) + '.' +
                               jose::base64Url(QJsonDocument(claims).toJson(QJsonDocument::Compact)) + '.' +
                               jose::base64Url("not-a-signature"));
}

ScriptedAnswer tokenAnswer(const QString &type = QStringLiteral("Bearer"),
                           const QString &token = QStringLiteral("machine-token-0123456789"))
{
    return ScriptedAnswer::json(200, {{QStringLiteral("access_token"), token},
                                      {QStringLiteral("token_type"), type},
                                      {QStringLiteral("expires_in"), 300}});
}

// "Basic base64(id:secret)" as RFC 6749 §2.3.1 makes it: each form-encoded first.
QByteArray basic(const QString &id, const QString &secret)
{
    return "Basic " + (QUrl::toPercentEncoding(id) + ':' + QUrl::toPercentEncoding(secret)).toBase64();
}

QString sha256Url(const QString &text)
{
    return QString::fromLatin1(
        jose::base64Url(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256)));
}

} // namespace

void tst_OAuthFlow::scriptAuthServer(ScriptedServer &server, const QJsonObject &metadata,
                                     ScriptedServer::Script token, ScriptedServer::Script idp)
{
    const QString origin = server.origin();
    server.setScript([origin, metadata, token, idp](const ScriptedRequest &r) {
        if (r.method == "GET" && r.path == QLatin1String("/.well-known/oauth-protected-resource/mcp"))
            return ScriptedAnswer::json(
                200, {{QStringLiteral("resource"), origin + QStringLiteral("/mcp")},
                      {QStringLiteral("authorization_servers"), QJsonArray{origin}},
                      {QStringLiteral("scopes_supported"), QJsonArray{QStringLiteral("mcp:tools")}}});
        if (r.method == "GET" && r.path == QLatin1String("/.well-known/oauth-authorization-server")) {
            QJsonObject m{{QStringLiteral("issuer"), origin},
                          {QStringLiteral("authorization_endpoint"), origin + QStringLiteral("/authorize")},
                          {QStringLiteral("token_endpoint"), origin + QStringLiteral("/token")}};
            for (auto it = metadata.begin(); it != metadata.end(); ++it) {
                if (it.value().isNull())
                    m.remove(it.key());
                else
                    m.insert(it.key(), it.value());
            }
            return ScriptedAnswer::json(200, m);
        }
        if (r.method == "POST" && r.path == QLatin1String("/token") && token)
            return token(r);
        if (r.method == "POST" && r.path == QLatin1String("/idp/token") && idp)
            return idp(r);
        return ScriptedAnswer::json(404, {{QStringLiteral("error"), QStringLiteral("not_found")}});
    });
}

OAuthFlow::Options tst_OAuthFlow::machineOptions(const ScriptedServer &server,
                                                 const OAuthClientSettings &client)
{
    OAuthFlow::Options options;
    options.serverUrl = QUrl(server.origin() + QStringLiteral("/mcp"));
    options.client = client;
    options.requestTimeoutMs = 10000;
    return options;
}

QList<Kind> tst_OAuthFlow::kindsOf(const OAuthFlow &flow)
{
    QList<Kind> kinds;
    for (const AuthStep &s : flow.steps())
        kinds.append(s.kind);
    return kinds;
}

void tst_OAuthFlow::machineClientSecret_data()
{
    QTest::addColumn<QJsonArray>("authMethods"); // token_endpoint_auth_methods_supported
    QTest::addColumn<QString>("expected");
    QTest::addRow("basic") << QJsonArray{QStringLiteral("client_secret_basic"),
                                         QStringLiteral("private_key_jwt")}
                           << "client_secret_basic";
    QTest::addRow("unsaid_is_basic") << QJsonArray() << "client_secret_basic";
    QTest::addRow("post_only") << QJsonArray{QStringLiteral("client_secret_post")} << "client_secret_post";
}

void tst_OAuthFlow::machineClientSecret()
{
    QFETCH(QJsonArray, authMethods);
    QFETCH(QString, expected);
    ScriptedServer server;
    QVERIFY(server.listen());
    // No code_challenge_methods_supported: PKCE is the authorization code's, not this grant's.
    QJsonObject metadata{
        {QStringLiteral("grant_types_supported"), QJsonArray{QStringLiteral("client_credentials")}}};
    if (!authMethods.isEmpty())
        metadata.insert(QStringLiteral("token_endpoint_auth_methods_supported"), authMethods);
    scriptAuthServer(server, metadata, [](const ScriptedRequest &) { return tokenAnswer(); });

    OAuthClientSettings client;
    client.grant = OAuthGrant::ClientCredentials;
    client.preRegisteredClientId = QStringLiteral("machine:1");
    client.preRegisteredClientSecret = QStringLiteral("s3cret+/ =&x");
    const auto flow = runFlow(machineOptions(server, client));
    VERIFY_SUCCEEDED(*flow);
    QCOMPARE(kindsOf(*flow), (QList<Kind>{Kind::Challenge, Kind::ResourceMetadata, Kind::ServerMetadata,
                                          Kind::Registration, Kind::Token}));
    QCOMPARE(verdictOf(*findStep(*flow, Kind::ServerMetadata), QStringLiteral("S256 advertised")), true);

    const QList<ScriptedRequest> sent = server.requestsTo(QStringLiteral("/token"));
    QCOMPARE(sent.size(), 1);
    const ScriptedRequest &r = sent.first();
    QCOMPARE(r.form(QStringLiteral("grant_type")), QStringLiteral("client_credentials"));
    QCOMPARE(r.form(QStringLiteral("resource")), server.origin() + QStringLiteral("/mcp"));
    QCOMPARE(r.form(QStringLiteral("scope")), QStringLiteral("mcp:tools"));
    QVERIFY(!r.hasForm(QStringLiteral("code_verifier")));
    QVERIFY(!r.hasForm(QStringLiteral("client_assertion")));
    QVERIFY(!r.hasHeader("DPoP"));
    if (expected == QLatin1String("client_secret_basic")) {
        QCOMPARE(r.header("Authorization"),
                 basic(client.preRegisteredClientId, client.preRegisteredClientSecret));
        QVERIFY(!r.hasForm(QStringLiteral("client_secret")));
    } else {
        QVERIFY(!r.hasHeader("Authorization"));
        QCOMPARE(r.form(QStringLiteral("client_id")), client.preRegisteredClientId);
        QCOMPARE(r.form(QStringLiteral("client_secret")), client.preRegisteredClientSecret);
    }
    const AuthRecord &record = flow->record();
    QCOMPARE(record.grant, OAuthGrant::ClientCredentials);
    QCOMPARE(record.tokens.accessToken, QStringLiteral("machine-token-0123456789"));
    QCOMPARE(record.clientFor(server.origin()).tokenEndpointAuthMethod, expected);
    QVERIFY(!record.isDpopBound());
}

void tst_OAuthFlow::machineClientPrivateKey_data()
{
    QTest::addColumn<QString>("keyFile");
    QTest::addColumn<QString>("alg");
    QTest::addRow("es256") << "p256-ec.pem"
                           << "ES256";
    QTest::addRow("rs256") << "rsa2048-pkcs8.pem"
                           << "RS256";
}

void tst_OAuthFlow::machineClientPrivateKey()
{
    QFETCH(QString, keyFile);
    QFETCH(QString, alg);
    ScriptedServer server;
    QVERIFY(server.listen());
    scriptAuthServer(server,
                     {{QStringLiteral("token_endpoint_auth_methods_supported"),
                       QJsonArray{QStringLiteral("private_key_jwt")}},
                      {QStringLiteral("token_endpoint_auth_signing_alg_values_supported"), QJsonArray{alg}}},
                     [](const ScriptedRequest &) { return tokenAnswer(); });
    OAuthClientSettings client;
    client.grant = OAuthGrant::ClientCredentials;
    client.preRegisteredClientId = QStringLiteral("machine-2");
    client.clientKeyPem = fixtureKey(keyFile);
    const SigningKey key = SigningKey::fromPem(client.clientKeyPem);
    QVERIFY(!key.isNull());
    const auto flow = runFlow(machineOptions(server, client));
    VERIFY_SUCCEEDED(*flow);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::Registration), QStringLiteral("signing algorithm listed")),
             true);

    const QList<ScriptedRequest> sent = server.requestsTo(QStringLiteral("/token"));
    QCOMPARE(sent.size(), 1);
    const ScriptedRequest &r = sent.first();
    QCOMPARE(r.form(QStringLiteral("grant_type")), QStringLiteral("client_credentials"));
    QCOMPARE(r.form(QStringLiteral("resource")), server.origin() + QStringLiteral("/mcp"));
    QCOMPARE(r.form(QStringLiteral("client_id")), QStringLiteral("machine-2"));
    QCOMPARE(r.form(QStringLiteral("client_assertion_type")),
             QStringLiteral("urn:ietf:params:oauth:client-assertion-type:jwt-bearer"));
    QVERIFY(!r.hasHeader("Authorization"));
    QVERIFY(!r.hasForm(QStringLiteral("client_secret")));
    const QString assertion = r.form(QStringLiteral("client_assertion"));
    QString why;
    QVERIFY2(josecheck::verifyWithJwk(assertion, key.publicJwk(), &why), qPrintable(why));
    QCOMPARE(josecheck::part(assertion, 0).value(QStringLiteral("alg")).toString(), alg);
    const QJsonObject claims = josecheck::part(assertion, 1);
    QCOMPARE(claims.value(QStringLiteral("aud")).toString(), server.origin()); // the issuer
    QCOMPARE(claims.value(QStringLiteral("iss")).toString(), QStringLiteral("machine-2"));
    QCOMPARE(claims.value(QStringLiteral("sub")).toString(), QStringLiteral("machine-2"));
    QVERIFY(claims.value(QStringLiteral("exp")).toInteger() >
            claims.value(QStringLiteral("iat")).toInteger());
    QVERIFY(!claims.value(QStringLiteral("jti")).toString().isEmpty());

    // Shown abbreviated: the assertion is a credential for its lifetime.
    const HttpExchange shown =
        SecretMask::abbreviateExchange(findStep(*flow, Kind::Token)->exchanges.first());
    QVERIFY(!shown.requestBody.contains(assertion.toLatin1()));
    QVERIFY(!shown.requestBody.contains(assertion.left(40).toLatin1()));
    QVERIFY(shown.requestBody.contains("client_assertion_type="));
    QCOMPARE(flow->record().clientFor(server.origin()).tokenEndpointAuthMethod,
             QStringLiteral("private_key_jwt"));
}

void tst_OAuthFlow::machineWithoutAuthorizationEndpoint()
{
    // RFC 8414 §2: authorization_endpoint is required "unless no grant types are supported that use
    // the authorization endpoint": a server for machines only may leave it out.
    ScriptedServer server;
    QVERIFY(server.listen());
    scriptAuthServer(
        server,
        {{QStringLiteral("authorization_endpoint"), QJsonValue::Null},
         {QStringLiteral("grant_types_supported"), QJsonArray{QStringLiteral("client_credentials")}}},
        [](const ScriptedRequest &) { return tokenAnswer(); });
    OAuthClientSettings client;
    client.grant = OAuthGrant::ClientCredentials;
    client.preRegisteredClientId = QStringLiteral("machine-3");
    client.preRegisteredClientSecret = QStringLiteral("secret-3-0123456789");
    const auto flow = runFlow(machineOptions(server, client));
    QVERIFY(flow->isFinished());
    QVERIFY2(flow->succeeded(), qPrintable(flow->error().message));
    QCOMPARE(server.requestsTo(QStringLiteral("/token")).size(), 1);
}

// A DPoP-bound token whose key is gone from the record (or unreadable) is dropped, not sent as Bearer.
void tst_OAuthFlow::dpopTokenWithoutItsKeyIsDropped()
{
    AuthRecord record;
    record.issuer = QStringLiteral("https://as.example.com");
    record.tokens.accessToken = QStringLiteral("bound-token-0123456789");
    record.tokens.tokenType = QStringLiteral("DPoP");
    record.dpopKeyPem = "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n";
    Authorizer authorizer(QUrl(QStringLiteral("https://mcp.example.com/mcp")));
    authorizer.setRecord(record);
    QVERIFY(!authorizer.isSignedIn());
    QVERIFY(authorizer.authorizationHeaders("POST", QUrl(QStringLiteral("https://mcp.example.com/mcp")))
                .isEmpty());
}

void tst_OAuthFlow::jwtBearer()
{
    ScriptedServer server;
    QVERIFY(server.listen());
    scriptAuthServer(server, {{QStringLiteral("grant_types_supported"), QJsonArray{jwtBearerGrant}}},
                     [](const ScriptedRequest &) { return tokenAnswer(); });
    OAuthClientSettings client;
    client.grant = OAuthGrant::JwtBearer;
    client.assertion = fakeJwt({{QStringLiteral("alg"), QStringLiteral("RS256")}},
                               {{QStringLiteral("iss"), QStringLiteral("https://k8s.example")},
                                {QStringLiteral("sub"), QStringLiteral("system:serviceaccount:ns:folio")}});
    const auto flow = runFlow(machineOptions(server, client));
    VERIFY_SUCCEEDED(*flow);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::Registration), QStringLiteral("workload JWT")), true);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::ServerMetadata), QStringLiteral("grant type listed")), true);
    const QList<ScriptedRequest> sent = server.requestsTo(QStringLiteral("/token"));
    QCOMPARE(sent.size(), 1);
    const ScriptedRequest &r = sent.first();
    QCOMPARE(r.form(QStringLiteral("grant_type")), jwtBearerGrant);
    QCOMPARE(r.form(QStringLiteral("assertion")), client.assertion);
    QCOMPARE(r.form(QStringLiteral("resource")), server.origin() + QStringLiteral("/mcp"));
    // No client named: the workload's JWT says who it is, nothing more is sent.
    QVERIFY(!r.hasHeader("Authorization"));
    QVERIFY(!r.hasForm(QStringLiteral("client_id")));
    QCOMPARE(flow->record().grant, OAuthGrant::JwtBearer);
    const HttpExchange shown =
        SecretMask::abbreviateExchange(findStep(*flow, Kind::Token)->exchanges.first());
    QVERIFY(!shown.requestBody.contains(client.assertion.toLatin1()));
}

void tst_OAuthFlow::jwtBearerRefusedIsNotRerun()
{
    ScriptedServer server;
    QVERIFY(server.listen());
    scriptAuthServer(server, {}, [](const ScriptedRequest &) {
        return ScriptedAnswer::json(400,
                                    {{QStringLiteral("error"), QStringLiteral("invalid_grant")},
                                     {QStringLiteral("error_description"), QStringLiteral("JWT expired")}});
    });
    OAuthClientSettings client;
    client.grant = OAuthGrant::JwtBearer;
    client.assertion = fakeJwt({{QStringLiteral("alg"), QStringLiteral("RS256")}},
                               {{QStringLiteral("sub"), QStringLiteral("workload")}});

    // The flow: fails at the token step with the server's error.
    const auto flow = runFlow(machineOptions(server, client));
    QVERIFY(flow->isFinished());
    QVERIFY(!flow->succeeded());
    QCOMPARE(flow->steps().last().kind, Kind::Token);
    QCOMPARE(flow->steps().last().state, AuthStep::State::Failed);
    QVERIFY2(flow->error().message.contains(QLatin1String("invalid_grant: JWT expired")),
             qPrintable(flow->error().message));
    QVERIFY(!flow->record().isSignedIn());
    QCOMPARE(server.requestsTo(QStringLiteral("/token")).size(), 1);

    // The Authorizer: a refusal runs the grant once; refused again, the failure stands and no
    // second token request goes (the same JWT would be refused again) until the user signs in.
    const QUrl mcp(server.origin() + QStringLiteral("/mcp"));
    Authorizer authorizer(mcp);
    authorizer.setClientSettings(client);
    QSignalSpy started(&authorizer, &Authorizer::flowStarted);
    QSignalSpy finished(&authorizer, &Authorizer::flowFinished);
    QList<McpError> results;
    const auto done = [&results](const McpError &error) { results.append(error); };
    const QByteArray challenge = "Bearer resource_metadata=\"" + server.origin().toLatin1() +
                                 "/.well-known/oauth-protected-resource/mcp\"";
    authorizer.handleRefusal(401, challenge, QString(), this, done);
    QTRY_COMPARE_WITH_TIMEOUT(results.size(), 1, 20000);
    QVERIFY(results.at(0).isError());
    QCOMPARE(server.requestsTo(QStringLiteral("/token")).size(), 2);
    QCOMPARE(started.size(), 1);

    authorizer.handleRefusal(401, challenge, QString(), this, done);
    QCOMPARE(results.size(), 2); // answered at once, from the failure kept
    QVERIFY(results.at(1).isError());
    QCOMPARE(results.at(1).message, results.at(0).message);
    QCOMPARE(started.size(), 1);
    QCOMPARE(server.requestsTo(QStringLiteral("/token")).size(), 2);

    authorizer.signIn(); // the user asks: it runs again
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 20000);
    QCOMPARE(started.size(), 2);
    QCOMPARE(server.requestsTo(QStringLiteral("/token")).size(), 3);
    // Failed again, so kept again; new settings (another JWT) clear it.
    authorizer.handleRefusal(401, challenge, QString(), this, done);
    QCOMPARE(results.size(), 3);
    QCOMPARE(started.size(), 2);
    authorizer.setClientSettings(client);
    authorizer.handleRefusal(401, challenge, QString(), this, done);
    QTRY_COMPARE_WITH_TIMEOUT(results.size(), 4, 20000);
    QCOMPARE(started.size(), 3);
    QCOMPARE(server.requestsTo(QStringLiteral("/token")).size(), 4);
}

void tst_OAuthFlow::enterpriseManaged()
{
    ScriptedServer server;
    QVERIFY(server.listen());
    const QString issuer = server.origin();
    const QString jag =
        fakeJwt({{QStringLiteral("typ"), QStringLiteral("oauth-id-jag+jwt")},
                 {QStringLiteral("alg"), QStringLiteral("RS256")}},
                {{QStringLiteral("aud"), issuer}, {QStringLiteral("sub"), QStringLiteral("alice")}});
    scriptAuthServer(
        server, {{QStringLiteral("grant_types_supported"), QJsonArray{jwtBearerGrant}}},
        [](const ScriptedRequest &) { return tokenAnswer(); },
        [jag](const ScriptedRequest &) {
            return ScriptedAnswer::json(200, {{QStringLiteral("access_token"), jag},
                                              {QStringLiteral("issued_token_type"), idJagType},
                                              {QStringLiteral("token_type"), QStringLiteral("N_A")}});
        });
    OAuthClientSettings client;
    client.grant = OAuthGrant::EnterpriseManaged;
    client.preRegisteredClientId = QStringLiteral("as-client");
    client.preRegisteredClientSecret = QStringLiteral("as-secret-0123456789");
    client.idpTokenEndpoint = QUrl(server.origin() + QStringLiteral("/idp/token"));
    client.idpClientId = QStringLiteral("idp-client");
    client.idpClientSecret = QStringLiteral("idp-secret-0123456789");
    client.idToken = fakeJwt({{QStringLiteral("alg"), QStringLiteral("RS256")}},
                             {{QStringLiteral("iss"), QStringLiteral("https://idp.example")},
                              {QStringLiteral("sub"), QStringLiteral("alice")}});
    const auto flow = runFlow(machineOptions(server, client));
    VERIFY_SUCCEEDED(*flow);
    QCOMPARE(kindsOf(*flow), (QList<Kind>{Kind::Challenge, Kind::ResourceMetadata, Kind::ServerMetadata,
                                          Kind::Registration, Kind::TokenExchange, Kind::Token}));
    const AuthStep *exchange = findStep(*flow, Kind::TokenExchange);
    QCOMPARE(verdictOf(*exchange, QStringLiteral("issued_token_type id-jag")), true);
    QCOMPARE(verdictOf(*exchange, QStringLiteral("typ oauth-id-jag+jwt")), true);
    QCOMPARE(verdictOf(*exchange, QStringLiteral("audience is the authorization server")), true);

    // RFC 8693 at the identity provider, with its own client's credentials.
    const QList<ScriptedRequest> atIdp = server.requestsTo(QStringLiteral("/idp/token"));
    QCOMPARE(atIdp.size(), 1);
    const ScriptedRequest &x = atIdp.first();
    QCOMPARE(x.form(QStringLiteral("grant_type")),
             QStringLiteral("urn:ietf:params:oauth:grant-type:token-exchange"));
    QCOMPARE(x.form(QStringLiteral("requested_token_type")), idJagType);
    QCOMPARE(x.form(QStringLiteral("audience")), issuer);
    QCOMPARE(x.form(QStringLiteral("resource")), server.origin() + QStringLiteral("/mcp"));
    QCOMPARE(x.form(QStringLiteral("subject_token")), client.idToken);
    QCOMPARE(x.form(QStringLiteral("subject_token_type")),
             QStringLiteral("urn:ietf:params:oauth:token-type:id_token"));
    QCOMPARE(x.header("Authorization"), basic(client.idpClientId, client.idpClientSecret));

    // The ID-JAG as a JWT bearer grant at the authorization server, with Basic client auth.
    const QList<ScriptedRequest> atAs = server.requestsTo(QStringLiteral("/token"));
    QCOMPARE(atAs.size(), 1);
    const ScriptedRequest &t = atAs.first();
    QCOMPARE(t.form(QStringLiteral("grant_type")), jwtBearerGrant);
    QCOMPARE(t.form(QStringLiteral("assertion")), jag);
    QCOMPARE(t.form(QStringLiteral("resource")), server.origin() + QStringLiteral("/mcp"));
    QCOMPARE(t.header("Authorization"),
             basic(client.preRegisteredClientId, client.preRegisteredClientSecret));
    QCOMPARE(flow->record().grant, OAuthGrant::EnterpriseManaged);

    // Shown: neither the ID token nor the ID-JAG whole.
    const HttpExchange shownX = SecretMask::abbreviateExchange(exchange->exchanges.first());
    QVERIFY(!shownX.requestBody.contains(client.idToken.toLatin1()));
    const HttpExchange shownT =
        SecretMask::abbreviateExchange(findStep(*flow, Kind::Token)->exchanges.first());
    QVERIFY(!shownT.requestBody.contains(jag.toLatin1()));
}

void tst_OAuthFlow::enterpriseHostileExchange_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("errorPart");
    const QByteArray jag =
        fakeJwt({{QStringLiteral("typ"), QStringLiteral("oauth-id-jag+jwt")}}, {}).toLatin1();
    QTest::addRow("not_an_id_jag")
        << 200
        << QByteArray(
               R"({"access_token":")" + jag +
               R"(","issued_token_type":"urn:ietf:params:oauth:token-type:access_token","token_type":"Bearer"})")
        << "not an ID-JAG";
    QTest::addRow("no_issued_token_type")
        << 200 << QByteArray(R"({"access_token":")" + jag + R"("})") << "not an ID-JAG";
    QTest::addRow("no_access_token")
        << 200 << QByteArray(R"({"issued_token_type":"urn:ietf:params:oauth:token-type:id-jag"})")
        << "no access_token";
    QTest::addRow("not_json") << 200 << QByteArray("<html>id-jag</html>") << "no access_token";
    QTest::addRow("access_token_not_a_string")
        << 200
        << QByteArray(R"({"access_token":42,"issued_token_type":"urn:ietf:params:oauth:token-type:id-jag"})")
        << "no access_token";
    QTest::addRow("refused") << 400
                             << QByteArray(
                                    R"({"error":"invalid_grant","error_description":"ID token expired"})")
                             << "refused the token exchange (HTTP 400): invalid_grant: ID token expired";
}

void tst_OAuthFlow::enterpriseHostileExchange()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, errorPart);
    ScriptedServer server;
    QVERIFY(server.listen());
    scriptAuthServer(
        server, {}, [](const ScriptedRequest &) { return tokenAnswer(); },
        [status, body](const ScriptedRequest &) {
            return ScriptedAnswer{status, {{"Content-Type", "application/json"}}, body};
        });
    OAuthClientSettings client;
    client.grant = OAuthGrant::EnterpriseManaged;
    client.preRegisteredClientId = QStringLiteral("as-client");
    client.preRegisteredClientSecret = QStringLiteral("as-secret-0123456789");
    client.idpTokenEndpoint = QUrl(server.origin() + QStringLiteral("/idp/token"));
    client.idpClientId = QStringLiteral("idp-client");
    client.idToken = fakeJwt({}, {{QStringLiteral("sub"), QStringLiteral("alice")}});
    const auto flow = runFlow(machineOptions(server, client));
    QVERIFY(flow->isFinished());
    QVERIFY(!flow->succeeded());
    const AuthStep &failed = flow->steps().last();
    QVERIFY2(failed.kind == Kind::TokenExchange, qPrintable(describe(*flow)));
    QCOMPARE(failed.state, AuthStep::State::Failed);
    QVERIFY2(failed.error.contains(errorPart), qPrintable(failed.error));
    QVERIFY2(flow->error().message.contains(errorPart), qPrintable(flow->error().message));
    // Nothing went on to the authorization server, and no token is kept.
    QCOMPARE(server.requestsTo(QStringLiteral("/token")).size(), 0);
    QVERIFY(!flow->record().isSignedIn());
    // Without an IdP secret its client is named in the form.
    const ScriptedRequest &x = server.requestsTo(QStringLiteral("/idp/token")).first();
    QCOMPARE(x.form(QStringLiteral("client_id")), QStringLiteral("idp-client"));
    QVERIFY(!x.hasHeader("Authorization"));
}

void tst_OAuthFlow::dpopBoundToken()
{
    ScriptedServer server;
    QVERIFY(server.listen());
    scriptAuthServer(
        server,
        {{QStringLiteral("dpop_signing_alg_values_supported"),
          QJsonArray{QStringLiteral("RS256"), QStringLiteral("ES256")}}},
        [](const ScriptedRequest &r) {
            return r.hasHeader("DPoP")
                       ? tokenAnswer(QStringLiteral("DPoP"), QStringLiteral("dpop-token-0123456789"))
                       : ScriptedAnswer::json(
                             400, {{QStringLiteral("error"), QStringLiteral("invalid_dpop_proof")}});
        });
    OAuthClientSettings client;
    client.grant = OAuthGrant::ClientCredentials;
    client.preRegisteredClientId = QStringLiteral("machine-4");
    client.preRegisteredClientSecret = QStringLiteral("secret-4-0123456789");
    const auto flow = runFlow(machineOptions(server, client));
    VERIFY_SUCCEEDED(*flow);
    QCOMPARE(verdictOf(*findStep(*flow, Kind::ServerMetadata), QStringLiteral("DPoP")), true);

    // The token request's proof, checked as the server would: with the JWK in its own header.
    const QList<ScriptedRequest> sent = server.requestsTo(QStringLiteral("/token"));
    QCOMPARE(sent.size(), 1);
    const QString proof = QString::fromLatin1(sent.first().header("DPoP"));
    const QJsonObject header = josecheck::part(proof, 0);
    QCOMPARE(header.value(QStringLiteral("typ")).toString(), QStringLiteral("dpop+jwt"));
    QCOMPARE(header.value(QStringLiteral("alg")).toString(), QStringLiteral("ES256"));
    const QJsonObject jwk = header.value(QStringLiteral("jwk")).toObject();
    QVERIFY(!jwk.contains(QStringLiteral("d")));
    QString why;
    QVERIFY2(josecheck::verifyWithJwk(proof, jwk, &why), qPrintable(why));
    const QJsonObject claims = josecheck::part(proof, 1);
    QCOMPARE(claims.value(QStringLiteral("htm")).toString(), QStringLiteral("POST"));
    QCOMPARE(claims.value(QStringLiteral("htu")).toString(), server.origin() + QStringLiteral("/token"));
    QVERIFY(!claims.contains(QStringLiteral("ath")));
    QVERIFY(!claims.contains(QStringLiteral("nonce")));
    // Shown abbreviated.
    const HttpExchange shown =
        SecretMask::abbreviateExchange(findStep(*flow, Kind::Token)->exchanges.first());
    QVERIFY(!shown.header(shown.requestHeaders, "DPoP").contains(proof.toLatin1()));
    QVERIFY(shown.header(shown.requestHeaders, "DPoP").contains("chars"));

    // The record: bound to the key that signed the proof (cnf.jkt would be its thumbprint).
    const AuthRecord &record = flow->record();
    QVERIFY(record.isDpopBound());
    const SigningKey key = SigningKey::fromPem(record.dpopKeyPem);
    QVERIFY(!key.isNull());
    QCOMPARE(key.thumbprint(), jose::thumbprint(jwk));

    // Requests to the MCP server: Authorization: DPoP and a fresh proof of that method and URL.
    Authorizer authorizer(QUrl(server.origin() + QStringLiteral("/mcp")));
    authorizer.setRecord(record);
    const QUrl mcp(server.origin() + QStringLiteral("/mcp?session=1#part"));
    const auto headers = authorizer.authorizationHeaders("POST", mcp);
    QCOMPARE(headers.size(), 2);
    QCOMPARE(headers.at(0).first, QByteArray("Authorization"));
    QCOMPARE(headers.at(0).second, QByteArray("DPoP dpop-token-0123456789"));
    QCOMPARE(headers.at(1).first, QByteArray("DPoP"));
    const QString rsProof = QString::fromLatin1(headers.at(1).second);
    QVERIFY2(josecheck::verifyWithJwk(rsProof, jwk, &why), qPrintable(why));
    QCOMPARE(josecheck::part(rsProof, 0).value(QStringLiteral("jwk")).toObject(), jwk);
    const QJsonObject rsClaims = josecheck::part(rsProof, 1);
    QCOMPARE(rsClaims.value(QStringLiteral("htm")).toString(), QStringLiteral("POST"));
    QCOMPARE(rsClaims.value(QStringLiteral("htu")).toString(), server.origin() + QStringLiteral("/mcp"));
    QCOMPARE(rsClaims.value(QStringLiteral("ath")).toString(),
             sha256Url(QStringLiteral("dpop-token-0123456789")));
    QVERIFY(!rsClaims.contains(QStringLiteral("nonce")));
    // The resource server's nonce goes into the next proofs; an oversized one does not.
    authorizer.noteDpopNonce("rs-nonce-1");
    const auto withNonce = authorizer.authorizationHeaders("GET", mcp);
    const QJsonObject nonceClaims = josecheck::part(QString::fromLatin1(withNonce.at(1).second), 1);
    QCOMPARE(nonceClaims.value(QStringLiteral("nonce")).toString(), QStringLiteral("rs-nonce-1"));
    QCOMPARE(nonceClaims.value(QStringLiteral("htm")).toString(), QStringLiteral("GET"));
    QVERIFY(nonceClaims.value(QStringLiteral("jti")) != rsClaims.value(QStringLiteral("jti")));
    authorizer.noteDpopNonce(QByteArray(2000, 'n'));
    const auto afterHuge = authorizer.authorizationHeaders("POST", mcp);
    QCOMPARE(josecheck::part(QString::fromLatin1(afterHuge.at(1).second), 1)
                 .value(QStringLiteral("nonce"))
                 .toString(),
             QStringLiteral("rs-nonce-1"));
}

void tst_OAuthFlow::dpopNonce_data()
{
    QTest::addColumn<bool>("always"); // the token endpoint wants a new nonce every time
    QTest::addRow("once") << false;
    QTest::addRow("always") << true;
}

void tst_OAuthFlow::dpopNonce()
{
    QFETCH(bool, always);
    ScriptedServer server;
    QVERIFY(server.listen());
    int count = 0;
    scriptAuthServer(
        server, {{QStringLiteral("dpop_signing_alg_values_supported"), QJsonArray{QStringLiteral("ES256")}}},
        [&count, always](const ScriptedRequest &) {
            ++count;
            if (always || count == 1)
                return ScriptedAnswer::json(
                    400,
                    {{QStringLiteral("error"), QStringLiteral("use_dpop_nonce")},
                     {QStringLiteral("error_description"), QStringLiteral("Use the nonce")}},
                    {{"DPoP-Nonce", "as-nonce-" + QByteArray::number(count)}});
            return tokenAnswer(QStringLiteral("DPoP"));
        });
    OAuthClientSettings client;
    client.grant = OAuthGrant::ClientCredentials;
    client.preRegisteredClientId = QStringLiteral("machine-5");
    client.preRegisteredClientSecret = QStringLiteral("secret-5-0123456789");
    const auto flow = runFlow(machineOptions(server, client));
    QVERIFY(flow->isFinished());

    // Exactly two token requests either way: the second with the nonce the first answer gave.
    const QList<ScriptedRequest> sent = server.requestsTo(QStringLiteral("/token"));
    QCOMPARE(sent.size(), 2);
    const QString first = QString::fromLatin1(sent.at(0).header("DPoP"));
    const QString second = QString::fromLatin1(sent.at(1).header("DPoP"));
    QVERIFY(!josecheck::part(first, 1).contains(QStringLiteral("nonce")));
    QCOMPARE(josecheck::part(second, 1).value(QStringLiteral("nonce")).toString(),
             QStringLiteral("as-nonce-1"));
    QVERIFY(josecheck::part(first, 1).value(QStringLiteral("jti")) !=
            josecheck::part(second, 1).value(QStringLiteral("jti")));
    const QJsonObject jwk = josecheck::part(second, 0).value(QStringLiteral("jwk")).toObject();
    QCOMPARE(josecheck::part(first, 0).value(QStringLiteral("jwk")).toObject(), jwk); // one key
    QVERIFY(josecheck::verifyWithJwk(second, jwk));
    QCOMPARE(sent.at(1).form(QStringLiteral("grant_type")), QStringLiteral("client_credentials"));
    QCOMPARE(verdictOf(*findStep(*flow, Kind::Token), QStringLiteral("DPoP nonce")), true);
    if (!always) {
        VERIFY_SUCCEEDED(*flow);
        QVERIFY(flow->record().isDpopBound());
        QCOMPARE(findStep(*flow, Kind::Token)->exchanges.size(), 2);
        return;
    }
    // A server that asks again and again: no loop, the flow fails with its error.
    QVERIFY(!flow->succeeded());
    QCOMPARE(flow->steps().last().kind, Kind::Token);
    QCOMPARE(flow->steps().last().state, AuthStep::State::Failed);
    QVERIFY2(flow->error().message.contains(QLatin1String("use_dpop_nonce")),
             qPrintable(flow->error().message));
    QVERIFY(!flow->record().isSignedIn());
}

void tst_OAuthFlow::dpopNotUsed_data()
{
    QTest::addColumn<QJsonArray>("algs");    // dpop_signing_alg_values_supported; empty: absent
    QTest::addColumn<bool>("off");           // OAuthClientSettings::Dpop::Off
    QTest::addColumn<QString>("answerType"); // the token_type the server answers with
    QTest::addColumn<bool>("succeeds");
    QTest::addRow("rs256_only") << QJsonArray{QStringLiteral("RS256")} << false << "Bearer" << true;
    QTest::addRow("turned_off") << QJsonArray{QStringLiteral("ES256")} << true << "Bearer" << true;
    QTest::addRow("not_offered") << QJsonArray() << false << "Bearer" << true;
    // A DPoP token for a request that had no proof: refused, not used as a Bearer token.
    QTest::addRow("dpop_answer_without_proof")
        << QJsonArray{QStringLiteral("RS256")} << false << "DPoP" << false;
}

void tst_OAuthFlow::dpopNotUsed()
{
    QFETCH(QJsonArray, algs);
    QFETCH(bool, off);
    QFETCH(QString, answerType);
    QFETCH(bool, succeeds);
    ScriptedServer server;
    QVERIFY(server.listen());
    QJsonObject metadata;
    if (!algs.isEmpty())
        metadata.insert(QStringLiteral("dpop_signing_alg_values_supported"), algs);
    scriptAuthServer(server, metadata,
                     [answerType](const ScriptedRequest &) { return tokenAnswer(answerType); });
    OAuthClientSettings client;
    client.grant = OAuthGrant::ClientCredentials;
    client.preRegisteredClientId = QStringLiteral("machine-6");
    client.preRegisteredClientSecret = QStringLiteral("secret-6-0123456789");
    if (off)
        client.dpop = OAuthClientSettings::Dpop::Off;
    const auto flow = runFlow(machineOptions(server, client));
    QVERIFY(flow->isFinished());
    const QList<ScriptedRequest> sent = server.requestsTo(QStringLiteral("/token"));
    QCOMPARE(sent.size(), 1);
    QVERIFY(!sent.first().hasHeader("DPoP"));
    QVERIFY(!flow->record().isDpopBound());
    QVERIFY(flow->record().dpopKeyPem.isEmpty());
    if (!succeeds) {
        QVERIFY(!flow->succeeded());
        QVERIFY2(flow->error().message.contains(QLatin1String("not Bearer")),
                 qPrintable(flow->error().message));
        return;
    }
    VERIFY_SUCCEEDED(*flow);
    Authorizer authorizer(QUrl(server.origin() + QStringLiteral("/mcp")));
    authorizer.setRecord(flow->record());
    const auto headers =
        authorizer.authorizationHeaders("POST", QUrl(server.origin() + QStringLiteral("/mcp")));
    QCOMPARE(headers.size(), 1);
    QCOMPARE(headers.first().second, QByteArray("Bearer machine-token-0123456789"));
}

void tst_OAuthFlow::dpopRefreshKeepsKey()
{
    // A DPoP-bound refresh token is bound to the key too (RFC 9449 §5): its refresh is proved with
    // the record's key, not a new one, and the new tokens stay bound to it.
    ScriptedServer server;
    QVERIFY(server.listen());
    int issued = 0;
    scriptAuthServer(
        server, {{QStringLiteral("dpop_signing_alg_values_supported"), QJsonArray{QStringLiteral("ES256")}}},
        [&issued](const ScriptedRequest &) {
            ++issued;
            return ScriptedAnswer::json(
                200, {{QStringLiteral("access_token"), QStringLiteral("dpop-at-%1-0123456789").arg(issued)},
                      {QStringLiteral("token_type"), QStringLiteral("DPoP")},
                      {QStringLiteral("refresh_token"), QStringLiteral("dpop-rt-%1-0123456789").arg(issued)},
                      {QStringLiteral("expires_in"), 60}});
        });
    OAuthClientSettings client;
    client.grant = OAuthGrant::ClientCredentials;
    client.preRegisteredClientId = QStringLiteral("machine-7");
    client.preRegisteredClientSecret = QStringLiteral("secret-7-0123456789");
    const auto first = runFlow(machineOptions(server, client));
    VERIFY_SUCCEEDED(*first);
    QVERIFY(first->record().isDpopBound());

    OAuthFlow::Options options = machineOptions(server, client);
    options.record = first->record();
    options.refreshOnly = true;
    const auto refreshed = runFlow(options);
    VERIFY_SUCCEEDED(*refreshed);
    const QList<ScriptedRequest> sent = server.requestsTo(QStringLiteral("/token"));
    QCOMPARE(sent.size(), 2);
    QCOMPARE(sent.at(1).form(QStringLiteral("grant_type")), QStringLiteral("refresh_token"));
    QCOMPARE(sent.at(1).form(QStringLiteral("refresh_token")), QStringLiteral("dpop-rt-1-0123456789"));
    const QString proof = QString::fromLatin1(sent.at(1).header("DPoP"));
    const QJsonObject jwk = josecheck::part(proof, 0).value(QStringLiteral("jwk")).toObject();
    QCOMPARE(jwk, josecheck::part(QString::fromLatin1(sent.at(0).header("DPoP")), 0)
                      .value(QStringLiteral("jwk"))
                      .toObject());
    QVERIFY(josecheck::verifyWithJwk(proof, jwk));
    QVERIFY(refreshed->record().isDpopBound());
    QCOMPARE(SigningKey::fromPem(refreshed->record().dpopKeyPem).thumbprint(), jose::thumbprint(jwk));
    QCOMPARE(refreshed->record().tokens.accessToken, QStringLiteral("dpop-at-2-0123456789"));
}

void tst_OAuthFlow::savedClientCredentialsRerunWithoutPerson()
{
    // A record a client credentials grant made, and an Authorizer that may not ask a person
    // (the command line): a refusal gets a new token from the saved client, with no settings.
    ScriptedServer server;
    QVERIFY(server.listen());
    scriptAuthServer(server, {}, [](const ScriptedRequest &) { return tokenAnswer(); });
    OAuthClientSettings client;
    client.grant = OAuthGrant::ClientCredentials;
    client.preRegisteredClientId = QStringLiteral("machine-8");
    client.preRegisteredClientSecret = QStringLiteral("secret-8-0123456789");
    const auto first = runFlow(machineOptions(server, client));
    VERIFY_SUCCEEDED(*first);
    AuthRecord record = first->record();
    record.tokens.accessToken = QStringLiteral("expired-token-0123456789");

    Authorizer authorizer(QUrl(server.origin() + QStringLiteral("/mcp")));
    authorizer.setInteractive(false);
    authorizer.setRecord(record);
    QList<McpError> results;
    authorizer.handleRefusal(401, "Bearer error=\"invalid_token\"", record.tokens.accessToken, this,
                             [&results](const McpError &error) { results.append(error); });
    QTRY_COMPARE_WITH_TIMEOUT(results.size(), 1, 20000);
    QVERIFY2(!results.first().isError(), qPrintable(results.first().message));
    QCOMPARE(authorizer.accessToken(), QStringLiteral("machine-token-0123456789"));
    const QList<ScriptedRequest> sent = server.requestsTo(QStringLiteral("/token"));
    QCOMPARE(sent.size(), 2);
    QCOMPARE(sent.at(1).form(QStringLiteral("grant_type")), QStringLiteral("client_credentials"));
    QCOMPARE(sent.at(1).header("Authorization"),
             basic(client.preRegisteredClientId, client.preRegisteredClientSecret));
}

QTEST_GUILESS_MAIN(tst_OAuthFlow)
#include "tst_oauthflow.moc"
