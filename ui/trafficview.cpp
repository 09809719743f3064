#include "trafficview.h"

#include "filechooser.h"
#include "fonts.h"
#include "icons.h"
#include "trafficexport.h"
#include "trafficlogmodel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
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
    m_exportStatus = new QLabel(this);
    m_exportStatus->setForegroundRole(QPalette::PlaceholderText);
    bar->addWidget(m_exportStatus);
    m_export = new QAction(tr("Export…"), this);
    m_export->setToolTip(tr("Save the traffic as JSON Lines, or its HTTP exchanges as HAR"));
    m_export->setIcon(actionIcon(QStringLiteral("export")));
    auto *exportButton = new QToolButton(this);
    exportButton->setDefaultAction(m_export);
    exportButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addWidget(exportButton);

    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setVisible(false);
    keepRowsFitted(m_table, 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_text->setReadOnly(true);
    m_text->setFont(fixedFont());
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

    m_copy = addRowCopyActions(m_table, [this](const QModelIndex &row) {
        const QModelIndex source = m_proxy->mapToSource(row);
        if (!m_log || !source.isValid() || source.row() >= m_log->entries().size())
            return QJsonValue();
        return TrafficExport::messageJson(m_log->entries().at(source.row()));
    });
    auto *separator = new QAction(this);
    separator->setSeparator(true);
    m_table->addAction(separator);
    m_table->addAction(m_export);
    connect(m_export, &QAction::triggered, this, &TrafficView::exportWithDialog);
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

RowCopyActions TrafficView::copyActions()
{
    build();
    return m_copy;
}

QAction *TrafficView::exportAction()
{
    build();
    return m_export;
}

QString TrafficView::exportStatus() const
{
    return m_exportStatus ? m_exportStatus->text() : QString();
}

void TrafficView::exportWithDialog()
{
    if (!m_log)
        return;
    const QString jsonl = tr("JSON Lines (*.jsonl)");
    const QString har = tr("HTTP Archive (*.har)");
    QStringList filters{jsonl};
    if (!m_log->httpExchanges().isEmpty())
        filters << har;
    QString chosen = jsonl;
    const QString path = FileChooser::saveFile(this, tr("Export Traffic"), QStringLiteral("traffic.jsonl"),
                                               filters.join(QStringLiteral(";;")), &chosen);
    if (path.isEmpty())
        return;
    const bool isHar = chosen == har || path.endsWith(QLatin1String(".har"), Qt::CaseInsensitive);
    exportTo(path, isHar ? ExportFormat::Har : ExportFormat::JsonLines);
}

bool TrafficView::exportTo(const QString &path, ExportFormat format)
{
    build();
    if (!m_log)
        return false;
    QByteArray data;
    qsizetype count = 0;
    if (format == ExportFormat::Har) {
        const QString version = QCoreApplication::applicationVersion();
        data = QJsonDocument(TrafficExport::toHar(m_log->httpExchanges(),
                                                  version.isEmpty() ? QStringLiteral("0.1.0") : version))
                   .toJson(QJsonDocument::Indented);
        count = m_log->httpExchanges().size();
    } else {
        data = TrafficExport::toJsonLines(m_log->entries());
        count = m_log->entries().size();
    }
    QString error;
    const bool ok = TrafficExport::writeFile(path, data, &error);
    const QString name = QFileInfo(path).fileName();
    m_exportStatus->setText(ok ? (format == ExportFormat::Har
                                      ? tr("%n HTTP exchange(s) exported to %1", nullptr, int(count))
                                      : tr("%n message(s) exported to %1", nullptr, int(count)))
                                     .arg(name)
                               : tr("Export to %1 failed: %2").arg(name, error));
    m_exportStatus->setForegroundRole(ok ? QPalette::PlaceholderText : QPalette::Text);
    return ok;
}

} // namespace folio
