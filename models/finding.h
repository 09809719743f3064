#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

namespace folio {

// A judgement about what arrived. The ids are part of Folio's interface: the command line prints
// them and the window shows them; see docs/findings.md for the catalogue.
struct Finding
{
    enum class Severity { Info, Warning, Error };
    // Who found it: a walk of the window (or of the command line), the window's last audit
    // (ServerSession::auditFindings), which walks and probes on its own, or the comparison with the
    // definitions a saved server was trusted with (DefinitionBaseline), or the lint of a list's
    // definitions (DefinitionLint), which reads what a walk brought and asks nothing, or the judge
    // of a client (ClientJudge), which reads what a tap saw pass between a client and a server.
    enum class Source { Walk, Audit, Baseline, Lint, Client };

    QString id; // e.g. "cursor-repeated"
    Severity severity = Severity::Info;
    QList<int> pages; // page indices (0-based) within the walk; the first is where it is shown
    QString message;  // one sentence a person reads
    // Exported as it is, so a page it names is numbered from 1 (firstSentForPage, firstPage, ...).
    QJsonObject evidence;
    Source source = Source::Walk;

    // A finding of id at its catalogue severity (docs/findings.md), the one way each judge makes one.
    static Finding make(const QString &id, const QList<int> &pages, const QString &message,
                        const QJsonObject &evidence = {}, Source source = Source::Walk);
    static QString severityName(Severity s);
    static Severity defaultSeverity(const QString &id);
    static QStringList catalogue(); // every id Folio can emit
    // {id, severity, page, pages, message, evidence}: page and pages numbered from 1; with
    // "source": "audit" when the audit found it, "baseline" when the trusted definitions did, "lint"
    // when the definitions lint did, "client" when the client judge did.
    QJsonObject toJson() const;
    // Each of them as toJson() writes it, in order.
    static QJsonArray toJson(const QList<Finding> &findings);
};

namespace FindingId {
inline const QString CursorRepeated = QStringLiteral("cursor-repeated");
inline const QString PageCapReached = QStringLiteral("page-cap-reached");
inline const QString DuplicateItem = QStringLiteral("duplicate-item");
inline const QString PageOverLimit = QStringLiteral("page-over-limit");
inline const QString CacheHintsMissing = QStringLiteral("cache-hints-missing");
inline const QString TtlInvalid = QStringLiteral("ttl-invalid");
inline const QString ScopeInvalid = QStringLiteral("scope-invalid");
inline const QString ScopeMismatch = QStringLiteral("scope-mismatch");
inline const QString PageError = QStringLiteral("page-error");
inline const QString EmptyCursorRejected = QStringLiteral("empty-cursor-rejected");
inline const QString InvalidCursorAccepted = QStringLiteral("invalid-cursor-accepted");
inline const QString InvalidCursorWrongCode = QStringLiteral("invalid-cursor-wrong-code");
inline const QString ForeignCursorAccepted = QStringLiteral("foreign-cursor-accepted");
inline const QString UnstableOrder = QStringLiteral("unstable-order");
inline const QString UnstableItems = QStringLiteral("unstable-items");
inline const QString UnstablePages = QStringLiteral("unstable-pages");
inline const QString UnstableHints = QStringLiteral("unstable-hints");
inline const QString UnstableCursors = QStringLiteral("unstable-cursors");
inline const QString TransparentPaging = QStringLiteral("transparent-paging");
inline const QString WalkSizeCapReached = QStringLiteral("walk-size-cap-reached");
inline const QString RestartCapReached = QStringLiteral("restart-cap-reached");
inline const QString DeceptiveName = QStringLiteral("deceptive-name");
inline const QString DefinitionChanged = QStringLiteral("definition-changed");
// The definitions lint (models/definitionlint.h).
inline const QString HiddenCharacters = QStringLiteral("hidden-characters");
inline const QString ModelInstructions = QStringLiteral("model-instructions");
inline const QString ToolNameUnportable = QStringLiteral("tool-name-unportable");
inline const QString SchemaUnportable = QStringLiteral("schema-unportable");
inline const QString DefaultRejected = QStringLiteral("default-rejected");
inline const QString ToolNameCollision = QStringLiteral("tool-name-collision");
inline const QString ContextCost = QStringLiteral("context-cost");
// The judge of a client (models/clientjudge.h): what a client did with a server's lists.
inline const QString ClientStoppedEarly = QStringLiteral("client-stopped-early");
inline const QString ClientNeverPaged = QStringLiteral("client-never-paged");
inline const QString ClientFollowedRepeatedCursor = QStringLiteral("client-followed-repeated-cursor");
inline const QString ClientRestartedAfterCursorError = QStringLiteral("client-restarted-after-cursor-error");
inline const QString ClientRetriedRefusedCursor = QStringLiteral("client-retried-refused-cursor");
inline const QString ClientGaveUpAfterCursorError = QStringLiteral("client-gave-up-after-cursor-error");
inline const QString ClientChangedArguments = QStringLiteral("client-changed-arguments");
inline const QString ClientIgnoredListChanged = QStringLiteral("client-ignored-list-changed");
inline const QString ClientRefetchedFreshPage = QStringLiteral("client-refetched-fresh-page");
inline const QString ClientPollsWithoutJitter = QStringLiteral("client-polls-without-jitter");
inline const QString ClientRequestMetaMissing = QStringLiteral("client-request-meta-missing");
// Tasks (models/taskboard.h).
inline const QString TaskOutlivedTtl = QStringLiteral("task-outlived-ttl");
} // namespace FindingId

} // namespace folio

Q_DECLARE_METATYPE(folio::Finding)
