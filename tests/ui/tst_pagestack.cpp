#include "pagestack.h"

#include <QLabel>
#include <QTest>
#include <QVBoxLayout>

using namespace folio;

// PageStack: sized by the page shown, and never asks a hidden page for its size.
class tst_PageStack : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sizedByCurrentPage();
    void hiddenPagesAreNotMeasured();
    void parentFollowsPageChange();
};

namespace {

// A page of a given size hint that counts how often it is asked for its height for a width.
class Page : public QWidget
{
public:
    explicit Page(QSize hint, bool heightForWidth = false)
        : m_hint(hint)
    {
        QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
        policy.setHeightForWidth(heightForWidth);
        setSizePolicy(policy);
    }
    QSize sizeHint() const override { return m_hint; }
    QSize minimumSizeHint() const override { return m_hint / 2; }
    int heightForWidth(int width) const override
    {
        ++asked;
        return m_hint.height() + width / 10;
    }

    mutable int asked = 0;

private:
    QSize m_hint;
};

} // namespace

void tst_PageStack::sizedByCurrentPage()
{
    PageStack stack;
    auto *small = new Page({100, 40});
    auto *big = new Page({600, 400});
    QCOMPARE(stack.addWidget(small), 0);
    QCOMPARE(stack.addWidget(big), 1);
    QCOMPARE(stack.count(), 2);
    QCOMPARE(stack.currentWidget(), small);
    QCOMPARE(stack.sizeHint(), QSize(100, 40));
    QCOMPARE(stack.minimumSizeHint(), QSize(50, 20));
    stack.setCurrentWidget(big);
    QCOMPARE(stack.currentIndex(), 1);
    QCOMPARE(stack.sizeHint(), QSize(600, 400));
    QCOMPARE(stack.minimumSizeHint(), QSize(300, 200));
    // A page that ignores its size hint counts for nothing, as in QStackedWidget.
    big->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    stack.layout()->invalidate();
    QCOMPARE(stack.sizeHint(), QSize(0, 0));
}

void tst_PageStack::hiddenPagesAreNotMeasured()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *stack = new PageStack(&window);
    layout->addWidget(stack);
    auto *shown = new Page({200, 50}, true);
    auto *hidden = new Page({200, 50}, true);
    stack->addWidget(shown);
    stack->addWidget(hidden);
    window.resize(400, 300);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.resize(300, 300);
    window.resize(500, 300);
    QCoreApplication::processEvents();
    QVERIFY(shown->asked > 0); // the shown page's height for width does count
    QCOMPARE(hidden->asked, 0);
    QVERIFY(stack->hasHeightForWidth());
    QCOMPARE(stack->heightForWidth(300), 50 + 30);
}

void tst_PageStack::parentFollowsPageChange()
{
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    auto *stack = new PageStack(&window);
    layout->addWidget(stack);
    auto *small = new Page({100, 40});
    auto *big = new Page({600, 400});
    stack->addWidget(small);
    stack->addWidget(big);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.height() < 200);
    stack->setCurrentWidget(big);
    // The window's minimum follows the bigger page once the layouts have run again.
    QTRY_VERIFY(window.height() >= 200);
    QVERIFY(big->isVisible());
    QVERIFY(!small->isVisible());
}

QTEST_MAIN(tst_PageStack)
#include "tst_pagestack.moc"
