#pragma once

#include "finding.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace folio {

// The id of a list tool's report starts with it: "tool:search_posts".
inline const QString ToolListPrefix = QStringLiteral("tool:");

// What one check of a list concluded: a finding, a note saying why it could not judge, or neither
// (the server passed).
struct CheckOutcome
{
    std::optional<Finding> finding;
    QString note;
};

// One list's verdict.
struct AuditedList
{
    QString id;      // "tools", "tool:search_posts", "server/discover"
    QString skipped; // not audited, and why ("" when audited)
    QJsonObject arguments;
    int pages = 0;
    int items = 0;
    bool complete = false;
    QString stopReason;
    QList<Finding> findings;
    QStringList notes; // probes not run or inconclusive, and why
    int requests = 0;
    qint64 elapsedMs = 0;
    // A protocol list walked to its end: the estimated tokens its definitions cost a model
    // (DefinitionLint::listCost) and its costliest items [{item, tokens}]; -1 when not estimated.
    qint64 contextTokens = -1;
    QJsonArray costliest;

    bool isAudited() const { return skipped.isEmpty(); }
    int count(Finding::Severity severity) const;
    void add(const CheckOutcome &outcome);
    QJsonObject toJson() const;
};

// The whole audit, as the command line renders it and the window shows it.
struct AuditResult
{
    QJsonObject server; // {name, version, revision, transport}
    QList<AuditedList> lists;
    qint64 elapsedMs = 0;
    QString aborted; // why the audit stopped early ("" when it ran to the end)
    // A --list the server does not have (a tool it does not list): the command's usage error.
    // The audit stops before it calls anything; aborted says the same.
    QString usageError;

    int count(Finding::Severity severity) const;
    int requests() const;
    QJsonObject summary() const;
    // {server, lists:[{list, findings:[{id, severity, page, message, evidence, ...}], ...}], summary}
    QJsonObject toJson() const;
};

// A finding of the audit, at its id's default severity.
Finding auditFinding(const QString &id, const QList<int> &pages, const QString &message,
                     const QJsonObject &evidence);
// Evidence stays readable: a few identities, not a whole page of them; a server's message cut to a line.
QJsonArray firstIdentities(const QStringList &identities, int count = 10);
QString shortText(const QString &text, int width = 60);

} // namespace folio
