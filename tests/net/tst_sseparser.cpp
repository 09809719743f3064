#include "sseparser.h"

#include <QTest>

using namespace folio;

// The SSE parser must give the same events however the bytes are split.
class tst_SseParser : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void events_data();
    void events();
    void splitAtEveryByteBoundary_data() { events_data(); }
    void splitAtEveryByteBoundary();
    void retryField();
    void lastEventIdPersists();
    void bomIsStripped();
    void eventOverTheLimitStops();
};

struct Expected
{
    QByteArray event;
    QByteArray data;
};
Q_DECLARE_METATYPE(QList<Expected>)

void tst_SseParser::events_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QList<Expected>>("expected");
    QTest::addRow("lf") << QByteArray("data: {\"a\":1}\n\n") << QList<Expected>{{"message", "{\"a\":1}"}};
    QTest::addRow("crlf") << QByteArray("data: x\r\n\r\n") << QList<Expected>{{"message", "x"}};
    QTest::addRow("cr_only") << QByteArray("data: x\r\r") << QList<Expected>{{"message", "x"}};
    QTest::addRow("named_event") << QByteArray("event: endpoint\ndata: /messages?s=1\n\n")
                                 << QList<Expected>{{"endpoint", "/messages?s=1"}};
    QTest::addRow("multi_line_data") << QByteArray("data: a\ndata: b\ndata:c\n\n")
                                     << QList<Expected>{{"message", "a\nb\nc"}};
    QTest::addRow("comment_keepalive")
        << QByteArray(": ping\n\n: another\ndata: y\n\n") << QList<Expected>{{"message", "y"}};
    QTest::addRow("no_data_no_event") << QByteArray("event: foo\n\nid: 7\n\n") << QList<Expected>{};
    QTest::addRow("empty_data_line") << QByteArray("data\n\n") << QList<Expected>{{"message", ""}};
    QTest::addRow("field_without_space") << QByteArray("data:x\n\n") << QList<Expected>{{"message", "x"}};
    QTest::addRow("two_spaces_keep_one") << QByteArray("data:  x\n\n") << QList<Expected>{{"message", " x"}};
    QTest::addRow("unknown_field_ignored")
        << QByteArray("foo: bar\ndata: z\n\n") << QList<Expected>{{"message", "z"}};
    QTest::addRow("incomplete_event_held")
        << QByteArray("data: a\n\ndata: b\n") << QList<Expected>{{"message", "a"}};
    QTest::addRow("mixed_endings") << QByteArray("data: 1\r\n\ndata: 2\r\rdata: 3\n\r\n")
                                   << QList<Expected>{{"message", "1"}, {"message", "2"}, {"message", "3"}};
}

static void compareEvents(const QList<SseEvent> &got, const QList<Expected> &expected)
{
    QCOMPARE(got.size(), expected.size());
    for (int i = 0; i < got.size(); ++i) {
        QCOMPARE(got.at(i).event, expected.at(i).event);
        QCOMPARE(got.at(i).data, expected.at(i).data);
    }
}

void tst_SseParser::events()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<Expected>, expected);
    SseParser parser;
    compareEvents(parser.feed(stream), expected);
}

void tst_SseParser::splitAtEveryByteBoundary()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<Expected>, expected);
    for (int cut = 0; cut <= stream.size(); ++cut) {
        SseParser parser;
        QList<SseEvent> got = parser.feed(QByteArrayView(stream).first(cut));
        got += parser.feed(QByteArrayView(stream).sliced(cut));
        compareEvents(got, expected);
    }
    // And one byte at a time.
    SseParser parser;
    QList<SseEvent> got;
    for (char c : stream)
        got += parser.feed(QByteArrayView(&c, 1));
    compareEvents(got, expected);
}

void tst_SseParser::retryField()
{
    SseParser parser;
    const QList<SseEvent> events = parser.feed("retry: 1500\ndata: a\n\nretry: x12\ndata: b\n\n");
    QCOMPARE(events.size(), 2);
    QCOMPARE(events.at(0).retryMs, std::optional<int>(1500));
    QVERIFY(!events.at(1).retryMs.has_value()); // not all digits: ignored
    QCOMPARE(parser.retryMs(), std::optional<int>(1500));
}

void tst_SseParser::lastEventIdPersists()
{
    SseParser parser;
    const QList<SseEvent> events = parser.feed("id: 41\ndata: a\n\ndata: b\n\n");
    QCOMPARE(events.size(), 2);
    QCOMPARE(events.at(0).id, QByteArray("41"));
    QCOMPARE(events.at(1).id, QByteArray("41"));
    QCOMPARE(parser.lastEventId(), QByteArray("41"));
}

void tst_SseParser::bomIsStripped()
{
    SseParser parser;
    const QList<SseEvent> events = parser.feed("\xEF\xBB\xBF"
                                               "data: a\n\n");
    QCOMPARE(events.size(), 1);
    QCOMPARE(events.at(0).data, QByteArray("a"));
}

// Many small events in one read are not one large one; an event that grows past the limit stops
// the parser where it passes it.
void tst_SseParser::eventOverTheLimitStops()
{
    SseParser parser;
    bool over = true;
    QByteArray many;
    for (int i = 0; i < 100; ++i)
        many += "data: " + QByteArray(20, 'a') + "\n\n";
    QCOMPARE(parser.feed(many, 64, &over).size(), 100);
    QVERIFY(!over);
    const QList<SseEvent> events = parser.feed("data: ok\n\ndata: " + QByteArray(1000, 'x'), 64, &over);
    QVERIFY(over);
    QCOMPARE(events.size(), 1);
    QCOMPARE(events.at(0).data, QByteArray("ok"));
    QVERIFY(parser.bufferedBytes() <= 65);
    // Across lines of one event: data lines count together.
    SseParser lines;
    lines.feed("data: " + QByteArray(40, 'y') + "\n", 64, &over);
    QVERIFY(!over);
    lines.feed("data: " + QByteArray(40, 'y') + "\n", 64, &over);
    QVERIFY(over);
}

QTEST_GUILESS_MAIN(tst_SseParser)
#include "tst_sseparser.moc"
