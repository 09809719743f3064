#include "listsource.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <memory>

using namespace folio;

// List-tool detection and page extraction for every naming convention Folio promises.
class tst_ListSource : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void promptArgumentsReadAsNames_data()
    {
        QTest::addColumn<QByteArray>("arguments");
        QTest::addColumn<QString>("shown");
        QTest::newRow("required_marked")
            << QByteArray(R"([{"name":"city","required":true},{"name":"units"}])")
            << QStringLiteral("city*, units");
        QTest::newRow("none") << QByteArray("[]") << QString();
        QTest::newRow("unnamed") << QByteArray(R"([{"description":"x"},{"name":"","required":true}])")
                                 << QStringLiteral("?, ?*");
        QTest::newRow("not_an_array_shown_as_sent")
            << QByteArray(R"({"city":1})") << QStringLiteral(R"({"city":1})");
    }
    void promptArgumentsReadAsNames()
    {
        QFETCH(QByteArray, arguments);
        QFETCH(QString, shown);
        const QJsonValue args = QJsonDocument::fromJson("[" + arguments + "]").array().first();
        QCOMPARE(ListSource::argumentNames(args), shown);
        const QJsonObject prompt{{QStringLiteral("name"), QStringLiteral("p")},
                                 {QStringLiteral("arguments"), args}};
        const QList<ListSource::Column> columns = ListSource::protocol(ListKind::Prompts).columns();
        QCOMPARE(columns.last().key, QStringLiteral("arguments"));
        // The table shows names (for an array); the value as received stays what columnValue gives.
        QCOMPARE(ListSource::columnValue(prompt, columns.last()), args);
        if (args.isArray())
            QCOMPARE(ListSource::displayValue(prompt, columns.last()).toString(), shown);
    }
    void detection_data();
    void detection();
    void pagingStyles_data();
    void pagingStyles();
    void nextRequest_data();
    void nextRequest();
    void textCheck_data();
    void textCheck();
    void extraction_data();
    void extraction();
    void protocolPageKeepsHintsAsReceived();
    void absentNullAndEmptyCursorDiffer();
    void pointerOverrides();
    void toolErrorIsAFailedPage();
    void inferredColumnsAreStable();
    void titleColumnFallsBackToAnnotations();
    void identity_data();
    void identity();
    void tasksListIsAnExtensionList();
};

static QJsonObject obj(const char *json)
{
    return QJsonDocument::fromJson(json).object();
}

void tst_ListSource::detection_data()
{
    QTest::addColumn<QByteArray>("tool");
    QTest::addColumn<bool>("isList");
    QTest::addColumn<QString>("cursorArg");
    QTest::addColumn<QString>("limitArg");
    QTest::addRow("cursor_and_limit")
        << QByteArray(
               R"({"name":"t","inputSchema":{"type":"object","properties":{"cursor":{"type":"string"},"limit":{"type":"integer"}}}})")
        << true << "cursor"
        << "limit";
    QTest::addRow("page_token_page_size")
        << QByteArray(
               R"({"name":"t","inputSchema":{"properties":{"page_token":{"type":"string"},"page_size":{"type":"integer"}}}})")
        << true << "page_token"
        << "page_size";
    QTest::addRow("pageToken_pageSize")
        << QByteArray(
               R"({"name":"t","inputSchema":{"properties":{"pageToken":{"type":"string"},"pageSize":{"type":"number"}}}})")
        << true << "pageToken"
        << "pageSize";
    QTest::addRow("after_per_page")
        << QByteArray(
               R"({"name":"t","inputSchema":{"properties":{"after":{"type":["string","null"]},"per_page":{}}}})")
        << true << "after"
        << "per_page";
    QTest::addRow("cursor_max_results")
        << QByteArray(
               R"({"name":"t","inputSchema":{"properties":{"cursor":{},"max_results":{"type":"integer"}}}})")
        << true << "cursor"
        << "max_results";
    QTest::addRow("cursor_without_limit")
        << QByteArray(R"({"name":"t","inputSchema":{"properties":{"cursor":{"type":"string"}}}})") << true
        << "cursor"
        << "";
    QTest::addRow("numeric_cursor_is_not")
        << QByteArray(R"({"name":"t","inputSchema":{"properties":{"cursor":{"type":"integer"}}}})") << false
        << ""
        << "";
    QTest::addRow("limit_only_is_not")
        << QByteArray(R"({"name":"t","inputSchema":{"properties":{"limit":{"type":"integer"}}}})") << false
        << ""
        << "";
    QTest::addRow("no_schema") << QByteArray(R"({"name":"t"})") << false << ""
                               << "";
    QTest::addRow("escaped_member_name")
        << QByteArray(
               "{\"name\":\"t\",\"inputSchema\":{\"properties\":{\"\\u0063ursor\":{\"type\":\"string\"}}}}")
        << true << "cursor"
        << "";
    QTest::addRow("cursor_in_prose_only")
        << QByteArray(R"({"name":"t","description":"moves the cursor","inputSchema":{"properties":{}}})")
        << false << ""
        << "";
}

