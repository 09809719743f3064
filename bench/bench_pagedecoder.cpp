// bench_pagedecoder: reading list page replies with PageDecoder (simdjson On-Demand), on 1,000
// pages of 100 items in three shapes: the demo server's resources, tools with a nested
// inputSchema, and the same resources pretty-printed (as some servers write them).
//   decoder   PageDecoder::decode with the key found from the id (what the connection calls)
// (The hand-written validator and slicer it replaced were measured against it in docs/page-decoder.md.)
//   for scale: PageDecoder with the key given (no id pass), a new PageDecoder per page, the padded
//             copy alone, and QJsonDocument::fromJson of the whole page (the usual path)
// Each run reads all 1,000 pages; the figures are medians over the runs, in this thread's CPU time:
// on a machine shared with other builds, wall time mostly measures the neighbours.
//
// Usage: bench_pagedecoder [--runs N] [--pages N] [--items N]
#include "benchstats.h"
#include "pagedecoder.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>

#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>

namespace {

using folio::DecodedReply;
using folio::PageDecoder;

const char *const words[] = {"channel",  "post",    "thread",   "the",      "a",    "of",
                             "members",  "pinned",  "reaction", "file",     "team", "status",
                             "custom",   "emoji",   "search",   "recent",   "user", "and",
                             "settings", "purpose", "header",   "bookmark", "link", "group"};

QString sentence(QRandomGenerator &rng, int minChars, int maxChars)
{
    const int target = minChars + int(rng.bounded(maxChars - minChars + 1));
    QString s;
    while (s.size() < target)
        s += QLatin1String(words[rng.bounded(int(std::size(words)))]) + QLatin1Char(' ');
    s.truncate(target);
    return s.trimmed() + QLatin1Char('.');
}

QJsonObject resource(QRandomGenerator &rng, int n)
{
    const QString name = QStringLiteral("post-%1").arg(n);
    return QJsonObject{{QStringLiteral("uri"), QStringLiteral("chat://posts/") + name},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("title"), sentence(rng, 15, 40)},
                       {QStringLiteral("mimeType"), QStringLiteral("text/plain")},
                       {QStringLiteral("description"), sentence(rng, 80, 200)}};
}

QJsonObject tool(QRandomGenerator &rng, int n)
{
    const auto property = [&](const char *type) {
        return QJsonObject{{QStringLiteral("type"), QLatin1String(type)},
                           {QStringLiteral("description"), sentence(rng, 20, 60)}};
    };
    const QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")},
                             {QStringLiteral("properties"),
                              QJsonObject{{QStringLiteral("channel"), property("string")},
                                          {QStringLiteral("limit"),
                                           QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")},
                                                       {QStringLiteral("minimum"), 1},
                                                       {QStringLiteral("maximum"), 200}}},
                                          {QStringLiteral("cursor"), property("string")}}},
                             {QStringLiteral("required"), QJsonArray{QStringLiteral("channel")}},
                             {QStringLiteral("additionalProperties"), false}};
    return QJsonObject{{QStringLiteral("name"), QStringLiteral("get_thing_%1").arg(n)},
                       {QStringLiteral("title"), sentence(rng, 10, 30)},
                       {QStringLiteral("description"), sentence(rng, 80, 200)},
                       {QStringLiteral("inputSchema"), schema},
                       {QStringLiteral("annotations"), QJsonObject{{QStringLiteral("readOnlyHint"), true}}}};
}

struct Shape
{
    QString name;
    QByteArray key;
    QList<QByteArray> pages;
    qint64 bytes = 0;
};

