// SessionRecording::fromJsonLines (net/sessionrecording.h), what `folio replay` and File > Open
// Session read: never crashes, whatever the bytes; a file it accepts starts with a start event,
// has its events in time order, writes back to a file that reads as the same session, and a
// replay script can be built over it and asked for every recorded request.
#include "fuzzcheck.h"
#include "replaytransport.h"
#include "sessionrecording.h"

#include <QJsonDocument>

using namespace folio;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input = fuzzInput(data, size).toByteArray();
    QString error;
    const std::optional<SessionRecording> rec = SessionRecording::fromJsonLines(input, &error);
    if (!rec) {
        FUZZ_CHECK(!error.isEmpty());
        return 0;
    }
    FUZZ_CHECK(!rec->events.isEmpty() &&
               rec->events.constFirst().type == SessionRecording::Event::Type::Start);
    for (qsizetype i = 1; i < rec->events.size(); ++i)
        FUZZ_CHECK(rec->events.at(i - 1).t <= rec->events.at(i).t);

    const std::optional<SessionRecording> again = SessionRecording::fromJsonLines(rec->toJsonLines(), &error);
    FUZZ_CHECK(again.has_value(), error);
    FUZZ_CHECK(again->events.size() == rec->events.size());
    FUZZ_CHECK(again->name == rec->name);
    for (qsizetype i = 0; i < rec->events.size(); ++i) {
        const SessionRecording::Event &a = rec->events.at(i);
        const SessionRecording::Event &b = again->events.at(i);
        FUZZ_CHECK(a.t == b.t && a.type == b.type && a.text == b.text, QString::number(i));
        FUZZ_CHECK(a.error.kind == b.error.kind && a.error.message == b.error.message, QString::number(i));
    }

    ReplayScript script(std::make_shared<const SessionRecording>(*rec));
    while (script.takeSegment() >= 0) {
    }
    for (const SessionRecording::Event &e : rec->events) {
        if (e.type != SessionRecording::Event::Type::Send)
            continue;
        const QJsonObject m = QJsonDocument::fromJson(e.text).object();
        const int sent = script.takeRequest(0, m.value(QStringLiteral("method")).toString(),
                                            m.value(QStringLiteral("params")).toObject());
        for (int answer : script.answersOf(sent))
            FUZZ_CHECK(answer > sent && answer < rec->events.size());
    }
    return 0;
}
