// PageDecoder reads a list page reply with simdjson. Held to QJsonDocument: whatever it accepts,
// QJsonDocument accepts, and what it gives (items, rest of the message, id) is what QJsonDocument
// reads; what it refuses just takes the usual path, so a refusal is only wrong where a plain page
// would lose its fast path.
#include "pagedecoder.h"
#include "testjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <functional>

using namespace folio;

// JSON written with ' for ".
constexpr auto j = testsupport::singleQuotedJson;

class TestPageDecoder : public QObject
{
    Q_OBJECT

private:
    // A reply as the demo server writes it, around the given items text.
    static QByteArray page(const QByteArray &items, const char *key = "tools")
    {
        return j("{'jsonrpc':'2.0','id':7,'result':{'") + key + j("':") + items +
               j(",'nextCursor':'c2','ttlMs':5000,'cacheScope':'public'}}");
    }

    static QByteArray nested(int depth) { return QByteArray(depth, '[') + QByteArray(depth, ']'); }

    static QList<QByteArray> items(const DecodedReply &reply)
    {
        QList<QByteArray> out;
        for (qsizetype i = 0; i + 1 < reply.items.offsets.size(); ++i)
            out.append(reply.items.text.mid(reply.items.offsets[i],
                                            reply.items.offsets[i + 1] - reply.items.offsets[i]));
        return out;
    }

    // The oracle: a decoded reply is what QJsonDocument reads from the same bytes.
    static void compareWithQt(const QByteArray &raw, const QString &key, bool decoded,
                              const DecodedReply &reply)
    {
        if (!decoded) {
            QVERIFY2(reply.items.text.isEmpty() && reply.items.offsets.isEmpty() && reply.message.isEmpty(),
                     "a refusal leaves nothing behind");
            return;
        }
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(raw, &error);
        QVERIFY2(error.error == QJsonParseError::NoError && doc.isObject(), raw.constData());
        QJsonObject expected = doc.object();
        QJsonObject result = expected.value(QLatin1String("result")).toObject();
        const QJsonArray expectedItems = result.value(key).toArray();
        QCOMPARE(reply.items.offsets.size(), expectedItems.size() + 1);
        QCOMPARE(reply.items.offsets.first(), quint32(0));
        QCOMPARE(reply.items.offsets.last(), quint32(reply.items.text.size()));
        const QList<QByteArray> texts = items(reply);
        for (qsizetype i = 0; i < texts.size(); ++i) {
            QVERIFY2(testsupport::isCompactJson(texts[i]), texts[i].constData());
            const QJsonDocument one = QJsonDocument::fromJson('[' + texts[i] + ']');
            QVERIFY2(one.isArray() && one.array().size() == 1, texts[i].constData());
            QCOMPARE(one.array().at(0), expectedItems.at(i));
        }
        result.insert(key, QJsonArray());
        expected.insert(QLatin1String("result"), result);
        QCOMPARE(reply.message, expected);
        QCOMPARE(reply.id, expected.value(QLatin1String("id")));
    }

    // Random values written by QJsonDocument, strings built from pieces that trip a cutter.
    static QJsonValue randomValue(QRandomGenerator &rng, int depth)
    {
        static const QStringList pieces{
            QStringLiteral("a"),    QStringLiteral(" "),      QStringLiteral("\""),   QStringLiteral("\\"),
            QStringLiteral("]"),    QStringLiteral("}"),      QStringLiteral(","),    QStringLiteral("é"),
            QStringLiteral("\n"),   QStringLiteral("\u2603"), QStringLiteral("\\\""), QStringLiteral("😀"),
            QStringLiteral("\x01"), QStringLiteral("/")};
        auto text = [&] {
            QString s;
            for (int i = int(rng.bounded(6)); i > 0; --i)
                s += pieces.at(int(rng.bounded(pieces.size())));
            return s;
        };
        switch (rng.bounded(depth > 2 ? 5 : 7)) {
        case 0:
            return text();
        case 1:
            return rng.bounded(2000) - 1000.5;
        case 2:
            return qint64(rng.generate64() >> rng.bounded(64));
        case 3:
            return rng.bounded(2) == 0;
        case 4:
            return QJsonValue::Null;
        case 5: {
            QJsonArray a;
            for (int i = int(rng.bounded(4)); i > 0; --i)
                a.append(randomValue(rng, depth + 1));
            return a;
        }
        default: {
            QJsonObject o;
            for (int i = int(rng.bounded(4)); i > 0; --i)
                o.insert(text() + QString::number(i), randomValue(rng, depth + 1));
            return o;
        }
        }
    }

private Q_SLOTS:
    void decode_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QList<QByteArray>>("expected"); // the items' texts, when accepted

