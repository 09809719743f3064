#pragma once

#include <QHash>
#include <QLabel>

namespace folio {

// A word-wrapped QLabel that remembers its height for each width it was asked about. Layouts ask
// a wrapped label's heightForWidth() many times per pass (a QStackedLayout asks every page, shown
// or not), and each answer lays out and shapes the whole text again: that was a quarter of the
// window's work before its first page was on screen.
class WrapLabel : public QLabel
{
    Q_OBJECT
public:
    explicit WrapLabel(QWidget *parent = nullptr);

    // Use instead of QLabel::setText (which is not virtual): forgets the remembered heights.
    void setText(const QString &text);

    int heightForWidth(int width) const override;

protected:
    void changeEvent(QEvent *event) override;

private:
    mutable QHash<int, int> m_heights;
};

} // namespace folio
