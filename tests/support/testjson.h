#pragma once

#include <QByteArray>
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

} // namespace testsupport
