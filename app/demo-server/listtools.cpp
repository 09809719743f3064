#include "listtools.h"

#include "catalog.h"
#include "cursorcodec.h"
#include "scenario.h"

#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace demo {

namespace {

struct Limits
{
    int defaultLimit;
    int maximum;
    int termCap; // results for one term/query at most; 0 = no cap
    QString itemsKey;
};

Limits limitsOf(const QString &name)
{
    if (name == QStringLiteral("search_posts"))
        return {20, 100, 100, QStringLiteral("posts")};
    if (name == QStringLiteral("list_users"))
        return {25, 200, 1000, QStringLiteral("users")};
    return {20, 100, 50, QStringLiteral("channels")};
}

PageOutcome toolError(const QString &text)
{
    PageOutcome outcome;
    outcome.result = QJsonObject{
        {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                           {QStringLiteral("text"), text}}}},
        {QStringLiteral("isError"), true}};
    return outcome;
}

bool isWhole(const QJsonValue &value)
{
    return value.isDouble() && value.toDouble() == std::floor(value.toDouble());
}

} // namespace

ListTools::ListTools(const Catalog &catalog, const Scenario &scenario)
    : m_catalog(catalog)
    , m_scenario(scenario)
{}

bool ListTools::isListTool(const QString &name)
{
    return name == QStringLiteral("search_posts") || name == QStringLiteral("list_users") ||
           name == QStringLiteral("list_channels");
}

QString ListTools::fingerprint(const QJsonObject &arguments)
{
    QJsonObject chosen = arguments;
    chosen.remove(QStringLiteral("cursor"));
    chosen.remove(QStringLiteral("limit"));
    const QByteArray bytes = QJsonDocument(chosen).toJson(QJsonDocument::Compact);
    quint32 hash = 2166136261u; // FNV-1a
    for (const char c : bytes) {
        hash ^= quint8(c);
        hash *= 16777619u;
    }
    return QStringLiteral("%1").arg(hash, 8, 16, QLatin1Char('0'));
}

ListTools::Page ListTools::readPage(const QString &name, const QJsonObject &arguments,
                                    const QJsonValue &position, int limit) const
{
    Page page;
    const Limits limits = limitsOf(name);
    auto offsetPage = [&](const QJsonArray &all) {
        const qsizetype offset = position.isUndefined() ? 0 : qsizetype(position.toDouble());
        for (qsizetype i = offset; i < qMin<qsizetype>(all.size(), offset + limit); ++i)
            page.items.append(all.at(i));
        if (offset + limit < all.size())
            page.next = qint64(offset + limit);
    };
    auto capped = [&](QJsonArray &all, bool hasTerm) {
        if (hasTerm && limits.termCap > 0 && all.size() > limits.termCap) {
            while (all.size() > limits.termCap)
                all.removeLast();
            page.capped = true;
        }
    };

    if (name == QStringLiteral("list_users")) {
        const QString term = arguments.value(QStringLiteral("term")).toString();
        QJsonArray all;
        for (const ChatUser &user : m_catalog.users()) {
            if (term.isEmpty() || user.username.contains(term, Qt::CaseInsensitive) ||
                user.displayName.contains(term, Qt::CaseInsensitive))
                all.append(Catalog::userJson(user));
        }
        capped(all, !term.isEmpty());
        offsetPage(all);
        return page;
    }
    if (name == QStringLiteral("list_channels")) {
        const QString term = arguments.value(QStringLiteral("term")).toString();
        QJsonArray all;
        for (const ChatChannel &channel : m_catalog.channels()) {
            if (term.isEmpty() || channel.name.contains(term, Qt::CaseInsensitive))
                all.append(Catalog::channelJson(channel));
        }
        capped(all, !term.isEmpty());
        offsetPage(all);
        return page;
    }

    const QString channel = arguments.value(QStringLiteral("channel")).toString();
    const QString query = arguments.value(QStringLiteral("query")).toString();
    if (!query.isEmpty()) {
        // A search: Mattermost answers it whole (the 100 most recent matches); cut at an offset.
        QList<ChatPost> matches;
        for (const ChatPost &post : m_catalog.posts()) {
            if ((channel.isEmpty() || post.channel == channel) &&
                post.message.contains(query, Qt::CaseInsensitive))
                matches.append(post);
        }
        std::sort(matches.begin(), matches.end(), [](const ChatPost &a, const ChatPost &b) {
            return a.createAt != b.createAt ? a.createAt > b.createAt : a.id < b.id;
        });
        QJsonArray all;
        for (const ChatPost &post : std::as_const(matches))
            all.append(Catalog::postJson(post));
        capped(all, true);
        offsetPage(all);
        return page;
    }

    // A channel read back from the newest post, by time ("before"), with the millisecond rule.
    QList<ChatPost> posts;
    for (const ChatPost &post : m_catalog.posts()) {
        if (post.channel == channel &&
            (position.isUndefined() || post.createAt < qint64(position.toDouble())))
            posts.append(post);
    }
    qsizetype end = posts.size(); // one past the last post on the page
    if (posts.size() > limit) {
        const qint64 lastMs = posts.at(limit - 1).createAt;
        end = limit;
        if (posts.at(limit).createAt == lastMs) {
            // The page would end inside a millisecond: cut back to before it...
            while (end > 0 && posts.at(end - 1).createAt == lastMs)
                --end;
            // ...unless that millisecond alone holds more than the page: then read it whole.
            if (end == 0) {
                while (end < posts.size() && posts.at(end).createAt == lastMs)
                    ++end;
            }
        }
    }
    for (qsizetype i = 0; i < end; ++i)
        page.items.append(Catalog::postJson(posts.at(i)));
    if (end < posts.size())
        page.next = posts.at(end - 1).createAt;
    return page;
}

