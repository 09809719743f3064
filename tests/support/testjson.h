#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>

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

} // namespace testsupport
