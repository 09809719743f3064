#include "catalog.h"

#include "jsontext.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <array>

namespace {

// SplitMix64: tiny, fast and the same everywhere (std distributions are implementation-defined).
class Random
{
public:
    explicit Random(quint64 seed)
        : m_state(seed)
    {}
    quint64 next()
    {
        quint64 z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return int(next() % quint64(n)); }
    template<typename T> void shuffle(QList<T> &list)
    {
        for (qsizetype i = list.size() - 1; i > 0; --i)
            list.swapItemsAt(i, below(int(i + 1)));
    }

private:
    quint64 m_state;
};

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QJsonObject stringProperty(const QString &description)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                       {QStringLiteral("description"), description}};
}

QJsonObject schema(const QJsonObject &properties, const QStringList &required)
{
    QJsonObject result{{QStringLiteral("type"), QStringLiteral("object")},
                       {QStringLiteral("properties"), properties}};
    if (!required.isEmpty())
        result.insert(QStringLiteral("required"), QJsonArray::fromStringList(required));
    return result;
}

QJsonObject annotations(bool readOnly, bool destructive)
{
    QJsonObject result{{QStringLiteral("readOnlyHint"), readOnly}};
    if (!readOnly)
        result.insert(QStringLiteral("destructiveHint"), destructive);
    return result;
}

struct Entity
{
    const char *name;
    const char *about;
    const char *field;
    const char *fieldAbout;
    const char *special;
    const char *specialAbout;
};

// Each entity gets get_, create_, update_, delete_ and one tool of its own.
const std::array<Entity, 24> entities{{
    {"post", "a message posted in a channel", "message", "Markdown text of the post", "pin_post",
     "Pin a post to its channel so it shows in the channel's pinned list."},
    {"channel", "a conversation space inside a team", "purpose", "What the channel is for", "mute_channel",
     "Mute a channel for the calling user: no unread badge, no notifications."},
    {"user", "a person's account on the server", "position", "Job title shown on the profile",
     "deactivate_user", "Deactivate a user: they can no longer log in and leave every channel."},
    {"team", "a workspace that groups channels and members", "description", "Shown on the team list",
     "join_team", "Add the calling user to a team they are allowed to join."},
    {"thread", "a root post together with its replies", "message", "Text of the root post", "follow_thread",
     "Follow a thread so new replies show in the user's followed threads."},
    {"reaction", "an emoji reaction on a post", "emoji_name", "Emoji name without colons",
     "summarize_reactions", "Count the reactions on a post, grouped by emoji."},
    {"file", "an attachment uploaded to a post", "filename", "Name the file is shown under", "preview_file",
     "Return a preview image URL for an uploaded file."},
    {"emoji", "a custom emoji uploaded by a team member", "image_url", "URL of a PNG or GIF image",
     "rename_emoji", "Give a custom emoji a new name; old posts show the new name."},
    {"webhook", "an incoming webhook that posts into a channel", "display_name", "Name shown on posts",
     "regenerate_webhook_token", "Issue a new secret for a webhook; the old URL stops working."},
    {"bot", "a bot account owned by a user", "description", "What the bot does", "assign_bot",
     "Hand a bot over to another owner."},
    {"command", "a slash command that calls an external URL", "trigger", "Word after the slash",
     "execute_command", "Run a slash command in a channel as the calling user."},
    {"reminder", "a message the server sends a user at a set time", "when", "ISO 8601 time or 'in 2h'",
     "snooze_reminder", "Move a due reminder later by the given delay."},
    {"bookmark", "a link saved at the top of a channel", "link_url", "Address the bookmark opens",
     "reorder_bookmark", "Move a bookmark to another position in the channel's bookmark bar."},
    {"draft", "an unsent message kept for a channel or thread", "message", "Text of the draft", "send_draft",
     "Post a draft to its channel or thread and delete the draft."},
    {"status", "a user's presence and custom status", "text", "Custom status text", "clear_status",
     "Remove the custom status and emoji of the calling user."},
    {"preference", "a per-user setting such as theme or density", "value", "New value of the setting",
     "reset_preference", "Put a preference back to the server default."},
    {"group", "a user group that can be mentioned as @name", "display_name", "Name shown in mentions",
     "sync_group", "Synchronise a group's members from the directory service."},
    {"role", "a named set of permissions", "permissions", "Space-separated permission names", "audit_role",
     "List who holds a role and what it can do."},
    {"invite", "an invitation for someone to join a team", "email", "Address the invitation goes to",
     "resend_invite", "Send an unanswered invitation again."},
    {"scheduled_post", "a post that goes out at a set time", "send_at", "ISO 8601 time to post",
     "reschedule_post", "Move a scheduled post to another time."},
    {"category", "a sidebar category that groups channels", "display_name", "Name in the sidebar",
     "collapse_category", "Collapse or expand a sidebar category for the calling user."},
    {"playbook", "a checklist-driven process run in a channel", "title", "Title of the playbook",
     "run_playbook", "Start a run of a playbook in a new or existing channel."},
    {"board", "a kanban board of cards linked to a channel", "title", "Title of the board", "archive_board",
     "Archive a board; its cards become read-only."},
    {"poll", "a question with options that members vote on", "question", "The question asked", "close_poll",
     "Close a poll and post the results to its channel."},
}};

