#pragma once

#include "listsource.h"
#include "pagerecord.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace folio {

// What `folio list --format` prints a list's items as.
enum class ListOutputFormat { Table, Json, Ndjson, Csv };

// What `folio list` read, ready to be printed: the walk's pages in order and their items.
struct ListOutput
{
    QString list;       // "tools", "tool:search_posts", ...
    QJsonObject server; // {name, version, revision}
    QJsonObject arguments;
    QList<PageRecord> pages;
    QJsonArray items;
    QList<int> itemPage; // per item: index into pages
    QList<ListSource::Column> columns;
    bool complete = false;
    QString stopReason; // why the walk ended before the list did ("" when complete)

    static bool parseFormat(const QString &name, ListOutputFormat *format);

    // --format json, in three parts so that the items need no document of their own: the document
    // up to the items, one item after another (its stored compact JSON), and the rest once the walk
    // ended (list, pages, server, complete, stopReason). Members in QJsonObject's order (by key),
    // but for "complete", which comes after the items because it is known only at the end.
    QByteArray jsonHead() const; // arguments (list tools) and the items array opened
    static void appendJsonItem(QByteArray *out, QByteArrayView itemJson, bool first);
    QByteArray jsonTail() const;
    QString toTable(int width) const;
    QString toNdjson() const;
    QString toCsv() const;
};

} // namespace folio