// Pages as a server writes them: the envelope first, as the demo server does.
Shape makeShape(const QString &name, const char *key, int pages, int items, QJsonDocument::JsonFormat format,
                const std::function<QJsonObject(QRandomGenerator &, int)> &item)
{
    QRandomGenerator rng(42);
    Shape shape{name, key, {}, 0};
    for (int p = 0; p < pages; ++p) {
        QJsonArray array;
        for (int i = 0; i < items; ++i)
            array.append(item(rng, p * items + i));
        const QJsonObject result{{QString::fromLatin1(key), array},
                                 {QStringLiteral("nextCursor"), QStringLiteral("c%1").arg(p + 1)},
                                 {QStringLiteral("ttlMs"), 5000},
                                 {QStringLiteral("cacheScope"), QStringLiteral("public")}};
        const QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                  {QStringLiteral("id"), p + 7},
                                  {QStringLiteral("result"), result}};
        shape.pages.append(QJsonDocument(message).toJson(format));
        shape.bytes += shape.pages.constLast().size();
    }
    return shape;
}

// What one way of reading a page leaves: items and the envelope, to check the ways agree.
struct Read
{
    QByteArray items;
    QList<quint32> offsets;
    QJsonObject message;
};

struct Way
{
    QString name;
    std::function<bool(const QByteArray &raw, const QByteArray &key, Read *read)> run;
};