void tst_ListSource::detection()
{
    QFETCH(QByteArray, tool);
    QFETCH(bool, isList);
    QFETCH(QString, cursorArg);
    QFETCH(QString, limitArg);
    const auto source = ListSource::fromTool(QJsonDocument::fromJson(tool).object());
    QCOMPARE(source.has_value(), isList);
    // The text check that spares parsing most tools never rules out a list tool.
    if (isList)
        QVERIFY(ListSource::mayBeListTool(tool));
    if (QTest::currentDataTag() == QByteArrayView("no_schema") ||
        QTest::currentDataTag() == QByteArrayView("limit_only_is_not"))
        QVERIFY(!ListSource::mayBeListTool(tool));
    if (!source)
        return;
    QCOMPARE(source->cursorArgument(), cursorArg);
    QCOMPARE(source->limitArgument(), limitArg);
    QCOMPARE(source->id(), QStringLiteral("tool:t"));
    QCOMPARE(source->requestTitle(), QStringLiteral("tools/call t"));
}

Q_DECLARE_METATYPE(ListSource::Paging)

void tst_ListSource::pagingStyles_data()
{
    QTest::addColumn<QByteArray>("tool");
    QTest::addColumn<bool>("isList");
    QTest::addColumn<ListSource::Paging>("paging");
    QTest::addColumn<QString>("cursorArg");
    QTest::addColumn<QString>("limitArg");
    const auto tool = [](const char *properties) {
        return QByteArray(R"({"name":"t","inputSchema":{"type":"object","properties":)") + properties + "}}";
    };
    QTest::addRow("cursor") << tool(R"({"cursor":{"type":"string"},"limit":{"type":"integer"}})") << true
                            << ListSource::Paging::Cursor << "cursor"
                            << "limit";
    QTest::addRow("after") << tool(R"({"after":{"type":"string"}})") << true << ListSource::Paging::Cursor
                           << "after"
                           << "";
    QTest::addRow("page_token") << tool(R"({"page_token":{"type":"string"},"page_size":{"type":"integer"}})")
                                << true << ListSource::Paging::PageToken << "page_token"
                                << "page_size";
    QTest::addRow("pageToken") << tool(R"({"pageToken":{"type":"string"}})") << true
                               << ListSource::Paging::PageToken << "pageToken"
                               << "";
    QTest::addRow("offset_limit")
        << tool(R"({"table":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}})")
        << true << ListSource::Paging::Offset << "offset"
        << "limit";
    QTest::addRow("page_per_page") << tool(R"({"page":{"type":"integer"},"per_page":{"type":"integer"}})")
                                   << true << ListSource::Paging::PageNumber << "page"
                                   << "per_page";
    QTest::addRow("page_perPage") << tool(R"({"page":{"type":"number"},"perPage":{"type":"number"}})") << true
                                  << ListSource::Paging::PageNumber << "page"
                                  << "perPage";
    QTest::addRow("page_pageSize")
        << tool(R"({"page":{"type":["integer","null"]},"pageSize":{"type":"integer"}})") << true
        << ListSource::Paging::PageNumber << "page"
        << "pageSize";
    QTest::addRow("page_page_size") << tool(R"({"page":{"type":"integer"},"page_size":{"type":"integer"}})")
                                    << true << ListSource::Paging::PageNumber << "page"
                                    << "page_size";
    // A cursor wins over a position when a tool has both.
    QTest::addRow("cursor_and_offset")
        << tool(R"({"cursor":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}})")
        << true << ListSource::Paging::Cursor << "cursor"
        << "limit";
    QTest::addRow("offset_alone_is_not")
        << tool(R"({"offset":{"type":"integer"}})") << false << ListSource::Paging::Cursor << ""
        << "";
    QTest::addRow("page_alone_is_not")
        << tool(R"({"page":{"type":"integer"}})") << false << ListSource::Paging::Cursor << ""
        << "";
    QTest::addRow("string_offset_is_not")
        << tool(R"({"offset":{"type":"string"},"limit":{"type":"integer"}})") << false
        << ListSource::Paging::Cursor << ""
        << "";
    QTest::addRow("page_with_limit_is_not")
        << tool(R"({"page":{"type":"integer"},"limit":{"type":"integer"}})") << false
        << ListSource::Paging::Cursor << ""
        << "";
}

