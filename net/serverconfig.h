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

namespace folio {

// How to reach one MCP server. Saved servers are stored as this, without any secret: the bearer
// token lives in the keychain under secretKey() and is filled into bearerToken only at connect.
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
    QMap<QString, QString> environment; // added to the inherited environment
    QString workingDirectory;

    // HTTP
    QUrl url;
    HttpMode httpMode = HttpMode::Auto;
    QList<QPair<QByteArray, QByteArray>> headers; // extra headers (not secret)
    QString bearerToken;                          // runtime only, never serialised
    bool tokenInKeychain = false;                 // a bearer token is saved under secretKey()

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

    // Not empty: a replay of the recorded session in this file (SessionRecording), with no server
    // and no network; kind, command and url then only say what was recorded. Never saved.
    QString replayFile;
    bool isReplay() const { return !replayFile.isEmpty(); }

    // The name a server gets when the user gives none: its program's file name, or its host.
    QString fallbackName() const;
    QString secretKey() const { return QStringLiteral("server:") + name; }
    QString displayTarget() const;

    // Without bearerToken: secrets never reach a config file.
    QJsonObject toJson() const;
    static ServerConfig fromJson(const QJsonObject &object);
};

} // namespace folio
