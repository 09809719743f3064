#pragma once

#include "finding.h"
#include "snapshot.h"
#include "snapshotdiff.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace folio {

// The definitions a saved server is trusted with: its tools, prompts and resource templates as
// pinned at its first connect, or when the user trusted a later version (issue 32's drift). Kept
// as a snapshot file (docs/snapshot-format.md) that holds only those lists, masked as every
// snapshot is, in the user's data folder under a hash of the server's name. On each later connect
// the session compares what it walked with it (SnapshotDiff): every definition added, removed or
// changed is a `definition-changed` finding (breaking: error, text: warning, additive: info).
// `folio diff --baseline NAME` reads the same file.
namespace DefinitionBaseline {

// The lists that hold definitions: "tools", "prompts", "templates".
QStringList listIds();
// Where a server's baseline is kept (the file may not exist).
QString path(const QString &serverName);
// The pinned baseline: nullopt with *error empty when none is pinned, with *error set when the
// file is there but cannot be read.
std::optional<Snapshot> load(const QString &serverName, QString *error);
// Pins snapshot's definition lists (only complete ones are worth pinning: the caller checks).
bool pin(const QString &serverName, const Snapshot &snapshot, const QStringList &secrets, QString *error);
bool forget(const QString &serverName);
// A saved server renamed: its baseline goes with it (replacing one kept under the new name).
bool rename(const QString &from, const QString &to);
// Only the definition lists of a snapshot, with their items and nothing of their paging.
Snapshot definitionsOf(const Snapshot &snapshot);
// The changes from the trusted definitions to now: items added, removed or changed in the
// definition lists, compared only where the list was walked to its end on both sides (a list cut
// short has not lost its other items). Paging and caching are not definitions.
QList<SnapshotChange> compare(const Snapshot &trusted, const Snapshot &now);
// Those changes as definition-changed findings, by list id.
QHash<QString, QList<Finding>> findings(const QList<SnapshotChange> &changes);

} // namespace DefinitionBaseline

} // namespace folio
