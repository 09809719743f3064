// The pure parts of the OAuth sign-in: the well-known URLs it builds (RFC 9728, RFC 8414, OpenID
// Connect discovery), the endpoint and resource rules, PKCE S256 (RFC 7636), the JWT claims shown,
// the masking of secrets, and the loopback listener's reading of a request.
#include "loopbacklistener.h"
#include "oauth.h"
#include "oauthflow.h"
#include "secretmask.h"

#include <QJsonDocument>
#include <QTest>

using namespace folio;

class tst_OAuth : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void resourceMetadataUrls_data();
    void resourceMetadataUrls();
    void serverMetadataUrls_data();
    void serverMetadataUrls();
    void isSecureEndpoint_data();
    void isSecureEndpoint();
    void resourceCovers_data();
    void resourceCovers();
    void pkceChallengeRfc7636AppendixB();
    void decodeJwtClaims_data();
    void decodeJwtClaims();
    void maskSecret_data();
    void maskSecret();
    void maskExchangeHeaders();
    void maskExchangeForm();
    void maskExchangeJson();
    void maskExchangeQueryAndLocation();
    void maskExchangeLeavesOtherBodies();
    void readRequest_data();
    void readRequest();
};

namespace {

QStringList texts(const QList<QUrl> &urls)
{
    QStringList out;
    for (const QUrl &u : urls)
        out.append(u.toString());
    return out;
}

QStringList urls(std::initializer_list<const char *> texts)
{
    QStringList out;
    for (const char *t : texts)
        out.append(QString::fromLatin1(t));
    return out;
}

QByteArray b64url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace

void tst_OAuth::resourceMetadataUrls_data()
{
    QTest::addColumn<QString>("server");
    QTest::addColumn<QStringList>("expected");
    // RFC 9728 §3.1: the well-known segment goes between the host and the path; then the root.
    QTest::addRow("path_inserted_then_root")
        << "https://api.example.com/mcp"
        << urls({"https://api.example.com/.well-known/oauth-protected-resource/mcp",
                 "https://api.example.com/.well-known/oauth-protected-resource"});
    QTest::addRow("deep_path")
        << "https://api.example.com/v1/team/mcp"
        << urls({"https://api.example.com/.well-known/oauth-protected-resource/v1/team/mcp",
                 "https://api.example.com/.well-known/oauth-protected-resource"});
    QTest::addRow("trailing_slash_dropped")
        << "https://api.example.com/mcp/"
        << urls({"https://api.example.com/.well-known/oauth-protected-resource/mcp",
                 "https://api.example.com/.well-known/oauth-protected-resource"});
    QTest::addRow("no_path_root_only")
        << "https://api.example.com"
        << urls({"https://api.example.com/.well-known/oauth-protected-resource"});
    QTest::addRow("slash_path_root_only")
        << "https://api.example.com/"
        << urls({"https://api.example.com/.well-known/oauth-protected-resource"});
    QTest::addRow("query_fragment_userinfo_dropped")
        << "https://user:pw@api.example.com:8443/mcp?x=1#f"
        << urls({"https://api.example.com:8443/.well-known/oauth-protected-resource/mcp",
                 "https://api.example.com:8443/.well-known/oauth-protected-resource"});
    QTest::addRow("loopback_port_kept")
        << "http://127.0.0.1:40123/mcp"
        << urls({"http://127.0.0.1:40123/.well-known/oauth-protected-resource/mcp",
                 "http://127.0.0.1:40123/.well-known/oauth-protected-resource"});
}

void tst_OAuth::resourceMetadataUrls()
{
    QFETCH(QString, server);
    QFETCH(QStringList, expected);
    QCOMPARE(texts(OAuthFlow::resourceMetadataUrls(QUrl(server))), expected);
}

void tst_OAuth::serverMetadataUrls_data()
{
    QTest::addColumn<QString>("issuer");
    QTest::addColumn<QStringList>("expected");
    // MCP 2025-11-25 "Authorization Server Metadata Discovery": OAuth path insertion, OpenID
    // Connect path insertion, then OpenID Connect appending; an issuer without a path has two.
    QTest::addRow("no_path") << "https://auth.example.com"
                             << urls({"https://auth.example.com/.well-known/oauth-authorization-server",
                                      "https://auth.example.com/.well-known/openid-configuration"});
    QTest::addRow("slash_path") << "https://auth.example.com/"
                                << urls({"https://auth.example.com/.well-known/oauth-authorization-server",
                                         "https://auth.example.com/.well-known/openid-configuration"});
    QTest::addRow("with_path")
        << "https://auth.example.com/tenant1"
        << urls({"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                 "https://auth.example.com/.well-known/openid-configuration/tenant1",
                 "https://auth.example.com/tenant1/.well-known/openid-configuration"});
    QTest::addRow("with_path_trailing_slash")
        << "https://auth.example.com/tenant1/"
        << urls({"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                 "https://auth.example.com/.well-known/openid-configuration/tenant1",
                 "https://auth.example.com/tenant1/.well-known/openid-configuration"});
    QTest::addRow("loopback") << "http://127.0.0.1:40123"
                              << urls({"http://127.0.0.1:40123/.well-known/oauth-authorization-server",
                                       "http://127.0.0.1:40123/.well-known/openid-configuration"});
}

void tst_OAuth::serverMetadataUrls()
{
    QFETCH(QString, issuer);
    QFETCH(QStringList, expected);
    QCOMPARE(texts(OAuthFlow::serverMetadataUrls(issuer)), expected);
}

void tst_OAuth::isSecureEndpoint_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("secure");
    QTest::addRow("https") << "https://auth.example.com/token" << true;
    QTest::addRow("http_localhost") << "http://localhost:8080/token" << true;
    QTest::addRow("http_localhost_upper_case") << "http://LOCALHOST/token" << true;
    QTest::addRow("http_127_0_0_1") << "http://127.0.0.1:40123/token" << true;
    QTest::addRow("http_127_other") << "http://127.8.9.10/token" << true;
    QTest::addRow("http_ipv6_loopback") << "http://[::1]:9000/token" << true;
    QTest::addRow("http_remote") << "http://auth.example.com/token" << false;
    QTest::addRow("http_localhost_lookalike") << "http://localhost.attacker.example/token" << false;
    QTest::addRow("http_private_address") << "http://192.168.1.10/token" << false;
    QTest::addRow("other_scheme") << "ftp://127.0.0.1/token" << false;
    QTest::addRow("no_scheme") << "auth.example.com/token" << false;
}

