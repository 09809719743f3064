#pragma once

#include "mcperror.h"
#include "serverconfig.h"

#include <QObject>
#include <QTimer>
#include <QUrl>

#include <functional>

namespace folio {

class McpClient;
class SecretStore;
class SignInStore;

// One command's connection to its server: fills a saved server's secrets from the keychain,
// connects, and keeps a watchdog that fires when nothing at all has happened for longer than the
// request timeout (every request has its own timeout; the watchdog is the net under them).
class CliSession : public QObject
{
    Q_OBJECT
public:
    // Where a saved HTTP server's bearer token comes from.
    enum class KeychainToken {
        None,     // not from the keychain (none, or --token-env)
        Optional, // perhaps saved: a keychain that cannot be read is said, and we go on without
        Required, // saved there: a keychain that cannot be read stops the command
    };

    CliSession(const ServerConfig &config, KeychainToken keychain, QObject *parent = nullptr);
    ~CliSession() override;

    McpClient *client() const { return m_client; }
    // An HTTP server's saved sign-in (OAuth), used and refreshed but never started here (that is
    // `folio auth login`): null for stdio, replays and --token-env. Made by start().
    SignInStore *signIn() const { return m_signIn; }
    // Sign-ins may be started when the server asks (folio auth login); not by default.
    void setInteractiveSignIn(std::function<void(const QUrl &)> browser);

    void start();
    // Something happened: the watchdog starts counting again.
    void kick();
    void stopWatchdog() { m_watchdog.stop(); }
    // Disconnects gracefully (stdio: stdin closed, then SIGTERM, then SIGKILL) and emits shutDown();
    // never takes longer than a couple of seconds.
    void shutdown();

Q_SIGNALS:
    // Connected; client() is ready for requests.
    void ready();
    // The server could not be reached (or its token could not be read); message says why.
    void failed(const QString &message);
    // Nothing happened for longer than the timeout allows.
    void watchdogFired(const QString &message);
    void shutDown();

private:
    void connectNow();
    SecretStore *secrets(); // made at the first secret asked for: most runs open no keychain
    void handleDisconnected(const McpError &error);

    McpClient *m_client;
    SecretStore *m_secrets = nullptr;
    SignInStore *m_signIn = nullptr;
    bool m_interactive = false;
    std::function<void(const QUrl &)> m_browser;
    QTimer m_watchdog;
    KeychainToken m_keychain;
    bool m_connected = false;
    bool m_shuttingDown = false;
    bool m_shutDownEmitted = false;
};

} // namespace folio
