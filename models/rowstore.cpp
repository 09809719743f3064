#include "rowstore.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace folio {

QList<int> RowStore::pageLedgerRows() const
{
    QList<int> rows;
    rows.reserve(m_pages.size());
    for (const StoredPage &p : m_pages)
        rows.append(p.ledgerRow);
    return rows;
}

QByteArrayView RowStore::itemText(int row) const
{
    const StoredPage &p = m_pages[m_rowPage[row]];
    return p.items.at(row - p.firstRow);
}

QJsonObject RowStore::item(int row) const
{
    if (row < 0 || row >= m_rowCount)
        return {};
    return parse(itemText(row)).toObject();
}

QJsonValue RowStore::parse(QByteArrayView itemJson)
{
    if (itemJson.startsWith('{'))
        return QJsonDocument::fromJson(itemJson.toByteArray()).object();
    if (itemJson.startsWith('['))
        return QJsonDocument::fromJson(itemJson.toByteArray()).array();
    return QJsonDocument::fromJson("[" + itemJson.toByteArray() + "]").array().at(0);
}

int RowStore::indexOf(int ledgerRow) const
{
    // Pages are opened in ledger order: a binary search on their rows.
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

bool RowStore::rowsOfPage(int ledgerRow, int *first, int *count) const
{
    const int i = indexOf(ledgerRow);
    if (i < 0)
        return false;
    *first = m_pages[i].firstRow;
    *count = m_pages[i].items.count();
    return true;
}

const ItemTexts *RowStore::pageItems(int ledgerRow) const
{
    const int i = indexOf(ledgerRow);
    return i < 0 ? nullptr : &m_pages[i].items;
}

qint64 RowStore::storedBytes() const
{
    qint64 total = m_rowPage.capacity() * qint64(sizeof(quint32));
    for (const StoredPage &p : m_pages)
        total += p.items.keptBytes() + qint64(sizeof(StoredPage));
    return total;
}

void RowStore::openPage(int ledgerRow)
{
    StoredPage p;
    p.ledgerRow = ledgerRow;
    p.firstRow = m_rowCount;
    m_pages.append(p);
}

void RowStore::insertRows(int pageIndex, ItemTexts items)
{
    items.text.squeeze();
    StoredPage &page = m_pages[pageIndex];
    const int first = page.firstRow;
    const int count = items.count();
    if (count == 0) {
        page.items = std::move(items);
        return;
    }
    Q_EMIT rowsAboutToBeInserted(first, first + count - 1, items);
    page.items = std::move(items);
    m_rowPage.insert(first, count, quint32(pageIndex));
    m_rowCount += count;
    for (qsizetype later = pageIndex + 1; later < m_pages.size(); ++later)
        m_pages[later].firstRow += count;
    Q_EMIT rowsInserted();
}

void RowStore::removeRows(int pageIndex)
{
    StoredPage &page = m_pages[pageIndex];
    const int first = page.firstRow;
    const int count = page.items.count();
    if (count == 0)
        return;
    Q_EMIT rowsAboutToBeRemoved(first, first + count - 1);
    m_rowPage.remove(first, count);
    m_rowCount -= count;
    page.items = ItemTexts();
    for (qsizetype later = pageIndex + 1; later < m_pages.size(); ++later)
        m_pages[later].firstRow -= count;
    Q_EMIT rowsRemoved();
}

void RowStore::fillPage(int ledgerRow, ItemTexts items)
{
    const int i = indexOf(ledgerRow);
    if (i >= 0)
        insertRows(i, std::move(items));
}

void RowStore::replacePage(int ledgerRow, ItemTexts items)
{
    const int i = indexOf(ledgerRow);
    if (i < 0)
        return;
    if (items.count() == m_pages[i].items.count()) {
        items.text.squeeze();
        m_pages[i].items = std::move(items);
        if (m_pages[i].items.count() > 0)
            Q_EMIT rowsReplaced(m_pages[i].firstRow, m_pages[i].firstRow + m_pages[i].items.count() - 1);
        return;
    }
    removeRows(i);
    insertRows(i, std::move(items));
}

void RowStore::dropLastPage()
{
    if (m_pages.isEmpty())
        return;
    removeRows(int(m_pages.size()) - 1);
    m_pages.removeLast();
}

void RowStore::clear()
{
    Q_EMIT aboutToBeReset();
    m_pages.clear();
    m_rowPage.clear();
    m_rowCount = 0;
    Q_EMIT wasReset();
}

} // namespace folio