void tst_ListSource::pagingStyles()
{
    QFETCH(QByteArray, tool);
    QFETCH(bool, isList);
    QFETCH(ListSource::Paging, paging);
    QFETCH(QString, cursorArg);
    QFETCH(QString, limitArg);
    const auto source = ListSource::fromTool(QJsonDocument::fromJson(tool).object());
    QCOMPARE(source.has_value(), isList);
    if (isList)
        QVERIFY(ListSource::mayBeListTool(tool)); // the text check never rules one out
    if (!source)
        return;
    QCOMPARE(source->paging(), paging);
    QCOMPARE(source->cursorArgument(), cursorArg);
    QCOMPARE(source->limitArgument(), limitArg);
    QCOMPARE(source->pagesByPosition(),
             paging == ListSource::Paging::Offset || paging == ListSource::Paging::PageNumber);
}

void tst_ListSource::nextRequest_data()
{
    QTest::addColumn<QByteArray>("tool");
    QTest::addColumn<int>("limit");         // --limit, or -1
    QTest::addColumn<QByteArray>("result"); // structuredContent of the page
    QTest::addColumn<QString>("sent");      // "<none>" for the first page
    QTest::addColumn<QString>("next");      // "<end>" when the list ends
    QTest::addColumn<int>("largest");       // the most items an earlier page held
    const QByteArray cursorTool = R"({"name":"t","inputSchema":{"properties":{"cursor":{"type":"string"}}}})";
    const QByteArray tokenTool =
        R"({"name":"t","inputSchema":{"properties":{"page_token":{"type":"string"}}}})";
    const QByteArray offsetTool =
        R"({"name":"t","inputSchema":{"properties":{"offset":{"type":"integer"},"limit":{"type":"integer"}}}})";
    const QByteArray pageTool =
        R"({"name":"t","inputSchema":{"properties":{"page":{"type":"integer"},"per_page":{"type":"integer"}}}})";
    const QByteArray pageFromZero =
        R"({"name":"t","inputSchema":{"properties":{"page":{"type":"integer","minimum":0},"per_page":{"type":"integer"}}}})";
    QTest::addRow("cursor_follows") << cursorTool << -1 << QByteArray(R"({"items":[1],"next_cursor":"c2"})")
                                    << "<none>"
                                    << "c2" << 0;
    QTest::addRow("cursor_empty_is_a_cursor")
        << cursorTool << -1 << QByteArray(R"({"items":[1],"next_cursor":""})") << "c1"
        << "" << 0;
    QTest::addRow("cursor_absent_ends") << cursorTool << -1 << QByteArray(R"({"items":[1]})") << "c1"
                                        << "<end>" << 0;
    QTest::addRow("token_follows") << tokenTool << -1 << QByteArray(R"({"items":[1],"next_page_token":"t2"})")
                                   << "<none>"
                                   << "t2" << 0;
    QTest::addRow("token_empty_ends")
        << tokenTool << -1 << QByteArray(R"({"items":[1],"next_page_token":""})") << "t2"
        << "<end>" << 0;
    QTest::addRow("offset_first_full") << offsetTool << 2 << QByteArray(R"({"rows":[1,2]})") << "<none>"
                                       << "2" << 0;
    QTest::addRow("offset_full") << offsetTool << 2 << QByteArray(R"({"rows":[1,2]})") << "4"
                                 << "6" << 0;
    QTest::addRow("offset_short_ends") << offsetTool << 2 << QByteArray(R"({"rows":[1]})") << "4"
                                       << "<end>" << 2;
    // A page shorter than the limit but as long as those before it: the server caps the size.
    QTest::addRow("offset_capped_goes_on") << offsetTool << 20 << QByteArray(R"({"rows":[1,2]})") << "<none>"
                                           << "2" << 0;
    QTest::addRow("offset_capped_then_short") << offsetTool << 20 << QByteArray(R"({"rows":[1]})") << "4"
                                              << "<end>" << 2;
    QTest::addRow("offset_has_more_false")
        << offsetTool << 2 << QByteArray(R"({"rows":[1,2],"has_more":false})") << "0"
        << "<end>" << 0;
    QTest::addRow("offset_empty_ends") << offsetTool << -1 << QByteArray(R"({"rows":[]})") << "4"
                                       << "<end>" << 0;
    QTest::addRow("offset_no_limit_goes_on") << offsetTool << -1 << QByteArray(R"({"rows":[1]})") << "4"
                                             << "5" << 0;
    QTest::addRow("offset_ignores_a_cursor")
        << offsetTool << 2 << QByteArray(R"({"rows":[1,2],"next_cursor":"zz"})") << "0"
        << "2" << 0;
    QTest::addRow("page_first") << pageTool << 3 << QByteArray(R"({"issues":[1,2,3]})") << "<none>"
                                << "2" << 0;
    QTest::addRow("page_next") << pageTool << 3 << QByteArray(R"({"issues":[1,2,3]})") << "2"
                               << "3" << 0;
    QTest::addRow("page_short_ends") << pageTool << 3 << QByteArray(R"({"issues":[1,2]})") << "2"
                                     << "<end>" << 3;
    QTest::addRow("page_from_zero") << pageFromZero << 3 << QByteArray(R"({"issues":[1,2,3]})") << "<none>"
                                    << "1" << 0;
    QTest::addRow("page_forged_position_ends") << pageTool << 3 << QByteArray(R"({"issues":[1,2,3]})") << "x"
                                               << "<end>" << 0;
    const QByteArray relayTool =
        R"({"name":"t","inputSchema":{"properties":{"first":{"type":"integer"},"after":{"type":"string"}}}})";
    QTest::addRow("relay_follows")
        << relayTool << -1
        << QByteArray(R"({"nodes":[1],"pageInfo":{"endCursor":"Y3Vy","hasNextPage":true}})") << "<none>"
        << "Y3Vy" << 0;
    QTest::addRow("relay_ends") << relayTool << -1
                                << QByteArray(
                                       R"({"nodes":[1],"pageInfo":{"endCursor":"Y3Vz","hasNextPage":false}})")
                                << "Y3Vy"
                                << "<end>" << 0;
    QTest::addRow("cursor_has_more_false")
        << cursorTool << -1 << QByteArray(R"({"items":[1],"next_cursor":"c3","has_more":false})") << "c2"
        << "<end>" << 0;
}

