// ClientJudge (models/clientjudge.h), which `folio tap` feeds with whatever a client and a server
// say to each other: neither is trusted, and a judge that crashed would take the tap, and with it
// the client's connection, down. Each input line is one message: its first byte says who sent it
// (odd: the server) and how many milliseconds passed since the last one; the rest is JSON (an
// object, or a batch, element by element, as the tap gives it). Properties: nothing crashes or
// hangs, the bounds in the header hold (64 walks a list, 10,000 pages a walk), every finding is a
// catalogued client-* id said by the client judge, with pages within its walk.
#include "clientjudge.h"
#include "fuzzcheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

using namespace folio;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView input = fuzzInput(data, size);
    ClientJudge::Options options;
    options.listChangedGraceMs = 50; // short, so that the fuzzer reaches past it
    ClientJudge judge(options);
    qint64 t = 0;
    qsizetype from = 0;
    while (from < input.size()) {
        qsizetype nl = input.indexOf('\n', from);
        if (nl < 0)
            nl = input.size();
        const QByteArrayView line = input.sliced(from, nl - from);
        from = nl + 1;
        if (line.isEmpty())
            continue;
        const auto head = static_cast<unsigned char>(line.at(0));
        const auto who = (head & 1) ? ClientJudge::From::Server : ClientJudge::From::Client;
        t += head >> 1;
        const QJsonDocument doc = QJsonDocument::fromJson(line.sliced(1).toByteArray());
        if (doc.isObject()) {
            judge.observe(who, doc.object(), t);
        } else if (doc.isArray()) {
            for (const QJsonValue &v : doc.array())
                judge.observe(who, v.toObject(), t);
        }
    }
    judge.finish(t + 1);
    judge.observe(ClientJudge::From::Client, QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}},
                  t + 2);

    static const QSet<QString> catalogue = [] {
        const QStringList ids = Finding::catalogue();
        return QSet<QString>(ids.begin(), ids.end());
    }();
    QHash<QString, int> walksPerList;
    for (const ClientJudge::WalkSeen &w : judge.walks()) {
        FUZZ_CHECK(w.pages.size() <= 10000, QStringLiteral("%1 pages kept").arg(w.pages.size()));
        FUZZ_CHECK(++walksPerList[w.list] <= 64, w.list);
    }
    for (const Finding &f : judge.findings()) {
        FUZZ_CHECK(catalogue.contains(f.id) && f.id.startsWith(QLatin1String("client-")), f.id);
        FUZZ_CHECK(f.source == Finding::Source::Client, f.id);
        for (int page : f.pages)
            FUZZ_CHECK(page >= 0, f.id);
        FUZZ_CHECK(!f.message.isEmpty(), f.id);
    }
    (void)judge.revision();
    return 0;
}