struct PromptSpec
{
    const char *name;
    const char *description;
    const char *argument;
    const char *argumentAbout;
};

const std::array<PromptSpec, 30> promptSpecs{{
    {"summarize_channel", "Summarize what happened in a channel since a given time.", "channel",
     "Channel name"},
    {"summarize_thread", "Summarize a thread: the question, the answers and what was decided.", "post_id",
     "Id of the root post"},
    {"draft_announcement", "Draft a short announcement for a team channel.", "topic", "What to announce"},
    {"weekly_digest", "Write a weekly digest of the busiest channels in a team.", "team", "Team name"},
    {"standup_notes", "Turn today's messages in a channel into stand-up notes.", "channel", "Channel name"},
    {"catch_me_up", "Tell me what I missed in a channel, most important first.", "channel", "Channel name"},
    {"explain_decision", "Explain a decision made in a thread and who made it.", "post_id",
     "Id of the root post"},
    {"translate_post", "Translate a post into another language, keeping mentions intact.", "language",
     "Target language"},
    {"rewrite_polite", "Rewrite a message so it reads friendly and clear.", "text", "The message"},
    {"incident_timeline", "Build a timeline of an incident from its channel.", "channel", "Incident channel"},
    {"incident_postmortem", "Draft a blameless postmortem from an incident channel.", "channel",
     "Incident channel"},
    {"meeting_agenda", "Propose a meeting agenda from open questions in a channel.", "channel",
     "Channel name"},
    {"action_items", "List the action items and owners agreed in a channel.", "channel", "Channel name"},
    {"welcome_new_member", "Write a welcome message for someone who just joined.", "username",
     "The new member"},
    {"onboarding_checklist", "Produce an onboarding checklist from a team's pinned posts.", "team",
     "Team name"},
    {"find_experts", "Find who answers questions about a topic most often.", "topic", "The topic"},
    {"sentiment_report", "Report the mood of a channel over the last week.", "channel", "Channel name"},
    {"faq_from_channel", "Collect frequently asked questions and their best answers.", "channel",
     "Channel name"},
    {"release_notes", "Draft release notes from a release channel's posts.", "channel", "Release channel"},
    {"retro_summary", "Summarize a retrospective: what went well, what to change.", "channel",
     "Retro channel"},
    {"triage_questions", "Sort unanswered questions in a channel by urgency.", "channel", "Channel name"},
    {"customer_reply", "Draft a reply to a customer question posted in a channel.", "post_id",
     "Id of the question"},
    {"escalation_summary", "Summarize an escalated thread for a manager.", "post_id", "Id of the root post"},
    {"channel_purpose", "Suggest a clear purpose line for a channel from its history.", "channel",
     "Channel name"},
    {"status_update", "Write a project status update from a project channel.", "channel", "Project channel"},
    {"poll_question", "Suggest a poll question and options for a decision.", "topic", "What to decide"},
    {"code_review_request", "Ask for a code review with the right context.", "link", "Link to the change"},
    {"handoff_notes", "Write shift hand-off notes from an operations channel.", "channel",
     "Operations channel"},
    {"on_call_summary", "Summarize pages and fixes from an on-call week.", "channel", "On-call channel"},
    {"celebrate_win", "Write a short shout-out for a teammate's win.", "username", "Who to celebrate"},
}};

