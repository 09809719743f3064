#include "jose.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QRandomGenerator>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

namespace folio {

namespace {

EVP_PKEY *raw(const std::shared_ptr<void> &key)
{
    return static_cast<EVP_PKEY *>(key.get());
}

std::shared_ptr<void> own(EVP_PKEY *key)
{
    return std::shared_ptr<void>(key, [](void *k) { EVP_PKEY_free(static_cast<EVP_PKEY *>(k)); });
}

QByteArray bigNumber(const EVP_PKEY *key, const char *name, int width = 0)
{
    BIGNUM *bn = nullptr;
    if (!EVP_PKEY_get_bn_param(key, name, &bn))
        return {};
    QByteArray out(width > 0 ? width : BN_num_bytes(bn), Qt::Uninitialized);
    if (width > 0)
        BN_bn2binpad(bn, reinterpret_cast<unsigned char *>(out.data()), width);
    else
        BN_bn2bin(bn, reinterpret_cast<unsigned char *>(out.data()));
    BN_free(bn);
    return out;
}

const EVP_MD *digestFor(const QString &alg)
{
    if (alg.endsWith(QLatin1String("384")))
        return EVP_sha384();
    if (alg.endsWith(QLatin1String("512")))
        return EVP_sha512();
    return EVP_sha256();
}

QJsonObject decodePart(const QString &part)
{
    const auto bytes = QByteArray::fromBase64Encoding(
        part.toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!bytes)
        return {};
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &error);
    return error.error == QJsonParseError::NoError ? doc.object() : QJsonObject();
}

QString randomId()
{
    QByteArray raw(16, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(raw.data()), 4);
    return QString::fromLatin1(jose::base64Url(raw));
}

} // namespace

SigningKey SigningKey::generateEs256()
{
    SigningKey key;
    EVP_PKEY *pkey = EVP_EC_gen("P-256");
    if (!pkey)
        return key;
    key.m_key = own(pkey);
    key.m_alg = QStringLiteral("ES256");
    key.m_coordinateBytes = 32;
    return key;
}

SigningKey SigningKey::fromPem(const QByteArray &pem, QString *error)
{
    SigningKey key;
    auto fail = [&](const QString &why) {
        if (error)
            *error = why;
        return SigningKey();
    };
    if (pem.size() > 64 * 1024)
        return fail(QStringLiteral("the key file is over 64 KiB"));
    BIO *bio = BIO_new_mem_buf(pem.constData(), int(pem.size()));
    // A null password callback: an encrypted key is refused rather than prompted for on a terminal.
    EVP_PKEY *pkey = PEM_read_bio_PrivateKey(
        bio, nullptr, [](char *, int, int, void *) { return 0; }, nullptr);
    BIO_free(bio);
    if (!pkey)
        return fail(QStringLiteral("not a PEM private key (PKCS #8, EC or RSA; unencrypted)"));
    key.m_key = own(pkey);
    if (EVP_PKEY_is_a(pkey, "EC")) {
        char group[64] = {};
        size_t length = 0;
        EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group, &length);
        const QByteArray name(group, int(length));
        if (name == "prime256v1" || name == "P-256") {
            key.m_alg = QStringLiteral("ES256");
            key.m_coordinateBytes = 32;
        } else if (name == "secp384r1" || name == "P-384") {
            key.m_alg = QStringLiteral("ES384");
            key.m_coordinateBytes = 48;
        } else if (name == "secp521r1" || name == "P-521") {
            key.m_alg = QStringLiteral("ES512");
            key.m_coordinateBytes = 66;
        } else {
            return fail(
                QStringLiteral("an EC key on %1, not P-256, P-384 or P-521").arg(QString::fromLatin1(name)));
        }
    } else if (EVP_PKEY_is_a(pkey, "RSA")) {
        if (EVP_PKEY_get_bits(pkey) < 2048)
            return fail(QStringLiteral("an RSA key of %1 bits; RFC 7518 asks for 2048 or more")
                            .arg(EVP_PKEY_get_bits(pkey)));
        key.m_alg = QStringLiteral("RS256");
    } else {
        return fail(QStringLiteral("a private key that is neither EC nor RSA"));
    }
    return key;
}