void tst_OAuth::isSecureEndpoint()
{
    QFETCH(QString, url);
    QFETCH(bool, secure);
    QCOMPARE(OAuthFlow::isSecureEndpoint(QUrl(url)), secure);
}

void tst_OAuth::resourceCovers_data()
{
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("server");
    QTest::addColumn<bool>("covers");
    QTest::addRow("identical") << "https://api.example.com/mcp"
                               << "https://api.example.com/mcp" << true;
    QTest::addRow("origin_covers_path") << "https://api.example.com"
                                        << "https://api.example.com/mcp" << true;
    QTest::addRow("parent_path") << "https://api.example.com/v1"
                                 << "https://api.example.com/v1/mcp" << true;
    QTest::addRow("trailing_slashes") << "https://api.example.com/mcp/"
                                      << "https://api.example.com/mcp" << true;
    QTest::addRow("default_port_explicit") << "https://api.example.com:443/mcp"
                                           << "https://api.example.com/mcp" << true;
    QTest::addRow("host_case") << "https://API.example.com/mcp"
                               << "https://api.example.com/mcp" << true;
    QTest::addRow("prefix_is_not_a_parent") << "https://api.example.com/mc"
                                            << "https://api.example.com/mcp" << false;
    QTest::addRow("sibling_path") << "https://api.example.com/other"
                                  << "https://api.example.com/mcp" << false;
    QTest::addRow("child_does_not_cover_parent") << "https://api.example.com/mcp/x"
                                                 << "https://api.example.com/mcp" << false;
    QTest::addRow("other_host") << "https://evil.example.com/mcp"
                                << "https://api.example.com/mcp" << false;
    QTest::addRow("other_port") << "https://api.example.com:8443/mcp"
                                << "https://api.example.com/mcp" << false;
    QTest::addRow("other_scheme") << "http://api.example.com/mcp"
                                  << "https://api.example.com/mcp" << false;
    QTest::addRow("fragment") << "https://api.example.com/mcp#x"
                              << "https://api.example.com/mcp" << false;
    QTest::addRow("empty") << ""
                           << "https://api.example.com/mcp" << false;
}

void tst_OAuth::resourceCovers()
{
    QFETCH(QString, resource);
    QFETCH(QString, server);
    QFETCH(bool, covers);
    QCOMPARE(OAuthFlow::resourceCovers(resource, QUrl(server)), covers);
}

void tst_OAuth::pkceChallengeRfc7636AppendixB()
{
    // RFC 7636 Appendix B.
    QCOMPARE(OAuthFlow::pkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
             QStringLiteral("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"));
}

