#pragma once

#include <QString>
#include <QStringList>
#include <optional>

// The protocol's vocabulary, shared by the transports, the client and the models: which revisions
// exist and what the four protocol lists are called on the wire.
namespace folio {

// The protocol revisions Folio speaks, newest first.
namespace Revision {
inline constexpr char Modern[] = "2026-07-28";
QStringList all();    // every revision, newest first
QStringList legacy(); // the initialize-era revisions, newest first
bool isModern(const QString &revision);
} // namespace Revision

// The four protocol lists.
enum class ListKind { Tools, Prompts, Resources, ResourceTemplates };
QString listMethod(ListKind kind);   // "tools/list", ...
QString listItemsKey(ListKind kind); // "tools", "prompts", "resources", "resourceTemplates"
QString listName(ListKind kind);     // "tools", "prompts", "resources", "templates"
std::optional<ListKind> listKindFromName(const QString &name);

// The largest message read (an HTTP body, an SSE event, a stdio line) unless a server's settings
// say otherwise (ServerConfig::maxMessageBytes).
inline constexpr qint64 DefaultMaxMessageBytes = 64 * 1024 * 1024;
// The most one walk of a list keeps (its pages' items and cursors): past it the walk stops with
// walk-size-cap-reached (ServerConfig::maxWalkBytes). With the page cap, what bounds a walk's memory
// whatever a server sends: pages of the message limit times the page cap would be tens of GB.
inline constexpr qint64 DefaultMaxWalkBytes = 256 * 1024 * 1024;

} // namespace folio
