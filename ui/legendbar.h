#pragma once

#include <QWidget>

namespace folio {

// The visual language in one line, for a room that has not learnt it: the page states' colours,
// the cache scopes' badges and the findings' severities, each with its name. Drawn in the palette's
// status colours, so it is right in light and dark.
class LegendBar : public QWidget
{
    Q_OBJECT
public:
    explicit LegendBar(QWidget *parent = nullptr);

    // The names shown, in order (for tests and the tooltip).
    static QStringList entryNames();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // Entries that do not fit on a line wrap whole onto the next (at a projector's zoom, at
    // 1024 px): none is left out or cut.
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
};

} // namespace folio