void tst_ListSource::nextRequest()
{
    QFETCH(QByteArray, tool);
    QFETCH(int, limit);
    QFETCH(QByteArray, result);
    QFETCH(QString, sent);
    QFETCH(QString, next);
    QFETCH(int, largest);
    auto source = ListSource::fromTool(QJsonDocument::fromJson(tool).object());
    QVERIFY(source);
    if (limit > 0)
        source->setLimit(limit);
    const ListSource::Page page = source->readPage(
        QJsonObject{{QStringLiteral("structuredContent"), QJsonDocument::fromJson(result).object()}});
    QVERIFY2(page.extractionError.isEmpty(), qPrintable(page.extractionError));
    const std::optional<QString> asked =
        sent == QLatin1String("<none>") ? std::nullopt : std::optional<QString>(sent);
    const std::optional<QString> got = source->nextRequest(page, asked, largest);
    QCOMPARE(got.value_or(QStringLiteral("<end>")), next);
}

// The Title column is the spec's display name: title, else annotations.title.
void tst_ListSource::titleColumnFallsBackToAnnotations()
{
    const ListSource::Column title{QStringLiteral("title"), QStringLiteral("Title")};
    auto value = [&](const char *json) {
        return ListSource::columnValue(QJsonDocument::fromJson(json).object(), title).toString();
    };
    QCOMPARE(value(R"({"name":"a","title":"Alpha","annotations":{"title":"Old"}})"), QStringLiteral("Alpha"));
    QCOMPARE(value(R"({"name":"a","annotations":{"title":"From annotations"}})"),
             QStringLiteral("From annotations"));
    QCOMPARE(value(R"({"name":"a","title":"","annotations":{"title":"Empty title"}})"),
             QStringLiteral("Empty title"));
    QCOMPARE(value(R"({"name":"a"})"), QString());
    const ListSource::Column name{QStringLiteral("name"), QStringLiteral("Name")};
    QCOMPARE(ListSource::columnValue(QJsonDocument::fromJson(R"({"name":"a"})").object(), name).toString(),
             QStringLiteral("a"));
    // A list tool's column of a whole item (no key): the item itself.
    QVERIFY(ListSource::columnValue(QJsonValue(3), ListSource::Column{}).isDouble());
}

