#pragma once

#include "lineframer.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>

class QSocketNotifier;

namespace folio {

class SessionRecorder;
class StdioTransport;

// `folio tap`'s stdio relay: Folio stands between a client (which started Folio in place of a
// server) and the server, which Folio starts. Every byte passes unchanged in both directions: what
// the client writes on Folio's stdin goes to the server's stdin, what the server writes on its
// stdout goes to Folio's stdout, and the server's stderr goes to Folio's stderr untouched
// (StdioTransport's relay mode). Nothing is reframed, re-encoded, added or dropped. Beside the
// relay, each direction is cut into lines (LineFramer, the stdio transport's framing) and each
// whole line is told as framePassed() for the judge and the recording; a line over the message
// cap is relayed but not told.
//
// The server runs as Folio runs every stdio server (a process group of its own, stopped with its
// children, killed if Folio dies). When the client goes (end of file on Folio's stdin, or its
// end of Folio's stdout closed), the server's stdin is closed and it is stopped as Folio stops
// servers; when the server exits, what it wrote is relayed, then finished() says its exit status,
// which `folio tap` exits with, so the client sees the server exit.
class TapRelay : public QObject
{
    Q_OBJECT
public:
    enum class From { Client, Server };

    explicit TapRelay(QObject *parent = nullptr);
    ~TapRelay() override;

    void setProgram(const QString &program, const QStringList &arguments);
    void setShutdownGraceMs(int ms);
    // Records the session (before start()): the server's start, open and close, and each line told,
    // the client's as sent and the server's as received.
    void setRecorder(SessionRecorder *recorder);

    void start();
    // The milliseconds since start(): the time framePassed() gives.
    qint64 elapsedMs() const;
    // The server's exit status once finished() (127 when it could not be started).
    int exitStatus() const { return m_exitStatus; }
    // Lines too long to tell (over the 64 MiB message cap; relayed all the same), per direction.
    qint64 untoldLines(From from) const;

Q_SIGNALS:
    // One whole line that passed (without its newline), at t ms since start().
    void framePassed(folio::TapRelay::From from, const QByteArray &frame, qint64 t);
    // The client is gone (t ms since start()); the server is being stopped.
    void clientGone(qint64 t);
    // The server could not be started (why), or exited and everything it wrote has been relayed.
    void finished(int exitStatus, const QString &why);

private:
    void readClient();
    void writeClient(const QByteArray &bytes);
    void tell(From from, LineFramer *framer, QByteArrayView bytes);
    void stopReadingClient();
    void onServerClosed(const QString &why, bool spawnFailed);

    StdioTransport *m_server;
    QSocketNotifier *m_clientIn = nullptr;
    bool m_clientGone = false;
    bool m_writeFailed = false;
    int m_exitStatus = -1;
    LineFramer m_fromClient;
    LineFramer m_fromServer;
    qint64 m_untold[2] = {0, 0};
    QElapsedTimer m_clock;
    SessionRecorder *m_recorder = nullptr;
};

} // namespace folio
