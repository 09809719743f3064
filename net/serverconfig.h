#pragma once

#include "protocol.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>

class QObject;

namespace folio {

class SecretStore;

// How to reach one MCP server. Saved servers are stored as this, without any secret: the bearer
// token lives in the keychain under secretKey(), a secret environment value under envSecretKey(),
// and both are filled in only at connect (fillSecrets()). A secret the keychain refused is held
// here, in memory, for this session only, and never serialised.
struct ServerConfig
{
    enum class Kind { Stdio, Http };
    enum class HttpMode { Auto, Streamable, LegacySse };

    QString name;
    // Given no name by the user (folio -- CMD, folio --url URL, or the Add dialog's Name left
    // empty): name is fallbackName(), and the server is shown by what it says it is (serverInfo
    // title, else name) once connected. Saved as Folio's own key.
    bool nameFromServer = false;
    Kind kind = Kind::Stdio;

    // stdio
    QString command;
    QStringList arguments;
    // Added to the inherited environment. No secret's value reaches a config file: the values of
    // envInKeychain are in the keychain and put here only at connect; those of envHeld are here, in
    // memory, because the keychain has not taken them (yet, or at all).
    QMap<QString, QString> environment;
    QStringList envInKeychain; // names whose values are saved under envSecretKey(); saved as names
    QStringList envHeld;       // runtime only, never serialised
    QString workingDirectory;

    // HTTP
    QUrl url;
    HttpMode httpMode = HttpMode::Auto;
    QList<QPair<QByteArray, QByteArray>> headers; // extra headers (not secret)
    // Runtime only, never serialised: filled in at connect from the keychain, or, while
    // tokenInKeychain is false, held here for this session only (tokenHeld()).
    QString bearerToken;
    bool tokenInKeychain = false; // a bearer token is saved under secretKey()

    // Runtime only: why the keychain refused the secrets held here (tokenHeld(), envHeld), which
    // are then gone when Folio quits. Empty while nothing was refused.
    QString keychainRefusal;

    // Protocol
    // The roots Folio names when the server asks (roots/list, 2026 inputRequests): file:// URIs.
    // Saved as "roots" (Folio's own key).
    QStringList roots;
    QString pinnedRevision; // empty: negotiate
    int requestTimeoutMs = 30000;
    // The largest message read (an HTTP body, an SSE event, a stdio line); over it the request
    // fails with Kind::MessageTooLarge and reading stops. Saved as "maxMessageBytes".
    static constexpr qint64 DefaultMaxMessageBytes = folio::DefaultMaxMessageBytes;
    qint64 maxMessageBytes = DefaultMaxMessageBytes;
    // The most one walk of a list keeps, items and cursors (PageWalker); saved as "maxWalkBytes".
    static constexpr qint64 DefaultMaxWalkBytes = folio::DefaultMaxWalkBytes;
    qint64 maxWalkBytes = DefaultMaxWalkBytes;

    // Not empty: a replay of the recorded session in this file (SessionRecording), with no server
    // and no network; kind, command and url then only say what was recorded. Never saved.
    QString replayFile;
    bool isReplay() const { return !replayFile.isEmpty(); }

    // A server started as a process (stdio), and one reached at a URL (Streamable HTTP or the
    // legacy HTTP+SSE transport). Everything outside net/ asks what a config can do, below, not
    // which Kind it is: a new transport is one class and one row (McpClient's transport factory).
    static ServerConfig process(const QString &command, const QStringList &arguments = {});
    static ServerConfig remote(const QUrl &url);
    // Started by Folio as a process: a command, arguments, an environment, a working directory.
    bool startsProcess() const { return kind == Kind::Stdio; }
    // Reached at url: extra headers, a bearer token, a sign-in (OAuth).
    bool hasUrl() const { return kind == Kind::Http; }
    bool takesHeaders() const { return hasUrl(); }
    bool takesBearerToken() const { return hasUrl(); }
    // A sign-in (OAuth) can be made for it: reached at a URL, and not a replay.
    bool canSignIn() const { return hasUrl() && !isReplay(); }
    // Secrets saved in the keychain to be filled in at connect (fillSecrets()).
    bool hasKeychainSecrets() const
    {
        return (takesBearerToken() && tokenInKeychain) || (startsProcess() && !envInKeychain.isEmpty());
    }
    // "stdio" or "http", as reports and recordings name the transport.
    QString transportWord() const { return hasUrl() ? QStringLiteral("http") : QStringLiteral("stdio"); }

    // The name a server gets when the user gives none: its program's file name, or its host.
    QString fallbackName() const;
    QString secretKey() const { return QStringLiteral("server:") + name; }
    // The keychain key of a secret environment value: the variable's name last (it has no colon).
    QString envSecretKey(const QString &variable) const
    {
        return QStringLiteral("server-env:%1:%2").arg(name, variable);
    }
    // A token not in the keychain: held in memory, for this session only.
    bool tokenHeld() const { return !bearerToken.isEmpty() && !tokenInKeychain; }
    // The command line or URL as shown anywhere (window, reports, recordings, logs), masked by
    // SecretMask: secret flags' and variables' values, secret query items, the user info, and any
    // of secrets() in it.
    QString displayTarget() const;
    // Whether the command line or URL holds anything displayTarget() masks by its shape.
    bool targetHasSecrets() const;
    // The secret values this config holds, for SecretMask::maskKnown(): the bearer token, secret
    // environment values, secret header values, and the secrets in the command line or URL.
    QStringList secrets() const;

    // Whether a variable's name says that its value is a secret: TOKEN, KEY, SECRET or PASSWORD in
    // it, in any case.
    static bool isSecretName(const QString &variable);
    // A value that belongs in the keychain: under a secret name, not empty, and not a reference to
    // something another client fills in ("${input:key}"), which is no secret itself.
    static bool isSecretValue(const QString &variable, const QString &value);

    // Without bearerToken and without the values of envInKeychain and envHeld: secrets never reach
    // a config file.
    QJsonObject toJson() const;
    static ServerConfig fromJson(const QJsonObject &object);
};

// A secret of a config that the keychain did not give.
struct SecretGap
{
    QString variable;      // the environment variable it fills; empty for the bearer token
    bool notFound = false; // the keychain has nothing under its key (else it could not be read)
    QString message;       // for the user: which secret, and why
};

// Reads the secrets config keeps in the keychain (its bearer token when tokenInKeychain, the values
// of envInKeychain) and calls done once, with them filled in and a gap for each secret that could
// not be read: the connect goes on without it, and the server says what it misses. Secrets held in
// config (tokenHeld(), envHeld) are already there. With nothing to read, done is called at once;
// without a store, at once too, with a gap per secret. context ends the wait. The one place that
// fills a saved server's secrets, for the window (ServerSession) and the command line (CliSession).
void fillSecrets(SecretStore *store, const ServerConfig &config, QObject *context,
                 std::function<void(const ServerConfig &filled, const QList<SecretGap> &gaps)> done);

} // namespace folio
