#pragma once

#include <QString>
#include <QWidget>

namespace folio {

// One line of text that never widens its window: drawn elided to the width it is given, whole in
// its tooltip and in its context menu's Copy. Its text may come from a server (an error, a status)
// and be any length; only its first line is drawn.
class ElidedLabel : public QWidget
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    QString text() const { return m_text; }
    void setText(const QString &text);
    void setElideMode(Qt::TextElideMode mode);
    // Whether the text drawn is shorter than text() (elided, or only its first line).
    bool isElided() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QString firstLine() const;
    void updateToolTip();

    QString m_text;
    Qt::TextElideMode m_mode = Qt::ElideRight;
};

} // namespace folio
