// net/jose.h: the signing keys Folio takes (and the ones it refuses, each with a reason), JWS
// signatures checked independently with OpenSSL from the public JWK, RFC 7638's thumbprint vector,
// and the claims of a DPoP proof (RFC 9449 §4.2) and a client assertion (RFC 7523 §3). The keys are
// test keys in tests/fixtures/jose.
#include "jose.h"
#include "josecheck.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QTest>

#include <cstdio>

using namespace folio;

namespace {

QByteArray fixture(const QString &name)
{
    QFile file(QStringLiteral(FOLIO_SOURCE_DIR "/tests/fixtures/jose/") + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QString sha256Url(const QString &text)
{
    return QString::fromLatin1(
        jose::base64Url(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256)));
}

} // namespace

class tst_Jose : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void es256SignVerify();
    void fromPem_data();
    void fromPem();
    void fromPemRefused_data();
    void fromPemRefused();
    void thumbprintRfc7638();
    void dpopProof();
    void dpopProofWithoutToken();
    void clientAssertion();
    void decodeJws_data();
    void decodeJws();
};

void tst_Jose::initTestCase()
{
    // An encrypted key must be refused, never prompted for: with stdin at end of file a prompt
    // could not be answered anyway, and the encrypted row checks that none is shown.
    QVERIFY(std::freopen("/dev/null", "r", stdin));
}

void tst_Jose::es256SignVerify()
{
    const SigningKey key = SigningKey::generateEs256();
    QVERIFY(!key.isNull());
    QCOMPARE(key.algorithm(), QStringLiteral("ES256"));
    const QByteArray input = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJmb2xpbyJ9";
    const QByteArray signature = key.sign(input);
    QCOMPARE(signature.size(), 64); // R || S, not DER
    QVERIFY(key.verify(input, signature));
    QVERIFY(!key.verify(input + 'x', signature));
    QByteArray flipped = signature;
    flipped[10] = char(flipped.at(10) ^ 0x01);
    QVERIFY(!key.verify(input, flipped));
    QVERIFY(!key.verify(input, signature.left(63)));
    QVERIFY(!key.verify(input, {}));
    // Another key does not verify it; each key is new.
    const SigningKey other = SigningKey::generateEs256();
    QVERIFY(!other.verify(input, signature));
    QVERIFY(other.thumbprint() != key.thumbprint());
    // The public JWK has no private member, and OpenSSL alone verifies a JWS with it.
    const QJsonObject jwk = key.publicJwk();
    QCOMPARE(jwk.value(QStringLiteral("kty")).toString(), QStringLiteral("EC"));
    QCOMPARE(jwk.value(QStringLiteral("crv")).toString(), QStringLiteral("P-256"));
    QVERIFY(!jwk.contains(QStringLiteral("d")));
    const QString jws = jose::signJwt(key, {}, {{QStringLiteral("sub"), QStringLiteral("folio")}});
    QString why;
    QVERIFY2(josecheck::verifyWithJwk(jws, jwk, &why), qPrintable(why));
    QVERIFY(!josecheck::verifyWithJwk(jws, other.publicJwk()));
    // The private PEM reads back as the same key.
    const SigningKey again = SigningKey::fromPem(key.privatePem());
    QVERIFY(!again.isNull());
    QCOMPARE(again.thumbprint(), key.thumbprint());
    QVERIFY(again.verify(input, signature));
    // A null key signs nothing and verifies nothing.
    const SigningKey none;
    QVERIFY(none.sign(input).isEmpty());
    QVERIFY(!none.verify(input, signature));
    QVERIFY(jose::signJwt(none, {}, {}).isEmpty());
    QVERIFY(none.thumbprint().isEmpty());
}

