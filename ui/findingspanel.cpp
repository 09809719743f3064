#include "findingspanel.h"

#include "clientstate.h"
#include "pagedlistmodel.h"
#include "serversession.h"
#include "statuscolors.h"
#include "terminaltext.h"

#include <QEvent>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

namespace {
enum { ListIdRole = Qt::UserRole + 1, LedgerRowRole, PageIndexRole, JsonRole };
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
    m_empty = new QLabel(this); // its text is set by rebuild(), from the session's state
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels(
        {tr("Severity"), tr("Finding"), tr("List"), tr("Page"), tr("Found by"), tr("What happened")});
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
        const QString listId = item->data(0, ListIdRole).toString();
        const int ledgerRow = item->data(0, LedgerRowRole).toInt();
        const int pageIndex = item->data(0, PageIndexRole).toInt();
        // Drift: the Compare view of the trusted definitions and now.
        if (item->text(IdColumn) == FindingId::DefinitionChanged)
            Q_EMIT compareRequested(listId);
        // An audit finding on a page the window's walk has not reached: the window goes there.
        else if (ledgerRow < 0 && pageIndex >= 0)
            Q_EMIT pageIndexRequested(listId, pageIndex);
        else
            Q_EMIT pageRequested(listId, ledgerRow);
    });
}

void FindingsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    rebuildWhenOnScreen();
}

void FindingsPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    // A theme or a zoom sets another font: columns fitted to the old one would elide ("warni…").
    // Fitted once every widget has taken the new font.
    if (m_tree && (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange))
        QTimer::singleShot(0, this, &FindingsPanel::fitColumns);
}

void FindingsPanel::fitColumns()
{
    if (!m_tree)
        return;
    for (int c = 0; c < MessageColumn; ++c)
        m_tree->resizeColumnToContents(c);
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
        connect(session, &ServerSession::stateChanged, &m_rebuild, qOverload<>(&QTimer::start));
    }
    rebuild();
}

int FindingsPanel::count() const
{
    return m_session ? m_session->findingCount() : 0;
}

QString FindingsPanel::emptyText() const
{
    return m_empty && !m_empty->isHidden() ? m_empty->text() : QString();
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
        const QList<ListSource> sources = m_session->lists();
        for (const QString &listId : m_session->findingListIds()) {
            const PagedListModel *model = m_session->existingModel(listId);
            const QList<int> rows = model ? model->walker()->walkPageRows() : QList<int>();
            const auto source = std::find_if(sources.cbegin(), sources.cend(),
                                             [&](const ListSource &l) { return l.id() == listId; });
            const QString listName = source != sources.cend() ? source->displayName() : listId;
            for (const Finding &f : m_session->findings(listId)) {
                const bool audit = f.source == Finding::Source::Audit;
                const bool baseline = f.source == Finding::Source::Baseline;
                const bool lint = f.source == Finding::Source::Lint;
                auto *item = new QTreeWidgetItem(m_tree);
                item->setIcon(SeverityColumn, colors.severityIcon(f.severity));
                item->setText(SeverityColumn, Finding::severityName(f.severity));
                item->setText(IdColumn, f.id);
                item->setText(ListColumn, listName);
                const int page = f.pages.value(0, -1);
                item->setText(PageColumn, page >= 0 ? QString::number(page + 1) : QString());
                item->setText(SourceColumn, audit      ? tr("audit")
                                            : baseline ? tr("baseline")
                                            : lint     ? tr("lint")
                                                       : tr("walk"));
                item->setToolTip(
                    SourceColumn,
                    audit ? tr("Found by the audit (Server \u203a Audit Paging), which walks and "
                               "probes the list on its own; its page number is the audit's walk's")
                    : baseline
                        ? tr("Found by comparing this connection's definitions with the ones this server "
                             "was trusted with (Server \u203a Trust Current Definitions moves them)")
                    : lint ? tr("Found by the audit's lint of the definitions (docs/findings.md, \"The "
                                "definitions lint\"): what the items say, on no one page")
                           : tr("Found by the window's walk of the list, on the page it names"));
                if (audit || baseline || lint)
                    item->setForeground(SourceColumn, colors.mutedText());
                item->setText(MessageColumn, oneLineSafe(f.message));
                item->setToolTip(MessageColumn, f.message);
                item->setData(0, ListIdRole, listId);
                // The audit walked on its own: its page N is the window's page N, when the
                // window's walk has it.
                item->setData(0, LedgerRowRole, page >= 0 && page < rows.size() ? rows.at(page) : -1);
                // One the window's walk has not reached (or a list not walked yet): by number.
                item->setData(0, PageIndexRole, audit && source != sources.cend() ? page : -1);
                QJsonObject json = f.toJson();
                json.insert(QStringLiteral("list"), listId);
                item->setData(0, JsonRole, QJsonValue(json));
            }
        }
    }
    fitColumns();
    m_tree->setVisible(m_tree->topLevelItemCount() > 0);
    m_empty->setVisible(m_tree->topLevelItemCount() == 0);
    // An empty state that says what it means: nothing judged yet, or everything judged and clean.
    if (!m_session)
        m_empty->setText(tr("No server chosen: pick one on the left, and what Folio finds in its lists "
                            "shows here."));
    else if (m_session->state() == ClientState::Connected || m_session->isReplay())
        m_empty->setText(tr("No findings — every page read so far was judged as it arrived: no cursor "
                            "loop, gap, duplicate, missing or invalid cache hint, or cursor error. Load all "
                            "pages (Ctrl+L) or audit the server (Ctrl+Shift+A) to judge more."));
    else
        m_empty->setText(
            tr("No findings yet. Connect, and Folio judges each page as it arrives: loops, gaps, "
               "duplicates, missing or invalid cache hints, cursor errors."));
}

} // namespace folio
