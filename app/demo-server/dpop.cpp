#include "dpop.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <algorithm>
#include <memory>

namespace demo::dpop {

namespace {

constexpr int coordinateBytes = 32; // P-256

QByteArray base64Url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

// Strict base64url without padding (RFC 7515 §2): any other byte, or a length no encoding has, fails.
bool decodeBase64Url(const QByteArray &text, QByteArray *out)
{
    if (text.size() % 4 == 1)
        return false;
    for (const char c : text) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                        c == '-' || c == '_';
        if (!ok)
            return false;
    }
    const auto decoded = QByteArray::fromBase64Encoding(text, QByteArray::Base64UrlEncoding |
                                                                  QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return false;
    *out = *decoded;
    return true;
}

// How deeply objects and arrays nest in JSON text (strings skipped): checked before parsing.
int nesting(const QByteArray &json)
{
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    bool escaped = false;
    for (const char c : json) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return deepest;
}

bool decodeObject(const QByteArray &part, QJsonObject *out)
{
    QByteArray json;
    if (!decodeBase64Url(part, &json) || nesting(json) > maxJsonDepth)
        return false;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return false;
    *out = document.object();
    return true;
}

// A string member of at most maxMemberChars, or a null QString.
QString member(const QJsonObject &object, const char *name)
{
    const QJsonValue value = object.value(QLatin1String(name));
    if (!value.isString() || value.toString().size() > maxMemberChars)
        return {};
    return value.toString();
}

using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

// The P-256 public key of x and y (32 bytes each); null when the point is not on the curve.
Key publicKey(const QByteArray &x, const QByteArray &y)
{
    const QByteArray point = QByteArray(1, '\x04') + x + y; // SEC 1 uncompressed
    EVP_PKEY *key = nullptr;
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = nullptr;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
    char group[] = "prime256v1";
    if (builder && ctx &&
        OSSL_PARAM_BLD_push_utf8_string(builder, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) == 1 &&
        OSSL_PARAM_BLD_push_octet_string(builder, OSSL_PKEY_PARAM_PUB_KEY, point.constData(),
                                         size_t(point.size())) == 1 &&
        (params = OSSL_PARAM_BLD_to_param(builder)) != nullptr && EVP_PKEY_fromdata_init(ctx) == 1 &&
        EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) {
        key = nullptr;
    }
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(builder);
    EVP_PKEY_CTX_free(ctx);
    if (key) {
        // The point must be on the curve (a key off it is an invalid-curve attack's tool).
        EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(nullptr, key, nullptr);
        const bool onCurve = check && EVP_PKEY_public_check(check) == 1;
        EVP_PKEY_CTX_free(check);
        if (!onCurve) {
            EVP_PKEY_free(key);
            key = nullptr;
        }
    }
    return Key(key, &EVP_PKEY_free);
}

// ES256 (RFC 7518 §3.4): the signature is R || S, 32 bytes each, which OpenSSL takes as DER.
bool verifyEs256(EVP_PKEY *key, const QByteArray &input, const QByteArray &signature)
{
    if (signature.size() != 2 * coordinateBytes)
        return false;
    ECDSA_SIG *sig = ECDSA_SIG_new();
    const auto *bytes = reinterpret_cast<const unsigned char *>(signature.constData());
    BIGNUM *r = BN_bin2bn(bytes, coordinateBytes, nullptr);
    BIGNUM *s = BN_bin2bn(bytes + coordinateBytes, coordinateBytes, nullptr);
    if (!sig || !r || !s || ECDSA_SIG_set0(sig, r, s) != 1) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(sig);
        return false;
    }
    unsigned char *der = nullptr;
    const int derLength = i2d_ECDSA_SIG(sig, &der);
    ECDSA_SIG_free(sig);
    if (derLength <= 0)
        return false;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    const bool ok = ctx && EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, key) == 1 &&
                    EVP_DigestVerify(ctx, der, size_t(derLength),
                                     reinterpret_cast<const unsigned char *>(input.constData()),
                                     size_t(input.size())) == 1;
    EVP_MD_CTX_free(ctx);
    OPENSSL_free(der);
    return ok;
}

} // namespace

QString thumbprint(const QString &x, const QString &y)
{
    // RFC 7638 §3.2: the required members of an EC key, in lexicographic order, no whitespace.
    const QByteArray canonical =
        R"({"crv":"P-256","kty":"EC","x":")" + x.toLatin1() + R"(","y":")" + y.toLatin1() + R"("})";
    return QString::fromLatin1(base64Url(QCryptographicHash::hash(canonical, QCryptographicHash::Sha256)));
}

QString accessTokenHash(const QString &token)
{
    return QString::fromLatin1(
        base64Url(QCryptographicHash::hash(token.toUtf8(), QCryptographicHash::Sha256)));
}

QString normalizedUrl(const QUrl &url)
{
    QUrl n = url.adjusted(QUrl::RemoveUserInfo | QUrl::RemoveQuery | QUrl::RemoveFragment |
                          QUrl::NormalizePathSegments);
    n.setScheme(n.scheme().toLower());
    n.setHost(n.host().toLower());
    if ((n.scheme() == QLatin1String("http") && n.port() == 80) ||
        (n.scheme() == QLatin1String("https") && n.port() == 443))
        n.setPort(-1);
    if (n.path().isEmpty())
        n.setPath(QStringLiteral("/"));
    return n.toString(QUrl::FullyEncoded);
}

