#include "clitarget.h"

#include "savedservers.h"
#include "sessionrecording.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

namespace folio {

TargetOptions::TargetOptions()
    : m_url(QStringLiteral("url"),
            QStringLiteral("An MCP server over HTTP (Streamable HTTP; HTTP+SSE found "
                           "by the spec's fallback)."),
            QStringLiteral("URL"))
    , m_header(QStringLiteral("header"),
               QStringLiteral("An extra HTTP header 'Name: value' (repeatable). With --url or an HTTP "
                              "--server."),
               QStringLiteral("HEADER"))
    , m_tokenEnv(QStringLiteral("token-env"),
                 QStringLiteral("Send 'Authorization: Bearer <token>' with the token read from the "
                                "environment variable VAR (never from the command line)."),
                 QStringLiteral("VAR"))
    , m_server(QStringLiteral("server"),
               QStringLiteral("A server saved in the Folio window; an HTTP server's bearer token comes "
                              "from the keychain."),
               QStringLiteral("NAME"))
    , m_timeout(QStringLiteral("timeout-ms"),
                QStringLiteral("Per-request timeout in milliseconds (default 30000). No command waits "
                               "longer than this for anything."),
                QStringLiteral("MS"), QString::number(DefaultTimeoutMs))
    , m_maxMessage(QStringLiteral("max-message-mb"),
                   QStringLiteral("The largest message read from the server, in MiB (default 64, or the "
                                  "saved server's). A larger one fails its request, and Folio stops reading "
                                  "it."),
                   QStringLiteral("N"))
    , m_maxWalk(QStringLiteral("max-walk-mb"),
                QStringLiteral("The most one walk of a list keeps (its items and cursors), in MiB (default "
                               "256, or the saved server's). The walk stops there (walk-size-cap-reached)."),
                QStringLiteral("N"))
    , m_replay(QStringLiteral("replay"), QStringLiteral("(folio replay FILE ...) A recorded session."),
               QStringLiteral("FILE"))
{
    m_replay.setFlags(QCommandLineOption::HiddenFromHelp);
}

void TargetOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions({m_url, m_header, m_tokenEnv, m_server, m_timeout, m_maxMessage, m_maxWalk, m_replay});
}

void TargetOptions::splitStdioCommand(const QStringList &arguments, QStringList *options,
                                      QStringList *command)
{
    const qsizetype dashes = arguments.indexOf(QStringLiteral("--"));
    if (dashes < 0) {
        *options = arguments;
        command->clear();
        return;
    }
    *options = arguments.mid(0, dashes);
    *command = arguments.mid(dashes + 1);
}