QJsonValue ListTools::positionOfPage(const QString &name, const QJsonObject &arguments, int limit,
                                     int n) const
{
    QJsonValue position = QJsonValue::Undefined;
    for (int page = 1; page < n; ++page) {
        position = readPage(name, arguments, position, limit).next;
        if (position.isUndefined())
            return position;
    }
    return position;
}

PageOutcome ListTools::call(const QString &name, const QJsonObject &arguments, qint64 nowMs) const
{
    const ListBehaviour b = m_scenario.behaviour(QStringLiteral("tool:") + name);
    const Limits limits = limitsOf(name);

    for (const QString &key : {QStringLiteral("channel"), QStringLiteral("query"), QStringLiteral("term"),
                               QStringLiteral("cursor")}) {
        if (arguments.contains(key) && !arguments.value(key).isString())
            return toolError(QStringLiteral("%1 must be a string").arg(key));
    }
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
        const QStringList known =
            name == QStringLiteral("search_posts")
                ? QStringList{QStringLiteral("channel"), QStringLiteral("query"), QStringLiteral("limit"),
                              QStringLiteral("cursor")}
                : QStringList{QStringLiteral("term"), QStringLiteral("limit"), QStringLiteral("cursor")};
        if (!known.contains(it.key()))
            return toolError(QStringLiteral("unknown argument %1").arg(it.key()));
    }
    int limit = b.pageSize > 0 ? qMin(b.pageSize, limits.maximum) : limits.defaultLimit;
    if (arguments.contains(QStringLiteral("limit"))) {
        const QJsonValue value = arguments.value(QStringLiteral("limit"));
        if (!isWhole(value) || value.toDouble() < 1)
            return toolError(QStringLiteral("limit must be a whole number of at least 1"));
        limit = int(qMin<double>(value.toDouble(), limits.maximum));
    }
    if (name == QStringLiteral("search_posts")) {
        const QString channel = arguments.value(QStringLiteral("channel")).toString();
        if (channel.isEmpty() && arguments.value(QStringLiteral("query")).toString().isEmpty())
            return toolError(QStringLiteral("give a channel to read, a query to search, or both"));
        const auto &channels = m_catalog.channels();
        if (!channel.isEmpty() && std::none_of(channels.begin(), channels.end(),
                                               [&](const ChatChannel &c) { return c.name == channel; }))
            return toolError(QStringLiteral("no channel named %1").arg(channel));
    }

    const QString fp = fingerprint(arguments);
    const bool hasCursor = arguments.contains(QStringLiteral("cursor"));
    const QString cursorText = arguments.value(QStringLiteral("cursor")).toString();
    QJsonValue position = QJsonValue::Undefined;
    int pageNumber = 1;
    if (hasCursor) {
        QString refusal;
        if (cursorText.isEmpty() && (b.is("empty-string-cursor") || b.is("empty-cursor-forever"))) {
            pageNumber = b.is("empty-cursor-forever") ? 2 : qMax(1, b.at > 0 ? b.at : 2) + 1;
            position = positionOfPage(name, arguments, limit, pageNumber);
            if (position.isUndefined())
                refusal = QStringLiteral("Invalid cursor: the list has no page %1").arg(pageNumber);
        } else if (const auto fields = CursorCodec::decode(cursorText)) {
            const QString tool = fields->value(QStringLiteral("t")).toString();
            const bool positioned = fields->value(QStringLiteral("p")).isDouble() &&
                                    isWhole(fields->value(QStringLiteral("n"))) &&
                                    fields->value(QStringLiteral("n")).toInt() >= 2;
            if (!positioned)
                refusal = QStringLiteral("Invalid cursor: it is not one of this server's cursors");
            else if (b.is("foreign-cursor-accepted"))
                ; // the bug: any well-formed cursor continues, whoever issued it
            else if (tool != name)
                refusal = QStringLiteral("Invalid cursor: it continues %1, not %2").arg(tool, name);
            else if (fields->value(QStringLiteral("f")).toString() != fp)
                refusal = QStringLiteral("Invalid cursor: it was made for other arguments than these");
            if (refusal.isEmpty() && b.is("expiring")) {
                const QJsonValue issued = fields->value(QStringLiteral("i"));
                if (!issued.isDouble())
                    refusal = QStringLiteral("Invalid cursor: it carries no issue time");
                else if (nowMs - qint64(issued.toDouble()) >= b.expireAfterMs)
                    refusal = QStringLiteral("Invalid cursor: expired");
            }
            if (refusal.isEmpty()) {
                position = fields->value(QStringLiteral("p"));
                pageNumber = fields->value(QStringLiteral("n")).toInt();
            }
        } else {
            refusal = QStringLiteral("Invalid cursor: it is not one of this server's cursors");
        }
        if (!refusal.isEmpty()) {
            if (b.is("bad-cursor-restarts")) {
                position = QJsonValue::Undefined;
                pageNumber = 1;
            } else if (b.is("bad-cursor-wrong-code")) {
                return PageOutcome::error(-32603, QStringLiteral("Internal error"));
            } else {
                return toolError(refusal +
                                 QStringLiteral("; call %1 again without a cursor to start over.").arg(name));
            }
        }
    }

    const int at = b.at > 0 ? b.at : (b.is("error-mid-list") ? 3 : 2);
    if (b.is("error-mid-list") && pageNumber == at)
        return toolError(
            QStringLiteral("Internal error: the chat backend failed while reading page %1").arg(pageNumber));
    PageOutcome outcome;
    if (b.is("page-never-answers") && pageNumber == at) {
        outcome.kind = PageOutcome::Kind::NoAnswer;
        return outcome;
    }
    if (b.is("slow"))
        outcome.delayMs = b.latencyMs;

    const Page page = readPage(name, arguments, position, limit);
    auto cursorFor = [&](const QJsonValue &nextPosition, int n) {
        QJsonObject fields{{QStringLiteral("t"), name},
                           {QStringLiteral("f"), fp},
                           {QStringLiteral("p"), nextPosition},
                           {QStringLiteral("n"), n}};
        if (b.is("expiring"))
            fields.insert(QStringLiteral("i"), nowMs);
        return CursorCodec::encode(fields);
    };
    QJsonValue next = QJsonValue::Undefined;
    if (!page.next.isUndefined())
        next = cursorFor(page.next, pageNumber + 1);
    if (b.is("empty-cursor-forever")) {
        next = QString();
    } else if (b.is("empty-string-cursor") && pageNumber == qMax(1, b.at > 0 ? b.at : 2) &&
               !next.isUndefined()) {
        next = QString();
    } else if (b.is("cursor-never-advances") && hasCursor) {
        next = cursorText;
    } else if (b.is("cursor-cycle") && pageNumber == 3) {
        next = cursorFor(positionOfPage(name, arguments, limit, 2), 2);
    }

    QJsonObject structured{{limits.itemsKey, page.items}};
    if (!next.isUndefined())
        structured.insert(QStringLiteral("next_cursor"), next);
    if (page.capped)
        structured.insert(QStringLiteral("capped"), true);
    const QString text = QString::fromUtf8(QJsonDocument(structured).toJson(QJsonDocument::Compact));
    outcome.result = QJsonObject{
        {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                                           {QStringLiteral("text"), text}}}},
        {QStringLiteral("structuredContent"), structured}};
    return outcome;
}

} // namespace demo
