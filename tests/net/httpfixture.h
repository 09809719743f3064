#pragma once

#include "serverconfig.h"
#include "serverprocess.h"

#include <QList>
#include <QProcess>

// folio-fixture-server (tests/fixtures) in --mode mode over HTTP on a port of its choosing, started
// as a child of owner and kept in servers (for testsupport::stopAll), and a config that reaches it:
// named "fixture-http", its url where the fixture says it listens (.../mcp), empty when it did not
// start. What the fixture printed on stderr meanwhile is added to *said when given.
inline folio::ServerConfig httpFixtureConfig(QObject *owner, QList<QProcess *> &servers, const QString &mode,
                                             int requestTimeoutMs, QByteArray *said = nullptr)
{
    auto *proc = new QProcess(owner);
    servers.append(proc);
    proc->start(QStringLiteral(FOLIO_FIXTURE_SERVER),
                {QStringLiteral("--mode"), mode, QStringLiteral("--http"), QStringLiteral("0")});
    folio::ServerConfig c = folio::ServerConfig::remote(QUrl());
    c.name = QStringLiteral("fixture-http");
    c.requestTimeoutMs = requestTimeoutMs;
    if (!proc->waitForStarted(5000))
        return c;
    c.url = QUrl(testsupport::listeningUrl(*proc, 5000, said));
    return c;
}
