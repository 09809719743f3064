#include "command.h"

#include "clioutput.h"

namespace folio {

SessionCommand::SessionCommand(const QString &word, const ServerConfig &server,
                               CliSession::KeychainToken keychainToken, QObject *parent)
    : Command(parent)
    , m_session(new CliSession(server, keychainToken, this))
    , m_word(word)
    , m_target(server.displayTarget())
{
    connect(m_session, &CliSession::shutDown, this, [this] { Q_EMIT finished(m_exitCode); });
    connect(m_session, &CliSession::failed, this, [this](const QString &message) {
        connectFailed(QStringLiteral("cannot connect to %1: %2").arg(m_target, message));
    });
}

void SessionCommand::connectFailed(const QString &reason)
{
    fail(2, reason);
}

void SessionCommand::start()
{
    m_session->start();
}

void SessionCommand::finish(int exitCode)
{
    if (m_done)
        return;
    m_done = true;
    m_exitCode = exitCode;
    m_session->shutdown();
}

void SessionCommand::fail(int exitCode, const QString &message)
{
    if (m_done)
        return;
    printErr(QStringLiteral("folio %1: %2\n").arg(m_word, message));
    finish(exitCode);
}

} // namespace folio
