#include "terminaltext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace folio;

class tst_TerminalText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void terminalSafe_data();
    void terminalSafe();
    void oneLineSafe_data();
    void oneLineSafe();
    void jsonStaysExact_data();
    void jsonStaysExact();
    void invalidUtf8InJson();
    void jsonSpecialsAtEveryOffset();
    void hiddenAndLookAlike();
};

namespace {

// No character a terminal acts on: no C0 but '\n' and '\t', no DEL, C1, bidi or zero-width.
bool harmless(const QString &text, bool oneLine)
{
    for (char32_t c : text.toUcs4()) {
        if (!oneLine && (c == u'\n' || c == u'\t' || c == u'\r'))
            continue;
        if (isHiddenCharacter(c))
            return false;
    }
    return true;
}

} // namespace

void tst_TerminalText::terminalSafe_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::addRow("csi_clear_screen")
        << QStringLiteral("a\x1b[2J\x1b[Hb") << QStringLiteral("a<U+001B>[2J<U+001B>[Hb");
    QTest::addRow("osc0_title") << QStringLiteral("\x1b]0;pwned\x07")
                                << QStringLiteral("<U+001B>]0;pwned<U+0007>");
    QTest::addRow("osc52_clipboard") << QStringLiteral("\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x1b\\")
                                     << QStringLiteral("<U+001B>]52;c;Y3VybCBldmlsIHwgc2g=<U+001B>\\");
    QTest::addRow("osc8_link")
        << QStringLiteral("\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\")
        << QStringLiteral("<U+001B>]8;;https://evil.example<U+001B>\\click<U+001B>]8;;<U+001B>\\");
    QTest::addRow("bel") << QStringLiteral("ding\a") << QStringLiteral("ding<U+0007>");
    QTest::addRow("c1_csi") << QString::fromUtf16(u"x\x9b"
                                                  u"2Jy")
                            << QStringLiteral("x<U+009B>2Jy");
    QTest::addRow("c1_osc") << QString::fromUtf16(u"\x9d"
                                                  u"0;t\x9c")
                            << QStringLiteral("<U+009D>0;t<U+009C>");
    QTest::addRow("del") << QStringLiteral("a\x7f") << QStringLiteral("a<U+007F>");
    QTest::addRow("nul_cr_backspace")
        << QString::fromUtf16(u"a\0b\rc\bd", 7) << QStringLiteral("a<U+0000>b<U+000D>c<U+0008>d");
    QTest::addRow("bidi_override") << QString::fromUtf16(u"file\u202Etxt.exe")
                                   << QStringLiteral("file<U+202E>txt.exe");
    QTest::addRow("bidi_isolates") << QString::fromUtf16(u"\u2066a\u2069\u200e\u200f\u061c")
                                   << QStringLiteral("<U+2066>a<U+2069><U+200E><U+200F><U+061C>");
    QTest::addRow("zero_width") << QString::fromUtf16(u"re\u200bad\u200c\u200d\u2060\ufeff")
                                << QStringLiteral("re<U+200B>ad<U+200C><U+200D><U+2060><U+FEFF>");
    QTest::addRow("tag_characters") << QString::fromUtf16(u"ok\U000E0041\U000E007F")
                                    << QStringLiteral("ok<U+E0041><U+E007F>");
    QTest::addRow("newline_and_tab_kept") << QStringLiteral("a\n\tb") << QStringLiteral("a\n\tb");
    QTest::addRow("crlf_kept_lone_cr_shown")
        << QStringLiteral("a,b\r\nc\rd") << QStringLiteral("a,b\r\nc<U+000D>d");
    QTest::addRow("accents_cjk_emoji")
        << QString::fromUtf16(u"café ñ 検索 🔍 Ελληνικά") << QString::fromUtf16(u"café ñ 検索 🔍 Ελληνικά");
    QTest::addRow("empty") << QString() << QString();
    QTest::addRow("notation_itself") << QStringLiteral("<U+001B>") << QStringLiteral("<U+001B>");
}

void tst_TerminalText::terminalSafe()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    const QString once = folio::terminalSafe(input);
    QCOMPARE(once, expected);
    QVERIFY(harmless(once, false));
    QCOMPARE(folio::terminalSafe(once), once); // idempotent
    QCOMPARE(folio::oneLineSafe(folio::oneLineSafe(input)), folio::oneLineSafe(input));
}

void tst_TerminalText::oneLineSafe_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::addRow("newline") << QStringLiteral("a\nb") << QStringLiteral("a<U+000A>b");
    QTest::addRow("crlf_tab") << QStringLiteral("a\r\n\tb") << QStringLiteral("a<U+000D><U+000A><U+0009>b");
    QTest::addRow("escape") << QStringLiteral("\x1b[31mred") << QStringLiteral("<U+001B>[31mred");
    QTest::addRow("plain") << QStringLiteral("search_posts") << QStringLiteral("search_posts");
}

void tst_TerminalText::oneLineSafe()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QCOMPARE(folio::oneLineSafe(input), expected);
    QVERIFY(harmless(folio::oneLineSafe(input), true));
}

