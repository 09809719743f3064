#include "content.h"

#include "catalog.h"
#include "media.h"
#include "scenario.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QUrlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace demo {

namespace {

constexpr int invalidParams = -32602;
constexpr int completionLimit = 100; // the spec's cap on completion values

QString pretty(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

QString compact(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

Answer toolError(const QString &text)
{
    return Answer::ok(Blocks::toolResult({Blocks::text(text)}, true));
}

// A stable small number from a text (FNV-1a), for content derived from ids.
quint32 hashOf(const QString &text)
{
    quint32 h = 2166136261U;
    for (const QChar c : text) {
        h ^= c.unicode();
        h *= 16777619U;
    }
    return h;
}

const ChatUser *userById(const Catalog &catalog, const QString &id)
{
    for (const ChatUser &user : catalog.users()) {
        if (user.id == id)
            return &user;
    }
    return nullptr;
}

const ChatUser *userByName(const Catalog &catalog, const QString &username)
{
    const auto &users = catalog.users();
    const auto it =
        std::lower_bound(users.begin(), users.end(), username,
                         [](const ChatUser &user, const QString &key) { return user.username < key; });
    return it != users.end() && it->username == username ? &*it : nullptr;
}

const ChatChannel *channelById(const Catalog &catalog, const QString &id)
{
    for (const ChatChannel &channel : catalog.channels()) {
        if (channel.id == id)
            return &channel;
    }
    return nullptr;
}

const ChatChannel *channelByName(const Catalog &catalog, const QString &name)
{
    for (const ChatChannel &channel : catalog.channels()) {
        if (channel.name == name)
            return &channel;
    }
    return nullptr;
}

const ChatPost *postById(const Catalog &catalog, const QString &id)
{
    for (const ChatPost &post : catalog.posts()) {
        if (post.id == id)
            return &post;
    }
    return nullptr;
}

QJsonArray reactionsOf(const QString &postId, int *total)
{
    static const char *const emoji[] = {"thumbsup", "tada", "eyes", "heart", "rocket"};
    QJsonArray reactions;
    *total = 0;
    quint32 h = hashOf(postId);
    for (const char *name : emoji) {
        const int count = int(h % 7);
        h = h / 7 + 0x9e3779b9U * (count + 1);
        if (count == 0)
            continue;
        reactions.append(QJsonObject{{u"emoji"_s, QString::fromLatin1(name)}, {u"count"_s, count}});
        *total += count;
    }
    return reactions;
}

QJsonObject postResource(const ChatPost &post)
{
    return Blocks::resource(u"chat://posts/"_s + post.id, u"application/json"_s,
                            pretty(Catalog::postJson(post)));
}

// An optional string argument: its value, the fallback when absent, nullopt when not a string.
std::optional<QString> optionalString(const QJsonObject &arguments, const QString &key,
                                      const QString &fallback)
{
    const QJsonValue value = arguments.value(key);
    if (value.isUndefined() || value.isNull())
        return fallback;
    if (!value.isString())
        return std::nullopt;
    return value.toString();
}

// An optional whole-number argument within [low, high]: nullopt when it is anything else.
std::optional<int> optionalInt(const QJsonObject &arguments, const QString &key, int fallback, int low,
                               int high)
{
    const QJsonValue value = arguments.value(key);
    if (value.isUndefined() || value.isNull())
        return fallback;
    const double number = value.toDouble(-1e300);
    if (!value.isDouble() || number != double(qint64(number)) || number < low || number > high)
        return std::nullopt;
    return int(number);
}

} // namespace

namespace Blocks {

QJsonObject text(const QString &text)
{
    return QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, text}};
}

QJsonObject image(const QByteArray &png)
{
    return QJsonObject{{u"type"_s, u"image"_s},
                       {u"data"_s, QString::fromLatin1(png.toBase64())},
                       {u"mimeType"_s, u"image/png"_s}};
}

QJsonObject audio(const QByteArray &wav)
{
    return QJsonObject{{u"type"_s, u"audio"_s},
                       {u"data"_s, QString::fromLatin1(wav.toBase64())},
                       {u"mimeType"_s, u"audio/wav"_s}};
}

QJsonObject resource(const QString &uri, const QString &mimeType, const QString &text)
{
    return QJsonObject{
        {u"type"_s, u"resource"_s},
        {u"resource"_s, QJsonObject{{u"uri"_s, uri}, {u"mimeType"_s, mimeType}, {u"text"_s, text}}}};
}

QJsonObject link(const QString &uri, const QString &name, const QString &mimeType, const QString &description)
{
    return QJsonObject{{u"type"_s, u"resource_link"_s},
                       {u"uri"_s, uri},
                       {u"name"_s, name},
                       {u"mimeType"_s, mimeType},
                       {u"description"_s, description}};
}

QJsonObject toolResult(const QJsonArray &content, bool isError)
{
    QJsonObject result{{u"content"_s, content}};
    if (isError)
        result.insert(u"isError"_s, true);
    return result;
}

} // namespace Blocks

