#pragma once

#include "listsource.h"
#include "pagerecord.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace folio {

// What `folio list` read, ready to be printed: the walk's pages in order and their items.
struct ListOutput
{
    enum class Format { Table, Json, Ndjson, Csv };

    QString list;       // "tools", "tool:search_posts", ...
    QJsonObject server; // {name, version, revision}
    QJsonObject arguments;
    QList<PageRecord> pages;
    QJsonArray items;
    QList<int> itemPage; // per item: index into pages
    QList<ListSource::Column> columns;
    bool complete = false;
    QString stopReason; // why the walk ended before the list did ("" when complete)

    static bool parseFormat(const QString &name, Format *format);

    QJsonObject toJson() const;
    QString toTable(int width) const;
    QString toNdjson() const;
    QString toCsv() const;
};

} // namespace folio