void tst_Jose::fromPem_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("alg");
    QTest::addColumn<QString>("crv"); // empty: RSA
    QTest::addColumn<int>("signatureBytes");
    QTest::addRow("p256_pkcs8") << "p256-pkcs8.pem"
                                << "ES256"
                                << "P-256" << 64;
    QTest::addRow("p256_ec") << "p256-ec.pem"
                             << "ES256"
                             << "P-256" << 64;
    QTest::addRow("p384_pkcs8") << "p384-pkcs8.pem"
                                << "ES384"
                                << "P-384" << 96;
    QTest::addRow("p384_ec") << "p384-ec.pem"
                             << "ES384"
                             << "P-384" << 96;
    QTest::addRow("p521_pkcs8") << "p521-pkcs8.pem"
                                << "ES512"
                                << "P-521" << 132;
    QTest::addRow("p521_ec") << "p521-ec.pem"
                             << "ES512"
                             << "P-521" << 132;
    QTest::addRow("rsa2048_pkcs8") << "rsa2048-pkcs8.pem"
                                   << "RS256"
                                   << "" << 256;
    QTest::addRow("rsa2048_traditional") << "rsa2048-rsa.pem"
                                         << "RS256"
                                         << "" << 256;
}

void tst_Jose::fromPem()
{
    QFETCH(QString, file);
    QFETCH(QString, alg);
    QFETCH(QString, crv);
    QFETCH(int, signatureBytes);
    const QByteArray pem = fixture(file);
    QVERIFY2(!pem.isEmpty(), qPrintable(file));
    QString error;
    const SigningKey key = SigningKey::fromPem(pem, &error);
    QVERIFY2(!key.isNull(), qPrintable(error));
    QCOMPARE(key.algorithm(), alg);
    const QJsonObject jwk = key.publicJwk();
    QVERIFY(!jwk.contains(QStringLiteral("d")));
    QVERIFY(!jwk.contains(QStringLiteral("p")));
    if (crv.isEmpty()) {
        QCOMPARE(jwk.value(QStringLiteral("kty")).toString(), QStringLiteral("RSA"));
        QCOMPARE(jwk.value(QStringLiteral("e")).toString(), QStringLiteral("AQAB"));
        QCOMPARE(josecheck::fromBase64Url(jwk.value(QStringLiteral("n")).toString()).size(), 256);
    } else {
        QCOMPARE(jwk.value(QStringLiteral("kty")).toString(), QStringLiteral("EC"));
        QCOMPARE(jwk.value(QStringLiteral("crv")).toString(), crv);
        // Coordinates at their full width, leading zeros kept (RFC 7518 §6.2.1.2).
        QCOMPARE(josecheck::fromBase64Url(jwk.value(QStringLiteral("x")).toString()).size(),
                 signatureBytes / 2);
        QCOMPARE(josecheck::fromBase64Url(jwk.value(QStringLiteral("y")).toString()).size(),
                 signatureBytes / 2);
    }
    const QByteArray input = "header.claims";
    const QByteArray signature = key.sign(input);
    QCOMPARE(signature.size(), signatureBytes);
    QVERIFY(key.verify(input, signature));
    QVERIFY(!key.verify("header.claimz", signature));
    const QString jws = jose::signJwt(key, {{QStringLiteral("typ"), QStringLiteral("JWT")}},
                                      {{QStringLiteral("iss"), QStringLiteral("folio")}});
    QCOMPARE(josecheck::part(jws, 0).value(QStringLiteral("alg")).toString(), alg);
    QString why;
    QVERIFY2(josecheck::verifyWithJwk(jws, jwk, &why), qPrintable(why));
    // PKCS #8 out, the same key back in.
    const QByteArray out = key.privatePem();
    QVERIFY(out.startsWith("-----BEGIN PRIVATE KEY-----"));
    QCOMPARE(SigningKey::fromPem(out).thumbprint(), key.thumbprint());
}