Content::Content(const Catalog &catalog, const Scenario &scenario, const InputRequests &inputRequests)
    : m_catalog(catalog)
    , m_scenario(scenario)
    , m_inputRequests(inputRequests)
{}

std::optional<Answer> Content::callTool(const QString &name, const QJsonObject &arguments,
                                        const CallContext &context) const
{
    auto required = [&](const QString &key) { return arguments.value(key).toString(); };

    if (name == u"get_user"_s || name == u"get_channel"_s || name == u"get_post"_s) {
        const QString noun = name.mid(4);
        const QString id = required(noun + u"_id"_s);
        std::optional<QJsonObject> entity;
        if (const ChatUser *user = noun == u"user"_s ? userById(m_catalog, id) : nullptr)
            entity = Catalog::userJson(*user);
        else if (const ChatChannel *channel = noun == u"channel"_s ? channelById(m_catalog, id) : nullptr)
            entity = Catalog::channelJson(*channel);
        else if (const auto post = noun == u"post"_s ? findPost(id) : std::nullopt)
            entity = Catalog::postJson(*post);
        if (!entity)
            return toolError(u"No %1 with id \"%2\" in the demo chat."_s.arg(noun, id));
        QJsonObject result = Blocks::toolResult({Blocks::text(compact(*entity))});
        result.insert(u"structuredContent"_s, *entity);
        return Answer::ok(result);
    }
    if (name == u"audit_role"_s) {
        const QString role = required(u"role_id"_s);
        // Deliberately off its outputSchema: findings should be an array, score an integer.
        QJsonObject result = Blocks::toolResult(
            {Blocks::text(u"Role %1: no findings, score 97. (Demo: structuredContent does not match "
                          "outputSchema on purpose.)"_s.arg(role))});
        result.insert(
            u"structuredContent"_s,
            QJsonObject{{u"role_id"_s, role}, {u"findings"_s, u"none found"_s}, {u"score"_s, u"97"_s}});
        return Answer::ok(result);
    }
    if (name == u"preview_file"_s) {
        const QString file = required(u"file_id"_s);
        const auto size = optionalString(arguments, u"size"_s, u"small"_s);
        if (!size || (*size != u"small"_s && *size != u"large"_s))
            return toolError(u"size must be \"small\" or \"large\"."_s);
        const int scale = *size == u"large"_s ? 4 : 1;
        return Answer::ok(Blocks::toolResult(
            {Blocks::text(u"Preview of %1 (%2, %3x%3 PNG)."_s.arg(file, *size).arg(16 * scale)),
             Blocks::image(Media::png(scale)),
             Blocks::link(u"chat://files/"_s + file, file,
                          file.endsWith(u".wav"_s) ? u"audio/wav"_s : u"image/png"_s,
                          u"The file itself"_s)}));
    }
    if (name == u"snooze_reminder"_s) {
        const auto minutes = optionalInt(arguments, u"minutes"_s, 10, 5, 60);
        if (!minutes || !QList<int>{5, 10, 30, 60}.contains(*minutes))
            return toolError(u"minutes must be one of 5, 10, 30, 60."_s);
        const QString at = QDateTime::currentDateTimeUtc().addSecs(60 * *minutes).toString(u"HH:mm"_s);
        return Answer::ok(Blocks::toolResult(
            {Blocks::text(u"Reminder %1 snoozed for %2 minutes; it rings again at %3 UTC."_s
                              .arg(required(u"reminder_id"_s))
                              .arg(*minutes)
                              .arg(at)),
             Blocks::audio(Media::wav())}));
    }
    if (name == u"follow_thread"_s || name == u"pin_post"_s || name == u"summarize_reactions"_s) {
        const QString key = name == u"follow_thread"_s ? u"thread_id"_s
                            : name == u"pin_post"_s    ? u"post_id"_s
                                                       : u"reaction_id"_s;
        const auto post = findPost(required(key));
        if (!post)
            return toolError(u"No post with id \"%1\" in the demo chat."_s.arg(required(key)));
        const QString uri = u"chat://posts/"_s + post->id;
        if (name == u"follow_thread"_s) {
            return Answer::ok(Blocks::toolResult(
                {Blocks::text(u"You now follow the thread of %1 in ~%2."_s.arg(post->id, post->channel)),
                 postResource(*post)}));
        }
        if (name == u"pin_post"_s) {
            return Answer::ok(Blocks::toolResult(
                {Blocks::text(u"Pinned %1 to ~%2 (demo: nothing changed)."_s.arg(post->id, post->channel)),
                 Blocks::link(uri, post->id, u"application/json"_s,
                              u"Post in ~%1 by @%2"_s.arg(post->channel, post->user))}));
        }
        int total = 0;
        const QJsonArray reactions = reactionsOf(post->id, &total);
        QJsonObject result = Blocks::toolResult(
            {Blocks::text(u"%1 reactions on %2 by @%3."_s.arg(total).arg(post->id, post->user)),
             Blocks::image(Media::png()), postResource(*post),
             Blocks::link(uri + u"/reactions"_s, post->id + u"-reactions"_s, u"application/json"_s,
                          u"The reactions as a resource"_s)});
        result.insert(
            u"structuredContent"_s,
            QJsonObject{{u"post_id"_s, post->id}, {u"reactions"_s, reactions}, {u"total"_s, total}});
        return Answer::ok(result);
    }
    if (name == u"run_playbook"_s) {
        const auto steps = optionalInt(arguments, u"steps"_s, 5, 1, 20);
        const auto stepMs = optionalInt(arguments, u"stepMs"_s, 1000, 0, 10000);
        if (!steps || !stepMs)
            return toolError(u"steps must be a whole number from 1 to 20, stepMs from 0 to 10000."_s);
        return Answer::progress(
            Blocks::toolResult({Blocks::text(
                u"Playbook %1 finished its %2 steps."_s.arg(required(u"playbook_id"_s)).arg(*steps))}),
            *steps, *stepMs);
    }
    if (name == u"execute_command"_s) {
        const QString command = arguments.value(u"command"_s).toString(u"/echo"_s);
        if (!QStringList{u"/echo"_s, u"/away"_s, u"/online"_s, u"/dnd"_s, u"/remind"_s}.contains(command))
            return toolError(
                u"Unknown command \"%1\": try /echo, /away, /online, /dnd or /remind."_s.arg(command));
        QStringList targets;
        for (const QJsonValue &target : arguments.value(u"targets"_s).toArray()) {
            const QString kind = target[u"kind"_s].toString();
            const QString who = target[u"name"_s].toString();
            if ((kind != u"user"_s && kind != u"channel"_s) || who.isEmpty())
                return toolError(u"Each target needs kind \"user\" or \"channel\" and a name."_s);
            targets.append((kind == u"user"_s ? u"@"_s : u"~"_s) + who);
        }
        if (command == u"/remind"_s && targets.isEmpty())
            return toolError(u"/remind needs at least one target."_s);
        const QJsonObject options = arguments.value(u"options"_s).toObject();
        const QJsonObject schedule = options.value(u"schedule"_s).toObject();
        return Answer::ok(Blocks::toolResult({Blocks::text(
            u"Demo: %1 %2 (priority %3, %4, repeat %5%6)%7. The demo server changes nothing."_s.arg(
                command, arguments.value(u"text"_s).toString(),
                options.value(u"priority"_s).toString(u"normal"_s),
                options.value(u"silent"_s).toBool() ? u"silent"_s : u"with notifications"_s,
                schedule.value(u"repeat"_s).toString(u"never"_s),
                schedule.contains(u"at"_s) ? u", at "_s + schedule.value(u"at"_s).toString() : QString(),
                targets.isEmpty() ? QString() : u" for "_s + targets.join(u", "_s)))}));
    }
    if (name == u"send_draft"_s) {
        const QString draft = required(u"draft_id"_s);
        if (!context.modern) {
            return Answer::ok(Blocks::toolResult({Blocks::text(
                u"Demo: draft %1 sent. (On 2026-07-28 this tool asks you to confirm first.)"_s.arg(draft))}));
        }
        if (!context.clientCapabilities.contains(u"elicitation"_s))
            return toolError(u"send_draft asks you to confirm by elicitation/create; declare the elicitation "
                             "client capability to use it."_s);
        std::optional<Answer> protocolError;
        const QJsonObject responses = InputRequests::responses(context.params, &protocolError);
        if (protocolError)
            return *protocolError;
        const QJsonObject ask = InputRequests::elicitation(
            u"Send draft %1 now?"_s.arg(draft),
            QJsonObject{{u"type"_s, u"object"_s},
                        {u"properties"_s,
                         QJsonObject{{u"confirm"_s, QJsonObject{{u"type"_s, u"boolean"_s},
                                                                {u"title"_s, u"Send it"_s},
                                                                {u"default"_s, true}}},
                                     {u"when"_s, QJsonObject{{u"type"_s, u"string"_s},
                                                             {u"enum"_s, QJsonArray{u"now"_s, u"in an hour"_s,
                                                                                    u"tomorrow morning"_s}},
                                                             {u"default"_s, u"now"_s}}}}},
                        {u"required"_s, QJsonArray{u"confirm"_s}}});
        const QString state = m_inputRequests.sign(QJsonObject{{u"tool"_s, name}, {u"draft"_s, draft}});
        if (responses.isEmpty())
            return Answer::ok(InputRequests::inputRequired(QJsonObject{{u"confirm"_s, ask}}, state));
        const auto verified = m_inputRequests.verify(context.params.value(u"requestState"_s).toString());
        if (!verified || verified->value(u"draft"_s).toString() != draft)
            return Answer::error(invalidParams, u"Invalid params: requestState does not verify"_s);
        bool declined = false;
        const auto answer = InputRequests::accepted(responses, u"confirm"_s, &declined);
        if (!answer)
            return Answer::ok(InputRequests::inputRequired(QJsonObject{{u"confirm"_s, ask}}, state));
        if (declined || !answer->value(u"confirm"_s).toBool())
            return Answer::ok(Blocks::toolResult({Blocks::text(u"Draft %1 was not sent."_s.arg(draft))}));
        return Answer::ok(Blocks::toolResult({Blocks::text(u"Demo: draft %1 sent %2 (nothing changed)."_s.arg(
            draft, answer->value(u"when"_s).toString(u"now"_s)))}));
    }
    return std::nullopt;
}