struct TemplateSpec
{
    const char *uriTemplate;
    const char *name;
    const char *description;
};

const std::array<TemplateSpec, 20> templateSpecs{{
    {"chat://users/{username}", "user", "A user's profile"},
    {"chat://users/{username}/posts", "user-posts", "Recent posts by a user"},
    {"chat://users/{username}/status", "user-status", "A user's presence and custom status"},
    {"chat://channels/{channel}", "channel", "A channel's header, purpose and settings"},
    {"chat://channels/{channel}/posts", "channel-posts", "A channel's most recent posts"},
    {"chat://channels/{channel}/pinned", "channel-pinned", "Posts pinned in a channel"},
    {"chat://channels/{channel}/members", "channel-members", "Members of a channel"},
    {"chat://channels/{channel}/bookmarks", "channel-bookmarks", "Links bookmarked in a channel"},
    {"chat://posts/{post_id}", "post", "One post"},
    {"chat://posts/{post_id}/thread", "post-thread", "A post's thread, root first"},
    {"chat://posts/{post_id}/reactions", "post-reactions", "Reactions on a post"},
    {"chat://posts/{post_id}/files", "post-files", "Files attached to a post"},
    {"chat://teams/{team}", "team", "A team's settings"},
    {"chat://teams/{team}/channels", "team-channels", "Public channels of a team"},
    {"chat://teams/{team}/members", "team-members", "Members of a team"},
    {"chat://files/{file_id}", "file", "An uploaded file's metadata"},
    {"chat://emoji/{name}", "emoji", "A custom emoji"},
    {"chat://search/posts{?q}", "search-posts", "Posts matching a search"},
    {"chat://search/users{?term}", "search-users", "Users matching a term"},
    {"chat://groups/{group}", "group", "A user group and its members"},
}};

const std::array<const char *, 40> firstNames{
    {"Ada",  "Ben",    "Chloe", "Dev",  "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonas",
     "Kai",  "Lena",   "Mateo", "Nora", "Omar",  "Priya", "Quinn", "Rosa", "Sami", "Tess",
     "Uma",  "Victor", "Wen",   "Xavi", "Yara",  "Zane",  "Amir",  "Bea",  "Carl", "Dana",
     "Emil", "Fay",    "Gus",   "Hana", "Ivo",   "Jade",  "Kofi",  "Lior", "Mira", "Nils"}};
const std::array<const char *, 40> lastNames{
    {"Abbott", "Bauer",  "Costa",   "Diaz",   "Evans",    "Fischer",  "Garcia",  "Hughes",
     "Ito",    "Jensen", "Khan",    "Larsen", "Moreau",   "Nakamura", "Okafor",  "Petrov",
     "Quispe", "Rossi",  "Silva",   "Tanaka", "Ueda",     "Varga",    "Weber",   "Xu",
     "Yilmaz", "Zimmer", "Alves",   "Brandt", "Chen",     "Dubois",   "Eriksen", "Ferreira",
     "Gupta",  "Horvat", "Ivanova", "Jovic",  "Kowalski", "Lopez",    "Murphy",  "Novak"}};
const std::array<const char *, 10> positions{{"Engineer", "Designer", "Product manager", "Support lead",
                                              "SRE", "Data analyst", "Writer", "Recruiter", "Sales engineer",
                                              "QA engineer"}};
const std::array<const char *, 20> topics{{"atlas",   "billing",  "mobile", "search",   "infra",
                                           "design",  "payments", "growth", "security", "docs",
                                           "android", "ios",      "web",    "data",     "ml",
                                           "legal",   "hiring",   "events", "support",  "platform"}};
