#include "pagewalker.h"

#include "itemdiff.h"
#include "mcpclient.h"
#include "rpccall.h"
#include "trafficlog.h"
#include "ttlclock.h"

#include <QDateTime>
#include <QJsonDocument>

#include <utility>

namespace folio {

namespace {

// What a tool said with isError: true, its content's text (bounded).
QString toolErrorText(const RpcCall *call)
{
    QString text;
    for (const QJsonValue &b : call->result().value(QStringLiteral("content")).toArray())
        text += b.toObject().value(QStringLiteral("text")).toString();
    return text.left(500);
}

QByteArray compact(const QJsonValue &v)
{
    if (v.isObject())
        return QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
    if (v.isArray())
        return QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
    QByteArray wrapped = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);
}

} // namespace

PageWalker::PageWalker(McpClient *client, const ListSource &source, TtlClock *clock, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_source(source)
    , m_clock(clock)
    , m_ledger(new PageLedger(this))
    , m_rows(new RowStore(this))
    , m_sizeCap(client->config().maxWalkBytes)
    , m_nextCursor(source.startCursor()) // a cursor given among the arguments: the walk starts there
{
    qRegisterMetaType<folio::PageWalker::End>();
    connect(m_clock, &TtlClock::expired, this, &PageWalker::handleExpired);
    connect(m_client, &McpClient::listChanged, this, &PageWalker::handleListChanged);
}

PageWalker::~PageWalker()
{
    if (m_clock) {
        for (int row : walkPageRows())
            m_clock->unschedule(m_ledger->page(row).serial);
    }
    if (m_inFlight) {
        m_inFlight->disconnect(this);
        m_inFlight->cancel();
    }
}

void PageWalker::setSource(const ListSource &source)
{
    m_source = source;
    if (m_started)
        restart(tr("the list's arguments changed")); // answered later: nothing is compared yet
    // Another query: its walk is not the same list walked again, so it parts from nothing.
    m_earlierWalk.clear();
    m_earlierWalkNumber = -1;
    m_earlierWalkComplete = false;
}

void PageWalker::setAutoRefetch(bool on)
{
    m_autoRefetch = on;
    if (!on)
        return;
    for (int row : walkPageRows()) {
        if (m_ledger->page(row).state == PageRecord::State::Expired)
            refetchPage(row);
    }
}

bool PageWalker::canFetchNext() const
{
    if ((m_manualStart && !m_started) || m_inserting)
        return false;
    return !m_complete && !m_stopped && m_inFlight.isNull() && !m_nextPageWanted && pagesInWalk() < m_pageCap;
}

void PageWalker::fetchNext()
{
    if (canFetchNext())
        requestNextPage();
}

void PageWalker::start()
{
    if (!m_started)
        requestNextPage();
}

void PageWalker::fetchAll()
{
    if (m_complete || m_stopped)
        return;
    m_fetchingAll = true;
    Q_EMIT progress(pagesRead(), m_rows->rowCount());
    if (m_inFlight.isNull())
        requestNextPage();
}

void PageWalker::cancel()
{
    m_fetchingAll = false;
    m_nextPageWanted = false;
    m_refetchQueue.clear();
    if (m_inFlight)
        m_inFlight->cancel(); // handleReply sees Cancelled and keeps what was read
}

void PageWalker::requestNextPage()
{
    m_started = true;
    if (m_complete || m_stopped || !m_restartCapReason.isEmpty())
        return;
    if (m_inFlight || m_inserting) {
        m_nextPageWanted = true;
        return;
    }
    if (pagesInWalk() >= m_pageCap) {
        const QList<int> rows = walkPageRows();
        if (!rows.isEmpty()) {
            m_ledger->addFindings(rows.last(),
                                  WalkJudge::judgeCapReached(m_ledger->page(rows.last()), m_pageCap));
            Q_EMIT findingsChanged();
        }
        stop(tr("the page cap (%1) was reached").arg(m_pageCap));
        return;
    }
    if (m_keptBytes >= m_sizeCap) {
        const int last = m_rows->lastPageLedgerRow();
        if (last >= 0) {
            m_ledger->addFindings(
                last, WalkJudge::judgeSizeCapReached(m_ledger->page(last), m_keptBytes, m_sizeCap));
            Q_EMIT findingsChanged();
        }
        stop(tr("the walk keeps %1 of items and cursors, its size cap (%2)")
                 .arg(McpError::sizeText(m_keptBytes), McpError::sizeText(m_sizeCap)));
        return;
    }
    if (pagesInWalk() == 0) {
        if (const QString needed = m_source.argumentsNeeded(); !needed.isEmpty()) {
            m_needsArguments = true;
            stop(tr("needs %1").arg(needed));
            return;
        }
    }
    PageRecord rec;
    rec.serial = m_clock->allocateKey(); // unique across every walker sharing the clock
    rec.walk = m_walk;
    rec.index = pagesInWalk();
    rec.requestCursor = m_nextCursor;
    if (m_source.kind() == ListSource::Kind::Tool)
        rec.requestedLimit = m_source.pageSizeSent(); // --limit, or a limit among the arguments
    const int row = m_ledger->appendRequest(rec);
    m_rows->openPage(row);
    m_judge.noteRequest(rec.index, rec.requestCursor);
    sendRequest(Job::NextPage, row, rec.requestCursor);
}

void PageWalker::sendRequest(Job job, int ledgerRow, const std::optional<QString> &cursor)
{
    RpcCall *call = m_source.requestPage(m_client, cursor, this);
    m_source.deferItems(call); // a protocol list's items are cut from the reply, not parsed
    // The connection's clock: a replay's pages were sent when they were recorded.
    m_ledger->markSent(ledgerRow, job == Job::Refetch,
                       call->sentAtMs() > 0 ? call->sentAtMs() : QDateTime::currentMSecsSinceEpoch(),
                       TrafficLog::idText(call->id()));
    const int walk = m_walk;
    connect(call, &RpcCall::finished, this,
            [this, call, job, ledgerRow, walk] { handleReply(call, job, ledgerRow, walk); });
    setInFlight(call);
}

void PageWalker::setInFlight(RpcCall *call)
{
    const bool was = !m_inFlight.isNull();
    m_inFlight = call;
    if (was != (call != nullptr))
        Q_EMIT loadingChanged(call != nullptr);
}

void PageWalker::handleReply(RpcCall *call, Job job, int ledgerRow, int walk)
{
    call->deleteLater();
    if (m_inFlight == call)
        setInFlight(nullptr);
    if (walk != m_walk) {
        pumpQueue(); // a reply for a discarded walk: its page is already marked discarded
        return;
    }
    if (call->isError() && call->error().kind == McpError::Kind::Cancelled) {
        m_ledger->markCancelled(ledgerRow, call->error(), m_clock->nowMs());
        if (job == Job::NextPage)
            m_rows->dropLastPage();
        Q_EMIT walkFinished(End::Cancelled);
        pumpQueue();
        return;
    }
    if (call->isError()) {
        const int pageNumber = m_ledger->page(ledgerRow).index + 1;
        failPage(ledgerRow, call->error(), call);
        if (job == Job::Refetch && call->error().kind == McpError::Kind::Rpc &&
            call->error().code == -32602) {
            restartForServer(tr("page %1's cursor was refused on refetch (-32602)").arg(pageNumber));
            return;
        }
        pumpQueue();
        return;
    }
    const ListSource::Page page = m_source.readPage(call);
    if (page.toolError || !page.extractionError.isEmpty()) {
        McpError e;
        if (page.toolError) {
            e.kind = McpError::Kind::ToolError;
            e.message = tr("The tool answered isError: %1").arg(toolErrorText(call));
        } else {
            e.kind = McpError::Kind::Protocol;
            e.message = page.extractionError;
        }
        failPage(ledgerRow, e, call);
        pumpQueue();
        return;
    }
    if (job == Job::NextPage)
        acceptPage(ledgerRow, page, call);
    else
        acceptRefetch(ledgerRow, page, call);
    pumpQueue();
}

PageLedger::PageAnswer PageWalker::answerOf(const ListSource::Page &page, RpcCall *call) const
{
    PageLedger::PageAnswer a;
    a.next = page.next;
    a.itemCount = page.itemCount();
    a.latencyMs = call->latencyMs();
    a.requestBytes = call->requestBytes();
    a.responseBytes = call->responseBytes();
    a.receivedAtMs = call->receivedAtMs();
    a.receivedMonoMs = m_clock->nowMs();
    a.legacyEra = !m_client->isModern();
    a.hintsExpected = m_source.kind() == ListSource::Kind::Protocol && !a.legacyEra &&
                      page.resultType != QLatin1String("input_required");
    a.hints = page.hints;
    return a;
}

void PageWalker::scheduleExpiry(int ledgerRow)
{
    const PageRecord &rec = m_ledger->page(ledgerRow);
    m_clock->unschedule(rec.serial);
    if (rec.expiresAtMonoMs() >= 0)
        m_clock->schedule(rec.serial, rec.expiresAtMonoMs());
}

ItemTexts PageWalker::itemsOf(const ListSource::Page &page) const
{
    if (page.itemsAsText)
        return page.itemTexts;
    ItemTexts items;
    items.offsets.reserve(page.items.size() + 1);
    for (const QJsonValue &v : page.items)
        items.append(compact(v));
    return items;
}

void PageWalker::acceptPage(int ledgerRow, const ListSource::Page &page, RpcCall *call)
{
    m_ledger->applyReply(ledgerRow, answerOf(page, call));
    const int largestEarlierPage = m_largestPage;
    m_largestPage = qMax(m_largestPage, page.itemCount());
    scheduleExpiry(ledgerRow);
    bool keepWalking = true;
    QList<Finding> cursorFindings = m_judge.judgeCursor(m_ledger->page(ledgerRow), &keepWalking);
    if (m_ledger->page(ledgerRow).index == 0)
        cursorFindings += WalkJudge::judgePaging(m_ledger->page(ledgerRow), m_source);
    m_ledger->addFindings(ledgerRow, cursorFindings);

    ItemTexts items = itemsOf(page);
    // What the walk keeps of this page: its items and its next cursor (UTF-16), which a list whose
    // cursor grows page by page makes count.
    m_keptBytes += items.text.size() + items.offsets.size() * qint64(sizeof(quint32)) + page.next.keptBytes();

    // Settle the walk's state before the rows go in: views react to rowsInserted by asking
    // canFetchNext()/fetchNext() at once, and must see the new cursor.
    const bool stopped = !keepWalking;
    if (stopped) {
        m_stopped = true;
        m_fetchingAll = false;
    } else if (const std::optional<QString> next =
                   m_source.nextRequest(page, m_ledger->page(ledgerRow).requestCursor, largestEarlierPage)) {
        m_nextCursor = *next; // by the list's paging style: a cursor ("" too), a token or a position
        if (m_fetchingAll)
            m_nextPageWanted = true;
    } else {
        m_complete = true;
        m_fetchingAll = false;
    }

    // Fetching all: ask for the next page now, before judging this page's items and storing it,
    // so that the server works on it meanwhile (the cursor is judged; the request leaves at once).
    // At a cap the walk stops instead: that waits for pumpQueue(), after this page's rows are in.
    if (m_nextPageWanted && m_inFlight.isNull() && pagesInWalk() < m_pageCap && m_keptBytes < m_sizeCap) {
        m_nextPageWanted = false;
        requestNextPage(); // appends to the ledger: no reference into it is kept across this
    }
    judgeParting(ledgerRow, items);
    const QList<Finding> itemFindings =
        m_judge.judgeItems(m_ledger->page(ledgerRow), items,
                           m_source.kind() == ListSource::Kind::Tool ? m_source.limitArgument() : QString());
    m_ledger->addFindings(ledgerRow, itemFindings);
    const bool hasFindings = !cursorFindings.isEmpty() || !itemFindings.isEmpty();
    const bool wrongType = page.next.presence == NextCursor::Presence::WrongType;

    // Views answer rowsInserted by asking for more at once: hold such requests until the page is
    // in (pumpQueue() sends them).
    m_inserting = true;
    m_rows->fillPage(ledgerRow, std::move(items));
    m_inserting = false;
    if (stopped)
        stop(wrongType ? tr("nextCursor is not a string") : tr("a cursor repeated"));
    Q_EMIT pageAccepted(ledgerRow);
    if (hasFindings)
        Q_EMIT findingsChanged();
    Q_EMIT progress(pagesRead(), m_rows->rowCount());
    if (m_complete) {
        m_serverRestarts = 0; // the whole list was read: no restart cap to stop at
        m_restartCapReason.clear();
        Q_EMIT walkFinished(End::Complete);
    }
}

void PageWalker::acceptRefetch(int ledgerRow, const ListSource::Page &page, RpcCall *call)
{
    const ItemTexts *old = m_rows->pageItems(ledgerRow);
    if (!old)
        return;
    ItemTexts fresh = itemsOf(page);

    // The new copy against the old, by identity.
    const auto itemsFor = [](const ItemTexts &items) {
        QList<ItemDiff::Item> out;
        out.reserve(items.count());
        for (int i = 0; i < items.count(); ++i)
            out.append({ItemDiff::identity(items.at(i)), items.at(i)});
        return out;
    };
    const ItemDiff diff = ItemDiff::compare(itemsFor(*old), itemsFor(fresh));

    PageLedger::PageAnswer answer = answerOf(page, call);
    answer.requestBytes = 0; // the page's first request stays the one recorded
    m_keptBytes += fresh.text.size() - old->text.size() +
                   (fresh.offsets.size() - old->offsets.size()) * qint64(sizeof(quint32));
    m_ledger->applyRefetch(ledgerRow, answer, diff.added, diff.removed, diff.changed);
    scheduleExpiry(ledgerRow);
    m_inserting = true; // views may ask for more while rows move: that waits (see acceptPage)
    m_rows->replacePage(ledgerRow, std::move(fresh));
    m_inserting = false;
    Q_EMIT pageAccepted(ledgerRow);
}

void PageWalker::failPage(int ledgerRow, const McpError &error, RpcCall *call)
{
    const bool refetch = m_ledger->page(ledgerRow).state == PageRecord::State::Refetching;
    m_ledger->applyFailure(ledgerRow, error, call->latencyMs(), call->responseBytes(), call->receivedAtMs());
    if (!refetch &&
        WalkJudge::refusedForArguments(m_source, m_ledger->page(ledgerRow), m_source.hasChosenArguments())) {
        // Folio asked without arguments the tool wants: not the server's fault, and not a page of
        // the list. The answer stays on the record, struck out; the walk waits for arguments.
        m_ledger->markAskedWithoutArguments(ledgerRow);
        m_needsArguments = true;
        // In the server's words: its refusal says what it wants ("give a channel").
        const QString words = error.kind == McpError::Kind::ToolError ? toolErrorText(call) : error.message;
        stop(tr("needs arguments: %1").arg(words.simplified()));
        Q_EMIT pageFailed(ledgerRow, error);
        return;
    }
    m_ledger->addFindings(ledgerRow, WalkJudge::judgeFailure(m_ledger->page(ledgerRow)));
    if (!refetch) {
        const PageRecord &rec = m_ledger->page(ledgerRow);
        stop(tr("page %1 failed: %2").arg(QString::number(rec.index + 1), WalkJudge::describeError(rec)));
    }
    Q_EMIT pageFailed(ledgerRow, error);
    Q_EMIT findingsChanged();
}

void PageWalker::stop(const QString &reason)
{
    m_stopped = true;
    m_stopReason = reason;
    m_fetchingAll = false;
    m_nextPageWanted = false;
    Q_EMIT walkFinished(End::Stopped);
}

void PageWalker::pumpQueue()
{
    if (m_inFlight)
        return;
    if (!m_restartCapReason.isEmpty()) {
        stopAtRestartCap(); // the page that was in flight at the cap has arrived
        return;
    }
    while (!m_refetchQueue.isEmpty()) {
        const int row = m_refetchQueue.takeFirst();
        if (!m_rows->containsPage(row))
            continue;
        sendRequest(Job::Refetch, row, m_ledger->page(row).requestCursor);
        return;
    }
    if (m_nextPageWanted) {
        m_nextPageWanted = false;
        requestNextPage();
    }
}

void PageWalker::refetchPage(int ledgerRow)
{
    if (!m_rows->containsPage(ledgerRow) || !m_ledger->page(ledgerRow).isSettled() ||
        m_ledger->page(ledgerRow).state == PageRecord::State::Failed)
        return;
    if (!m_refetchQueue.contains(ledgerRow))
        m_refetchQueue.append(ledgerRow);
    pumpQueue();
}

bool PageWalker::canRetry() const
{
    const int row = m_rows->lastPageLedgerRow();
    return m_stopped && m_inFlight.isNull() && row >= 0 &&
           m_ledger->page(row).state == PageRecord::State::Failed;
}

void PageWalker::retryFailedPage()
{
    if (!canRetry())
        return;
    const int row = m_rows->lastPageLedgerRow();
    // As a cancelled page: out of the walk, in the history. Its findings were the walk's while it
    // stood; they stay on the record.
    m_ledger->markDiscarded({row}, tr("retried"));
    m_rows->dropLastPage();
    m_stopped = false;
    m_stopReason.clear();
    Q_EMIT findingsChanged();
    requestNextPage(); // m_nextCursor is still the failed page's cursor
}

void PageWalker::restart(const QString &reason)
{
    m_serverRestarts = 0;
    m_restartCapReason.clear();
    startNewWalk(reason);
}

void PageWalker::restartForServer(const QString &reason)
{
    if (m_serverRestarts > m_restartCap)
        return; // stopped at the cap already; the user's restart() walks again
    if (m_serverRestarts < m_restartCap) {
        ++m_serverRestarts;
        startNewWalk(reason);
        return;
    }
    ++m_serverRestarts;
    // A server that changes its list faster than it can be walked (or refuses every cursor it is
    // asked again) would have the walk start over for ever: this walk stops once the page in
    // flight, if any, has arrived (pumpQueue()), and keeps what it read.
    m_restartCapReason = reason;
    m_fetchingAll = false;
    m_nextPageWanted = false;
    if (m_inFlight.isNull())
        stopAtRestartCap();
}

void PageWalker::stopAtRestartCap()
{
    const QString reason = std::exchange(m_restartCapReason, QString());
    const int last = m_rows->lastPageLedgerRow();
    if (last >= 0) {
        m_ledger->addFindings(last,
                              WalkJudge::judgeRestartCapReached(m_ledger->page(last), m_restartCap, reason));
        Q_EMIT findingsChanged();
    }
    if (!m_stopped) // a page that failed has stopped it already, with its own reason
        stop(tr("%1, after %2 restarts in a row: the restart cap was reached")
                 .arg(reason, QString::number(m_restartCap)));
}

void PageWalker::dropInFlight()
{
    if (!m_inFlight)
        return;
    RpcCall *call = m_inFlight;
    call->disconnect(this);
    setInFlight(nullptr);
    call->cancel();
    call->deleteLater();
}

void PageWalker::startNewWalk(const QString &reason)
{
    keepDigests(); // before its rows go
    ++m_walk;
    dropInFlight();
    const QList<int> rows = walkPageRows();
    for (int row : rows)
        m_clock->unschedule(m_ledger->page(row).serial);
    m_ledger->markDiscarded(rows, reason);
    m_rows->clear();
    m_judge.reset();
    m_refetchQueue.clear();
    m_nextPageWanted = false;
    m_complete = false;
    m_stopped = false;
    m_needsArguments = false;
    m_stopReason.clear();
    m_nextCursor = m_source.startCursor();
    m_largestPage = 0;
    m_keptBytes = 0;
    const bool wasStarted = m_started;
    Q_EMIT walkRestarted(reason);
    Q_EMIT findingsChanged();
    if (wasStarted)
        requestNextPage();
}

PageWalker::PageDigest PageWalker::PageDigest::of(const ItemTexts &items)
{
    PageDigest d;
    d.count = items.count();
    for (int i = 0; i < items.count(); ++i) {
        const quint64 h = ListSource::itemIdentityHash(items.at(i));
        d.order = d.order * 1099511628211ULL ^ h; // FNV-style: the order counts
        d.set += h * 0x9E3779B97F4A7C15ULL | 1;   // a sum: the order does not
    }
    return d;
}

void PageWalker::keepDigests()
{
    // Only a walk that read something replaces the earlier one: a restart before any answer
    // (list_changed twice in a row) keeps comparing with the last walk that was read.
    m_parted = false;
    QVector<PageDigest> digests;
    const QList<int> rows = walkPageRows();
    for (int row : rows) {
        // Read in order up to the first page without an answer: one in flight, one that failed,
        // one asked without the arguments it wants. What follows it is not known.
        const PageRecord &page = m_ledger->page(row);
        const ItemTexts *items = m_rows->pageItems(row);
        if (!items || !page.isSettled() || page.state == PageRecord::State::Failed ||
            page.state == PageRecord::State::Discarded || page.askedWithoutArguments ||
            page.index != digests.size())
            break;
        digests.append(PageDigest::of(*items));
    }
    if (digests.isEmpty())
        return;
    m_earlierWalkComplete = m_complete && digests.size() == rows.size();
    m_earlierWalk = std::move(digests);
    m_earlierWalkNumber = m_walk;
}

void PageWalker::judgeParting(int ledgerRow, const ItemTexts &items)
{
    if (m_earlierWalk.isEmpty() || m_parted)
        return;
    const int index = m_ledger->page(ledgerRow).index;
    const QString walk = QString::number(m_earlierWalkNumber + 1);
    QString how;
    if (index < m_earlierWalk.size()) {
        const PageDigest now = PageDigest::of(items);
        const PageDigest &before = m_earlierWalk.at(index);
        if (now.count != before.count || now.set != before.set)
            how = tr("other items than walk %1's page %2 (%3 here, %4 there)")
                      .arg(walk)
                      .arg(index + 1)
                      .arg(now.count)
                      .arg(before.count);
        else if (now.order != before.order)
            how = tr("the items of walk %1's page %2, in another order").arg(walk).arg(index + 1);
        else if (m_complete && index + 1 < m_earlierWalk.size())
            how = tr("the list ends here; walk %1 went on to page %2").arg(walk).arg(m_earlierWalk.size());
    } else if (index == m_earlierWalk.size() && m_earlierWalkComplete) {
        how = tr("walk %1 ended at page %2; this one goes on").arg(walk).arg(index);
    }
    if (how.isEmpty())
        return;
    m_parted = true;
    m_ledger->markParting(ledgerRow, how);
}

void PageWalker::handleExpired(const QList<quint64> &serials)
{
    for (quint64 serial : serials) {
        const int row = m_ledger->rowForSerial(serial);
        if (row < 0 || m_ledger->page(row).state != PageRecord::State::Fresh)
            continue;
        m_ledger->markExpired(row);
        if (m_autoRefetch && m_rows->containsPage(row))
            refetchPage(row);
    }
}

void PageWalker::handleListChanged(ListKind kind)
{
    if (m_source.kind() != ListSource::Kind::Protocol || kind != m_source.protocolKind() || !m_started)
        return;
    restartForServer(
        tr("the server sent notifications/%1/list_changed")
            .arg(kind == ListKind::ResourceTemplates ? QStringLiteral("resources") : listName(kind)));
}

int PageWalker::pagesRead() const
{
    const int last = m_rows->lastPageLedgerRow();
    const bool lastAsked = last >= 0 && m_ledger->page(last).state == PageRecord::State::Loading;
    return pagesInWalk() - (lastAsked ? 1 : 0);
}

QList<Finding> PageWalker::findings() const
{
    QList<Finding> all;
    for (int row : walkPageRows())
        all += m_ledger->page(row).findings;
    return all;
}

} // namespace folio
