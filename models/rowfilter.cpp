#include "rowfilter.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QtAlgorithms>

#include <algorithm>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace folio {

namespace {

constexpr char foldAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c + ('a' - 'A')) : c;
}

bool equalFolded(const char *text, QByteArrayView needle)
{
    for (qsizetype k = 0; k < needle.size(); ++k) {
        if (foldAscii(text[k]) != needle[k])
            return false;
    }
    return true;
}

// Whether the folded needle is in text, ASCII letters compared without case. Where SSE2 is there
// (every x86-64), 16 places at a time are tried on the needle's first two bytes (a letter matched
// in either case by setting its 0x20 bit), and only those are compared in full: a million rows of
// 200 bytes are searched in a fraction of the time a keystroke may take.
bool findFolded(QByteArrayView text, QByteArrayView needle)
{
    const qsizetype m = needle.size();
    const qsizetype n = text.size();
    if (m > n)
        return false;
    const char *t = text.data();
    const qsizetype lastStart = n - m;
    qsizetype i = 0;
#ifdef __SSE2__
    if (m >= 2) {
        auto caseBit = [](char c) { return char(c >= 'a' && c <= 'z' ? 0x20 : 0); };
        const __m128i first = _mm_set1_epi8(needle[0]);
        const __m128i second = _mm_set1_epi8(needle[1]);
        const __m128i firstBit = _mm_set1_epi8(caseBit(needle[0]));
        const __m128i secondBit = _mm_set1_epi8(caseBit(needle[1]));
        for (; i + 17 <= n && i <= lastStart; i += 16) {
            const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i *>(t + i));
            const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i *>(t + i + 1));
            const __m128i hits = _mm_and_si128(_mm_cmpeq_epi8(_mm_or_si128(x, firstBit), first),
                                               _mm_cmpeq_epi8(_mm_or_si128(y, secondBit), second));
            for (unsigned mask = unsigned(_mm_movemask_epi8(hits)); mask != 0; mask &= mask - 1) {
                const qsizetype at = i + qCountTrailingZeroBits(mask);
                if (at <= lastStart && equalFolded(t + at, needle))
                    return true;
            }
        }
    }
#endif
    for (; i <= lastStart; ++i) {
        if (foldAscii(t[i]) == needle[0] && equalFolded(t + i, needle))
            return true;
    }
    return false;
}

bool hasNonAscii(QByteArrayView text)
{
    for (const char c : text) {
        if (uchar(c) >= 0x80)
            return true;
    }
    return false;
}

bool anyStringContains(const QJsonValue &value, const QString &needle)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString().contains(needle, Qt::CaseInsensitive);
    case QJsonValue::Array:
        for (const QJsonValue &v : value.toArray()) {
            if (anyStringContains(v, needle))
                return true;
        }
        return false;
    case QJsonValue::Object: {
        const QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key().contains(needle, Qt::CaseInsensitive) || anyStringContains(it.value(), needle))
                return true;
        }
        return false;
    }
    default:
        return false;
    }
}

} // namespace

RowFilter::Matcher::Matcher(const QString &needle)
    : m_needle(needle)
    , m_folded(needle.toUtf8())
{
    for (char &c : m_folded) {
        if (uchar(c) >= 0x80)
            m_ascii = false;
        c = foldAscii(c);
    }
}

bool RowFilter::Matcher::matches(QByteArrayView itemJson) const
{
    if (m_folded.isEmpty() || matchesRaw(itemJson))
        return true;
    return matchesDecoded(itemJson);
}

bool RowFilter::Matcher::matchesRaw(QByteArrayView text) const
{
    if (m_ascii)
        return findFolded(text, m_folded);
    // Case folding beyond ASCII needs the text as characters: only rows with such characters.
    return hasNonAscii(text) && QString::fromUtf8(text).contains(m_needle, Qt::CaseInsensitive);
}

bool RowFilter::Matcher::matchesDecoded(QByteArrayView text) const
{
    // Only an escape can hide a match from the raw bytes, and most escapes (a description's \n)
    // cannot hide this needle: decode only when one that can is there. Decoding costs a parse.
    bool worthDecoding = false;
    for (qsizetype i = text.indexOf('\\'); i >= 0 && i + 1 < text.size(); i = text.indexOf('\\', i + 2)) {
        const char c = text[i + 1];
        if (c == 'u' || (c == '/' && m_folded.contains('/')) ||
            ((c == '"' || c == '\\') && (m_folded.contains('"') || m_folded.contains('\\'))) ||
            (std::strchr("bfnrt", c) && c != 0 &&
             std::any_of(m_folded.begin(), m_folded.end(), [](char n) { return uchar(n) < 0x20; }))) {
            worthDecoding = true;
            break;
        }
    }
    return worthDecoding && anyStringContains(RowStore::parse(text), m_needle);
}

