#pragma once

#include <QList>
#include <QWidget>

namespace folio {

// One line of text in runs, some bold, elided at the end when narrow (the whole text is then its
// tooltip); its context menu copies the text. QLabel would need rich text for the bold runs, and
// a rich-text label is a text document laid out again each time a layout asks its size, and drawn
// through it: the server header was a tenth of the window's work before its first page showed.
class RunsLabel : public QWidget
{
    Q_OBJECT
public:
    struct Run
    {
        QString text;
        bool bold = false;
    };

    explicit RunsLabel(QWidget *parent = nullptr);

    void setRuns(const QList<Run> &runs);
    QString text() const; // the runs' text, joined

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QFont runFont(const Run &run) const;
    int textWidth() const;
    void updateToolTip();

    QList<Run> m_runs;
    mutable int m_width = -1; // of the whole text, unelided; -1 when to measure again
};

} // namespace folio
