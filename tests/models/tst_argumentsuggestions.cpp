#include "argumentsuggestions.h"
#include "settingskeys.h"
#include "testjson.h"
#include "testsettings.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QSettings>
#include <QTest>

using folio::ArgumentSuggestions;
using testsupport::jsonObject;

// ArgumentSuggestions: what a tool argument's field suggests, from its schema and from the values
// given it before, decided without widgets; a hostile schema cannot make it offer what a field
// would hide or cannot hold, and nothing that may be a secret is remembered.
class tst_ArgumentSuggestions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void fromTheSchema_data();
    void fromTheSchema();
    void aHostileSchemaIsBounded();
    void remembersPerServerAndTool();
    void recentFirstThenTheSchema();
    void keepsTheLastTen();
    void neverRemembersASecret();
    void aHandEditedSettingsFileIsReadLikeASchema();
};

void tst_ArgumentSuggestions::initTestCase()
{
    testsupport::useTestSettings("tst_argumentsuggestions");
}

void tst_ArgumentSuggestions::init()
{
    QSettings().clear();
}

void tst_ArgumentSuggestions::fromTheSchema_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("examples and default")
        << QByteArray(R"({"type":"string","examples":["town-square","off-topic"],"default":"general"})")
        << QStringList{QStringLiteral("town-square"), QStringLiteral("off-topic"), QStringLiteral("general")};
    QTest::newRow("default only") << QByteArray(R"({"type":"string","default":"small"})")
                                  << QStringList{QStringLiteral("small")};
    QTest::newRow("enum, const, each once")
        << QByteArray(R"({"enum":["a","b"],"const":"a","examples":["b","c"]})")
        << QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
    QTest::newRow("numbers and booleans as JSON writes them")
        << QByteArray(R"({"type":"number","examples":[1.5,10,true],"default":0})")
        << QStringList{QStringLiteral("1.5"), QStringLiteral("10"), QStringLiteral("true"),
                       QStringLiteral("0")};
    QTest::newRow("objects, arrays, null and empty are not offered")
        << QByteArray(R"({"examples":[{"a":1},[1],null,"","x"]})") << QStringList{QStringLiteral("x")};
    QTest::newRow("a lone example that is not an array")
        << QByteArray(R"({"examples":"solo"})") << QStringList{QStringLiteral("solo")};
    QTest::newRow("nothing") << QByteArray(R"({"type":"string"})") << QStringList{};
}

void tst_ArgumentSuggestions::fromTheSchema()
{
    QFETCH(QByteArray, schema);
    QFETCH(QStringList, expected);
    QCOMPARE(ArgumentSuggestions::fromSchema(jsonObject(schema)), expected);
    // Without a server and tool nothing is remembered: the schema's alone.
    ArgumentSuggestions none;
    QVERIFY(!none.remembers());
    none.remember(QJsonObject{{QStringLiteral("f"), QStringLiteral("typed")}});
    QCOMPARE(none.suggestions(QStringLiteral("f"), jsonObject(schema)), expected);
}

void tst_ArgumentSuggestions::aHostileSchemaIsBounded()
{
    QJsonArray examples;
    examples.append(QString(1 << 20, QLatin1Char('x')));                        // a 1 MB string
    examples.append(QStringLiteral("clear\x1b[2Jscreen"));                      // an escape sequence
    examples.append(QStringLiteral("line\nbreak"));                             // two lines
    examples.append(QString::fromUtf8("admin\u202Eflow"));                      // a bidi override
    examples.append(QString::fromUtf8("zero\u200Bwidth"));                      // a zero-width space
    examples.append(QString(ArgumentSuggestions::maxLength, QLatin1Char('y'))); // just fits
    for (int i = 0; i < 100000; ++i)
        examples.append(QStringLiteral("v%1").arg(i));
    const QStringList got =
        ArgumentSuggestions::fromSchema(QJsonObject{{QStringLiteral("examples"), examples}});
    QCOMPARE(got.size(), ArgumentSuggestions::maxSuggestions);
    QCOMPARE(got.first(), QString(ArgumentSuggestions::maxLength, QLatin1Char('y')));
    QCOMPARE(got.at(1), QStringLiteral("v0"));
    for (const QString &s : got)
        QVERIFY(s.size() <= ArgumentSuggestions::maxLength);
}