// The page's items as QJsonDocument reads them, written compact: what the decoder must give.
QList<QByteArray> parsedItems(const QByteArray &raw, const QByteArray &key)
{
    QList<QByteArray> out;
    const QJsonArray items = QJsonDocument::fromJson(raw)
                                 .object()
                                 .value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QString::fromLatin1(key))
                                 .toArray();
    for (const QJsonValue &v : items)
        out.append(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    return out;
}

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    const QCommandLineOption runsOption(QStringLiteral("runs"), QStringLiteral("Runs."), QStringLiteral("N"),
                                        QStringLiteral("15"));
    const QCommandLineOption pagesOption(QStringLiteral("pages"), QStringLiteral("Pages."),
                                         QStringLiteral("N"), QStringLiteral("1000"));
    const QCommandLineOption itemsOption(QStringLiteral("items"), QStringLiteral("Items per page."),
                                         QStringLiteral("N"), QStringLiteral("100"));
    parser.addOptions({runsOption, pagesOption, itemsOption});
    parser.addHelpOption();
    parser.process(app);
    const int runs = qMax(1, parser.value(runsOption).toInt());
    const int pages = qMax(1, parser.value(pagesOption).toInt());
    const int items = qMax(1, parser.value(itemsOption).toInt());

    bench::heading(
        QStringLiteral("bench_pagedecoder: %1 pages x %2 items, %3 run(s)").arg(pages).arg(items).arg(runs));
    // On-Demand's walk is compiled into our code for the kernel our flags allow (the macro, the
    // same here as in net/pagedecoder.cpp); builtin_implementation() is the library's own compile-time
    // choice. Its stage 1 (UTF-8, structure) and minify() are dispatched at run time.
    bench::line(QStringLiteral("simdjson"), QStringLiteral(SIMDJSON_STRINGIFY(SIMDJSON_VERSION)));
    bench::line(QStringLiteral("On-Demand walk (this build)"),
                QStringLiteral(SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION)));
    bench::line(QStringLiteral("builtin_implementation() (the library)"),
                QString::fromStdString(simdjson::builtin_implementation()->name()));
    bench::line(QStringLiteral("stage 1 and minify (run time)"),
                QString::fromStdString(simdjson::get_active_implementation()->name()));

    const QList<Shape> shapes{
        makeShape(QStringLiteral("resources, compact"), "resources", pages, items, QJsonDocument::Compact,
                  resource),
        makeShape(QStringLiteral("tools with inputSchema, compact"), "tools", pages, items,
                  QJsonDocument::Compact, tool),
        makeShape(QStringLiteral("resources, indented"), "resources", pages, items, QJsonDocument::Indented,
                  resource),
    };

    PageDecoder decoder;
    QByteArray padded;
    const QList<Way> ways{
        {QStringLiteral("PageDecoder, key from the id"),
         [&decoder](const QByteArray &raw, const QByteArray &key, Read *read) {
             DecodedReply reply;
             if (!decoder.decode(
                     raw, [&key](const QJsonValue &) { return key; }, &reply))
                 return false;
             *read =
                 Read{std::move(reply.items.text), std::move(reply.items.offsets), std::move(reply.message)};
             return true;
         }},
        {QStringLiteral("PageDecoder, key given"),
         [&decoder](const QByteArray &raw, const QByteArray &key, Read *read) {
             DecodedReply reply;
             if (!decoder.decode(raw, key, &reply))
                 return false;
             *read =
                 Read{std::move(reply.items.text), std::move(reply.items.offsets), std::move(reply.message)};
             return true;
         }},
        {QStringLiteral("decodeListReply (a new decoder per page)"),
         [](const QByteArray &raw, const QByteArray &key, Read *read) {
             DecodedReply reply;
             if (!folio::decodeListReply(raw, key, &reply))
                 return false;
             *read =
                 Read{std::move(reply.items.text), std::move(reply.items.offsets), std::move(reply.message)};
             return true;
         }},
        {QStringLiteral("the padded copy alone"),
         [&padded](const QByteArray &raw, const QByteArray &, Read *) {
             padded.resize(raw.size() + qsizetype(simdjson::SIMDJSON_PADDING));
             std::memcpy(padded.data(), raw.constData(), size_t(raw.size()));
             return true;
         }},
        {QStringLiteral("QJsonDocument::fromJson(page) (usual path)"),
         [](const QByteArray &raw, const QByteArray &, Read *) {
             return QJsonDocument::fromJson(raw).isObject();
         }},
    };

    for (const Shape &shape : shapes) {
        bench::heading(QStringLiteral("%1: %2 MB in %3 pages")
                           .arg(shape.name)
                           .arg(double(shape.bytes) / 1e6, 0, 'f', 1)
                           .arg(shape.pages.size()));
        // Before timing: the decoder's items are QJsonDocument's, and both decode calls agree.
        for (qsizetype p = 0; p < shape.pages.size(); p += 97) {
            Read a, b;
            if (!ways[0].run(shape.pages[p], shape.key, &a) || !ways[1].run(shape.pages[p], shape.key, &b) ||
                a.items != b.items || a.offsets != b.offsets || a.message != b.message) {
                std::printf("page %lld: the two decode calls disagree\n", static_cast<long long>(p));
                return 1;
            }
            const QList<QByteArray> expected = parsedItems(shape.pages[p], shape.key);
            for (qsizetype i = 0; i < expected.size(); ++i) {
                const QByteArray item = a.items.mid(a.offsets[i], a.offsets[i + 1] - a.offsets[i]);
                if (QJsonDocument::fromJson(item).toJson(QJsonDocument::Compact) != expected[i]) {
                    std::printf("page %lld item %lld: PageDecoder and QJsonDocument disagree\n",
                                static_cast<long long>(p), static_cast<long long>(i));
                    return 1;
                }
            }
        }
        for (const Way &way : ways) {
            QList<double> ms;
            for (int run = -1; run < runs; ++run) {
                const double start = threadCpuMs();
                for (const QByteArray &raw : shape.pages) {
                    Read read;
                    if (!way.run(raw, shape.key, &read)) {
                        std::printf("%s refused a page\n", qPrintable(way.name));
                        return 1;
                    }
                }
                const double elapsed = threadCpuMs() - start;
                if (run >= 0) // the first run warms caches and allocators
                    ms.append(elapsed);
            }
            const bench::Stats s = bench::Stats::of(ms);
            const double perThousand = s.median * 1000.0 / double(shape.pages.size());
            bench::line(way.name, QStringLiteral("%1 ms / 1,000 pages, %2 MB/s  (%3)")
                                      .arg(perThousand, 0, 'f', 1)
                                      .arg(double(shape.bytes) / 1e6 / (s.median / 1000), 0, 'f', 0)
                                      .arg(s.text("ms", 1)));
        }
    }
    return 0;
}
