#pragma once

#include <QString>

class QApplication;
class QMenu;

namespace folio {

// Light, dark, or whatever the system says. Qt 6.4 has no colour-scheme hint, so "system" keeps
// the platform palette (which follows the desktop's dark mode where the platform theme does).
namespace Theme {
enum class Mode { System, Light, Dark };
void apply(Mode mode);
Mode load(); // from QSettings (SettingsKey::Theme)
void save(Mode mode);
QString name(Mode mode);
// View > Theme: System, Light, Dark, the saved one checked; choosing one applies and saves it.
void addMenu(QMenu *view);
} // namespace Theme

} // namespace folio
