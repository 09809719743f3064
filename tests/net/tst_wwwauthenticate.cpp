// parseWwwAuthenticate: RFC 9110 §11.6.1 challenges, the examples of the RFCs that define the
// schemes the OAuth sign-in will meet (Basic, Bearer, resource_metadata), and hostile input.
#include "wwwauthenticate.h"

#include <QElapsedTimer>
#include <QTest>

using namespace folio;

class tst_WwwAuthenticate : public QObject
{
    Q_OBJECT

private:
    // Scheme[ token68][ {name=value;...}], challenges joined by " | ", for a readable comparison.
    static QString show(const QList<AuthChallenge> &challenges)
    {
        QStringList out;
        for (const AuthChallenge &c : challenges) {
            QString s = c.scheme;
            if (!c.token68.isEmpty())
                s += QLatin1Char(' ') + c.token68;
            if (!c.params.isEmpty()) {
                QStringList params;
                for (const auto &[name, value] : c.params)
                    params.append(name + QLatin1Char('=') + value);
                s += QLatin1Char('{') + params.join(QLatin1Char(';')) + QLatin1Char('}');
            }
            out.append(s);
        }
        return out.join(QStringLiteral(" | "));
    }

private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QString>("expected");

        // RFC 9110 §11.6.1: two challenges in one field, a quoted-pair in a value.
        QTest::addRow("rfc9110")
            << QByteArray("Basic realm=\"simple\", Newauth realm=\"apps\",\r\n"
                          "                 type=1, title=\"Login to \\\"apps\\\"\"")
            << QStringLiteral("Basic{realm=simple} | Newauth{realm=apps;type=1;title=Login to \"apps\"}");
        QTest::addRow("rfc9110_one_line")
            << QByteArray(
                   "Basic realm=\"simple\", Newauth realm=\"apps\", type=1, title=\"Login to \\\"apps\\\"\"")
            << QStringLiteral("Basic{realm=simple} | Newauth{realm=apps;type=1;title=Login to \"apps\"}");
        // RFC 7617 §2.1.
        QTest::addRow("rfc7617_charset") << QByteArray("Basic realm=\"foo\", charset=\"UTF-8\"")
                                         << QStringLiteral("Basic{realm=foo;charset=UTF-8}");
        // RFC 6750 §3.
        QTest::addRow("rfc6750_realm")
            << QByteArray("Bearer realm=\"example\"") << QStringLiteral("Bearer{realm=example}");
        QTest::addRow("rfc6750_error")
            << QByteArray("Bearer realm=\"example\",\n                       error=\"invalid_token\",\n"
                          "                       error_description=\"The access token expired\"")
            << QStringLiteral("Bearer{realm=example;error=invalid_token;error_description=The access token "
                              "expired}");
        QTest::addRow("rfc6750_error_one_line")
            << QByteArray("Bearer realm=\"example\", error=\"invalid_token\", "
                          "error_description=\"The access token expired\"")
            << QStringLiteral("Bearer{realm=example;error=invalid_token;error_description=The access token "
                              "expired}");
        // RFC 9728 §5.1, and what an MCP server answers when a scope is missing.
        QTest::addRow("rfc9728_resource_metadata")
            << QByteArray("Bearer resource_metadata=\"https://resource.example.com/.well-known/"
                          "oauth-protected-resource\"")
            << QStringLiteral("Bearer{resource_metadata=https://resource.example.com/.well-known/"
                              "oauth-protected-resource}");
        QTest::addRow("mcp_insufficient_scope")
            << QByteArray(
                   "Bearer error=\"insufficient_scope\", scope=\"files:read files:write\", "
                   "resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource\"")
            << QStringLiteral(
                   "Bearer{error=insufficient_scope;scope=files:read files:write;resource_metadata="
                   "https://mcp.example.com/.well-known/oauth-protected-resource}");
        // token68 (RFC 9110 §11.2) and schemes alone.
        QTest::addRow("token68") << QByteArray("Negotiate YIIBhwYGKwYBBQUCoIIBezCCAXeg==")
                                 << QStringLiteral("Negotiate YIIBhwYGKwYBBQUCoIIBezCCAXeg==");
        QTest::addRow("token68_then_challenge")
            << QByteArray("Negotiate a/b+c.d~e_f-g= , Basic realm=x")
            << QStringLiteral("Negotiate a/b+c.d~e_f-g= | Basic{realm=x}");
        QTest::addRow("token68_one_char") << QByteArray("Foo x") << QStringLiteral("Foo x");
        QTest::addRow("schemes_alone") << QByteArray("Negotiate, NTLM") << QStringLiteral("Negotiate | NTLM");
        QTest::addRow("scheme_then_comma_then_param")
            << QByteArray("Basic, realm=\"x\"")
            << QStringLiteral("Basic"); // params need a space after the scheme
        // Case, BWS, empty list elements, several fields joined.
        QTest::addRow("names_lowercased")
            << QByteArray("BEARER Realm=\"x\", SCOPE=y") << QStringLiteral("BEARER{realm=x;scope=y}");
        QTest::addRow("bws") << QByteArray("Basic realm = \"x\" ,charset= UTF-8")
                             << QStringLiteral("Basic{realm=x;charset=UTF-8}");
        QTest::addRow("tab_after_scheme") << QByteArray("Basic\trealm=x") << QStringLiteral("Basic{realm=x}");
        QTest::addRow("empty_elements") << QByteArray(" , ,Basic realm=\"x\",, , charset=y ,, Bearer,")
                                        << QStringLiteral("Basic{realm=x;charset=y} | Bearer");
        QTest::addRow("joined_fields") << QByteArray("Basic realm=\"a\", Bearer scope=\"b\"")
                                       << QStringLiteral("Basic{realm=a} | Bearer{scope=b}");
        QTest::addRow("token_value_chars")
            << QByteArray("A p=!#$%&'*+-.^_`|~09az") << QStringLiteral("A{p=!#$%&'*+-.^_`|~09az}");
        // Quoted-strings.
        QTest::addRow("escapes") << QByteArray("A p=\"a\\\\b\\\"c\\x\"") << QStringLiteral("A{p=a\\b\"cx}");
        QTest::addRow("comma_in_quotes")
            << QByteArray("A p=\"x, B q=y\", r=z") << QStringLiteral("A{p=x, B q=y;r=z}");
        QTest::addRow("empty_quoted") << QByteArray("A p=\"\"") << QStringLiteral("A{p=}");
        QTest::addRow("utf8") << QByteArray("A p=\"caf\xc3\xa9\"") << QStringLiteral("A{p=caf\u00e9}");
        QTest::addRow("latin1_fallback") << QByteArray("A p=\"caf\xe9\"") << QStringLiteral("A{p=caf\u00e9}");
        QTest::addRow("tab_in_quotes") << QByteArray("A p=\"a\tb\"") << QStringLiteral("A{p=a\tb}");
        QTest::addRow("duplicate_param") << QByteArray("A p=1, p=2") << QStringLiteral("A{p=1;p=2}");

