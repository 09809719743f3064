#include "sessionrecording.h"

#include "transport.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStringDecoder>

namespace folio {

namespace {

using Type = SessionRecording::Event::Type;

constexpr Type allTypes[] = {Type::Start,     Type::Open, Type::Send,  Type::Receive,
                             Type::Malformed, Type::Fail, Type::Close, Type::Diagnostic};

bool isUtf8(const QByteArray &bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder(bytes);
    Q_UNUSED(text)
    return !decoder.hasError();
}

// A header's millisecond count as received: any number, clamped to what a qint64 holds (a hostile
// 1e25 or NaN must not reach a cast).
qint64 millis(const QJsonValue &v)
{
    const double d = v.toDouble();
    if (!(d > 0))
        return 0;
    return d >= 9.0e15 ? qint64(9.0e15) : qint64(d);
}

} // namespace

QString SessionRecording::Event::typeName(Type type)
{
    switch (type) {
    case Type::Start:
        return QStringLiteral("start");
    case Type::Open:
        return QStringLiteral("open");
    case Type::Send:
        return QStringLiteral("send");
    case Type::Receive:
        return QStringLiteral("receive");
    case Type::Malformed:
        return QStringLiteral("malformed");
    case Type::Fail:
        return QStringLiteral("fail");
    case Type::Close:
        return QStringLiteral("close");
    case Type::Diagnostic:
        return QStringLiteral("diagnostic");
    }
    return {};
}

QByteArray SessionRecording::toJsonLines() const
{
    QJsonObject server{{QStringLiteral("name"), name},
                       {QStringLiteral("kind"), kind},
                       {QStringLiteral("target"), target},
                       {QStringLiteral("revision"), revision},
                       {QStringLiteral("transport"), transport},
                       {QStringLiteral("serverInfo"), serverInfo},
                       {QStringLiteral("capabilities"), capabilities},
                       {QStringLiteral("instructions"), instructions}};
    if (!demoScenario.isEmpty())
        server.insert(QStringLiteral("demoScenario"), demoScenario);
    QJsonObject header{
        {QStringLiteral("format"), formatName()},
        {QStringLiteral("version"), FormatVersion},
        {QStringLiteral("folio"), folioVersion},
        {QStringLiteral("recordedAt"),
         QDateTime::fromMSecsSinceEpoch(recordedAtMs, Qt::UTC).toString(Qt::ISODateWithMs)},
        {QStringLiteral("recordedAtMs"), recordedAtMs},
        {QStringLiteral("durationMs"), durationMs},
        {QStringLiteral("server"), server},
        {QStringLiteral("stripped"), QJsonArray::fromStringList(stripped)},
        {QStringLiteral("cut"), cut},
        {QStringLiteral("events"), qint64(events.size())},
    };
    if (isTap())
        header.insert(QStringLiteral("tap"), tap);
    QByteArray out = QJsonDocument(header).toJson(QJsonDocument::Compact);
    out += '\n';
    for (const Event &e : events) {
        QJsonObject line{{QStringLiteral("t"), e.t}, {QStringLiteral("e"), Event::typeName(e.type)}};
        if (!e.text.isEmpty() || e.type == Type::Send || e.type == Type::Receive) {
            if (isUtf8(e.text))
                line.insert(QStringLiteral("text"), QString::fromUtf8(e.text));
            else
                line.insert(QStringLiteral("base64"), QString::fromLatin1(e.text.toBase64()));
        }
        if (e.type == Type::Fail)
            line.insert(QStringLiteral("id"), e.id);
        if (e.error.isError() || e.type == Type::Close)
            line.insert(QStringLiteral("error"), e.error.toJson());
        if (e.byClient)
            line.insert(QStringLiteral("byClient"), true);
        out += QJsonDocument(line).toJson(QJsonDocument::Compact);
        out += '\n';
    }
    return out;
}

std::optional<SessionRecording> SessionRecording::fromJsonLines(const QByteArray &data, QString *error)
{
    auto fail = [error](const QString &why) -> std::optional<SessionRecording> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (data.isEmpty())
        return fail(QStringLiteral("the file is empty"));
    qsizetype lineEnd = data.indexOf('\n');
    const QByteArray first = data.left(lineEnd < 0 ? data.size() : lineEnd);
    QJsonParseError parseError;
    const QJsonDocument headerDoc = QJsonDocument::fromJson(first, &parseError);
    const QJsonObject header = headerDoc.object();
    if (!headerDoc.isObject() || header.value(QStringLiteral("format")).toString() != formatName())
        return fail(
            QStringLiteral("not a Folio session: its first line is not a \"%1\" header").arg(formatName()));
    const int version = header.value(QStringLiteral("version")).toInt(-1);
    if (version > FormatVersion)
        return fail(QStringLiteral("made by a newer Folio (session format %1; this Folio reads up to %2)")
                        .arg(QString::number(version), QString::number(FormatVersion)));
    if (version < 1)
        return fail(QStringLiteral("line 1: the header has no valid \"version\""));

    SessionRecording rec;
    const QJsonObject server = header.value(QStringLiteral("server")).toObject();
    rec.name = server.value(QStringLiteral("name")).toString();
    rec.kind = server.value(QStringLiteral("kind")).toString();
    rec.target = server.value(QStringLiteral("target")).toString();
    rec.demoScenario = server.value(QStringLiteral("demoScenario")).toString();
    rec.revision = server.value(QStringLiteral("revision")).toString();
    rec.transport = server.value(QStringLiteral("transport")).toString();
    rec.serverInfo = server.value(QStringLiteral("serverInfo")).toObject();
    rec.capabilities = server.value(QStringLiteral("capabilities")).toObject();
    rec.instructions = server.value(QStringLiteral("instructions")).toString();
    rec.folioVersion = header.value(QStringLiteral("folio")).toString();
    rec.recordedAtMs = millis(header.value(QStringLiteral("recordedAtMs")));
    rec.durationMs = millis(header.value(QStringLiteral("durationMs")));
    for (const QJsonValue &v : header.value(QStringLiteral("stripped")).toArray())
        rec.stripped.append(v.toString());
    rec.cut = header.value(QStringLiteral("cut")).toBool();
    rec.tap = header.value(QStringLiteral("tap")).toObject();
    if (header.contains(QStringLiteral("tap")) && rec.tap.isEmpty())
        rec.tap.insert(QStringLiteral("client"), QJsonObject()); // a tap's, whatever the member held
    const double announced = header.value(QStringLiteral("events")).toDouble(-1);
    if (rec.name.isEmpty())
        return fail(QStringLiteral("line 1: the header names no server"));

    int lineNo = 1;
    qint64 lastT = 0;
    while (lineEnd >= 0 && lineEnd + 1 < data.size()) {
        const qsizetype start = lineEnd + 1;
        lineEnd = data.indexOf('\n', start);
        const QByteArray line = data.mid(start, (lineEnd < 0 ? data.size() : lineEnd) - start);
        ++lineNo;
        if (line.trimmed().isEmpty())
            continue;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
        if (!doc.isObject())
            return fail(QStringLiteral("line %1: not a JSON object (%2): the file is damaged")
                            .arg(QString::number(lineNo),
                                 doc.isNull() ? parseError.errorString() : QStringLiteral("another value")));
        const QJsonObject o = doc.object();
        Event e;
        const QJsonValue t = o.value(QStringLiteral("t"));
        if (!t.isDouble() || t.toDouble() < 0 || t.toDouble() > 9.0e15)
            return fail(QStringLiteral("line %1: the event has no valid time \"t\"").arg(lineNo));
        e.t = qint64(t.toDouble());
        if (e.t < lastT)
            return fail(QStringLiteral("line %1: the event is earlier than the one before it").arg(lineNo));
        lastT = e.t;
        const QString type = o.value(QStringLiteral("e")).toString();
        bool known = false;
        for (Type candidate : allTypes) {
            if (Event::typeName(candidate) == type) {
                e.type = candidate;
                known = true;
                break;
            }
        }
        if (!known)
            return fail(
                QStringLiteral("line %1: unknown event \"%2\"").arg(QString::number(lineNo), type.left(40)));
        if (o.contains(QStringLiteral("base64"))) {
            const auto decoded =
                QByteArray::fromBase64Encoding(o.value(QStringLiteral("base64")).toString().toLatin1(),
                                               QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded)
                return fail(QStringLiteral("line %1: \"base64\" is not base64").arg(lineNo));
            e.text = *decoded;
        } else {
            e.text = o.value(QStringLiteral("text")).toString().toUtf8();
        }
        if ((e.type == Type::Send || e.type == Type::Receive) && e.text.isEmpty())
            return fail(
                QStringLiteral("line %1: a %2 event without its message").arg(QString::number(lineNo), type));
        e.id = o.value(QStringLiteral("id"));
        if (o.contains(QStringLiteral("error")))
            e.error = McpError::fromJson(o.value(QStringLiteral("error")).toObject());
        e.byClient = o.value(QStringLiteral("byClient")).toBool();
        rec.events.append(e);
    }
    // Compared as doubles: a hostile count (1e308) must not reach a cast to an integer.
    if (announced >= 0 && double(rec.events.size()) != announced)
        return fail(
            QStringLiteral("the file holds %1 of the %2 events its header announces: it was cut short")
                .arg(QString::number(rec.events.size()), QString::number(announced, 'g', 17)));
    if (rec.events.isEmpty() || rec.events.constFirst().type != Type::Start)
        return fail(QStringLiteral("the session records no connection"));
    return rec;
}

bool SessionRecording::save(const QString &path, QString *error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    file.write(toJsonLines());
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

std::optional<SessionRecording> SessionRecording::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = file.errorString();
        return std::nullopt;
    }
    // The read is bounded, not only the size a file says it has: a pipe or a device (/dev/zero)
    // says 0 and never ends. The header line comes first, so such a file is refused once its first
    // MaxHeaderBytes hold no line end. Read in blocks: QFile::readLine() reads such a device in
    // tiny reads (4.9 million read() calls for /dev/zero, 23 s of CPU).
    QByteArray data;
    bool lineEnded = false;
    while (!lineEnded && data.size() < MaxHeaderBytes) {
        const QByteArray block = file.read(qMin<qint64>(1024 * 1024, MaxHeaderBytes - data.size()));
        if (block.isEmpty())
            break; // the end of the file
        lineEnded = block.contains('\n');
        data += block;
    }
    if (!lineEnded && data.size() >= MaxHeaderBytes) {
        if (error)
            *error = QStringLiteral("not a Folio session: its first line is not a \"%1\" header")
                         .arg(formatName());
        return std::nullopt;
    }
    data += file.read(MaxFileBytes + 1 - data.size());
    if (data.size() > MaxFileBytes || file.size() > MaxFileBytes) {
        if (error)
            *error = QStringLiteral("the file is over the %1 a session may be")
                         .arg(McpError::sizeText(MaxFileBytes));
        return std::nullopt;
    }
    return fromJsonLines(data, error);
}

