// What sign-in reads from outside (net/oauth.h, net/loopbacklistener.h): the loopback listener's
// request head (any local process can connect to it), a JWT's claims, an AuthRecord as the
// keychain returns it, and the masking of exchanges whose bodies and URLs a server wrote. None may
// crash; the listener's answer is one of its statuses; masking never leaves a secret field whole.
#include "fuzzcheck.h"
#include "loopbacklistener.h"
#include "oauth.h"
#include "secretmask.h"

#include <QUrlQuery>

using namespace folio;

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
