#include "fonts.h"

#include <QEvent>
#include <QFontDatabase>
#include <QHeaderView>
#include <QTableView>
#include <QtGlobal>

namespace folio {

namespace {

QFont scaled(QFont f, qreal factor)
{
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * factor);
    else
        f.setPixelSize(qMax(8, qRound(f.pixelSize() * factor)));
    return f;
}

class RowFitter : public QObject
{
public:
    RowFitter(QTableView *table, int padding)
        : QObject(table)
        , m_table(table)
        , m_padding(padding)
    {
        fit();
        table->installEventFilter(this);
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_table && event->type() == QEvent::FontChange)
            fit();
        return false;
    }

private:
    void fit()
    {
        m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + m_padding);
    }

    QTableView *m_table;
    int m_padding;
};

} // namespace

void keepRowsFitted(QTableView *table, int padding)
{
    new RowFitter(table, padding);
}

QFont fixedFont()
{
    static const QString family = QFontDatabase::systemFont(QFontDatabase::FixedFont).family();
    QFont font; // resolves nothing yet: a widget fills in what is not set from its parent
    font.setFamilies({family});
    font.setStyleHint(QFont::Monospace);
    return font;
}

QFont smallFont(const QFont &base)
{
    return scaled(base, 0.85);
}

QFont titleFont(const QFont &base)
{
    QFont f = scaled(base, 1.15);
    f.setBold(true);
    return f;
}

} // namespace folio