const std::array<const char *, 4> channelKinds{{"team", "proj", "help", "ops"}};
const std::array<const char *, 12> subjects{{"the deploy", "the release", "the login bug", "the roadmap",
                                             "the migration", "the outage", "the new dashboard",
                                             "the API change", "the flaky test", "the budget",
                                             "the design review", "the customer call"}};
const std::array<const char *, 8> openers{{"Has anyone looked at", "Quick update on", "I'm blocked on",
                                           "Good news about", "Can we talk about", "Notes from",
                                           "Reminder about", "Question about"}};
const std::array<const char *, 6> closers{
    {"today?", "before Friday.", "- see thread.", "Thanks all!", "any ideas?", "(details in the doc)"}};

constexpr qint64 baseTimeMs = 1780300800000; // 2026-06-01T08:00:00Z
constexpr int userCount = 1500;
constexpr int postCount = 8420;
constexpr int burstSize = 30;

QString pretty(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
}

} // namespace

Catalog::Catalog(quint32 seed)
    : m_seed(seed)
{
    generateTools();
    generatePrompts();
    generateTemplates();
}

void Catalog::ensureChat() const
{
    if (m_chatBuilt)
        return;
    m_chatBuilt = true;
    generateChat();
}

void Catalog::generateTools()
{
    const QJsonObject limitProperty{
        {QStringLiteral("type"), QStringLiteral("integer")},
        {QStringLiteral("minimum"), 1},
        {QStringLiteral("description"), QStringLiteral("Page size; see the description for the maximum")}};
    const QJsonObject cursorProperty =
        stringProperty(QStringLiteral("next_cursor from the previous page; leave out for the first page"));

    QJsonObject searchProperties{
        {QStringLiteral("channel"), stringProperty(QStringLiteral("Channel name to read or to search in"))},
        {QStringLiteral("query"), stringProperty(QStringLiteral("Words to search for; leave out to read"))},
        {QStringLiteral("limit"), limitProperty},
        {QStringLiteral("cursor"), cursorProperty}};
    m_tools.append(QJsonObject{
        {QStringLiteral("name"), QStringLiteral("search_posts")},
        {QStringLiteral("title"), QStringLiteral("Search posts")},
        {QStringLiteral("description"),
         s("Read a channel's posts newest first (give channel), or search posts by text (give query, "
           "optionally channel). limit defaults to 20, at most 100. Pass next_cursor back as cursor "
           "with the same channel and query for the next page; it is absent on the last page. A page "
           "can exceed limit when one millisecond holds more posts. A search returns at most the 100 "
           "most recent matches and marks the answer capped when it reached them.")},
        {QStringLiteral("inputSchema"), schema(searchProperties, {})},
        {QStringLiteral("annotations"), annotations(true, false)}});

    const QJsonObject termProperty = stringProperty(QStringLiteral("Filter; leave out for everyone"));
    m_tools.append(QJsonObject{
        {QStringLiteral("name"), QStringLiteral("list_users")},
        {QStringLiteral("title"), QStringLiteral("List users")},
        {QStringLiteral("description"),
         s("List users by username, optionally those whose username or name contains term. At most "
           "1000 users for one term; the answer is marked capped when it reached them. limit defaults "
           "to 25, at most 200. Pass next_cursor back as cursor with the same term for the next page.")},
        {QStringLiteral("inputSchema"), schema(QJsonObject{{QStringLiteral("term"), termProperty},
                                                           {QStringLiteral("limit"), limitProperty},
                                                           {QStringLiteral("cursor"), cursorProperty}},
                                               {})},
        {QStringLiteral("annotations"), annotations(true, false)}});
    m_tools.append(QJsonObject{
        {QStringLiteral("name"), QStringLiteral("list_channels")},
        {QStringLiteral("title"), QStringLiteral("List channels")},
        {QStringLiteral("description"),
         s("List channels by name, optionally those whose name contains term. At most 50 channels for "
           "one term; the answer is marked capped when it reached them. limit defaults to 20, at most "
           "100. Pass next_cursor back as cursor with the same term for the next page.")},
        {QStringLiteral("inputSchema"), schema(QJsonObject{{QStringLiteral("term"), termProperty},
                                                           {QStringLiteral("limit"), limitProperty},
                                                           {QStringLiteral("cursor"), cursorProperty}},
                                               {})},
        {QStringLiteral("annotations"), annotations(true, false)}});

    for (const Entity &entity : entities) {
        const QString name = s(entity.name);
        const QString noun = QString(name).replace(QLatin1Char('_'), QLatin1Char(' '));
        const QString idKey = name + QStringLiteral("_id");
        const QJsonObject idProperty = stringProperty(QStringLiteral("Id of the %1").arg(noun));
        const QString field = s(entity.field);
        const QJsonObject fieldProperty = stringProperty(s(entity.fieldAbout));
        const QString about = s(entity.about);
        const QString article =
            QStringLiteral("aeiou").contains(noun.at(0)) ? QStringLiteral("an") : QStringLiteral("a");
        auto add = [this](const QString &toolName, const QString &title, const QString &description,
                          const QJsonObject &inputSchema, bool readOnly, bool destructive) {
            m_tools.append(QJsonObject{{QStringLiteral("name"), toolName},
                                       {QStringLiteral("title"), title},
                                       {QStringLiteral("description"), description},
                                       {QStringLiteral("inputSchema"), inputSchema},
                                       {QStringLiteral("annotations"), annotations(readOnly, destructive)}});
        };
        add(QStringLiteral("get_") + name, QStringLiteral("Get %1").arg(noun),
            QStringLiteral("Get one %1 (%2) by its id, as JSON.").arg(noun, about),
            schema(QJsonObject{{idKey, idProperty}}, {idKey}), true, false);
        add(QStringLiteral("create_") + name, QStringLiteral("Create %1").arg(noun),
            QStringLiteral("Create %1 %2: %3. Returns the new %2 with its id.").arg(article, noun, about),
            schema(QJsonObject{{field, fieldProperty}}, {field}), false, false);
        add(QStringLiteral("update_") + name, QStringLiteral("Update %1").arg(noun),
            QStringLiteral("Change an existing %1. Fields you leave out keep their values.").arg(noun),
            schema(QJsonObject{{idKey, idProperty}, {field, fieldProperty}}, {idKey}), false, false);
        add(QStringLiteral("delete_") + name, QStringLiteral("Delete %1").arg(noun),
            QStringLiteral("Delete %1 %2 for good. This cannot be undone.").arg(article, noun),
            schema(QJsonObject{{idKey, idProperty}}, {idKey}), false, true);
        const QString special = s(entity.special);
        QString specialTitle = QString(special).replace(QLatin1Char('_'), QLatin1Char(' '));
        specialTitle[0] = specialTitle.at(0).toUpper();
        add(special, specialTitle, s(entity.specialAbout), schema(QJsonObject{{idKey, idProperty}}, {idKey}),
            false, false);
    }
}