Answer Content::getPrompt(const QJsonObject &prompt, const QJsonObject &arguments) const
{
    const QString name = prompt.value(u"name"_s).toString();
    for (const QJsonValue &declared : prompt.value(u"arguments"_s).toArray()) {
        const QString key = declared[u"name"_s].toString();
        const QJsonValue value = arguments.value(key);
        const bool present = !value.isUndefined() && !value.isNull();
        if ((declared[u"required"_s].toBool() && !value.isString()) || (present && !value.isString())) {
            return Answer::error(invalidParams,
                                 u"Invalid params: prompt %1 needs the argument %2"_s.arg(name, key));
        }
    }
    auto arg = [&](const QString &key, const QString &fallback = {}) {
        return arguments.value(key).toString(fallback);
    };
    auto message = [](const QString &role, const QJsonObject &content) {
        return QJsonObject{{u"role"_s, role}, {u"content"_s, content}};
    };
    const QJsonValue description = prompt.value(u"description"_s);
    QJsonArray messages;
    if (name == u"summarize_channel"_s) {
        const ChatChannel *channel = channelByName(m_catalog, arg(u"channel"_s));
        if (!channel)
            return Answer::error(invalidParams,
                                 u"Invalid params: no channel \"%1\""_s.arg(arg(u"channel"_s)));
        messages.append(message(u"user"_s, Blocks::text(u"Summarize what happened in ~%1 since %2, %3. The "
                                                        "channel is attached."_s.arg(
                                                            channel->name, arg(u"since"_s, u"yesterday"_s),
                                                            arg(u"style"_s, u"brief"_s)))));
        messages.append(
            message(u"user"_s, Blocks::resource(u"chat://channels/"_s + channel->name, u"application/json"_s,
                                                pretty(Catalog::channelJson(*channel)))));
    } else if (name == u"celebrate_win"_s) {
        messages.append(message(
            u"user"_s,
            Blocks::text(u"Write a short note celebrating @%1's win :%2:, and "
                         "use the badge below."_s.arg(arg(u"username"_s), arg(u"emoji"_s, u"tada"_s)))));
        messages.append(message(u"user"_s, Blocks::image(Media::png(2))));
    } else if (name == u"draft_announcement"_s) {
        messages.append(message(
            u"user"_s,
            Blocks::text(u"Draft a short announcement about %1 for a team "
                         "channel, in a %2 tone."_s.arg(arg(u"topic"_s), arg(u"tone"_s, u"friendly"_s)))));
        messages.append(message(
            u"assistant"_s,
            Blocks::text(u"Here is a first draft: \"Heads up, everyone: %1.\""_s.arg(arg(u"topic"_s)))));
    } else {
        const QJsonObject first = prompt.value(u"arguments"_s).toArray().first().toObject();
        const QString key = first.value(u"name"_s).toString();
        messages.append(
            message(u"user"_s, Blocks::text(u"%1 (%2: %3)"_s.arg(description.toString(), key, arg(key)))));
    }
    return Answer::ok(QJsonObject{{u"description"_s, description}, {u"messages"_s, messages}});
}

