#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QUrl>

#include <memory>

namespace folio {

// The few JOSE pieces sign-in needs, on OpenSSL's libcrypto (docs/architecture.md, "Signing in"):
// a signing key, a compact JWS (RFC 7515) of JSON header and claims, a public JWK (RFC 7517) and its
// thumbprint (RFC 7638). Used for a private_key_jwt client assertion (RFC 7523 §2.2) and DPoP
// proofs (RFC 9449). Nothing here verifies a server's token: Folio only decodes those to show them.
class SigningKey
{
public:
    SigningKey() = default;

    // A new P-256 key (ES256): what a DPoP proof is signed with.
    static SigningKey generateEs256();
    // A private key in PEM (PKCS #8, or a traditional EC or RSA key); a null key and why when it is
    // not one Folio can sign with: EC on P-256, P-384 or P-521, or RSA of 2048 bits or more.
    static SigningKey fromPem(const QByteArray &pem, QString *error = nullptr);

    bool isNull() const { return !m_key; }
    // "ES256", "ES384", "ES512" or "RS256", decided by the key.
    QString algorithm() const { return m_alg; }
    // The private key as PKCS #8 PEM: for the keychain only, never a view, a log or a file.
    QByteArray privatePem() const;
    // The public half as a JWK: kty and crv, x, y (EC) or n, e (RSA). No private member.
    QJsonObject publicJwk() const;
    // RFC 7638 SHA-256 thumbprint of publicJwk(), base64url: a DPoP-bound token's cnf.jkt.
    QString thumbprint() const;
    // The JWS signature of signingInput (for EC the raw R || S of RFC 7518 §3.4, not DER); empty
    // when signing failed.
    QByteArray sign(const QByteArray &signingInput) const;
    // Checks a signature made by sign() (for the tests, and a proof's own check before sending).
    bool verify(const QByteArray &signingInput, const QByteArray &signature) const;

private:
    std::shared_ptr<void> m_key; // EVP_PKEY, freed by EVP_PKEY_free
    QString m_alg;
    int m_coordinateBytes = 0; // EC: the size of R and S
};

namespace jose {

QByteArray base64Url(const QByteArray &bytes);

// RFC 7638 SHA-256 thumbprint of a public JWK, base64url: its required members (crv, e, kty, n, x,
// y, those present) in lexicographic order without whitespace. Empty for an empty JWK.
QString thumbprint(const QJsonObject &publicJwk);

// header's alg is set from the key; empty when signing failed.
QString signJwt(const SigningKey &key, QJsonObject header, const QJsonObject &claims);

// RFC 7523 §2.2 / §3: a client assertion for private_key_jwt, iss = sub = clientId, aud = the
// authorization server's issuer, a fresh jti, valid for lifetimeSeconds.
QString clientAssertion(const SigningKey &key, const QString &clientId, const QString &audience,
                        qint64 nowSeconds, int lifetimeSeconds = 300);

// RFC 9449 §4.2: a DPoP proof for one request. htu is url without query and fragment; ath is the
// base64url SHA-256 of accessToken when one is given (a resource request); nonce when the server
// gave one.
QString dpopProof(const SigningKey &key, const QByteArray &method, const QUrl &url,
                  const QString &accessToken, const QString &nonce, qint64 nowSeconds);

// What a proof says, for the sign-in view: {"header": …, "claims": …} (a proof holds no secret;
// its key's private half is never in it).
QJsonObject decodeJws(const QString &compact);

} // namespace jose

} // namespace folio
