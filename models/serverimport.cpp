#include "serverimport.h"

#include "secretmask.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace folio {

namespace {

QString quoteArg(const QString &arg)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (safe.match(arg).hasMatch())
        return arg;
    QString q = arg;
    q.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + q + QLatin1Char('\'');
}

} // namespace

ServerImport ServerImport::parse(const QByteArray &json)
{
    ServerImport result;
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError) {
        result.error =
            QObject::tr("Not JSON: %1 at offset %2").arg(err.errorString(), QString::number(err.offset));
        return result;
    }
    const QJsonObject root = doc.object();
    QString source;
    QJsonObject servers;
    if (root.value(QStringLiteral("mcpServers")).isObject()) {
        source = QStringLiteral("mcpServers");
        servers = root.value(source).toObject();
    } else if (root.value(QStringLiteral("servers")).isObject()) {
        source = QStringLiteral("servers");
        servers = root.value(source).toObject();
    } else if (root.value(QStringLiteral("mcp")).toObject().value(QStringLiteral("servers")).isObject()) {
        source = QStringLiteral("servers"); // VS Code settings.json nests it under "mcp"
        servers = root.value(QStringLiteral("mcp")).toObject().value(QStringLiteral("servers")).toObject();
    } else {
        result.error = QObject::tr("No \"mcpServers\" or \"servers\" object in this file");
        return result;
    }
    for (auto it = servers.begin(); it != servers.end(); ++it) {
        const QJsonObject o = it.value().toObject();
        Entry e;
        e.source = source;
        e.config = ServerConfig::fromJson(o);
        e.config.name = it.key();
        if (e.config.hasUrl()) {
            if (!e.config.url.isValid() || e.config.url.scheme().isEmpty())
                e.warning = QObject::tr("The URL is not valid");
        } else if (!o.contains(QStringLiteral("command"))) {
            e.warning = QObject::tr("No command and no URL: skipped");
        }
        if (e.config.takesHeaders()) {
            // The token of an Authorization header is the server's bearer token, for the keychain;
            // a reference another client fills in ("Bearer ${input:token}") is no secret and stays.
            for (qsizetype i = 0; i < e.config.headers.size(); ++i) {
                const auto &[name, value] = e.config.headers.at(i);
                const QByteArray trimmed = value.trimmed();
                if (name.compare("Authorization", Qt::CaseInsensitive) != 0 || trimmed.size() <= 7 ||
                    trimmed.left(7).compare("Bearer ", Qt::CaseInsensitive) != 0 || trimmed.contains("${"))
                    continue;
                e.config.bearerToken = QString::fromLatin1(trimmed.mid(7).trimmed());
                e.config.tokenInKeychain = false;
                e.config.headers.removeAt(i);
                break;
            }
        } else {
            for (auto env = e.config.environment.cbegin(); env != e.config.environment.cend(); ++env) {
                if (ServerConfig::isSecretValue(env.key(), env.value()))
                    e.config.envHeld.append(env.key());
            }
        }
        QStringList unresolved;
        for (auto env = e.config.environment.cbegin(); env != e.config.environment.cend(); ++env) {
            if (env.value().contains(QStringLiteral("${")))
                unresolved.append(env.key());
        }
        for (const auto &[name, value] : std::as_const(e.config.headers)) {
            if (value.contains("${"))
                unresolved.append(QString::fromLatin1(name));
        }
        if (!unresolved.isEmpty())
            e.warning = QObject::tr("Refers to variables Folio does not fill in: %1")
                            .arg(unresolved.join(QStringLiteral(", ")));
        result.entries.append(e);
    }
    return result;
}

QString ServerImport::describe(const ServerConfig &config)
{
    if (config.hasUrl())
        return config.url.toString();
    QStringList parts;
    for (auto it = config.environment.cbegin(); it != config.environment.cend(); ++it) {
        const bool secret =
            config.envHeld.contains(it.key()) || ServerConfig::isSecretValue(it.key(), it.value());
        parts.append(it.key() + QLatin1Char('=') +
                     quoteArg(secret ? SecretMask::abbreviate(it.value()) : it.value()));
    }
    for (const QString &name : config.envInKeychain) {
        if (!config.environment.contains(name))
            parts.append(name + QLatin1Char('=') + quoteArg(QObject::tr("(in the keychain)")));
    }
    parts.append(quoteArg(config.command));
    for (const QString &a : config.arguments)
        parts.append(quoteArg(a));
    QString line = parts.join(QLatin1Char(' '));
    if (!config.workingDirectory.isEmpty())
        line = QStringLiteral("(cd %1 && %2)").arg(quoteArg(config.workingDirectory), line);
    return line;
}

QStringList ServerImport::describeSecrets(const ServerConfig &config)
{
    QStringList secrets;
    if (config.takesBearerToken()) {
        if (!config.bearerToken.isEmpty())
            secrets << QObject::tr("bearer token %1").arg(SecretMask::abbreviate(config.bearerToken));
        return secrets;
    }
    for (auto it = config.environment.cbegin(); it != config.environment.cend(); ++it) {
        if (config.envHeld.contains(it.key()) || ServerConfig::isSecretValue(it.key(), it.value()))
            secrets << it.key() + QLatin1Char(' ') + SecretMask::abbreviate(it.value());
    }
    return secrets;
}

} // namespace folio
