#include "rowcopy.h"

#include "copyaction.h"
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace folio {

QModelIndexList selectedRows(const QAbstractItemView *view)
{
    QModelIndexList rows;
    if (!view->selectionModel())
        return rows;
    for (const QModelIndex &i : view->selectionModel()->selectedIndexes()) {
        const QModelIndex first = i.siblingAtColumn(0);
        if (!rows.contains(first))
            rows.append(first);
    }
    if (rows.isEmpty() && view->currentIndex().isValid())
        rows.append(view->currentIndex().siblingAtColumn(0));
    // In the order the view shows them: a tree's children after their parent.
    const auto path = [](QModelIndex i) {
        QList<int> p;
        for (; i.isValid(); i = i.parent())
            p.prepend(i.row());
        return p;
    };
    std::sort(rows.begin(), rows.end(),
              [&path](const QModelIndex &a, const QModelIndex &b) { return path(a) < path(b); });
    return rows;
}

QString rowsText(const QAbstractItemView *view)
{
    QStringList lines;
    for (const QModelIndex &row : selectedRows(view)) {
        QStringList cells;
        const int columns = row.model()->columnCount(row.parent());
        for (int c = 0; c < columns; ++c) {
            QString cell = row.siblingAtColumn(c).data().toString();
            cell.replace(QLatin1Char('\t'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
            cells << cell;
        }
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

QString rowsJson(const QAbstractItemView *view, const RowJson &json)
{
    QJsonArray values;
    for (const QModelIndex &row : selectedRows(view))
        values.append(json(row));
    if (values.isEmpty())
        return {};
    const QJsonValue v = values.size() == 1 ? values.first() : QJsonValue(values);
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Indented));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Indented));
    // A lone scalar: as JSON writes it (a string quoted and escaped).
    QByteArray text = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(text.sliced(1, text.size() - 2)) + QLatin1Char('\n');
}

RowCopyActions addRowCopyActions(QAbstractItemView *view, RowJson json)
{
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    RowCopyActions a;
    a.copy = new QAction(QApplication::translate("folio::RowCopy", "Copy"), view);
    a.copy->setShortcut(QKeySequence::Copy);
    a.copy->setShortcutContext(Qt::WidgetShortcut);
    a.copyJson = new QAction(QApplication::translate("folio::RowCopy", "Copy as JSON"), view);
    QObject::connect(a.copy, &QAction::triggered, view, [view] { copyToClipboard(rowsText(view)); });
    QObject::connect(a.copyJson, &QAction::triggered, view,
                     [view, json = std::move(json)] { copyToClipboard(rowsJson(view, json)); });
    view->addAction(a.copy);
    view->addAction(a.copyJson);
    return a;
}

} // namespace folio
