#include "serverhistory.h"

#include "settingskeys.h"

#include <QCryptographicHash>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>

namespace folio::ServerHistory {

QString serverKey(const QString &serverName)
{
    const QByteArray hash = QCryptographicHash::hash(serverName.toUtf8(), QCryptographicHash::Sha256);
    return QString::fromLatin1(hash.toHex().left(32));
}

QString folder(const QString &serverName)
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("history/") + serverKey(serverName));
}

QList<Entry> entries(const QString &serverName)
{
    QList<Entry> out;
    const QDir dir(folder(serverName));
    for (const QString &name :
         dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name | QDir::Reversed)) {
        bool ok = false;
        const qint64 ms = QStringView(name).chopped(5).toLongLong(&ok);
        if (ok)
            out.append({dir.filePath(name), ms});
    }
    std::sort(out.begin(), out.end(),
              [](const Entry &a, const Entry &b) { return a.takenAtMs > b.takenAtMs; });
    return out;
}

bool add(const QString &serverName, const Snapshot &snapshot, const QStringList &secrets, int keep,
         QString *error)
{
    if (keep <= 0)
        return true;
    const QDir dir(folder(serverName));
    if (!QDir().mkpath(dir.path())) {
        if (error)
            *error = QStringLiteral("cannot make %1").arg(dir.path());
        return false;
    }
    // Zero-padded, so that the names sort as the times do.
    const QString file =
        dir.filePath(QStringLiteral("%1.json").arg(snapshot.takenAtMs, 15, 10, QLatin1Char('0')));
    if (!snapshot.save(file, secrets, error))
        return false;
    const QList<Entry> all = entries(serverName);
    for (qsizetype i = keep; i < all.size(); ++i)
        QFile::remove(all.at(i).path);
    return true;
}

void forget(const QString &serverName)
{
    QDir(folder(serverName)).removeRecursively();
}

bool rename(const QString &from, const QString &to)
{
    const QString source = folder(from), target = folder(to);
    if (!QDir(source).exists())
        return true;
    QDir(target).removeRecursively();
    return QDir().rename(source, target);
}

int keep()
{
    return QSettings().value(SettingsKey::SnapshotHistoryKeep, DefaultKeep).toInt();
}

void setKeep(int count)
{
    QSettings().setValue(SettingsKey::SnapshotHistoryKeep, qMax(0, count));
}

} // namespace folio::ServerHistory
