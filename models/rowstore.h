#pragma once

#include "itemtexts.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QVector>

namespace folio {

// The rows of one walk, page by page, as the walker fills them: each page keeps its items as
// compact JSON back to back in one arena with an offset table, so a million rows cost little more
// than their text. Views adapt it (PagedListModel); headless code reads it directly.
//
// Every change is announced before and after, so that a table over it can call its
// beginInsertRows()/endInsertRows() around the change.
class RowStore : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    int rowCount() const { return m_rowCount; }
    int pageCount() const { return int(m_pages.size()); }
    // The ledger rows of the walk's pages, in walk order (a page still loading included).
    QList<int> pageLedgerRows() const;
    int lastPageLedgerRow() const { return m_pages.isEmpty() ? -1 : m_pages.constLast().ledgerRow; }

    QByteArrayView itemText(int row) const;
    QJsonObject item(int row) const; // parsed; {} when the item is not an object
    int ledgerRowOf(int row) const { return m_pages[m_rowPage[row]].ledgerRow; }
    int pageIndexOf(int row) const { return int(m_rowPage[row]); } // 0-based, in the walk
    bool isFirstRowOfPage(int row) const { return row == m_pages[m_rowPage[row]].firstRow; }
    // The rows of the page at ledgerRow: [first, first + count). False when it is not in the walk.
    bool rowsOfPage(int ledgerRow, int *first, int *count) const;
    bool containsPage(int ledgerRow) const { return indexOf(ledgerRow) >= 0; }
    const ItemTexts *pageItems(int ledgerRow) const;
    qint64 storedBytes() const; // what the storage holds, for benchmarks

    // The walker's side. A page is opened when it is requested (it has no rows yet), filled when
    // its answer is accepted, replaced by a refetch; the last page is dropped when cancelled.
    void openPage(int ledgerRow);
    void fillPage(int ledgerRow, ItemTexts items);
    void replacePage(int ledgerRow, ItemTexts items);
    void dropLastPage();
    void clear();

    // An item's text parsed back: an object, an array or a scalar.
    static QJsonValue parse(QByteArrayView itemJson);

Q_SIGNALS:
    // items: what goes in (a table infers its columns from a first page).
    void rowsAboutToBeInserted(int first, int last, const folio::ItemTexts &items);
    void rowsInserted();
    void rowsAboutToBeRemoved(int first, int last);
    void rowsRemoved();
    // Rows whose text changed in place (a refetch with as many items as before).
    void rowsReplaced(int first, int last);
    void aboutToBeReset();
    void wasReset();

private:
    struct StoredPage
    {
        int ledgerRow = -1;
        int firstRow = 0;
        ItemTexts items;
    };
    int indexOf(int ledgerRow) const;
    void insertRows(int pageIndex, ItemTexts items);
    void removeRows(int pageIndex);

    QVector<StoredPage> m_pages; // the walk's pages, in order (ledger rows ascending)
    QVector<quint32> m_rowPage;  // row -> index into m_pages
    int m_rowCount = 0;
};

} // namespace folio
