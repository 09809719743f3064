#include "serverconfig.h"

#include "secretmask.h"
#include "secretstore.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>

#include <memory>

namespace folio {

ServerConfig ServerConfig::process(const QString &command, const QStringList &arguments)
{
    ServerConfig c;
    c.kind = Kind::Stdio;
    c.command = command;
    c.arguments = arguments;
    return c;
}

ServerConfig ServerConfig::remote(const QUrl &url)
{
    ServerConfig c;
    c.kind = Kind::Http;
    c.url = url;
    return c;
}

QString ServerConfig::displayTarget() const
{
    const QString target =
        kind == Kind::Http
            ? SecretMask::maskUrl(url.toString(QUrl::RemoveUserInfo))
            : SecretMask::maskCommandLine(QStringList{command} + arguments).join(QLatin1Char(' '));
    const QString shown = SecretMask::maskKnown(target, secrets());
    return isReplay() ? QStringLiteral("%1 (replayed from %2)").arg(shown, replayFile) : shown;
}

bool ServerConfig::targetHasSecrets() const
{
    return kind == Kind::Http ? !url.userInfo().isEmpty() || !SecretMask::secretsInUrl(url).isEmpty()
                              : !SecretMask::secretsInCommandLine(QStringList{command} + arguments).isEmpty();
}

QStringList ServerConfig::secrets() const
{
    QStringList all;
    if (!bearerToken.isEmpty())
        all << bearerToken;
    for (auto it = environment.cbegin(); it != environment.cend(); ++it) {
        if (isSecretName(it.key()) || SecretMask::isSecretVariable(it.key()) ||
            envInKeychain.contains(it.key()) || envHeld.contains(it.key()))
            all << it.value();
    }
    for (const auto &[name, value] : headers) {
        if (SecretMask::isSecretHeader(name) || name.toLower().contains("auth"))
            all << QString::fromUtf8(value);
    }
    if (kind == Kind::Http) {
        all += SecretMask::secretsInUrl(url);
        const QString password = url.password(QUrl::FullyDecoded);
        if (!password.isEmpty())
            all << password;
    } else {
        all += SecretMask::secretsInCommandLine(QStringList{command} + arguments);
    }
    all.removeAll(QString());
    all.removeDuplicates();
    return all;
}

QJsonObject ServerConfig::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("name")] = name;
    if (kind == Kind::Stdio) {
        o[QStringLiteral("type")] = QStringLiteral("stdio");
        o[QStringLiteral("command")] = command;
        o[QStringLiteral("args")] = QJsonArray::fromStringList(arguments);
        QJsonObject env;
        for (auto it = environment.cbegin(); it != environment.cend(); ++it) {
            if (!envInKeychain.contains(it.key()) && !envHeld.contains(it.key()))
                env[it.key()] = it.value();
        }
        if (!env.isEmpty())
            o[QStringLiteral("env")] = env;
        // Folio's own key: the names only, their values are in the keychain.
        if (!envInKeychain.isEmpty())
            o[QStringLiteral("envInKeychain")] = QJsonArray::fromStringList(envInKeychain);
        if (!workingDirectory.isEmpty())
            o[QStringLiteral("cwd")] = workingDirectory;
    } else {
        o[QStringLiteral("type")] =
            httpMode == HttpMode::LegacySse ? QStringLiteral("sse") : QStringLiteral("http");
        o[QStringLiteral("url")] = url.toString();
        QJsonObject h;
        for (const auto &[k, v] : headers)
            h[QString::fromLatin1(k)] = QString::fromLatin1(v);
        if (!h.isEmpty())
            o[QStringLiteral("headers")] = h;
        if (tokenInKeychain)
            o[QStringLiteral("auth")] = QStringLiteral("keychain");
    }
    if (nameFromServer)
        o[QStringLiteral("nameFromServer")] = true; // Folio's own key; other clients ignore it
    if (!roots.isEmpty())
        o[QStringLiteral("roots")] = QJsonArray::fromStringList(roots);
    if (!pinnedRevision.isEmpty())
        o[QStringLiteral("revision")] = pinnedRevision;
    if (requestTimeoutMs != 30000)
        o[QStringLiteral("timeoutMs")] = requestTimeoutMs;
    if (maxMessageBytes != DefaultMaxMessageBytes)
        o[QStringLiteral("maxMessageBytes")] = maxMessageBytes;
    if (maxWalkBytes != DefaultMaxWalkBytes)
        o[QStringLiteral("maxWalkBytes")] = maxWalkBytes;
    return o;
}

