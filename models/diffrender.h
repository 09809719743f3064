#pragma once

#include "snapshotdiff.h"

#include <QList>
#include <QString>

namespace folio {

// The words of a diff as people read them, shared by `folio diff` (app/cli/diffreport.h) and the
// window's Compare view (ui/compareview.h): one renderer of the counts, the word diffs, Markdown
// and HTML, so that what the window exports is what the command line prints. No I/O. Server text
// passes oneLineSafe() (net/terminaltext.h) and is escaped for the format.
namespace DiffRender {

// "7 changes: 2 breaking, 1 additive, …" ("0 changes" when none).
QString countsLine(const QList<SnapshotChange> &changes);
// The words changed on one line, removed [-…-] and added {+…+}, as git diff --word-diff has them.
QString plainWords(const WordDiff &words);

// The whole diff in Markdown: a head naming the two sides, the counts, then list by list each
// change with its words. before and after say where each side came from.
QString markdown(const QString &before, const QString &after, const QList<SnapshotChange> &changes);
// One change's Markdown bullet (and its words), as markdown() writes it.
QString markdownChange(const SnapshotChange &change);
// The same as a standalone HTML page: removed words struck, added ones marked, readable in a light
// and a dark scheme.
QString html(const QString &before, const QString &after, const QList<SnapshotChange> &changes);
// A word diff as HTML inline text (<del>/<ins>), the kept words shortened to their context when
// shorten is set.
QString wordsHtml(const WordDiff &words, bool shorten, const QString &removedStyle = {},
                  const QString &addedStyle = {});

} // namespace DiffRender

} // namespace folio