void tst_Jose::fromPemRefused_data()
{
    QTest::addColumn<QByteArray>("pem");
    QTest::addColumn<QString>("errorPart");
    QTest::addRow("rsa1024") << fixture(QStringLiteral("rsa1024-pkcs8.pem")) << "1024 bits";
    QTest::addRow("encrypted") << fixture(QStringLiteral("p256-encrypted.pem")) << "unencrypted";
    QTest::addRow("public_only") << fixture(QStringLiteral("p256-public.pem")) << "not a PEM private key";
    QTest::addRow("ed25519") << fixture(QStringLiteral("ed25519-pkcs8.pem")) << "neither EC nor RSA";
    QTest::addRow("secp256k1") << fixture(QStringLiteral("secp256k1-pkcs8.pem")) << "secp256k1";
    QTest::addRow("garbage") << QByteArray("not a key at all \x01\x02\xff") << "not a PEM private key";
    QTest::addRow("empty") << QByteArray() << "not a PEM private key";
    QTest::addRow("armour_only") << QByteArray("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n")
                                 << "not a PEM private key";
    QTest::addRow("bad_base64") << QByteArray(
                                       "-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n")
                                << "not a PEM private key";
    QByteArray blob = "-----BEGIN PRIVATE KEY-----\n";
    while (blob.size() < 70 * 1024)
        blob += QByteArray(64, 'A') + '\n';
    blob += "-----END PRIVATE KEY-----\n";
    QTest::addRow("blob_70KiB") << blob << "64 KiB";
}

void tst_Jose::fromPemRefused()
{
    QFETCH(QByteArray, pem);
    QFETCH(QString, errorPart);
    QString error;
    const SigningKey key = SigningKey::fromPem(pem, &error);
    QVERIFY(key.isNull());
    QVERIFY(!error.isEmpty());
    QVERIFY2(error.contains(errorPart), qPrintable(error));
    QVERIFY(key.algorithm().isEmpty());
    QVERIFY(key.publicJwk().isEmpty());
    QVERIFY(key.privatePem().isEmpty());
    QVERIFY(key.sign("x").isEmpty());
    // Without an error to fill: still refused, no crash.
    QVERIFY(SigningKey::fromPem(pem).isNull());
}

void tst_Jose::thumbprintRfc7638()
{
    // RFC 7638 §3.1: the RSA key of the example and its SHA-256 thumbprint. Members beyond the
    // required ones (alg, kid) do not count, nor does their order.
    const QString n = QStringLiteral("0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7a"
                                     "PFFxuhDR1L6tSoc_BJECPebWKRXjBZCiF"
                                     "V4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_"
                                     "FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0"
                                     "zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-"
                                     "bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csF"
                                     "Cur-kEgU8awapJzKnqDKgw");
    const QString expected = QStringLiteral("NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");
    QCOMPARE(jose::thumbprint({{QStringLiteral("kty"), QStringLiteral("RSA")},
                               {QStringLiteral("n"), n},
                               {QStringLiteral("e"), QStringLiteral("AQAB")}}),
             expected);
    QCOMPARE(jose::thumbprint({{QStringLiteral("e"), QStringLiteral("AQAB")},
                               {QStringLiteral("kty"), QStringLiteral("RSA")},
                               {QStringLiteral("n"), n},
                               {QStringLiteral("alg"), QStringLiteral("RS256")},
                               {QStringLiteral("kid"), QStringLiteral("2011-04-29")}}),
             expected);
    QVERIFY(jose::thumbprint({}).isEmpty());

    // A key's thumbprint is that of its public JWK.
    const SigningKey key = SigningKey::generateEs256();
    QCOMPARE(key.thumbprint(), jose::thumbprint(key.publicJwk()));
    QCOMPARE(josecheck::fromBase64Url(key.thumbprint()).size(), 32);
    const SigningKey rsa = SigningKey::fromPem(fixture(QStringLiteral("rsa2048-pkcs8.pem")));
    QVERIFY(!rsa.isNull());
    QCOMPARE(rsa.thumbprint(), jose::thumbprint(rsa.publicJwk()));
}

