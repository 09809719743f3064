#pragma once

#include "snapshot.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

namespace folio {

// What Folio remembers of each saved server across time, in the user's data folder, under a
// hash of the server's name (a name is anyone's text): the snapshots taken at its connects, the
// newest keep() of them (a setting; 0 keeps none). A snapshot is taken from the session's own walks
// once every list it offers has been walked to its end on a connection (the default walk on
// connect does that), so it costs the server no request; masked as every snapshot file is.
namespace ServerHistory {

inline constexpr int DefaultKeep = 5;

// The file-name key of a server: the first 32 hex digits of the SHA-256 of its name.
QString serverKey(const QString &serverName);
// <data>/history/<key>: one <takenAt ms>.json per snapshot.
QString folder(const QString &serverName);

struct Entry
{
    QString path;
    qint64 takenAtMs = 0;
};
// Newest first.
QList<Entry> entries(const QString &serverName);
// Writes snapshot as the newest entry and deletes the oldest beyond keep (keep 0: writes nothing).
bool add(const QString &serverName, const Snapshot &snapshot, const QStringList &secrets, int keep,
         QString *error);
// add() on the history's own writer thread, one write after another: a large list's snapshot takes
// long to serialise and write (38 MB for 100,000 items), and the window must not wait for it.
// done(kept, error, newest entry's path) is called on context's thread, not at all if context is
// gone by then.
void addLater(const QString &serverName, const Snapshot &snapshot, const QStringList &secrets, int keep,
              QObject *context,
              std::function<void(bool kept, const QString &error, const QString &newest)> done);
// Both wait for a write addLater() has under way, so that it cannot bring back what they remove.
void forget(const QString &serverName);
bool rename(const QString &from, const QString &to);

// How many to keep (SettingsKey::SnapshotHistoryKeep).
int keep();
void setKeep(int count);

} // namespace ServerHistory

} // namespace folio
