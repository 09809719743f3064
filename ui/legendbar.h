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

protected:
    void paintEvent(QPaintEvent *event) override;
};

} // namespace folio
