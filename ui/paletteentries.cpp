#include "paletteentries.h"

#include "listview.h"
#include "menuactions.h"
#include "pagedlistmodel.h"
#include "serverlistmodel.h"
#include "serversession.h"
#include "serverview.h"

#include <QAction>
#include <QCoreApplication>
#include <QJsonObject>
#include <QMenuBar>
#include <QPointer>

namespace folio::PaletteEntries {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("folio::PaletteEntries", text);
}

// An item's name as a user would look for it: its name, else its URI, template or id.
QString itemName(const QJsonObject &item)
{
    for (const char *key : {"name", "uri", "uriTemplate", "id"}) {
        const QString name = item.value(QLatin1StringView(key)).toString();
        if (!name.isEmpty())
            return name;
    }
    return QString();
}
} // namespace

QList<CommandPalette::Entry> actions(const QMenuBar *menus, const QAction *skip)
{
    QList<CommandPalette::Entry> entries;
    for (const MenuAction &m : menuActions(menus)) {
        if (!m.action->isVisible() || !m.action->isEnabled() || m.action == skip)
            continue;
        QString text = m.menu + QStringLiteral(" \u203a ") + m.path;
        if (text.endsWith(QStringLiteral("\u2026")))
            text.chop(1);
        QPointer<QAction> action(m.action);
        entries.append({tr("Action"), text, actionKeys(m.action), [action] {
                            if (action && action->isEnabled())
                                action->trigger();
                        }});
    }
    return entries;
}

QList<CommandPalette::Entry> servers(const ServerListModel *servers, const std::function<void(int)> &select)
{
    QList<CommandPalette::Entry> entries;
    for (int row = 0; row < servers->rowCount(); ++row) {
        const QModelIndex index = servers->index(row);
        entries.append({tr("Server"), index.data().toString(),
                        index.data(ServerListModel::TargetRole).toString(), [select, row] { select(row); }});
    }
    return entries;
}

QList<CommandPalette::Entry> contents(ServerView *view, int maxItems,
                                      const std::function<void(const QString &, int)> &goToPage)
{
    QList<CommandPalette::Entry> entries;
    if (!view)
        return entries;
    const QPointer<ServerView> guarded(view);
    ServerSession *session = view->session();
    const QStringList ids = view->listIds();
    for (const QString &id : ids)
        entries.append({tr("List"), id, session->displayName(), [guarded, id] {
                            if (guarded)
                                guarded->showList(id);
                        }});
    int items = 0;
    for (const QString &id : ids) {
        ListView *list = view->listView(id);
        const PagedListModel *model = list ? list->model() : nullptr;
        for (int row = 0; model && row < model->rowCount() && items < maxItems; ++row, ++items) {
            const QString name = itemName(model->item(row));
            if (name.isEmpty())
                continue;
            entries.append({tr("Item"), name, id, [guarded, id, row] {
                                if (!guarded)
                                    return;
                                guarded->showList(id);
                                if (ListView *l = guarded->listView(id))
                                    l->selectItem(row);
                            }});
        }
        for (const Finding &f : session->findings(id)) {
            const int page = f.pages.value(0, -1);
            entries.append({tr("Finding"), f.id + QStringLiteral(": ") + f.message,
                            page >= 0 ? tr("%1, page %2").arg(id).arg(page + 1) : id,
                            [guarded, goToPage, id, page] {
                                if (page >= 0)
                                    goToPage(id, page);
                                else if (guarded)
                                    guarded->showList(id);
                            }});
        }
    }
    return entries;
}

} // namespace folio::PaletteEntries