void tst_Jose::dpopProof()
{
    const SigningKey key = SigningKey::generateEs256();
    const QUrl url(QStringLiteral("https://user:pw@rs.example.com:8443/mcp/v1?session=abc&x=1#frag"));
    const QString token = QStringLiteral("access-token-0123456789");
    const qint64 now = 1765000000;
    const QString proof = jose::dpopProof(key, "POST", url, token, QStringLiteral("nonce-1"), now);
    QVERIFY(!proof.isEmpty());

    const QJsonObject header = josecheck::part(proof, 0);
    QCOMPARE(header.value(QStringLiteral("typ")).toString(), QStringLiteral("dpop+jwt"));
    QCOMPARE(header.value(QStringLiteral("alg")).toString(), QStringLiteral("ES256"));
    const QJsonObject jwk = header.value(QStringLiteral("jwk")).toObject();
    QCOMPARE(jwk, key.publicJwk());
    QVERIFY(!jwk.contains(QStringLiteral("d")));
    QCOMPARE(jose::thumbprint(jwk), key.thumbprint());

    const QJsonObject claims = josecheck::part(proof, 1);
    QVERIFY(claims.value(QStringLiteral("jti")).toString().size() >= 16);
    QCOMPARE(claims.value(QStringLiteral("htm")).toString(), QStringLiteral("POST"));
    QCOMPARE(claims.value(QStringLiteral("htu")).toString(),
             QStringLiteral("https://rs.example.com:8443/mcp/v1"));
    QCOMPARE(claims.value(QStringLiteral("iat")).toInteger(), now);
    QCOMPARE(claims.value(QStringLiteral("ath")).toString(), sha256Url(token));
    QCOMPARE(claims.value(QStringLiteral("nonce")).toString(), QStringLiteral("nonce-1"));

    // Signed by the key, checked by OpenSSL from the header's own JWK as a server would.
    QString why;
    QVERIFY2(josecheck::verifyWithJwk(proof, jwk, &why), qPrintable(why));
    const QStringList parts = proof.split(QLatin1Char('.'));
    QVERIFY(key.verify((parts.at(0) + QLatin1Char('.') + parts.at(1)).toLatin1(),
                       josecheck::fromBase64Url(parts.at(2))));

    // Each proof is new: another jti for the same request.
    const QString second = jose::dpopProof(key, "POST", url, token, QStringLiteral("nonce-1"), now);
    QVERIFY(second != proof);
    QVERIFY(josecheck::part(second, 1).value(QStringLiteral("jti")).toString() !=
            claims.value(QStringLiteral("jti")).toString());

    // jose::decodeJws reads the same.
    const QJsonObject decoded = jose::decodeJws(proof);
    QCOMPARE(decoded.value(QStringLiteral("header")).toObject(), header);
    QCOMPARE(decoded.value(QStringLiteral("claims")).toObject(), claims);
}

void tst_Jose::dpopProofWithoutToken()
{
    // The token request's proof: no access token yet, and no nonce until the server asks for one.
    const SigningKey key = SigningKey::generateEs256();
    const QString proof =
        jose::dpopProof(key, "GET", QUrl(QStringLiteral("http://127.0.0.1:4000/token")), {}, {}, 1765000000);
    const QJsonObject claims = josecheck::part(proof, 1);
    QCOMPARE(claims.value(QStringLiteral("htm")).toString(), QStringLiteral("GET"));
    QCOMPARE(claims.value(QStringLiteral("htu")).toString(), QStringLiteral("http://127.0.0.1:4000/token"));
    QVERIFY(!claims.contains(QStringLiteral("ath")));
    QVERIFY(!claims.contains(QStringLiteral("nonce")));
    QVERIFY(claims.contains(QStringLiteral("jti")));
    QVERIFY(josecheck::verifyWithJwk(proof, key.publicJwk()));
    // A null key makes no proof.
    QVERIFY(
        jose::dpopProof(SigningKey(), "GET", QUrl(QStringLiteral("http://127.0.0.1/")), {}, {}, 1).isEmpty());
}

