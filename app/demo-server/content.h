#pragma once

#include "answer.h"
#include "inputrequests.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace demo {

class Catalog;
class Scenario;
struct ChatPost;

// Content blocks as MCP writes them (tool results and prompt messages share them).
namespace Blocks {
QJsonObject text(const QString &text);
QJsonObject image(const QByteArray &png);
QJsonObject audio(const QByteArray &wav);
QJsonObject resource(const QString &uri, const QString &mimeType, const QString &text);
QJsonObject link(const QString &uri, const QString &name, const QString &mimeType,
                 const QString &description);
QJsonObject toolResult(const QJsonArray &content, bool isError = false);
} // namespace Blocks

// What the demo chat answers when it is asked for more than a list: the tools with content of their
// own (content.json: images, audio, resources, structuredContent, progress, an input_required
// confirmation), prompts/get, resources/read with hints per kind of resource, and
// completion/complete. Transport-neutral: it returns an Answer that DemoServer puts on the wire.
class Content
{
public:
    Content(const Catalog &catalog, const Scenario &scenario, const InputRequests &inputRequests);

    // tools/call of a tool with content of its own; nullopt for the rest (the generic answer).
    std::optional<Answer> callTool(const QString &name, const QJsonObject &arguments,
                                   const CallContext &context) const;
    // prompts/get of a catalog prompt (arguments checked against its declaration).
    Answer getPrompt(const QJsonObject &prompt, const QJsonObject &arguments) const;
    // resources/read of a chat:// URI, hints included in 2026; nullopt when there is no such resource.
    std::optional<QJsonObject> read(const QString &uri, bool modern) const;
    // completion/complete for prompt arguments and template variables.
    Answer complete(const QJsonObject &params) const;

    // update_post: replaces the post's message for every later read and tool result (one overlay
    // per server process, so every client sees it; the lists keep the generated text). The answer
    // is the tool's result; *changedUri is set to the post's URI when the post changed.
    Answer updatePost(const QJsonObject &arguments, QString *changedUri);

    // The hints a read of this kind of resource carries (docs/demo-server.md, Reading resources).
    struct Hints
    {
        qint64 ttlMs;
        const char *cacheScope;
    };
    static Hints hintsOf(const QString &kind);

private:
    // The resource's contents item ({uri, mimeType, text|blob}) and its kind.
    std::optional<QJsonObject> contentsOf(const QString &uri, QString *kind) const;
    QStringList candidates(const QString &argument) const;
    // A post as it reads now: the catalog's, with an update_post message over it.
    ChatPost edited(const ChatPost &post) const;
    std::optional<ChatPost> findPost(const QString &id) const;

    const Catalog &m_catalog;
    const Scenario &m_scenario;
    const InputRequests &m_inputRequests;
    QHash<QString, QString> m_editedMessages; // post id -> message, from update_post
};

} // namespace demo