ServerConfig SessionRecording::replayConfig(const QString &path) const
{
    ServerConfig config;
    config.name = name;
    config.replayFile = QFileInfo(path).absoluteFilePath();
    if (kind == QLatin1String("http")) {
        config.kind = ServerConfig::Kind::Http;
        config.url = QUrl(target);
    } else {
        config.kind = ServerConfig::Kind::Stdio;
        config.command = target;
    }
    return config;
}

QString SessionRecording::demoScenarioOf(const ServerConfig &config)
{
    if (config.kind != ServerConfig::Kind::Stdio ||
        !QFileInfo(config.command).fileName().startsWith(QLatin1String("folio-demo-server")))
        return {};
    const qsizetype at = config.arguments.indexOf(QStringLiteral("--scenario"));
    return at >= 0 && at + 1 < config.arguments.size() ? config.arguments.at(at + 1) : QStringLiteral("tour");
}

// --- SessionRecorder -----------------------------------------------------------------------------

SessionRecorder::SessionRecorder(QObject *parent)
    : QObject(parent)
{
    restart();
}

void SessionRecorder::restart()
{
    m_events.clear();
    m_bytes = 0;
    m_cut = false;
    m_clientClosing = false;
    m_offeredEvent = -1;
    m_offeredRaw.clear();
    m_clock.start();
    m_startedAtMs = QDateTime::currentMSecsSinceEpoch();
}