bool ServerConfig::isSecretName(const QString &variable)
{
    for (const QLatin1StringView mark : {QLatin1StringView("TOKEN"), QLatin1StringView("KEY"),
                                         QLatin1StringView("SECRET"), QLatin1StringView("PASSWORD")}) {
        if (variable.contains(mark, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

bool ServerConfig::isSecretValue(const QString &variable, const QString &value)
{
    return isSecretName(variable) && !value.isEmpty() && !value.contains(QLatin1StringView("${"));
}

QString ServerConfig::fallbackName() const
{
    const QString name = kind == Kind::Http ? url.host() : QFileInfo(command).fileName();
    return name.isEmpty() ? QStringLiteral("server") : name;
}

ServerConfig ServerConfig::fromJson(const QJsonObject &o)
{
    ServerConfig c;
    c.name = o.value(QStringLiteral("name")).toString();
    c.nameFromServer = o.value(QStringLiteral("nameFromServer")).toBool();
    const QString type = o.value(QStringLiteral("type")).toString();
    const bool hasUrl = o.contains(QStringLiteral("url"));
    // A URL makes a remote server whatever the type says (clients spell it "streamableHttp",
    // "remote", ...), as an import has always read it.
    if (type == QLatin1String("http") || type == QLatin1String("sse") ||
        type == QLatin1String("streamable-http") || hasUrl) {
        c.kind = Kind::Http;
        c.url = QUrl(o.value(QStringLiteral("url")).toString());
        c.httpMode = type == QLatin1String("sse")               ? HttpMode::LegacySse
                     : type == QLatin1String("streamable-http") ? HttpMode::Streamable
                                                                : HttpMode::Auto;
        const QJsonObject h = o.value(QStringLiteral("headers")).toObject();
        for (auto it = h.begin(); it != h.end(); ++it)
            c.headers.append({it.key().toLatin1(), it.value().toString().toLatin1()});
        c.tokenInKeychain = o.value(QStringLiteral("auth")).toString() == QLatin1String("keychain");
    } else {
        c.kind = Kind::Stdio;
        c.command = o.value(QStringLiteral("command")).toString();
        for (const auto &a : o.value(QStringLiteral("args")).toArray())
            c.arguments.append(a.toString());
        const QJsonObject env = o.value(QStringLiteral("env")).toObject();
        for (auto it = env.begin(); it != env.end(); ++it)
            c.environment.insert(it.key(), it.value().toString());
        for (const QJsonValue &name : o.value(QStringLiteral("envInKeychain")).toArray()) {
            if (name.isString() && !name.toString().isEmpty() && !c.envInKeychain.contains(name.toString()))
                c.envInKeychain.append(name.toString());
        }
        c.workingDirectory = o.value(QStringLiteral("cwd")).toString();
    }
    c.pinnedRevision = o.value(QStringLiteral("revision")).toString();
    for (const QJsonValue &root : o.value(QStringLiteral("roots")).toArray()) {
        if (root.isString() && !root.toString().isEmpty())
            c.roots.append(root.toString());
    }
    c.requestTimeoutMs = o.value(QStringLiteral("timeoutMs")).toInt(30000);
    const qint64 maxBytes = o.value(QStringLiteral("maxMessageBytes")).toInteger(DefaultMaxMessageBytes);
    c.maxMessageBytes = maxBytes > 0 ? maxBytes : DefaultMaxMessageBytes;
    const qint64 walkBytes = o.value(QStringLiteral("maxWalkBytes")).toInteger(DefaultMaxWalkBytes);
    c.maxWalkBytes = walkBytes > 0 ? walkBytes : DefaultMaxWalkBytes;
    return c;
}

void fillSecrets(SecretStore *store, const ServerConfig &config, QObject *context,
                 std::function<void(const ServerConfig &filled, const QList<SecretGap> &gaps)> done)
{
    // key -> the variable it fills; the token's key maps to an empty name.
    QHash<QString, QString> wanted;
    if (config.kind == ServerConfig::Kind::Http && config.tokenInKeychain)
        wanted.insert(config.secretKey(), QString());
    if (config.kind == ServerConfig::Kind::Stdio) {
        for (const QString &name : config.envInKeychain)
            wanted.insert(config.envSecretKey(name), name);
    }
    if (wanted.isEmpty()) {
        done(config, {});
        return;
    }
    if (!store) {
        QList<SecretGap> gaps;
        for (const QString &name : std::as_const(wanted)) {
            gaps.append({name, false,
                         QCoreApplication::translate(
                             "folio::ServerConfig", "%1: no keychain to read %2 from; connecting without it.")
                             .arg(config.name, name.isEmpty() ? QStringLiteral("the token") : name)});
        }
        done(config, gaps);
        return;
    }

    struct Wait
    {
        ServerConfig config;
        QHash<QString, QString> pending;
        QList<SecretGap> gaps;
        std::function<void(const ServerConfig &, const QList<SecretGap> &)> done;
    };
    auto wait = std::make_shared<Wait>(Wait{config, wanted, {}, std::move(done)});
    auto *ctx = new QObject(context); // gone with the context, or once every answer is in
    const auto answered = [wait, ctx] {
        if (!wait->pending.isEmpty())
            return;
        ctx->deleteLater();
        wait->done(wait->config, wait->gaps);
    };
    QObject::connect(store, &SecretStore::restored, ctx,
                     [wait, answered](const QString &key, const QString &secret) {
                         if (!wait->pending.contains(key))
                             return;
                         const QString name = wait->pending.take(key);
                         if (name.isEmpty())
                             wait->config.bearerToken = secret;
                         else
                             wait->config.environment.insert(name, secret);
                         answered();
                     });
    QObject::connect(
        store, &SecretStore::failed, ctx,
        [wait, answered](const QString &key, SecretStore::Failure failure, const QString &message) {
            if (!wait->pending.contains(key))
                return;
            const QString name = wait->pending.take(key);
            const bool notFound = failure == SecretStore::Failure::NotFound;
            // The token's message is the keychain's own, as it always was.
            if (name.isEmpty())
                wait->gaps.append({name, notFound, message});
            else if (notFound)
                wait->gaps.append({name, notFound,
                                   QCoreApplication::translate(
                                       "folio::ServerConfig",
                                       "%1 for %2 is not in the keychain: the server starts without it.")
                                       .arg(name, wait->config.name)});
            else
                wait->gaps.append({name, notFound,
                                   QCoreApplication::translate(
                                       "folio::ServerConfig",
                                       "%1 for %2 is not filled in, the server starts without it: %3")
                                       .arg(name, wait->config.name, message)});
            answered();
        });
    for (auto it = wanted.cbegin(); it != wanted.cend(); ++it)
        store->read(it.key());
}

} // namespace folio