void tst_OAuth::decodeJwtClaims_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<QByteArray>("claims"); // compact JSON, empty: none
    const QByteArray header = b64url(R"({"alg":"RS256","typ":"at+jwt"})");
    const QByteArray payload = R"({"aud":"https://api.example.com/mcp","exp":1900000000,"scope":"a b"})";
    QTest::addRow("jwt") << QString::fromLatin1(header + '.' + b64url(payload) + ".c2ln") << payload;
    QTest::addRow("unsigned_jwt") << QString::fromLatin1(header + '.' + b64url(payload) + '.') << payload;
    QTest::addRow("opaque") << "4f7a9c1e2b3d" << QByteArray();
    QTest::addRow("two_parts") << QString::fromLatin1(header + '.' + b64url(payload)) << QByteArray();
    QTest::addRow("four_parts") << QString::fromLatin1(header + '.' + b64url(payload) + ".a.b")
                                << QByteArray();
    QTest::addRow("bad_base64") << QString::fromLatin1(header + ".%%%%.sig") << QByteArray();
    QTest::addRow("payload_not_json")
        << QString::fromLatin1(header + '.' + b64url("not json") + ".sig") << QByteArray();
    QTest::addRow("empty") << QString() << QByteArray();
}

void tst_OAuth::decodeJwtClaims()
{
    QFETCH(QString, token);
    QFETCH(QByteArray, claims);
    const QJsonObject decoded = folio::decodeJwtClaims(token);
    if (claims.isEmpty())
        QVERIFY(decoded.isEmpty());
    else
        QCOMPARE(decoded, QJsonDocument::fromJson(claims).object());
}

void tst_OAuth::maskSecret_data()
{
    QTest::addColumn<QString>("secret");
    QTest::addColumn<QString>("shown");
    QTest::addRow("empty") << QString() << QString();
    QTest::addRow("short_shows_nothing") << "abc" << QStringLiteral("•••• (3 chars)");
    QTest::addRow("eight_shows_nothing") << "abcdefgh" << QStringLiteral("•••• (8 chars)");
    QTest::addRow("long_shows_four") << "eyJhbGciOiJSUzI1NiJ9.payload.signature"
                                     << QStringLiteral("eyJh… (38 chars)");
}

void tst_OAuth::maskSecret()
{
    QFETCH(QString, secret);
    QFETCH(QString, shown);
    QCOMPARE(SecretMask::abbreviate(secret), shown);
}

void tst_OAuth::maskExchangeHeaders()
{
    HttpExchange ex;
    ex.method = "POST";
    ex.url = QStringLiteral("https://api.example.com/mcp");
    ex.requestHeaders = {{"Authorization", "Bearer access-token-0123456789"},
                         {"Cookie", "session=cookie-value-0123456789"},
                         {"Accept", "application/json"}};
    ex.responseHeaders = {{"set-cookie", "session=new-cookie-0123456789; HttpOnly"},
                          {"Content-Type", "application/json"}};
    const HttpExchange m = SecretMask::abbreviateExchange(ex);
    QCOMPARE(m.header(m.requestHeaders, "Authorization"), QByteArray("Bearer acce… (23 chars)"));
    QVERIFY(!m.header(m.requestHeaders, "Cookie").contains("cookie-value"));
    QVERIFY(!m.header(m.responseHeaders, "Set-Cookie").contains("new-cookie"));
    QCOMPARE(m.header(m.requestHeaders, "Accept"), QByteArray("application/json"));
    QCOMPARE(m.header(m.responseHeaders, "Content-Type"), QByteArray("application/json"));
    // Basic keeps its scheme too.
    ex.requestHeaders = {{"authorization", "Basic " + QByteArray("client:secret-0123456789").toBase64()}};
    const HttpExchange maskedBasic = SecretMask::abbreviateExchange(ex);
    const QByteArray basic = maskedBasic.header(maskedBasic.requestHeaders, "Authorization");
    QVERIFY2(basic.startsWith("Basic ") && basic.contains("chars"), basic.constData());
}

void tst_OAuth::maskExchangeForm()
{
    HttpExchange ex;
    ex.method = "POST";
    ex.url = QStringLiteral("https://auth.example.com/token");
    ex.requestBody = "grant_type=authorization_code&code=code-value-0123456789"
                     "&code_verifier=verifier-value-0123456789&client_id=folio-client"
                     "&client_secret=client-secret-0123456789&refresh_token=refresh-value-0123456789"
                     "&redirect_uri=http%3A%2F%2F127.0.0.1%3A4000%2Fcallback";
    const QByteArray body = SecretMask::abbreviateExchange(ex).requestBody;
    for (const char *secret : {"code-value", "verifier-value", "client-secret", "refresh-value"})
        QVERIFY2(!body.contains(secret), body.constData());
    QVERIFY(body.contains("grant_type=authorization_code"));
    QVERIFY(body.contains("client_id=folio-client"));
    QVERIFY(body.contains("redirect_uri="));
    QVERIFY(body.contains("code="));
    QVERIFY(body.contains("code_verifier="));
}