Answer Content::updatePost(const QJsonObject &arguments, QString *changedUri)
{
    const QJsonValue id = arguments.value(u"post_id"_s);
    const QJsonValue message = arguments.value(u"message"_s);
    if (!id.isString())
        return toolError(u"update_post needs post_id, a post id such as p00001."_s);
    const auto post = findPost(id.toString());
    if (!post)
        return toolError(
            u"No post with id \"%1\" in the demo chat; nothing was changed."_s.arg(id.toString()));
    if (!message.isString())
        return toolError(u"update_post needs message, the post's new text; nothing was changed."_s);
    m_editedMessages.insert(post->id, message.toString());
    *changedUri = u"chat://posts/"_s + post->id;
    return Answer::ok(Blocks::toolResult(
        {Blocks::text(u"Updated %1 in ~%2: its message is now \"%3\". Subscribers of %4 were told."_s.arg(
            post->id, post->channel, message.toString(), *changedUri))}));
}

ChatPost Content::edited(const ChatPost &post) const
{
    const auto it = m_editedMessages.constFind(post.id);
    if (it == m_editedMessages.constEnd())
        return post;
    ChatPost copy = post;
    copy.message = *it;
    return copy;
}

std::optional<ChatPost> Content::findPost(const QString &id) const
{
    const ChatPost *post = postById(m_catalog, id);
    if (!post)
        return std::nullopt;
    return edited(*post);
}