        // Hostile or broken: dropped up to the next comma, what came before kept.
        QTest::addRow("empty") << QByteArray() << QString();
        QTest::addRow("commas_only") << QByteArray(" ,,\t, ") << QString();
        QTest::addRow("quote_only") << QByteArray("\"") << QString();
        QTest::addRow("unterminated") << QByteArray("Basic realm=\"x") << QStringLiteral("Basic");
        QTest::addRow("unterminated_after_param")
            << QByteArray("Basic charset=y, realm=\"x, Bearer") << QStringLiteral("Basic{charset=y}");
        QTest::addRow("trailing_backslash") << QByteArray("Basic realm=\"x\\") << QStringLiteral("Basic");
        QTest::addRow("no_value") << QByteArray("Basic realm=") << QStringLiteral("Basic realm=");
        QTest::addRow("no_value_then_param")
            << QByteArray("Basic realm= , charset=y") << QStringLiteral("Basic realm=");
        QTest::addRow("equals_only") << QByteArray("=,=,= =") << QString();
        QTest::addRow("junk_param") << QByteArray("Basic realm=\"a\", =junk, charset=x")
                                    << QStringLiteral("Basic{realm=a;charset=x}");
        QTest::addRow("junk_scheme") << QByteArray("(bad) realm=x, Basic realm=y")
                                     << QStringLiteral("Basic{realm=y}");
        QTest::addRow("scheme_then_quote") << QByteArray("Basic\"x\", Bearer") << QStringLiteral("Bearer");
        QTest::addRow("missing_comma")
            << QByteArray("Bearer error=\"invalid_token\" error_description=\"x\", scope=s")
            << QStringLiteral("Bearer{scope=s}");
        QTest::addRow("control_in_quotes") << QByteArray("A p=\"a\x01z\", q=1") << QStringLiteral("A{q=1}");
        QTest::addRow("nul_in_quotes") << QByteArray("A p=\"a\0z\", q=1", 14) << QStringLiteral("A{q=1}");
        QTest::addRow("nul_in_token") << QByteArray("A\0B p=1", 7) << QString();
        QTest::addRow("escaped_control") << QByteArray("A p=\"\\\x7f\", q=1") << QStringLiteral("A{q=1}");
        QTest::addRow("value_then_junk") << QByteArray("A p=x y, q=1") << QStringLiteral("A{q=1}");
        QTest::addRow("cr_lf") << QByteArray("A p=1\r\n, q=2") << QStringLiteral("A{p=1;q=2}");
        QTest::addRow("high_bytes_outside_quotes")
            << QByteArray("\xff\xfe realm=x, Basic p=\xc3\xa9, q=1") << QStringLiteral("Basic{q=1}");
    }

    void parse()
    {
        QFETCH(QByteArray, header);
        QFETCH(QString, expected);
        QCOMPARE(show(parseWwwAuthenticate(header)), expected);
    }

    void lookUp()
    {
        const QList<AuthChallenge> challenges = parseWwwAuthenticate(
            "Basic realm=\"x\", bearer Scope=\"a b\", Error=insufficient_scope, realm=\"\", scope=second");
        QCOMPARE(challenges.size(), 2);
        const AuthChallenge &bearer = challenges.at(1);
        QVERIFY(bearer.isScheme(u"Bearer"));
        QVERIFY(!challenges.at(0).isScheme(u"Bearer"));
        QCOMPARE(bearer.param(u"scope"), QStringLiteral("a b")); // the first of two
        QCOMPARE(bearer.param(u"ERROR"), QStringLiteral("insufficient_scope"));
        QVERIFY(bearer.hasParam(u"realm"));
        QVERIFY(bearer.param(u"realm").isEmpty());
        QVERIFY(!bearer.param(u"realm").isNull());
        QVERIFY(!bearer.hasParam(u"resource_metadata"));
        QVERIFY(bearer.param(u"resource_metadata").isNull());
    }

    // Linear: a megabyte of parameters, empty elements or an unterminated quote is read at once.
    void largeInputs_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<int>("challenges");
        QTest::addRow("params") << "Bearer " + QByteArray("p=v, ").repeated(200000) << 1;
        QTest::addRow("schemes") << QByteArray("A, ").repeated(300000) << 300000;
        QTest::addRow("commas") << QByteArray(1 << 20, ',') << 0;
        QTest::addRow("unterminated") << "Basic realm=\"" + QByteArray(1 << 20, 'x') << 1;
        QTest::addRow("escapes") << "Basic realm=\"" + QByteArray("\\\"").repeated(1 << 19) << 1;
        QTest::addRow("token68_lookahead") << QByteArray("A ") + QByteArray(1 << 20, 'b') + " c" << 1;
        QTest::addRow("bws_lookahead") << "A p=v, " + QByteArray(1 << 20, ' ') + "x" << 2;
    }

    void largeInputs()
    {
        QFETCH(QByteArray, header);
        QFETCH(int, challenges);
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(parseWwwAuthenticate(header).size(), challenges);
        QVERIFY2(timer.elapsed() < 5000, "linear in the input");
    }
};

QTEST_APPLESS_MAIN(tst_WwwAuthenticate)
#include "tst_wwwauthenticate.moc"