void Catalog::generatePrompts()
{
    for (const PromptSpec &spec : promptSpecs) {
        const QString name = s(spec.name);
        QString title = QString(name).replace(QLatin1Char('_'), QLatin1Char(' '));
        title[0] = title.at(0).toUpper();
        m_prompts.append(
            QJsonObject{{QStringLiteral("name"), name},
                        {QStringLiteral("title"), title},
                        {QStringLiteral("description"), s(spec.description)},
                        {QStringLiteral("arguments"),
                         QJsonArray{QJsonObject{{QStringLiteral("name"), s(spec.argument)},
                                                {QStringLiteral("description"), s(spec.argumentAbout)},
                                                {QStringLiteral("required"), true}}}}});
    }
}

void Catalog::generateTemplates()
{
    for (const TemplateSpec &spec : templateSpecs) {
        m_templates.append(QJsonObject{{QStringLiteral("uriTemplate"), s(spec.uriTemplate)},
                                       {QStringLiteral("name"), s(spec.name)},
                                       {QStringLiteral("description"), s(spec.description)},
                                       {QStringLiteral("mimeType"), QStringLiteral("application/json")}});
    }
}

void Catalog::generateChat() const
{
    Random random(m_seed);

    QList<int> combinations;
    for (int i = 0; i < int(firstNames.size() * lastNames.size()); ++i)
        combinations.append(i);
    random.shuffle(combinations);
    for (int i = 0; i < userCount; ++i) {
        const QString first = s(firstNames[combinations[i] / lastNames.size()]);
        const QString last = s(lastNames[combinations[i] % lastNames.size()]);
        m_users.append(ChatUser{QStringLiteral("u%1").arg(i + 1, 4, 10, QLatin1Char('0')),
                                (first + QLatin1Char('.') + last).toLower(), first + QLatin1Char(' ') + last,
                                s(positions[random.below(10)])});
    }
    std::sort(m_users.begin(), m_users.end(),
              [](const ChatUser &a, const ChatUser &b) { return a.username < b.username; });

    QStringList names;
    for (const char *kind : channelKinds) {
        for (const char *topic : topics)
            names.append(s(kind) + QLatin1Char('-') + s(topic));
    }
    random.shuffle(names);
    names = names.mid(0, 78);
    names.append(QStringLiteral("town-square"));
    names.append(QStringLiteral("off-topic"));
    for (int i = 0; i < names.size(); ++i) {
        const QString &name = names.at(i);
        QString display = QString(name).replace(QLatin1Char('-'), QLatin1Char(' '));
        display[0] = display.at(0).toUpper();
        const bool isDefault = name == QStringLiteral("town-square") || name == QStringLiteral("off-topic");
        m_channels.append(ChatChannel{
            QStringLiteral("c%1").arg(i + 1, 3, 10, QLatin1Char('0')), name, display,
            isDefault ? QStringLiteral("Everyone, everything") : QStringLiteral("Work on %1").arg(display),
            !isDefault && random.below(5) == 0});
    }
    std::sort(m_channels.begin(), m_channels.end(),
              [](const ChatChannel &a, const ChatChannel &b) { return a.name < b.name; });

    // Posts are made in time order per channel; town-square gets a bot import of burstSize posts
    // written in one millisecond, more than search_posts' default page.
    QList<QList<ChatPost>> byChannel(m_channels.size());
    qsizetype townSquare = 0;
    for (qsizetype i = 0; i < m_channels.size(); ++i) {
        if (m_channels.at(i).name == QStringLiteral("town-square"))
            townSquare = i;
    }
    QList<qint64> clocks;
    for (qsizetype i = 0; i < m_channels.size(); ++i)
        clocks.append(baseTimeMs + random.below(3600000));
    int made = 0;
    auto makePost = [&](qsizetype channel, qint64 time) {
        ++made;
        const QString message =
            QStringLiteral("%1 %2 %3")
                .arg(s(openers[random.below(8)]), s(subjects[random.below(12)]), s(closers[random.below(6)]));
        byChannel[channel].append(ChatPost{QStringLiteral("p%1").arg(made, 5, 10, QLatin1Char('0')),
                                           m_channels.at(channel).name,
                                           m_users.at(random.below(userCount)).username, time, message});
    };
    for (int i = 0; i < postCount - burstSize; ++i) {
        const qsizetype channel = i % 20 == 0 ? townSquare : random.below(int(m_channels.size()));
        if (channel == townSquare && byChannel[channel].size() == 200) {
            clocks[channel] += 1000;
            for (int b = 0; b < burstSize; ++b)
                makePost(channel, clocks[channel]);
        }
        clocks[channel] += random.below(6) == 0 ? 0 : 1 + random.below(900000);
        makePost(channel, clocks[channel]);
    }
    for (QList<ChatPost> &posts : byChannel) {
        std::sort(posts.begin(), posts.end(), [](const ChatPost &a, const ChatPost &b) {
            return a.createAt != b.createAt ? a.createAt > b.createAt : a.id < b.id;
        });
        m_posts.append(posts);
    }
}

