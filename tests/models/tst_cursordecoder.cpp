#include "cursordecoder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

using namespace folio;
using namespace Qt::StringLiterals;

namespace {

// A layer tree in one line: "base64 > json(/c: base64 > json)". A lone child without a path continues
// the chain with " > "; children found inside a layer are listed with their paths.
QString shape(const CursorLayer &layer)
{
    QString out =
        layer.path.isEmpty() ? layer.kindName() : layer.path + QStringLiteral(": ") + layer.kindName();
    if (layer.children.size() == 1 && layer.children.constFirst().path.isEmpty())
        return out + QStringLiteral(" > ") + shape(layer.children.constFirst());
    if (!layer.children.isEmpty()) {
        QStringList parts;
        for (const CursorLayer &child : layer.children)
            parts.append(shape(child));
        out += QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
    }
    return out;
}

QString shape(const CursorDecoding &decoding)
{
    return decoding.layers.isEmpty() ? QString() : shape(decoding.layers.constFirst());
}

int treeDepth(const CursorLayer &layer)
{
    int deepest = 0;
    for (const CursorLayer &child : layer.children)
        deepest = qMax(deepest, treeDepth(child));
    return deepest + 1;
}

QString base64(const QByteArray &bytes)
{
    return QString::fromLatin1(bytes.toBase64());
}

// Every decoding, whatever the input, is one of the three well-formed verdicts and can be shown.
void checkWellFormed(const QString &cursor, const CursorDecoding &decoding)
{
    switch (decoding.verdict) {
    case CursorDecoding::Verdict::Empty:
        QVERIFY(cursor.isEmpty());
        QVERIFY(decoding.layers.isEmpty());
        QVERIFY(decoding.error.isEmpty());
        break;
    case CursorDecoding::Verdict::Decoded:
        QCOMPARE(decoding.layers.size(), 1);
        QVERIFY(decoding.error.isEmpty());
        // Each encoding adds one level, and JSON members or JWT parts one more.
        QVERIFY(treeDepth(decoding.layers.constFirst()) <= 2 * MaxCursorDecodingDepth + 2);
        break;
    case CursorDecoding::Verdict::Opaque:
        QVERIFY(!cursor.isEmpty());
        QVERIFY(decoding.layers.isEmpty());
        QVERIFY(!decoding.error.isEmpty());
        break;
    }
    QVERIFY(!decoding.summary().contains(QLatin1Char('\n')));
    QVERIFY(decoding.summary().size() <= 120);
    QVERIFY(!cursorDecodingToJson(decoding).isEmpty());
    QVERIFY(!maskCursor(cursor).isEmpty());
}

} // namespace

class tst_CursorDecoder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodes_data();
    void decodes();
    void opaque_data();
    void opaque();
    void jwtLikeParts();
    void prefixedValues_data();
    void prefixedValues();
    void nestingStopsAtDepthLimit();
    void exportsJson();
    void mask_data();
    void mask();
    void fuzzRandomInputs();
    void fuzzLongInputs();
};

