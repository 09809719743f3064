#include "serverconfig.h"

#include <QFileInfo>
#include <QJsonArray>

namespace folio {

QString ServerConfig::displayTarget() const
{
    if (isReplay())
        return QStringLiteral("%1 (replayed from %2)")
            .arg(kind == Kind::Http ? url.toString(QUrl::RemoveUserInfo) : command, replayFile);
    if (kind == Kind::Http)
        return url.toString(QUrl::RemoveUserInfo);
    QStringList parts{command};
    parts += arguments;
    return parts.join(QLatin1Char(' '));
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
        for (auto it = environment.cbegin(); it != environment.cend(); ++it)
            env[it.key()] = it.value();
        if (!env.isEmpty())
            o[QStringLiteral("env")] = env;
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
    return o;
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
    if (type == QLatin1String("http") || type == QLatin1String("sse") ||
        type == QLatin1String("streamable-http") || (type.isEmpty() && hasUrl)) {
        c.kind = Kind::Http;
        c.url = QUrl(o.value(QStringLiteral("url")).toString());
        c.httpMode = type == QLatin1String("sse") ? HttpMode::LegacySse
                     : type.isEmpty()             ? HttpMode::Auto
                                                  : HttpMode::Streamable;
        if (type == QLatin1String("http"))
            c.httpMode = HttpMode::Auto;
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
    return c;
}

} // namespace folio
