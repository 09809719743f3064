#include "definitionbaseline.h"

#include "serverhistory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

namespace folio::DefinitionBaseline {

QStringList listIds()
{
    return {QStringLiteral("tools"), QStringLiteral("prompts"), QStringLiteral("templates")};
}

QString path(const QString &serverName)
{
    // A server's name is anyone's text: the file is named by its hash.
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("baselines/%1.json").arg(ServerHistory::serverKey(serverName)));
}

std::optional<Snapshot> load(const QString &serverName, QString *error)
{
    if (error)
        error->clear();
    const QString file = path(serverName);
    if (!QFile::exists(file))
        return std::nullopt;
    QString why;
    std::optional<Snapshot> s = Snapshot::load(file, &why);
    if (!s && error)
        *error = why.isEmpty() ? QStringLiteral("unreadable") : why;
    return s;
}

bool pin(const QString &serverName, const Snapshot &snapshot, const QStringList &secrets, QString *error)
{
    const QString file = path(serverName);
    if (!QDir().mkpath(QFileInfo(file).absolutePath())) {
        if (error)
            *error = QStringLiteral("cannot make %1").arg(QFileInfo(file).absolutePath());
        return false;
    }
    return definitionsOf(snapshot).save(file, secrets, error);
}

bool forget(const QString &serverName)
{
    const QString file = path(serverName);
    return !QFile::exists(file) || QFile::remove(file);
}

bool rename(const QString &from, const QString &to)
{
    const QString source = path(from), target = path(to);
    if (!QFile::exists(source))
        return true;
    QFile::remove(target);
    return QFile::rename(source, target);
}

Snapshot definitionsOf(const Snapshot &snapshot)
{
    Snapshot d = snapshot;
    d.lists.clear();
    d.findings = {};
    for (const Snapshot::List &list : snapshot.lists) {
        if (!listIds().contains(list.id))
            continue;
        // The items, in order, as one page: how a server pages them is not what it defines.
        Snapshot::List kept;
        kept.id = list.id;
        kept.complete = list.complete;
        kept.stopReason = list.stopReason;
        kept.skipped = list.skipped;
        Snapshot::Page all;
        for (const Snapshot::Page &page : list.pages) {
            for (const QJsonValue &item : page.items)
                all.items.append(item);
        }
        kept.pages.append(all);
        d.lists.append(kept);
    }
    return d;
}

QList<SnapshotChange> compare(const Snapshot &trusted, const Snapshot &now)
{
    Snapshot before = definitionsOf(trusted), after = definitionsOf(now);
    const auto completeIn = [](const Snapshot &s, const QString &id) {
        return std::any_of(s.lists.cbegin(), s.lists.cend(),
                           [&id](const Snapshot::List &l) { return l.id == id && l.complete; });
    };
    before.lists.removeIf([&](const Snapshot::List &l) { return !l.complete || !completeIn(after, l.id); });
    after.lists.removeIf([&](const Snapshot::List &l) { return !l.complete || !completeIn(before, l.id); });
    QList<SnapshotChange> changes;
    for (const SnapshotChange &c : SnapshotDiff::compare(before, after)) {
        if (c.item && listIds().contains(c.list))
            changes.append(c);
    }
    return changes;
}

QHash<QString, QList<Finding>> findings(const QList<SnapshotChange> &changes)
{
    QHash<QString, QList<Finding>> byList;
    for (const SnapshotChange &c : changes) {
        Finding f;
        f.id = FindingId::DefinitionChanged;
        f.severity = c.cls == SnapshotChange::Class::Breaking ? Finding::Severity::Error
                     : c.cls == SnapshotChange::Class::Text   ? Finding::Severity::Warning
                                                              : Finding::Severity::Info;
        f.source = Finding::Source::Baseline;
        f.message = QStringLiteral("%1: %2 (%3, since the trusted version)")
                        .arg(*c.item, c.summary, SnapshotChange::className(c.cls));
        f.evidence = c.toJson();
        byList[c.list].append(f);
    }
    return byList;
}

} // namespace folio::DefinitionBaseline