RowFilter::RowFilter(RowStore *rows, QObject *parent)
    : QObject(parent)
    , m_rows(rows)
{
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(DefaultDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &RowFilter::applyNeedle);
    // Rows at the end are matched as they come; anything else means searching again (the rows
    // after a change moved). Either happens on the next turn of the event loop, never inside the
    // store's change.
    connect(m_rows, &RowStore::rowsAboutToBeInserted, this, [this](int first, int, const ItemTexts &) {
        if (first < m_coveredRows)
            m_searchAgain = true;
    });
    connect(m_rows, &RowStore::rowsInserted, this, &RowFilter::scheduleCatchUp);
    connect(m_rows, &RowStore::rowsAboutToBeRemoved, this, [this](int first, int) {
        if (first < m_coveredRows)
            m_searchAgain = true;
    });
    connect(m_rows, &RowStore::rowsRemoved, this, &RowFilter::scheduleCatchUp);
    connect(m_rows, &RowStore::rowsReplaced, this, [this](int first, int) {
        if (first < m_coveredRows)
            m_searchAgain = true;
        scheduleCatchUp();
    });
    connect(m_rows, &RowStore::wasReset, this, [this] {
        ++m_generation; // a search over the old rows is of no use
        setSearching(false);
        m_searchAgain = false;
        m_matches.clear();
        m_coveredRows = 0;
    });
}

RowFilter::~RowFilter()
{
    ++m_generation;
    stopWorker();
}

void RowFilter::setNeedle(const QString &needle)
{
    m_pendingNeedle = needle;
    const bool wasPending = isPending();
    if (needle.isEmpty()) {
        m_debounce.stop();
        applyNeedle();
    } else {
        m_debounce.start(); // each keystroke starts the wait again
    }
    if (isPending() != wasPending)
        Q_EMIT pendingChanged(isPending());
}

void RowFilter::applyNeedle()
{
    if (m_pendingNeedle.isEmpty()) {
        ++m_generation;
        setSearching(false);
        const bool had = isActive();
        m_needle.clear();
        m_matches.clear();
        m_coveredRows = 0;
        if (had)
            Q_EMIT matchesReset();
        return;
    }
    if (m_pendingNeedle == m_needle && !m_searching && !m_searchAgain) {
        Q_EMIT pendingChanged(false); // typed and erased within the wait: the result stands
        return;
    }
    m_needle = m_pendingNeedle;
    startSearch();
}

void RowFilter::startSearch()
{
    const int generation = ++m_generation;
    stopWorker(); // a search still running sees the new generation within a page and ends
    m_searchAgain = false;
    // The snapshot: each page's items, shared with the store (no text is copied). The store may
    // replace or drop its copy meanwhile; ours stays as it was.
    QList<PageItems> pages;
    pages.reserve(m_rows->pageCount());
    for (int ledgerRow : m_rows->pageLedgerRows()) {
        int first = 0, count = 0;
        if (m_rows->rowsOfPage(ledgerRow, &first, &count) && count > 0)
            pages.append(PageItems{*m_rows->pageItems(ledgerRow), first});
    }
    m_coveredRows = m_rows->rowCount();
    setSearching(true);
    m_worker =
        std::thread([this, generation, needle = m_needle, pages = std::move(pages), covered = m_coveredRows] {
            const Matcher matcher(needle);
            QList<int> found;
            for (const PageItems &page : pages) {
                if (m_generation.load(std::memory_order_relaxed) != generation)
                    return; // a newer needle, or the rows went
                const int count = page.items.count();
                for (int i = 0; i < count; ++i) {
                    if (matcher.matches(page.items.at(i)))
                        found.append(page.firstRow + i);
                }
            }
            QMetaObject::invokeMethod(
                this, [this, generation, found, covered] { handleResult(generation, found, covered); },
                Qt::QueuedConnection);
        });
}

void RowFilter::stopWorker()
{
    if (m_worker.joinable())
        m_worker.join();
}

void RowFilter::handleResult(int generation, const QList<int> &matches, int coveredRows)
{
    if (generation != m_generation.load())
        return;   // a newer needle or a change of the rows replaced this search
    stopWorker(); // it has posted this and is ending
    if (m_searchAgain) {
        startSearch(); // rows moved during the search: its row numbers are not today's
        return;
    }
    m_matches = matches;
    m_coveredRows = coveredRows;
    m_matches += matchRows(m_coveredRows, m_rows->rowCount() - 1); // pages that came meanwhile
    m_coveredRows = m_rows->rowCount();
    setSearching(false);
    Q_EMIT matchesReset();
}

void RowFilter::scheduleCatchUp()
{
    if (m_catchUpQueued)
        return;
    m_catchUpQueued = true;
    QMetaObject::invokeMethod(this, &RowFilter::catchUp, Qt::QueuedConnection);
}

void RowFilter::catchUp()
{
    m_catchUpQueued = false;
    if (!isActive()) {
        m_searchAgain = false;
        return;
    }
    if (m_searchAgain) {
        startSearch();
        return;
    }
    if (m_searching || m_coveredRows >= m_rows->rowCount())
        return; // a running search catches up when it ends
    const QList<int> found = matchRows(m_coveredRows, m_rows->rowCount() - 1);
    m_coveredRows = m_rows->rowCount();
    if (found.isEmpty())
        return;
    m_matches += found;
    Q_EMIT rowsMatched(found);
}

QList<int> RowFilter::matchRows(int first, int last) const
{
    QList<int> found;
    if (first > last)
        return found;
    const Matcher matcher(m_needle);
    for (int row = first; row <= last; ++row) {
        if (matcher.matches(m_rows->itemText(row)))
            found.append(row);
    }
    return found;
}

void RowFilter::setSearching(bool searching)
{
    const bool wasPending = isPending();
    m_searching = searching;
    if (isPending() != wasPending)
        Q_EMIT pendingChanged(isPending());
}

} // namespace folio
