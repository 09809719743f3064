#pragma once

#include <QCryptographicHash>
#include <QString>

// Every key Folio keeps in QSettings, in one place: what each remembers, and who reads it. A new
// remembered state adds its key here, never a string literal beside its QSettings call.
namespace folio::SettingsKey {

// The saved servers (models/savedservers.cpp): a JSON array of ServerConfig::toJson().
inline const QString Servers = QStringLiteral("servers");
// How much of each list a new connection walks (ServerSession::WalkOnConnect, as an int).
inline const QString WalkOnConnect = QStringLiteral("walkOnConnect");
// How many snapshots of its connects each saved server keeps (models/serverhistory.h).
inline const QString SnapshotHistoryKeep = QStringLiteral("history/keep");

// The window (ui/mainwindow.cpp): geometry, dock layout, the server list's splitter.
inline const QString WindowGeometry = QStringLiteral("window/geometry");
inline const QString WindowState = QStringLiteral("window/state");
inline const QString WindowSplitter = QStringLiteral("window/splitter");
// View menu: the zoom factor, the legend bar, the theme (light, dark, system: ui/theme.cpp).
inline const QString Zoom = QStringLiteral("view/zoom");
inline const QString Legend = QStringLiteral("view/legend");
inline const QString Theme = QStringLiteral("view/theme");
// The window's audit (ui/auditpanel.cpp): walks of each list in all, and the pause before each later
// walk in seconds (AuditOptions::walks, walkPauseMs).
inline const QString AuditWalks = QStringLiteral("audit/walks");
inline const QString AuditWalkPause = QStringLiteral("audit/walkPauseSeconds");
// The folder of the last file chosen in a file dialog of the window (ui/filechooser.cpp). The key
// keeps its first name (it began with sessions alone) so that the folder is remembered across updates.
inline const QString FileDir = QStringLiteral("session/dir");

// A server's sign-in without a person (models/machinesignin.h), under this group: the grant, the
// client ID and the credential files' paths; never a secret. Keyed by AuthRecord::keychainKey().
inline QString machineSignIn(const QString &serverKey)
{
    // A URL's slashes would nest QSettings groups: hashed to one key.
    return QStringLiteral("machineSignIn/") +
           QString::fromLatin1(
               QCryptographicHash::hash(serverKey.toUtf8(), QCryptographicHash::Sha256).toHex().left(32));
}

// A list's table (ui/listview.cpp), under this group: its two splitters, and each list's columns.
inline const QString ListViewGroup = QStringLiteral("listView");
inline const QString ListViewVertical = QStringLiteral("vertical");
inline const QString ListViewHorizontal = QStringLiteral("horizontal");
inline QString listViewColumns(const QString &listId)
{
    return QStringLiteral("columns/") + listId;
}
// The tab a server's view showed last, by the server's name (ui/serverview.cpp).
inline const QString ServerViewTabGroup = QStringLiteral("serverView/tab");
inline QString serverViewTab(const QString &serverName)
{
    return ServerViewTabGroup + QLatin1Char('/') + serverName;
}
// The Call and Get Prompt panes' splitters; the page inspector's decoded-cursor trees.
inline const QString CallViewSplitter = QStringLiteral("callView/splitter");
inline const QString PromptViewSplitter = QStringLiteral("promptView/splitter");
inline const QString InspectorDecodedTrees = QStringLiteral("inspector/decodedTrees");
// The values given a tool's arguments before, per server and tool (models/argumentsuggestions.cpp):
// a map of argument name to its last values, most recent first. Named by a hash, since a server's
// name and a tool's are anyone's text, and QSettings reads a '/' in a key as a group.
inline const QString ToolArgumentsGroup = QStringLiteral("toolArguments");
inline QString toolArgumentHistory(const QString &server, const QString &tool)
{
    const QByteArray id =
        QCryptographicHash::hash((server + QChar(0) + tool).toUtf8(), QCryptographicHash::Sha256);
    return ToolArgumentsGroup + QLatin1Char('/') + QString::fromLatin1(id.toHex().left(32));
}

// The keychain entries known to be absent (net/secretstore.cpp, SecretStore::setRemembersAbsence):
// a list of hashes of service and key, newest last. Hashes, so that the file names no server.
inline const QString KeychainAbsent = QStringLiteral("keychain/absent");

} // namespace folio::SettingsKey