void tst_OAuth::maskExchangeJson()
{
    HttpExchange ex;
    ex.responseBody =
        R"({"access_token":"access-value-0123456789","token_type":"Bearer","expires_in":3600,)"
        R"("refresh_token":"refresh-value-0123456789","id_token":"id-value-0123456789",)"
        R"("nested":{"client_secret":"secret-value-0123456789","list":[{"code":"code-value-0123"}]}})";
    const QJsonObject masked =
        QJsonDocument::fromJson(SecretMask::abbreviateExchange(ex).responseBody).object();
    QCOMPARE(masked.value(QStringLiteral("access_token")).toString(), QStringLiteral("acce… (23 chars)"));
    QCOMPARE(masked.value(QStringLiteral("token_type")).toString(), QStringLiteral("Bearer"));
    QCOMPARE(masked.value(QStringLiteral("expires_in")).toInt(), 3600);
    const QByteArray text = SecretMask::abbreviateExchange(ex).responseBody;
    for (const char *secret : {"access-value", "refresh-value", "id-value", "secret-value", "code-value"})
        QVERIFY2(!text.contains(secret), text.constData());
}

void tst_OAuth::maskExchangeQueryAndLocation()
{
    HttpExchange ex;
    ex.method = "GET";
    ex.url = QStringLiteral(
        "http://127.0.0.1:4000/callback?code=code-value-0123456789&state=state-1&iss=https%3A%2F%2Fauth");
    ex.status = 302;
    ex.responseHeaders = {
        {"Location", "http://127.0.0.1:4000/callback?code=other-code-0123456789&state=state-2"}};
    const HttpExchange m = SecretMask::abbreviateExchange(ex);
    QVERIFY2(!m.url.contains(QLatin1String("code-value")), qPrintable(m.url));
    QVERIFY(m.url.contains(QLatin1String("state=state-1")));
    QVERIFY(m.url.contains(QLatin1String("iss=")));
    const QByteArray location = m.header(m.responseHeaders, "Location");
    QVERIFY2(!location.contains("other-code"), location.constData());
    QVERIFY(location.contains("state=state-2"));
}

void tst_OAuth::maskExchangeLeavesOtherBodies()
{
    HttpExchange ex;
    ex.requestBody = R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})";
    ex.responseBody = "<html>code=not-a-form { }</html>";
    const HttpExchange m = SecretMask::abbreviateExchange(ex);
    QCOMPARE(QJsonDocument::fromJson(m.requestBody), QJsonDocument::fromJson(ex.requestBody));
    QCOMPARE(m.responseBody, ex.responseBody);
}

void tst_OAuth::readRequest_data()
{
    using Kind = LoopbackListener::Request::Kind;
    QTest::addColumn<QByteArray>("received");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addRow("callback") << QByteArray(
                                     "GET /callback?code=abc&state=xyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                              << int(Kind::Callback) << 0 << "abc";
    QTest::addRow("callback_error") << QByteArray(
                                           "GET /callback?error=access_denied&state=s HTTP/1.1\r\n\r\n")
                                    << int(Kind::Callback) << 0 << "";
    QTest::addRow("head_not_complete")
        << QByteArray("GET /callback?code=abc HTTP/1.1\r\nHost: x\r\n") << int(Kind::Incomplete) << 0 << "";
    QTest::addRow("nothing_yet") << QByteArray() << int(Kind::Incomplete) << 0 << "";
    QTest::addRow("post_refused") << QByteArray("POST /callback?code=abc HTTP/1.1\r\n\r\n")
                                  << int(Kind::Refused) << 405 << "";
    QTest::addRow("other_path") << QByteArray("GET /favicon.ico HTTP/1.1\r\n\r\n") << int(Kind::Refused)
                                << 404 << "";
    QTest::addRow("path_prefix") << QByteArray("GET /callbackx?code=abc HTTP/1.1\r\n\r\n")
                                 << int(Kind::Refused) << 404 << "";
    QTest::addRow("sub_path") << QByteArray("GET /callback/x?code=abc HTTP/1.1\r\n\r\n") << int(Kind::Refused)
                              << 404 << "";
    QTest::addRow("malformed_request_line")
        << QByteArray("GET /callback\r\n\r\n") << int(Kind::Refused) << 405 << "";
    QTest::addRow("too_large") << QByteArray("GET /callback?code=") +
                                      QByteArray(LoopbackListener::maxRequestBytes, 'a')
                               << int(Kind::Refused) << 431 << "";
}

void tst_OAuth::readRequest()
{
    QFETCH(QByteArray, received);
    QFETCH(int, kind);
    QFETCH(int, status);
    QFETCH(QString, code);
    const LoopbackListener::Request r = LoopbackListener::readRequest(received);
    QCOMPARE(int(r.kind), kind);
    QCOMPARE(r.status, status);
    if (r.kind == LoopbackListener::Request::Kind::Callback)
        QCOMPARE(r.query.queryItemValue(QStringLiteral("code")), code);
}

QTEST_GUILESS_MAIN(tst_OAuth)
#include "tst_oauth.moc"
