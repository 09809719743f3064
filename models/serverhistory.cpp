#include "serverhistory.h"

#include "settingskeys.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>
#include <QThreadPool>

namespace folio::ServerHistory {

namespace {
// One thread: writes in the order asked, and one place for forget() and rename() to wait on.
QThreadPool &writer()
{
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool(QCoreApplication::instance());
        p->setMaxThreadCount(1);
        return p;
    }();
    return *pool;
}
} // namespace

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

void addLater(const QString &serverName, const Snapshot &snapshot, const QStringList &secrets, int keep,
              QObject *context,
              std::function<void(bool kept, const QString &error, const QString &newest)> done)
{
    const QPointer<QObject> receiver(context);
    writer().start([receiver, serverName, snapshot, secrets, keep, done = std::move(done)] {
        QString error;
        const bool kept = add(serverName, snapshot, secrets, keep, &error);
        const QList<Entry> all = kept ? entries(serverName) : QList<Entry>();
        const QString newest = all.isEmpty() ? QString() : all.constFirst().path;
        // Posted to the application (alive while the pool is) and checked there: the context may
        // go on its own thread meanwhile.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [receiver, done, kept, error, newest] {
                if (receiver)
                    done(kept, error, newest);
            },
            Qt::QueuedConnection);
    });
}

void forget(const QString &serverName)
{
    writer().waitForDone();
    QDir(folder(serverName)).removeRecursively();
}

bool rename(const QString &from, const QString &to)
{
    writer().waitForDone();
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
