#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace demo {

// How one list pages: a behaviour name (healthy or a misbehaviour) and its parameters.
struct ListBehaviour
{
    QString behaviour = QStringLiteral("healthy");
    int pageSize = 0; // protocol lists: items per page; list tools: default limit
    qint64 ttlMs = 0;
    QString cacheScope;           // "public" or "private"
    int at = 0;                   // the page a misbehaviour happens on (1 = first page); 0 = default
    qint64 latencyMs = 1500;      // slow
    qint64 expireAfterMs = 10000; // expiring
    qint64 intervalMs = 5000;     // list-changed
    int overlap = 3;              // duplicates

    bool is(const char *name) const { return behaviour == QLatin1String(name); }
    // Applies "key": value pairs from a scenario file or a --list override.
    bool apply(const QJsonObject &settings, QString *error);
};

// A scenario: a behaviour per list. Lists: tools, prompts, resources, templates,
// tool:search_posts, tool:list_users, tool:list_channels.
class Scenario
{
public:
    Scenario();

    static QStringList listNames();
    static QStringList behaviourNames();
    static bool isListTool(const QString &list) { return list.startsWith(QLatin1String("tool:")); }
    // The scenario files compiled into the server, by name (without .json).
    static QStringList builtinNames();
    static QString builtinDescription(const QString &name);

    bool loadBuiltin(const QString &name, QString *error);
    bool loadFile(const QString &path, QString *error);
    bool load(const QJsonObject &document, QString *error);
    // "--list LIST=BEHAVIOUR[,key=value...]"
    bool applyOverride(const QString &spec, QString *error);
    void setPageSize(int pageSize);

    QString name() const { return m_name; }
    bool conformanceFixtures() const { return m_conformanceFixtures; }
    // The skills extension's fault: empty (honest skills) or "tampered" (Skills).
    QString skills() const { return m_skills; }
    // Edits to the served items, by list (tools, prompts, templates): {"add": [items],
    // "remove": [names], "merge": {name: members merged in}} (Catalog::applyEdits).
    QJsonObject itemEdits() const { return m_items; }
    // One line for an audience: what to watch for (the scenario's "caption").
    QString caption() const { return m_caption; }
    ListBehaviour behaviour(const QString &list) const { return m_lists.value(list); }

private:
    QString m_name;
    bool m_conformanceFixtures = false;
    QString m_skills;
    QJsonObject m_items;
    QString m_caption;
    QHash<QString, ListBehaviour> m_lists;
};

} // namespace demo
