#pragma once

#include "commandpalette.h"

class QMenuBar;
class QAction;

namespace folio {

class ServerListModel;
class ServerView;

// What Find anything (Ctrl+K) offers, gathered anew at each opening so that it is never out of
// date. Each entry carries what choosing it does; an entry whose target has gone does nothing.
namespace PaletteEntries {

// The menus' visible, enabled actions by their path ("List › Load All Pages"), except skip.
QList<CommandPalette::Entry> actions(const QMenuBar *menus, const QAction *skip);
// The saved servers; choosing one calls select with its row.
QList<CommandPalette::Entry> servers(const ServerListModel *servers, const std::function<void(int)> &select);
// The server's lists, the items loaded in them (at most maxItems in all, so that a million loaded
// rows open the palette as fast as a few) and their findings. Choosing a finding calls goToPage
// with its list and the index of its first page in the walk (-1 when it names no page).
QList<CommandPalette::Entry> contents(ServerView *view, int maxItems,
                                      const std::function<void(const QString &, int)> &goToPage);

} // namespace PaletteEntries
} // namespace folio