bool TargetOptions::read(const QCommandLineParser &parser, const QStringList &stdioCommand, QString *error)
{
    const int targets = int(parser.isSet(m_url)) + int(parser.isSet(m_server)) +
                        int(!stdioCommand.isEmpty()) + int(parser.isSet(m_replay));
    if (targets == 0) {
        *error = QStringLiteral("no server given: use --url URL, --server NAME or -- COMMAND ARGS...");
        return false;
    }
    if (targets > 1) {
        *error = parser.isSet(m_replay)
                     ? QStringLiteral("a replay has its server in the file: give no --url, "
                                      "--server or -- COMMAND")
                     : QStringLiteral("give exactly one of --url, --server and -- COMMAND");
        return false;
    }

    bool ok = false;
    const int timeout = parser.value(m_timeout).toInt(&ok);
    if (!ok || timeout < 1) {
        *error = QStringLiteral("--timeout-ms wants a positive number of milliseconds");
        return false;
    }
    // A size option in MiB: 0 when not given.
    const auto mebibytes = [&](const QCommandLineOption &option, qint64 *mib) {
        *mib = 0;
        if (!parser.isSet(option))
            return true;
        *mib = parser.value(option).toLongLong(&ok);
        if (ok && *mib >= 1 && *mib <= 1024 * 1024)
            return true;
        *error = QStringLiteral("--%1 wants a positive number of MiB").arg(option.names().constFirst());
        return false;
    };
    qint64 maxMessageMb = 0, maxWalkMb = 0;
    if (!mebibytes(m_maxMessage, &maxMessageMb) || !mebibytes(m_maxWalk, &maxWalkMb))
        return false;

    ServerConfig config;
    if (parser.isSet(m_replay)) {
        // folio replay FILE <command>: the server is the recording.
        const QString path = parser.value(m_replay);
        QString why;
        const auto recording = SessionRecording::load(path, &why);
        if (!recording) {
            *error = QStringLiteral("cannot replay %1: %2").arg(path, why);
            return false;
        }
        if (parser.isSet(m_header) || parser.isSet(m_tokenEnv)) {
            *error = QStringLiteral("--header and --token-env have no use in a replay: nothing is sent");
            return false;
        }
        config = recording->replayConfig(path);
    } else if (!stdioCommand.isEmpty()) {
        if (parser.isSet(m_header) || parser.isSet(m_tokenEnv)) {
            *error = QStringLiteral("--header and --token-env are for HTTP servers; a stdio server reads "
                                    "its credentials from the environment");
            return false;
        }
        config = ServerConfig::process(stdioCommand.constFirst(), stdioCommand.mid(1));
        config.name = stdioCommand.constFirst();
    } else if (parser.isSet(m_url)) {
        const QUrl url(parser.value(m_url), QUrl::StrictMode);
        if (!url.isValid() ||
            (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
            *error =
                QStringLiteral("--url wants an http:// or https:// URL, not '%1'").arg(parser.value(m_url));
            return false;
        }
        config = ServerConfig::remote(url);
        config.name = url.host();
    } else {
        const QString name = parser.value(m_server);
        const QJsonArray saved = SavedServers::entries();
        QStringList names;
        bool found = false;
        for (const QJsonValue &v : saved) {
            const QJsonObject o = v.toObject();
            names.append(o.value(QStringLiteral("name")).toString());
            if (names.constLast() != name)
                continue;
            config = ServerConfig::fromJson(o);
            found = true;
            // A token is in the keychain when the window said so, or (entries without "auth") may be.
            // Secret environment values (envInKeychain) are read as the window reads them.
            const QString auth = o.value(QStringLiteral("auth")).toString();
            if (config.takesBearerToken() && auth == QLatin1String("keychain"))
                m_keychain = CliSession::KeychainToken::Required;
            else if (config.takesBearerToken() && auth.isEmpty()) {
                m_keychain = CliSession::KeychainToken::Optional;
                config.tokenInKeychain = true;
            }
            break;
        }
        if (!found) {
            *error = names.isEmpty() ? QStringLiteral("no saved server named '%1' (no servers are saved; add "
                                                      "them in the Folio window)")
                                           .arg(name)
                                     : QStringLiteral("no saved server named '%1'; saved: %2")
                                           .arg(name, names.join(QStringLiteral(", ")));
            return false;
        }
        if (!config.takesHeaders() && (parser.isSet(m_header) || parser.isSet(m_tokenEnv))) {
            *error = QStringLiteral("--header and --token-env are for HTTP servers; '%1' is a stdio server")
                         .arg(name);
            return false;
        }
    }

    for (const QString &header : parser.values(m_header)) {
        const qsizetype colon = header.indexOf(QLatin1Char(':'));
        const QString key = colon > 0 ? header.left(colon).trimmed() : QString();
        if (key.isEmpty() || key.contains(QLatin1Char(' '))) {
            *error = QStringLiteral("--header wants 'Name: value', not '%1'").arg(header);
            return false;
        }
        config.headers.append({key.toLatin1(), header.mid(colon + 1).trimmed().toUtf8()});
    }
    if (parser.isSet(m_tokenEnv)) {
        const QString var = parser.value(m_tokenEnv);
        const QByteArray token = qgetenv(var.toLocal8Bit().constData());
        if (token.isEmpty()) {
            *error = QStringLiteral("--token-env %1: the environment variable is not set or empty").arg(var);
            return false;
        }
        config.bearerToken = QString::fromUtf8(token);
        // The environment wins over the keychain.
        config.tokenInKeychain = false;
        m_keychain = CliSession::KeychainToken::None;
    }
    config.requestTimeoutMs = timeout;
    if (maxMessageMb > 0)
        config.maxMessageBytes = maxMessageMb * 1024 * 1024;
    if (maxWalkMb > 0)
        config.maxWalkBytes = maxWalkMb * 1024 * 1024;
    m_config = config;
    return true;
}

QString TargetOptions::helpText()
{
    return QStringLiteral(
        "Target (exactly one):\n"
        "  --url URL [--header 'Name: value']... [--token-env VAR]\n"
        "                     an HTTP server; the bearer token is read from $VAR\n"
        "  --server NAME      a server saved in the Folio window (its secrets from the keychain)\n"
        "  -- COMMAND ARGS... a stdio server started by folio (everything after '--')\n"
        "  --timeout-ms MS    per-request timeout (default 30000); nothing waits longer\n"
        "  --max-message-mb N the largest message read, in MiB (default 64); a larger one\n"
        "                     fails its request with the size, and is not read further\n"
        "  --max-walk-mb N    the most one walk of a list keeps, items and cursors, in MiB\n"
        "                     (default 256); the walk stops there (walk-size-cap-reached)\n");
}

} // namespace folio
