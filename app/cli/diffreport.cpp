#include "diffreport.h"

#include "clioutput.h"
#include "counted.h"
#include "diffrender.h"
#include "terminaltext.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QXmlStreamWriter>

namespace folio {

namespace DiffReport {

namespace {

using Class = SnapshotChange::Class;

constexpr int LineWidth = 4000;

QString ruleDescription(Class cls)
{
    switch (cls) {
    case Class::Breaking:
        return QStringLiteral(
            "A change that can break a client: an item or argument removed, a required "
            "argument added, a type narrowed, an enum value removed, an outputSchema that "
            "accepts less, a prompt argument made required, a template's variables changed.");
    case Class::Additive:
        return QStringLiteral("Something added or widened: an item, an optional argument, a wider type.");
    case Class::Text:
        return QStringLiteral("A title, description, annotation or other text changed: what a model reads "
                              "(a tool-definition rug pull looks like this).");
    case Class::Caching:
        return QStringLiteral("A list's ttlMs or cacheScope changed, or its scope flipped to public.");
    case Class::Paging:
        return QStringLiteral(
            "A list's page size, number of pages, order of items or cursor format changed.");
    }
    return {};
}

QString levelOf(Class cls)
{
    return cls == Class::Breaking ? QStringLiteral("error")
           : cls == Class::Text   ? QStringLiteral("warning")
                                  : QStringLiteral("note");
}

QJsonObject sideJson(const QString &from, const Snapshot *s)
{
    QJsonObject o{{QStringLiteral("from"), from}};
    if (s) {
        o.insert(QStringLiteral("takenAt"),
                 s->takenAtMs > 0
                     ? QJsonValue(
                           QDateTime::fromMSecsSinceEpoch(s->takenAtMs, Qt::UTC).toString(Qt::ISODateWithMs))
                     : QJsonValue());
        o.insert(QStringLiteral("serverInfo"), s->serverInfo);
        o.insert(QStringLiteral("revision"), s->revision);
    }
    return o;
}

} // namespace

bool parseFormat(const QString &name, Format *format)
{
    static const QList<std::pair<QString, Format>> names{
        {QStringLiteral("text"), Format::Text},   {QStringLiteral("markdown"), Format::Markdown},
        {QStringLiteral("md"), Format::Markdown}, {QStringLiteral("json"), Format::Json},
        {QStringLiteral("junit"), Format::Junit}, {QStringLiteral("sarif"), Format::Sarif}};
    for (const auto &[n, f] : names) {
        if (n == name) {
            *format = f;
            return true;
        }
    }
    return false;
}

bool parseFailOn(const QString &name, FailOn *failOn)
{
    for (FailOn f : {FailOn::Breaking, FailOn::Text, FailOn::Any, FailOn::None}) {
        if (failOnName(f) == name) {
            *failOn = f;
            return true;
        }
    }
    return false;
}

QString failOnName(FailOn failOn)
{
    switch (failOn) {
    case FailOn::Breaking:
        return QStringLiteral("breaking");
    case FailOn::Text:
        return QStringLiteral("text");
    case FailOn::Any:
        return QStringLiteral("any");
    case FailOn::None:
        return QStringLiteral("none");
    }
    return {};
}

bool fails(Class cls, FailOn failOn)
{
    switch (failOn) {
    case FailOn::Breaking:
        return cls == Class::Breaking;
    case FailOn::Text:
        return cls == Class::Breaking || cls == Class::Text;
    case FailOn::Any:
        return true;
    case FailOn::None:
        return false;
    }
    return false;
}

int exitCode(const Input &input)
{
    for (const SnapshotChange &c : input.changes) {
        if (fails(c.cls, input.failOn))
            return 1;
    }
    return 0;
}

QString render(const Input &input, Format format)
{
    switch (format) {
    case Format::Text:
        return toText(input);
    case Format::Markdown:
        return toMarkdown(input);
    case Format::Json:
        return toJson(input);
    case Format::Junit:
        return toJunit(input);
    case Format::Sarif:
        return toSarif(input);
    }
    return {};
}

QString toText(const Input &input)
{
    QString out =
        QStringLiteral("folio diff: %1 → %2\n%3\n")
            .arg(elide(input.before, 200), elide(input.after, 200), DiffRender::countsLine(input.changes));
    QString list = QStringLiteral("\x01"); // no list yet
    for (const SnapshotChange &c : input.changes) {
        if (c.list != list) {
            list = c.list;
            out += QLatin1Char('\n') + (list.isEmpty() ? QStringLiteral("server") : elide(list, 200)) +
                   QLatin1Char('\n');
        }
        QString line = QStringLiteral("  %1 ").arg(SnapshotChange::className(c.cls), -9);
        if (c.item)
            line += *c.item + QStringLiteral(": ");
        line += c.summary;
        out += elide(line, LineWidth) + QLatin1Char('\n');
        if (c.words)
            out += QStringLiteral("            ") + DiffRender::plainWords(*c.words) + QLatin1Char('\n');
    }
    return out;
}

QString toMarkdown(const Input &input)
{
    return DiffRender::markdown(input.before, input.after, input.changes);
}

QString toJson(const Input &input)
{
    QJsonObject counts;
    for (Class cls : SnapshotChange::allClasses())
        counts.insert(SnapshotChange::className(cls), 0);
    QJsonArray changes;
    for (const SnapshotChange &c : input.changes) {
        const QString name = SnapshotChange::className(c.cls);
        counts.insert(name, counts.value(name).toInt() + 1);
        changes.append(c.toJson());
    }
    const QJsonObject o{{QStringLiteral("format"), QStringLiteral("folio-diff")},
                        {QStringLiteral("version"), 1},
                        {QStringLiteral("before"), sideJson(input.before, input.a)},
                        {QStringLiteral("after"), sideJson(input.after, input.b)},
                        {QStringLiteral("failOn"), failOnName(input.failOn)},
                        {QStringLiteral("failed"), exitCode(input) != 0},
                        {QStringLiteral("counts"), counts},
                        {QStringLiteral("changes"), changes}};
    return toJsonText(o);
}

QString toJunit(const Input &input)
{
    const QList<Class> classes = SnapshotChange::allClasses();
    int failures = 0;
    for (Class cls : classes) {
        if (!fails(cls, input.failOn))
            continue;
        failures += std::any_of(input.changes.cbegin(), input.changes.cend(),
                                [&](const SnapshotChange &c) { return c.cls == cls; })
                        ? 1
                        : 0;
    }
    // Server text shown as terminalSafe() shows it before the writer escapes it (as the audit's).
    const auto safe = [](const QString &text) { return terminalSafe(text); };
    QByteArray xml;
    QXmlStreamWriter w(&xml);
    w.setAutoFormatting(true);
    const auto writeCounts = [&] {
        w.writeAttribute(QStringLiteral("tests"), QString::number(classes.size()));
        w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
        w.writeAttribute(QStringLiteral("errors"), QStringLiteral("0"));
        w.writeAttribute(QStringLiteral("skipped"), QStringLiteral("0"));
    };
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("folio diff"));
    writeCounts();
    w.writeStartElement(QStringLiteral("testsuite"));
    w.writeAttribute(QStringLiteral("name"),
                     QStringLiteral("folio diff: %1 → %2").arg(safe(input.before), safe(input.after)));
    writeCounts();
    w.writeAttribute(QStringLiteral("timestamp"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    for (Class cls : classes) {
        QString body;
        int n = 0;
        for (const SnapshotChange &c : input.changes) {
            if (c.cls != cls)
                continue;
            ++n;
            body += (c.list.isEmpty() ? QStringLiteral("server") : c.list) + QStringLiteral(" ") +
                    (c.item ? *c.item + QStringLiteral(": ") : QString()) + c.summary + QLatin1Char('\n');
            if (c.words)
                body += QStringLiteral("    ") + DiffRender::plainWords(*c.words) + QLatin1Char('\n');
        }
        const QString name = SnapshotChange::className(cls);
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), QStringLiteral("folio.diff"));
        w.writeAttribute(QStringLiteral("name"), name);
        if (n > 0 && fails(cls, input.failOn)) {
            w.writeStartElement(QStringLiteral("failure"));
            w.writeAttribute(QStringLiteral("type"), name);
            w.writeAttribute(QStringLiteral("message"),
                             QStringLiteral("%1: %2").arg(name, counted(n, "change", "changes")));
            w.writeCharacters(safe(body));
            w.writeEndElement();
        } else if (n > 0) {
            w.writeTextElement(QStringLiteral("system-out"), safe(body));
        }
        w.writeEndElement(); // testcase
    }
    w.writeEndElement(); // testsuite
    w.writeEndElement(); // testsuites
    w.writeEndDocument();
    return QString::fromUtf8(xml);
}

QString toSarif(const Input &input)
{
    const QList<Class> classes = SnapshotChange::allClasses();
    QJsonArray rules;
    for (Class cls : classes) {
        const QString name = SnapshotChange::className(cls);
        rules.append(QJsonObject{
            {QStringLiteral("id"), name},
            {QStringLiteral("name"), name.at(0).toUpper() + name.mid(1) + QStringLiteral("Change")},
            {QStringLiteral("shortDescription"),
             QJsonObject{{QStringLiteral("text"), QStringLiteral("A %1 change").arg(name)}}},
            {QStringLiteral("fullDescription"), QJsonObject{{QStringLiteral("text"), ruleDescription(cls)}}},
            {QStringLiteral("defaultConfiguration"), QJsonObject{{QStringLiteral("level"), levelOf(cls)}}}});
    }
    QJsonArray results;
    for (const SnapshotChange &c : input.changes) {
        const QString list = c.list.isEmpty() ? QStringLiteral("server") : c.list;
        // One logical location: the item in its list ("tools/name:get_team"), or the list.
        const QJsonArray logical{
            c.item ? QJsonObject{{QStringLiteral("name"), *c.item},
                                 {QStringLiteral("fullyQualifiedName"), list + QLatin1Char('/') + *c.item},
                                 {QStringLiteral("kind"), QStringLiteral("member")}}
                   : QJsonObject{{QStringLiteral("name"), list},
                                 {QStringLiteral("fullyQualifiedName"), list},
                                 {QStringLiteral("kind"), QStringLiteral("module")}}};
        QJsonObject result{
            {QStringLiteral("ruleId"), SnapshotChange::className(c.cls)},
            {QStringLiteral("ruleIndex"), int(classes.indexOf(c.cls))},
            {QStringLiteral("level"), levelOf(c.cls)},
            {QStringLiteral("message"),
             QJsonObject{{QStringLiteral("text"), (c.item ? QStringLiteral("%1 %2: ").arg(list, *c.item)
                                                          : list + QStringLiteral(": ")) +
                                                      c.summary}}},
            {QStringLiteral("locations"),
             QJsonArray{QJsonObject{{QStringLiteral("logicalLocations"), logical}}}}};
        QJsonObject properties{{QStringLiteral("field"), c.field}};
        if (!c.before.isUndefined())
            properties.insert(QStringLiteral("before"), c.before);
        if (!c.after.isUndefined())
            properties.insert(QStringLiteral("after"), c.after);
        result.insert(QStringLiteral("properties"), properties);
        results.append(result);
    }
    QJsonObject driver{{QStringLiteral("name"), QStringLiteral("folio")}, {QStringLiteral("rules"), rules}};
    if (!QCoreApplication::applicationVersion().isEmpty())
        driver.insert(QStringLiteral("version"), QCoreApplication::applicationVersion());
    const QJsonObject run{
        {QStringLiteral("tool"), QJsonObject{{QStringLiteral("driver"), driver}}},
        {QStringLiteral("results"), results},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("before"), input.before}, {QStringLiteral("after"), input.after}}}};
    const QJsonObject sarif{
        {QStringLiteral("$schema"), QStringLiteral("https://json.schemastore.org/sarif-2.1.0.json")},
        {QStringLiteral("version"), QStringLiteral("2.1.0")},
        {QStringLiteral("runs"), QJsonArray{run}}};
    return toJsonText(sarif);
}

} // namespace DiffReport

} // namespace folio
