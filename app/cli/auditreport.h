#pragma once

#include "auditor.h"

#include <QString>

namespace folio {

// What `folio audit --format` renders the audit's result as.
enum class AuditReportFormat { Text, Json, Markdown, Junit, Sarif };

// The audit's result as people and CI systems read it. No I/O.
namespace AuditReport {

bool parseFormat(const QString &name, AuditReportFormat *format);

QString render(const AuditResult &result, AuditReportFormat format);
QString toText(const AuditResult &result);
QString toJson(const AuditResult &result);
QString toMarkdown(const AuditResult &result);
// JUnit XML: one testsuite for the server, one testcase per list; error-severity findings are a
// <failure>, skipped lists <skipped>, warnings and notes go to <system-out>.
QString toJunit(const AuditResult &result);
// SARIF 2.1.0 (FindingSarif): a rule per finding id, a result per finding located at the server,
// the list, the page and the item. An aborted audit is one more result, an error on the server.
QString toSarif(const AuditResult &result);

// 0: no error-severity finding; 1: some.
int exitCode(const AuditResult &result);

} // namespace AuditReport

} // namespace folio
