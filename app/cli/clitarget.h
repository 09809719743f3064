#pragma once

#include "clisession.h"
#include "serverconfig.h"

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

class QCommandLineParser;

namespace folio {

// Where a subcommand's server is: --url (with --header and --token-env), --server NAME (a saved
// server) or "-- COMMAND ARGS..." (stdio), plus --timeout-ms and --max-message-mb. Parsing only; no I/O but
// the environment and the saved-server settings.
class TargetOptions
{
public:
    static constexpr int DefaultTimeoutMs = 30000;

    TargetOptions();

    void addTo(QCommandLineParser &parser) const;
    // Reads the target from a parsed command line and the words after "--". On failure returns false
    // and says why in *error (a usage error: exit code 2).
    bool read(const QCommandLineParser &parser, const QStringList &stdioCommand, QString *error);

    ServerConfig config() const { return m_config; }
    int timeoutMs() const { return m_config.requestTimeoutMs; }
    // Whether a saved HTTP server's bearer token is to be read from the keychain before connecting.
    CliSession::KeychainToken keychainToken() const { return m_keychain; }

    // The "--" splitting that QCommandLineParser cannot do for us: everything after the first "--"
    // is the stdio server's command line.
    static void splitStdioCommand(const QStringList &arguments, QStringList *options, QStringList *command);

    static QString helpText();

private:
    QCommandLineOption m_url;
    QCommandLineOption m_header;
    QCommandLineOption m_tokenEnv;
    QCommandLineOption m_server;
    QCommandLineOption m_timeout;
    QCommandLineOption m_maxMessage;
    QCommandLineOption m_maxWalk;
    QCommandLineOption m_replay;
    ServerConfig m_config;
    CliSession::KeychainToken m_keychain = CliSession::KeychainToken::None;
};

} // namespace folio