        using L = QList<QByteArray>;
        QTest::newRow("plain_page") << page(j("[{'name':'a','n':1},{'name':'b'}]")) << true
                                    << L{j("{'name':'a','n':1}"), j("{'name':'b'}")};
        QTest::newRow("pretty_printed")
            << QJsonDocument::fromJson(
                   page(j("[{'name':'a b','inputSchema':{'type':'object','required':['x']}}]")))
                   .toJson(QJsonDocument::Indented)
            << true << L{j("{'inputSchema':{'required':['x'],'type':'object'},'name':'a b'}")};
        QTest::newRow("whitespace_between_tokens_only")
            << page("[ { \"name\" : \"a b\\\" ]} \" ,\n \"n\" : [ 1 , 2.5e3 , true , null ] } ,\t\"s\" , 3 , "
                    "[ ] \n ]")
            << true << L{"{\"name\":\"a b\\\" ]} \",\"n\":[1,2.5e3,true,null]}", j("'s'"), "3", "[]"};
        QTest::newRow("result_before_id") // the TypeScript SDK's order
            << j("{'result':{'tools':[{'name':'a'}],'nextCursor':'x'},'jsonrpc':'2.0','id':'s-1'}") << true
            << L{j("{'name':'a'}")};
        QTest::newRow("scalar_items") << page(j("['s',-0,true,false,null,[],{}]")) << true
                                      << L{j("'s'"), "-0", "true", "false", "null", "[]", "{}"};
        QTest::newRow("numbers_kept_as_written")
            << page("[1.0,1E+2,-0.0e-0,12345678901234567890123,{\"n\":0.000e-999}]") << true
            << L{"1.0", "1E+2", "-0.0e-0", "12345678901234567890123", "{\"n\":0.000e-999}"};
        QTest::newRow("escapes_kept_as_written")
            << page("[\"\\u00e9\\/\\n\",{\"k\\u0041\":\"\\ud83d\\ude00\"},\"\\u0000\"]") << true
            << L{"\"\\u00e9\\/\\n\"", "{\"k\\u0041\":\"\\ud83d\\ude00\"}", "\"\\u0000\""};
        QTest::newRow("utf8_kept") << page("[\"caf\xc3\xa9 \xf0\x9f\x98\x80\"]") << true
                                   << L{"\"caf\xc3\xa9 \xf0\x9f\x98\x80\""};
        QTest::newRow("backslashes_before_quotes")
            << page("[{\"a\":\"x\\\\\"},{\"b\":\"y\\\\\\\"z\"},{\"c\":\"\\\\\\\\\"}]") << true
            << L{"{\"a\":\"x\\\\\"}", "{\"b\":\"y\\\\\\\"z\"}", "{\"c\":\"\\\\\\\\\"}"};
        QTest::newRow("empty_array") << page("[ ]") << true << L{};
        QTest::newRow("trailing_whitespace") << page("[1]") + " \r\n\t" << true << L{"1"};
        QTest::newRow("duplicate_id") << j("{'id':1,'result':{'tools':[2]},'id':3}") << true << L{"2"};
        QTest::newRow("duplicate_other_member")
            << j("{'id':1,'result':{'nextCursor':'a','tools':[2],'nextCursor':'b'}}") << true << L{"2"};
        // Names are compared unescaped, so an escaped name is read as what it is.
        QTest::newRow("escaped_member_name")
            << j("{'id':1,'result':{'t\\u006fols':[1],'x':1}}") << true << L{"1"};
        QTest::newRow("escaped_result_name") << j("{'id':1,'\\u0072esult':{'tools':[1]}}") << true << L{"1"};
        QTest::newRow("items_key_inside_an_item")
            << page(j("[{'tools':[9]}]")) << true << L{j("{'tools':[9]}")};
        // The message and its result hold two levels; the tools array and its items the others.
        QTest::newRow("deep_nesting_1024") << page(nested(1022)) << true << L{nested(1021)};
        QTest::newRow("deep_nesting_1025") << page(nested(1023)) << false << L{};
        QTest::newRow("deep_nesting_1024_in_envelope")
            << j("{'id':1,'result':{'tools':[],'_meta':") + nested(1022) + "}}" << true << L{};
        QTest::newRow("deep_nesting_1025_in_envelope")
            << j("{'id':1,'result':{'tools':[],'_meta':") + nested(1023) + "}}" << false << L{};
        const auto objects = [](int depth) {
            return QByteArray("{\"a\":").repeated(depth) + "1" + QByteArray(depth, '}');
        };
        QTest::newRow("deep_objects_1024") << page('[' + objects(1021) + ']') << true << L{objects(1021)};
        QTest::newRow("deep_objects_1025") << page('[' + objects(1022) + ']') << false << L{};
        QTest::newRow("deep_nesting_far_beyond") << page(nested(100000)) << false << L{};
        QTest::newRow("big_number") << page("[123456789012345678901234567890,1.7976931348623157e308]") << true
                                    << L{"123456789012345678901234567890", "1.7976931348623157e308"};

