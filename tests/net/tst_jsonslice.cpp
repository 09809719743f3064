// JsonSlice::pickMembers reads members of an item's JSON text without parsing it: what it finds
// must be what QJsonDocument reads, and on any text, damaged or not, it never reads outside it.
#include "jsonslice.h"
#include "testjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <array>

using namespace folio;

// JSON written with ' for ".
constexpr auto j = testsupport::singleQuotedJson;

class TestJsonSlice : public QObject
{
    Q_OBJECT

private:
    static QJsonValue parse(QByteArrayView element)
    {
        return QJsonDocument::fromJson("[" + element.toByteArray() + "]").array().at(0);
    }

private Q_SLOTS:
    void members_data()
    {
        QTest::addColumn<QByteArray>("object");
        QTest::addColumn<bool>("wellFormed");
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("uri");

        QTest::newRow("plain") << j("{'name':'a','uri':'chat://x'}") << true << j("'a'") << j("'chat://x'");
        QTest::newRow("spaced") << j("{ 'name' : 'a' ,\n 'uri':\t'u' }") << true << j("'a'") << j("'u'");
        QTest::newRow("last_of_two") << j("{'name':'a','name':'b'}") << true << j("'b'") << QByteArray();
        QTest::newRow("nested_not_taken")
            << j("{'meta':{'name':'inner'},'uri':1}") << true << QByteArray() << QByteArray("1");
        QTest::newRow("escaped_quote")
            << j("{'name':'a\\'b','uri':'\\\\'}") << true << j("'a\\'b'") << j("'\\\\'");
        QTest::newRow("values_of_every_kind")
            << j("{'name':[1,{'x':'}'}],'uri':null}") << true << j("[1,{'x':'}'}]") << QByteArray("null");
        QTest::newRow("empty_object") << QByteArray("{}") << true << QByteArray() << QByteArray();
        QTest::newRow("not_an_object") << QByteArray("[1]") << false << QByteArray() << QByteArray();
        QTest::newRow("truncated") << j("{'name':'a") << false << QByteArray() << QByteArray();
        QTest::newRow("no_colon") << j("{'name' 'a'}") << false << QByteArray() << QByteArray();
    }

    void members()
    {
        QFETCH(QByteArray, object);
        QFETCH(bool, wellFormed);
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, uri);
        const std::array<QByteArrayView, 2> names{{"name", "uri"}};
        std::array<QByteArrayView, 2> values;
        QCOMPARE(JsonSlice::pickMembers(object, names.data(), values.data(), 2), wellFormed);
        if (!wellFormed)
            return;
        QCOMPARE(values[0], QByteArrayView(name));
        QCOMPARE(values[1], QByteArrayView(uri));
        // What it found is what the parser reads.
        const QJsonObject parsed = QJsonDocument::fromJson(object).object();
        if (!name.isEmpty())
            QCOMPARE(parse(values[0]), parsed.value(QStringLiteral("name")));
        if (!uri.isEmpty())
            QCOMPARE(parse(values[1]), parsed.value(QStringLiteral("uri")));
    }

    // Random items, damaged at random: whatever it reads stays inside the text (the sanitizer run
    // catches an over-read: each text is a heap block of exactly its size), and on an intact item
    // it agrees with the parser.
    void damagedItemsNeverReadOutside()
    {
        const quint32 seed = qEnvironmentVariableIsSet("FOLIO_FUZZ_SEED")
                                 ? quint32(qEnvironmentVariableIntValue("FOLIO_FUZZ_SEED"))
                                 : QRandomGenerator::global()->generate();
        qInfo("seed %u (set FOLIO_FUZZ_SEED to replay)", seed);
        QRandomGenerator rng(seed);
        const QByteArray alphabet = j("{}[]:,' \\\\unamei0-9.etrufls");
        const std::array<QByteArrayView, 4> names{{"uri", "uriTemplate", "name", "id"}};
        for (int round = 0; round < 5000; ++round) {
            QJsonObject item{
                {QStringLiteral("name"), QStringLiteral("tool_%1 \"q\"").arg(rng.bounded(1000))},
                {QStringLiteral("id"), rng.bounded(100000)},
                {QStringLiteral("tags"), QJsonArray{QStringLiteral("a}"), QStringLiteral("[b")}}};
            QByteArray text =
                QJsonDocument(item).toJson(rng.bounded(2) ? QJsonDocument::Compact : QJsonDocument::Indented);
            const bool damaged = rng.bounded(3) > 0;
            if (damaged) {
                for (int edits = int(rng.bounded(1, 4)); edits > 0 && !text.isEmpty(); --edits) {
                    const qsizetype at = rng.bounded(text.size());
                    switch (rng.bounded(3)) {
                    case 0:
                        text[at] = alphabet[rng.bounded(alphabet.size())];
                        break;
                    case 1:
                        text.remove(at, 1);
                        break;
                    default:
                        text.truncate(at);
                        break;
                    }
                }
            }
            const std::unique_ptr<char[]> exact(new char[size_t(text.size())]);
            memcpy(exact.get(), text.constData(), size_t(text.size()));
            const QByteArrayView view(exact.get(), text.size());
            std::array<QByteArrayView, 4> values;
            const bool ok = JsonSlice::pickMembers(view, names.data(), values.data(), 4);
            for (const QByteArrayView v : values)
                QVERIFY(v.isEmpty() ||
                        (v.data() >= view.data() && v.data() + v.size() <= view.data() + view.size()));
            if (!damaged) {
                QVERIFY(ok);
                QCOMPARE(parse(values[2]), item.value(QStringLiteral("name")));
                QCOMPARE(parse(values[3]), item.value(QStringLiteral("id")));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestJsonSlice)
#include "tst_jsonslice.moc"
