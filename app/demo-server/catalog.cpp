#include "catalog.h"

#include "jsontext.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace demo {

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

// The tables in resources/demo/catalog.json. They are compiled in, so a missing or broken file is
// a build mistake that no user could fix: stop at once rather than serve an empty catalog.
QJsonObject loadContent(const char *name = "catalog.json")
{
    QFile file(QStringLiteral(":/") + QLatin1String(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("folio-demo-server: the compiled-in %s is missing", name);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (!document.isObject())
        qFatal("folio-demo-server: %s is not a JSON object: %s", name, qPrintable(error.errorString()));
    return document.object();
}

QStringList words(const QJsonObject &table, const QString &key)
{
    QStringList result;
    for (const QJsonValue &word : table.value(key).toArray())
        result.append(word.toString());
    return result;
}

QList<QJsonObject> objects(const QJsonValue &array)
{
    QList<QJsonObject> result;
    for (const QJsonValue &object : array.toArray())
        result.append(object.toObject());
    return result;
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

// "pin_post" -> "Pin post": the title of a tool or prompt named in snake case.
QString titleOf(const QString &name)
{
    QString title = QString(name).replace(QLatin1Char('_'), QLatin1Char(' '));
    title[0] = title.at(0).toUpper();
    return title;
}

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
    , m_content(loadContent())
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
    m_tools = objects(m_content.value(QStringLiteral("listTools")));

    // Each entity gets get_, create_, update_, delete_ and one tool of its own.
    for (const QJsonObject &entity : objects(m_content.value(QStringLiteral("entities")))) {
        const QString name = entity.value(QStringLiteral("name")).toString();
        const QString noun = QString(name).replace(QLatin1Char('_'), QLatin1Char(' '));
        const QString idKey = name + QStringLiteral("_id");
        const QJsonObject idProperty = stringProperty(QStringLiteral("Id of the %1").arg(noun));
        const QString field = entity.value(QStringLiteral("field")).toString();
        const QJsonObject fieldProperty =
            stringProperty(entity.value(QStringLiteral("fieldAbout")).toString());
        const QString about = entity.value(QStringLiteral("about")).toString();
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
        const QString special = entity.value(QStringLiteral("special")).toString();
        add(special, titleOf(special), entity.value(QStringLiteral("specialAbout")).toString(),
            schema(QJsonObject{{idKey, idProperty}}, {idKey}), false, false);
    }

    // The tools with content of their own (content.json): their fields replace the generated ones.
    const QJsonObject details = loadContent("content.json").value(QStringLiteral("toolDetails")).toObject();
    for (QJsonObject &tool : m_tools) {
        const QJsonObject detail = details.value(tool.value(QStringLiteral("name")).toString()).toObject();
        for (auto it = detail.begin(); it != detail.end(); ++it)
            tool.insert(it.key(), it.value());
    }
}

void Catalog::generatePrompts()
{
    const QJsonObject optional =
        loadContent("content.json").value(QStringLiteral("promptArguments")).toObject();
    for (const QJsonObject &spec : objects(m_content.value(QStringLiteral("prompts")))) {
        const QString name = spec.value(QStringLiteral("name")).toString();
        QJsonArray arguments{
            QJsonObject{{QStringLiteral("name"), spec.value(QStringLiteral("argument"))},
                        {QStringLiteral("description"), spec.value(QStringLiteral("argumentAbout"))},
                        {QStringLiteral("required"), true}}};
        for (const QJsonValue &extra : optional.value(name).toArray()) {
            QJsonObject argument = extra.toObject();
            argument.insert(QStringLiteral("required"), false);
            arguments.append(argument);
        }
        m_prompts.append(
            QJsonObject{{QStringLiteral("name"), name},
                        {QStringLiteral("title"), titleOf(name)},
                        {QStringLiteral("description"), spec.value(QStringLiteral("description"))},
                        {QStringLiteral("arguments"), arguments}});
    }
}

void Catalog::generateTemplates()
{
    for (const QJsonObject &spec : objects(m_content.value(QStringLiteral("templates")))) {
        QJsonObject item = spec;
        item.insert(QStringLiteral("mimeType"), QStringLiteral("application/json"));
        m_templates.append(item);
    }
}

void Catalog::generateChat() const
{
    Random random(m_seed);
    const QJsonObject userWords = m_content.value(QStringLiteral("users")).toObject();
    const QStringList firstNames = words(userWords, QStringLiteral("firstNames"));
    const QStringList lastNames = words(userWords, QStringLiteral("lastNames"));
    const QStringList positions = words(userWords, QStringLiteral("positions"));
    const QJsonObject channelWords = m_content.value(QStringLiteral("channels")).toObject();
    const QJsonObject postWords = m_content.value(QStringLiteral("posts")).toObject();
    const QStringList openers = words(postWords, QStringLiteral("openers"));
    const QStringList subjects = words(postWords, QStringLiteral("subjects"));
    const QStringList closers = words(postWords, QStringLiteral("closers"));

    QList<int> combinations;
    for (int i = 0; i < int(firstNames.size() * lastNames.size()); ++i)
        combinations.append(i);
    random.shuffle(combinations);
    for (int i = 0; i < userCount; ++i) {
        const QString &first = firstNames.at(combinations[i] / lastNames.size());
        const QString &last = lastNames.at(combinations[i] % lastNames.size());
        m_users.append(ChatUser{QStringLiteral("u%1").arg(i + 1, 4, 10, QLatin1Char('0')),
                                (first + QLatin1Char('.') + last).toLower(), first + QLatin1Char(' ') + last,
                                positions.at(random.below(int(positions.size())))});
    }
    std::sort(m_users.begin(), m_users.end(),
              [](const ChatUser &a, const ChatUser &b) { return a.username < b.username; });

    // 78 kind-topic pairs drawn at random, then the two channels every team has.
    QStringList names;
    const QStringList topics = words(channelWords, QStringLiteral("topics"));
    for (const QString &kind : words(channelWords, QStringLiteral("kinds"))) {
        for (const QString &topic : topics)
            names.append(kind + QLatin1Char('-') + topic);
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
        const QString message = QStringLiteral("%1 %2 %3")
                                    .arg(openers.at(random.below(int(openers.size()))),
                                         subjects.at(random.below(int(subjects.size()))),
                                         closers.at(random.below(int(closers.size()))));
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
    m_tools.append(objects(m_content.value(QStringLiteral("conformanceTools"))));
    const QJsonObject more = loadContent("conformance.json");
    m_tools.append(objects(more.value(QStringLiteral("tools"))));
    m_prompts.append(objects(more.value(QStringLiteral("prompts"))));
    m_templates.append(objects(more.value(QStringLiteral("templates"))));
}

namespace {

// into with over's members merged in: objects member by member, anything else replaced.
QJsonObject merged(QJsonObject into, const QJsonObject &over)
{
    for (auto it = over.begin(); it != over.end(); ++it) {
        const QJsonValue old = into.value(it.key());
        into.insert(it.key(), old.isObject() && it.value().isObject()
                                  ? QJsonValue(merged(old.toObject(), it.value().toObject()))
                                  : it.value());
    }
    return into;
}

} // namespace

void Catalog::applyEdits(const QJsonObject &edits)
{
    for (auto it = edits.begin(); it != edits.end(); ++it) {
        QList<QJsonObject> *items = it.key() == QLatin1String("tools")     ? &m_tools
                                    : it.key() == QLatin1String("prompts") ? &m_prompts
                                                                           : &m_templates;
        const QJsonObject edit = it.value().toObject();
        const QJsonArray removed = edit.value(QStringLiteral("remove")).toArray();
        const QJsonObject merges = edit.value(QStringLiteral("merge")).toObject();
        items->removeIf(
            [&](const QJsonObject &item) { return removed.contains(item.value(QStringLiteral("name"))); });
        for (QJsonObject &item : *items) {
            const QString name = item.value(QStringLiteral("name")).toString();
            if (merges.contains(name))
                item = merged(item, merges.value(name).toObject());
        }
        items->append(objects(edit.value(QStringLiteral("add"))));
    }
}

bool Catalog::isConformanceFixture(const QString &toolName)
{
    return toolName.startsWith(QLatin1String("test_")) ||
           toolName == QLatin1String("json_schema_2020_12_tool") || toolName == QLatin1String("greet");
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

} // namespace demo