void tst_ListSource::textCheck_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("may");
    QTest::newRow("member") << QByteArray("{\"properties\":{\"cursor\":{\"type\":\"string\"}}}") << true;
    QTest::newRow("each name") << QByteArray("{\"p\":{\"page_token\":1}}") << true;
    QTest::newRow("camel") << QByteArray("{\"p\":{\"pageToken\":1}}") << true;
    QTest::newRow("after") << QByteArray("{\"after\":1}") << true;
    QTest::newRow("whole text") << QByteArray("\"cursor\"") << true;
    QTest::newRow("at the end, unclosed") << QByteArray("{\"x\":\"cursor") << false;
    QTest::newRow("at the start, unopened") << QByteArray("cursor\"}") << false;
    QTest::newRow("prose") << QByteArray("{\"description\":\"pass the cursor back\"}") << false;
    QTest::newRow("longer names") << QByteArray("{\"cursors\":1,\"xcursor\":2}") << false;
    QTest::newRow("escape") << QByteArray("{\"\\u0063ursor\":1}") << true;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("quote") << QByteArray("\"") << false;
}

void tst_ListSource::textCheck()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, may);
    // In a heap block of exactly its size, with no terminator: a read past the text is caught by
    // the AddressSanitizer run.
    const auto exact = std::make_unique<char[]>(size_t(qMax<qsizetype>(text.size(), 1)));
    std::copy(text.cbegin(), text.cend(), exact.get());
    QCOMPARE(ListSource::mayBeListTool(QByteArray::fromRawData(exact.get(), text.size())), may);
}

void tst_ListSource::extraction_data()
{
    QTest::addColumn<QByteArray>("result");
    QTest::addColumn<int>("items");
    QTest::addColumn<int>("presence");
    QTest::addColumn<QString>("next");
    QTest::addRow("structured_next_cursor")
        << QByteArray(
               R"({"content":[],"structuredContent":{"posts":[{"id":1},{"id":2}],"next_cursor":"c2"}})")
        << 2 << int(NextCursor::Presence::String) << "c2";
    QTest::addRow("structured_nextCursor")
        << QByteArray(R"({"structuredContent":{"users":[{"id":1}],"nextCursor":"u"}})") << 1
        << int(NextCursor::Presence::String) << "u";
    QTest::addRow("next_page_token") << QByteArray(
                                            R"({"structuredContent":{"files":[{}],"next_page_token":"t"}})")
                                     << 1 << int(NextCursor::Presence::String) << "t";
    QTest::addRow("nextPageToken") << QByteArray(
                                          R"({"structuredContent":{"files":[{}],"nextPageToken":"t"}})")
                                   << 1 << int(NextCursor::Presence::String) << "t";
    QTest::addRow("nested_pagination")
        << QByteArray(R"({"structuredContent":{"items":[{},{},{}],"pagination":{"next_cursor":"p"}}})") << 3
        << int(NextCursor::Presence::String) << "p";
    QTest::addRow("nested_page_info")
        << QByteArray(R"({"structuredContent":{"edges":[{}],"page_info":{"nextPageToken":"g"}}})") << 1
        << int(NextCursor::Presence::String) << "g";
    QTest::addRow("nested_meta") << QByteArray(
                                        R"({"structuredContent":{"data":[{}],"meta":{"nextCursor":"m"}}})")
                                 << 1 << int(NextCursor::Presence::String) << "m";
    QTest::addRow("text_json_block")
        << QByteArray(
               R"({"content":[{"type":"text","text":"{\"channels\":[{\"id\":\"a\"},{\"id\":\"b\"}],\"next_cursor\":\"x\"}"}]})")
        << 2 << int(NextCursor::Presence::String) << "x";
    QTest::addRow("text_after_non_json")
        << QByteArray(
               R"({"content":[{"type":"text","text":"Here you go:"},{"type":"text","text":"{\"rows\":[1,2],\"next_cursor\":null}"}]})")
        << 2 << int(NextCursor::Presence::Null) << "";
    QTest::addRow("largest_array_wins")
        << QByteArray(R"({"structuredContent":{"tags":["a"],"posts":[{},{},{}],"next_cursor":""}})") << 3
        << int(NextCursor::Presence::String) << "";
    QTest::addRow("last_page_absent") << QByteArray(R"({"structuredContent":{"posts":[{}]}})") << 1
                                      << int(NextCursor::Presence::Absent) << "";
    QTest::addRow("numeric_cursor_wrong_type")
        << QByteArray(R"({"structuredContent":{"posts":[{}],"next_cursor":40}})") << 1
        << int(NextCursor::Presence::WrongType) << "";
}

