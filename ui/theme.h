#pragma once

#include <QString>

class QApplication;

namespace folio {

// Light, dark, or whatever the system says. Qt 6.4 has no colour-scheme hint, so "system" keeps
// the platform palette (which follows the desktop's dark mode where the platform theme does).
namespace Theme {
enum class Mode { System, Light, Dark };
void apply(Mode mode);
Mode load(); // from QSettings (SettingsKey::Theme)
void save(Mode mode);
QString name(Mode mode);
} // namespace Theme

} // namespace folio