void tst_Jose::clientAssertion()
{
    const SigningKey key = SigningKey::fromPem(fixture(QStringLiteral("p256-pkcs8.pem")));
    QVERIFY(!key.isNull());
    const qint64 now = 1765000000;
    const QString issuer = QStringLiteral("https://as.example.com");
    const QString assertion = jose::clientAssertion(key, QStringLiteral("folio-machine"), issuer, now);
    const QJsonObject header = josecheck::part(assertion, 0);
    QCOMPARE(header.value(QStringLiteral("alg")).toString(), QStringLiteral("ES256"));
    QCOMPARE(header.value(QStringLiteral("typ")).toString(), QStringLiteral("JWT"));
    QVERIFY(!header.contains(QStringLiteral("jwk")));
    const QJsonObject claims = josecheck::part(assertion, 1);
    QCOMPARE(claims.value(QStringLiteral("iss")).toString(), QStringLiteral("folio-machine"));
    QCOMPARE(claims.value(QStringLiteral("sub")).toString(), QStringLiteral("folio-machine"));
    QCOMPARE(claims.value(QStringLiteral("aud")).toString(), issuer);
    QCOMPARE(claims.value(QStringLiteral("iat")).toInteger(), now);
    QCOMPARE(claims.value(QStringLiteral("exp")).toInteger(), now + 300);
    QVERIFY(claims.value(QStringLiteral("exp")).toInteger() >
            claims.value(QStringLiteral("iat")).toInteger());
    QVERIFY(!claims.value(QStringLiteral("jti")).toString().isEmpty());
    QString why;
    QVERIFY2(josecheck::verifyWithJwk(assertion, key.publicJwk(), &why), qPrintable(why));
    // jti is new each time (RFC 7523 §3: the server may refuse a repeated one).
    const QString again = jose::clientAssertion(key, QStringLiteral("folio-machine"), issuer, now, 60);
    QVERIFY(josecheck::part(again, 1).value(QStringLiteral("jti")).toString() !=
            claims.value(QStringLiteral("jti")).toString());
    QCOMPARE(josecheck::part(again, 1).value(QStringLiteral("exp")).toInteger(), now + 60);
    // RS256 with an RSA key.
    const SigningKey rsa = SigningKey::fromPem(fixture(QStringLiteral("rsa2048-rsa.pem")));
    const QString rsaAssertion = jose::clientAssertion(rsa, QStringLiteral("c"), issuer, now);
    QCOMPARE(josecheck::part(rsaAssertion, 0).value(QStringLiteral("alg")).toString(),
             QStringLiteral("RS256"));
    QVERIFY(josecheck::verifyWithJwk(rsaAssertion, rsa.publicJwk()));
}

void tst_Jose::decodeJws_data()
{
    QTest::addColumn<QString>("compact");
    QTest::addRow("empty") << QString();
    QTest::addRow("no_dots") << QStringLiteral("eyJhbGciOiJFUzI1NiJ9");
    QTest::addRow("two_parts") << QStringLiteral("eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ");
    QTest::addRow("four_parts") << QStringLiteral("a.b.c.d");
    QTest::addRow("dots_only") << QStringLiteral("..");
    QTest::addRow("not_base64") << QStringLiteral("!!!.@@@.###");
    QTest::addRow("base64_not_json") << QStringLiteral("bm90IGpzb24.bm90IGpzb24.c2ln");
    QTest::addRow("json_array") << QStringLiteral("WzEsMl0.WzEsMl0.c2ln");
    QTest::addRow("non_latin1") << QStringLiteral("ëÿ.\u4e2d.\U0001F600");
    QTest::addRow("huge") << QString(200000, QLatin1Char('A')) + QStringLiteral(".A.A");
}

void tst_Jose::decodeJws()
{
    QFETCH(QString, compact);
    const QJsonObject decoded = jose::decodeJws(compact);
    // Junk says nothing: either nothing at all, or a header and claims that are both empty.
    QVERIFY(decoded.value(QStringLiteral("header")).toObject().isEmpty());
    QVERIFY(decoded.value(QStringLiteral("claims")).toObject().isEmpty());
    if (compact.count(QLatin1Char('.')) != 2)
        QVERIFY(decoded.isEmpty());
}

QTEST_GUILESS_MAIN(tst_Jose)
#include "tst_jose.moc"
