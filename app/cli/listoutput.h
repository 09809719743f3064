#pragma once

#include "clientview.h"
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
enum class ListOutputFormat { Table, Json, Ndjson, Csv, Sarif };

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

// What `folio list --as-client` prints: for each client's paging policy (models/clientview.h), the
// list it would end up with, simulated from the walk `folio list` did.
struct ClientViewsOutput
{
    QString list;      // "tools", ...
    int walkPages = 0; // Folio's walk
    int walkItems = 0; // distinct items of Folio's walk
    bool walkComplete = false;
    QString stopReason; // why Folio's walk ended before the list did ("" when complete)
    QList<ClientView> views;

    // A line about Folio's walk, a header, one row per client (id, pages asked, items, missed,
    // outcome, then what it means); withSources: each policy's source after the table.
    QString toTable(bool withSources) const;
    // {list, walk:{pages, items, complete, stopReason}, clients:[ClientView::toJson()]}
    QJsonObject toJson() const;
};

} // namespace folio
