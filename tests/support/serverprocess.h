#pragma once

// Servers the tests start as processes on a port of their choosing ("--http 0"), and where they
// then listen.

#include <QDeadlineTimer>
#include <QList>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>

namespace testsupport {

// The URL a server started with "--http 0" prints on stderr once it listens ("... listening on
// http://127.0.0.1:PORT/mcp"), waited for up to timeoutMs; empty when it exits first or says nothing
// of the kind. What it printed meanwhile is added to *said when given.
inline QString listeningUrl(QProcess &server, int timeoutMs = 10000, QByteArray *said = nullptr)
{
    static const QRegularExpression listening(QStringLiteral("listening on (http://\\S+)"));
    const QProcess::ProcessChannel channel = server.readChannel();
    server.setReadChannel(QProcess::StandardError);
    QByteArray err;
    QString url;
    const QDeadlineTimer deadline(timeoutMs);
    while (url.isEmpty() && !deadline.hasExpired()) {
        const bool more =
            server.waitForReadyRead(int(qBound(qint64(1), deadline.remainingTime(), qint64(200))));
        err += server.readAllStandardError();
        const QRegularExpressionMatch m = listening.match(QString::fromUtf8(err));
        if (m.hasMatch())
            url = m.captured(1);
        else if (!more && server.state() == QProcess::NotRunning)
            break;
    }
    server.setReadChannel(channel);
    if (said)
        *said += err;
    return url;
}

// Stops the servers a test started (each disconnected first, so that nothing hears it die, then
// killed, waited for up to 2 s and deleted) and empties the list: a test class's cleanup().
inline void stopAll(QList<QProcess *> &servers)
{
    for (QProcess *p : std::as_const(servers)) {
        p->disconnect();
        p->kill();
        p->waitForFinished(2000);
        delete p;
    }
    servers.clear();
}

// A server process on HTTP, killed when this goes (or at stop()); url() is where it listens, empty
// when it did not start.
class HttpServer
{
public:
    HttpServer(const QString &program, const QStringList &arguments)
    {
        m_process.start(program, arguments);
        m_url = listeningUrl(m_process);
    }
    ~HttpServer() { stop(); }
    HttpServer(const HttpServer &) = delete;
    HttpServer &operator=(const HttpServer &) = delete;

    void stop()
    {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    QString url() const { return m_url; }

private:
    QProcess m_process;
    QString m_url;
};

// folio-demo-server over HTTP in this scenario, with more arguments if any.
class HttpDemo : public HttpServer
{
public:
    explicit HttpDemo(const QString &scenario, const QStringList &extra = {})
        : HttpServer(QStringLiteral(FOLIO_DEMO_SERVER),
                     QStringList{QStringLiteral("--scenario"), scenario, QStringLiteral("--http"),
                                 QStringLiteral("0")} +
                         extra)
    {}
};

} // namespace testsupport
