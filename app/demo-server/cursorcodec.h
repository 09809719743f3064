#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

namespace demo {

// Cursors are opaque to clients but decodable by people: base64url (no padding) of compact JSON.
class CursorCodec
{
public:
    static QString encode(const QJsonObject &fields);
    static std::optional<QJsonObject> decode(const QString &cursor);
};

} // namespace demo
