#include "clisession.h"

#include "clilogging.h"
#include "clioutput.h"
#include "jsonrpcconnection.h"
#include "mcpclient.h"
#include "secretstore.h"
#include "signinstore.h"
#include "trafficlog.h"
#include "transport.h"

namespace folio {

namespace {
// Slack over the request timeout before the watchdog calls a command stuck: the handshake's own
// steps (spawn, discover probe, initialize) each log traffic, so a live command always kicks it.
constexpr int watchdogSlackMs = 2000;
constexpr int shutdownGraceMs = 3000;
} // namespace

CliSession::CliSession(const ServerConfig &config, KeychainToken keychain, QObject *parent)
    : QObject(parent)
    , m_client(new McpClient(this))
    , m_keychain(keychain)
{
    m_client->setConfig(config);
    // The log is only watched for activity here (the watchdog); keeping and redacting every
    // message's text cost a long walk 8 % of its time and its size in memory.
    m_client->trafficLog()->setKeepText(false);
    m_watchdog.setSingleShot(true);
    m_watchdog.setInterval(config.requestTimeoutMs + watchdogSlackMs);
    connect(&m_watchdog, &QTimer::timeout, this, [this] {
        qCDebug(lcCli) << "watchdog fired after" << m_watchdog.interval() << "ms of silence";
        const QString what = m_connected ? QStringLiteral("the server") : QStringLiteral("the connection");
        Q_EMIT watchdogFired(QStringLiteral("nothing happened on %1 for %2 ms (--timeout-ms %3); giving up")
                                 .arg(what, QString::number(m_watchdog.interval()),
                                      QString::number(m_client->config().requestTimeoutMs)));
    });
    connect(m_client->trafficLog(), &TrafficLog::entryAppended, this, &CliSession::kick);
    // Diagnostics are logged where they arise (folio.net.*), which -v shows; here they only count
    // as activity.
    connect(m_client, &McpClient::diagnostic, this, &CliSession::kick);
    // Said at once: a server that logs on stdout breaks the stdio transport, and the handshake
    // would otherwise only time out.
    connect(m_client, &McpClient::strayOutput, this, [](const QString &line) {
        printErr(QStringLiteral("folio: the server wrote a line on stdout that is not JSON-RPC: \"%1\" "
                                "(a stdio server writes only JSON-RPC messages there; its logs go to "
                                "stderr)\n")
                     .arg(line));
    });
    connect(m_client, &McpClient::connected, this, [this] {
        m_connected = true;
        kick();
        Q_EMIT ready();
    });
    connect(m_client, &McpClient::disconnected, this, &CliSession::handleDisconnected);
}

CliSession::~CliSession() = default;

void CliSession::kick()
{
    if (!m_shuttingDown)
        m_watchdog.start();
}

void CliSession::setInteractiveSignIn(std::function<void(const QUrl &)> browser)
{
    m_interactive = true;
    m_browser = std::move(browser);
}

void CliSession::start()
{
    kick();
    const ServerConfig &config = m_client->config();
    if (!m_signIn && config.canSignIn() && config.bearerToken.isEmpty()) {
        m_signIn = new SignInStore(config.url, secrets(), this);
        Authorizer *authorizer = m_signIn->authorizer();
        authorizer->setInteractive(m_interactive);
        authorizer->setBrowser(m_browser);
        authorizer->setSignInHint(QStringLiteral("folio auth login --url ") +
                                  config.url.toString(QUrl::RemoveUserInfo));
        m_client->setAuthorizer(authorizer);
        // A sign-in in the browser is the user's time: the watchdog does not count it.
        connect(authorizer, &Authorizer::flowStarted, this, [this] { m_watchdog.stop(); });
        connect(authorizer, &Authorizer::flowFinished, this, [this] { kick(); });
        m_signIn->load([this] { start(); });
        return;
    }
    // The saved server's secrets, read as the window reads them (fillSecrets): its bearer token
    // (unless it comes another way: KeychainToken::None) and its secret environment values. The
    // keychain is opened only when there is one to read.
    ServerConfig wanted = config;
    if (m_keychain == KeychainToken::None)
        wanted.tokenInKeychain = false;
    if (!wanted.hasKeychainSecrets() || wanted.isReplay()) {
        connectNow();
        return;
    }
    qCDebug(lcCli).noquote() << "the secrets of" << config.name << "come from the keychain"
                             << (m_keychain == KeychainToken::Required ? "(the token required)" : "");
    fillSecrets(secrets(), wanted, this, [this](const ServerConfig &filled, const QList<SecretGap> &gaps) {
        for (const SecretGap &gap : gaps) {
            if (!gap.variable.isEmpty()) {
                // As in the window: the server starts without it, and says what it misses.
                printErr(QStringLiteral("folio: ") + gap.message + QLatin1Char('\n'));
            } else if (gap.notFound) {
                // No token saved: the server may need none.
            } else if (m_keychain == KeychainToken::Required) {
                // Said plainly, and no plaintext fallback: the user can pass --token-env instead.
                Q_EMIT failed(gap.message +
                              QStringLiteral(" (use --token-env VAR to give the token another way)"));
                return;
            } else {
                printErr(QStringLiteral("folio: ") + gap.message +
                         QStringLiteral(" Going on without a token.\n"));
            }
        }
        m_client->setConfig(filled);
        connectNow();
    });
}

SecretStore *CliSession::secrets()
{
    if (!m_secrets)
        m_secrets = SecretStore::forApplication(this);
    return m_secrets;
}

void CliSession::connectNow()
{
    kick();
    m_client->connectToServer();
}

void CliSession::handleDisconnected(const McpError &error)
{
    if (m_shuttingDown)
        return;
    if (!m_connected) {
        Q_EMIT failed(error.isError() ? error.describe() : QStringLiteral("the connection closed"));
        return;
    }
    m_connected = false;
    // Requests in flight finish with their own errors; the command reports them in place.
    if (error.isError())
        printErr(QStringLiteral("folio: connection lost: %1\n").arg(error.describe()));
}

void CliSession::shutdown()
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    qCDebug(lcCli) << "shutting the connection down";
    m_watchdog.stop();
    JsonRpcConnection *connection = m_client->connection();
    Transport *transport = connection ? connection->transport() : nullptr;
    if (!transport || m_client->state() != McpClient::State::Connected) {
        m_client->disconnectFromServer();
        QMetaObject::invokeMethod(this, &CliSession::shutDown, Qt::QueuedConnection);
        return;
    }
    auto *grace = new QTimer(this);
    grace->setSingleShot(true);
    auto finish = [this, grace] {
        grace->stop();
        if (m_shutDownEmitted)
            return;
        m_shutDownEmitted = true;
        Q_EMIT shutDown();
    };
    connect(transport, &Transport::closed, this, finish);
    connect(grace, &QTimer::timeout, this, [finish] {
        qCDebug(lcCli) << "the transport did not close within" << shutdownGraceMs << "ms; leaving it";
        finish();
    });
    grace->start(shutdownGraceMs);
    m_client->disconnectFromServer();
}

} // namespace folio
