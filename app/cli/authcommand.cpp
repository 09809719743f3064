#include "authcommand.h"

#include "clioutput.h"
#include "commandline.h"
#include "machinesignin.h"
#include "mcpclient.h"
#include "oauthflow.h"
#include "secretstore.h"
#include "signinstore.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QProcess>
#include <QTimer>

namespace folio {

QString AuthCommand::helpText()
{
    return QStringLiteral(
        "Usage: folio auth login|status|logout --url URL [options]\n"
        "\n"
        "Signs in to an HTTP MCP server by OAuth 2.1, as the MCP authorization spec asks, and keeps\n"
        "the tokens in the keychain, where `folio list`, `folio audit` and the window find them.\n"
        "\n"
        "  login     connect; when the server asks for sign-in, discover its authorization server,\n"
        "            register (client ID metadata document, pre-registration or dynamic\n"
        "            registration), open the browser on the authorization page and wait for its\n"
        "            redirect to 127.0.0.1; every step is printed as it ends\n"
        "  status    what is saved for the server: who, where, scopes, expiry\n"
        "  logout    forget the server's tokens (here and in the keychain)\n"
        "\n"
        "Options:\n"
        "  --no-browser    print the authorization URL instead of opening a browser, and wait\n"
        "                  for the redirect (open the URL on this machine, or forward the port)\n"
        "  --grant KIND    how to get tokens: authorization-code (the browser; the default),\n"
        "                  client-credentials (a machine: --client-id and --client-secret-env or\n"
        "                  --client-key), jwt-bearer (a workload's JWT: --assertion-file), or\n"
        "                  enterprise (your IdP's ID token exchanged for an ID-JAG: --id-token-file,\n"
        "                  --idp-token-endpoint, --idp-client-id, --client-id, --client-secret-env)\n"
        "  --client-id ID  Folio's client at the authorization server (pre-registered)\n"
        "  --client-secret-env VAR   its secret, read from the environment variable VAR\n"
        "  --client-key FILE         a PEM private key (EC or RSA): private_key_jwt\n"
        "  --assertion-file FILE     the workload's JWT (a platform's projected token file)\n"
        "  --id-token-file FILE      the ID token from your identity provider\n"
        "  --idp-token-endpoint URL  the identity provider's token endpoint\n"
        "  --idp-client-id ID        Folio's client there (--idp-client-secret-env VAR: its secret)\n"
        "  --no-dpop       send Bearer tokens even where the server offers DPoP-bound ones\n"
        "  -v, --verbose   also print each step's HTTP requests and answers (secrets masked)\n"
        "  --url URL, --server NAME, --header 'Name: value', --timeout MS  as for folio list\n"
        "\n"
        "Exit status: 0 signed in (login, status) or signed out (logout); 1 the sign-in failed or\n"
        "status finds none; 2 bad usage or the keychain could not be used.\n"
        "\n"
        "The client secret, key and DPoP key are kept with the tokens in the keychain, so that a\n"
        "client credentials token is renewed without asking again.\n"
        "\n"
        "Examples:\n"
        "  folio auth login --url https://mcp.example.com/mcp\n"
        "  CLIENT_SECRET=… folio auth login --url https://mcp.example.com/mcp \\\n"
        "      --grant client-credentials --client-id ci-bot --client-secret-env CLIENT_SECRET\n"
        "  folio auth status --url https://mcp.example.com/mcp\n");
}

int AuthCommand::parse(const QStringList &arguments, Options *options)
{
    CommandLine line(QStringLiteral("auth"), arguments, QString());
    const QCommandLineOption noBrowser(QStringLiteral("no-browser"), QStringLiteral("no browser"));
    const QCommandLineOption noDpop(QStringLiteral("no-dpop"), QStringLiteral("no DPoP"));
    const auto valued = [](const char *name) {
        return QCommandLineOption(QLatin1String(name), QLatin1String(name), QStringLiteral("value"));
    };
    const QCommandLineOption grant = valued("grant"), clientId = valued("client-id"),
                             clientSecretEnv = valued("client-secret-env"), clientKey = valued("client-key"),
                             assertionFile = valued("assertion-file"), idTokenFile = valued("id-token-file"),
                             idpEndpoint = valued("idp-token-endpoint"),
                             idpClientId = valued("idp-client-id"),
                             idpSecretEnv = valued("idp-client-secret-env");
    line.parser().addOptions({noBrowser, noDpop, grant, clientId, clientSecretEnv, clientKey, assertionFile,
                              idTokenFile, idpEndpoint, idpClientId, idpSecretEnv});
    if (const int code = line.parse(helpText()); code != ParseOk)
        return code;
    const QStringList positional = line.positional();
    if (positional.size() != 1)
        return line.usage(QStringLiteral("say login, status or logout"));
    const QString action = positional.constFirst();
    if (action == QLatin1String("login"))
        options->action = Action::Login;
    else if (action == QLatin1String("status"))
        options->action = Action::Status;
    else if (action == QLatin1String("logout"))
        options->action = Action::Logout;
    else
        return line.usage(QStringLiteral("'%1' is not login, status or logout").arg(action));
    options->noBrowser = line.parser().isSet(noBrowser);
    const QCommandLineParser &p = line.parser();
    MachineSignIn form; // the one reading of a machine's credentials, as the window's
    form.grant = OAuthGrant::AuthorizationCode;
    if (p.isSet(grant)) {
        const std::optional<OAuthGrant> g = grantFromKey(p.value(grant));
        if (!g)
            return line.usage(QStringLiteral(
                "--grant is authorization-code, client-credentials, jwt-bearer or enterprise"));
        form.grant = *g;
    }
    form.dpop = !p.isSet(noDpop);
    form.clientId = p.value(clientId);
    form.keyFile = p.value(clientKey);
    form.assertionFile = p.value(assertionFile);
    form.idTokenFile = p.value(idTokenFile);
    form.idpTokenEndpoint = QUrl(p.value(idpEndpoint));
    form.idpClientId = p.value(idpClientId);
    if (!form.keyFile.isEmpty() && form.grant != OAuthGrant::ClientCredentials)
        return line.usage(QStringLiteral("--client-key is for --grant client-credentials"));
    // Secrets come from the environment or from files: a command line is seen by every user of the
    // machine (ps) and kept in shell history.
    for (const auto &[option, out] :
         {std::pair{&clientSecretEnv, &form.clientSecret}, std::pair{&idpSecretEnv, &form.idpClientSecret}}) {
        if (!p.isSet(*option))
            continue;
        const QString name = p.value(*option);
        *out = qEnvironmentVariable(name.toLocal8Bit().constData());
        if (out->isEmpty())
            return line.usage(QStringLiteral("the environment variable %1 (--%2) is empty or unset")
                                  .arg(name, option->names().constFirst()));
    }
    QString problem;
    const std::optional<OAuthClientSettings> settings = form.settings(&problem);
    if (!settings)
        return line.usage(QStringLiteral("--grant %1: %2").arg(grantKey(form.grant), problem));
    options->client = *settings;
    options->verbose = line.verbose();
    if (!line.readTarget(&options->server, nullptr, &problem))
        return line.usage(problem);
    if (!options->server.canSignIn())
        return line.usage(
            QStringLiteral("sign-in is for HTTP servers: give --url URL (a stdio server reads its "
                           "credentials from its environment)"));
    return ParseOk;
}

AuthCommand::AuthCommand(const Options &options, QObject *parent)
    : Command(parent)
    , m_options(options)
{}

void AuthCommand::start()
{
    switch (m_options.action) {
    case Action::Login:
        login();
        return;
    case Action::Status:
    case Action::Logout:
        m_secrets = SecretStore::forApplication(this);
        m_store = new SignInStore(m_options.server.url, m_secrets, this);
        m_store->load([this] { m_options.action == Action::Status ? status() : logout(); });
        return;
    }
}

void AuthCommand::printSteps(OAuthFlow *flow)
{
    // Each step once, as it ends (a step that waits for the browser is printed when it is done).
    const QList<AuthStep> &steps = flow->steps();
    while (m_printedSteps < steps.size()) {
        const AuthStep &step = steps.at(m_printedSteps);
        if (step.state == AuthStep::State::Running || step.state == AuthStep::State::Waiting)
            return;
        printErr(describeSteps({step}, m_options.verbose, m_printedSteps + 1));
        ++m_printedSteps;
    }
}

void AuthCommand::login()
{
    ServerConfig config = m_options.server;
    m_session = new CliSession(config, CliSession::KeychainToken::None, this);
    const bool noBrowser = m_options.noBrowser;
    m_session->setInteractiveSignIn([noBrowser](const QUrl &url) {
        const QString text = url.toString(QUrl::FullyEncoded);
        if (noBrowser) {
            printErr(QStringLiteral("Open this URL in a browser on this machine to sign in:\n\n  %1\n\n"
                                    "Waiting for the redirect to 127.0.0.1 …\n")
                         .arg(text));
            return;
        }
        printErr(QStringLiteral("Opening the browser to sign in. If none opens, open this URL:\n\n  %1\n\n")
                     .arg(text));
        QProcess::startDetached(QStringLiteral("xdg-open"), {text});
    });
    connect(m_session, &CliSession::failed, this, [this](const QString &message) {
        printErr(QStringLiteral("folio auth: %1\n").arg(message));
        finish(1);
    });
    connect(m_session, &CliSession::watchdogFired, this, [this](const QString &message) {
        printErr(QStringLiteral("folio auth: %1\n").arg(message));
        finish(1);
    });
    connect(m_session, &CliSession::shutDown, this, [this] { Q_EMIT finished(m_done ? m_exitCode : 1); });
    connect(m_session, &CliSession::ready, this, [this] {
        SignInStore *store = m_session->signIn();
        OAuthFlow *flow = store ? store->authorizer()->flow() : nullptr;
        if (flow)
            printSteps(flow);
        if (!flow) {
            printErr(
                store && store->authorizer()->isSignedIn()
                    ? QStringLiteral("The saved sign-in still works: %1\n")
                          .arg(store->statusText(QDateTime::currentMSecsSinceEpoch()))
                    : QStringLiteral("%1 did not ask for sign-in.\n").arg(m_options.server.displayTarget()));
            finish(0);
            return;
        }
        // The tokens are in the keychain once it answered (or said it could not).
        auto done = [this, store] {
            printOut(store->statusText(QDateTime::currentMSecsSinceEpoch()) + QLatin1Char('\n'));
            if (!store->keychainProblem().isEmpty())
                printErr(QStringLiteral("folio auth: %1\n").arg(store->keychainProblem()));
            finish(0);
        };
        if (store->isSaving())
            connect(store, &SignInStore::saved, this, done);
        else
            done();
    });
    m_session->start();
    // start() made the sign-in store: print the steps of each flow as they end.
    SignInStore *store = m_session->signIn();
    store->authorizer()->setClientSettings(m_options.client);
    connect(store->authorizer(), &Authorizer::flowStarted, this, [this](OAuthFlow *flow) {
        m_printedSteps = 0;
        connect(flow, &OAuthFlow::stepChanged, this, [this, flow] { printSteps(flow); });
        connect(flow, &OAuthFlow::stepAdded, this, [this, flow] { printSteps(flow); });
        connect(flow, &OAuthFlow::finished, this, [this, flow] {
            printSteps(flow);
            if (!flow->succeeded())
                printErr(QStringLiteral("folio auth: %1\n").arg(flow->error().describe()));
        });
    });
}

void AuthCommand::status()
{
    if (!m_store->keychainProblem().isEmpty()) {
        printErr(QStringLiteral("folio auth: %1\n").arg(m_store->keychainProblem()));
        finish(2);
        return;
    }
    const AuthRecord &r = m_store->authorizer()->record();
    printOut(m_options.server.displayTarget() + QStringLiteral(": ") +
             m_store->statusText(QDateTime::currentMSecsSinceEpoch()) + QLatin1Char('\n'));
    if (r.isSignedIn()) {
        const OAuthClient client = r.clientFor(r.issuer);
        printOut(QStringLiteral("  client:   %1 (%2)\n")
                     .arg(client.clientId, OAuthClient::sourceName(client.source)));
        printOut(QStringLiteral("  grant:    %1\n").arg(grantName(r.grant)));
        if (r.isDpopBound())
            printOut(QStringLiteral("  token:    DPoP-bound (key thumbprint %1)\n")
                         .arg(SigningKey::fromPem(r.dpopKeyPem).thumbprint()));
        printOut(QStringLiteral("  refresh:  %1\n")
                     .arg(r.tokens.refreshToken.isEmpty() ? QStringLiteral("no refresh token was issued")
                                                          : QStringLiteral("a refresh token is kept")));
    }
    finish(r.isSignedIn() ? 0 : 1);
}

void AuthCommand::logout()
{
    const bool was = m_store->authorizer()->isSignedIn();
    connect(m_secrets, &SecretStore::stored, this, [this](const QString &) {
        printOut(QStringLiteral("Signed out of %1.\n").arg(m_options.server.displayTarget()));
        finish(0);
    });
    connect(m_secrets, &SecretStore::removed, this, [this](const QString &) {
        printOut(QStringLiteral("Signed out of %1.\n").arg(m_options.server.displayTarget()));
        finish(0);
    });
    connect(m_secrets, &SecretStore::failed, this,
            [this](const QString &, SecretStore::Failure, const QString &message) {
                printErr(QStringLiteral("folio auth: %1\n").arg(message));
                finish(2);
            });
    if (!was) {
        printOut(QStringLiteral("Not signed in to %1.\n").arg(m_options.server.displayTarget()));
        finish(0);
        return;
    }
    m_store->signOut();
}

void AuthCommand::finish(int exitCode)
{
    if (m_done)
        return;
    m_done = true;
    m_exitCode = exitCode;
    if (m_session) {
        m_session->shutdown();
        return;
    }
    QTimer::singleShot(0, this, [this] { Q_EMIT finished(m_exitCode); });
}

} // namespace folio
