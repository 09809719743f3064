#include "trafficview.h"

#include "trafficlogmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace folio {

namespace {
// Filters on text and direction together (QSortFilterProxyModel takes one pattern).
class TrafficFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    QString text;
    int direction = -1; // -1 all, 0 out, 1 in, 2 errors
    void refresh() { invalidateFilter(); }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        const QModelIndex idx = sourceModel()->index(row, 0, parent);
        if (direction == 2 && !idx.data(TrafficLogModel::IsErrorRole).toBool())
            return false;
        if (direction == 0 || direction == 1) {
            const int dir = idx.data(TrafficLogModel::DirectionRole).toInt();
            if (dir != direction)
                return false;
        }
        if (text.isEmpty())
            return true;
        return idx.data(TrafficLogModel::TextRole).toByteArray().contains(text.toUtf8()) ||
               sourceModel()
                   ->index(row, TrafficLogModel::MethodColumn, parent)
                   .data()
                   .toString()
                   .contains(text, Qt::CaseInsensitive);
    }
};
} // namespace

TrafficView::TrafficView(QWidget *parent)
    : QWidget(parent)
{}

// The view's widgets are made once it is on screen (or its table is asked for): the traffic dock
// starts tabbed behind the timeline, and its table, text pane and filter were a tenth of the
// window's work before the first page was on screen.
void TrafficView::build()
{
    if (m_table)
        return;
    m_model = new TrafficLogModel(this);
    m_proxy = new TrafficFilter(this);
    m_table = new QTableView(this);
    m_text = new QPlainTextEdit(this);
    m_filter = new QLineEdit(this);
    m_direction = new QComboBox(this);
    m_follow = new QCheckBox(tr("Follow"), this);
    m_filter->setPlaceholderText(tr("Filter by method or text"));
    m_filter->setClearButtonEnabled(true);
    m_direction->addItems({tr("All"), tr("Sent"), tr("Received"), tr("Errors")});
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Scroll to each new message"));
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 4, 4, 0);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_direction);
    bar->addWidget(m_follow);

    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("Select a message to read it in full"));
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_table);
    split->addWidget(m_text);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(m_filter, &QLineEdit::textChanged, this, &TrafficView::updateFilter);
    connect(m_direction, &QComboBox::currentIndexChanged, this, &TrafficView::updateFilter);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &TrafficView::showSelected);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_follow->isChecked())
            m_table->scrollToBottom();
    });
    showLog();
}

QTableView *TrafficView::table()
{
    build();
    return m_table;
}

void TrafficView::setLog(TrafficLog *log)
{
    m_log = log;
    if (m_table)
        showLog();
}

void TrafficView::showLog()
{
    m_model->setLog(m_log);
    m_text->clear();
    m_table->resizeColumnsToContents();
}

void TrafficView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    buildWhenOnScreen();
}

void TrafficView::buildWhenOnScreen()
{
    // A dock tabbed behind another is "visible" but moved off the window: build only once on
    // screen, when the events in flight have settled.
    if (!m_table)
        QTimer::singleShot(0, this, [this] {
            if (isVisible() && !visibleRegion().isEmpty())
                build();
        });
}

void TrafficView::updateFilter()
{
    auto *f = static_cast<TrafficFilter *>(m_proxy);
    f->text = m_filter->text();
    f->direction = m_direction->currentIndex() - 1;
    f->refresh();
}

void TrafficView::showSelected()
{
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    m_text->setPlainText(current.isValid() ? m_model->prettyText(current.row()) : QString());
}

} // namespace folio
