#pragma once

#include <QList>
#include <QString>

class QAction;
class QMenuBar;

namespace folio {

// The window's actions as its menus hold them, read from the menus themselves (so whatever reads
// them is never out of date): the shortcuts dialog and the command palette.
struct MenuAction
{
    QString menu; // the top menu's text, plain ("View")
    QString path; // within it, submenus first ("Go To › Table"), plain
    QAction *action = nullptr;
};
// Every action of every menu of the bar (separators and submenus' own entries left out), in menu order.
QList<MenuAction> menuActions(const QMenuBar *bar);
// A menu text without its mnemonic marks ("&Load All" → "Load All"; "&&" stays one "&").
QString plainMenuText(const QString &text);
// An action's keys as the platform writes them, comma-separated; "" for none.
QString actionKeys(const QAction *action);

} // namespace folio
