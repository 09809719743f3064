#include "argumentsuggestions.h"

#include "secretmask.h"
#include "settingskeys.h"
#include "terminaltext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSettings>
#include <QVariantMap>

namespace folio {

namespace {

// Adds text to out once, while there is room; false when there is no more room.
bool offer(QStringList *out, QSet<QString> *seen, const QString &text)
{
    if (out->size() >= ArgumentSuggestions::maxSuggestions)
        return false;
    if (!text.isEmpty() && !seen->contains(text)) {
        seen->insert(text);
        out->append(text);
    }
    return out->size() < ArgumentSuggestions::maxSuggestions;
}

} // namespace

ArgumentSuggestions::ArgumentSuggestions(const QString &server, const QString &tool)
    : m_server(server)
    , m_tool(tool)
{}

QString ArgumentSuggestions::textOf(const QJsonValue &value)
{
    QString text;
    if (value.isString()) {
        text = value.toString();
    } else if (value.isDouble() || value.isBool()) {
        const QString json =
            QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact));
        text = json.mid(1, json.size() - 2);
    }
    // Too long to read as a suggestion, or holding what a field would hide: not offered, rather
    // than offered as something it is not.
    if (text.size() > maxLength || oneLineSafe(text) != text)
        return {};
    return text;
}

QStringList ArgumentSuggestions::fromSchema(const QJsonObject &propertySchema)
{
    QStringList out;
    QSet<QString> seen;
    for (const char *keyword : {"enum", "const", "examples", "default"}) {
        const QJsonValue v = propertySchema.value(QLatin1String(keyword));
        if (v.isArray()) {
            const QJsonArray values = v.toArray();
            const qsizetype n = qMin<qsizetype>(values.size(), maxScanned);
            for (qsizetype i = 0; i < n; ++i) {
                if (!offer(&out, &seen, textOf(values.at(i))))
                    return out;
            }
        } else if (!v.isUndefined() && !offer(&out, &seen, textOf(v))) {
            return out;
        }
    }
    return out;
}

QStringList ArgumentSuggestions::recent(const QString &argument) const
{
    if (!remembers())
        return {};
    const QVariantMap stored = QSettings().value(SettingsKey::toolArgumentHistory(m_server, m_tool)).toMap();
    QStringList out;
    // What the settings file says is read as the schema is: it may have been edited by hand.
    const QStringList values = stored.value(argument).toStringList();
    for (const QString &value : values) {
        if (out.size() >= maxRemembered)
            break;
        if (!textOf(value).isEmpty() && !out.contains(value))
            out << value;
    }
    return out;
}

QStringList ArgumentSuggestions::suggestions(const QString &argument, const QJsonObject &propertySchema) const
{
    QStringList out;
    QSet<QString> seen;
    for (const QString &value : recent(argument))
        offer(&out, &seen, value);
    for (const QString &value : fromSchema(propertySchema)) {
        if (!offer(&out, &seen, value))
            break;
    }
    return out;
}

bool ArgumentSuggestions::isSecret(const QString &argument, const QJsonObject &propertySchema)
{
    return SecretMask::isSecretVariable(argument) ||
           propertySchema.value(QStringLiteral("format")).toString() == QLatin1String("password") ||
           propertySchema.value(QStringLiteral("writeOnly")).toBool(false);
}

void ArgumentSuggestions::remember(const QJsonObject &arguments, const QJsonObject &schema) const
{
    if (!remembers() || arguments.isEmpty())
        return;
    const QString key = SettingsKey::toolArgumentHistory(m_server, m_tool);
    QSettings settings;
    QVariantMap stored = settings.value(key).toMap();
    const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
    const QStringList known = SecretMask::known();
    bool changed = false;
    for (auto it = arguments.constBegin(); it != arguments.constEnd(); ++it) {
        const QString text = textOf(it.value());
        if (text.isEmpty() || isSecret(it.key(), properties.value(it.key()).toObject()) ||
            SecretMask::maskKnown(text, known) != text)
            continue;
        if (!stored.contains(it.key()) && stored.size() >= maxArguments)
            continue;
        QStringList values = stored.value(it.key()).toStringList();
        values.removeAll(text);
        values.prepend(text);
        while (values.size() > maxRemembered)
            values.removeLast();
        stored.insert(it.key(), values);
        changed = true;
    }
    if (changed)
        settings.setValue(key, stored);
}

} // namespace folio
