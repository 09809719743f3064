#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace demo {

struct ChatUser
{
    QString id;
    QString username;
    QString displayName;
    QString position;
};

struct ChatChannel
{
    QString id;
    QString name;
    QString displayName;
    QString purpose;
    bool isPrivate = false;
};

struct ChatPost
{
    QString id;
    QString channel;
    QString user;
    qint64 createAt = 0;
    QString message;
};

// The demo server's content, a team chat generated from the seed and the tables in
// resources/demo/catalog.json: the same seed gives the same tools, prompts, resources and templates,
// byte for byte, on every run.
class Catalog
{
public:
    explicit Catalog(quint32 seed);

    quint32 seed() const { return m_seed; }

    const QList<QJsonObject> &tools() const { return m_tools; }
    const QList<QJsonObject> &prompts() const { return m_prompts; }
    // The resources list is virtual: one resource per channel, user and post, then the
    // chat://archive/ copies that --resources adds. Each item is built when a page asks for it, so
    // a client that only lists tools, or a 100,000-item list, costs nothing before it is read.
    qsizetype resourceCount() const;
    // The index-th resource (0 <= index < resourceCount()) as compact JSON, members in the order
    // QJsonDocument writes them.
    QByteArray resourceJson(qsizetype index) const;
    const QList<QJsonObject> &templates() const { return m_templates; }

    const QList<ChatUser> &users() const
    {
        ensureChat();
        return m_users;
    }
    const QList<ChatChannel> &channels() const
    {
        ensureChat();
        return m_channels;
    }
    // All posts, grouped by channel, each channel's posts newest first (ties broken by id).
    const QList<ChatPost> &posts() const
    {
        ensureChat();
        return m_posts;
    }

    // An item appended to a list by the list-changed scenario at the given revision (1, 2, ...).
    QJsonObject addedItem(const QString &list, int revision) const;

    // Sizes the resources list (for benchmarks): fewer cuts it, more appends chat://archive/aNNNNNNN
    // items, copies of the posts in turn (readable like the posts).
    void setResourceCount(int count) { m_resourceCount = count; }

    // Appends the tools the official conformance harness calls by name (see docs/demo-server.md).
    void addConformanceFixtures();
    static bool isConformanceFixture(const QString &toolName);
    // A scenario's edits to the items (Scenario::itemEdits()): per list, the items named in
    // "remove" go, those in "merge" get its members merged in (objects member by member, other
    // values replaced), and "add" is appended.
    void applyEdits(const QJsonObject &edits);

    std::optional<QJsonObject> tool(const QString &name) const;
    std::optional<QJsonObject> prompt(const QString &name) const;
    // The JSON text of a chat:// resource, if it exists.
    std::optional<QString> readResource(const QString &uri) const;

    static QJsonObject userJson(const ChatUser &user);
    static QJsonObject channelJson(const ChatChannel &channel);
    static QJsonObject postJson(const ChatPost &post);

private:
    void generateTools();
    void generatePrompts();
    void generateTemplates();
    void generateChat() const;
    void ensureChat() const;
    qsizetype baseResourceCount() const;

    quint32 m_seed;
    QJsonObject m_content; // catalog.json, read once: the chat is built from it on first use
    QList<QJsonObject> m_tools;
    QList<QJsonObject> m_prompts;
    QList<QJsonObject> m_templates;
    mutable QList<ChatUser> m_users;
    mutable QList<ChatChannel> m_channels;
    mutable QList<ChatPost> m_posts;
    mutable bool m_chatBuilt = false;
    int m_resourceCount = -1; // -1: one per channel, user and post
};

} // namespace demo
