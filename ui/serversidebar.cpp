#include "serversidebar.h"

#include "icons.h"
#include "serverlistactions.h"
#include "serverlistdelegate.h"
#include "serverlistmodel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QVBoxLayout>

namespace folio {

ServerSidebar::ServerSidebar(ServerListModel *servers, QWidget *window)
    : QWidget(window)
    , m_list(new QListView(this))
    , m_actions(new ServerListActions(servers, m_list, window))
{
    setObjectName(QStringLiteral("serverSidebar"));
    auto *side = new QVBoxLayout(this);
    side->setContentsMargins(6, 6, 0, 6);
    auto *title = new QLabel(tr("Servers"), this); // plain text: no rich-text layout to size it
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    side->addWidget(title);
    m_list->setModel(servers);
    m_list->setItemDelegate(new ServerListDelegate(m_list));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_list->setAccessibleName(tr("Servers"));
    side->addWidget(m_list, 1);
    auto *buttons = new QHBoxLayout;
    auto *add = new QPushButton(tr("Add"), this);
    add->setToolTip(tr("Add a server (Ctrl+N)"));
    auto *import = new QPushButton(tr("Import…"), this);
    import->setToolTip(tr("Import servers from Claude Desktop, Cursor, .mcp.json or VS Code (Ctrl+I)"));
    add->setIcon(actionIcon(QStringLiteral("add")));
    import->setIcon(actionIcon(QStringLiteral("import")));
    buttons->addWidget(add);
    buttons->addWidget(import);
    side->addLayout(buttons);
    connect(add, &QPushButton::clicked, m_actions, &ServerListActions::addServer);
    connect(import, &QPushButton::clicked, m_actions, &ServerListActions::importServers);
}

} // namespace folio
