#pragma once

#include "finding.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace folio {

// Findings as SARIF 2.1.0, the form CI systems show a linter's results in (issue 33): one run of
// the driver "folio", one rule per finding id of Finding::catalogue() with the help text
// docs/findings.md gives it (the file is compiled in: one text for the reader and for CI), and
// one result per finding whose logical location names the server, the list, the page and the
// item. `folio audit --format sarif` and `folio tap --judge FILE.sarif` write it.
namespace FindingSarif {

struct Located
{
    Finding finding;
    QString list; // "tools", "tool:search_posts", "tools/list" (a client's walk), ...
};

// What docs/findings.md's table says raises the finding ("" for an id it does not list).
QString helpText(const QString &id);
// The SARIF log. server: how the server is named (its name, or its masked command line or URL);
// folioVersion: the driver's version.
QJsonObject log(const QString &server, const QList<Located> &findings, const QString &folioVersion);

} // namespace FindingSarif

} // namespace folio
