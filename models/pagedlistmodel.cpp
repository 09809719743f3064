#include "pagedlistmodel.h"

#include "pageledger.h"
#include "rowstore.h"
#include "terminaltext.h"

#include <QJsonArray>
#include <QJsonDocument>

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
    return terminalSafe(s); // a bidi override, a control, a zero-width space: shown as <U+XXXX>
}

} // namespace

PagedListModel::PagedListModel(PageWalker *walker, QObject *parent)
    : QAbstractTableModel(parent)
    , m_walker(walker)
    , m_rows(walker->rows())
    , m_columns(walker->source().columns())
    , m_textCache(textCacheRows)
{
    connectWalker();
}

PagedListModel::PagedListModel(McpClient *client, const ListSource &source, TtlClock *clock, QObject *parent)
    : QAbstractTableModel(parent)
    , m_walker(new PageWalker(client, source, clock, this))
    , m_rows(m_walker->rows())
    , m_columns(source.columns())
    , m_textCache(textCacheRows)
{
    connectWalker();
}

void PagedListModel::connectWalker()
{
    connect(m_rows, &RowStore::rowsAboutToBeInserted, this,
            [this](int first, int last, const ItemTexts &items) {
                ensureColumns(items);
                beginInsertRows({}, first, last);
            });
    connect(m_rows, &RowStore::rowsInserted, this, [this] {
        m_textCache.clear(); // rows after the insertion moved
        endInsertRows();
    });
    connect(m_rows, &RowStore::rowsAboutToBeRemoved, this,
            [this](int first, int last) { beginRemoveRows({}, first, last); });
    connect(m_rows, &RowStore::rowsRemoved, this, [this] {
        m_textCache.clear();
        endRemoveRows();
    });
    connect(m_rows, &RowStore::rowsReplaced, this, [this](int first, int last) {
        m_textCache.clear();
        Q_EMIT dataChanged(index(first, 0), index(last, qMax(0, columnCount() - 1)));
    });
    connect(m_rows, &RowStore::aboutToBeReset, this, &PagedListModel::beginResetModel);
    connect(m_rows, &RowStore::wasReset, this, [this] {
        m_textCache.clear();
        endResetModel();
    });
    connect(m_walker->ledger(), &PageLedger::dataChanged, this, &PagedListModel::handleLedgerChanged);
}

void PagedListModel::handleLedgerChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                         const QList<int> &roles)
{
    // A page's state or findings changed: its rows' page roles follow.
    QList<int> rowRoles;
    if (roles.isEmpty())
        rowRoles << PageStateRole << PageExpiresAtRole << PageTtlRole << PageScopeRole
                 << PageHintsExpectedRole << PageSeverityRole;
    if (roles.contains(PageLedger::StateRole))
        rowRoles << PageStateRole;
    if (roles.contains(PageLedger::SeverityRole))
        rowRoles << PageSeverityRole;
    if (rowRoles.isEmpty() || columnCount() == 0)
        return;
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
        int first = 0, count = 0;
        if (m_rows->rowsOfPage(row, &first, &count) && count > 0)
            Q_EMIT dataChanged(index(first, 0), index(first + count - 1, columnCount() - 1), rowRoles);
    }
}

int PagedListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_rows->rowCount();
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
    m_walker->setSource(source);
    const QList<ListSource::Column> columns = source.columns();
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

bool PagedListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_walker->canFetchNext();
}

void PagedListModel::fetchMore(const QModelIndex &parent)
{
    if (!parent.isValid())
        m_walker->fetchNext();
}

void PagedListModel::ensureColumns(const ItemTexts &items)
{
    // A list tool's columns come from its first page's items.
    if (!m_columns.isEmpty())
        return;
    QJsonArray parsed;
    for (int i = 0; i < items.count(); ++i)
        parsed.append(RowStore::parse(items.at(i)));
    const QList<ListSource::Column> columns = ListSource::inferColumns(parsed);
    beginInsertColumns({}, 0, int(columns.size()) - 1);
    m_columns = columns;
    endInsertColumns();
    Q_EMIT columnsChanged();
}

QByteArray PagedListModel::itemBytes(int row) const
{
    return m_rows->itemText(row).toByteArray();
}

QJsonObject PagedListModel::item(int row) const
{
    return m_rows->item(row);
}

const QStringList &PagedListModel::rowTexts(int row) const
{
    if (const QStringList *cached = m_textCache.object(row))
        return *cached;
    const QJsonValue v = RowStore::parse(m_rows->itemText(row));
    auto *texts = new QStringList;
    texts->reserve(m_columns.size());
    for (const ListSource::Column &c : m_columns)
        texts->append(cellText(ListSource::displayValue(v, c)));
    m_textCache.insert(row, texts);
    return *texts;
}

QVariant PagedListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows->rowCount() || index.column() >= m_columns.size())
        return {};
    const int row = index.row();
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
        return ListSource::identity(m_rows->itemText(row));
    case PageRowRole:
        return m_rows->ledgerRowOf(row);
    case PageIndexRole:
        return m_rows->pageIndexOf(row);
    case FirstRowOfPageRole:
        return m_rows->isFirstRowOfPage(row);
    default:
        break;
    }
    const PageRecord &page = ledger()->page(m_rows->ledgerRowOf(row));
    switch (role) {
    case PageStateRole:
        return int(page.state);
    case PageExpiresAtRole:
        return page.expiresAtMonoMs();
    case PageTtlRole:
        return page.effectiveTtlMs;
    case PageScopeRole:
        return int(page.scope);
    case PageSeverityRole: {
        bool any = false;
        const Finding::Severity s = page.worstSeverity(&any);
        return any ? int(s) : -1;
    }
    case PageHintsExpectedRole:
        return page.hintsExpected;
    default:
        return {};
    }
}

} // namespace folio