Verdict verify(const QByteArray &compact, const Expectation &expected, Proof *proof, QString *why)
{
    auto invalid = [why](const QString &text) {
        *why = text;
        return Verdict::Invalid;
    };
    if (compact.isEmpty())
        return invalid(QStringLiteral("The DPoP header is empty"));
    if (compact.size() > maxProofBytes)
        return invalid(QStringLiteral("The DPoP proof is over %1 bytes").arg(maxProofBytes));
    const QList<QByteArray> parts = compact.split('.');
    if (parts.size() != 3)
        return invalid(QStringLiteral("The DPoP proof is not a compact JWS (three base64url parts)"));

    // The header (§4.2): typ dpop+jwt, an asymmetric alg (ES256 is the one served), the public jwk.
    QJsonObject header;
    if (!decodeObject(parts.at(0), &header))
        return invalid(QStringLiteral("The DPoP proof's header is not a base64url JSON object of at most "
                                      "%1 levels")
                           .arg(maxJsonDepth));
    if (member(header, "typ") != QLatin1String("dpop+jwt"))
        return invalid(QStringLiteral("The DPoP proof's typ is not dpop+jwt"));
    if (member(header, "alg") != QLatin1String("ES256"))
        return invalid(QStringLiteral("The DPoP proof's alg is not ES256 (the only one this server takes)"));
    if (header.contains(QStringLiteral("crit")))
        return invalid(QStringLiteral("The DPoP proof's header has crit, which this server does not know"));
    const QJsonObject jwk = header.value(QStringLiteral("jwk")).toObject();
    if (jwk.isEmpty())
        return invalid(QStringLiteral("The DPoP proof's header has no jwk"));
    for (const char *secret : {"d", "p", "q", "dp", "dq", "qi", "k"}) {
        if (jwk.contains(QLatin1String(secret)))
            return invalid(QStringLiteral("The DPoP proof's jwk holds a private key member (%1)")
                               .arg(QLatin1String(secret)));
    }
    if (member(jwk, "kty") != QLatin1String("EC") || member(jwk, "crv") != QLatin1String("P-256"))
        return invalid(QStringLiteral("The DPoP proof's jwk is not an EC P-256 key"));
    const QString x = member(jwk, "x");
    const QString y = member(jwk, "y");
    QByteArray xBytes;
    QByteArray yBytes;
    if (!decodeBase64Url(x.toLatin1(), &xBytes) || !decodeBase64Url(y.toLatin1(), &yBytes) ||
        xBytes.size() != coordinateBytes || yBytes.size() != coordinateBytes)
        return invalid(QStringLiteral("The DPoP proof's jwk x and y are not 32 bytes of base64url each"));
    const Key key = publicKey(xBytes, yBytes);
    if (!key)
        return invalid(QStringLiteral("The DPoP proof's jwk is not a point on P-256"));

    // The signature, before anything the claims say is believed.
    QByteArray signature;
    if (!decodeBase64Url(parts.at(2), &signature) ||
        !verifyEs256(key.get(), parts.at(0) + '.' + parts.at(1), signature))
        return invalid(QStringLiteral("The DPoP proof's signature does not verify with its jwk"));

    QJsonObject claims;
    if (!decodeObject(parts.at(1), &claims))
        return invalid(QStringLiteral("The DPoP proof's claims are not a base64url JSON object of at most "
                                      "%1 levels")
                           .arg(maxJsonDepth));
    const QString jti = member(claims, "jti");
    if (jti.isEmpty())
        return invalid(
            QStringLiteral("The DPoP proof has no jti (or one over %1 characters)").arg(maxMemberChars));
    if (member(claims, "htm") != QString::fromLatin1(expected.method))
        return invalid(
            QStringLiteral("The DPoP proof's htm is not %1").arg(QString::fromLatin1(expected.method)));
    const QString htu = member(claims, "htu");
    const QUrl htuUrl(htu, QUrl::StrictMode);
    if (htu.isEmpty() || !htuUrl.isValid() || htuUrl.isRelative() ||
        normalizedUrl(htuUrl) != normalizedUrl(expected.url))
        return invalid(QStringLiteral("The DPoP proof's htu is not %1").arg(normalizedUrl(expected.url)));
    const QJsonValue iat = claims.value(QStringLiteral("iat"));
    if (!iat.isDouble())
        return invalid(QStringLiteral("The DPoP proof has no numeric iat"));
    const double skew = iat.toDouble() - double(expected.nowSeconds);
    if (skew > double(maxSkewSeconds) || skew < -double(maxSkewSeconds))
        return invalid(QStringLiteral("The DPoP proof's iat is more than %1 s from now").arg(maxSkewSeconds));
    if (!expected.accessToken.isEmpty() && member(claims, "ath") != accessTokenHash(expected.accessToken))
        return invalid(QStringLiteral("The DPoP proof's ath is not the SHA-256 of the access token"));
    if (!expected.nonce.isEmpty() && member(claims, "nonce") != expected.nonce) {
        *why = claims.contains(QStringLiteral("nonce"))
                   ? QStringLiteral("The DPoP proof's nonce is not the server's current one")
                   : QStringLiteral("The DPoP proof has no nonce, and this server wants one");
        return Verdict::NonceNeeded;
    }
    proof->thumbprint = thumbprint(x, y);
    proof->jti = jti;
    return Verdict::Valid;
}

} // namespace demo::dpop