        // Refused where QJsonDocument refuses too.
        QTest::newRow("number_overflows") << page("[1e400]") << false << L{};
        QTest::newRow("number_overflows_in_envelope")
            << j("{'id':1e400,'result':{'tools':[]}}") << false << L{};
        QTest::newRow("number_underflows") << page("[1e-400]") << false << L{};
        QTest::newRow("number_underflows_below_denormals") << page("[2e-324]") << false << L{};
        QTest::newRow("integer_of_400_digits") << page("[1" + QByteArray(400, '0') + "]") << false << L{};
        // Found by tests/fuzz/fuzz_pagedecoder: simdjson 3.0.1 reads this one as 9.7e292.
        QTest::newRow("long_number_overflows")
            << page("[0.03456789012367890901234567787976931348623156e318]") << false << L{};
        QTest::newRow("long_number_in_range")
            << page("[0.03456789012367890901234567787976931348623156e300]") << true
            << L{"0.03456789012367890901234567787976931348623156e300"};
        QTest::newRow("leading_zero") << page("[01]") << false << L{};
        QTest::newRow("invalid_utf8_in_item") << page("[\"a\xff\"]") << false << L{};
        QTest::newRow("invalid_utf8_in_envelope")
            << j("{'id':1,'x':'\xc3','result':{'tools':[]}}") << false << L{};
        QTest::newRow("overlong_utf8") << page("[\"\xc0\xaf\"]") << false << L{};
        QTest::newRow("surrogate_utf8") << page("[\"\xed\xa0\x80\"]") << false << L{};
        QTest::newRow("truncated") << page(j("[{'a':'b'}]")).chopped(3) << false << L{};
        QTest::newRow("truncated_in_string") << j("{'id':1,'result':{'tools':['abc") << false << L{};
        QTest::newRow("trailing_garbage") << page("[1]") + "x" << false << L{};
        QTest::newRow("trailing_bracket") << page("[1]") + "]" << false << L{};
        QTest::newRow("two_objects") << page("[1]") + "{}" << false << L{};
        QTest::newRow("trailing_nul") << page("[1]") + QByteArray(1, '\0') << false << L{};
        QTest::newRow("trailing_comma") << page("[1,]") << false << L{};
        QTest::newRow("missing_comma") << page("[1 2]") << false << L{};
        QTest::newRow("missing_colon") << page(j("[{'a' 1}]")) << false << L{};
        QTest::newRow("missing_value") << page(j("[{'a':}]")) << false << L{};
        QTest::newRow("name_not_a_string") << page("[{a:1}]") << false << L{};
        QTest::newRow("unclosed_item") << page(j("[{'a':[1,2}]")) << false << L{};
        QTest::newRow("bad_literal") << page("[nul]") << false << L{};
        QTest::newRow("literal_run_on") << page("[truex]") << false << L{};
        QTest::newRow("empty") << QByteArray() << false << L{};
        QTest::newRow("only_whitespace") << QByteArray(" \n") << false << L{};

