#include "listoutput.h"
#include "counted.h"

#include "clioutput.h"
#include "indentedjson.h"
#include "rowstore.h"
#include "terminaltext.h"
#include "walkjudge.h"

#include <QJsonDocument>

#include <algorithm>

namespace folio {

namespace {

constexpr int minColumnWidth = 6;

QString cellText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Undefined:
        return {};
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Double:
        return PageRecord::describeValue(true, value);
    default:
        return toJsonLine(value);
    }
}

// A table cell: what a person reads (a prompt's arguments as names).
QString cell(const QJsonValue &item, const ListSource::Column &column)
{
    return cellText(ListSource::displayValue(item, column));
}

// A CSV field: the value as received, nested values as compact JSON.
QString csvCell(const QJsonValue &item, const ListSource::Column &column)
{
    return cellText(ListSource::columnValue(item, column));
}

QString nextText(const PageRecord &page)
{
    switch (page.next.presence) {
    case NextCursor::Presence::Absent:
        return QStringLiteral("end");
    case NextCursor::Presence::Null:
        return QStringLiteral("null (end)");
    case NextCursor::Presence::String:
        return QStringLiteral("next ") + shortCursor(page.next.text);
    case NextCursor::Presence::WrongType:
        return QStringLiteral("next ") + PageRecord::describeValue(true, page.next.raw) +
               QStringLiteral(" (!)");
    }
    return {};
}

// One page's line. The cursor it was asked with is the one the page before handed out, shown on
// that page's line as next: it is shown here only where it is not (the first page of a walk that
// starts at a cursor), so that whole cursors fit the line.
QString pageLine(const PageRecord &page, const PageRecord *previous, bool protocolList)
{
    QStringList parts{QStringLiteral("page %1").arg(page.index + 1)};
    const bool followsPrevious = page.requestCursor && previous && previous->next.isString() &&
                                 previous->next.text == *page.requestCursor;
    if (!page.requestCursor)
        parts << QStringLiteral("first page");
    else if (!followsPrevious)
        parts << QStringLiteral("cursor ") + shortCursor(*page.requestCursor);
    if (page.state == PageRecord::State::Discarded)
        parts << (page.discardReason.isEmpty()
                      ? QStringLiteral("DISCARDED")
                      : QStringLiteral("DISCARDED: ") + oneLineSafe(page.discardReason));
    if (page.error.isError()) {
        parts << QStringLiteral("FAILED: ") + WalkJudge::describeError(page);
    } else {
        parts << nextText(page) << counted(page.itemCount, "item", "items");
        if (page.latencyMs() >= 0)
            parts << QStringLiteral("%1 ms").arg(page.latencyMs());
        if (page.hintsExpected)
            parts << QStringLiteral("ttlMs %1 · cacheScope %2")
                         .arg(page.hints.ttlText(), page.hints.scopeText());
        else if (protocolList && page.legacyEra)
            parts << QStringLiteral("no hints (legacy era)");
    }
    return QStringLiteral("── ") + parts.join(QStringLiteral(" · ")) + QStringLiteral(" ──");
}

// A CSV field as spreadsheets read it safely. Text that starts with '=', '+', '-', '@', a tab or a
// CR is a formula to Excel, LibreOffice and Sheets (a server's "=cmd|' /c calc'!A1" would run):
// such text gets a leading "'", as OWASP's CSV-injection advice and the spreadsheets themselves
// do. Numbers are written as numbers (a negative one is no formula to guard against).
QString csvField(const QString &text, bool isText = true)
{
    static const QString formulaStart = QStringLiteral("=+-@\t\r");
    QString field = text;
    if (isText && !field.isEmpty() && formulaStart.contains(field.front()))
        field.prepend(QLatin1Char('\''));
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) &&
        !field.contains(QLatin1Char('\n')) && !field.contains(QLatin1Char('\r')))
        return field;
    field.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + field + QLatin1Char('"');
}

} // namespace

bool ListOutput::parseFormat(const QString &name, ListOutputFormat *format)
{
    if (name == QLatin1String("table"))
        *format = ListOutputFormat::Table;
    else if (name == QLatin1String("json"))
        *format = ListOutputFormat::Json;
    else if (name == QLatin1String("ndjson"))
        *format = ListOutputFormat::Ndjson;
    else if (name == QLatin1String("csv"))
        *format = ListOutputFormat::Csv;
    else if (name == QLatin1String("sarif"))
        *format = ListOutputFormat::Sarif;
    else
        return false;
    return true;
}

namespace {

// One member of the document as QJsonDocument::Indented writes it one level deep, without the
// comma or the newline after it.
QByteArray member(const QString &key, const QJsonValue &value)
{
    const QByteArray doc = QJsonDocument(QJsonObject{{key, value}}).toJson(QJsonDocument::Indented);
    return doc.sliced(2, doc.size() - 5); // "{\n" and "\n}\n" around it
}

constexpr int itemDepth = 2; // document, items array

} // namespace

