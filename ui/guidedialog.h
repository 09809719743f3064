#pragma once

#include <QDialog>

class QTextBrowser;

namespace folio {

// Help > What Am I Looking At?: the window's parts in plain words — the page strip and its chips,
// the table's margin, the inspector, the timeline, the findings and the sidebar — under the legend
// of the colours, drawn in the palette's own status colours (right in light and dark).
class GuideDialog : public QDialog
{
    Q_OBJECT
public:
    explicit GuideDialog(QWidget *parent = nullptr);

    QTextBrowser *text() const { return m_text; }
    // The guide as HTML (its colours from the palette).
    static QString html(const QPalette &palette);

protected:
    void changeEvent(QEvent *event) override;

private:
    QTextBrowser *m_text;
};

} // namespace folio
