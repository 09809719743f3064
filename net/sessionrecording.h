#pragma once

#include "mcperror.h"
#include "serverconfig.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <optional>

namespace folio {

class Transport;

// What one connection to a server carried, with timings, and what the server said it is: a
// recorded session (a .folio file), replayed by ReplayTransport with no server and no network.
// The file is JSON Lines: a header, then one event a line (docs/session-format.md).
struct SessionRecording
{
    static constexpr int FormatVersion = 1;
    static QString formatName() { return QStringLiteral("folio-session"); }
    // Files larger than this are refused before they are read.
    static constexpr qint64 MaxFileBytes = 2LL * 1024 * 1024 * 1024;
    static constexpr qint64 MaxHeaderBytes = 16LL * 1024 * 1024; // the first line, server info included

    struct Event
    {
        enum class Type {
            Start,      // a transport was made (text: its kind, "stdio", "streamable-http", ...)
            Open,       // it opened
            Send,       // a message went out (text: its bytes)
            Receive,    // a message came in (text: its exact bytes)
            Malformed,  // bytes came in that were not a message (text, error)
            Fail,       // a request failed below JSON-RPC (id, error): HTTP 500, a network error
            Close,      // the connection closed (error: why; kind none when cleanly)
            Diagnostic, // a line of the server's stderr or of the HTTP session (text)
        };
        qint64 t = 0; // ms since the recording began
        Type type = Type::Send;
        QByteArray text;
        QJsonValue id;
        McpError error;
        bool byClient = false; // Close: the client closed it (disconnect, shutdown), not the server

        static QString typeName(Type type);
    };

    // The server as Folio knew it.
    QString name;
    QString kind;         // "stdio" or "http"
    QString target;       // its command line or URL, secrets masked
    QString demoScenario; // the demo server's scenario, when it is the demo
    QString revision;     // negotiated
    QString transport;    // what carried it last ("stdio", "streamable-http", "http+sse")
    QJsonObject serverInfo;
    QJsonObject capabilities;
    QString instructions;
    qint64 recordedAtMs = 0; // wall clock when the recording began
    qint64 durationMs = 0;
    QString folioVersion;
    QStringList stripped; // what was left out or masked, as a person reads it
    bool cut = false;     // the recording stopped at its size cap: later traffic is missing
    // Set on a recording made by `folio tap`: its Send events are another client's messages, not
    // Folio's. {"client": the clientInfo it gave, when it gave one}; empty for Folio's own.
    QJsonObject tap;
    bool isTap() const { return !tap.isEmpty(); }
    QList<Event> events;

    QByteArray toJsonLines() const;
    // A damaged, truncated, foreign or newer file gets nullopt and, in *error, what is wrong and
    // where ("line 12: ..."). Never throws, never asserts, whatever the bytes.
    static std::optional<SessionRecording> fromJsonLines(const QByteArray &data, QString *error);

    bool save(const QString &path, QString *error) const;
    static std::optional<SessionRecording> load(const QString &path, QString *error);

    // The config a replay of the file at path runs with: named after the recorded server, shown
    // as its target, its transport the file (ServerConfig::replayFile).
    ServerConfig replayConfig(const QString &path) const;
    // The demo server's scenario when config runs folio-demo-server, else empty.
    static QString demoScenarioOf(const ServerConfig &config);
};

// Records what a client's transports carry: attach() each transport before its connection is
// made, so that an incoming message is recorded before anything it causes is sent. Bounded: past
// the cap nothing more is kept, and the recording says it was cut.
class SessionRecorder : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 DefaultCapBytes = 256LL * 1024 * 1024;

    explicit SessionRecorder(QObject *parent = nullptr);

    void setCapBytes(qint64 bytes) { m_capBytes = bytes; }
    // Forgets everything; time starts again at 0.
    void restart();
    void attach(Transport *transport);
    // The client is closing the connection: the close that follows is its own, not the server's
    // (a replay closes when its own client does, not at the recorded time).
    void noteClientClosing() { m_clientClosing = true; }

    // Called by Transport: a message going out; a frame handed up, before it is read; and that
    // frame taken back (it was no message).
    void noteSent(const QByteArray &encoded);
    void noteOffered(const QByteArray &raw);
    void withdrawOffered(const QByteArray &raw);

    const QList<SessionRecording::Event> &events() const { return m_events; }
    qint64 bytes() const { return m_bytes; }
    bool isCut() const { return m_cut; }
    qint64 startedAtMs() const { return m_startedAtMs; }
    qint64 elapsedMs() const { return m_clock.isValid() ? m_clock.elapsed() : 0; }

private:
    void add(SessionRecording::Event event);
    // The event recorded for bytes just offered, when raw is those bytes.
    SessionRecording::Event *offered(const QByteArray &raw);

    QList<SessionRecording::Event> m_events;
    QElapsedTimer m_clock;
    qint64 m_startedAtMs = 0;
    qint64 m_bytes = 0;
    qint64 m_capBytes = DefaultCapBytes;
    bool m_cut = false;
    bool m_clientClosing = false;
    int m_offeredEvent = -1;
    QByteArray m_offeredRaw;
};

} // namespace folio
