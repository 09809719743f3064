#include "pagedlistmodel.h"

#include "jsonslice.h"

#include "mcpclient.h"
#include "rpccall.h"
#include "ttlclock.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSet>

namespace folio {

namespace {

constexpr int textCacheRows = 4096;
constexpr int maxCellChars = 300;

QString cellText(const QJsonValue &v)
{
    QString s;
    switch (v.type()) {
    case QJsonValue::Undefined:
        return {};
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return PageRecord::describeValue(true, v);
    case QJsonValue::String:
        s = v.toString();
        break;
    case QJsonValue::Array:
        s = v.toArray().isEmpty()
                ? QStringLiteral("[]")
                : QStringLiteral("[%1] ").arg(v.toArray().size()) +
                      QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
        break;
    case QJsonValue::Object:
        s = QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
        break;
    }
    if (s.size() > maxCellChars) {
        s.truncate(maxCellChars);
        s.append(QChar(0x2026));
    }
    for (QChar &c : s) {
        if (c == QLatin1Char('\n') || c == QLatin1Char('\r') || c == QLatin1Char('\t'))
            c = QLatin1Char(' ');
    }
    return s;
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

// A string taken out of a parsed reply shares the reply's storage (Qt 6 keeps the whole parsed
// document alive behind it): what a page record keeps gets storage of its own, or every page's
// parsed reply would stay in memory for as long as its record.
QJsonValue detached(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String:
        return QJsonValue(v.toString());
    case QJsonValue::Array:
        return QJsonDocument::fromJson(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)).array();
    case QJsonValue::Object:
        return QJsonDocument::fromJson(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)).object();
    default:
        return v;
    }
}

QJsonValue parseCompact(const QByteArray &bytes)
{
    if (bytes.startsWith('{'))
        return QJsonDocument::fromJson(bytes).object();
    if (bytes.startsWith('['))
        return QJsonDocument::fromJson(bytes).array();
    return QJsonDocument::fromJson("[" + bytes + "]").array().at(0);
}

} // namespace

PagedListModel::PagedListModel(McpClient *client, const ListSource &source, TtlClock *clock, QObject *parent)
    : QAbstractTableModel(parent)
    , m_client(client)
    , m_source(source)
    , m_clock(clock)
    , m_ledger(new PageLedger(this))
    , m_columns(source.columns())
    , m_textCache(textCacheRows)
{
    connect(m_clock, &TtlClock::expired, this, &PagedListModel::handleExpired);
    connect(m_client, &McpClient::listChanged, this, &PagedListModel::handleListChanged);
}

PagedListModel::~PagedListModel()
{
    for (const StoredPage &sp : std::as_const(m_pages)) {
        if (m_clock)
            m_clock->unschedule(m_ledger->page(sp.ledgerRow).serial);
    }
    if (m_inFlight) {
        m_inFlight->disconnect(this);
        m_inFlight->cancel();
    }
}

int PagedListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rowCount;
}

int PagedListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant PagedListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Horizontal)
        return section >= 0 && section < m_columns.size() ? QVariant(m_columns.at(section).header)
                                                          : QVariant();
    return section + 1;
}

void PagedListModel::setSource(const ListSource &source)
{
    m_source = source;
    const QList<ListSource::Column> columns = source.columns();
    if (m_started)
        restart(tr("the list's arguments changed"));
    if (!m_columns.isEmpty() && columns.isEmpty()) {
        beginRemoveColumns({}, 0, int(m_columns.size()) - 1);
        m_columns.clear();
        endRemoveColumns();
    } else if (!columns.isEmpty()) {
        beginResetModel();
        m_columns = columns;
        endResetModel();
    }
}

void PagedListModel::setAutoRefetch(bool on)
{
    m_autoRefetch = on;
    if (!on)
        return;
    for (const StoredPage &sp : std::as_const(m_pages)) {
        if (m_ledger->page(sp.ledgerRow).state == PageRecord::State::Expired)
            refetchPage(sp.ledgerRow);
    }
}

