#pragma once

#include <QString>

namespace folio {

class SecretStore;
class ServerListModel;

// `folio --screenshots DIR`: opens the window on the demo server, walks its lists, and saves PNGs
// of the main views in the light and the dark palette. Runs offscreen as well as on a display.
int takeScreenshots(ServerListModel *servers, SecretStore *secrets, const QString &directory);

} // namespace folio
