#include "pagestack.h"

#include <QStackedLayout>

namespace folio {

namespace {

// A QStackedLayout whose sizes are those of its current page.
class CurrentPageLayout : public QStackedLayout
{
public:
    using QStackedLayout::QStackedLayout;

    QSize sizeHint() const override { return current(&QLayoutItem::sizeHint); }
    QSize minimumSize() const override { return current(&QLayoutItem::minimumSize); }

    bool hasHeightForWidth() const override
    {
        const QWidget *page = currentWidget();
        return page && page->hasHeightForWidth();
    }

    int heightForWidth(int width) const override
    {
        const QWidget *page = currentWidget();
        if (!page || !page->hasHeightForWidth())
            return -1;
        // The page itself, not its layout item: an item answers -1 while its widget is hidden.
        return qMax(page->heightForWidth(width), minimumSize().height());
    }

private:
    QSize current(QSize (QLayoutItem::*size)() const) const
    {
        const QLayoutItem *item = itemAt(currentIndex());
        if (!item || !item->widget())
            return {0, 0};
        QSize s = (item->*size)();
        const QSizePolicy policy = item->widget()->sizePolicy();
        if (policy.horizontalPolicy() == QSizePolicy::Ignored)
            s.setWidth(0);
        if (policy.verticalPolicy() == QSizePolicy::Ignored)
            s.setHeight(0);
        return s;
    }
};

} // namespace

PageStack::PageStack(QWidget *parent)
    : QWidget(parent)
    , m_layout(new CurrentPageLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    // Another page, another size: have the layouts above ask again.
    connect(m_layout, &QStackedLayout::currentChanged, this, [this] {
        m_layout->invalidate();
        updateGeometry();
    });
}

int PageStack::addWidget(QWidget *page)
{
    return m_layout->addWidget(page);
}

void PageStack::setCurrentWidget(QWidget *page)
{
    m_layout->setCurrentWidget(page);
}

void PageStack::setCurrentIndex(int index)
{
    m_layout->setCurrentIndex(index);
}

QWidget *PageStack::currentWidget() const
{
    return m_layout->currentWidget();
}

int PageStack::currentIndex() const
{
    return m_layout->currentIndex();
}

int PageStack::count() const
{
    return m_layout->count();
}

} // namespace folio