void tst_ArgumentSuggestions::remembersPerServerAndTool()
{
    const ArgumentSuggestions demo(QStringLiteral("demo"), QStringLiteral("get_post"));
    QVERIFY(demo.remembers());
    demo.remember(QJsonObject{{QStringLiteral("post_id"), QStringLiteral("p00042")},
                              {QStringLiteral("limit"), 20},
                              {QStringLiteral("verbose"), true},
                              {QStringLiteral("filter"), QJsonObject{{QStringLiteral("a"), 1}}}});
    // Another instance (another form, a later run) reads the same.
    const ArgumentSuggestions again(QStringLiteral("demo"), QStringLiteral("get_post"));
    QCOMPARE(again.recent(QStringLiteral("post_id")), QStringList{QStringLiteral("p00042")});
    QCOMPARE(again.recent(QStringLiteral("limit")), QStringList{QStringLiteral("20")});
    QCOMPARE(again.recent(QStringLiteral("verbose")), QStringList{QStringLiteral("true")});
    QCOMPARE(again.recent(QStringLiteral("filter")), QStringList{});
    // Not another tool's, not another server's.
    QCOMPARE(ArgumentSuggestions(QStringLiteral("demo"), QStringLiteral("delete_post"))
                 .recent(QStringLiteral("post_id")),
             QStringList{});
    QCOMPARE(ArgumentSuggestions(QStringLiteral("other"), QStringLiteral("get_post"))
                 .recent(QStringLiteral("post_id")),
             QStringList{});
    // One key, named in settingskeys.h, whatever the names hold.
    const ArgumentSuggestions odd(QStringLiteral("a/b\\c"), QStringLiteral("x/y"));
    odd.remember(QJsonObject{{QStringLiteral("q"), QStringLiteral("v")}});
    const QString key =
        folio::SettingsKey::toolArgumentHistory(QStringLiteral("a/b\\c"), QStringLiteral("x/y"));
    QVERIFY(QSettings().contains(key));
    QCOMPARE(key.count(QLatin1Char('/')), 1); // "toolArguments/<hash>": no group of the server's making
    QCOMPARE(odd.recent(QStringLiteral("q")), QStringList{QStringLiteral("v")});
}

void tst_ArgumentSuggestions::recentFirstThenTheSchema()
{
    const ArgumentSuggestions s(QStringLiteral("demo"), QStringLiteral("search"));
    const QJsonObject schema =
        jsonObject(R"({"type":"string","examples":["alpha","beta"],"default":"beta"})");
    s.remember(QJsonObject{{QStringLiteral("q"), QStringLiteral("beta")}});
    s.remember(QJsonObject{{QStringLiteral("q"), QStringLiteral("gamma")}});
    QCOMPARE(s.suggestions(QStringLiteral("q"), schema),
             (QStringList{QStringLiteral("gamma"), QStringLiteral("beta"), QStringLiteral("alpha")}));
}

void tst_ArgumentSuggestions::keepsTheLastTen()
{
    const ArgumentSuggestions s(QStringLiteral("demo"), QStringLiteral("search"));
    for (int i = 0; i < 15; ++i)
        s.remember(QJsonObject{{QStringLiteral("q"), QStringLiteral("v%1").arg(i)}});
    s.remember(QJsonObject{{QStringLiteral("q"), QStringLiteral("v10")}}); // again: moves to the front
    const QStringList recent = s.recent(QStringLiteral("q"));
    QCOMPARE(recent.size(), ArgumentSuggestions::maxRemembered);
    QCOMPARE(recent.first(), QStringLiteral("v10"));
    QCOMPARE(recent.at(1), QStringLiteral("v14"));
    QCOMPARE(recent.last(), QStringLiteral("v5"));
    QCOMPARE(recent.count(QStringLiteral("v10")), 1);
}

void tst_ArgumentSuggestions::neverRemembersASecret()
{
    const ArgumentSuggestions s(QStringLiteral("demo"), QStringLiteral("login"));
    const QJsonObject schema = jsonObject(R"({"type":"object","properties":{
        "pin":{"type":"string","format":"password"},
        "otp":{"type":"string","writeOnly":true},
        "user":{"type":"string"}}})");
    s.remember(QJsonObject{{QStringLiteral("apiKey"), QStringLiteral("k-123456")},
                           {QStringLiteral("access_token"), QStringLiteral("t-123456")},
                           {QStringLiteral("pin"), QStringLiteral("1234")},
                           {QStringLiteral("otp"), QStringLiteral("987654")},
                           {QStringLiteral("user"), QStringLiteral("ada")}},
               schema);
    for (const char *name : {"apiKey", "access_token", "pin", "otp"})
        QVERIFY2(s.recent(QLatin1String(name)).isEmpty(), name);
    QCOMPARE(s.recent(QStringLiteral("user")), QStringList{QStringLiteral("ada")});
}

void tst_ArgumentSuggestions::aHandEditedSettingsFileIsReadLikeASchema()
{
    const ArgumentSuggestions s(QStringLiteral("demo"), QStringLiteral("search"));
    QVariantMap stored;
    QStringList values{QStringLiteral("ok"), QStringLiteral("bad\x07"), QString(5000, QLatin1Char('z'))};
    for (int i = 0; i < 30; ++i)
        values << QStringLiteral("n%1").arg(i);
    stored.insert(QStringLiteral("q"), values);
    QSettings().setValue(
        folio::SettingsKey::toolArgumentHistory(QStringLiteral("demo"), QStringLiteral("search")), stored);
    const QStringList recent = s.recent(QStringLiteral("q"));
    QCOMPARE(recent.size(), ArgumentSuggestions::maxRemembered);
    QCOMPARE(recent.first(), QStringLiteral("ok"));
    QCOMPARE(recent.at(1), QStringLiteral("n0"));
}

QTEST_GUILESS_MAIN(tst_ArgumentSuggestions)
#include "tst_argumentsuggestions.moc"