qsizetype Catalog::baseResourceCount() const
{
    ensureChat();
    return m_channels.size() + m_users.size() + m_posts.size();
}

qsizetype Catalog::resourceCount() const
{
    const qsizetype base = baseResourceCount();
    if (m_resourceCount < 0)
        return base;
    return m_posts.isEmpty() ? qMin<qsizetype>(base, m_resourceCount) : m_resourceCount;
}

QByteArray Catalog::resourceJson(qsizetype index) const
{
    ensureChat();
    // Written by hand rather than through QJsonObject: a page of a 100,000-item list is built
    // on every request, and QJsonObject's construction and writer cost ~20x this.
    auto object = [](const QString &uri, const QString &name, const QString &title,
                     const QString &description) {
        QByteArray out;
        out.reserve(64 + 3 * (uri.size() + name.size() + title.size() + description.size()));
        out.append("{\"description\":");
        JsonText::appendString(out, description);
        out.append(",\"mimeType\":\"application/json\",\"name\":");
        JsonText::appendString(out, name);
        out.append(",\"title\":");
        JsonText::appendString(out, title);
        out.append(",\"uri\":");
        JsonText::appendString(out, uri);
        out.append('}');
        return out;
    };
    if (index < m_channels.size()) {
        const ChatChannel &channel = m_channels.at(index);
        return object(QStringLiteral("chat://channels/") + channel.name, channel.name,
                      QStringLiteral("~") + channel.name, channel.purpose);
    }
    index -= m_channels.size();
    if (index < m_users.size()) {
        const ChatUser &user = m_users.at(index);
        return object(QStringLiteral("chat://users/") + user.username, user.username, user.displayName,
                      QStringLiteral("%1, profile of @%2").arg(user.position, user.username));
    }
    index -= m_users.size();
    if (index < m_posts.size()) {
        const ChatPost &post = m_posts.at(index);
        return object(QStringLiteral("chat://posts/") + post.id, post.id,
                      QStringLiteral("Post in ~%1 by @%2").arg(post.channel, post.user), post.message);
    }
    // Archive copies aNNNNNNN (1-based), the posts in turn.
    const qsizetype archive = index - m_posts.size() + 1;
    const ChatPost &post = m_posts.at((archive - 1) % m_posts.size());
    QString id = QString::number(archive);
    id.prepend(QString(qMax<qsizetype>(0, 7 - id.size()), QLatin1Char('0'))).prepend(QLatin1Char('a'));
    return object(QStringLiteral("chat://archive/") + id, id,
                  QStringLiteral("Archived post in ~%1 by @%2").arg(post.channel, post.user), post.message);
}

