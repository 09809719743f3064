#include "oauth.h"

#include "secretmask.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrlQuery>

namespace folio {

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

constexpr std::pair<OAuthGrant, const char *> grantKeys[] = {
    {OAuthGrant::AuthorizationCode, "authorization-code"},
    {OAuthGrant::ClientCredentials, "client-credentials"},
    {OAuthGrant::JwtBearer, "jwt-bearer"},
    {OAuthGrant::EnterpriseManaged, "enterprise"},
};

} // namespace

QString grantName(OAuthGrant grant)
{
    switch (grant) {
    case OAuthGrant::AuthorizationCode:
        return QStringLiteral("authorization code, in the browser");
    case OAuthGrant::ClientCredentials:
        return QStringLiteral("client credentials");
    case OAuthGrant::JwtBearer:
        return QStringLiteral("workload identity (JWT bearer)");
    case OAuthGrant::EnterpriseManaged:
        return QStringLiteral("enterprise-managed (ID-JAG)");
    }
    return {};
}

QString grantKey(OAuthGrant grant)
{
    for (const auto &[g, key] : grantKeys) {
        if (g == grant)
            return QLatin1String(key);
    }
    return {};
}

std::optional<OAuthGrant> grantFromKey(const QString &key)
{
    for (const auto &[g, k] : grantKeys) {
        if (key == QLatin1String(k))
            return g;
    }
    return std::nullopt;
}

QString OAuthClient::sourceName(Source source)
{
    switch (source) {
    case Source::None:
        return QStringLiteral("none");
    case Source::MetadataDocument:
        return QStringLiteral("client ID metadata document");
    case Source::PreRegistered:
        return QStringLiteral("pre-registered");
    case Source::Dynamic:
        return QStringLiteral("dynamic registration");
    }
    return {};
}

QJsonObject OAuthClient::toJson() const
{
    static const char *sources[] = {"none", "metadata-document", "pre-registered", "dynamic"};
    QJsonObject o{{QStringLiteral("source"), QLatin1String(sources[int(source)])},
                  {QStringLiteral("client_id"), clientId}};
    if (!clientSecret.isEmpty())
        o.insert(QStringLiteral("client_secret"), clientSecret);
    if (!privateKeyPem.isEmpty())
        o.insert(QStringLiteral("private_key_pem"), QString::fromLatin1(privateKeyPem));
    if (!tokenEndpointAuthMethod.isEmpty())
        o.insert(QStringLiteral("token_endpoint_auth_method"), tokenEndpointAuthMethod);
    return o;
}

OAuthClient OAuthClient::fromJson(const QJsonObject &o)
{
    OAuthClient c;
    const QString source = str(o, "source");
    c.source = source == QLatin1String("metadata-document") ? Source::MetadataDocument
               : source == QLatin1String("pre-registered")  ? Source::PreRegistered
               : source == QLatin1String("dynamic")         ? Source::Dynamic
                                                            : Source::None;
    c.clientId = str(o, "client_id");
    c.clientSecret = str(o, "client_secret");
    c.privateKeyPem = str(o, "private_key_pem").toLatin1();
    c.tokenEndpointAuthMethod = str(o, "token_endpoint_auth_method");
    return c;
}

QJsonObject OAuthTokens::toJson() const
{
    QJsonObject o{{QStringLiteral("access_token"), accessToken}};
    if (!refreshToken.isEmpty())
        o.insert(QStringLiteral("refresh_token"), refreshToken);
    if (!tokenType.isEmpty())
        o.insert(QStringLiteral("token_type"), tokenType);
    if (!scope.isEmpty())
        o.insert(QStringLiteral("scope"), scope);
    if (expiresAtMs > 0)
        o.insert(QStringLiteral("expires_at_ms"), expiresAtMs);
    if (issuedAtMs > 0)
        o.insert(QStringLiteral("issued_at_ms"), issuedAtMs);
    if (tokenEndpoint.isValid())
        o.insert(QStringLiteral("token_endpoint"), tokenEndpoint.toString());
    return o;
}

OAuthTokens OAuthTokens::fromJson(const QJsonObject &o)
{
    OAuthTokens t;
    t.accessToken = str(o, "access_token");
    t.refreshToken = str(o, "refresh_token");
    t.tokenType = str(o, "token_type");
    t.scope = str(o, "scope");
    t.expiresAtMs = o.value(QStringLiteral("expires_at_ms")).toInteger();
    t.issuedAtMs = o.value(QStringLiteral("issued_at_ms")).toInteger();
    t.tokenEndpoint = QUrl(str(o, "token_endpoint"));
    return t;
}