QByteArray ListOutput::jsonHead() const
{
    QByteArray head = "{\n";
    if (list.startsWith(QLatin1String("tool:")))
        head += member(QStringLiteral("arguments"), arguments) + ",\n";
    head += "    \"items\": [";
    return head;
}

void ListOutput::appendJsonItem(QByteArray *out, QByteArrayView itemJson, bool first)
{
    out->append(first ? "\n" : ",\n");
    out->append(4 * itemDepth, ' ');
    if (itemJson.startsWith('{') && appendIndentedJson(out, itemJson, itemDepth))
        return;
    // Not in the form Qt writes (keys out of order, a number or an escape Qt writes otherwise):
    // parsed and written by Qt, as the whole document used to be. Not an object: {} (RowStore::item).
    const QJsonObject item = RowStore::parse(itemJson).toObject();
    QByteArray text = QJsonDocument(item).toJson(QJsonDocument::Indented);
    text.chop(1);                                                          // the document's newline
    text.replace("\n", QByteArray("\n") + QByteArray(4 * itemDepth, ' ')); // strings hold no raw newline
    out->append(text);
}

QByteArray ListOutput::jsonTail() const
{
    QJsonArray pageArray;
    for (const PageRecord &page : pages)
        pageArray.append(page.toJson());
    QByteArray tail = "\n    ],\n";
    tail += member(QStringLiteral("list"), list) + ",\n";
    tail += member(QStringLiteral("pages"), pageArray) + ",\n";
    tail += member(QStringLiteral("server"), server) + ",\n";
    tail += member(QStringLiteral("complete"), complete) + ",\n";
    tail +=
        member(QStringLiteral("stopReason"), stopReason.isEmpty() ? QJsonValue() : QJsonValue(stopReason));
    tail += "\n}\n";
    return tail;
}

QString ListOutput::toNdjson() const
{
    QString out;
    for (const QJsonValue &item : items)
        out += toJsonLine(item) + QLatin1Char('\n');
    return out;
}

QString ListOutput::toCsv() const
{
    QStringList header{QStringLiteral("page")};
    for (const ListSource::Column &c : columns)
        header << csvField(c.key.isEmpty() ? c.header : c.key);
    QString out = header.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    for (qsizetype i = 0; i < items.size(); ++i) {
        QStringList row{QString::number(pages.at(itemPage.at(i)).index + 1)};
        for (const ListSource::Column &c : columns)
            row << csvField(csvCell(items.at(i), c),
                            ListSource::columnValue(items.at(i), c).type() != QJsonValue::Double);
        out += row.join(QLatin1Char(',')) + QStringLiteral("\r\n");
    }
    return out;
}

QString ListOutput::toTable(int width) const
{
    const bool protocolList = !list.startsWith(QLatin1String("tool:"));
    // Column widths: what the cells need, then the widest shrunk until the row fits the terminal.
    QList<int> widths;
    for (const ListSource::Column &c : columns)
        widths.append(int(c.header.size()));
    for (const QJsonValue &item : items) {
        for (qsizetype c = 0; c < columns.size(); ++c)
            widths[c] =
                qMax(widths[c], int(qMin<qsizetype>(elide(cell(item, columns.at(c)), 0).size(), 200)));
    }
    const int gaps = int(columns.size() > 0 ? (columns.size() - 1) * 2 : 0);
    auto total = [&] {
        int sum = gaps;
        for (int w : std::as_const(widths))
            sum += w;
        return sum;
    };
    while (total() > width) {
        const auto widest = std::max_element(widths.begin(), widths.end());
        if (widest == widths.end() || *widest <= minColumnWidth)
            break;
        --*widest;
    }
    auto row = [&](const QStringList &cells) {
        QString line;
        for (qsizetype c = 0; c < cells.size(); ++c) {
            const QString text = elide(cells.at(c), widths.at(c));
            line += c + 1 < cells.size() ? padded(text, widths.at(c)) + QStringLiteral("  ") : text;
        }
        return line + QLatin1Char('\n');
    };

    const QString who = server.value(QStringLiteral("name")).toString();
    QString out =
        QStringLiteral("%1 · %2 %3 · %4\n")
            .arg(oneLineSafe(list), who.isEmpty() ? QStringLiteral("(unnamed server)") : oneLineSafe(who),
                 oneLineSafe(server.value(QStringLiteral("version")).toString()),
                 oneLineSafe(server.value(QStringLiteral("revision")).toString()));
    QStringList headers;
    for (const ListSource::Column &c : columns)
        headers << oneLineSafe(c.header.toUpper());
    if (!columns.isEmpty())
        out += row(headers);

    qsizetype next = 0;
    for (qsizetype p = 0; p < pages.size(); ++p) {
        const PageRecord &page = pages.at(p);
        out += pageLine(page, p > 0 ? &pages.at(p - 1) : nullptr, protocolList) + QLatin1Char('\n');
        for (const Finding &f : page.findings)
            out += QStringLiteral("   %1 %2: %3\n")
                       .arg(Finding::severityName(f.severity), f.id, oneLineSafe(f.message));
        while (next < items.size() && itemPage.at(next) == p) {
            QStringList cells;
            for (const ListSource::Column &c : columns)
                cells << cell(items.at(next), c);
            out += row(cells);
            ++next;
        }
    }
    const auto discarded = std::count_if(pages.cbegin(), pages.cend(), [](const PageRecord &page) {
        return page.state == PageRecord::State::Discarded;
    });
    QString pageCount = counted(int(pages.size() - discarded), "page", "pages");
    if (discarded > 0)
        pageCount += QStringLiteral(" (and %1 discarded)").arg(discarded);
    // One multi-argument arg(): the stop reason may quote a server, and a "%1" in it must stay text.
    out += QStringLiteral("(%1 in %2; %3)\n")
               .arg(counted(items.size(), "item", "items"), pageCount,
                    complete ? QStringLiteral("the list is complete")
                             : QStringLiteral("incomplete: ") + oneLineSafe(stopReason));
    return out;
}

