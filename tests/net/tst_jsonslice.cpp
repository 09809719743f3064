// JsonSlice cuts a list page's items out of the reply's raw text. Every cut must equal what the
// parser read (item for item, once parsed), and any text it cannot cut plainly must be refused so
// that the model writes the parsed items instead.
#include "jsonslice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <array>
#include <functional>

using namespace folio;

class TestJsonSlice : public QObject
{
    Q_OBJECT

private:
    // JSON written with ' for " (moc's tokenizer trips over raw strings holding quotes).
    static QByteArray j(const char *text)
    {
        QByteArray b(text);
        b.replace('\'', '"');
        return b;
    }

    static QList<QByteArray> cut(const QByteArray &raw, const QByteArray &key, bool *ok)
    {
        QByteArray arena;
        QList<quint32> offsets;
        *ok = JsonSlice::resultArrayElements(raw, key, &arena, &offsets);
        QList<QByteArray> out;
        for (qsizetype i = 0; i + 1 < offsets.size(); ++i)
            out.append(arena.mid(offsets[i], offsets[i + 1] - offsets[i]));
        if (!*ok) {
            if (!arena.isEmpty() || !offsets.isEmpty())
                out.append("LEFT OVER");
        }
        return out;
    }

    static QJsonValue parse(const QByteArray &element)
    {
        return QJsonDocument::fromJson("[" + element + "]").array().at(0);
    }

private Q_SLOTS:
    void plainPage()
    {
        const QByteArray raw = j("{'jsonrpc':'2.0','id':7,'result':{'nextCursor':'abc','resources':[{'uri':'"
                                 "a','name':'x'},{'uri':'b'}],'ttlMs':5}}");
        bool ok = false;
        const QList<QByteArray> items = cut(raw, "resources", &ok);
        QVERIFY(ok);
        QCOMPARE(items, (QList<QByteArray>{j("{'uri':'a','name':'x'}"), j("{'uri':'b'}")}));
    }

    void whitespaceIsRemovedOutsideStrings()
    {
        const QByteArray raw =
            "{ \"id\" : 1 ,\n \"result\" : {\n  \"tools\" : [\n   { \"name\" : \"a b\\\" ]} \" ,"
            " \"n\" : [ 1 , 2.5e3 , true , null ] } ,\t\"s\" , 3 , [ ] \n ] } , \"jsonrpc\":\"2.0\" }";
        bool ok = false;
        const QList<QByteArray> items = cut(raw, "tools", &ok);
        QVERIFY(ok);
        QCOMPARE(items, (QList<QByteArray>{"{\"name\":\"a b\\\" ]} \",\"n\":[1,2.5e3,true,null]}", j("'s'"),
                                           "3", "[]"}));
    }

    void emptyArray()
    {
        bool ok = false;
        QList<QByteArray> items = cut(j("{'result':{'prompts':[]},'id':1}"), "prompts", &ok);
        QVERIFY(ok);
        QVERIFY(items.isEmpty());
        // The model still needs the leading offset.
        QByteArray arena;
        QList<quint32> offsets;
        QVERIFY(JsonSlice::resultArrayElements(j("{'result':{'prompts':[ ]}}"), "prompts", &arena, &offsets));
        QCOMPARE(offsets, QList<quint32>{0});
    }

    void backslashesBeforeQuotes()
    {
        // An even run of backslashes ends the string; an odd one escapes the quote.
        const QByteArray raw =
            "{\"result\":{\"tools\":[{\"a\":\"x\\\\\"},{\"b\":\"y\\\\\\\"z\"},{\"c\":\"\\\\\\\\\"}]}}";
        bool ok = false;
        const QList<QByteArray> items = cut(raw, "tools", &ok);
        QVERIFY(ok);
        QCOMPARE(items.size(), 3);
        QCOMPARE(parse(items[0]).toObject().value(QLatin1String("a")).toString(), QStringLiteral("x\\"));
        QCOMPARE(parse(items[1]).toObject().value(QLatin1String("b")).toString(), QStringLiteral("y\\\"z"));
        QCOMPARE(parse(items[2]).toObject().value(QLatin1String("c")).toString(), QStringLiteral("\\\\"));
    }

