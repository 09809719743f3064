#pragma once

// What the command-line tests share: the real folio binary run to its end, and
// folio-fixture-server over HTTP (tests/fixtures/fixtureserver.cpp) on a port of its choosing.

#include <QDeadlineTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>

#include <memory>

namespace fixtureprocess {

inline const QString folioBinary = QStringLiteral(FOLIO_BINARY_DIR "/app/folio");
inline const QString fixture = QStringLiteral(FOLIO_FIXTURE_SERVER);

struct Run
{
    int exitCode = -1; // -1: it crashed or was killed at the timeout
    QByteArray out;
    QByteArray err;
};

inline Run folio(const QStringList &arguments,
                 const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                 int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(folioBinary, arguments);
    Run run;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    return run;
}

// The fixture over HTTP with these arguments (--mode ...): url is where it listens, read from its
// stderr; empty when it did not start.
class HttpFixture
{
public:
    explicit HttpFixture(const QStringList &arguments)
    {
        m_process.setReadChannel(QProcess::StandardError);
        m_process.start(fixture, arguments + QStringList{QStringLiteral("--http"), QStringLiteral("0")});
        static const QRegularExpression re(QStringLiteral("listening on (http://127\\.0\\.0\\.1:\\d+/mcp)"));
        QByteArray err;
        QDeadlineTimer deadline(10000);
        while (!err.contains('\n') && !deadline.hasExpired() && m_process.waitForReadyRead(200))
            err += m_process.readAllStandardError();
        const auto m = re.match(QString::fromUtf8(err));
        if (m.hasMatch())
            url = m.captured(1);
    }
    ~HttpFixture()
    {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    HttpFixture(const HttpFixture &) = delete;
    HttpFixture &operator=(const HttpFixture &) = delete;
    QString url;

private:
    QProcess m_process;
};

// Where the fixture runs: after "--" for stdio, or at --url (started into *server).
inline QStringList target(bool http, const QStringList &fixtureArguments,
                          std::unique_ptr<HttpFixture> *server)
{
    if (!http)
        return QStringList{QStringLiteral("--"), fixture} + fixtureArguments;
    *server = std::make_unique<HttpFixture>(fixtureArguments);
    return {QStringLiteral("--url"), (*server)->url};
}

} // namespace fixtureprocess
