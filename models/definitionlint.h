#pragma once

#include "finding.h"
#include "protocol.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace folio {

// The lint of a list's definitions: what a server says in its tools, prompts, resources and
// templates reaches a model's context, and some of it should not. Offline and pure: it reads the
// items of a list that was walked (no request), and says what it sees as findings (docs/findings.md,
// "The definitions lint"), each with Finding::Source::Lint:
//  - hidden-characters: titles and descriptions (and a resource's or a template's name, which is
//    not its identity) holding hidden characters (hiddenCharacters(): controls, bidirectional
//    controls, zero-width characters, tag characters), or titles with letters that pass for Latin
//    ones (lookAlikeCharacters()). Identities are deceptive-name's (WalkJudge).
//  - model-instructions: descriptions that read as instructions to the model (instructionsIn()).
//  - tool-name-unportable, schema-unportable, default-rejected: tools that common model APIs refuse
//    or that contradict themselves.
//  - tool-name-collision: tools whose names differ only by case or separators.
//  - context-cost (info): a tools list whose definitions cost more than ContextCostThreshold tokens
//    (a tenth of a 200,000-token context window), the one list a client sends with every request.
// Each id is raised at most MaxFindingsPerId times a list; one more finding of the id says how
// many items were left out.
namespace DefinitionLint {

inline constexpr int MaxFindingsPerId = 50;
// Estimated tokens of a whole tools list above which context-cost is said.
inline constexpr qint64 ContextCostThreshold = 20000;

// Everything below, in that order (the tools-only rules and context-cost for ListKind::Tools only).
// itemBytes: the size of each item's compact JSON text, when the
// caller has it (a RowStore's texts); empty: the items are written compact to measure them.
QList<Finding> lint(ListKind kind, const QList<QJsonObject> &items, const QList<qint64> &itemBytes = {});

QList<Finding> lintHiddenCharacters(ListKind kind, const QList<QJsonObject> &items);
QList<Finding> lintInstructions(ListKind kind, const QList<QJsonObject> &items);
QList<Finding> lintToolNames(const QList<QJsonObject> &tools);
QList<Finding> lintSchemas(const QList<QJsonObject> &tools);
QList<Finding> lintDefaults(const QList<QJsonObject> &tools);
QList<Finding> lintCollisions(const QList<QJsonObject> &tools);
QList<Finding> lintContextCost(ListKind kind, const QList<QJsonObject> &items,
                               const QList<qint64> &itemBytes = {});

// The item as a finding names it: a tool's or a prompt's name, a resource's uri, a template's
// uriTemplate; one line, hidden characters shown as <U+XXXX>.
QString itemName(ListKind kind, const QJsonObject &item);

// One text of a definition that reaches a model: "description", "title",
// "inputSchema.properties.city.description", "arguments.city.description", ...
struct TextField
{
    QString field;
    QString text;
    bool multiLine = false; // a description: '\n', '\r' and '\t' are text, not hidden
};
QList<TextField> textFields(ListKind kind, const QJsonObject &item);

// The heuristic of model-instructions: each rule of the table (docs/findings.md) that matches text,
// with the words it matched (one line, at most 80 characters).
struct InstructionMatch
{
    QString rule; // "hidden-markup", "addresses-model", "conceals-from-user", "sensitive-file",
                  // "asks-for-secrets", "calls-other-tool-first"
    QString words;
};
QList<InstructionMatch> instructionsIn(const QString &text);
QStringList instructionRules();

// The name two tools collide on: lower case, without '_', '-', '.', '/' and spaces ("getUser",
// "get_user" and "Get-User" are all "getuser").
QString foldedName(const QString &name);

// The context cost: an estimate of the tokens a definition costs a model, ceil(bytes / 4) of its
// compact JSON (UTF-8). Not a model's tokenizer: see docs/findings.md for its error.
qint64 estimateTokens(qint64 compactJsonBytes);
qint64 estimateTokens(const QJsonObject &item);

struct ItemCost
{
    QString item; // itemName()
    qint64 tokens = 0;
};
// Every item's cost, costliest first (items of equal cost in list order).
QList<ItemCost> itemCosts(ListKind kind, const QList<QJsonObject> &items,
                          const QList<qint64> &itemBytes = {});
// The whole list's cost: the sum of its items' (what a client sends when it passes every definition).
qint64 listCost(const QList<QJsonObject> &items, const QList<qint64> &itemBytes = {});

} // namespace DefinitionLint

} // namespace folio