QByteArray AuthRecord::toJson() const
{
    QJsonObject clientsJson;
    for (auto it = clients.begin(); it != clients.end(); ++it)
        clientsJson.insert(it.key(), it.value().toJson());
    QJsonObject o{{QStringLiteral("resource"), resource},
                  {QStringLiteral("issuer"), issuer},
                  {QStringLiteral("clients"), clientsJson}};
    if (tokens.isValid())
        o.insert(QStringLiteral("tokens"), tokens.toJson());
    if (grant != OAuthGrant::AuthorizationCode)
        o.insert(QStringLiteral("grant"), grantKey(grant));
    if (!dpopKeyPem.isEmpty())
        o.insert(QStringLiteral("dpop_key_pem"), QString::fromLatin1(dpopKeyPem));
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

AuthRecord AuthRecord::fromJson(const QByteArray &json)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    AuthRecord r;
    r.resource = str(o, "resource");
    r.issuer = str(o, "issuer");
    const QJsonObject clientsJson = o.value(QStringLiteral("clients")).toObject();
    for (auto it = clientsJson.begin(); it != clientsJson.end(); ++it)
        r.clients.insert(it.key(), OAuthClient::fromJson(it.value().toObject()));
    r.tokens = OAuthTokens::fromJson(o.value(QStringLiteral("tokens")).toObject());
    r.grant = grantFromKey(str(o, "grant")).value_or(OAuthGrant::AuthorizationCode);
    r.dpopKeyPem = str(o, "dpop_key_pem").toLatin1();
    return r;
}

QString AuthRecord::keychainKey(const QUrl &serverUrl)
{
    return QStringLiteral("oauth:") + serverUrl
                                          .adjusted(QUrl::RemoveUserInfo | QUrl::RemoveFragment |
                                                    QUrl::RemoveQuery | QUrl::StripTrailingSlash)
                                          .toString();
}

QString AuthStep::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Challenge:
        return QStringLiteral("Challenge");
    case Kind::ResourceMetadata:
        return QStringLiteral("Protected resource metadata");
    case Kind::ServerMetadata:
        return QStringLiteral("Authorization server metadata");
    case Kind::Registration:
        return QStringLiteral("Client registration");
    case Kind::Authorization:
        return QStringLiteral("Authorization");
    case Kind::Callback:
        return QStringLiteral("Callback");
    case Kind::TokenExchange:
        return QStringLiteral("Token exchange at the identity provider");
    case Kind::Token:
        return QStringLiteral("Token");
    case Kind::Refresh:
        return QStringLiteral("Refresh");
    case Kind::AuthorizedRequest:
        return QStringLiteral("Authorized request");
    }
    return {};
}

QString AuthStep::stateName(State state)
{
    switch (state) {
    case State::Running:
        return QStringLiteral("running");
    case State::Done:
        return QStringLiteral("done");
    case State::Failed:
        return QStringLiteral("failed");
    case State::Waiting:
        return QStringLiteral("waiting");
    }
    return {};
}

QJsonObject decodeJwtClaims(const QString &token)
{
    const QStringList parts = token.split(QLatin1Char('.'));
    if (parts.size() != 3)
        return {};
    const auto payload = QByteArray::fromBase64Encoding(
        parts.at(1).toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!payload)
        return {};
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(*payload, &error);
    return error.error == QJsonParseError::NoError ? doc.object() : QJsonObject();
}

QString describeSteps(const QList<AuthStep> &steps, bool withExchanges, int firstNumber)
{
    QString out;
    int n = firstNumber - 1;
    for (const AuthStep &step : steps) {
        out += QStringLiteral("%1. %2 [%3]")
                   .arg(QString::number(++n), step.title, AuthStep::stateName(step.state));
        if (!step.summary.isEmpty())
            out += QStringLiteral(": ") + step.summary;
        out += QLatin1Char('\n');
        if (!step.error.isEmpty())
            out += QStringLiteral("   error: ") + step.error + QLatin1Char('\n');
        for (const AuthVerdict &v : step.verdicts)
            out +=
                QStringLiteral("   %1 %2%3\n")
                    .arg(v.passed ? QStringLiteral("ok  ") : QStringLiteral("FAIL"), v.rule,
                         v.detail.isEmpty() ? QString() : QStringLiteral(" (") + v.detail + QLatin1Char(')'));
        if (!withExchanges)
            continue;
        for (const HttpExchange &raw : step.exchanges) {
            const HttpExchange ex = SecretMask::abbreviateExchange(raw);
            out += QStringLiteral("   > %1 %2\n").arg(QString::fromLatin1(ex.method), ex.url);
            if (!ex.requestBody.isEmpty())
                out += QStringLiteral("     %1\n").arg(QString::fromUtf8(ex.requestBody.left(2000)));
            out += QStringLiteral("   < %1\n").arg(ex.status == 0 ? ex.error : QString::number(ex.status));
            if (!ex.responseBody.isEmpty())
                out += QStringLiteral("     %1\n")
                           .arg(QString::fromUtf8(ex.responseBody.left(2000)).simplified());
        }
    }
    return out;
}

} // namespace folio
