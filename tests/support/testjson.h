#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <initializer_list>

namespace testsupport {

// The object a test writes as JSON text. The text is the test's own: a typo in it stops the test at
// once, rather than passing an empty object on to the code under test.
inline QJsonObject jsonObject(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s in %s", qPrintable(error.errorString()), json.constData());
    return doc.object();
}

// The value at a path of member names through nested objects ({"response", "message", "error"}):
// undefined where a member is missing.
inline QJsonValue jsonAt(QJsonValue value, std::initializer_list<const char *> path)
{
    for (const char *name : path)
        value = value.toObject().value(QLatin1String(name));
    return value;
}

// JSON written with ' for " (moc's tokenizer trips over raw strings holding quotes): {'a':1}.
inline QByteArray singleQuotedJson(const char *text)
{
    QByteArray b(text);
    b.replace('\'', '"');
    return b;
}

// JSON text with no whitespace outside its strings.
inline bool isCompactJson(QByteArrayView text)
{
    bool inString = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            return false;
        } else {
            inString = c == '"';
        }
    }
    return true;
}

} // namespace testsupport
