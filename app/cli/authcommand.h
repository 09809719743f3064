#pragma once

#include "clisession.h"
#include "command.h"
#include "oauth.h"
#include "serverconfig.h"

namespace folio {

class OAuthFlow;
class SecretStore;
class SignInStore;

// `folio auth login|status|logout --url URL`: signs in to an HTTP server the way the window does
// (the same Authorizer and OAuthFlow), prints each step of the sign-in as it ends, and keeps the
// tokens in the keychain for `folio list`, `folio audit` and the window; or says what is saved;
// or forgets it.
class AuthCommand : public Command
{
    Q_OBJECT
public:
    enum class Action { Login, Status, Logout };
    struct Options
    {
        Action action = Action::Status;
        bool noBrowser = false; // print the URL and wait for the redirect
        bool verbose = false;   // the HTTP exchanges of each step too (secrets masked)
        ServerConfig server;
        // The grant and the credentials given for it (--grant, --client-id, …); secrets read from
        // the environment or files, never from the command line.
        OAuthClientSettings client;
    };

    static int parse(const QStringList &arguments, Options *options);
    static QString helpText();

    explicit AuthCommand(const Options &options, QObject *parent = nullptr);
    void start() override;

private:
    void login();
    void status();
    void logout();
    void printSteps(OAuthFlow *flow);
    void finish(int exitCode);

    Options m_options;
    SecretStore *m_secrets = nullptr;
    SignInStore *m_store = nullptr;
    CliSession *m_session = nullptr;
    int m_printedSteps = 0;
    bool m_done = false;
    int m_exitCode = 0;
};

} // namespace folio
