#pragma once

#include <QWidget>

class QStackedLayout;

namespace folio {

// Pages shown one at a time, like QStackedWidget, but sized by the page shown alone.
// QStackedWidget takes the largest page's size: its layout asks every page, hidden or not, for
// its size hints and height-for-width on each layout pass. A hidden page of word-wrapped or rich
// text then costs a full text layout per width asked (it was a fifth of the window's work before
// its first page was on screen), and a tall hidden page keeps the shown one from shrinking.
class PageStack : public QWidget
{
    Q_OBJECT
public:
    explicit PageStack(QWidget *parent = nullptr);

    int addWidget(QWidget *page);
    void setCurrentWidget(QWidget *page);
    void setCurrentIndex(int index);
    QWidget *currentWidget() const;
    int currentIndex() const;
    int count() const;

private:
    QStackedLayout *m_layout;
};

} // namespace folio
