#pragma once

#include "schemacheck.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QStringList>

namespace folio {

// A tools/call result checked against what its tool declares: its structuredContent against the
// tool's outputSchema (MCP 2025-06-18 on: a tool with an outputSchema must return structuredContent
// that matches it; an isError result need not). The one verdict the window's Call pane and
// `folio call` show and exit by.
struct ToolResultCheck
{
    Q_DECLARE_TR_FUNCTIONS(ToolResultCheck)

public:
    enum class Verdict {
        NoSchema,  // the tool declares no outputSchema: nothing to check
        ToolError, // isError: true — not checked
        Missing,   // an outputSchema, and no structuredContent
        Matches,
        Mismatch, // violations says where
    };
    Verdict verdict = Verdict::NoSchema;
    QList<SchemaViolation> violations;

    static ToolResultCheck of(const QJsonObject &tool, const QJsonObject &result);

    // The result breaks what the tool declares (Missing or Mismatch).
    bool failed() const { return verdict == Verdict::Missing || verdict == Verdict::Mismatch; }
    // One sentence a person reads ("Matches the tool's outputSchema.").
    QString summary() const;
    // One line a violation: "items[2].name: expected an integer, got a string".
    QStringList violationLines() const;
};

} // namespace folio
