#include "findingspanel.h"

#include "pagedlistmodel.h"
#include "serversession.h"
#include "statuscolors.h"

#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace folio {

namespace {
enum { ListIdRole = Qt::UserRole + 1, LedgerRowRole, JsonRole };
}

FindingsPanel::FindingsPanel(QWidget *parent)
    : QWidget(parent)
{
    m_rebuild.setSingleShot(true);
    m_rebuild.setInterval(0);
    connect(&m_rebuild, &QTimer::timeout, this, &FindingsPanel::rebuild);
}

// The tree is made, and filled, once the panel is on screen: the findings dock starts tabbed
// behind the timeline, and a panel nobody sees has nothing to keep up to date.
void FindingsPanel::build()
{
    if (m_tree)
        return;
    m_tree = new QTreeWidget(this);
    m_empty = new QLabel(tr("No findings. Folio judges each page as it arrives: loops, gaps, duplicates, "
                            "missing or invalid cache hints, cursor errors."),
                         this);
    m_tree->setColumnCount(5);
    m_tree->setHeaderLabels({tr("Severity"), tr("Finding"), tr("List"), tr("Page"), tr("What happened")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_copy =
        addRowCopyActions(m_tree, [](const QModelIndex &row) { return row.data(JsonRole).toJsonValue(); });
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);
    layout->addWidget(m_empty);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        Q_EMIT pageRequested(item->data(0, ListIdRole).toString(), item->data(0, LedgerRowRole).toInt());
    });
}

void FindingsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    rebuildWhenOnScreen();
}

void FindingsPanel::rebuildWhenOnScreen()
{
    if (!m_tree || m_stale)
        m_rebuild.start();
}

void FindingsPanel::setSession(ServerSession *session)
{
    if (m_session)
        m_session->disconnect(this);
    m_session = session;
    if (session) {
        connect(session, &ServerSession::findingsChanged, &m_rebuild, qOverload<>(&QTimer::start));
        connect(session, &ServerSession::listsChanged, &m_rebuild, qOverload<>(&QTimer::start));
    }
    rebuild();
}

int FindingsPanel::count() const
{
    int n = 0;
    if (m_session) {
        for (PagedListModel *model : m_session->openModels())
            n += int(model->walker()->findings().size());
    }
    return n;
}

void FindingsPanel::rebuild()
{
    // A dock tabbed behind another is "visible" but moved off the window: rebuilt once on screen.
    m_stale = !isVisible() || visibleRegion().isEmpty();
    if (m_stale)
        return;
    build();
    m_tree->clear();
    const StatusColors colors(palette());
    if (m_session) {
        for (PagedListModel *model : m_session->openModels()) {
            const QList<int> rows = model->walker()->walkPageRows();
            for (const Finding &f : model->walker()->findings()) {
                auto *item = new QTreeWidgetItem(m_tree);
                item->setIcon(0, colors.severityIcon(f.severity));
                item->setText(0, Finding::severityName(f.severity));
                item->setText(1, f.id);
                item->setText(2, model->source().displayName());
                const int page = f.pages.value(0, -1);
                item->setText(3, page >= 0 ? QString::number(page + 1) : QString());
                item->setText(4, f.message);
                item->setToolTip(4, f.message);
                item->setData(0, ListIdRole, model->source().id());
                item->setData(0, LedgerRowRole, page >= 0 && page < rows.size() ? rows.at(page) : -1);
                QJsonObject json = f.toJson();
                json.insert(QStringLiteral("list"), model->source().id());
                item->setData(0, JsonRole, QJsonValue(json));
            }
        }
    }
    for (int c = 0; c < 4; ++c)
        m_tree->resizeColumnToContents(c);
    m_tree->setVisible(m_tree->topLevelItemCount() > 0);
    m_empty->setVisible(m_tree->topLevelItemCount() == 0);
}

} // namespace folio
