// RFC 6570 expansion for "Read from template…": the RFC's own examples for the operators Folio
// supports (section 1.2 and 3.2), and what an empty form field means (undefined: dropped).
#include "uritemplate.h"

#include <QTest>

using folio::UriTemplate;

class TestUriTemplate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void expand_data()
    {
        QTest::addColumn<QString>("tmpl");
        QTest::addColumn<QString>("expected");
        // The RFC's variables (section 3.2): var, hello, path, x, y, empty; "undef" is not set.
        QTest::newRow("simple") << "{var}"
                                << "value";
        QTest::newRow("simple_encodes_reserved") << "{hello}"
                                                 << "Hello%20World%21";
        QTest::newRow("simple_two") << "{x,y}"
                                    << "1024,768";
        QTest::newRow("reserved") << "{+path}/here"
                                  << "/foo/bar/here";
        QTest::newRow("reserved_keeps_reserved") << "{+hello}"
                                                 << "Hello%20World!";
        QTest::newRow("fragment") << "X{#var}"
                                  << "X#value";
        QTest::newRow("label") << "X{.x,y}"
                               << "X.1024.768";
        QTest::newRow("path_segments") << "{/var,x}/here"
                                       << "/value/1024/here";
        QTest::newRow("path_segment_encodes_slash") << "chat://files{/path}"
                                                    << "chat://files/%2Ffoo%2Fbar";
        QTest::newRow("path_params") << "{;x,y}"
                                     << ";x=1024;y=768";
        QTest::newRow("query") << "{?x,y}"
                               << "?x=1024&y=768";
        QTest::newRow("query_continuation") << "?fixed=yes{&x}"
                                            << "?fixed=yes&x=1024";
        QTest::newRow("prefix") << "{var:3}"
                                << "val";
        QTest::newRow("explode_string") << "{/var*}"
                                        << "/value";
        QTest::newRow("undefined_dropped") << "{?x,undef,y}"
                                           << "?x=1024&y=768";
        QTest::newRow("empty_field_is_undefined") << "chat://users/{empty}"
                                                  << "chat://users/";
        QTest::newRow("all_undefined_query") << "search{?undef}"
                                             << "search";
        QTest::newRow("literal_only") << "chat://channels"
                                      << "chat://channels";
        QTest::newRow("unicode") << "{uni}"
                                 << "caf%C3%A9";
        QTest::newRow("reserved_keeps_pct_triplet") << "{+pct}"
                                                    << "a%20b";
        QTest::newRow("simple_encodes_pct") << "{pct}"
                                            << "a%2520b";
        QTest::newRow("demo_template") << "chat://channels/{channel}/posts{?before,limit}"
                                       << "chat://channels/general/posts?limit=20";
    }
    void expand()
    {
        QFETCH(QString, tmpl);
        QFETCH(QString, expected);
        const QHash<QString, QString> values{
            {QStringLiteral("var"), QStringLiteral("value")},
            {QStringLiteral("hello"), QStringLiteral("Hello World!")},
            {QStringLiteral("path"), QStringLiteral("/foo/bar")},
            {QStringLiteral("x"), QStringLiteral("1024")},
            {QStringLiteral("y"), QStringLiteral("768")},
            {QStringLiteral("empty"), QString()},
            {QStringLiteral("uni"), QStringLiteral("café")},
            {QStringLiteral("pct"), QStringLiteral("a%20b")},
            {QStringLiteral("channel"), QStringLiteral("general")},
            {QStringLiteral("limit"), QStringLiteral("20")},
        };
        const UriTemplate t(tmpl);
        QVERIFY2(t.isValid(), qPrintable(t.error()));
        QCOMPARE(t.expand(values), expected);
    }

    void variables()
    {
        const UriTemplate t(QStringLiteral("chat://{team}/channels/{+channel}{/post}{?before,limit,team}"));
        QCOMPARE(t.variables(),
                 (QStringList{QStringLiteral("team"), QStringLiteral("channel"), QStringLiteral("post"),
                              QStringLiteral("before"), QStringLiteral("limit")}));
        QCOMPARE(t.operatorOf(QStringLiteral("team")), QString());
        QCOMPARE(t.operatorOf(QStringLiteral("channel")), QStringLiteral("+"));
        QCOMPARE(t.operatorOf(QStringLiteral("post")), QStringLiteral("/"));
        QCOMPARE(t.operatorOf(QStringLiteral("limit")), QStringLiteral("?"));
    }

    void invalid_data()
    {
        QTest::addColumn<QString>("tmpl");
        QTest::newRow("unclosed") << "chat://{channel";
        QTest::newRow("stray_close") << "chat://channel}";
        QTest::newRow("reserved_operator") << "{=x}";
        QTest::newRow("empty_expression") << "a{}b";
        QTest::newRow("bad_name") << "{a b}";
        QTest::newRow("bad_prefix") << "{a:0}";
    }
    void invalid()
    {
        QFETCH(QString, tmpl);
        const UriTemplate t(tmpl);
        QVERIFY(!t.isValid());
        QVERIFY(!t.error().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestUriTemplate)
#include "tst_uritemplate.moc"
