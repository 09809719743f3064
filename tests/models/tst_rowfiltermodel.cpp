#include "rowfilter.h"
#include "rowfiltermodel.h"
#include "rowstore.h"

#include <QAbstractItemModelTester>
#include <QAbstractTableModel>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTest>

using namespace folio;

namespace {

// The rows of a RowStore as a one-column table, announced as PagedListModel announces them.
class StoreTable : public QAbstractTableModel
{
public:
    explicit StoreTable(RowStore *rows)
        : m_rows(rows)
    {
        connect(rows, &RowStore::rowsAboutToBeInserted, this,
                [this](int first, int last, const ItemTexts &) { beginInsertRows({}, first, last); });
        connect(rows, &RowStore::rowsInserted, this, [this] { endInsertRows(); });
        connect(rows, &RowStore::rowsAboutToBeRemoved, this,
                [this](int first, int last) { beginRemoveRows({}, first, last); });
        connect(rows, &RowStore::rowsRemoved, this, [this] { endRemoveRows(); });
        connect(rows, &RowStore::aboutToBeReset, this, [this] { beginResetModel(); });
        connect(rows, &RowStore::wasReset, this, [this] { endResetModel(); });
    }
    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : m_rows->rowCount();
    }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : 1; }
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role != Qt::DisplayRole || !index.isValid())
            return {};
        return QString::fromUtf8(m_rows->itemText(index.row()));
    }

private:
    RowStore *m_rows;
};

void fill(RowStore *rows, int pages, int perPage, int firstLedgerRow = 0)
{
    for (int p = 0; p < pages; ++p) {
        ItemTexts page;
        for (int i = 0; i < perPage; ++i) {
            const int n = rows->rowCount() + i;
            page.append(QStringLiteral("{\"name\":\"p%1\",\"channel\":\"%2\"}")
                            .arg(n)
                            .arg(n % 7 == 0 ? QStringLiteral("release") : QStringLiteral("general"))
                            .toUtf8());
        }
        rows->openPage(firstLedgerRow + p);
        rows->fillPage(firstLedgerRow + p, page);
    }
}

} // namespace

// The table the window shows while filtering: the rows the filter matched, in order, every row
// while none is applied; the current row and the selection follow their items.
class tst_RowFilterModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsTheMatchesAndKeepsTheSelection()
    {
        RowStore rows;
        fill(&rows, 3, 10);
        StoreTable table(&rows);
        RowFilter filter(&rows);
        filter.setDebounceMs(0);
        RowFilterModel proxy(&filter);
        proxy.setSourceModel(&table);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(proxy.rowCount(), 30);
        QVERIFY(!proxy.isFiltering());

        QItemSelectionModel selection(&proxy);
        selection.setCurrentIndex(proxy.index(14, 0), QItemSelectionModel::ClearAndSelect);
        filter.setNeedle(QStringLiteral("RELEASE"));
        QTRY_VERIFY(proxy.isFiltering());
        QCOMPARE(proxy.rowCount(), 5); // 0, 7, 14, 21, 28
        QCOMPARE(proxy.mapToSource(proxy.index(2, 0)).row(), 14);
        QCOMPARE(selection.currentIndex().row(), 2);
        QVERIFY(selection.isSelected(proxy.index(2, 0)));
        QVERIFY(proxy.index(2, 0).data().toString().contains(QLatin1String("\"p14\"")));
        QCOMPARE(proxy.mapFromSource(table.index(13, 0)), QModelIndex());

        // Rows that arrive and match show at the end.
        fill(&rows, 1, 10, 3);
        QTRY_COMPARE(proxy.rowCount(), 6);
        QCOMPARE(proxy.mapToSource(proxy.index(5, 0)).row(), 35);

        // A page that loses rows takes its matches with it, at once; the rest follow their items.
        ItemTexts shorter;
        shorter.append("{\"name\":\"q\",\"channel\":\"general\"}");
        rows.replacePage(0, shorter); // rows 0-9 become one row: 14 is now 5
        QCOMPARE(proxy.mapToSource(selection.currentIndex()).row(), 5);
        QVERIFY(selection.currentIndex().data().toString().contains(QLatin1String("\"p14\"")));
        QTRY_VERIFY(!filter.isPending());
        QCOMPARE(proxy.rowCount(), 4); // 14, 21, 28, 35 at 5, 12, 19, 26

        // Cleared: every row again, the current one still current.
        filter.setNeedle(QString());
        QVERIFY(!proxy.isFiltering());
        QCOMPARE(proxy.rowCount(), rows.rowCount());
        QCOMPARE(selection.currentIndex().row(), 5);
    }

    void unfilteredPassesChangesThrough()
    {
        RowStore rows;
        StoreTable table(&rows);
        RowFilter filter(&rows);
        RowFilterModel proxy(&filter);
        proxy.setSourceModel(&table);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        fill(&rows, 2, 5);
        QCOMPARE(proxy.rowCount(), 10);
        rows.clear();
        QCOMPARE(proxy.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_RowFilterModel)
#include "tst_rowfiltermodel.moc"