void tst_CursorDecoder::decodes_data()
{
    QTest::addColumn<QString>("cursor");
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("summary");

    QTest::newRow("base64url_json") << u"eyJhZnRlciI6In5-fj8ifQ"_s << u"base64url > json"_s
                                    << u"{\"after\":\"~~~?\"}"_s;
    QTest::newRow("base64url_unpadded_json") << u"eyJvIjo0MH0"_s << u"base64url > json"_s << u"{\"o\":40}"_s;
    QTest::newRow("base64_padded_json") << u"eyJvIjo0MH0="_s << u"base64 > json"_s << u"{\"o\":40}"_s;
    QTest::newRow("base64_std_alphabet_json")
        << u"eyJpZCI6Ij4+PiJ9"_s << u"base64 > json"_s << u"{\"id\":\">>>\"}"_s;
    QTest::newRow("base64url_alphabet_json")
        << u"eyJpZCI6Ij4-PiJ9"_s << u"base64url > json"_s << u"{\"id\":\">>>\"}"_s;
    QTest::newRow("base64_text") << u"aGVsbG8gY3Vyc29y"_s << u"base64 > utf-8 text"_s << u"hello cursor"_s;
    QTest::newRow("base64_of_base64_json")
        << u"ZXlKdklqbzBNSDA9"_s << u"base64 > base64 > json"_s << u"{\"o\":40}"_s;
    QTest::newRow("nested_base64_in_json")
        << u"eyJjIjoiZXlKdklqbzBNSDA9IiwibiI6InBhZ2UyIn0="_s << u"base64 > json(/c: base64 > json)"_s
        << u"{\"c\":\"eyJvIjo0MH0=\",\"n\":\"page2\"}"_s;
    QTest::newRow("hex_text") << u"68656c6c6f20637572736f72"_s << u"hex > utf-8 text"_s << u"hello cursor"_s;
    QTest::newRow("hex_prefixed_offset") << u"6f66667365743a3430"_s << u"hex > prefixed"_s << u"offset:40"_s;
    QTest::newRow("percent_json") << u"%7B%22o%22%3A40%7D"_s << u"percent-encoded > json"_s
                                  << u"{\"o\":40}"_s;
    QTest::newRow("percent_text") << u"hello%20world"_s << u"percent-encoded > utf-8 text"_s
                                  << u"hello world"_s;
    QTest::newRow("jwt_like")
        << u"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvIjo0MH0.yMnKy8zNzs_Q0dLT1NXW19jZ2tvc3d7f4OHi4-Tl5uc"_s
        << u"jwt-like(/0: base64url > json, /1: base64url > json)"_s
        << u"{\"alg\":\"HS256\",\"typ\":\"JWT\"}.{\"o\":40}.…"_s;
    QTest::newRow("prefixed_offset") << u"offset=40"_s << u"prefixed"_s << u"offset=40"_s;
    QTest::newRow("prefixed_colon") << u"o:123"_s << u"prefixed"_s << u"o:123"_s;
    QTest::newRow("prefixed_base64_value")
        << u"v1:eyJvIjo0MH0"_s << u"prefixed > base64url > json"_s << u"v1:{\"o\":40}"_s;
    QTest::newRow("word_with_number_is_prefixed_not_base64") << u"page2"_s << u"prefixed"_s << u"page2"_s;
    QTest::newRow("decimal_number_is_prefixed_not_base64") << u"40"_s << u"prefixed"_s << u"40"_s;
    QTest::newRow("raw_json_cursor") << u"{\"o\": 40}"_s << u"json"_s << u"{\"o\":40}"_s;
    QTest::newRow("empty_string_cursor") << QString() << QString() << u"\"\""_s;
}

void tst_CursorDecoder::decodes()
{
    QFETCH(QString, cursor);
    QFETCH(QString, shape);
    QFETCH(QString, summary);

    const CursorDecoding decoding = decodeCursor(cursor);
    checkWellFormed(cursor, decoding);
    QCOMPARE(decoding.verdict,
             cursor.isEmpty() ? CursorDecoding::Verdict::Empty : CursorDecoding::Verdict::Decoded);
    QCOMPARE(::shape(decoding), shape);
    QCOMPARE(decoding.summary(), summary);
    QCOMPARE(decoding.error, QString());
}