void tst_ListSource::extraction()
{
    QFETCH(QByteArray, result);
    QFETCH(int, items);
    QFETCH(int, presence);
    QFETCH(QString, next);
    const ListSource source = *ListSource::fromTool(
        obj(R"({"name":"t","inputSchema":{"properties":{"cursor":{"type":"string"}}}})"));
    const ListSource::Page page = source.readPage(QJsonDocument::fromJson(result).object());
    QVERIFY2(page.extractionError.isEmpty(), qPrintable(page.extractionError));
    QCOMPARE(page.items.size(), items);
    QCOMPARE(int(page.next.presence), presence);
    QCOMPARE(page.next.text, next);
    QVERIFY(!page.hints.hasTtl); // tool results carry no cache hints
}

void tst_ListSource::protocolPageKeepsHintsAsReceived()
{
    const ListSource source = ListSource::protocol(ListKind::Tools);
    const ListSource::Page page =
        source.readPage(obj(R"({"tools":[{"name":"a"}],"ttlMs":"30000","cacheScope":"shared"})"));
    QCOMPARE(page.items.size(), 1);
    QVERIFY(page.hints.hasTtl);
    QVERIFY(page.hints.ttlMs.isString()); // the string stays a string: the judge decides
    QCOMPARE(page.hints.cacheScope.toString(), QStringLiteral("shared"));
    const ListSource::Page bare = source.readPage(obj(R"({"tools":[]})"));
    QVERIFY(!bare.hints.hasTtl);
    QVERIFY(!bare.hints.hasScope);
    const ListSource::Page broken = source.readPage(obj(R"({"prompts":[]})"));
    QVERIFY(!broken.extractionError.isEmpty());
}

void tst_ListSource::absentNullAndEmptyCursorDiffer()
{
    const ListSource source = ListSource::protocol(ListKind::Resources);
    QCOMPARE(source.readPage(obj(R"({"resources":[]})")).next.presence, NextCursor::Presence::Absent);
    QCOMPARE(source.readPage(obj(R"({"resources":[],"nextCursor":null})")).next.presence,
             NextCursor::Presence::Null);
    const ListSource::Page empty = source.readPage(obj(R"({"resources":[],"nextCursor":""})"));
    QCOMPARE(empty.next.presence, NextCursor::Presence::String);
    QCOMPARE(empty.next.text, QString());
}

void tst_ListSource::pointerOverrides()
{
    ListSource source = *ListSource::fromTool(
        obj(R"({"name":"t","inputSchema":{"properties":{"cursor":{"type":"string"}}}})"));
    source.setItemsPointer(QStringLiteral("/data/results"));
    source.setCursorPointer(QStringLiteral("/data/continuation~1token"));
    const ListSource::Page page = source.readPage(obj(
        R"({"structuredContent":{"data":{"results":[1,2,3],"big":[1,2,3,4,5],"continuation/token":"k"}}})"));
    QCOMPARE(page.items.size(), 3);
    QCOMPARE(page.next.text, QStringLiteral("k"));
    source.setItemsPointer(QStringLiteral("/nope"));
    QVERIFY(!source.readPage(obj(R"({"structuredContent":{}})")).extractionError.isEmpty());
}

void tst_ListSource::toolErrorIsAFailedPage()
{
    const ListSource source = *ListSource::fromTool(
        obj(R"({"name":"t","inputSchema":{"properties":{"cursor":{"type":"string"}}}})"));
    const ListSource::Page page = source.readPage(
        obj(R"({"isError":true,"content":[{"type":"text","text":"cursor belongs to another tool"}]})"));
    QVERIFY(page.toolError);
}