QByteArray SigningKey::privatePem() const
{
    if (!m_key)
        return {};
    BIO *bio = BIO_new(BIO_s_mem());
    QByteArray out;
    if (PEM_write_bio_PrivateKey(bio, raw(m_key), nullptr, nullptr, 0, nullptr, nullptr)) {
        char *data = nullptr;
        const long length = BIO_get_mem_data(bio, &data);
        out = QByteArray(data, int(length));
    }
    BIO_free(bio);
    return out;
}

QJsonObject SigningKey::publicJwk() const
{
    if (!m_key)
        return {};
    const EVP_PKEY *pkey = raw(m_key);
    if (m_alg.startsWith(QLatin1Char('E'))) {
        const QString crv = m_coordinateBytes == 32   ? QStringLiteral("P-256")
                            : m_coordinateBytes == 48 ? QStringLiteral("P-384")
                                                      : QStringLiteral("P-521");
        return {{QStringLiteral("kty"), QStringLiteral("EC")},
                {QStringLiteral("crv"), crv},
                {QStringLiteral("x"), QString::fromLatin1(jose::base64Url(
                                          bigNumber(pkey, OSSL_PKEY_PARAM_EC_PUB_X, m_coordinateBytes)))},
                {QStringLiteral("y"), QString::fromLatin1(jose::base64Url(
                                          bigNumber(pkey, OSSL_PKEY_PARAM_EC_PUB_Y, m_coordinateBytes)))}};
    }
    return {
        {QStringLiteral("kty"), QStringLiteral("RSA")},
        {QStringLiteral("n"), QString::fromLatin1(jose::base64Url(bigNumber(pkey, OSSL_PKEY_PARAM_RSA_N)))},
        {QStringLiteral("e"), QString::fromLatin1(jose::base64Url(bigNumber(pkey, OSSL_PKEY_PARAM_RSA_E)))}};
}

QString SigningKey::thumbprint() const
{
    return jose::thumbprint(publicJwk());
}

QByteArray SigningKey::sign(const QByteArray &signingInput) const
{
    if (!m_key)
        return {};
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    QByteArray signature;
    size_t length = 0;
    if (EVP_DigestSignInit(ctx, nullptr, digestFor(m_alg), nullptr, raw(m_key)) == 1 &&
        EVP_DigestSign(ctx, nullptr, &length,
                       reinterpret_cast<const unsigned char *>(signingInput.constData()),
                       size_t(signingInput.size())) == 1) {
        signature.resize(qsizetype(length));
        if (EVP_DigestSign(ctx, reinterpret_cast<unsigned char *>(signature.data()), &length,
                           reinterpret_cast<const unsigned char *>(signingInput.constData()),
                           size_t(signingInput.size())) == 1)
            signature.resize(qsizetype(length));
        else
            signature.clear();
    }
    EVP_MD_CTX_free(ctx);
    if (signature.isEmpty() || m_coordinateBytes == 0)
        return signature;
    // ECDSA: DER SEQUENCE { r, s } into the fixed-width R || S of JWS.
    const auto *der = reinterpret_cast<const unsigned char *>(signature.constData());
    ECDSA_SIG *sig = d2i_ECDSA_SIG(nullptr, &der, long(signature.size()));
    if (!sig)
        return {};
    QByteArray out(2 * m_coordinateBytes, Qt::Uninitialized);
    BN_bn2binpad(ECDSA_SIG_get0_r(sig), reinterpret_cast<unsigned char *>(out.data()), m_coordinateBytes);
    BN_bn2binpad(ECDSA_SIG_get0_s(sig), reinterpret_cast<unsigned char *>(out.data()) + m_coordinateBytes,
                 m_coordinateBytes);
    ECDSA_SIG_free(sig);
    return out;
}