bool PagedListModel::canFetchMore(const QModelIndex &parent) const
{
    if (parent.isValid() || (m_manualStart && !m_started) || m_inserting)
        return false;
    return !m_complete && !m_stopped && m_inFlight.isNull() && !m_nextPageWanted &&
           m_pages.size() < m_pageCap;
}

void PagedListModel::fetchMore(const QModelIndex &parent)
{
    if (canFetchMore(parent))
        requestNextPage();
}

void PagedListModel::start()
{
    if (!m_started)
        requestNextPage();
}

void PagedListModel::fetchAll()
{
    if (m_complete || m_stopped)
        return;
    m_fetchingAll = true;
    Q_EMIT progress(pagesInWalk(), m_rowCount);
    if (m_inFlight.isNull())
        requestNextPage();
}

void PagedListModel::cancel()
{
    m_fetchingAll = false;
    m_nextPageWanted = false;
    m_refetchQueue.clear();
    if (m_inFlight)
        m_inFlight->cancel(); // handleReply sees Cancelled and keeps what was read
}

void PagedListModel::requestNextPage()
{
    m_started = true;
    if (m_complete || m_stopped)
        return;
    if (m_inFlight || m_inserting) {
        m_nextPageWanted = true;
        return;
    }
    if (m_pages.size() >= m_pageCap) {
        if (!m_pages.isEmpty()) {
            PageRecord &last = m_ledger->edit(m_pages.last().ledgerRow);
            m_judge.judgeCapReached(last, m_pageCap);
            m_ledger->notifyChanged(m_pages.last().ledgerRow);
            Q_EMIT findingsChanged();
        }
        stop(tr("the page cap (%1) was reached").arg(m_pageCap));
        return;
    }
    PageRecord rec;
    rec.serial = m_clock->allocateKey(); // unique across every model sharing the clock
    rec.walk = m_walk;
    rec.index = int(m_pages.size());
    rec.requestCursor = m_nextCursor;
    if (m_source.kind() == ListSource::Kind::Tool && !m_source.limitArgument().isEmpty())
        rec.requestedLimit = m_source.limit();
    rec.state = PageRecord::State::Loading;
    const int row = m_ledger->append(rec);
    StoredPage sp;
    sp.ledgerRow = row;
    sp.firstRow = m_rowCount;
    sp.offsets = {0};
    m_pages.append(sp);
    m_judge.noteRequest(rec.index, rec.requestCursor);
    sendRequest(Job::NextPage, row, rec.requestCursor);
}

void PagedListModel::sendRequest(Job job, int ledgerRow, const std::optional<QString> &cursor)
{
    RpcCall *call = m_source.requestPage(m_client, cursor, this);
    m_source.deferItems(call); // a protocol list's items are cut from the reply, not parsed
    PageRecord &rec = m_ledger->edit(ledgerRow);
    PageRecord::Attempt attempt;
    attempt.sentAtMs = QDateTime::currentMSecsSinceEpoch();
    attempt.refetch = job == Job::Refetch;
    rec.attempts.append(attempt);
    rec.sentAtMs = attempt.sentAtMs;
    const int walk = m_walk;
    connect(call, &RpcCall::finished, this,
            [this, call, job, ledgerRow, walk] { handleReply(call, job, ledgerRow, walk); });
    setInFlight(call);
}

void PagedListModel::setInFlight(RpcCall *call)
{
    const bool was = !m_inFlight.isNull();
    m_inFlight = call;
    if (was != (call != nullptr))
        Q_EMIT loadingChanged(call != nullptr);
}