void tst_CursorDecoder::opaque_data()
{
    QTest::addColumn<QString>("cursor");
    QTest::addColumn<QString>("error");

    QTest::newRow("opaque_dot_at_offset_7") << u"abcdefg.hij"_s << u"not base64: '.' at offset 7"_s;
    QTest::newRow("invalid_utf8")
        << base64(QByteArray("abc\xff"
                             "defghijk"))
        << u"base64 decoded to 12 bytes that are not UTF-8 (invalid byte 0xff at offset 3)"_s;
    QTest::newRow("invalid_utf8_base64url")
        << u"YWJj_2RlZmdoaWpr"_s
        << u"base64url decoded to 12 bytes that are not UTF-8 (invalid byte 0xff at offset 3)"_s;
    QTest::newRow("truncated_utf8")
        << base64(QByteArray("ab\xe2\x82"))
        << u"base64 decoded to 4 bytes that are not UTF-8 (sequence cut short at offset 2)"_s;
    QTest::newRow("control_character")
        << u"YWIBY2RlZmc="_s
        << u"base64 decoded to 8 bytes that are not printable text (control character U+0001 at offset 2)"_s;
    QTest::newRow("plain_word_too_short") << u"abc"_s << u"not base64: too short to tell (3 characters)"_s;
    QTest::newRow("plain_word_not_utf8")
        << u"hello"_s << u"not base64: 5 characters leave a dangling character at offset 4"_s;
    QTest::newRow("space_in_cursor") << u"two words"_s << u"not base64: ' ' at offset 3"_s;
    QTest::newRow("control_char_in_cursor") << u"ab\u0001cd"_s << u"not base64: U+0001 at offset 2"_s;
    QTest::newRow("data_after_padding") << u"YQ==YQ"_s << u"not base64: 'Y' at offset 4 after padding"_s;
    QTest::newRow("too_much_padding")
        << u"YWJjZA==="_s << u"not base64: 3 padding characters at offset 6 do not fit 6 data characters"_s;
    QTest::newRow("mixed_alphabets")
        << u"ab+cd_ef"_s << u"not base64: '_' at offset 5 mixes the base64 and base64url alphabets"_s;
    QTest::newRow("non_zero_trailing_bits")
        << u"YR=="_s << u"not base64: 'R' at offset 1 leaves non-zero trailing bits"_s;
    QTest::newRow("hex_not_text")
        << u"deadbeef"_s << u"hex decoded to 4 bytes that are not UTF-8 (invalid byte 0xbe at offset 2)"_s;
    QTest::newRow("percent_bad_escape")
        << u"a%zzb"_s << u"not percent-encoded: '%' at offset 1 is not followed by two hex digits"_s;
    QTest::newRow("percent_not_utf8")
        << u"ab%FFcd"_s
        << u"percent-encoding decoded to 5 bytes that are not UTF-8 (invalid byte "
           u"0xff at offset 2)"_s;
    QTest::newRow("broken_json") << u"{\"o\":"_s << u"not JSON: unterminated object at offset 5"_s;
    QTest::newRow("too_long") << QString(MaxDecodedCursorLength + 1, QLatin1Char('A'))
                              << u"not decoded: 65537 characters, more than the 65536 that are looked into"_s;
}

void tst_CursorDecoder::opaque()
{
    QFETCH(QString, cursor);
    QFETCH(QString, error);

    const CursorDecoding decoding = decodeCursor(cursor);
    checkWellFormed(cursor, decoding);
    QCOMPARE(decoding.verdict, CursorDecoding::Verdict::Opaque);
    QCOMPARE(decoding.error, error);
    QCOMPARE(decoding.summary(), u"opaque"_s);
}

void tst_CursorDecoder::jwtLikeParts()
{
    const CursorDecoding decoding = decodeCursor(
        u"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvIjo0MH0.yMnKy8zNzs_Q0dLT1NXW19jZ2tvc3d7f4OHi4-Tl5uc"_s);
    QCOMPARE(decoding.verdict, CursorDecoding::Verdict::Decoded);
    const CursorLayer &jwt = decoding.layers.constFirst();
    QCOMPARE(jwt.kind, CursorLayer::Kind::JwtLike);
    const QJsonObject info = jwt.json.toObject();
    QCOMPARE(info.value(u"parts"_s).toInt(), 3);
    QCOMPARE(info.value(u"opaque"_s).toObject().value(u"2"_s).toString(),
             u"base64url decoded to 32 bytes that are not UTF-8 (invalid byte 0xc9 at offset 1)"_s);
    QCOMPARE(jwt.children.at(1).children.constFirst().json, QJsonValue(QJsonObject{{u"o"_s, 40}}));
}

void tst_CursorDecoder::prefixedValues_data()
{
    QTest::addColumn<QString>("cursor");
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("separator");
    QTest::addColumn<QJsonValue>("value");

    QTest::newRow("prefixed_offset") << u"offset=40"_s << u"offset"_s << u"="_s << QJsonValue(40);
    QTest::newRow("prefixed_colon") << u"o:123"_s << u"o"_s << u":"_s << QJsonValue(123);
    QTest::newRow("prefixed_text_value")
        << u"after:item-17"_s << u"after"_s << u":"_s << QJsonValue(u"item-17"_s);
    QTest::newRow("word_then_number") << u"page2"_s << u"page"_s << QString() << QJsonValue(2);
    QTest::newRow("word_underscore_number") << u"page_12"_s << u"page"_s << u"_"_s << QJsonValue(12);
    QTest::newRow("bare_number") << u"40"_s << QString() << QString() << QJsonValue(40);
    QTest::newRow("negative_number") << u"-1"_s << QString() << QString() << QJsonValue(-1);
}