Content::Hints Content::hintsOf(const QString &kind)
{
    static const QHash<QString, Hints> table{
        {u"channel"_s, {12000, "public"}},         {u"channel-posts"_s, {15000, "public"}},
        {u"channel-members"_s, {60000, "public"}}, {u"user"_s, {60000, "private"}},
        {u"user-status"_s, {8000, "private"}},     {u"user-posts"_s, {30000, "private"}},
        {u"post"_s, {300000, "public"}},           {u"post-reactions"_s, {20000, "public"}},
        {u"archive"_s, {3600000, "public"}},       {u"emoji"_s, {86400000, "public"}},
        {u"file"_s, {600000, "private"}},          {u"search"_s, {10000, "private"}}};
    return table.value(kind, Hints{30000, "private"});
}

std::optional<QJsonObject> Content::read(const QString &uri, bool modern) const
{
    QString kind;
    const auto contents = contentsOf(uri, &kind);
    if (!contents)
        return std::nullopt;
    QJsonObject result{{u"contents"_s, QJsonArray{*contents}}};
    if (!modern)
        return result;
    const Hints hints = hintsOf(kind);
    result.insert(u"ttlMs"_s, hints.ttlMs);
    result.insert(u"cacheScope"_s, QString::fromLatin1(hints.cacheScope));
    // The hint bugs of the resources list reach its reads too: channels and user profiles misbehave,
    // everything else stays healthy so that the two stand out.
    const ListBehaviour resources = m_scenario.behaviour(u"resources"_s);
    if (resources.is("hints-missing")) {
        if (kind == u"channel"_s)
            result.remove(u"ttlMs"_s);
        else if (kind == u"user"_s)
            result.remove(u"cacheScope"_s);
    } else if (resources.is("hints-invalid")) {
        if (kind == u"channel"_s)
            result.insert(u"ttlMs"_s, -1000);
        else if (kind == u"user"_s)
            result.insert(u"cacheScope"_s, u"shared"_s);
    }
    return result;
}

