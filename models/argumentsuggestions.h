#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace folio {

// Suggestions for a tool argument's text field. completion/complete takes only prompt and
// resource references, so a tool's arguments cannot be completed by the server; what is known
// honestly is what the argument's schema says (enum, const, examples, default) and the values the
// user gave that argument before, on that server, for that tool: the last maxRemembered of each,
// kept in QSettings (SettingsKey::toolArgumentHistory). A field shows recent values first, then
// the schema's.
//
// A schema is a server's untrusted text: a suggestion is a value's own text (a string as it is, a
// number or a boolean as JSON writes it; objects, arrays and null are not offered), and a value
// longer than maxLength, or holding characters oneLineSafe() would show as <U+XXXX> (control,
// bidirectional, zero-width), is left out rather than cut or altered, since choosing it would put
// it in the field. At most maxSuggestions are offered, after looking at no more than maxScanned
// values of any one keyword. Nothing that may be a secret is remembered: an argument whose name
// names one (SecretMask::isSecretVariable), whose schema says "format": "password" or
// "writeOnly": true, or a value Folio knows as a secret.
class ArgumentSuggestions
{
public:
    static constexpr int maxRemembered = 10;
    static constexpr int maxSuggestions = 50;
    static constexpr int maxLength = 200;
    static constexpr int maxScanned = 1000;
    static constexpr int maxArguments = 100; // remembered per tool

    // No history: the schema's suggestions only (an elicitation form).
    ArgumentSuggestions() = default;
    // Remembers per server (its saved name) and tool.
    ArgumentSuggestions(const QString &server, const QString &tool);

    bool remembers() const { return !m_tool.isEmpty(); }

    // What the field of argument offers: the values given before, most recent first, then the
    // schema's; each once, at most maxSuggestions.
    QStringList suggestions(const QString &argument, const QJsonObject &propertySchema) const;
    // The values given argument before, most recent first.
    QStringList recent(const QString &argument) const;
    // Remembers the arguments of a call (or a walk) as given: each top-level string, number or
    // boolean, unless it may be a secret. schema is the tool's inputSchema (its properties say
    // which are passwords).
    void remember(const QJsonObject &arguments, const QJsonObject &schema = {}) const;

    // The schema's values for one property: enum, const, examples, default, in that order.
    static QStringList fromSchema(const QJsonObject &propertySchema);
    // The value's text as a field holds it; empty when it is not offered.
    static QString textOf(const QJsonValue &value);
    // Whether an argument's value must never be remembered.
    static bool isSecret(const QString &argument, const QJsonObject &propertySchema);

private:
    QString m_server;
    QString m_tool;
};

} // namespace folio