    void refused_data()
    {
        QTest::addColumn<QByteArray>("raw");
        QTest::newRow("top level array") << j("[{'result':{'tools':[]}}]");
        QTest::newRow("no result") << j("{'error':{'code':1}}");
        QTest::newRow("result not object") << j("{'result':[1]}");
        QTest::newRow("no key") << j("{'result':{'prompts':[1]}}");
        QTest::newRow("key not array") << j("{'result':{'tools':{'a':1}}}");
        QTest::newRow("key twice") << j("{'result':{'tools':[1],'tools':[2,3]}}");
        QTest::newRow("result twice") << j("{'result':{'tools':[1]},'result':{'tools':[2]}}");
        QTest::newRow("escaped name") << QByteArray("{\"result\":{\"t\\u006fols\":[1],\"x\":1}}");
        QTest::newRow("cut short") << j("{'result':{'tools':[{'a':'b'},");
        QTest::newRow("unterminated string") << j("{'result':{'tools':['abc");
        QTest::newRow("empty") << QByteArray();
    }

    void refused()
    {
        QFETCH(QByteArray, raw);
        bool ok = true;
        const QList<QByteArray> items = cut(raw, "tools", &ok);
        QVERIFY(!ok);
        QVERIFY2(items.isEmpty(), "a refused cut must leave the arena and offsets as they were");
    }

    void appendsAfterExistingContent()
    {
        QByteArray arena = "xyz";
        QList<quint32> offsets{0, 3};
        QVERIFY(JsonSlice::resultArrayElements(j("{'result':{'tools':[1,22]}}"), "tools", &arena, &offsets));
        QCOMPARE(arena, QByteArray("xyz122"));
        QCOMPARE(offsets, (QList<quint32>{0, 3, 4, 6}));
        QVERIFY(!JsonSlice::resultArrayElements(j("{'result':{}}"), "tools", &arena, &offsets));
        QCOMPARE(arena, QByteArray("xyz122"));
        QCOMPARE(offsets, (QList<quint32>{0, 3, 4, 6}));
    }

