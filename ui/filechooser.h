#pragma once

#include <QString>

class QByteArray;
class QWidget;

namespace folio {

// Every file dialog of the window that reads or writes the user's files (sessions, snapshots,
// reports, exports, saved contents) opens in the folder of the last file chosen in any of them,
// remembered across runs (SettingsKey::FileDir); the first time, the Documents folder.
namespace FileChooser {

// Where a dialog for suggestedName starts: the remembered folder joined with it.
QString startPath(const QString &suggestedName);
// The folder of path becomes the one the next dialog starts in.
void remember(const QString &path);

// A file to write, named suggestedName in the remembered folder until the user says otherwise.
// Empty when cancelled. selectedFilter: in, the filter shown first; out, the one chosen.
QString saveFile(QWidget *parent, const QString &title, const QString &suggestedName,
                 const QString &filters = {}, QString *selectedFilter = nullptr);
// A file to read, looked for in the remembered folder. Empty when cancelled.
QString openFile(QWidget *parent, const QString &title, const QString &filters);

// Asks where, then writes bytes there in one step (a file never half written). Returns the line
// for the status bar: "Saved PATH (SIZE)" or what went wrong; empty when the user cancelled.
QString saveBytes(QWidget *parent, const QString &title, const QByteArray &bytes,
                  const QString &suggestedName);
// The writing half of saveBytes(), the path already chosen (empty: nothing written, nothing said).
QString writeBytes(const QString &path, const QByteArray &bytes);

} // namespace FileChooser

} // namespace folio