void tst_CursorDecoder::prefixedValues()
{
    QFETCH(QString, cursor);
    QFETCH(QString, prefix);
    QFETCH(QString, separator);
    QFETCH(QJsonValue, value);

    const CursorDecoding decoding = decodeCursor(cursor);
    QCOMPARE(decoding.verdict, CursorDecoding::Verdict::Decoded);
    const CursorLayer &layer = decoding.layers.constFirst();
    QCOMPARE(layer.kind, CursorLayer::Kind::Prefixed);
    const QJsonObject info = layer.json.toObject();
    QCOMPARE(info.value(u"prefix"_s).toString(), prefix);
    QCOMPARE(info.value(u"separator"_s).toString(), separator);
    QCOMPARE(info.value(u"value"_s), value);
}

void tst_CursorDecoder::nestingStopsAtDepthLimit()
{
    QByteArray encoded("{\"o\":40}");
    for (int i = 0; i < 3 * MaxCursorDecodingDepth; ++i)
        encoded = encoded.toBase64();
    const CursorDecoding decoding = decodeCursor(QString::fromLatin1(encoded));
    QCOMPARE(decoding.verdict, CursorDecoding::Verdict::Decoded);
    const CursorLayer *layer = &decoding.layers.constFirst();
    int base64Layers = 0;
    while (layer->kind == CursorLayer::Kind::Base64) {
        ++base64Layers;
        QCOMPARE(layer->children.size(), 1);
        layer = &layer->children.constFirst();
    }
    QCOMPARE(base64Layers, MaxCursorDecodingDepth);
    // Where decoding stops, what is left is shown as text.
    QCOMPARE(layer->kind, CursorLayer::Kind::Utf8Text);
    QVERIFY(layer->children.isEmpty());
}

void tst_CursorDecoder::exportsJson()
{
    const QJsonObject decoded = cursorDecodingToJson(decodeCursor(u"eyJvIjo0MH0"_s));
    const QJsonObject expected = QJsonDocument::fromJson(R"({
        "verdict": "decoded", "nonNormative": true, "summary": "{\"o\":40}",
        "layers": [{"kind": "base64url", "text": "{\"o\":40}", "children": [
            {"kind": "json", "text": "{\"o\":40}", "json": {"o": 40}, "children": []}]}]})")
                                     .object();
    QCOMPARE(decoded, expected);

    const QJsonObject opaque = cursorDecodingToJson(decodeCursor(u"abcdefg.hij"_s));
    QCOMPARE(opaque.value(u"verdict"_s).toString(), u"opaque"_s);
    QCOMPARE(opaque.value(u"error"_s).toString(), u"not base64: '.' at offset 7"_s);
    QCOMPARE(opaque.value(u"layers"_s).toArray().size(), 0);

    const QJsonObject empty = cursorDecodingToJson(decodeCursor(QString()));
    QCOMPARE(empty.value(u"verdict"_s).toString(), u"empty"_s);
    QVERIFY(!empty.contains(u"error"_s));
}

void tst_CursorDecoder::mask_data()
{
    QTest::addColumn<QString>("cursor");
    QTest::addColumn<QString>("masked");

    QTest::newRow("empty_string_cursor") << QString() << u"\"\""_s;
    QTest::newRow("keeps_first_four") << u"eyJvIjo0MH0"_s << u"eyJv… (11 chars)"_s;
    QTest::newRow("short_keeps_half") << u"o:40"_s << u"o:… (4 chars)"_s;
    QTest::newRow("single_char") << u"x"_s << u"… (1 char)"_s;
    QTest::newRow("no_split_surrogate") << u"😀😀😀"_s << u"😀… (6 chars)"_s;
}

void tst_CursorDecoder::mask()
{
    QFETCH(QString, cursor);
    QFETCH(QString, masked);
    QCOMPARE(maskCursor(cursor), masked);
}

