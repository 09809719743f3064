#pragma once

#include "snapshot.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>

namespace folio {

// What changed between two texts, word by word: runs of words kept, removed and added, in order.
// The words are compared after their common beginning and end are set aside; what is left is
// compared with a longest common subsequence only while it stays within MaxCells (and the
// budget), else the two texts stand whole (whole = true): a hostile megabyte of description costs
// linear time.
struct WordDiff
{
    static constexpr qsizetype MaxCells = 1 << 20; // words left × words right
    static constexpr qsizetype MaxTextChars = 1 << 20;
    // What one SnapshotDiff::compare() spends on word diffs in all: past it, texts stand whole
    // (a file of many long descriptions, each rewritten, stays linear).
    static constexpr qint64 MaxTotalCells = qint64(1) << 26;

    enum class Op { Same, Removed, Added };
    struct Part
    {
        Op op = Op::Same;
        QString text; // words with the spaces between them, as in the texts
    };

    QList<Part> parts;
    bool whole = false; // too large to compare word by word: one Removed, one Added

    // budget: when given, the cells still allowed (MaxTotalCells at first); what this one spends is
    // taken from it.
    static WordDiff of(const QString &before, const QString &after, qint64 *budget = nullptr);
    // The words of a text and the runs of spaces between them, in order: joined, the text.
    static QStringList tokens(QStringView text);
    // [{"op": "=", "-" or "+", "text"}]
    QJsonValue toJson() const;
};

// One change between two snapshots of a server.
struct SnapshotChange
{
    // docs/diff.md says what falls in each class.
    enum class Class { Breaking, Additive, Text, Caching, Paging };

    Class cls = Class::Breaking;
    QString list;                  // the list's id ("tools", "tool:list_users"); "" for the server
    std::optional<QString> item;   // the item's identity (ItemDiff::identity); none for a list
    QString field;                 // where in the item or list: "description", "inputSchema.city"
    QString summary;               // one line, in words
    QJsonValue before, after;      // the values compared, when useful (undefined when not)
    std::optional<WordDiff> words; // text changes: the words changed

    static QString className(Class cls);
    static std::optional<Class> classNamed(const QString &name);
    static QList<Class> allClasses();
    QJsonObject toJson() const;
};

// Two snapshots compared: items matched by identity (ItemDiff::identity()), each change classed
// (docs/diff.md). Linear in the items (hash maps), bounded in what one item can cost.
namespace SnapshotDiff {

// The changes from a to b: the server's first, then list by list in a's order of lists (lists only
// b has at the end), within a list the list's own changes, then item by item in b's order (removed
// items last, in a's order).
QList<SnapshotChange> compare(const Snapshot &a, const Snapshot &b);

// A cursor's shape as the diff compares it: the decoder's layers, outside in, with the member
// names of JSON layers ("base64 > json{offset,seed}"), "opaque" or "empty".
QString cursorShape(const QString &cursor);

} // namespace SnapshotDiff

} // namespace folio