        // Refused for their shape: a reply, but not plainly a page of tools.
        QTest::newRow("duplicate_items_key")
            << j("{'id':1,'result':{'tools':[1],'tools':[2,3]}}") << false << L{};
        QTest::newRow("duplicate_items_key_escaped")
            << j("{'id':1,'result':{'tools':[1],'tool\\u0073':[2]}}") << false << L{};
        QTest::newRow("duplicate_result")
            << j("{'id':1,'result':{'tools':[1]},'result':{'tools':[2]}}") << false << L{};
        QTest::newRow("not_an_array") << j("{'id':1,'result':{'tools':{'a':1}}}") << false << L{};
        QTest::newRow("no_items_key") << j("{'id':1,'result':{'prompts':[1]}}") << false << L{};
        QTest::newRow("result_not_an_object") << j("{'id':1,'result':[1]}") << false << L{};
        QTest::newRow("error_response")
            << j("{'jsonrpc':'2.0','id':1,'error':{'code':-32601,'message':'no'}}") << false << L{};
        QTest::newRow("notification")
            << j("{'jsonrpc':'2.0','method':'notifications/tools/list_changed'}") << false << L{};
        QTest::newRow("no_id") << j("{'jsonrpc':'2.0','result':{'tools':[]}}") << false << L{};
        QTest::newRow("top_level_array") << j("[{'id':1,'result':{'tools':[]}}]") << false << L{};
        QTest::newRow("top_level_scalar") << QByteArray("1") << false << L{};