void SessionRecorder::add(SessionRecording::Event event)
{
    if (m_cut)
        return;
    const qint64 size = event.text.size() + 64;
    if (m_bytes + size > m_capBytes) {
        m_cut = true;
        return;
    }
    m_bytes += size;
    event.t = elapsedMs();
    m_events.append(std::move(event));
}

SessionRecording::Event *SessionRecorder::offered(const QByteArray &raw)
{
    if (m_offeredEvent < 0 || m_offeredEvent >= m_events.size())
        return nullptr;
    const bool same = (raw.isSharedWith(m_offeredRaw) || raw == m_offeredRaw);
    SessionRecording::Event *e = same ? &m_events[m_offeredEvent] : nullptr;
    m_offeredEvent = -1;
    m_offeredRaw.clear();
    return e;
}

void SessionRecorder::attach(Transport *transport)
{
    SessionRecording::Event start;
    start.type = Type::Start;
    start.text = transport->kindName().toUtf8();
    add(start);
    m_clientClosing = false;
    transport->setRecorder(this);
    auto simple = [this](Type type, const QByteArray &text = {}, const McpError &error = {},
                         const QJsonValue &id = {}) {
        SessionRecording::Event e;
        e.type = type;
        e.text = text;
        e.error = error;
        e.id = id;
        add(e);
    };
    connect(transport, &Transport::opened, this, [simple] { simple(Type::Open); });
    connect(transport, &Transport::malformedMessage, this,
            [this, simple](const QByteArray &raw, const McpError &error) {
                if (SessionRecording::Event *e = offered(raw)) {
                    e->type = Type::Malformed;
                    e->error = error;
                } else {
                    simple(Type::Malformed, raw, error);
                }
            });
    connect(transport, &Transport::requestFailed, this,
            [simple](const QJsonValue &id, const McpError &error) { simple(Type::Fail, {}, error, id); });
    connect(transport, &Transport::closed, this, [this](const McpError &error) {
        SessionRecording::Event e;
        e.type = Type::Close;
        e.error = error;
        e.byClient = m_clientClosing;
        add(e);
    });
    connect(transport, &Transport::diagnostic, this,
            [simple](const QString &line) { simple(Type::Diagnostic, line.toUtf8()); });
}

void SessionRecorder::noteSent(const QByteArray &encoded)
{
    SessionRecording::Event e;
    e.type = Type::Send;
    e.text = encoded;
    add(e);
}

void SessionRecorder::withdrawOffered(const QByteArray &raw)
{
    const int event = m_offeredEvent;
    if (offered(raw) && event == int(m_events.size()) - 1) {
        m_bytes -= m_events.last().text.size() + 64;
        m_events.removeLast();
    }
}

void SessionRecorder::noteOffered(const QByteArray &raw)
{
    SessionRecording::Event e;
    e.type = Type::Receive;
    e.text = raw;
    add(e);
    if (m_cut)
        return;
    m_offeredEvent = int(m_events.size()) - 1;
    m_offeredRaw = raw;
}

} // namespace folio
