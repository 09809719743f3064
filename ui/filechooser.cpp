#include "filechooser.h"

#include "mcperror.h"
#include "settingskeys.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>

namespace folio::FileChooser {

QString startPath(const QString &suggestedName)
{
    QString dir = QSettings().value(SettingsKey::FileDir).toString();
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = QDir::homePath();
    return suggestedName.isEmpty() ? dir : QDir(dir).filePath(suggestedName);
}

void remember(const QString &path)
{
    if (!path.isEmpty())
        QSettings().setValue(SettingsKey::FileDir, QFileInfo(path).absolutePath());
}

QString saveFile(QWidget *parent, const QString &title, const QString &suggestedName, const QString &filters,
                 QString *selectedFilter)
{
    const QString path =
        QFileDialog::getSaveFileName(parent, title, startPath(suggestedName), filters, selectedFilter);
    remember(path);
    return path;
}

QString openFile(QWidget *parent, const QString &title, const QString &filters)
{
    const QString path = QFileDialog::getOpenFileName(parent, title, startPath({}), filters);
    remember(path);
    return path;
}

QString saveBytes(QWidget *parent, const QString &title, const QByteArray &bytes,
                  const QString &suggestedName)
{
    return writeBytes(saveFile(parent, title, suggestedName), bytes);
}

QString writeBytes(const QString &path, const QByteArray &bytes)
{
    if (path.isEmpty())
        return {};
    const QString shown = QDir::toNativeSeparators(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return QCoreApplication::translate("folio::FileChooser", "Could not save %1: %2")
            .arg(shown, file.errorString());
    return QCoreApplication::translate("folio::FileChooser", "Saved %1 (%2)")
        .arg(shown, McpError::sizeText(bytes.size()));
}

} // namespace folio::FileChooser
