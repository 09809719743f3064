#pragma once

#include <QByteArray>
#include <QString>
#include <QUrl>

namespace demo::dpop {

// The demo server's own check of a DPoP proof (RFC 9449 §4.3), on OpenSSL's libcrypto.
//
// Written here on purpose, not borrowed from Folio's net/jose: the demo server is the other side
// that Folio's DPoP client is tested against, and a check that shared the client's code would share
// its mistakes (a wrong thumbprint, a signature in the wrong form, a wrong htu) and pass them. So
// nothing of net/ is linked or included; the two meet only on the wire.
//
// Every input is bounded: a proof over maxProofBytes, a header or claims set nested deeper than
// maxJsonDepth, or a member over maxMemberChars is refused before it is used.

constexpr qsizetype maxProofBytes = 8 * 1024;
constexpr int maxJsonDepth = 4;
constexpr qsizetype maxMemberChars = 512;
constexpr qint64 maxSkewSeconds = 60; // iat may be this far from now either way

// What the request the proof came with must match.
struct Expectation
{
    QByteArray method;   // htm
    QUrl url;            // htu, compared without query and fragment (RFC 3986 normalized)
    QString accessToken; // a resource request: ath must be its base64url SHA-256
    QString nonce;       // the server's nonce; empty: none wanted
    qint64 nowSeconds = 0;
};

// What a good proof says.
struct Proof
{
    QString thumbprint; // RFC 7638 SHA-256 of its jwk, base64url: the token's cnf.jkt
    QString jti;
};

enum class Verdict {
    Valid,
    Invalid,     // *why says what (invalid_dpop_proof)
    NonceNeeded, // good otherwise, but without the nonce wanted (use_dpop_nonce)
};

// Checks one DPoP header value. The jti's uniqueness is the caller's (it keeps the ones seen).
Verdict verify(const QByteArray &compact, const Expectation &expected, Proof *proof, QString *why);

// RFC 7638 thumbprint of an EC P-256 public key given as base64url x and y.
QString thumbprint(const QString &x, const QString &y);

// An access token's ath: base64url(SHA-256(token)).
QString accessTokenHash(const QString &token);

// htu's comparable form: scheme and host in lower case, no default port, no user info, query or
// fragment, dot segments removed, an empty path as "/".
QString normalizedUrl(const QUrl &url);

} // namespace demo::dpop