void tst_CursorDecoder::fuzzRandomInputs()
{
    // A new seed each run widens the search; FOLIO_FUZZ_SEED replays a failing one.
    bool fixed = false;
    const quint32 fixedSeed = qEnvironmentVariable("FOLIO_FUZZ_SEED").toUInt(&fixed);
    const quint32 seed = fixed ? fixedSeed : QRandomGenerator::global()->generate();
    qInfo("seed %u (set FOLIO_FUZZ_SEED to replay)", seed);
    QRandomGenerator random(seed);
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_=.%:{}[]\"";
    for (int round = 0; round < 3000; ++round) {
        const int length = random.bounded(0, 300);
        QString cursor;
        switch (round % 4) {
        case 0: { // raw UTF-16 units, lone surrogates included
            for (int i = 0; i < length; ++i)
                cursor.append(QChar(char16_t(random.bounded(0, 0x10000))));
            break;
        }
        case 1: { // random bytes read as UTF-8
            QByteArray bytes(length, Qt::Uninitialized);
            for (char &b : bytes)
                b = char(random.bounded(0, 256));
            cursor = QString::fromUtf8(bytes);
            break;
        }
        case 2: { // the characters that encodings are made of
            for (int i = 0; i < length; ++i)
                cursor.append(QLatin1Char(alphabet[random.bounded(0, int(sizeof alphabet) - 1)]));
            break;
        }
        case 3: { // random bytes, base64-encoded once or twice: the decoder must follow or stop cleanly
            QByteArray bytes(length, Qt::Uninitialized);
            for (char &b : bytes)
                b = char(random.bounded(0x20, 0x7f));
            bytes = bytes.toBase64(random.bounded(0, 2) ? QByteArray::Base64UrlEncoding
                                                        : QByteArray::Base64Encoding);
            if (random.bounded(0, 2))
                bytes = bytes.toBase64();
            cursor = QString::fromLatin1(bytes);
            break;
        }
        }
        const CursorDecoding decoding = decodeCursor(cursor);
        checkWellFormed(cursor, decoding);
        if (QTest::currentTestFailed()) {
            qWarning() << "round" << round << "cursor" << cursor;
            return;
        }
    }
}

void tst_CursorDecoder::fuzzLongInputs()
{
    QList<QString> inputs;
    inputs.append(QString(MaxDecodedCursorLength, QLatin1Char('A')));
    inputs.append(QString(MaxDecodedCursorLength, QLatin1Char('.')));
    inputs.append(QString(MaxDecodedCursorLength, QLatin1Char('%')));
    inputs.append(QString(MaxDecodedCursorLength * 16, QLatin1Char('e')));
    inputs.append(QString(MaxDecodedCursorLength / 2, QLatin1Char('[')));
    inputs.append(QString(MaxDecodedCursorLength / 2, QLatin1Char('[')) +
                  QString(MaxDecodedCursorLength / 2, QLatin1Char(']')));
    inputs.append(QString(MaxDecodedCursorLength - 2, QLatin1Char('6')) + QStringLiteral("31"));

    // Many encoded members, each itself encoded JSON: the layer budget keeps the tree small.
    QJsonArray members;
    const QString member = QString::fromLatin1(QByteArray("{\"o\":40}").toBase64());
    // Each member costs its quotes and a comma.
    for (qsizetype size = 2; size + member.size() + 3 < MaxDecodedCursorLength; size += member.size() + 3)
        members.append(member);
    inputs.append(QString::fromUtf8(QJsonDocument(members).toJson(QJsonDocument::Compact)));

    // Base64 nested until it nearly fills the cap.
    QByteArray nested("{\"o\":40}");
    while (nested.toBase64().size() < MaxDecodedCursorLength)
        nested = nested.toBase64();
    inputs.append(QString::fromLatin1(nested));

    // A JWT-like cursor with many parts, and one with the most parts that count.
    QStringList parts(5, u"eyJvIjo0MH0"_s);
    inputs.append(parts.join(QLatin1Char('.')));
    inputs.append(QStringList(2000, u"eyJvIjo0MH0"_s).join(QLatin1Char('.')));

    for (const QString &cursor : std::as_const(inputs)) {
        const CursorDecoding decoding = decodeCursor(cursor);
        checkWellFormed(cursor, decoding);
    }

    const CursorDecoding many = decodeCursor(inputs.at(7));
    QCOMPARE(many.verdict, CursorDecoding::Verdict::Decoded);
    QVERIFY(many.layers.constFirst().children.size() < 600);

    const CursorDecoding fiveParts = decodeCursor(inputs.at(9));
    QCOMPARE(fiveParts.layers.constFirst().kind, CursorLayer::Kind::JwtLike);
}

QTEST_GUILESS_MAIN(tst_CursorDecoder)
#include "tst_cursordecoder.moc"
