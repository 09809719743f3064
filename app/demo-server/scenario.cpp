#include "scenario.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <type_traits>

namespace demo {

namespace {

ListBehaviour defaults(const QString &list)
{
    // Each list's page size and hints unless a scenario says otherwise; list tools have no hints
    // of their own, and any other list pages by 20.
    struct Default
    {
        const char *list;
        int pageSize;
        qint64 ttlMs;
        const char *cacheScope;
    };
    static constexpr Default table[] = {
        {"tools", 20, 300000, "public"},       {"prompts", 10, 300000, "public"},
        {"resources", 100, 60000, "private"},  {"templates", 8, 600000, "public"},
        {"tool:search_posts", 20, 0, nullptr}, {"tool:list_users", 25, 0, nullptr},
    };
    ListBehaviour b;
    b.pageSize = 20;
    for (const Default &d : table) {
        if (list != QLatin1String(d.list))
            continue;
        b.pageSize = d.pageSize;
        b.ttlMs = d.ttlMs;
        if (d.cacheScope)
            b.cacheScope = QLatin1String(d.cacheScope);
    }
    return b;
}

QString canonicalBehaviour(const QString &name)
{
    if (name == QStringLiteral("cursor-loop"))
        return QStringLiteral("cursor-cycle");
    return name;
}

} // namespace

bool ListBehaviour::apply(const QJsonObject &settings, QString *error)
{
    for (auto it = settings.begin(); it != settings.end(); ++it) {
        const QString key = it.key();
        const QJsonValue value = it.value();
        auto number = [&](auto &target) {
            if (!value.isDouble() || value.toDouble() < 0) {
                *error = QStringLiteral("%1 must be a number >= 0").arg(key);
                return false;
            }
            target = static_cast<std::remove_reference_t<decltype(target)>>(value.toDouble());
            return true;
        };
        bool ok = true;
        if (key == QStringLiteral("behaviour")) {
            const QString name = canonicalBehaviour(value.toString());
            if (!Scenario::behaviourNames().contains(name)) {
                *error = QStringLiteral("unknown behaviour \"%1\"").arg(value.toString());
                return false;
            }
            behaviour = name;
        } else if (key == QStringLiteral("pageSize")) {
            ok = number(pageSize) && pageSize > 0;
            if (pageSize <= 0)
                *error = QStringLiteral("pageSize must be at least 1");
        } else if (key == QStringLiteral("ttlMs")) {
            ok = number(ttlMs);
        } else if (key == QStringLiteral("cacheScope")) {
            cacheScope = value.toString();
            ok = cacheScope == QStringLiteral("public") || cacheScope == QStringLiteral("private");
            if (!ok)
                *error = QStringLiteral("cacheScope must be public or private");
        } else if (key == QStringLiteral("at")) {
            ok = number(at);
        } else if (key == QStringLiteral("latencyMs")) {
            ok = number(latencyMs);
        } else if (key == QStringLiteral("expireAfterMs")) {
            ok = number(expireAfterMs);
        } else if (key == QStringLiteral("intervalMs")) {
            ok = number(intervalMs) && intervalMs > 0;
            if (intervalMs <= 0)
                *error = QStringLiteral("intervalMs must be at least 1");
        } else if (key == QStringLiteral("overlap")) {
            ok = number(overlap);
        } else {
            *error = QStringLiteral("unknown setting \"%1\"").arg(key);
            return false;
        }
        if (!ok)
            return false;
    }
    return true;
}

Scenario::Scenario()
    : m_name(QStringLiteral("healthy"))
{
    for (const QString &list : listNames())
        m_lists.insert(list, defaults(list));
}

QStringList Scenario::listNames()
{
    return {QStringLiteral("tools"),
            QStringLiteral("prompts"),
            QStringLiteral("resources"),
            QStringLiteral("templates"),
            QStringLiteral("tool:search_posts"),
            QStringLiteral("tool:list_users"),
            QStringLiteral("tool:list_channels")};
}

QStringList Scenario::behaviourNames()
{
    return {QStringLiteral("healthy"),
            QStringLiteral("ttl-varies"),
            QStringLiteral("empty-string-cursor"),
            QStringLiteral("expiring"),
            QStringLiteral("bad-cursor-restarts"),
            QStringLiteral("bad-cursor-wrong-code"),
            QStringLiteral("cursor-never-advances"),
            QStringLiteral("cursor-cycle"),
            QStringLiteral("empty-cursor-forever"),
            QStringLiteral("duplicates"),
            QStringLiteral("scope-mismatch"),
            QStringLiteral("hints-missing"),
            QStringLiteral("hints-invalid"),
            QStringLiteral("foreign-cursor-accepted"),
            QStringLiteral("error-mid-list"),
            QStringLiteral("slow"),
            QStringLiteral("page-never-answers"),
            QStringLiteral("list-changed"),
            QStringLiteral("unstable-order"),
            QStringLiteral("huge-pages")};
}

QStringList Scenario::builtinNames()
{
    QStringList names;
    const QStringList files =
        QDir(QStringLiteral(":/scenarios")).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString &file : files)
        names.append(file.chopped(5));
    return names;
}

