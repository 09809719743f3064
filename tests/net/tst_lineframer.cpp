#include "lineframer.h"

#include <QTest>

using namespace folio;

class tst_LineFramer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void framing_data();
    void framing();
    void oversizedLineIsDroppedAndFramingResumes();
};

void tst_LineFramer::framing_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QList<QByteArray>>("lines");
    QTest::addRow("one_line") << QByteArray("{\"a\":1}\n") << QList<QByteArray>{"{\"a\":1}"};
    QTest::addRow("crlf") << QByteArray("{}\r\n[]\r\n") << QList<QByteArray>{"{}", "[]"};
    QTest::addRow("partial_tail_held") << QByteArray("{}\n{\"b\"") << QList<QByteArray>{"{}"};
    QTest::addRow("blank_lines_skipped") << QByteArray("\n\n{}\n  \n") << QList<QByteArray>{"{}"};
}

void tst_LineFramer::framing()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<QByteArray>, lines);
    for (int cut = 0; cut <= stream.size(); ++cut) {
        LineFramer framer;
        QList<QByteArray> got = framer.feed(QByteArrayView(stream).first(cut)).lines;
        got += framer.feed(QByteArrayView(stream).sliced(cut)).lines;
        QCOMPARE(got, lines);
    }
}

void tst_LineFramer::oversizedLineIsDroppedAndFramingResumes()
{
    LineFramer framer(16);
    LineFramer::Result r = framer.feed("{\"small\":1}\n");
    QCOMPARE(r.lines.size(), 1);
    r = framer.feed(QByteArray(10, 'x'));
    QCOMPARE(r.lines.size(), 0);
    QCOMPARE(r.oversizedStarted, 0);
    r = framer.feed(QByteArray(10, 'x')); // now over the cap, still no newline
    QCOMPARE(r.oversizedLines, 0);
    QCOMPARE(r.oversizedStarted, 1); // said as it passes the cap, not at its end
    r = framer.feed(QByteArray(100, 'x'));
    QCOMPARE(r.oversizedStarted, 0);    // once per line
    QCOMPARE(framer.pendingBytes(), 0); // nothing buffered while discarding
    r = framer.feed("xx\n{}\n");
    QCOMPARE(r.oversizedLines, 1);
    QCOMPARE(r.oversizedStarted, 0);
    QCOMPARE(r.lines, QList<QByteArray>{"{}"});
}

QTEST_GUILESS_MAIN(tst_LineFramer)
#include "tst_lineframer.moc"
