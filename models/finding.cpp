#include "finding.h"

#include <QJsonArray>

namespace folio {

QString Finding::severityName(Severity s)
{
    switch (s) {
    case Severity::Info:
        return QStringLiteral("info");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Error:
        return QStringLiteral("error");
    }
    return {};
}

Finding::Severity Finding::defaultSeverity(const QString &id)
{
    if (id == FindingId::PageCapReached || id == FindingId::DuplicateItem ||
        id == FindingId::InvalidCursorWrongCode || id == FindingId::UnstableOrder ||
        id == FindingId::UnstableItems || id == FindingId::UnstablePages || id == FindingId::UnstableHints ||
        id == FindingId::WalkSizeCapReached || id == FindingId::RestartCapReached ||
        id == FindingId::DeceptiveName || id == FindingId::DefinitionChanged ||
        id == FindingId::HiddenCharacters || id == FindingId::ModelInstructions ||
        id == FindingId::ToolNameUnportable || id == FindingId::SchemaUnportable ||
        id == FindingId::DefaultRejected || id == FindingId::ToolNameCollision ||
        id == FindingId::ClientStoppedEarly || id == FindingId::ClientNeverPaged ||
        id == FindingId::ClientFollowedRepeatedCursor || id == FindingId::ClientRetriedRefusedCursor ||
        id == FindingId::ClientGaveUpAfterCursorError || id == FindingId::ClientChangedArguments ||
        id == FindingId::ClientIgnoredListChanged || id == FindingId::ClientPollsWithoutJitter ||
        id == FindingId::TaskOutlivedTtl)
        return Severity::Warning;
    if (id == FindingId::PageOverLimit || id == FindingId::TransparentPaging ||
        id == FindingId::UnstableCursors || id == FindingId::ContextCost ||
        id == FindingId::ClientRestartedAfterCursorError || id == FindingId::ClientRefetchedFreshPage)
        return Severity::Info;
    return Severity::Error;
}

QStringList Finding::catalogue()
{
    return {FindingId::CursorRepeated,
            FindingId::PageCapReached,
            FindingId::DuplicateItem,
            FindingId::PageOverLimit,
            FindingId::CacheHintsMissing,
            FindingId::TtlInvalid,
            FindingId::ScopeInvalid,
            FindingId::ScopeMismatch,
            FindingId::PageError,
            FindingId::EmptyCursorRejected,
            FindingId::InvalidCursorAccepted,
            FindingId::InvalidCursorWrongCode,
            FindingId::ForeignCursorAccepted,
            FindingId::UnstableOrder,
            FindingId::UnstableItems,
            FindingId::UnstablePages,
            FindingId::UnstableHints,
            FindingId::UnstableCursors,
            FindingId::TransparentPaging,
            FindingId::WalkSizeCapReached,
            FindingId::RestartCapReached,
            FindingId::DeceptiveName,
            FindingId::DefinitionChanged,
            FindingId::HiddenCharacters,
            FindingId::ModelInstructions,
            FindingId::ToolNameUnportable,
            FindingId::SchemaUnportable,
            FindingId::DefaultRejected,
            FindingId::ToolNameCollision,
            FindingId::ContextCost,
            FindingId::ClientStoppedEarly,
            FindingId::ClientNeverPaged,
            FindingId::ClientFollowedRepeatedCursor,
            FindingId::ClientRestartedAfterCursorError,
            FindingId::ClientRetriedRefusedCursor,
            FindingId::ClientGaveUpAfterCursorError,
            FindingId::ClientChangedArguments,
            FindingId::ClientIgnoredListChanged,
            FindingId::ClientRefetchedFreshPage,
            FindingId::ClientPollsWithoutJitter,
            FindingId::ClientRequestMetaMissing,
            FindingId::TaskOutlivedTtl};
}

QJsonArray Finding::toJson(const QList<Finding> &findings)
{
    QJsonArray out;
    for (const Finding &f : findings)
        out.append(f.toJson());
    return out;
}

Finding Finding::make(const QString &id, const QList<int> &pages, const QString &message,
                      const QJsonObject &evidence, Source source)
{
    Finding f;
    f.id = id;
    f.severity = defaultSeverity(id);
    f.pages = pages;
    f.message = message;
    f.evidence = evidence;
    f.source = source;
    return f;
}

QJsonObject Finding::toJson() const
{
    // Pages are numbered from 1 in JSON, as in the window and the text (the C++ list is 0-based).
    QJsonArray p;
    for (int i : pages)
        p.append(i + 1);
    QJsonObject json{{QStringLiteral("id"), id},
                     {QStringLiteral("severity"), severityName(severity)},
                     {QStringLiteral("page"), pages.isEmpty() ? QJsonValue() : QJsonValue(pages.first() + 1)},
                     {QStringLiteral("pages"), p},
                     {QStringLiteral("message"), message},
                     {QStringLiteral("evidence"), evidence}};
    if (source == Source::Audit)
        json.insert(QStringLiteral("source"), QStringLiteral("audit"));
    else if (source == Source::Baseline)
        json.insert(QStringLiteral("source"), QStringLiteral("baseline"));
    else if (source == Source::Lint)
        json.insert(QStringLiteral("source"), QStringLiteral("lint"));
    else if (source == Source::Client)
        json.insert(QStringLiteral("source"), QStringLiteral("client"));
    return json;
}

} // namespace folio