QJsonObject Catalog::addedItem(const QString &list, int revision) const
{
    ensureChat();
    const QString n = QString::number(revision);
    if (list == QStringLiteral("tools")) {
        return QJsonObject{
            {QStringLiteral("name"), QStringLiteral("beta_tool_") + n},
            {QStringLiteral("description"), QStringLiteral("A tool switched on at revision %1.").arg(n)},
            {QStringLiteral("inputSchema"), schema({}, {})}};
    }
    if (list == QStringLiteral("prompts")) {
        return QJsonObject{
            {QStringLiteral("name"), QStringLiteral("beta_prompt_") + n},
            {QStringLiteral("description"), QStringLiteral("A prompt added at revision %1.").arg(n)}};
    }
    if (list == QStringLiteral("resources")) {
        return QJsonObject{
            {QStringLiteral("uri"), QStringLiteral("chat://posts/new-") + n},
            {QStringLiteral("name"), QStringLiteral("new-") + n},
            {QStringLiteral("description"), QStringLiteral("A post written at revision %1").arg(n)},
            {QStringLiteral("mimeType"), QStringLiteral("application/json")}};
    }
    return QJsonObject{
        {QStringLiteral("uriTemplate"), QStringLiteral("chat://beta/%1/{id}").arg(n)},
        {QStringLiteral("name"), QStringLiteral("beta-") + n},
        {QStringLiteral("description"), QStringLiteral("A template added at revision %1").arg(n)}};
}

