#pragma once

#include "snapshotdiff.h"

#include <QList>
#include <QString>

namespace folio {

// How `folio diff` writes its changes (docs/diff.md). No I/O.
namespace DiffReport {

enum class Format { Text, Markdown, Json, Junit, Sarif };
// Which changes make `folio diff` exit 1: breaking ones; breaking or text ones; any; none.
enum class FailOn { Breaking, Text, Any, None };

bool parseFormat(const QString &name, Format *format);
bool parseFailOn(const QString &name, FailOn *failOn);
QString failOnName(FailOn failOn);
bool fails(SnapshotChange::Class cls, FailOn failOn);

// What was compared, for the report's head.
struct Input
{
    QString before; // where each side came from: a file, a target
    QString after;
    const Snapshot *a = nullptr;
    const Snapshot *b = nullptr;
    QList<SnapshotChange> changes;
    FailOn failOn = FailOn::Breaking;
};

QString render(const Input &input, Format format);
QString toText(const Input &input);
QString toMarkdown(const Input &input);
QString toJson(const Input &input);
// JUnit XML: one testcase per class; a class that fails (--fail-on) with changes is a <failure>
// listing them, the others list theirs in <system-out>.
QString toJunit(const Input &input);
// SARIF 2.1.0: one run of the driver "folio", a rule per class, a result per change (breaking:
// error, text: warning, the others: note) at its logical location (list, then item).
QString toSarif(const Input &input);

// 0: no change of a failing class; 1: some.
int exitCode(const Input &input);

} // namespace DiffReport

} // namespace folio