    void validity_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("object") << j(" {'a':[1,-2.5e+3,true,false,null,'x'],'b':{}} ") << true;
        QTest::newRow("scalar") << QByteArray("-0.5") << true;
        QTest::newRow("escapes") << QByteArray("\"\\\" \\n \\u00e9 \\/\"") << true;
        QTest::newRow("utf8") << QByteArray("\"caf\xc3\xa9 \xf0\x9f\x98\x80\"") << true;
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("trailing comma") << j("[1,]") << false;
        QTest::newRow("two values") << j("{} {}") << false;
        QTest::newRow("bare word") << QByteArray("[nul]") << false;
        QTest::newRow("leading zero") << QByteArray("01") << false;
        // Numbers Qt refuses: out of a double's range either way.
        QTest::newRow("overflow") << QByteArray("[1e400]") << false;
        QTest::newRow("negative overflow") << QByteArray("[-1.5e400]") << false;
        QTest::newRow("underflow") << QByteArray("[1e-400]") << false;
        QTest::newRow("long zero") << QByteArray("[0.000e-999]") << true;
        QTest::newRow("large") << QByteArray("[1.7e308]") << true;
        QTest::newRow("long integer") << QByteArray("[123456789012345678901234567890]") << true;
        QTest::newRow("dot without digits") << QByteArray("1.") << false;
        QTest::newRow("control char") << QByteArray("\"a\tb\"") << false;
        QTest::newRow("short \\u") << QByteArray("\"\\u12\"") << false;
        QTest::newRow("overlong utf8") << QByteArray("\"\xc0\xaf\"") << false;
        QTest::newRow("surrogate utf8") << QByteArray("\"\xed\xa0\x80\"") << false;
        QTest::newRow("cut utf8") << QByteArray("\"\xe2\x82\"") << false;
        QTest::newRow("name not string") << QByteArray("{a:1}") << false;
        QTest::newRow("unclosed") << j("{'a':[1,2}") << false;
        QTest::newRow("too deep") << QByteArray(1025, '[') + QByteArray(1025, ']') << false;
        QTest::newRow("deep enough") << QByteArray(1000, '[') + QByteArray(1000, ']') << true;
    }

    void validity()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, valid);
        QCOMPARE(JsonSlice::isValid(text), valid);
        if (valid && (text.startsWith('[') || text.startsWith('{'))) {
            QJsonParseError error;
            QJsonDocument::fromJson(text, &error);
            QCOMPARE(error.error, QJsonParseError::NoError); // never more lenient than Qt
        }
    }

    void members()
    {
        // The views point into the text: it must outlive them.
        QByteArrayView v;
        const QByteArray idFirst = j("{ 'id' : 12 , 'result':{'id':3}}");
        QVERIFY(JsonSlice::firstMember(idFirst, "id", &v));
        QCOMPARE(v, QByteArrayView("12"));
        const QByteArray idLater = j("{'a':1,'id':'x y'}");
        QVERIFY(JsonSlice::firstMember(idLater, "id", &v));
        QCOMPARE(v, QByteArrayView("\"x y\""));
        QVERIFY(!JsonSlice::firstMember(j("{'a':{'id':1}}"), "id", &v));
        const QByteArray twice = j("{'result':{'id':9},'id':1,'id':2}");
        QVERIFY(JsonSlice::firstMember(twice, "id", &v));
        QCOMPARE(v, QByteArrayView("1"));
        QVERIFY(!JsonSlice::firstMember(j("{'result':{'id':9}}"), "id", &v));
        std::array<QByteArrayView, 3> names{{"c", "a", "zz"}};
        std::array<QByteArrayView, 3> values;
        const QByteArray object = j("{'a':1, 'b' : [2,3] ,'c':{'d':4},'a':5}");
        QVERIFY(JsonSlice::pickMembers(object, names.data(), values.data(), 3));
        QCOMPARE(values[0], QByteArrayView("{\"d\":4}"));
        QCOMPARE(values[1], QByteArrayView("5")); // the last one
        QVERIFY(values[2].isEmpty());
        QVERIFY(!JsonSlice::pickMembers("[1]", names.data(), values.data(), 3));
    }

    void takeLeavesTheRestToParse()
    {
        const QByteArray raw =
            j("{'id':1,'result':{'a':'[x]','tools':[ {'n':1} , {'n':2} ],'z':[3]},'jsonrpc':'2.0'}");
        QByteArray arena, rest;
        QList<quint32> offsets;
        QVERIFY(JsonSlice::takeResultArray(raw, "tools", &arena, &offsets, &rest));
        QCOMPARE(offsets.size(), 3);
        QCOMPARE(rest, j("{'id':1,'result':{'a':'[x]','tools':[],'z':[3]},'jsonrpc':'2.0'}"));
        QVERIFY(!JsonSlice::takeResultArray(j("{'result':{}}"), "tools", &arena, &offsets, &rest));
    }

    // Damaged documents: whatever the check accepts, Qt's parser accepts too, and a cut made
    // from such text holds exactly the items Qt reads. (The check may refuse more than Qt does,
    // e.g. an unknown escape: such replies just take the usual path.)
    void damagedDocumentsNeverPassWhatQtRefuses()
    {
        QRandomGenerator rng(7);
        const QByteArray base =
            j("{'jsonrpc':'2.0','id':3,'result':{'nextCursor':'abc','resources':"
              "[{'uri':'a\\u00e9','n':[1,2.5,-3e2,4e300,true,null]},{'uri':'b\\\\','o':{}},"
              "'caf\xc3\xa9',[],{}],'ttlMs':5}}");
        QVERIFY(JsonSlice::isValid(base));
        const QByteArray alphabet = QByteArray("{}[]\",:\\ \t\nu0949aeE.-+") + "\xc3\xa9\xff\x01";
        int accepted = 0;
        for (int round = 0; round < 20000; ++round) {
            QByteArray text = base;
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
            if (!JsonSlice::isValid(text))
                continue;
            ++accepted;
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
            QVERIFY2(error.error == QJsonParseError::NoError, text.constData());
            QByteArray arena, rest;
            QList<quint32> offsets;
            if (!JsonSlice::takeResultArray(text, "resources", &arena, &offsets, &rest))
                continue;
            const QJsonArray items = doc.object()
                                         .value(QStringLiteral("result"))
                                         .toObject()
                                         .value(QStringLiteral("resources"))
                                         .toArray();
            QCOMPARE(offsets.size() - 1, items.size());
            for (qsizetype i = 0; i + 1 < offsets.size(); ++i)
                QCOMPARE(parse(arena.mid(offsets[i], offsets[i + 1] - offsets[i])), items.at(i));
            QVERIFY(QJsonDocument::fromJson(rest).isObject());
        }
        QVERIFY(accepted > 100); // the damage leaves some documents valid, so the cut is exercised
    }

    // Random items written by Qt (compact and indented): every cut parses to the item written.
    void randomDocumentsMatchTheParser()
    {
        QRandomGenerator rng(20261130);
        const QStringList pieces{QStringLiteral("a"),      QStringLiteral(" "),    QStringLiteral("\""),
                                 QStringLiteral("\\"),     QStringLiteral("]"),    QStringLiteral("}"),
                                 QStringLiteral(","),      QStringLiteral("é"),    QStringLiteral("\n"),
                                 QStringLiteral("\u2603"), QStringLiteral("\\\""), QStringLiteral("😀")};
        auto text = [&] {
            QString s;
            for (int i = int(rng.bounded(6)); i > 0; --i)
                s += pieces.at(int(rng.bounded(pieces.size())));
            return s;
        };
        std::function<QJsonValue(int)> value = [&](int depth) -> QJsonValue {
            switch (rng.bounded(depth > 2 ? 4 : 6)) {
            case 0:
                return text();
            case 1:
                return rng.bounded(2000) - 1000.5;
            case 2:
                return rng.bounded(2) == 0;
            case 3:
                return QJsonValue::Null;
            case 4: {
                QJsonArray a;
                for (int i = int(rng.bounded(4)); i > 0; --i)
                    a.append(value(depth + 1));
                return a;
            }
            default: {
                QJsonObject o;
                for (int i = int(rng.bounded(4)); i > 0; --i)
                    o.insert(text() + QString::number(i), value(depth + 1));
                return o;
            }
            }
        };
        for (int round = 0; round < 300; ++round) {
            QJsonArray items;
            for (int i = int(rng.bounded(8)); i > 0; --i)
                items.append(value(0));
            const QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                      {QStringLiteral("id"), round},
                                      {QStringLiteral("result"),
                                       QJsonObject{{QStringLiteral("_meta"), QJsonObject{{text(), value(1)}}},
                                                   {QStringLiteral("nextCursor"), text()},
                                                   {QStringLiteral("resources"), items}}}};
            const auto format = round % 2 ? QJsonDocument::Indented : QJsonDocument::Compact;
            const QByteArray raw = QJsonDocument(message).toJson(format);
            bool ok = false;
            const QList<QByteArray> cuts = cut(raw, "resources", &ok);
            QVERIFY2(ok, raw.constData());
            QVERIFY(JsonSlice::isValid(raw));
            QCOMPARE(cuts.size(), items.size());
            for (qsizetype i = 0; i < cuts.size(); ++i) {
                QCOMPARE(parse(cuts[i]), items.at(i));
                if (format == QJsonDocument::Compact) {
                    QJsonArray one{items.at(i)};
                    QCOMPARE(cuts[i], QJsonDocument(one).toJson(QJsonDocument::Compact).chopped(1).mid(1));
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestJsonSlice)
#include "tst_jsonslice.moc"