        // QJsonDocument (Qt 6.4) accepts these; the decoder is stricter, and such a reply takes
        // the usual path.
        QTest::newRow("qt_lenient_raw_tab_in_string") << page("[\"a\tb\"]") << false << L{};
        QTest::newRow("qt_lenient_unknown_escape") << page("[\"\\x\"]") << false << L{};
        QTest::newRow("qt_lenient_lone_surrogate_escape") << page("[\"\\ud800\"]") << false << L{};
        QTest::newRow("qt_lenient_fraction_without_digits") << page("[1.]") << false << L{};
        QTest::newRow("qt_lenient_number_without_integer_part") << page("[.5]") << false << L{};
        QTest::newRow("qt_lenient_byte_order_mark") << "\xef\xbb\xbf" + page("[1]") << false << L{};
        QTest::newRow("qt_lenient_exponent_of_25_digits")
            << page("[1e0000000000000000000001]") << false << L{};
    }

    void decode()
    {
        QFETCH(QByteArray, raw);
        QFETCH(bool, accepted);
        QFETCH(QList<QByteArray>, expected);
        PageDecoder decoder;
        DecodedReply reply;
        const bool decoded = decoder.decode(raw, "tools", &reply);
        QCOMPARE(decoded, accepted);
        compareWithQt(raw, QStringLiteral("tools"), decoded, reply);
        if (decoded)
            QCOMPARE(items(reply), expected);
    }

    // What the cases above assume of QJsonDocument in Qt 6.4: should an upgrade change it, the
    // decoder's limits must follow.
    void qtJsonDocumentEdges_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("arrays_1024_deep") << nested(1024) << true;
        QTest::newRow("arrays_1025_deep") << nested(1025) << false;
        QTest::newRow("objects_1024_deep")
            << QByteArray("{\"a\":").repeated(1023) + "{}" + QByteArray(1023, '}') << true;
        QTest::newRow("objects_1025_deep")
            << QByteArray("{\"a\":").repeated(1024) + "{}" + QByteArray(1024, '}') << false;
        QTest::newRow("integer_beyond_64_bits") << QByteArray("[123456789012345678901234567890]") << true;
        QTest::newRow("largest_double") << QByteArray("[1.7976931348623157e308]") << true;
        QTest::newRow("overflow") << QByteArray("[1.8e308]") << false;
        QTest::newRow("integer_overflowing_a_double") << "[1" + QByteArray(400, '0') + "]" << false;
        QTest::newRow("long_number_overflow")
            << QByteArray("[0.03456789012367890901234567787976931348623156e318]") << false;
        QTest::newRow("smallest_denormal") << QByteArray("[4.9e-324]") << true;
        QTest::newRow("underflow") << QByteArray("[2e-324]") << false;
        QTest::newRow("zero_with_huge_negative_exponent") << QByteArray("[0.000e-999]") << true;
        QTest::newRow("exponent_of_25_digits") << QByteArray("[1e0000000000000000000001]") << true;
        QTest::newRow("fraction_without_digits") << QByteArray("[1.]") << true;
        QTest::newRow("no_integer_part") << QByteArray("[.5]") << true;
        QTest::newRow("leading_zero") << QByteArray("[01]") << false;
        QTest::newRow("raw_tab_in_string") << QByteArray("[\"a\tb\"]") << true;
        QTest::newRow("unknown_escape") << QByteArray("[\"\\x\"]") << true;
        QTest::newRow("lone_surrogate_escape") << QByteArray("[\"\\ud800\"]") << true;
        QTest::newRow("byte_order_mark") << QByteArray("\xef\xbb\xbf[1]") << true;
        QTest::newRow("trailing_nul") << QByteArray("[1]\0", 4) << false;
    }

    void qtJsonDocumentEdges()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, accepted);
        QJsonParseError error;
        QJsonDocument::fromJson(text, &error);
        QCOMPARE(error.error == QJsonParseError::NoError, accepted);
    }

    void itemsKeyFromTheId()
    {
        PageDecoder decoder;
        DecodedReply reply;
        QList<QJsonValue> asked;
        const auto keyFor = [&](const QJsonValue &id) {
            asked.append(id);
            return id == QJsonValue(QStringLiteral("p\u00e9")) ? QByteArray("prompts") : QByteArray();
        };
        // The id after the result, written with an escape, and given twice: QJsonDocument keeps the last.
        const QByteArray raw = j("{'id':3,'result':{'prompts':[{'name':'a'}],'tools':[1]},'id':'p\\u00e9'}");
        QVERIFY(decoder.decode(raw, keyFor, &reply));
        QCOMPARE(asked, QList<QJsonValue>{QJsonValue(QStringLiteral("p\u00e9"))});
        QCOMPARE(items(reply), QList<QByteArray>{j("{'name':'a'}")});
        compareWithQt(raw, QStringLiteral("prompts"), true, reply);

        // An id that answers no list request, and one that is no id.
        QVERIFY(!decoder.decode(j("{'id':4,'result':{'prompts':[]}}"), keyFor, &reply));
        QCOMPARE(asked.size(), 2);
        asked.clear();
        QVERIFY(!decoder.decode(j("{'id':{'a':1},'result':{'prompts':[]}}"), keyFor, &reply));
        QVERIFY(!decoder.decode(j("{'result':{'prompts':[]}}"), keyFor, &reply));
        QVERIFY(asked.isEmpty());
        // The key is found, the rest is broken.
        QVERIFY(!decoder.decode(j("{'id':'p\\u00e9','result':{'prompts':[1,]}}"), keyFor, &reply));
        QVERIFY(reply.items.offsets.isEmpty());
    }

    void decoderIsReused()
    {
        // A large message, then a small one: nothing of the first is left in the second.
        PageDecoder decoder;
        DecodedReply reply;
        QByteArray many = "[";
        for (int i = 0; i < 2000; ++i)
            many += j("{'uri':'chat://") + QByteArray::number(i) + j("','name':'n'},");
        many.back() = ']';
        QVERIFY(decoder.decode(page(many), "tools", &reply));
        QCOMPARE(reply.items.offsets.size(), 2001);
        QVERIFY(decoder.decode(page("[1]"), "tools", &reply));
        QCOMPARE(items(reply), QList<QByteArray>{"1"});
        QVERIFY(!decoder.decode(page("[1"), "tools", &reply));
        QVERIFY(decodeListReply(page("[2]"), "tools", &reply));
        QCOMPARE(items(reply), QList<QByteArray>{"2"});
    }

    // Pages written by QJsonDocument, compact and indented: every one is taken, item for item.
    void randomPagesAreTaken()
    {
        QRandomGenerator rng(20261130);
        PageDecoder decoder;
        for (int round = 0; round < 400; ++round) {
            QJsonArray items;
            for (int i = int(rng.bounded(8)); i > 0; --i)
                items.append(randomValue(rng, 0));
            const QJsonObject message{
                {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                {QStringLiteral("id"), round},
                {QStringLiteral("result"), QJsonObject{{QStringLiteral("_meta"), randomValue(rng, 1)},
                                                       {QStringLiteral("nextCursor"), QStringLiteral("c")},
                                                       {QStringLiteral("resources"), items}}}};
            const auto format = round % 2 ? QJsonDocument::Indented : QJsonDocument::Compact;
            const QByteArray raw = QJsonDocument(message).toJson(format);
            DecodedReply reply;
            QVERIFY2(decoder.decode(raw, "resources", &reply), raw.constData());
            compareWithQt(raw, QStringLiteral("resources"), true, reply);
            if (QTest::currentTestFailed())
                return;
            if (format == QJsonDocument::Compact) {
                for (qsizetype i = 0; i < items.size(); ++i) {
                    const QByteArray one =
                        QJsonDocument(QJsonArray{items.at(i)}).toJson(QJsonDocument::Compact);
                    QCOMPARE(this->items(reply).at(i), one.chopped(1).mid(1));
                }
            }
        }
    }

    // Damaged pages: the decoder never takes what QJsonDocument refuses, and what it takes it
    // reads as QJsonDocument does.
    void damagedPagesAgreeWithQt()
    {
        QRandomGenerator rng(7);
        const QList<QByteArray> bases{
            j("{'jsonrpc':'2.0','id':3,'result':{'nextCursor':'abc','resources':"
              "[{'uri':'a\\u00e9','n':[1,2.5,-3e2,4e300,true,null,0.0]},{'uri':'b\\\\','o':{}},"
              "'caf\xc3\xa9',[],{}],'ttlMs':5}}"),
            j("{ 'result' : { 'resources' : [ { 'uri' : 'x y' , 'a' : [ 1e-5 , -0 ] } , 12345678901234567890 "
              "] ,"
              " '_meta' : { 'k' : [ null , false ] } } ,\n 'id' : 'r1' , 'jsonrpc' : '2.0' }"),
            j("{'id':1,'result':{'resources':[[[[]]],{'\\\\':'\\/\\b\\f\\n\\r\\t\\ud83d\\ude00'}]}}"),
        };
        const QByteArray alphabet = QByteArray("{}[]\",:\\ \t\nu0949aeE.-+tfnrl") + "\xc3\xa9\xff\x01\x7f";
        PageDecoder decoder;
        int accepted = 0;
        int agreedRefusals = 0;
        for (int round = 0; round < 6000; ++round) {
            QByteArray text = bases.at(round % bases.size());
            for (int edits = 1 + int(rng.bounded(3)); edits > 0; --edits) {
                const qsizetype at = qsizetype(rng.bounded(quint32(text.size())));
                const char c = alphabet.at(qsizetype(rng.bounded(quint32(alphabet.size()))));
                switch (rng.bounded(3)) {
                case 0:
                    text[at] = c;
                    break;
                case 1:
                    text.insert(at, c);
                    break;
                default:
                    text.remove(at, 1);
                    break;
                }
            }
            DecodedReply reply;
            const bool decoded = decoder.decode(text, "resources", &reply);
            compareWithQt(text, QStringLiteral("resources"), decoded, reply);
            if (QTest::currentTestFailed()) {
                qWarning("input: %s", text.toPercentEncoding("{}[]\",:' ").constData());
                return;
            }
            if (decoded)
                ++accepted;
            else if (!QJsonDocument::fromJson(text).isObject())
                ++agreedRefusals;
        }
        // The damage leaves some pages valid, so both answers are exercised.
        QVERIFY2(accepted > 500, QByteArray::number(accepted).constData());
        QVERIFY2(agreedRefusals > 2000, QByteArray::number(agreedRefusals).constData());
    }
};

QTEST_GUILESS_MAIN(TestPageDecoder)
#include "tst_pagedecoder.moc"