QString Scenario::builtinDescription(const QString &name)
{
    QFile file(QStringLiteral(":/scenarios/%1.json").arg(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("description")).toString();
}

bool Scenario::loadBuiltin(const QString &name, QString *error)
{
    QFile file(QStringLiteral(":/scenarios/%1.json").arg(name));
    if (!file.exists()) {
        *error = QStringLiteral("no scenario named \"%1\" (see --help)").arg(name);
        return false;
    }
    if (!loadFile(file.fileName(), error))
        return false;
    m_name = name;
    return true;
}

bool Scenario::loadFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *error = QStringLiteral("%1 is not a JSON object: %2").arg(path, parseError.errorString());
        return false;
    }
    m_name = QFileInfo(path).completeBaseName();
    if (!load(document.object(), error)) {
        *error = QStringLiteral("%1: %2").arg(path, *error);
        return false;
    }
    return true;
}

bool Scenario::load(const QJsonObject &document, QString *error)
{
    for (auto it = document.begin(); it != document.end(); ++it) {
        const QStringList known{QStringLiteral("description"),
                                QStringLiteral("caption"),
                                QStringLiteral("default"),
                                QStringLiteral("lists"),
                                QStringLiteral("conformanceFixtures"),
                                QStringLiteral("skills"),
                                QStringLiteral("items")};
        if (!known.contains(it.key())) {
            *error = QStringLiteral("unknown key \"%1\"").arg(it.key());
            return false;
        }
    }
    m_conformanceFixtures = document.value(QStringLiteral("conformanceFixtures")).toBool();
    m_skills = document.value(QStringLiteral("skills")).toString();
    if (!m_skills.isEmpty() && m_skills != QStringLiteral("tampered")) {
        *error = QStringLiteral("skills: unknown fault \"%1\" (tampered)").arg(m_skills);
        return false;
    }
    m_items = document.value(QStringLiteral("items")).toObject();
    for (auto it = m_items.begin(); it != m_items.end(); ++it) {
        const QStringList lists{QStringLiteral("tools"), QStringLiteral("prompts"),
                                QStringLiteral("templates")};
        if (!lists.contains(it.key())) {
            *error = QStringLiteral("items: unknown list \"%1\" (tools, prompts or templates)").arg(it.key());
            return false;
        }
        const QJsonObject edits = it.value().toObject();
        for (auto e = edits.begin(); e != edits.end(); ++e) {
            const QStringList ops{QStringLiteral("add"), QStringLiteral("remove"), QStringLiteral("merge")};
            if (!ops.contains(e.key())) {
                *error = QStringLiteral("items.%1: unknown edit \"%2\" (add, remove or merge)")
                             .arg(it.key(), e.key());
                return false;
            }
        }
    }
    m_caption = document.value(QStringLiteral("caption")).toString().simplified();
    const QJsonObject all = document.value(QStringLiteral("default")).toObject();
    const QJsonObject lists = document.value(QStringLiteral("lists")).toObject();
    for (auto it = lists.begin(); it != lists.end(); ++it) {
        if (!listNames().contains(it.key())) {
            *error = QStringLiteral("unknown list \"%1\"").arg(it.key());
            return false;
        }
    }
    for (const QString &list : listNames()) {
        ListBehaviour b = defaults(list);
        if (!b.apply(all, error) || !b.apply(lists.value(list).toObject(), error)) {
            *error = QStringLiteral("%1: %2").arg(list, *error);
            return false;
        }
        m_lists.insert(list, b);
    }
    return true;
}

bool Scenario::applyOverride(const QString &spec, QString *error)
{
    const qsizetype equals = spec.indexOf(QLatin1Char('='));
    const QString list = spec.left(equals);
    if (equals < 0 || !listNames().contains(list)) {
        *error = QStringLiteral("--list wants LIST=BEHAVIOUR[,key=value...] with LIST one of %1")
                     .arg(listNames().join(QStringLiteral(", ")));
        return false;
    }
    QJsonObject settings;
    const QStringList parts = spec.mid(equals + 1).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        if (eq < 0) {
            settings.insert(QStringLiteral("behaviour"), part);
            continue;
        }
        const QString key = part.left(eq);
        const QString value = part.mid(eq + 1);
        bool isNumber = false;
        const double number = value.toDouble(&isNumber);
        settings.insert(key, isNumber ? QJsonValue(number) : QJsonValue(value));
    }
    ListBehaviour b = m_lists.value(list);
    if (!b.apply(settings, error)) {
        *error = QStringLiteral("--list %1: %2").arg(spec, *error);
        return false;
    }
    m_lists.insert(list, b);
    return true;
}

void Scenario::setPageSize(int pageSize)
{
    for (auto it = m_lists.begin(); it != m_lists.end(); ++it)
        it->pageSize = pageSize;
}

} // namespace demo