void tst_TerminalText::jsonStaysExact_data()
{
    QTest::addColumn<QString>("text");
    QTest::addRow("escape") << QStringLiteral("\x1b]52;c;YQ==\x07\x1b[2J");
    QTest::addRow("c1_del") << QString::fromUtf16(u"\x9b"
                                                  u"2J\x7f\x85");
    QTest::addRow("bidi_zero_width") << QString::fromUtf16(u"a\u202Eb\u200bc\u2066\ufeff");
    QTest::addRow("tag_characters") << QString::fromUtf16(u"x\U000E0041");
    QTest::addRow("unicode") << QString::fromUtf16(u"café 検索 🔍");
    QTest::addRow("quotes") << QStringLiteral("\"\\/\n");
}

void tst_TerminalText::jsonStaysExact()
{
    QFETCH(QString, text);
    const QJsonObject object{{QStringLiteral("name"), text},
                             {QStringLiteral("list"), QJsonArray{text, 1, true}},
                             {text, QStringLiteral("as a key")}};
    for (auto format : {QJsonDocument::Indented, QJsonDocument::Compact}) {
        const QByteArray safe = jsonTerminalSafe(QJsonDocument(object).toJson(format));
        for (uchar b : safe)
            QVERIFY2((b >= 0x20 && b != 0x7f) || b == '\n', qPrintable(QString::number(b)));
        QVERIFY(harmless(QString::fromUtf8(safe), false));
        QJsonParseError error;
        const QJsonDocument back = QJsonDocument::fromJson(safe, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(back.object(), object);
        QCOMPARE(jsonTerminalSafe(safe), safe); // idempotent
    }
}

void tst_TerminalText::invalidUtf8InJson()
{
    // A lone continuation byte in the C1 range is a control to an 8-bit terminal.
    QCOMPARE(jsonTerminalSafe(QByteArray("[\"a\x9b"
                                         "b\"]")),
             QByteArray("[\"a\xef\xbf\xbd"
                        "b\"]"));
    QCOMPARE(jsonTerminalSafe(QByteArray("[\"\xc2\x9b\"]")), QByteArray("[\"\\u009b\"]"));
    QCOMPARE(jsonTerminalSafe(QByteArray("[\"\xc0\x9b\"]")), QByteArray("[\"\xef\xbf\xbd\xef\xbf\xbd\"]"));
}

void tst_TerminalText::jsonSpecialsAtEveryOffset()
{
    // jsonTerminalSafe() skips 16 plain bytes at a time: each kind of byte it must stop at, at
    // every offset across three such blocks, is found and made safe as alone.
    const QList<QPair<QByteArray, QByteArray>> specials{
        {"\x1b", "\\u001b"},
        {"\x7f", "\\u007f"},
        {"\xc2\x9b", "\\u009b"},
        {"\x9b", "\xef\xbf\xbd"},
        {"\xe2\x80\xae", "\\u202e"},
        {"\xc3\xa9", "\xc3\xa9"}, // é stays
        {"\n", "\n"},
        {"\t", "\t"},
    };
    for (const auto &[raw, safe] : specials) {
        for (int at = 0; at < 48; ++at) {
            const QByteArray before(at, 'a');
            const QByteArray after(48 - at, 'b');
            const QByteArray in = before + raw + after + raw;
            const QByteArray expected = before + safe + after + safe;
            QCOMPARE(jsonTerminalSafe(in), expected);
        }
    }
    const QByteArray plain(100, 'x');
    QCOMPARE(jsonTerminalSafe(plain).constData(), plain.constData()); // unchanged: shared, not copied
}

void tst_TerminalText::hiddenAndLookAlike()
{
    QCOMPARE(hiddenCharacters(QString::fromUtf16(u"a\u202Eb\u202E\u200b")),
             (QList<char32_t>{0x202e, 0x200b}));
    QCOMPARE(hiddenCharacters(u"plain"), QList<char32_t>());
    // A Cyrillic 'а' among ASCII letters looks like 'a'.
    QCOMPARE(lookAlikeCharacters(QString::fromUtf16(u"re\u0430d_file")), QList<char32_t>{0x0430});
    // A name all in another script is not a look-alike of an ASCII one.
    QCOMPARE(lookAlikeCharacters(QString::fromUtf16(u"検索")), QList<char32_t>());
    QCOMPARE(lookAlikeCharacters(u"read_file"), QList<char32_t>());
    // Accented Latin is a name, not a disguise; fullwidth and Greek letters are.
    QCOMPARE(lookAlikeCharacters(QString::fromUtf16(u"caf\u00e9_search")), QList<char32_t>());
    QCOMPARE(lookAlikeCharacters(QString::fromUtf16(u"\uff52ead_file")), QList<char32_t>{0xff52});
    QCOMPARE(lookAlikeCharacters(QString::fromUtf16(u"get_\u03bfrder")), QList<char32_t>{0x03bf});
    QCOMPARE(describeCodePoints({0x202e, 0x430}), QStringLiteral("U+202E, U+0430"));
}

QTEST_GUILESS_MAIN(tst_TerminalText)
#include "tst_terminaltext.moc"