std::optional<QJsonObject> Content::contentsOf(const QString &uri, QString *kind) const
{
    auto json = [&uri](const QJsonValue &value) {
        const QJsonDocument document =
            value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
        return QJsonObject{{u"uri"_s, uri},
                           {u"mimeType"_s, u"application/json"_s},
                           {u"text"_s, QString::fromUtf8(document.toJson(QJsonDocument::Indented))}};
    };
    auto blob = [&uri](const QByteArray &bytes, const QString &mimeType) {
        return QJsonObject{
            {u"uri"_s, uri}, {u"mimeType"_s, mimeType}, {u"blob"_s, QString::fromLatin1(bytes.toBase64())}};
    };
    const QString rest = uri.startsWith(u"chat://"_s) ? uri.mid(7) : QString();
    const QStringList parts = rest.split(u'/');
    if (rest.isEmpty() || parts.contains(QString()))
        return std::nullopt;
    const QString &head = parts.at(0);

    // The list's own items first: the same text as before, whatever the kind.
    if (parts.size() == 2 &&
        (head == u"channels"_s || head == u"users"_s || head == u"posts"_s || head == u"archive"_s)) {
        const auto text = m_catalog.readResource(uri);
        if (!text)
            return std::nullopt;
        *kind = head == u"archive"_s ? head : head.chopped(1);
        if (head == u"posts"_s && m_editedMessages.contains(parts.at(1))) // update_post changed it
            return json(Catalog::postJson(*findPost(parts.at(1))));
        return QJsonObject{{u"uri"_s, uri}, {u"mimeType"_s, u"application/json"_s}, {u"text"_s, *text}};
    }
    if (head == u"channels"_s && parts.size() == 3) {
        const ChatChannel *channel = channelByName(m_catalog, parts.at(1));
        if (!channel)
            return std::nullopt;
        *kind = u"channel-"_s + parts.at(2);
        QJsonArray items;
        if (parts.at(2) == u"posts"_s) {
            for (const ChatPost &post : m_catalog.posts()) {
                if (post.channel == channel->name && items.size() < 20)
                    items.append(Catalog::postJson(edited(post)));
            }
        } else if (parts.at(2) == u"members"_s) {
            const auto &users = m_catalog.users();
            for (int i = 0; i < 12; ++i)
                items.append(users.at(int((hashOf(channel->name) + 97U * quint32(i)) % quint32(users.size())))
                                 .username);
        } else if (parts.at(2) != u"pinned"_s && parts.at(2) != u"bookmarks"_s) {
            return std::nullopt;
        }
        return json(QJsonObject{{u"channel"_s, channel->name}, {parts.at(2), items}});
    }
    if (head == u"users"_s && parts.size() == 3) {
        const ChatUser *user = userByName(m_catalog, parts.at(1));
        if (!user)
            return std::nullopt;
        *kind = u"user-"_s + parts.at(2);
        if (parts.at(2) == u"status"_s) {
            static const char *const presence[] = {"online", "away", "dnd", "offline"};
            // Presence moves on every 8 s, the status read's TTL: a re-read after expiry may differ.
            const qint64 slot = QDateTime::currentMSecsSinceEpoch() / 8000;
            return json(QJsonObject{
                {u"username"_s, user->username},
                {u"presence"_s, QString::fromLatin1(presence[(hashOf(user->username) + quint64(slot)) % 4])},
                {u"custom_status"_s, user->position}});
        }
        if (parts.at(2) == u"posts"_s) {
            QList<ChatPost> posts;
            for (const ChatPost &post : m_catalog.posts()) {
                if (post.user == user->username)
                    posts.append(post);
            }
            std::sort(posts.begin(), posts.end(),
                      [](const ChatPost &a, const ChatPost &b) { return a.createAt > b.createAt; });
            QJsonArray items;
            for (const ChatPost &post : posts.mid(0, 20))
                items.append(Catalog::postJson(edited(post)));
            return json(QJsonObject{{u"user"_s, user->username}, {u"posts"_s, items}});
        }
        return std::nullopt;
    }
    if (head == u"posts"_s && parts.size() == 3) {
        const auto post = findPost(parts.at(1));
        if (!post)
            return std::nullopt;
        *kind = u"post-"_s + parts.at(2);
        if (parts.at(2) == u"reactions"_s) {
            int total = 0;
            const QJsonArray reactions = reactionsOf(post->id, &total);
            return json(
                QJsonObject{{u"post_id"_s, post->id}, {u"reactions"_s, reactions}, {u"total"_s, total}});
        }
        if (parts.at(2) == u"thread"_s)
            return json(QJsonArray{Catalog::postJson(*post)});
        if (parts.at(2) == u"files"_s)
            return json(QJsonArray{});
        return std::nullopt;
    }
    if (head == u"emoji"_s && parts.size() == 2) {
        *kind = u"emoji"_s;
        return blob(Media::png(), u"image/png"_s);
    }
    if (head == u"files"_s && parts.size() == 2) {
        *kind = u"file"_s;
        const QString &file = parts.at(1);
        if (file.endsWith(u".png"_s))
            return blob(Media::png(4), u"image/png"_s);
        if (file.endsWith(u".wav"_s))
            return blob(Media::wav(), u"audio/wav"_s);
        return json(QJsonObject{{u"id"_s, file}, {u"name"_s, file}, {u"size"_s, 0}});
    }
    if ((head == u"teams"_s || head == u"groups"_s) && parts.size() <= 3) {
        *kind = head.chopped(1);
        QJsonObject object{{u"name"_s, parts.at(1)}};
        if (parts.size() == 3) {
            if (head != u"teams"_s || (parts.at(2) != u"channels"_s && parts.at(2) != u"members"_s))
                return std::nullopt;
            object.insert(parts.at(2), QJsonArray{});
        }
        return json(object);
    }
    if (head.startsWith(u"search"_s) && parts.size() == 2) {
        *kind = u"search"_s;
        const int question = parts.at(1).indexOf(u'?');
        const QString what = question < 0 ? parts.at(1) : parts.at(1).left(question);
        const QUrlQuery query(question < 0 ? QString() : parts.at(1).mid(question + 1));
        QJsonArray items;
        if (what == u"posts"_s) {
            const QString q = query.queryItemValue(u"q"_s, QUrl::FullyDecoded);
            for (const ChatPost &post : m_catalog.posts()) {
                if (items.size() < 20 && edited(post).message.contains(q, Qt::CaseInsensitive))
                    items.append(Catalog::postJson(edited(post)));
            }
        } else if (what == u"users"_s) {
            const QString term = query.queryItemValue(u"term"_s, QUrl::FullyDecoded);
            for (const ChatUser &user : m_catalog.users()) {
                if (items.size() < 20 && user.username.contains(term, Qt::CaseInsensitive))
                    items.append(Catalog::userJson(user));
            }
        } else {
            return std::nullopt;
        }
        return json(QJsonObject{{what, items}});
    }
    return std::nullopt;
}

