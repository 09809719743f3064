#include "walkjudge.h"
#include "counted.h"

#include "listsource.h"
#include "terminaltext.h"
#include "ttlclock.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonObject>

namespace folio {

namespace {

Finding make(const QString &id, int page, const QString &message, const QJsonObject &evidence = {})
{
    return Finding::make(id, {page}, message, evidence);
}

// Whether an item's JSON text may hold a hidden or look-alike character: anything outside printable
// ASCII, or an escape. Most items are plain ASCII, and their names need no closer look.
bool mayHideCharacters(QByteArrayView itemJson)
{
    for (qsizetype i = 0; i < itemJson.size(); ++i) {
        const uchar b = uchar(itemJson.at(i));
        if (b >= 0x7f || (b == '\\' && i + 1 < itemJson.size() && itemJson.at(i + 1) == 'u'))
            return true;
    }
    return false;
}

} // namespace

void WalkJudge::reset()
{
    m_sentCursors.clear();
    m_identities.clear();
    m_firstScope.clear();
    m_firstScopePage = -1;
}

void WalkJudge::noteRequest(int pageIndex, const std::optional<QString> &cursor)
{
    if (cursor && !m_sentCursors.contains(*cursor))
        m_sentCursors.insert(*cursor, pageIndex);
}

QList<Finding> WalkJudge::judgeCursor(const PageRecord &page, bool *keepWalking)
{
    const int idx = page.index;
    QList<Finding> findings;
    *keepWalking = true;

    if (page.next.isString() && m_sentCursors.contains(page.next.text)) {
        const int first = m_sentCursors.value(page.next.text);
        const QString shown = page.next.text.isEmpty() ? QStringLiteral("\"\"") : page.next.text;
        findings.append(make(
            FindingId::CursorRepeated, idx,
            QStringLiteral("Page %1 returned the cursor %2 already sent for page %3: the "
                           "list loops, so the walk stopped")
                .arg(QString::number(idx + 1),
                     shown.size() > 48 ? shown.left(45) + QStringLiteral("…") : shown,
                     QString::number(first + 1)),
            {{QStringLiteral("cursor"), page.next.text}, {QStringLiteral("firstSentForPage"), first + 1}}));
        findings.last().pages.append(first);
        *keepWalking = false;
    }

    if (page.next.presence == NextCursor::Presence::WrongType) {
        findings.append(make(FindingId::PageError, idx,
                             QStringLiteral("nextCursor is %1, not a string: the walk cannot continue")
                                 .arg(PageRecord::describeValue(true, page.next.raw)),
                             {{QStringLiteral("nextCursor"), page.next.raw}}));
        *keepWalking = false;
    }
    return findings;
}

QList<Finding> WalkJudge::judgeItems(const PageRecord &page, const ItemTexts &items,
                                     const QString &toolLimitArg)
{
    const int idx = page.index;
    QList<Finding> findings;

    // Duplicates across pages (and within one page).
    int duplicates = 0;
    QJsonArray examples;
    QList<int> otherPages;
    for (int i = 0; i < items.count(); ++i) {
        const quint64 h = ListSource::itemIdentityHash(items.at(i));
        if (h == 0)
            continue;
        const auto it = m_identities.constFind(h);
        if (it != m_identities.constEnd()) {
            ++duplicates;
            if (examples.size() < 5)
                examples.append(QJsonObject{{QStringLiteral("identity"), ListSource::identity(items.at(i))},
                                            {QStringLiteral("firstPage"), *it + 1}});
            if (!otherPages.contains(*it) && *it != idx)
                otherPages.append(*it);
        } else {
            m_identities.insert(h, idx);
        }
    }
    if (duplicates > 0) {
        Finding f = make(FindingId::DuplicateItem, idx,
                         QStringLiteral("%1 on page %2 already appeared earlier (e.g. %3)")
                             .arg(counted(duplicates, "item", "items"), QString::number(idx + 1),
                                  examples.first().toObject().value(QStringLiteral("identity")).toString()),
                         {{QStringLiteral("count"), duplicates}, {QStringLiteral("examples"), examples}});
        f.pages += otherPages;
        findings.append(f);
    }

    findings += judgeNames(page, items);

    if (!toolLimitArg.isEmpty() && page.requestedLimit && page.itemCount > *page.requestedLimit) {
        findings.append(make(FindingId::PageOverLimit, idx,
                             QStringLiteral("Page %1 holds %2 items; %3 = %4 was asked")
                                 .arg(QString::number(idx + 1), QString::number(page.itemCount), toolLimitArg,
                                      QString::number(*page.requestedLimit)),
                             {{QStringLiteral("itemCount"), page.itemCount},
                              {QStringLiteral("limit"), *page.requestedLimit}}));
    }

    if (page.hintsExpected) {
        for (Finding f : judgeHints(page.hints, QStringLiteral("Page %1").arg(idx + 1),
                                    QStringLiteral("on page %1").arg(idx + 1))) {
            f.pages = {idx};
            findings.append(f);
        }
        if (page.hints.hasScope && isValidScope(page.hints.cacheScope)) {
            const QString scope = page.hints.cacheScope.toString();
            if (m_firstScopePage < 0) {
                m_firstScope = scope;
                m_firstScopePage = idx;
            } else if (scope != m_firstScope) {
                Finding f = make(FindingId::ScopeMismatch, idx,
                                 QStringLiteral("Page %1 is %2 but page %3 was %4: every page of a list must "
                                                "carry the same cacheScope")
                                     .arg(QString::number(idx + 1), scope,
                                          QString::number(m_firstScopePage + 1), m_firstScope),
                                 {{QStringLiteral("cacheScope"), scope},
                                  {QStringLiteral("firstScope"), m_firstScope},
                                  {QStringLiteral("firstScopePage"), m_firstScopePage + 1}});
                f.pages.append(m_firstScopePage);
                findings.append(f);
            }
        }
    }
    return findings;
}

bool WalkJudge::isValidScope(const QJsonValue &cacheScope)
{
    return cacheScope == QLatin1String("public") || cacheScope == QLatin1String("private");
}

QList<Finding> WalkJudge::judgeHints(const CacheHints &hints, const QString &subject, const QString &where)
{
    const auto &[hasTtl, ttlMs, hasScope, cacheScope] = hints;
    QList<Finding> findings;
    auto add = [&findings](const QString &id, const QString &message, const QJsonObject &evidence) {
        findings.append(Finding::make(id, {}, message, evidence));
    };
    if (!hasTtl || !hasScope) {
        QStringList missing;
        if (!hasTtl)
            missing << QStringLiteral("ttlMs");
        if (!hasScope)
            missing << QStringLiteral("cacheScope");
        add(FindingId::CacheHintsMissing,
            QStringLiteral("%1 has no %2 (MUST under 2026-07-28)")
                .arg(subject, missing.join(QStringLiteral(" or "))),
            {{QStringLiteral("missing"), QJsonArray::fromStringList(missing)}});
    }
    if (hasTtl && !TtlClock::isValidTtl(ttlMs))
        add(FindingId::TtlInvalid,
            QStringLiteral("ttlMs %1 is %2: it must be an integer ≥ 0 (treated as %3 ms)")
                .arg(where, PageRecord::describeValue(true, ttlMs),
                     QString::number(TtlClock::effectiveTtlMs(ttlMs))),
            {{QStringLiteral("ttlMs"), ttlMs}});
    if (hasScope && !isValidScope(cacheScope))
        add(FindingId::ScopeInvalid,
            QStringLiteral("cacheScope %1 is %2: it must be \"public\" or \"private\"")
                .arg(where, PageRecord::describeValue(true, cacheScope)),
            {{QStringLiteral("cacheScope"), cacheScope}});
    return findings;
}

QString WalkJudge::describeError(const PageRecord &page)
{
    const McpError &e = page.error;
    if (e.kind == McpError::Kind::Rpc && e.code == -32602 && page.requestCursor)
        return QStringLiteral("invalid or expired cursor: %1").arg(e.describe());
    return e.describe();
}

QList<Finding> WalkJudge::judgeNames(const PageRecord &page, const ItemTexts &items)
{
    // A name that reads as another: bidirectional overrides reorder it, zero-width characters and
    // controls hide in it, Cyrillic or Greek letters pass for Latin ones. An agent and a person
    // would call the tool they think they read.
    int count = 0;
    QJsonArray examples;
    QString first;
    for (int i = 0; i < items.count(); ++i) {
        if (!mayHideCharacters(items.at(i)))
            continue;
        const QString identity = ListSource::identity(items.at(i));
        const QString name = identity.mid(identity.indexOf(QLatin1Char(':')) + 1);
        const QList<char32_t> hidden = hiddenCharacters(name);
        const QList<char32_t> lookAlike = lookAlikeCharacters(name);
        if (hidden.isEmpty() && lookAlike.isEmpty())
            continue;
        ++count;
        if (first.isEmpty()) {
            first = QStringLiteral("\"%1\" (%2)")
                        .arg(oneLineSafe(name),
                             hidden.isEmpty()
                                 ? QStringLiteral("look-alike letters %1").arg(describeCodePoints(lookAlike))
                                 : QStringLiteral("hidden characters %1").arg(describeCodePoints(hidden)));
        }
        if (examples.size() < 5) {
            QJsonArray hiddenJson, lookAlikeJson;
            for (char32_t c : hidden)
                hiddenJson.append(describeCodePoints({c}));
            for (char32_t c : lookAlike)
                lookAlikeJson.append(describeCodePoints({c}));
            examples.append(QJsonObject{{QStringLiteral("identity"), identity},
                                        {QStringLiteral("hidden"), hiddenJson},
                                        {QStringLiteral("lookAlike"), lookAlikeJson}});
        }
    }
    if (count == 0)
        return {};
    return {make(FindingId::DeceptiveName, page.index,
                 QStringLiteral("%1 on page %2 may read as another name: %3")
                     .arg(counted(count, "name", "names"), QString::number(page.index + 1), first),
                 {{QStringLiteral("count"), count}, {QStringLiteral("examples"), examples}})};
}

bool WalkJudge::refusedForArguments(const ListSource &source, const PageRecord &page, bool argumentsChosen)
{
    if (source.kind() != ListSource::Kind::Tool || argumentsChosen || page.index != 0 ||
        page.requestCursor.has_value())
        return false;
    const McpError &e = page.error;
    return e.kind == McpError::Kind::ToolError || (e.kind == McpError::Kind::Rpc && e.code == -32602);
}

QList<Finding> WalkJudge::judgeFailure(const PageRecord &page)
{
    QList<Finding> findings;
    QJsonObject evidence{{QStringLiteral("kind"), McpError::kindName(page.error.kind)},
                         {QStringLiteral("message"), page.error.message}};
    if (page.error.kind == McpError::Kind::Rpc)
        evidence[QStringLiteral("code")] = page.error.code;
    if (page.requestCursor)
        evidence[QStringLiteral("cursor")] = *page.requestCursor;
    // One event, one finding: a refused "" is that, not a page error besides. (A "" that timed out
    // or lost its connection was not refused: that is a page error.)
    const bool refused =
        page.error.kind == McpError::Kind::Rpc || page.error.kind == McpError::Kind::ToolError;
    if (page.requestCursor && page.requestCursor->isEmpty() && refused) {
        findings.append(
            make(FindingId::EmptyCursorRejected, page.index,
                 QStringLiteral("The server refused the \"\" cursor it issued itself for page %1: %2")
                     .arg(QString::number(page.index + 1), describeError(page)),
                 evidence));
        return findings;
    }
    findings.append(
        make(FindingId::PageError, page.index,
             QStringLiteral("Page %1 failed: %2").arg(QString::number(page.index + 1), describeError(page)),
             evidence));
    return findings;
}

QList<Finding> WalkJudge::judgePaging(const PageRecord &firstPage, const ListSource &source)
{
    if (!source.pagesByPosition())
        return {};
    const bool offset = source.paging() == ListSource::Paging::Offset;
    return QList<Finding>{make(
        FindingId::TransparentPaging, firstPage.index,
        QStringLiteral("%1 pages by %2 (\"%3\"): when the list changes during a walk, items shift between "
                       "pages and are skipped or read twice; an opaque cursor (ADR-032) would not")
            .arg(source.displayName(), offset ? QStringLiteral("offset") : QStringLiteral("page number"),
                 source.cursorArgument()),
        {{QStringLiteral("style"), offset ? QStringLiteral("offset") : QStringLiteral("page-number")},
         {QStringLiteral("argument"), source.cursorArgument()},
         {QStringLiteral("sizeArgument"), source.limitArgument()}})};
}

QList<Finding> WalkJudge::judgeCapReached(const PageRecord &lastPage, int cap)
{
    return QList<Finding>{
        make(FindingId::PageCapReached, lastPage.index,
             QStringLiteral("The walk stopped at the cap of %1 pages; the list goes on").arg(cap),
             {{QStringLiteral("cap"), cap}, {QStringLiteral("nextCursor"), lastPage.next.text}})};
}

QList<Finding> WalkJudge::judgeSizeCapReached(const PageRecord &lastPage, qint64 kept, qint64 cap)
{
    return QList<Finding>{make(
        FindingId::WalkSizeCapReached, lastPage.index,
        QStringLiteral("The walk stopped after %1 pages, which keep %2 of items and cursors: the cap is %3; "
                       "the list goes on")
            .arg(QString::number(lastPage.index + 1), McpError::sizeText(kept), McpError::sizeText(cap)),
        {{QStringLiteral("bytes"), kept},
         {QStringLiteral("cap"), cap},
         {QStringLiteral("nextCursor"), lastPage.next.text}})};
}

QList<Finding> WalkJudge::judgeRestartCapReached(const PageRecord &lastPage, int restarts,
                                                 const QString &reason)
{
    return QList<Finding>{make(
        FindingId::RestartCapReached, lastPage.index,
        QStringLiteral("The walk started again %1 times without reaching the end (the last time because %2); "
                       "Folio stopped walking instead of starting once more")
            .arg(QString::number(restarts), reason),
        {{QStringLiteral("restarts"), restarts}, {QStringLiteral("reason"), reason}})};
}

} // namespace folio
