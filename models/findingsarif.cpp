#include "findingsarif.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>

namespace folio {

namespace FindingSarif {

namespace {

// The cells of a Markdown table row, split at the '|' that are not escaped.
QStringList cells(const QString &row)
{
    QStringList out;
    QString cell;
    for (qsizetype i = 0; i < row.size(); ++i) {
        const QChar c = row.at(i);
        if (c == u'\\' && i + 1 < row.size() && row.at(i + 1) == u'|') {
            cell += u'|';
            ++i;
        } else if (c == u'|') {
            out << cell.trimmed();
            cell.clear();
        } else {
            cell += c;
        }
    }
    out << cell.trimmed();
    return out;
}

// docs/findings.md's tables: id -> "raised when", read once.
const QHash<QString, QString> &catalogueText()
{
    static const QHash<QString, QString> text = [] {
        QHash<QString, QString> t;
        QFile f(QStringLiteral(":/folio/docs/findings.md"));
        if (!f.open(QIODevice::ReadOnly))
            return t;
        const QStringList lines = QString::fromUtf8(f.readAll()).split(u'\n');
        for (const QString &line : lines) {
            if (!line.startsWith(QLatin1String("| `")))
                continue;
            const QStringList c = cells(line); // "", id, severity, raised when, evidence, ""
            if (c.size() < 5)
                continue;
            QString id = c.at(1);
            id.remove(u'`');
            if (!t.contains(id))
                t.insert(id, c.at(3));
        }
        return t;
    }();
    return text;
}

QString level(Finding::Severity severity)
{
    switch (severity) {
    case Finding::Severity::Error:
        return QStringLiteral("error");
    case Finding::Severity::Warning:
        return QStringLiteral("warning");
    case Finding::Severity::Info:
        return QStringLiteral("note");
    }
    return QStringLiteral("note");
}

// "client-stopped-early" -> "ClientStoppedEarly": SARIF's rule names are Pascal case.
QString ruleName(const QString &id)
{
    QString name;
    for (const QString &word : id.split(u'-', Qt::SkipEmptyParts))
        name += word.at(0).toUpper() + word.mid(1);
    return name;
}

// The first sentence of a help text, for the rule's short description.
QString firstSentence(const QString &text)
{
    const qsizetype end = text.indexOf(QLatin1String(". "));
    QString s = end > 0 ? text.left(end + 1) : text;
    if (s.size() > 300)
        s = s.left(299) + QChar(0x2026);
    return s;
}

} // namespace

QString helpText(const QString &id)
{
    return catalogueText().value(id);
}

QJsonObject log(const QString &server, const QList<Located> &findings, const QString &folioVersion)
{
    const QStringList ids = Finding::catalogue();
    QJsonArray rules;
    for (const QString &id : ids) {
        const QString help = helpText(id);
        QJsonObject rule{{QStringLiteral("id"), id},
                         {QStringLiteral("name"), ruleName(id)},
                         {QStringLiteral("shortDescription"),
                          QJsonObject{{QStringLiteral("text"), help.isEmpty() ? id : firstSentence(help)}}},
                         {QStringLiteral("defaultConfiguration"),
                          QJsonObject{{QStringLiteral("level"), level(Finding::defaultSeverity(id))}}}};
        if (!help.isEmpty()) {
            rule.insert(QStringLiteral("fullDescription"), QJsonObject{{QStringLiteral("text"), help}});
            rule.insert(QStringLiteral("help"),
                        QJsonObject{{QStringLiteral("text"), help + QStringLiteral(" (docs/findings.md)")}});
        }
        rules.append(rule);
    }
    QJsonArray results;
    for (const Located &l : findings) {
        const Finding &f = l.finding;
        const QString item = f.evidence.value(QStringLiteral("item")).toString();
        // Where: the server, then its list, then the page, then the item (what the finding names).
        QString where = server + QLatin1Char('/') + l.list;
        QJsonArray logical{QJsonObject{{QStringLiteral("name"), l.list},
                                       {QStringLiteral("fullyQualifiedName"), where},
                                       {QStringLiteral("kind"), QStringLiteral("module")}}};
        if (!f.pages.isEmpty()) {
            const QString page = QStringLiteral("page %1").arg(f.pages.first() + 1);
            where += QLatin1Char('/') + page;
            logical.append(QJsonObject{{QStringLiteral("name"), page},
                                       {QStringLiteral("fullyQualifiedName"), where},
                                       {QStringLiteral("kind"), QStringLiteral("object")}});
        }
        if (!item.isEmpty()) {
            where += QLatin1Char('/') + item;
            logical.append(QJsonObject{{QStringLiteral("name"), item},
                                       {QStringLiteral("fullyQualifiedName"), where},
                                       {QStringLiteral("kind"), QStringLiteral("member")}});
        }
        const QJsonObject json = f.toJson();
        QJsonObject properties{{QStringLiteral("list"), l.list},
                               {QStringLiteral("page"), json.value(QStringLiteral("page"))},
                               {QStringLiteral("pages"), json.value(QStringLiteral("pages"))},
                               {QStringLiteral("evidence"), f.evidence}};
        if (json.contains(QStringLiteral("source")))
            properties.insert(QStringLiteral("source"), json.value(QStringLiteral("source")));
        QJsonObject result{{QStringLiteral("ruleId"), f.id},
                           {QStringLiteral("level"), level(f.severity)},
                           {QStringLiteral("message"), QJsonObject{{QStringLiteral("text"), f.message}}},
                           {QStringLiteral("locations"),
                            QJsonArray{QJsonObject{{QStringLiteral("logicalLocations"), logical}}}},
                           {QStringLiteral("properties"), properties}};
        if (const qsizetype index = ids.indexOf(f.id); index >= 0)
            result.insert(QStringLiteral("ruleIndex"), int(index));
        results.append(result);
    }
    const QJsonObject driver{{QStringLiteral("name"), QStringLiteral("folio")},
                             {QStringLiteral("version"), folioVersion},
                             {QStringLiteral("rules"), rules}};
    return QJsonObject{
        {QStringLiteral("$schema"), QStringLiteral("https://json.schemastore.org/sarif-2.1.0.json")},
        {QStringLiteral("version"), QStringLiteral("2.1.0")},
        {QStringLiteral("runs"),
         QJsonArray{QJsonObject{{QStringLiteral("tool"), QJsonObject{{QStringLiteral("driver"), driver}}},
                                {QStringLiteral("results"), results}}}}};
}

} // namespace FindingSarif

} // namespace folio