void tst_ListSource::inferredColumnsAreStable()
{
    const QJsonArray items =
        QJsonDocument::fromJson(R"([{"zeta":1,"name":"a","id":"1"},{"alpha":2,"name":"b"}])").array();
    const QList<ListSource::Column> cols = ListSource::inferColumns(items);
    QStringList keys;
    for (const auto &c : cols)
        keys << c.key;
    QCOMPARE(keys, (QStringList{QStringLiteral("id"), QStringLiteral("name"), QStringLiteral("alpha"),
                                QStringLiteral("zeta")}));
}

void tst_ListSource::identity_data()
{
    QTest::addColumn<QByteArray>("item");
    QTest::addColumn<QString>("identity");
    QTest::addRow("tool_name") << QByteArray(R"({"name":"send"})") << "name:send";
    QTest::addRow("resource_uri_over_name")
        << QByteArray(R"({"name":"doc","uri":"chat://x"})") << "uri:chat://x";
    QTest::addRow("template") << QByteArray(R"({"name":"t","uriTemplate":"chat://{id}"})")
                              << "uriTemplate:chat://{id}";
    QTest::addRow("numeric_id") << QByteArray(R"({"id":42})") << "id:42";
    QTest::addRow("none") << QByteArray(R"({"text":"hi"})") << "";
    QTest::addRow("name_not_string_then_id") << QByteArray(R"({"name":{"a":1},"id":"x"})") << "id:x";
    QTest::addRow("fractional_id") << QByteArray(R"({"id":-1.5e2})") << "id:-150";
    QTest::addRow("escaped") << QByteArray("{\"name\":\"a\\\"b\\u00e9\"}")
                             << QStringLiteral("name:a\"b\u00e9");
    QTest::addRow("utf8") << QByteArray("{\"name\":\"caf\xc3\xa9\"}") << QStringLiteral("name:caf\u00e9");
    QTest::addRow("spaced") << QByteArray("{ \"uri\" : \"u\" , \"name\" : \"n\" }") << "uri:u";
    QTest::addRow("not_object") << QByteArray(R"(["name","x"])") << "";
    // Found by tests/fuzz/fuzz_listsource: a member name written with escapes is the name
    // QJsonDocument reads, on the text path too.
    QTest::addRow("escaped_member_name") << QByteArray(R"({"n\u0061me":"x"})") << "name:x";
    QTest::addRow("escaped_member_name_last")
        << QByteArray(R"({"name":"a","id":1,"n\u0061me":"b"})") << "name:b";
    QTest::addRow("escaped_uri_over_name") << QByteArray(R"({"name":"n","\u0075ri":"u"})") << "uri:u";
    // A task of tasks/list has neither name nor id.
    QTest::addRow("task") << QByteArray(R"({"taskId":"t-1","status":"working"})") << "taskId:t-1";
    QTest::addRow("id_over_task_id") << QByteArray(R"({"taskId":"t-1","id":"x"})") << "id:x";
}

void tst_ListSource::identity()
{
    QFETCH(QByteArray, item);
    QFETCH(QString, identity);
    QCOMPARE(ListSource::identity(QJsonDocument::fromJson(item).object()), identity);
    // Read from the item's text (rows cut from a reply without parsing it), the same identity.
    QCOMPARE(ListSource::identity(QByteArrayView(item)), identity);
    // 0 is the hash of no identity only.
    QCOMPARE(ListSource::identityHash(identity) == 0, identity.isEmpty());
    // The walk hashes items where they lie; the same hash as the identity's.
    QCOMPARE(ListSource::itemIdentityHash(item), ListSource::identityHash(identity));
}

// tasks/list (2025-11-25) is walked as a protocol list is, by cursor, its items under "tasks".
void tst_ListSource::tasksListIsAnExtensionList()
{
    QVERIFY(!ListSource::extension(QStringLiteral("tools")));
    const std::optional<ListSource> tasks = ListSource::extension(QStringLiteral("tasks/list"));
    QVERIFY(tasks);
    QCOMPARE(tasks->kind(), ListSource::Kind::Extension);
    QCOMPARE(tasks->id(), QStringLiteral("tasks"));
    QCOMPARE(tasks->requestTitle(), QStringLiteral("tasks/list"));
    QCOMPARE(tasks->itemsKey(), QStringLiteral("tasks"));
    QVERIFY(tasks->isReadOnly());
    QVERIFY(!tasks->startCursor());
    QCOMPARE(tasks->columns().first().key, QStringLiteral("taskId"));
    const ListSource::Page page = tasks->readPage(obj(
        R"({"tasks":[{"taskId":"a","status":"working"},{"taskId":"b"}],"nextCursor":"eyJ0YXNrcyI6M30"})"));
    QVERIFY(page.extractionError.isEmpty());
    QCOMPARE(page.itemCount(), 2);
    QCOMPARE(tasks->nextRequest(page, std::nullopt),
             std::optional<QString>(QStringLiteral("eyJ0YXNrcyI6M30")));
    const ListSource::Page last = tasks->readPage(obj(R"({"tasks":[]})"));
    QVERIFY(!tasks->nextRequest(last, QStringLiteral("c")));
    QVERIFY(tasks->readPage(obj(R"({"items":[]})")).extractionError.contains(QStringLiteral("\"tasks\"")));
    // Its tab reads "task list", apart from the window's Tasks (the tasks started there).
    QCOMPARE(tasks->displayName(), QStringLiteral("task list"));

    // skills/list (SEP-2640): items under "skills", named by their frontmatter.
    const std::optional<ListSource> skills = ListSource::extension(QStringLiteral("skills"));
    QVERIFY(skills);
    QCOMPARE(skills->requestTitle(), QStringLiteral("skills/list"));
    QCOMPARE(skills->displayName(), QStringLiteral("skills"));
    const QJsonObject entry =
        obj(R"({"uri":"skill://a/b/SKILL.md","frontmatter":{"name":"b","description":"d"}})");
    QCOMPARE(ListSource::columnValue(entry, skills->columns().first()), QJsonValue(QStringLiteral("b")));
    QCOMPARE(ListSource::identity(entry), QStringLiteral("uri:skill://a/b/SKILL.md"));
    QVERIFY(ListSource::extensionNames().contains(QStringLiteral("skills")));
    QVERIFY(!skills->isDirectory());

    // A skill's folder (resources/directory/read): opened by the user, its tab named by its last
    // segment; a hostile uri's tab stays one short, safe line.
    const ListSource folder = ListSource::directory(QStringLiteral("skill://a/triage-posts/"));
    QVERIFY(folder.isDirectory());
    QCOMPARE(folder.id(), QStringLiteral("directory:skill://a/triage-posts/"));
    QCOMPARE(folder.directoryUri(), QStringLiteral("skill://a/triage-posts/"));
    QCOMPARE(folder.displayName(), QStringLiteral("triage-posts/"));
    QCOMPARE(folder.requestTitle(), QStringLiteral("resources/directory/read"));
    QVERIFY(!ListSource::extensionNames().contains(folder.id()));
    QVERIFY(ListSource::isDirectoryId(folder.id()));
    // An entry that is a folder names the list of its own; a file, or an item of another list, none.
    QJsonObject sub{{QStringLiteral("uri"), QStringLiteral("skill://a/triage-posts/references")},
                    {QStringLiteral("mimeType"), QStringLiteral("inode/directory")}};
    QCOMPARE(folder.subdirectory(sub)->directoryUri(), QStringLiteral("skill://a/triage-posts/references"));
    QVERIFY(!ListSource::protocol(ListKind::Resources).subdirectory(sub));
    sub[QStringLiteral("mimeType")] = QStringLiteral("text/markdown");
    QVERIFY(!folder.subdirectory(sub));
    sub = {{QStringLiteral("mimeType"), QStringLiteral("inode/directory")}}; // no uri
    QVERIFY(!folder.subdirectory(sub));
    const ListSource hostile = ListSource::directory(QStringLiteral("skill://a/\x1b]0;owned\x07"));
    QVERIFY(!hostile.displayName().contains(QChar(0x1b)));
    QVERIFY(!hostile.displayName().contains(QChar(0x07)));
    const ListSource longName =
        ListSource::directory(QStringLiteral("skill://a/") + QString(200, QLatin1Char('x')));
    QVERIFY(longName.displayName().size() <= 33);
    QVERIFY(!ListSource::directory({}).directoryUri().isEmpty()); // never "directory:" alone
}

QTEST_GUILESS_MAIN(tst_ListSource)
#include "tst_listsource.moc"
