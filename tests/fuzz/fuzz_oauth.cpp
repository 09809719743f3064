// What sign-in reads from outside (net/oauth.h, net/loopbacklistener.h): the loopback listener's
// request head (any local process can connect to it), a JWT's claims, an AuthRecord as the
// keychain returns it, and the masking of exchanges whose bodies and URLs a server wrote. None may
// crash; the listener's answer is one of its statuses; masking never leaves a secret field whole.
// The same bytes go to net/jose.h: a client's private key file (SigningKey::fromPem, which must take
// a key it can describe or refuse with a reason), a JWS a server or IdP sent (jose::decodeJws) and a
// JWK (jose::thumbprint, of the input as JSON and of a decoded header's jwk).
#include "fuzzcheck.h"
#include "jose.h"
#include "loopbacklistener.h"
#include "oauth.h"
#include "secretmask.h"

#include <QJsonDocument>
#include <QUrlQuery>

using namespace folio;

namespace {

// An RFC 7638 thumbprint: empty for an empty JWK, else base64url of 32 bytes.
void checkThumbprint(const QJsonObject &jwk)
{
    const QString thumbprint = jose::thumbprint(jwk);
    FUZZ_CHECK(jwk.isEmpty() == thumbprint.isEmpty());
    FUZZ_CHECK(thumbprint.isEmpty() || thumbprint.size() == 43, thumbprint);
}

void checkJose(const QByteArray &bytes, const QString &text)
{
    QString error;
    const SigningKey key = SigningKey::fromPem(bytes, &error);
    if (key.isNull()) {
        FUZZ_CHECK(!error.isEmpty());
        if (bytes.size() > 64 * 1024)
            FUZZ_CHECK(error.contains(QLatin1String("64 KiB")), error);
    } else {
        const QString alg = key.algorithm();
        FUZZ_CHECK(alg == QLatin1String("ES256") || alg == QLatin1String("ES384") ||
                       alg == QLatin1String("ES512") || alg == QLatin1String("RS256"),
                   alg);
        const QJsonObject jwk = key.publicJwk();
        FUZZ_CHECK(!jwk.contains(QLatin1String("d")) && !jwk.isEmpty());
        FUZZ_CHECK(key.thumbprint() == jose::thumbprint(jwk));
        const QByteArray signature = key.sign("fuzz.input");
        if (alg.startsWith(QLatin1Char('E')) && !signature.isEmpty()) {
            const int sizes[] = {64, 96, 132};
            FUZZ_CHECK(signature.size() == sizes[alg == QLatin1String("ES384")   ? 1
                                                 : alg == QLatin1String("ES512") ? 2
                                                                                 : 0]);
        }
        key.verify("fuzz.input", signature); // a key read from a file may not match its public half
    }

    const QJsonObject decoded = jose::decodeJws(text);
    if (text.count(QLatin1Char('.')) != 2) {
        FUZZ_CHECK(decoded.isEmpty());
    } else {
        FUZZ_CHECK(decoded.size() == 2 && decoded.value(QLatin1String("header")).isObject() &&
                   decoded.value(QLatin1String("claims")).isObject());
        checkThumbprint(
            decoded.value(QLatin1String("header")).toObject().value(QLatin1String("jwk")).toObject());
    }

    const QJsonDocument doc = QJsonDocument::fromJson(bytes);
    if (doc.isObject()) {
        checkThumbprint(doc.object());
        checkThumbprint(doc.object().value(QLatin1String("jwk")).toObject());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes = fuzzInput(data, size).toByteArray();

    const LoopbackListener::Request request = LoopbackListener::readRequest(bytes);
    switch (request.kind) {
    case LoopbackListener::Request::Kind::Incomplete:
        FUZZ_CHECK(!bytes.contains("\r\n\r\n") && bytes.size() <= LoopbackListener::maxRequestBytes);
        break;
    case LoopbackListener::Request::Kind::Refused:
        FUZZ_CHECK(request.status == 404 || request.status == 405 || request.status == 431);
        break;
    case LoopbackListener::Request::Kind::Callback:
        FUZZ_CHECK(bytes.startsWith("GET "));
        break;
    }

    const QString text = QString::fromUtf8(bytes);
    decodeJwtClaims(text);
    checkJose(bytes, text);
    const AuthRecord record = AuthRecord::fromJson(bytes);
    FUZZ_CHECK(AuthRecord::fromJson(record.toJson()).toJson() == record.toJson());

    // A known secret in a form body, a JSON body and the URL, next to what the input says.
    const QString secret = QStringLiteral("s3cr3t-value-0123456789");
    HttpExchange ex;
    ex.url = QStringLiteral("http://127.0.0.1/callback?code=") + secret + QLatin1Char('&') + text;
    ex.requestBody = "code_verifier=" + secret.toUtf8() + '&' + bytes;
    ex.responseBody = bytes;
    ex.requestHeaders.append({"Authorization", "Bearer " + secret.toUtf8()});
    ex.responseHeaders.append({"Location", ex.url.toUtf8()});
    const HttpExchange masked = SecretMask::abbreviateExchange(ex);
    FUZZ_CHECK(!masked.url.contains(secret), masked.url);
    FUZZ_CHECK(!masked.requestHeaders.constFirst().second.contains(secret.toUtf8()));
    FUZZ_CHECK(!masked.responseHeaders.constFirst().second.contains(secret.toUtf8()));
    if (!bytes.contains('{'))
        FUZZ_CHECK(!masked.requestBody.contains(secret.toUtf8()), QString::fromUtf8(masked.requestBody));
    return 0;
}