void PagedListModel::handleReply(RpcCall *call, Job job, int ledgerRow, int walk)
{
    call->deleteLater();
    if (m_inFlight == call)
        setInFlight(nullptr);
    if (walk != m_walk) {
        pumpQueue(); // a reply for a discarded walk: its page is already marked discarded
        return;
    }
    PageRecord &rec = m_ledger->edit(ledgerRow);
    if (!rec.attempts.isEmpty()) {
        rec.attempts.last().latencyMs = call->latencyMs();
        rec.attempts.last().failed = call->isError();
    }
    if (call->isError() && call->error().kind == McpError::Kind::Cancelled) {
        if (job == Job::NextPage) {
            // Keep the request in the history; the next fetch asks for the same cursor again.
            rec.state = PageRecord::State::Discarded;
            rec.discardReason = tr("cancelled");
            rec.error = call->error();
            m_ledger->notifyChanged(ledgerRow);
            m_pages.removeLast();
        } else {
            rec.state = rec.expiresAtMonoMs >= 0 && rec.expiresAtMonoMs > m_clock->nowMs()
                            ? PageRecord::State::Fresh
                            : PageRecord::State::Expired;
            m_ledger->notifyChanged(ledgerRow);
        }
        Q_EMIT walkFinished();
        pumpQueue();
        return;
    }
    if (call->isError()) {
        const int pageNumber = rec.index + 1; // failPage() emits: no ledger reference past it
        failPage(ledgerRow, call->error(), call);
        if (job == Job::Refetch && call->error().kind == McpError::Kind::Rpc &&
            call->error().code == -32602) {
            restart(tr("page %1's cursor was refused on refetch (-32602)").arg(pageNumber));
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
            QString text;
            for (const QJsonValue &b : call->result().value(QStringLiteral("content")).toArray())
                text += b.toObject().value(QStringLiteral("text")).toString();
            e.message = tr("The tool answered isError: %1").arg(text.left(500));
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

void PagedListModel::applyHints(PageRecord &rec, const ListSource::Page &page)
{
    rec.legacyEra = !m_client->isModern();
    rec.hintsExpected = m_source.kind() == ListSource::Kind::Protocol && !rec.legacyEra &&
                        page.resultType != QLatin1String("input_required");
    rec.hasTtl = page.hasTtl;
    rec.ttlMs = detached(page.ttlMs);
    rec.hasScope = page.hasScope;
    rec.cacheScope = detached(page.cacheScope);
    rec.scope = rec.hintsExpected ? PageRecord::judgeScope(page.hasScope, page.cacheScope)
                                  : PageRecord::Scope::NotApplicable;
    rec.receivedMonoMs = m_clock->nowMs();
    m_clock->unschedule(rec.serial);
    rec.effectiveTtlMs =
        rec.hintsExpected ? TtlClock::effectiveTtlMs(page.hasTtl ? page.ttlMs : QJsonValue()) : 0;
    if (rec.effectiveTtlMs > 0) {
        rec.state = PageRecord::State::Fresh;
        rec.expiresAtMonoMs = TtlClock::deadlineFor(rec.receivedMonoMs, rec.effectiveTtlMs);
        m_clock->schedule(rec.serial, rec.expiresAtMonoMs);
    } else {
        // TTL 0, absent or negative: stale at once. Legacy and tool pages carry no hints at all.
        rec.state = PageRecord::State::Stale;
        rec.expiresAtMonoMs = -1;
    }
}

PagedListModel::StoredPage PagedListModel::pack(const ListSource::Page &page, const QByteArray &raw) const
{
    StoredPage sp;
    if (page.itemsAsText) {
        sp.arena = page.itemsText;
        sp.offsets = page.itemOffsets;
        sp.arena.squeeze();
        return sp;
    }
    const QJsonArray &items = page.items;
    if (m_source.kind() == ListSource::Kind::Protocol && m_source.itemsPointer().isEmpty() &&
        JsonSlice::resultArrayElements(raw, listItemsKey(m_source.protocolKind()).toLatin1(), &sp.arena,
                                       &sp.offsets)) {
        if (sp.count() == items.size()) {
            sp.arena.squeeze();
            return sp;
        }
        sp = StoredPage(); // not what the parser read: write the parsed items instead
    }
    sp.offsets.reserve(items.size() + 1);
    sp.offsets.append(0);
    for (const QJsonValue &v : items) {
        sp.arena.append(compact(v));
        sp.offsets.append(quint32(sp.arena.size()));
    }
    sp.arena.squeeze();
    return sp;
}

void PagedListModel::ensureColumns(const QJsonArray &items)
{
    if (!m_columns.isEmpty() || items.isEmpty())
        return;
    const QList<ListSource::Column> columns = ListSource::inferColumns(items);
    beginInsertColumns({}, 0, int(columns.size()) - 1);
    m_columns = columns;
    endInsertColumns();
    Q_EMIT columnsChanged();
}

void PagedListModel::acceptPage(int ledgerRow, const ListSource::Page &page, RpcCall *call)
{
    PageRecord &rec = m_ledger->edit(ledgerRow);
    rec.next = page.next;
    rec.nextCursor = page.nextCursor;
    rec.nextRaw = detached(page.nextRaw);
    rec.itemCount = page.itemCount();
    rec.latencyMs = call->latencyMs();
    rec.requestBytes = call->requestBytes();
    rec.responseBytes = call->responseBytes();
    rec.receivedAtMs = call->receivedAtMs();
    applyHints(rec, page);
    const bool keepWalking = m_judge.judgeCursor(rec);

    // Settle the walk's state before the rows go in: views react to rowsInserted by asking
    // canFetchMore()/fetchMore() at once, and must see the new cursor.
    bool stopped = false;
    if (!keepWalking) {
        stopped = true;
    } else if (page.next == ListSource::CursorPresence::String) {
        m_nextCursor = page.nextCursor; // "" included: it is a cursor, not the end
        if (m_fetchingAll)
            m_nextPageWanted = true;
    } else {
        m_complete = true;
        m_fetchingAll = false;
    }
    if (stopped) {
        m_stopped = true;
        m_fetchingAll = false;
    }

    // Fetching all: ask for the next page now, before judging this page's items and storing it,
    // so that the server works on it meanwhile (the cursor is judged; the request leaves at once).
    if (m_nextPageWanted && m_inFlight.isNull()) {
        m_nextPageWanted = false;
        requestNextPage(); // appends to the ledger: no reference into it is kept across this
    }
    PageRecord &judged = m_ledger->edit(ledgerRow);
    m_judge.judgeItems(judged, page,
                       m_source.kind() == ListSource::Kind::Tool ? m_source.limitArgument() : QString());

    // Views answer rowsInserted/columnsInserted by asking for more at once: hold such requests
    // until the page is in (pumpQueue() sends them), and keep no reference into the ledger across
    // the signals, which may append to it.
    const bool hasFindings = !judged.findings.isEmpty();
    const bool wrongType = judged.next == ListSource::CursorPresence::WrongType;
    m_inserting = true;
    ensureColumns(page.items);
    const int si = storedIndexForLedgerRow(ledgerRow); // the next page may be loading after it
    StoredPage packed = pack(page, call->rawResponse());
    packed.ledgerRow = ledgerRow;
    packed.firstRow = m_rowCount;
    const int count = packed.count();
    if (count > 0) {
        beginInsertRows({}, m_rowCount, m_rowCount + count - 1);
        m_pages[si] = std::move(packed);
        m_rowPage.insert(m_rowPage.size(), count, quint32(si));
        m_rowCount += count;
        for (qsizetype later = si + 1; later < m_pages.size(); ++later)
            m_pages[later].firstRow = m_rowCount; // a page still loading starts after these rows
        endInsertRows();
    } else {
        m_pages[si] = std::move(packed);
    }
    m_inserting = false;
    m_ledger->notifyChanged(ledgerRow);
    if (stopped)
        stop(wrongType ? tr("nextCursor is not a string") : tr("a cursor repeated"));
    Q_EMIT pageReceived(ledgerRow);
    if (hasFindings)
        Q_EMIT findingsChanged();
    Q_EMIT progress(pagesInWalk(), m_rowCount);
    if (m_complete)
        Q_EMIT walkFinished();
}

void PagedListModel::acceptRefetch(int ledgerRow, const ListSource::Page &page, RpcCall *call)
{
    const int si = storedIndexForLedgerRow(ledgerRow);
    if (si < 0)
        return;
    PageRecord &rec = m_ledger->edit(ledgerRow);
    StoredPage packed = pack(page, call->rawResponse());
    packed.ledgerRow = ledgerRow;
    packed.firstRow = m_pages[si].firstRow;

    // Diff the new copy against the old by identity.
    const StoredPage &old = m_pages[si];
    QHash<QString, QByteArray> before;
    for (int i = 0; i < old.count(); ++i) {
        const QByteArray bytes = old.arena.mid(old.offsets[i], old.offsets[i + 1] - old.offsets[i]);
        before.insert(ListSource::identity(parseCompact(bytes).toObject()), bytes);
    }
    int added = 0, changed = 0;
    QSet<QString> seen;
    for (int i = 0; i < packed.count(); ++i) {
        const QByteArray bytes =
            packed.arena.mid(packed.offsets[i], packed.offsets[i + 1] - packed.offsets[i]);
        const QString id = ListSource::identity(parseCompact(bytes).toObject());
        seen.insert(id);
        const auto it = before.constFind(id);
        if (it == before.constEnd())
            ++added;
        else if (*it != bytes)
            ++changed;
    }
    int removed = 0;
    for (auto it = before.constBegin(); it != before.constEnd(); ++it)
        removed += seen.contains(it.key()) ? 0 : 1;
    rec.diffAdded = added;
    rec.diffRemoved = removed;
    rec.diffChanged = changed;
    rec.refetchCount++;
    rec.next = page.next;
    rec.nextCursor = page.nextCursor;
    rec.nextRaw = detached(page.nextRaw);
    rec.itemCount = packed.count();
    rec.latencyMs = call->latencyMs();
    rec.responseBytes = call->responseBytes();
    rec.receivedAtMs = call->receivedAtMs();
    rec.error = {};
    applyHints(rec, page);

    const int oldCount = old.count();
    const int newCount = packed.count();
    m_textCache.clear();
    m_inserting = true; // views may ask for more while rows move: that waits (see acceptPage)
    if (oldCount == newCount) {
        m_pages[si] = std::move(packed);
        if (newCount > 0)
            Q_EMIT dataChanged(index(m_pages[si].firstRow, 0),
                               index(m_pages[si].firstRow + newCount - 1, columnCount() - 1));
    } else {
        const int first = m_pages[si].firstRow;
        if (oldCount > 0) {
            beginRemoveRows({}, first, first + oldCount - 1);
            m_rowPage.remove(first, oldCount);
            m_rowCount -= oldCount;
            m_pages[si].offsets = {0};
            m_pages[si].arena.clear();
            for (int i = si + 1; i < m_pages.size(); ++i)
                m_pages[i].firstRow -= oldCount;
            endRemoveRows();
        }
        if (newCount > 0) {
            beginInsertRows({}, first, first + newCount - 1);
            m_pages[si] = std::move(packed);
            m_rowPage.insert(first, newCount, quint32(si));
            m_rowCount += newCount;
            for (int i = si + 1; i < m_pages.size(); ++i)
                m_pages[i].firstRow += newCount;
            endInsertRows();
        } else {
            m_pages[si] = std::move(packed);
        }
    }
    m_inserting = false;
    m_ledger->notifyChanged(ledgerRow);
    Q_EMIT pageReceived(ledgerRow);
}

void PagedListModel::failPage(int ledgerRow, const McpError &error, RpcCall *call)
{
    PageRecord &rec = m_ledger->edit(ledgerRow);
    const bool refetch = rec.state == PageRecord::State::Refetching;
    rec.error = error;
    rec.latencyMs = call->latencyMs();
    rec.responseBytes = call->responseBytes();
    rec.receivedAtMs = call->receivedAtMs();
    if (refetch) {
        // May serve stale while the refetch fails: the rows stay; the page says it is expired.
        rec.state = PageRecord::State::Expired;
        m_judge.judgeFailure(rec);
        m_ledger->notifyChanged(ledgerRow);
        Q_EMIT pageFailed(ledgerRow, error);
        Q_EMIT findingsChanged();
        return;
    }
    rec.state = PageRecord::State::Failed;
    m_judge.judgeFailure(rec);
    const QString reason = tr("page %1 failed: %2").arg(rec.index + 1).arg(WalkJudge::describeError(rec));
    m_ledger->notifyChanged(ledgerRow);
    stop(reason);
    Q_EMIT pageFailed(ledgerRow, error);
    Q_EMIT findingsChanged();
}

void PagedListModel::stop(const QString &reason)
{
    m_stopped = true;
    m_stopReason = reason;
    m_fetchingAll = false;
    m_nextPageWanted = false;
    Q_EMIT walkFinished();
}

void PagedListModel::pumpQueue()
{
    if (m_inFlight)
        return;
    while (!m_refetchQueue.isEmpty()) {
        const int row = m_refetchQueue.takeFirst();
        if (storedIndexForLedgerRow(row) < 0)
            continue;
        PageRecord &rec = m_ledger->edit(row);
        rec.state = PageRecord::State::Refetching;
        const std::optional<QString> cursor = rec.requestCursor;
        m_ledger->notifyChanged(row);
        notifyPageRows(storedIndexForLedgerRow(row), {PageStateRole});
        sendRequest(Job::Refetch, row, cursor);
        return;
    }
    if (m_nextPageWanted) {
        m_nextPageWanted = false;
        requestNextPage();
    }
}

void PagedListModel::refetchPage(int ledgerRow)
{
    const int si = storedIndexForLedgerRow(ledgerRow);
    if (si < 0 || !m_ledger->page(ledgerRow).isSettled() ||
        m_ledger->page(ledgerRow).state == PageRecord::State::Failed)
        return;
    if (!m_refetchQueue.contains(ledgerRow))
        m_refetchQueue.append(ledgerRow);
    pumpQueue();
}

void PagedListModel::restart(const QString &reason)
{
    ++m_walk;
    if (m_inFlight) {
        RpcCall *call = m_inFlight;
        call->disconnect(this);
        setInFlight(nullptr);
        call->cancel();
        call->deleteLater();
    }
    int first = -1, last = -1;
    for (const StoredPage &sp : std::as_const(m_pages)) {
        PageRecord &rec = m_ledger->edit(sp.ledgerRow);
        m_clock->unschedule(rec.serial);
        rec.state = PageRecord::State::Discarded;
        rec.discardReason = reason;
        first = first < 0 ? sp.ledgerRow : qMin(first, sp.ledgerRow);
        last = qMax(last, sp.ledgerRow);
    }
    if (first >= 0)
        m_ledger->notifyChanged(first, last, {});
    beginResetModel();
    m_pages.clear();
    m_rowPage.clear();
    m_rowCount = 0;
    m_textCache.clear();
    endResetModel();
    m_judge.reset();
    m_refetchQueue.clear();
    m_nextPageWanted = false;
    m_complete = false;
    m_stopped = false;
    m_stopReason.clear();
    m_nextCursor.reset();
    const bool wasStarted = m_started;
    Q_EMIT walkRestarted(reason);
    Q_EMIT findingsChanged();
    if (wasStarted)
        requestNextPage();
}

void PagedListModel::handleExpired(const QList<quint64> &serials)
{
    for (quint64 serial : serials) {
        const int row = m_ledger->rowForSerial(serial);
        if (row < 0)
            continue;
        PageRecord &rec = m_ledger->edit(row);
        if (rec.state != PageRecord::State::Fresh)
            continue;
        rec.state = PageRecord::State::Expired;
        m_ledger->notifyChanged(row);
        const int si = storedIndexForLedgerRow(row);
        if (si < 0)
            continue;
        notifyPageRows(si, {PageStateRole});
        if (m_autoRefetch)
            refetchPage(row);
    }
}

void PagedListModel::handleListChanged(ListKind kind)
{
    if (m_source.kind() != ListSource::Kind::Protocol || kind != m_source.protocolKind() || !m_started)
        return;
    restart(tr("the server sent notifications/%1/list_changed")
                .arg(kind == ListKind::ResourceTemplates ? QStringLiteral("resources") : listName(kind)));
}

int PagedListModel::storedIndexForLedgerRow(int ledgerRow) const
{
    // Pages of the current walk are appended in ledger order: a binary search on their rows.
    int lo = 0, hi = int(m_pages.size()) - 1;
    while (lo <= hi) {
        const int mid = (lo + hi) / 2;
        const int r = m_pages[mid].ledgerRow;
        if (r == ledgerRow)
            return mid;
        if (r < ledgerRow)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

bool PagedListModel::rowsOfPage(int ledgerRow, int *first, int *count) const
{
    const int si = storedIndexForLedgerRow(ledgerRow);
    if (si < 0)
        return false;
    *first = m_pages[si].firstRow;
    *count = m_pages[si].count();
    return true;
}

QList<int> PagedListModel::walkPageRows() const
{
    QList<int> rows;
    rows.reserve(m_pages.size());
    for (const StoredPage &sp : m_pages)
        rows.append(sp.ledgerRow);
    return rows;
}

QList<Finding> PagedListModel::findings() const
{
    QList<Finding> all;
    for (const StoredPage &sp : m_pages)
        all += m_ledger->page(sp.ledgerRow).findings;
    return all;
}

void PagedListModel::notifyPageRows(int si, const QList<int> &roles)
{
    if (si < 0 || m_pages[si].count() == 0)
        return;
    const int first = m_pages[si].firstRow;
    Q_EMIT dataChanged(index(first, 0), index(first + m_pages[si].count() - 1, qMax(0, columnCount() - 1)),
                       roles);
}

QByteArray PagedListModel::itemBytes(int row) const
{
    const StoredPage &sp = m_pages[m_rowPage[row]];
    const int i = row - sp.firstRow;
    return sp.arena.mid(sp.offsets[i], sp.offsets[i + 1] - sp.offsets[i]);
}

QJsonObject PagedListModel::item(int row) const
{
    if (row < 0 || row >= m_rowCount)
        return {};
    return parseCompact(itemBytes(row)).toObject();
}

const QStringList &PagedListModel::rowTexts(int row) const
{
    if (const QStringList *cached = m_textCache.object(row))
        return *cached;
    const QJsonValue v = parseCompact(itemBytes(row));
    auto *texts = new QStringList;
    texts->reserve(m_columns.size());
    const QJsonObject o = v.toObject();
    for (const ListSource::Column &c : m_columns)
        texts->append(c.key.isEmpty() ? cellText(v) : cellText(o.value(c.key)));
    m_textCache.insert(row, texts);
    return *texts;
}

qint64 PagedListModel::storedBytes() const
{
    qint64 total = m_rowPage.capacity() * qint64(sizeof(quint32));
    for (const StoredPage &sp : m_pages)
        total += sp.arena.capacity() + sp.offsets.capacity() * qint64(sizeof(quint32)) +
                 qint64(sizeof(StoredPage));
    return total;
}

QVariant PagedListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rowCount || index.column() >= m_columns.size())
        return {};
    const int row = index.row();
    const int si = int(m_rowPage[row]);
    const StoredPage &sp = m_pages[si];
    switch (role) {
    case Qt::DisplayRole:
        return rowTexts(row).at(index.column());
    case Qt::ToolTipRole: {
        const QString &t = rowTexts(row).at(index.column());
        return t.size() > 40 ? QVariant(t) : QVariant();
    }
    case ItemJsonRole:
        return itemBytes(row);
    case IdentityRole:
        return ListSource::identity(item(row));
    case PageRowRole:
        return sp.ledgerRow;
    case PageIndexRole:
        return si;
    case PageStateRole:
        return int(m_ledger->page(sp.ledgerRow).state);
    case PageExpiresAtRole:
        return m_ledger->page(sp.ledgerRow).expiresAtMonoMs;
    case PageTtlRole:
        return m_ledger->page(sp.ledgerRow).effectiveTtlMs;
    case PageScopeRole:
        return int(m_ledger->page(sp.ledgerRow).scope);
    case PageSeverityRole: {
        bool any = false;
        const Finding::Severity s = m_ledger->page(sp.ledgerRow).worstSeverity(&any);
        return any ? int(s) : -1;
    }
    case PageHintsExpectedRole:
        return m_ledger->page(sp.ledgerRow).hintsExpected;
    case FirstRowOfPageRole:
        return row == sp.firstRow;
    default:
        return {};
    }
}

} // namespace folio