void Catalog::addConformanceFixtures()
{
    const QList<std::pair<const char *, const char *>> fixtures{
        {"test_simple_text", "Conformance fixture: answers with one fixed text block."},
        {"test_missing_capability",
         "Conformance fixture: needs the client's sampling capability and fails with -32021 without it."},
        {"test_streaming_elicitation", "Conformance fixture: answers on the request's own stream only."},
        {"test_logging_tool", "Conformance fixture: logs only when the request sets a log level."},
        {"test_trigger_tool_change", "Conformance fixture: announces a tools list change to listeners."},
        {"test_trigger_prompt_change", "Conformance fixture: announces a prompts list change to listeners."},
    };
    for (const auto &[name, description] : fixtures) {
        m_tools.append(QJsonObject{{QStringLiteral("name"), s(name)},
                                   {QStringLiteral("description"), s(description)},
                                   {QStringLiteral("inputSchema"), schema({}, {})}});
    }
}

bool Catalog::isConformanceFixture(const QString &toolName)
{
    return toolName.startsWith(QLatin1String("test_"));
}

std::optional<QJsonObject> Catalog::tool(const QString &name) const
{
    for (const QJsonObject &tool : m_tools) {
        if (tool.value(QStringLiteral("name")).toString() == name)
            return tool;
    }
    return std::nullopt;
}

std::optional<QJsonObject> Catalog::prompt(const QString &name) const
{
    for (const QJsonObject &prompt : m_prompts) {
        if (prompt.value(QStringLiteral("name")).toString() == name)
            return prompt;
    }
    return std::nullopt;
}

std::optional<QString> Catalog::readResource(const QString &uri) const
{
    ensureChat();
    auto tail = [&uri](const QString &prefix) -> std::optional<QString> {
        if (!uri.startsWith(prefix))
            return std::nullopt;
        return uri.mid(prefix.size());
    };
    if (const auto name = tail(QStringLiteral("chat://channels/"))) {
        for (const ChatChannel &channel : m_channels) {
            if (channel.name == *name)
                return pretty(channelJson(channel));
        }
    } else if (const auto username = tail(QStringLiteral("chat://users/"))) {
        const auto it =
            std::lower_bound(m_users.begin(), m_users.end(), *username,
                             [](const ChatUser &user, const QString &key) { return user.username < key; });
        if (it != m_users.end() && it->username == *username)
            return pretty(userJson(*it));
    } else if (const auto id = tail(QStringLiteral("chat://posts/"))) {
        bool ok = false;
        const int index = id->mid(1).toInt(&ok);
        if (ok && id->startsWith(QLatin1Char('p')) && index >= 1 && index <= m_posts.size()) {
            for (const ChatPost &post : m_posts) {
                if (post.id == *id)
                    return pretty(postJson(post));
            }
        }
    } else if (const auto id = tail(QStringLiteral("chat://archive/"))) {
        bool ok = false;
        const int index = id->mid(1).toInt(&ok);
        if (ok && id->startsWith(QLatin1Char('a')) && index >= 1 &&
            index <= resourceCount() - baseResourceCount())
            return pretty(postJson(m_posts.at((index - 1) % m_posts.size())));
    }
    return std::nullopt;
}

QJsonObject Catalog::userJson(const ChatUser &user)
{
    return QJsonObject{{QStringLiteral("id"), user.id},
                       {QStringLiteral("username"), user.username},
                       {QStringLiteral("display_name"), user.displayName},
                       {QStringLiteral("position"), user.position}};
}

QJsonObject Catalog::channelJson(const ChatChannel &channel)
{
    return QJsonObject{
        {QStringLiteral("id"), channel.id},
        {QStringLiteral("name"), channel.name},
        {QStringLiteral("display_name"), channel.displayName},
        {QStringLiteral("purpose"), channel.purpose},
        {QStringLiteral("type"), channel.isPrivate ? QStringLiteral("P") : QStringLiteral("O")}};
}

QJsonObject Catalog::postJson(const ChatPost &post)
{
    return QJsonObject{{QStringLiteral("id"), post.id},
                       {QStringLiteral("channel"), post.channel},
                       {QStringLiteral("user"), post.user},
                       {QStringLiteral("create_at"), post.createAt},
                       {QStringLiteral("message"), post.message}};
}