QString ClientViewsOutput::toTable(bool withSources) const
{
    const QString one = list.endsWith(QLatin1Char('s')) ? list.chopped(1) : list; // "tools" -> "tool"
    QString out =
        QStringLiteral("%1 as each client would see it. Folio's walk: %2 in %3, %4\n\n")
            .arg(oneLineSafe(list),
                 QString::number(walkItems) + QLatin1Char(' ') + oneLineSafe(walkItems == 1 ? one : list),
                 counted(walkPages, "page", "pages"),
                 walkComplete ? QStringLiteral("the list is complete")
                              : QStringLiteral("incomplete: ") + oneLineSafe(stopReason));
    const QStringList headers{QStringLiteral("CLIENT"), QStringLiteral("PAGES"), QStringLiteral("ITEMS"),
                              QStringLiteral("MISSED"), QStringLiteral("OUTCOME")};
    QList<int> widths;
    for (const QString &h : headers)
        widths.append(int(h.size()));
    QList<QStringList> rows;
    for (const ClientView &v : views) {
        const QStringList cells{oneLineSafe(v.policyId), QString::number(v.pagesAsked),
                                QString::number(v.items), QString::number(v.missed),
                                ClientView::outcomeName(v.outcome)};
        for (qsizetype c = 0; c < cells.size(); ++c)
            widths[c] = qMax(widths[c], int(cells.at(c).size()));
        rows.append(cells);
    }
    auto line = [&](const QStringList &cells, const QString &rest) {
        QString text;
        for (qsizetype c = 0; c < cells.size(); ++c) {
            // Names to the left, counts to the right.
            const bool number = c >= 1 && c <= 3;
            text += number ? cells.at(c).rightJustified(widths.at(c)) : padded(cells.at(c), widths.at(c));
            text += QStringLiteral("  ");
        }
        return (text + rest).trimmed() + QLatin1Char('\n');
    };
    out += line(headers, QStringLiteral("WHAT IT MEANS"));
    for (qsizetype i = 0; i < views.size(); ++i)
        out += line(rows.at(i), oneLineSafe(views.at(i).message));
    if (withSources) {
        out += QStringLiteral("\nSources:\n");
        for (const ClientView &v : views)
            out += QStringLiteral("  %1 (%2): %3\n")
                       .arg(oneLineSafe(v.policyId), oneLineSafe(v.name), oneLineSafe(v.source));
    }
    out += QStringLiteral("\n(Simulated from Folio's walk, each page taken as the same for the same cursor;\n"
                          "list_changed, caching and timing are not simulated: docs/client-policies.md)\n");
    return out;
}

QJsonObject ClientViewsOutput::toJson() const
{
    QJsonArray clients;
    for (const ClientView &v : views)
        clients.append(v.toJson());
    return {{QStringLiteral("list"), list},
            {QStringLiteral("walk"),
             QJsonObject{{QStringLiteral("pages"), walkPages},
                         {QStringLiteral("items"), walkItems},
                         {QStringLiteral("complete"), walkComplete},
                         {QStringLiteral("stopReason"),
                          walkComplete ? QJsonValue(QJsonValue::Null) : QJsonValue(stopReason)}}},
            {QStringLiteral("clients"), clients}};
}

} // namespace folio
