#include "toolcatalog.h"

#include "pagewalker.h"
#include "rowstore.h"

namespace folio {

ToolCatalog::ToolCatalog(McpClient *client, TtlClock *clock, QObject *parent)
    : QObject(parent)
    , m_walker(new PageWalker(client, ListSource::protocol(ListKind::Tools), clock, this))
{
    // Queued: a walk that ends cancelled may be followed at once by one that goes on (a restart),
    // which is still loading when this runs.
    connect(m_walker, &PageWalker::walkFinished, this, &ToolCatalog::handleWalkFinished,
            Qt::QueuedConnection);
}

ToolCatalog::~ToolCatalog()
{
    delete m_walker; // before anything it was given goes (its pages are on the caller's clock)
}

void ToolCatalog::setPageCap(int cap)
{
    m_walker->setPageCap(cap);
}

void ToolCatalog::find()
{
    m_found = false;
    m_walker->fetchAll();
}

bool ToolCatalog::isComplete() const
{
    return m_walker->isComplete();
}

QString ToolCatalog::stopReason() const
{
    return m_walker->stopReason();
}

QString ToolCatalog::missingToolText(const QString &name) const
{
    if (!isComplete())
        return QStringLiteral("tool '%1' not found, and tools/list did not complete (%2)")
            .arg(name, stopReason());
    return QStringLiteral("the server has no tool named '%1'").arg(name);
}

void ToolCatalog::handleWalkFinished()
{
    if (m_found || m_walker->isLoading())
        return; // a cancelled page: the walk goes on
    m_found = true;
    Q_EMIT found();
}

const RowStore &ToolCatalog::rows() const
{
    return *m_walker->rows();
}

std::optional<QJsonObject> ToolCatalog::toolIn(const RowStore &rows, const QString &name)
{
    for (int row = 0; row < rows.rowCount(); ++row) {
        QJsonObject tool = rows.item(row);
        if (tool.value(QStringLiteral("name")).toString() == name)
            return tool;
    }
    return std::nullopt;
}

QList<QJsonObject> ToolCatalog::toolsIn(const RowStore &rows)
{
    QList<QJsonObject> tools;
    tools.reserve(rows.rowCount());
    for (int row = 0; row < rows.rowCount(); ++row)
        tools.append(rows.item(row));
    return tools;
}

QList<ListSource> ToolCatalog::listToolsIn(const RowStore &rows)
{
    QList<ListSource> found;
    for (int row = 0; row < rows.rowCount(); ++row) {
        if (!ListSource::mayBeListTool(rows.itemText(row).toByteArray()))
            continue; // most tools: no need to parse them
        if (auto s = ListSource::fromTool(rows.item(row)))
            found.append(*s);
    }
    return found;
}

} // namespace folio