QStringList Content::candidates(const QString &argument) const
{
    QStringList values;
    if (argument == u"channel"_s) {
        for (const ChatChannel &channel : m_catalog.channels())
            values.append(channel.name);
    } else if (argument == u"username"_s) {
        for (const ChatUser &user : m_catalog.users())
            values.append(user.username);
    } else if (argument == u"post_id"_s) {
        for (const ChatPost &post : m_catalog.posts())
            values.append(post.id);
        values.sort();
    } else if (argument == u"style"_s) {
        values = {u"brief"_s, u"detailed"_s};
    } else if (argument == u"tone"_s) {
        values = {u"formal"_s, u"friendly"_s, u"urgent"_s};
    } else if (argument == u"since"_s) {
        values = {u"1h"_s, u"2h"_s, u"today"_s, u"yesterday"_s, u"last week"_s};
    } else if (argument == u"language"_s) {
        values = {u"English"_s, u"French"_s, u"German"_s, u"Japanese"_s, u"Spanish"_s};
    } else if (argument == u"emoji"_s || argument == u"name"_s) {
        values = {u"eyes"_s, u"heart"_s, u"rocket"_s, u"tada"_s, u"thumbsup"_s};
    }
    return values;
}

Answer Content::complete(const QJsonObject &params) const
{
    const QJsonObject ref = params.value(u"ref"_s).toObject();
    const QJsonObject argument = params.value(u"argument"_s).toObject();
    const QString type = ref.value(u"type"_s).toString();
    const QString name = argument.value(u"name"_s).toString();
    if (!argument.value(u"name"_s).isString() || !argument.value(u"value"_s).isString())
        return Answer::error(invalidParams, u"Invalid params: argument needs a string name and value"_s);
    bool known = false;
    if (type == u"ref/prompt"_s) {
        const auto prompt = m_catalog.prompt(ref.value(u"name"_s).toString());
        if (!prompt)
            return Answer::error(invalidParams,
                                 u"Invalid params: unknown prompt %1"_s.arg(ref.value(u"name"_s).toString()));
        for (const QJsonValue &declared : prompt->value(u"arguments"_s).toArray())
            known = known || declared[u"name"_s].toString() == name;
    } else if (type == u"ref/resource"_s) {
        const QString uriTemplate = ref.value(u"uri"_s).toString();
        bool found = false;
        for (const QJsonObject &t : m_catalog.templates())
            found = found || t.value(u"uriTemplate"_s).toString() == uriTemplate;
        if (!found)
            return Answer::error(invalidParams,
                                 u"Invalid params: unknown resource template %1"_s.arg(uriTemplate));
        known = uriTemplate.contains(u'{' + name + u'}') || uriTemplate.contains(u"{?"_s + name + u'}');
    } else {
        return Answer::error(invalidParams, u"Invalid params: ref.type must be ref/prompt or ref/resource"_s);
    }
    if (!known)
        return Answer::error(invalidParams, u"Invalid params: no argument %1 there"_s.arg(name));

    const QString typed = argument.value(u"value"_s).toString();
    QStringList matches;
    for (const QString &value : candidates(name)) {
        if (value.startsWith(typed, Qt::CaseInsensitive))
            matches.append(value);
    }
    QJsonObject completion{{u"values"_s, QJsonArray::fromStringList(matches.mid(0, completionLimit))},
                           {u"total"_s, int(matches.size())},
                           {u"hasMore"_s, matches.size() > completionLimit}};
    return Answer::ok(QJsonObject{{u"completion"_s, completion}});
}

} // namespace demo
