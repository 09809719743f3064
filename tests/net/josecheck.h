#pragma once

// A compact JWS checked the way a server checks it: with OpenSSL alone, from the public JWK it is
// given (a DPoP proof's header) or a SigningKey's publicJwk(), not with folio::SigningKey::verify.
// For the tests that sign (tst_jose, tst_oauthflow): a proof that verifies here verifies anywhere.

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

namespace josecheck {

inline QByteArray fromBase64Url(const QString &text)
{
    return QByteArray::fromBase64(text.toLatin1(), QByteArray::Base64UrlEncoding);
}

// The public key of a JWK (EC P-256/P-384/P-521 or RSA); null when it is none of those.
inline EVP_PKEY *publicKeyOf(const QJsonObject &jwk, int *coordinateBytes)
{
    const QString kty = jwk.value(QStringLiteral("kty")).toString();
    OSSL_PARAM_BLD *build = OSSL_PARAM_BLD_new();
    BIGNUM *n = nullptr;
    BIGNUM *e = nullptr;
    QByteArray point;
    const char *type = nullptr;
    *coordinateBytes = 0;
    if (kty == QLatin1String("EC")) {
        const QString crv = jwk.value(QStringLiteral("crv")).toString();
        const char *group = crv == QLatin1String("P-256")   ? "prime256v1"
                            : crv == QLatin1String("P-384") ? "secp384r1"
                            : crv == QLatin1String("P-521") ? "secp521r1"
                                                            : nullptr;
        *coordinateBytes = crv == QLatin1String("P-256") ? 32 : crv == QLatin1String("P-384") ? 48 : 66;
        const QByteArray x = fromBase64Url(jwk.value(QStringLiteral("x")).toString());
        const QByteArray y = fromBase64Url(jwk.value(QStringLiteral("y")).toString());
        if (!group || x.size() != *coordinateBytes || y.size() != *coordinateBytes) {
            OSSL_PARAM_BLD_free(build);
            return nullptr;
        }
        point = QByteArray(1, '\x04') + x + y;
        OSSL_PARAM_BLD_push_utf8_string(build, OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
        OSSL_PARAM_BLD_push_octet_string(build, OSSL_PKEY_PARAM_PUB_KEY, point.constData(),
                                         size_t(point.size()));
        type = "EC";
    } else if (kty == QLatin1String("RSA")) {
        const QByteArray nBytes = fromBase64Url(jwk.value(QStringLiteral("n")).toString());
        const QByteArray eBytes = fromBase64Url(jwk.value(QStringLiteral("e")).toString());
        n = BN_bin2bn(reinterpret_cast<const unsigned char *>(nBytes.constData()), int(nBytes.size()),
                      nullptr);
        e = BN_bin2bn(reinterpret_cast<const unsigned char *>(eBytes.constData()), int(eBytes.size()),
                      nullptr);
        OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_RSA_N, n);
        OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_RSA_E, e);
        type = "RSA";
    } else {
        OSSL_PARAM_BLD_free(build);
        return nullptr;
    }
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(build);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr);
    EVP_PKEY *key = nullptr;
    if (!ctx || EVP_PKEY_fromdata_init(ctx) != 1 ||
        EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1)
        key = nullptr;
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(build);
    BN_free(n);
    BN_free(e);
    return key;
}

// Whether compact is a JWS whose signature (alg from its header: ES256/384/512 as R || S, or
// RS256) verifies with jwk. *why says what failed.
inline bool verifyWithJwk(const QString &compact, const QJsonObject &jwk, QString *why = nullptr)
{
    auto no = [why](const char *reason) {
        if (why)
            *why = QString::fromLatin1(reason);
        return false;
    };
    const QStringList parts = compact.split(QLatin1Char('.'));
    if (parts.size() != 3)
        return no("not three parts");
    const QJsonObject header = QJsonDocument::fromJson(fromBase64Url(parts.at(0))).object();
    const QString alg = header.value(QStringLiteral("alg")).toString();
    const EVP_MD *md = alg.endsWith(QLatin1String("384"))   ? EVP_sha384()
                       : alg.endsWith(QLatin1String("512")) ? EVP_sha512()
                                                            : EVP_sha256();
    int coordinateBytes = 0;
    EVP_PKEY *key = publicKeyOf(jwk, &coordinateBytes);
    if (!key)
        return no("the JWK is no key");
    QByteArray signature = fromBase64Url(parts.at(2));
    if (alg.startsWith(QLatin1String("ES"))) {
        if (signature.size() != 2 * coordinateBytes) {
            EVP_PKEY_free(key);
            return no("the ECDSA signature is not R || S of the curve's size");
        }
        const auto *bytes = reinterpret_cast<const unsigned char *>(signature.constData());
        ECDSA_SIG *sig = ECDSA_SIG_new();
        ECDSA_SIG_set0(sig, BN_bin2bn(bytes, coordinateBytes, nullptr),
                       BN_bin2bn(bytes + coordinateBytes, coordinateBytes, nullptr));
        unsigned char *der = nullptr;
        const int length = i2d_ECDSA_SIG(sig, &der);
        signature = QByteArray(reinterpret_cast<const char *>(der), length);
        OPENSSL_free(der);
        ECDSA_SIG_free(sig);
    } else if (alg != QLatin1String("RS256")) {
        EVP_PKEY_free(key);
        return no("an alg this check does not know");
    }
    const QByteArray input = (parts.at(0) + QLatin1Char('.') + parts.at(1)).toLatin1();
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    const bool ok =
        EVP_DigestVerifyInit(ctx, nullptr, md, nullptr, key) == 1 &&
        EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char *>(signature.constData()),
                         size_t(signature.size()), reinterpret_cast<const unsigned char *>(input.constData()),
                         size_t(input.size())) == 1;
    EVP_MD_CTX_free(ctx);
    EVP_PKEY_free(key);
    return ok || no("the signature does not verify");
}

// A JWS's header or claims, decoded here (not with jose::decodeJws, which is under test).
inline QJsonObject part(const QString &compact, int index)
{
    const QStringList parts = compact.split(QLatin1Char('.'));
    if (parts.size() != 3)
        return {};
    return QJsonDocument::fromJson(fromBase64Url(parts.at(index))).object();
}

} // namespace josecheck
