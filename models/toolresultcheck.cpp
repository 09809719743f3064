#include "toolresultcheck.h"

namespace folio {

ToolResultCheck ToolResultCheck::of(const QJsonObject &tool, const QJsonObject &result)
{
    ToolResultCheck check;
    if (!tool.contains(QStringLiteral("outputSchema")))
        check.verdict = Verdict::NoSchema;
    else if (result.value(QStringLiteral("isError")).toBool(false))
        check.verdict = Verdict::ToolError;
    else if (!result.contains(QStringLiteral("structuredContent")))
        check.verdict = Verdict::Missing;
    else {
        check.violations = checkAgainstSchema(result.value(QStringLiteral("structuredContent")),
                                              tool.value(QStringLiteral("outputSchema")).toObject());
        check.verdict = check.violations.isEmpty() ? Verdict::Matches : Verdict::Mismatch;
    }
    return check;
}

QString ToolResultCheck::summary() const
{
    switch (verdict) {
    case Verdict::NoSchema:
        return tr("The tool declares no outputSchema: nothing to check it against.");
    case Verdict::ToolError:
        return tr("Not checked against the outputSchema: an error result need not match it.");
    case Verdict::Missing:
        return tr("Does not match the tool's outputSchema: the tool declares one, and the result has no "
                  "structuredContent.");
    case Verdict::Matches:
        return tr("Matches the tool's outputSchema.");
    case Verdict::Mismatch:
        return tr("Does not match the tool's outputSchema:");
    }
    return {};
}

QStringList ToolResultCheck::violationLines() const
{
    QStringList lines;
    for (const SchemaViolation &v : violations)
        lines << readablePath(v.path) + QStringLiteral(": ") + v.message;
    return lines;
}

} // namespace folio