bool SigningKey::verify(const QByteArray &signingInput, const QByteArray &signature) const
{
    if (!m_key)
        return false;
    QByteArray der = signature;
    if (m_coordinateBytes > 0) {
        if (signature.size() != 2 * m_coordinateBytes)
            return false;
        ECDSA_SIG *sig = ECDSA_SIG_new();
        const auto *bytes = reinterpret_cast<const unsigned char *>(signature.constData());
        ECDSA_SIG_set0(sig, BN_bin2bn(bytes, m_coordinateBytes, nullptr),
                       BN_bin2bn(bytes + m_coordinateBytes, m_coordinateBytes, nullptr));
        unsigned char *out = nullptr;
        const int length = i2d_ECDSA_SIG(sig, &out);
        der = length > 0 ? QByteArray(reinterpret_cast<const char *>(out), length) : QByteArray();
        OPENSSL_free(out);
        ECDSA_SIG_free(sig);
    }
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    const bool ok =
        EVP_DigestVerifyInit(ctx, nullptr, digestFor(m_alg), nullptr, raw(m_key)) == 1 &&
        EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char *>(der.constData()), size_t(der.size()),
                         reinterpret_cast<const unsigned char *>(signingInput.constData()),
                         size_t(signingInput.size())) == 1;
    EVP_MD_CTX_free(ctx);
    return ok;
}

namespace jose {

QByteArray base64Url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QString thumbprint(const QJsonObject &publicJwk)
{
    if (publicJwk.isEmpty())
        return {};
    // RFC 7638 §3.2: the required members only, in lexicographic order, no whitespace. QJsonObject
    // keeps its keys sorted, and the values are base64url and names: nothing to escape.
    QJsonObject required;
    for (const char *name : {"crv", "e", "kty", "n", "x", "y"}) {
        if (publicJwk.contains(QLatin1String(name)))
            required.insert(QLatin1String(name), publicJwk.value(QLatin1String(name)));
    }
    return QString::fromLatin1(base64Url(QCryptographicHash::hash(
        QJsonDocument(required).toJson(QJsonDocument::Compact), QCryptographicHash::Sha256)));
}

QString signJwt(const SigningKey &key, QJsonObject header, const QJsonObject &claims)
{
    if (key.isNull())
        return {};
    header.insert(QStringLiteral("alg"), key.algorithm());
    const QByteArray input = base64Url(QJsonDocument(header).toJson(QJsonDocument::Compact)) + '.' +
                             base64Url(QJsonDocument(claims).toJson(QJsonDocument::Compact));
    const QByteArray signature = key.sign(input);
    if (signature.isEmpty())
        return {};
    return QString::fromLatin1(input + '.' + base64Url(signature));
}

QString clientAssertion(const SigningKey &key, const QString &clientId, const QString &audience,
                        qint64 nowSeconds, int lifetimeSeconds)
{
    return signJwt(key, {{QStringLiteral("typ"), QStringLiteral("JWT")}},
                   {{QStringLiteral("iss"), clientId},
                    {QStringLiteral("sub"), clientId},
                    {QStringLiteral("aud"), audience},
                    {QStringLiteral("jti"), randomId()},
                    {QStringLiteral("iat"), nowSeconds},
                    {QStringLiteral("exp"), nowSeconds + lifetimeSeconds}});
}

QString dpopProof(const SigningKey &key, const QByteArray &method, const QUrl &url,
                  const QString &accessToken, const QString &nonce, qint64 nowSeconds)
{
    QJsonObject claims{
        {QStringLiteral("jti"), randomId()},
        {QStringLiteral("htm"), QString::fromLatin1(method)},
        {QStringLiteral("htu"), url.adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment | QUrl::RemoveUserInfo)
                                    .toString(QUrl::FullyEncoded)},
        {QStringLiteral("iat"), nowSeconds},
    };
    if (!accessToken.isEmpty())
        claims.insert(QStringLiteral("ath"), QString::fromLatin1(base64Url(QCryptographicHash::hash(
                                                 accessToken.toUtf8(), QCryptographicHash::Sha256))));
    if (!nonce.isEmpty())
        claims.insert(QStringLiteral("nonce"), nonce);
    return signJwt(
        key, {{QStringLiteral("typ"), QStringLiteral("dpop+jwt")}, {QStringLiteral("jwk"), key.publicJwk()}},
        claims);
}

QJsonObject decodeJws(const QString &compact)
{
    const QStringList parts = compact.split(QLatin1Char('.'));
    if (parts.size() != 3)
        return {};
    return {{QStringLiteral("header"), decodePart(parts.at(0))},
            {QStringLiteral("claims"), decodePart(parts.at(1))}};
}

} // namespace jose

} // namespace folio
