#include "framepacer.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QPainter>
#include <QTest>
#include <QWidget>

using namespace folio;

namespace {
class CountingWidget : public QWidget
{
public:
    int paints = 0;
    int lastPaintedValue = -1;
    int value = 0;

protected:
    void paintEvent(QPaintEvent *) override
    {
        ++paints;
        lastPaintedValue = value;
        QPainter(this).fillRect(rect(), Qt::white);
    }
};
// Shows the window, paced, and lets it settle: a quiet spell longer than the interval.
bool showPaced(CountingWidget &window, FramePacer *pacer)
{
    window.resize(200, 100);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    // Time itself is what is waited for here: no frame for longer than the interval.
    const QDeadlineTimer quiet(pacer->intervalMs() + 30);
    return QTest::qWaitFor([&quiet] { return quiet.hasExpired(); }, pacer->intervalMs() + 1000);
}
} // namespace

// FramePacer on a real window (offscreen): bursts of update requests become one frame per
// interval, nothing asked is lost, a lone request goes at once, a repaint() at most an interval later.
class tst_FramePacer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void burstIsPacedAndNothingIsLost();
    void loneRequestGoesAtOnce();
    void repaintIsServedWithinAnInterval();
};

void tst_FramePacer::burstIsPacedAndNothingIsLost()
{
    CountingWidget window;
    auto *pacer = new FramePacer(&window, 20);
    QVERIFY(showPaced(window, pacer));
    const int before = window.paints;
    // 400 event-loop turns, each asking for a frame, over about as many milliseconds or less.
    QElapsedTimer timer;
    timer.start();
    for (int i = 1; i <= 400; ++i) {
        window.value = i;
        window.update();
        QCoreApplication::processEvents();
        if (i % 4 == 0)
            QTest::qSleep(1);
    }
    const qint64 elapsed = timer.elapsed();
    QTRY_COMPARE(window.lastPaintedValue, 400); // the last request is painted
    const int frames = window.paints - before;
    // At most one frame per interval (and the one at the start), not one per turn.
    QVERIFY2(frames <= elapsed / pacer->intervalMs() + 3,
             qPrintable(QStringLiteral("%1 frames in %2 ms").arg(frames).arg(elapsed)));
    QVERIFY(frames >= 1);
    QVERIFY(pacer->heldCount() > 0);
}

void tst_FramePacer::loneRequestGoesAtOnce()
{
    CountingWidget window;
    auto *pacer = new FramePacer(&window, 16);
    QVERIFY(showPaced(window, pacer));
    const int held = pacer->heldCount();
    const int before = window.paints;
    window.update();
    // The request is served in the next turns of the event loop, not held for an interval.
    for (int i = 0; i < 5 && window.paints == before; ++i)
        QCoreApplication::processEvents();
    QCOMPARE(window.paints, before + 1);
    QCOMPARE(pacer->heldCount(), held);
}

void tst_FramePacer::repaintIsServedWithinAnInterval()
{
    CountingWidget window;
    QVERIFY(showPaced(window, new FramePacer(&window, 40)));
    // After a quiet spell, repaint() paints before it returns.
    int before = window.paints;
    window.repaint();
    QCOMPARE(window.paints, before + 1);
    // Right after a frame, it is held, and painted when the interval is up: not lost.
    before = window.paints;
    window.value = 7;
    window.repaint();
    QTRY_COMPARE_WITH_TIMEOUT(window.lastPaintedValue, 7, 1000);
    QCOMPARE(window.paints, before + 1);
}

QTEST_MAIN(tst_FramePacer)
#include "tst_framepacer.moc"
